"""Behaviour of the offline extractor on small hand-written policies."""

from __future__ import annotations

from pp_graph.extract.offline.backend import OfflineBackend
from pp_graph.extract.pipeline import extract
from pp_graph.load.sources import policy_from_text
from pp_graph.model import AttributeKind, PracticeType, Role
from pp_graph.vocab.dpv import DPV, PD

FP = PracticeType.FIRST_PARTY_COLLECTION_USE
SHARE = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE


def run(text: str):  # type: ignore[no-untyped-def]
    return extract(policy_from_text(text, "shop.example"), OfflineBackend())


def test_collection_with_data_and_purpose() -> None:
    ex = run("We collect your email address and phone number to show you ads.\n")
    r = ex.results[0]
    assert [p.type for p in r.practices] == [FP]
    assert {d.concept for d in r.data} >= {PD + "EmailAddress", PD + "TelephoneNumber"}
    assert DPV + "Advertising" in {p.concept for p in r.purposes}
    roles = {(rel.role, rel.entity.split(":")[0]) for rel in r.relations}
    assert (Role.DATA_COLLECTED, "data") in roles and (Role.PURPOSE_ARGUMENT, "purpose") in roles
    assert (Role.DATA_COLLECTOR, "party") in roles


def test_sharing_receiver_and_negation() -> None:
    ex = run("We share your IP address with advertising partners. We do not sell your personal information.\n")
    r = ex.results[0]
    shares = [p for p in r.practices if p.type == SHARE]
    assert [p.negated for p in shares] == [False, True]  # one practice per sentence
    receivers = [
        r.parties[int(x.entity.split(":")[1])].name
        for x in r.relations
        if x.role == Role.DATA_RECEIVER and x.practice == 0
    ]
    assert receivers == ["advertising partners"]
    ex2 = run("We don’t sell your personal information to data brokers.\n")
    assert [p.negated for p in ex2.results[0].practices] == [True]


def test_third_party_collection() -> None:
    ex = run("Advertisers may collect your device identifiers through cookies.\n")
    assert [p.type for p in ex.results[0].practices] == [PracticeType.THIRD_PARTY_COLLECTION_USE]


def test_retention_period_and_place() -> None:
    ex = run("We store your account information on servers in the United States for five years.\n")
    r = ex.results[0]
    assert [p.type for p in r.practices] == [PracticeType.DATA_STORAGE_RETENTION_DELETION]
    kinds = {a.kind: a for a in r.attributes}
    assert kinds[AttributeKind.RETENTION_PERIOD].value == "P5Y"
    assert kinds[AttributeKind.STORAGE_PLACE].span.text == "United States"


def test_list_items_inherit_the_lead_in_practice() -> None:
    ex = run("We collect the following information:\n* Your precise location.\n* Your photos.\n\nOther text.\n")
    items = ex.results[1:3]
    for r in items:
        assert [(p.type, p.inherited) for p in r.practices] == [(FP, True)]
        assert r.practices[0].span.text == "collect"


def test_heading_gives_context_to_a_triggerless_line() -> None:
    ex = run("## Information We Share\n\nAdvertising partners: your email address.\n")
    r = ex.results[1]
    assert [(p.type, p.inherited) for p in r.practices] == [(SHARE, True)]


def test_no_practice_without_data() -> None:
    ex = run("We use reasonable efforts to keep this page up to date.\n")
    assert ex.results[0].practices == []


def test_deterministic() -> None:
    text = "We collect your email address. We share it with service providers for analytics.\n"
    a, b = run(text), run(text)
    assert [r.practices for r in a.results] == [r.practices for r in b.results]
    assert [r.relations for r in a.results] == [r.relations for r in b.results]


def kinds(text: str) -> list[list[PracticeType]]:
    return [[p.type for p in r.practices] for r in run(text).results]


def test_children_statement_is_not_a_collection_practice() -> None:
    assert kinds("We do not knowingly collect personal information from kids under 13.\n") == [[]]


def test_policy_overview_is_not_a_practice() -> None:
    assert kinds("This notice explains how we collect, use and share your personal data.\n") == [[]]


def test_security_tool_is_not_data_use() -> None:
    secure = PracticeType.DATA_SECURITY_PROTECTION
    assert kinds("We use encryption to protect your payment information.\n") == [[secure]]
    assert kinds("We use access controls and firewalls to secure your account information.\n") == [[secure]]


def test_pronoun_subject_makes_third_party_collection() -> None:
    text = "Some ads on our pages come from ad networks. They may collect your IP address and browsing history.\n"
    assert PracticeType.THIRD_PARTY_COLLECTION_USE in kinds(text)[0]
    third = PracticeType.THIRD_PARTY_COLLECTION_USE
    assert kinds("We use Google Analytics to measure the pages you visit.\n") == [[third]]


def test_plain_text_title_line_acts_as_heading() -> None:
    ex = run("Information We Share\nAdvertising partners: your email address and city.\n")
    assert ex.results[0].practices == []
    assert [(p.type, p.inherited) for p in ex.results[1].practices] == [(SHARE, True)]


def test_retention_needs_retention_wording() -> None:
    retain = PracticeType.DATA_STORAGE_RETENTION_DELETION
    assert kinds("We delete your email address after we have answered your question.\n") == [[retain]]
    assert kinds("Our partners follow rules on the collection, use and retention of personal data.\n") == [[]]
    assert kinds("Please keep in mind that your email address is visible.\n") == [[]]


def test_user_choice_is_not_a_collection_practice() -> None:
    assert kinds("You can opt out of our use of your location data in the app settings.\n") == [[]]


def test_account_information_is_profile_data() -> None:
    r = run("We collect your account information when you register.\n").results[0]
    assert PD + "Profile" in {d.concept for d in r.data}


RETAIN = PracticeType.DATA_STORAGE_RETENTION_DELETION
SECURE = PracticeType.DATA_SECURITY_PROTECTION


def test_retention_period_with_hedged_necessity() -> None:
    assert kinds("We keep your order history for as long as is reasonably necessary.\n") == [[RETAIN]]


def test_site_keeping_or_deleting_named_data_is_retention_without_a_period() -> None:
    assert kinds("We do not store your credit card number.\n") == [[RETAIN]]
    assert kinds("We delete your email address from our servers.\n") == [[RETAIN]]
    assert kinds("We delete your email address after your request has been answered.\n") == [[RETAIN]]


def test_retention_verb_in_a_list_of_verbs_is_not_retention() -> None:
    assert RETAIN not in kinds("We collect, retain and use your email address.\n")[0]


def test_negated_third_party_keeping_is_not_the_sites_retention() -> None:
    assert (
        RETAIN not in kinds("Our vendors receive your email address, but they will not retain your email address.\n")[0]
    )


def test_access_limits_and_duties_to_protect_are_security() -> None:
    assert kinds("We restrict access to your personal information to staff who need it.\n") == [[SECURE]]
    assert kinds("Our contractors are required to protect this information.\n") == [[SECURE]]


def test_participle_after_data_is_a_reference_not_collection() -> None:
    assert kinds("We may disclose your email address collected on the site to the police.\n") == [[SHARE]]


def test_threats_and_data_coming_to_the_site_are_not_sharing() -> None:
    assert kinds(
        "No system can fully prevent unauthorized access, use or disclosure of your personal information.\n"
    ) == [[]]
    assert SHARE not in kinds("Your friends may share your email address with us.\n")[0]
    assert kinds("Do not share your password with anyone.\n") == [[]]


def test_operator_named_as_subject_is_first_party() -> None:
    assert kinds("Acme Health may use your email address to send receipts.\n") == [[FP]]


def test_unbulleted_list_items_inherit_the_lead_in() -> None:
    assert kinds("We use your information to:\n\nsend you receipts;\n\nimprove the site;\n") == [[FP], [FP], [FP]]


def types_of(text: str) -> set[PracticeType]:
    return {p.type for r in run(text).results for p in r.practices}


def test_cue_shared_objects_are_storage_not_sharing() -> None:
    assert SHARE not in types_of("We use Flash local shared objects with partners to remember your settings.\n")
    assert SHARE in types_of("We share your email address with our advertising partners.\n")


def test_cue_readers_choice_about_sharing_is_not_sharing() -> None:
    text = "If you do not want us to share your email address with partners, write to our support desk.\n"
    assert SHARE not in types_of(text)


def test_cue_overview_and_device_sharing_and_sharing_with_us() -> None:
    assert SHARE not in types_of("Read on to learn how your email address is collected and shared by partners.\n")
    assert SHARE not in types_of("If you share your device with partners, log out to protect your account details.\n")
    assert SHARE not in types_of("Members may share their email address with us through partners.\n")


def test_cue_seal_security_and_legal_statements_are_not_first_party_collection() -> None:
    assert FP not in types_of("The seal programme covers the email address we collect on this site.\n")
    assert FP not in types_of("We use encryption and firewalls on the servers where we collect your card number.\n")
    assert FP not in types_of("We may access your email address when served with a subpoena or court order.\n")
    assert FP in types_of("We collect your email address to keep your account secure.\n")


def test_cue_file_is_validated_with_file_and_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from pp_graph.errors import DataFileError
    from pp_graph.extract.offline.cues import load_cues

    bad = tmp_path / "practice-cues.tsv"
    for line, msg in [
        ("first-party\tx\t\\bseal\\b\twhy", "practice-cues.tsv:2: weight"),
        ("privacy\t-1\t\\bseal\\b\twhy", "practice-cues.tsv:2: category"),
        ("first-party\t-1\t(unclosed\twhy", "practice-cues.tsv:2: cue"),
        ("first-party\t-1\t@nope\twhy", "practice-cues.tsv:2: unknown feature"),
        ("first-party\t-1\t\\bseal\\b", "practice-cues.tsv:2: expected"),
    ]:
        bad.write_text("# header\n" + line + "\n", encoding="utf-8")
        with pytest.raises(DataFileError, match=msg):
            load_cues(bad)
    bad.write_text("all\t1\t@base\twhy\nfirst-party\t-1.5\t\\bseal\\b\twhy\n", encoding="utf-8")
    cues = load_cues(bad)
    assert cues.score("first-party", "a seal", frozenset()) == -0.5
    assert cues.score("third-party", "a seal", frozenset()) == 1.0


def test_lexicon_row_without_concept_names_the_file(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import shutil

    import pytest

    from pp_graph.errors import DataFileError
    from pp_graph.extract.offline import backend as offline

    lex = tmp_path / "lexicon"
    shutil.copytree(offline.LEXICON_DIR, lex)
    with open(lex / "data.tsv", "a", encoding="utf-8") as fh:
        fh.write("loyalty number\n")
    monkeypatch.setattr(offline, "LEXICON_DIR", lex)
    offline.load_lexicons.cache_clear()
    try:
        with pytest.raises(DataFileError, match=r"data\.tsv: 'loyalty number' has no concept"):
            offline.load_lexicons()
    finally:
        offline.load_lexicons.cache_clear()


# ---- offline-rules-6: recall paths found on the OPP-115 train split ----

TPC = PracticeType.THIRD_PARTY_COLLECTION_USE


def test_data_given_to_the_site_is_first_party_collection() -> None:
    assert types_of("You may share your name and email address with us when you enter a contest.\n") == {FP}
    assert FP in types_of("When ordering, you may be asked to enter your name and card number.\n")
    # sending or transmitting data to the site is about transport, not a statement of collection
    assert FP not in types_of("Your card number is transmitted to us over an encrypted connection.\n")


def test_own_tracking_technologies_are_first_party_collection() -> None:
    assert types_of("To enhance your visit we may place cookies on your computer.\n") == {FP}
    assert types_of("Cookies allow us to remember you between visits.\n") == {FP}
    assert FP not in types_of("You can set your browser to refuse cookies.\n")


def test_third_party_tracking_is_third_party_collection() -> None:
    assert types_of("Advertisers may place cookies on your computer.\n") == {TPC}
    assert types_of("Our advertising partners may distribute cookies to visitors.\n") == {TPC}


def test_handing_data_to_a_named_recipient_is_sharing() -> None:
    assert types_of("We supply your contact information to marketers.\n") == {SHARE}
    assert SHARE in types_of("Some features allow third parties to see your email address.\n")
    assert SHARE in types_of("Kaleida Health may release your health information to public health authorities.\n")
    assert SHARE in types_of("Our service providers have access to your email address.\n")
    negated = [p for r in run("We do not provide your email address to advertisers.\n").results for p in r.practices]
    assert [(p.type, p.negated) for p in negated] == [(SHARE, True)]


def test_public_posting_is_disclosure() -> None:
    assert SHARE in types_of("Any comment you post on the forums becomes public.\n")
    assert SHARE in types_of("Profiles can be seen and used by other members.\n")


def test_more_security_cues() -> None:
    assert SECURE in types_of("Our checkout pages use SSL when you pay by card.\n")
    assert SECURE in types_of("If your account has been compromised we will tell you.\n")
    assert SECURE in types_of("E-mail you send may be intercepted in transit.\n")
    assert SECURE in types_of("No method of transmission over the Internet is 100% secure.\n")
    assert SECURE in types_of("You are responsible for keeping your password confidential at all times.\n")
    assert SECURE in types_of("We comply with the PCI standard when we take payments online.\n")


def test_more_retention_statements() -> None:
    assert RETAIN in types_of("Personal information is kept on our servers until you ask us to remove it.\n")
    assert RETAIN in types_of("We maintain records of your purchases for seven years.\n")
    assert RETAIN in types_of(
        "We will retain and use your email address as necessary to comply with our legal obligations.\n"
    )
    assert RETAIN in types_of("It may be impossible to completely delete your email address because of backups.\n")
    # a children's section keeps only a retention statement that states its period
    assert types_of("We retain your child's email address for as long as the account is active.\n") == {RETAIN}
    assert types_of("We collect your child's email address.\n") == set()


def test_retention_timing_and_passive_statements() -> None:
    assert RETAIN in types_of("Log files are purged every 30 days.\n")
    assert RETAIN in types_of("We will not keep your email address longer than necessary.\n")
    assert RETAIN in types_of("Your email address will be discarded after two weeks.\n")
    assert RETAIN in types_of("Your email address is deleted when you close your account.\n")
    assert RETAIN in types_of("We will keep your shipping address on file for future orders.\n")
    # a cookie expiring is not the site keeping personal data
    assert RETAIN not in types_of("Session cookies hold no names and are deleted when the browser is closed.\n")
