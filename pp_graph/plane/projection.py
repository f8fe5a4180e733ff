"""Projections: what one boundary (model context, a tool, memory) receives from a set of typed fields.

The contract's rules come first: fields it does not name or collected for an unrelated purpose are omitted, secrets
and classes it does not allow are denied, personal and sensitive values become a stable subject-scoped token
(keyed HMAC), public and internal values pass, free text is scanned and its personal data tokenised. A site's
policy graph and AMRSF may then tighten each field (transform → token or rewritten text, deny → dropped), never
loosen it. Every field gets a decision with a reason; reasons name classes and categories, never values.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pp_graph.errors import PlaneError
from pp_graph.plane.contracts import Contract, FieldRule
from pp_graph.plane.fields import Field, PrivacyClass
from pp_graph.plane.text import AnonymizerText, TextRewrite, TextSpan, parse_level
from pp_graph.risk.detect import detect
from pp_graph.vocab.dpv import compact, expand, vocabulary

ALLOW, TOKEN, TRANSFORM, DENY, OMIT = "allow", "token", "transform", "deny", "omit"
_STRENGTH = {ALLOW: 0, TRANSFORM: 1, TOKEN: 1, DENY: 2, OMIT: 2}
_PROTECTED = (PrivacyClass.PERSONAL, PrivacyClass.SENSITIVE)
PREPARED_LIMIT = 4096  # prepared field decisions kept per projector (emptied when full)


class Tokenizer:
    """Stable subject-scoped tokens: HMAC-SHA256(key, scope ‖ value), so equal values of one subject share a token
    and the same value of two subjects does not."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise PlaneError("the token key must be at least 16 bytes")
        self._key = key

    def token(self, scope: str, value: object) -> str:
        msg = f"{scope}\x00{value}".encode()
        return "tok_" + hmac.new(self._key, msg, hashlib.sha256).hexdigest()[:20]


class TextTransformer(Protocol):
    """Rewrites free text at an anonymization level: returns a ``TextRewrite`` (text, categories, spans with
    input offsets) or a plain (text, categories) pair. The default is the anonymizer (``AnonymizerText``);
    ``token_text`` tokenises risk detection's spans only."""

    def __call__(self, text: str, level: str, token: Callable[[str], str]) -> TextRewrite | tuple[str, list[str]]: ...


def token_text(text: str, level: str, token: Callable[[str], str]) -> TextRewrite:
    """Replace every personal-data span the detector finds (default NER mode) with its token."""
    from pp_graph.anonymize.recognizers import DEFAULT_MODE
    from pp_graph.risk.detect import detector_digest

    spans = detect(text)
    out, last, cats = [], 0, []
    for d in sorted(spans, key=lambda s: s.start):
        out.append(text[last : d.start])
        out.append(token(text[d.start : d.end]))
        last = d.end
        cats.append(compact(d.category))
    out.append(text[last:])
    return TextRewrite("".join(out), sorted(set(cats)), ner_mode=DEFAULT_MODE, detector=detector_digest())


@dataclass(frozen=True, slots=True)
class SiteVerdict:
    """A site policy's decision for one field: allow / transform / deny, the starting level and why."""

    decision: str
    level: str
    reason: str


SiteCheck = Callable[[str, str, str | None, tuple[str, ...]], SiteVerdict]


@dataclass(frozen=True, slots=True)
class FieldDecision:
    name: str
    cls: str
    category: str | None
    action: str
    reasons: tuple[str, ...]
    spans: tuple[TextSpan, ...] = ()  # free text: what was replaced (categories and input offsets, no values)
    ner_mode: str | None = None  # free text: the NER mode that judged it (None: not scanned, or not said)
    detector: str | None = None  # … and the digest of the models it ran
    sweep: str | None = None  # … and of the anonymizer's residual sweep (None: none ran, or not said)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "name": self.name,
            "class": self.cls,
            "category": self.category,
            "action": self.action,
            "reasons": list(self.reasons),
        }
        if self.spans:
            d["spans"] = [s.label() for s in self.spans]
        if self.ner_mode is not None:
            d["ner_mode"] = self.ner_mode
        if self.detector is not None:
            d["detector"] = self.detector
        if self.sweep is not None:
            d["sweep"] = self.sweep
        return d


@dataclass
class Projection(Mapping[str, Any]):
    """The values a boundary receives (a read-only mapping) and one decision per input field."""

    boundary: str
    name: str
    purpose: str
    data: dict[str, Any]
    decisions: list[FieldDecision]
    missing: list[str] = field(default_factory=list)  # required fields the policy denied or omitted
    seq: int | None = None  # the ledger entry recording it

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def related(a: str, b: str) -> bool:
    """Two DPV purposes are related when one is the other or lies under it (skos:broader)."""
    if a == b:
        return True
    v = vocabulary()
    ia, ib = expand(a), expand(b)
    return ia in v.broader_closure(ib) or ib in v.broader_closure(ia)


@dataclass
class _Work:
    f: Field
    rule: FieldRule | None
    action: str = ALLOW
    value: Any = None
    reasons: list[str] = field(default_factory=list)
    categories: tuple[str, ...] = ()
    spans: tuple[TextSpan, ...] = ()
    level: int = 0  # the level free text was last rewritten at (0: not rewritten)
    ner_mode: str | None = None  # the NER mode and detector digest that last judged the free text
    detector: str | None = None
    sweep: str | None = None

    def set(self, action: str, reason: str, value: Any = None) -> None:
        self.action, self.value = action, value
        self.reasons.append(reason)


@dataclass
class Projector:
    """Applies contract rules, then site tightening, to typed fields."""

    tokens: Tokenizer
    site_check: SiteCheck | None = None
    transform_text: TextTransformer = field(default_factory=AnonymizerText)
    # Prepared projections: a structured field's decision, kept per contract and field labels (see ``_key``).
    # Only for a ``site_check`` that answers the same for the same question (the plane's memoises its verdicts).
    prepared: bool = False
    _purpose_ok: dict[tuple[str, str], bool] = field(default_factory=dict)
    _prepared: dict[tuple[Any, ...], FieldDecision] = field(default_factory=dict)

    def project(
        self,
        fields: Sequence[Field],
        *,
        boundary: str,
        purpose: str,
        contract: Contract | None,
        sites: Sequence[str] = (),
    ) -> Projection:
        if contract is not None and boundary == "tool":  # a tool cannot run without them; a context can
            given = {f.name for f in fields}
            absent = [n for n in contract.required if n not in given]
            if absent:
                raise PlaneError(
                    f"contract {contract.name!r} requires field(s) {', '.join(absent)}, which were not given"
                )
        values: dict[str, Any] = {}
        decisions = []
        for f in fields:
            d, value = self._decide(f, contract, purpose, sites)
            decisions.append(d)
            if _STRENGTH[d.action] < 2:
                values[f.name] = value
        missing = [n for n in (contract.required if contract else []) if n not in values]
        name = contract.name if contract else boundary
        return Projection(boundary, name, purpose, values, decisions, missing)

    def _decide(
        self, f: Field, contract: Contract | None, purpose: str, sites: Sequence[str]
    ) -> tuple[FieldDecision, Any]:
        """One field's decision and the value the boundary receives: the contract's rules, then each site."""
        key = self._key(f, contract, purpose, sites)
        if key is not None and (hit := self._prepared.get(key)) is not None:
            return hit, self._replay(f, hit.action)
        w = self._rules(f, contract, purpose)
        for site in sites:
            if _STRENGTH[w.action] < 2:
                self._tighten(w, site, purpose, contract.recipient if contract else None)
        d = FieldDecision(
            *(f.name, str(f.cls), f.category, w.action, tuple(w.reasons), w.spans),
            *(w.ner_mode, w.detector, w.sweep),
        )
        # Kept only when replaying it gives this very value (a guard against a rule that read the value).
        if key is not None and (_STRENGTH[w.action] >= 2 or self._replay(f, w.action) == w.value):
            if len(self._prepared) >= PREPARED_LIMIT:  # field names come from callers: bound the memory
                self._prepared.clear()
            self._prepared[key] = d
        return d, w.value

    def _key(self, f: Field, contract: Contract | None, purpose: str, sites: Sequence[str]) -> tuple[Any, ...] | None:
        """What a structured field's decision rests on: the contract, purpose and sites, and the field's labels
        (never its value). None for free text, whose decision rests on its content."""
        if not self.prepared or f.free_text:
            return None
        rule = contract.fields.get(f.name) if contract else None
        if rule is not None and rule.free_text:
            return None
        c = contract.digest if contract else None
        return (c, purpose, tuple(sites), f.name, f.cls, f.category, f.purpose, f.subject is None)

    def _replay(self, f: Field, action: str) -> Any:
        """The value a prepared decision lets through: the subject-scoped token, the value itself or nothing."""
        if action == TOKEN:
            return self.tokens.token(f.subject or "-", f.value)
        return f.value if _STRENGTH[action] < 2 else None

    def _related(self, a: str, b: str) -> bool:
        key = (a, b)
        ok = self._purpose_ok.get(key)
        if ok is None:
            ok = self._purpose_ok[key] = related(a, b)
        return ok

    def _scope(self, f: Field) -> str:
        if f.subject is None:
            raise PlaneError(f"field {f.name!r}: missing subject label; {f.cls!s} data must name its subject")
        return f.subject

    def _rules(self, f: Field, contract: Contract | None, purpose: str) -> _Work:
        rule = contract.fields.get(f.name) if contract else None
        w = _Work(f, rule, value=f.value)
        if f.cls is PrivacyClass.SECRET:
            w.set(DENY, "secret: never crosses a boundary")
        elif f.purpose is not None and not self._related(f.purpose, purpose):
            w.set(OMIT, f"collected for {f.purpose}, unrelated to {purpose}")
        elif contract is not None and rule is None:
            w.set(OMIT, f"not named by contract {contract.name}")
        elif rule is not None and f.cls not in rule.classes:
            allowed = ", ".join(sorted(c.value for c in rule.classes))
            w.set(DENY, f"class {f.cls!s} not allowed here (contract allows {allowed})")
        elif rule is not None and rule.category and f.category and f.category != rule.category:
            w.set(DENY, f"category {f.category} where the contract expects {rule.category}")
        elif f.cls in _PROTECTED:
            w.set(TOKEN, f"{f.cls!s}: subject-scoped token", self.tokens.token(self._scope(f), f.value))
            w.categories = (f.category,) if f.category else ()
        else:
            w.reasons.append(f"{f.cls!s}: allowed")
            if f.free_text or (rule is not None and rule.free_text):
                self._scan(w, rule.level if rule is not None and rule.level else "L1")
        if f.category and not w.categories:
            w.categories = (f.category,)
        return w

    def _scan(self, w: _Work, level: str) -> None:
        """Free text: detection proposes categories; the policy's answer is to tokenise them."""
        scope = w.f.subject or "-"
        res = self.transform_text(str(w.f.value), level, lambda s: self.tokens.token(scope, s))
        rw = res if isinstance(res, TextRewrite) else TextRewrite(res[0], list(res[1]))
        w.ner_mode, w.detector, w.sweep = rw.ner_mode, rw.detector, rw.sweep  # what judged it, found or not
        if rw.categories:
            w.set(TRANSFORM, f"free text: detected {', '.join(rw.categories)}; {rw.how}", rw.text)
            w.categories = tuple(sorted(set(w.categories) | set(rw.categories)))
            w.spans = rw.spans
            w.level = rw.level or parse_level(level)

    def _tighten(self, w: _Work, site: str, purpose: str, recipient: str | None) -> None:
        if self.site_check is None:  # no policy graphs were given: the site cannot be judged, so nothing goes
            w.set(DENY, f"site {site}: no policy graphs were given to the plane, so its policy cannot be checked")
            return
        v = self.site_check(site, purpose, recipient, w.categories)
        if v.decision == DENY:
            w.set(DENY, f"site {site}: {v.reason}")
        elif v.decision == TRANSFORM:
            prose = w.f.free_text or (w.rule is not None and w.rule.free_text)
            if prose and (w.action == ALLOW or (w.action == TRANSFORM and parse_level(v.level) > w.level)):
                was = w.action
                self._scan(w, v.level)  # from the original text again, at the site's higher level
                if w.action == ALLOW:
                    w.reasons.append(f"site {site}: {v.reason}; no personal data found in the text")
                elif was == TRANSFORM:
                    w.reasons.append(f"site {site}: {v.reason}; rewritten again at {v.level}")
            elif w.action == ALLOW:
                w.set(TOKEN, f"site {site}: {v.reason}", self.tokens.token(w.f.subject or "-", w.f.value))
            else:
                w.reasons.append(f"site {site}: {v.reason}; already {w.action}")
        else:
            w.reasons.append(f"site {site}: {v.reason}")
