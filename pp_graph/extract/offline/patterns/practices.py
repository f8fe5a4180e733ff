"""Practice kinds, the categories they are scored under and the details (attributes) they take."""

from __future__ import annotations

from pp_graph.model import AttributeKind, PracticeType, Role
from pp_graph.vocab.dpv import expand

PRACTICE_OF = {
    "collect": PracticeType.FIRST_PARTY_COLLECTION_USE,
    "share": PracticeType.THIRD_PARTY_SHARING_DISCLOSURE,
    "retain": PracticeType.DATA_STORAGE_RETENTION_DELETION,
    "secure": PracticeType.DATA_SECURITY_PROTECTION,
}
# The OPP-115-style category a practice type is scored as (data/lexicon/practice-cues.tsv).
CATEGORY = {
    PracticeType.FIRST_PARTY_COLLECTION_USE: "first-party",
    PracticeType.THIRD_PARTY_COLLECTION_USE: "third-party",
    PracticeType.THIRD_PARTY_SHARING_DISCLOSURE: "third-party",
    PracticeType.DATA_STORAGE_RETENTION_DELETION: "retention",
    PracticeType.DATA_SECURITY_PROTECTION: "security",
}
GENERIC_DATA = expand("dpv:PersonalData")
DETAIL_OF = {
    "retain": {AttributeKind.RETENTION_PERIOD, AttributeKind.STORAGE_PLACE},
    "secure": {AttributeKind.SECURITY_METHOD, AttributeKind.PROTECT_AGAINST},
}
ATTR_ROLE: dict[tuple[PracticeType | None, AttributeKind], Role] = {
    (PracticeType.DATA_STORAGE_RETENTION_DELETION, AttributeKind.RETENTION_PERIOD): Role.RETENTION_PERIOD,
    (PracticeType.DATA_STORAGE_RETENTION_DELETION, AttributeKind.STORAGE_PLACE): Role.STORAGE_PLACE,
    (PracticeType.DATA_SECURITY_PROTECTION, AttributeKind.SECURITY_METHOD): Role.METHOD,
    (PracticeType.DATA_SECURITY_PROTECTION, AttributeKind.PROTECT_AGAINST): Role.PROTECT_AGAINST,
    (None, AttributeKind.LEGAL_BASIS): Role.LEGAL_BASIS,
    # the statements' details (data/rules/statements.toml)
    (PracticeType.DATA_STORAGE_RETENTION_DELETION, AttributeKind.TRANSFER_SAFEGUARD): Role.TRANSFER_SAFEGUARD,
    (PracticeType.USER_CHOICE_CONTROL, AttributeKind.CHOICE_SCOPE): Role.CHOICE_SCOPE,
    (PracticeType.USER_CHOICE_CONTROL, AttributeKind.CHOICE_MECHANISM): Role.CHOICE_MECHANISM,
    (PracticeType.POLICY_CHANGE, AttributeKind.NOTIFICATION_MEANS): Role.NOTIFICATION_MEANS,
    (PracticeType.SPECIFIC_AUDIENCE, AttributeKind.AUDIENCE): Role.AUDIENCE,
    (PracticeType.SPECIFIC_AUDIENCE, AttributeKind.AGE_LIMIT): Role.AGE_LIMIT,
}
