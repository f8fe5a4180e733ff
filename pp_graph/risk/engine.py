"""The policy-conditioned risk controller: ``RiskEngine(store).decide(ActionContext(...)) -> Decision``.

An agent about to send data to a site states the action (data categories or the outgoing text,
purposes, recipient kinds, how it was initiated). The engine reads the site's policy graph once
(signals.py), estimates the violation likelihood L with evidence, scores the action with AMRSF
(amrsf.py) and returns allow / transform (with a starting anonymization level) / deny.

The decision record carries categories and offsets only, never the text it was given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from pp_graph.anonymize.core import Rewriter
from pp_graph.anonymize.guard import Guarded, guard_text
from pp_graph.anonymize.guesser import Guesser
from pp_graph.errors import InputError
from pp_graph.model import RecipientKind
from pp_graph.risk import amrsf
from pp_graph.risk.detect import Detection, coverage, detect, detector_digest, entities
from pp_graph.risk.llm import LikelihoodError, LikelihoodModel
from pp_graph.risk.signals import CategoryMatch, Profile, Store, candidate_domains, load_domain_profile
from pp_graph.risk.tables import TIERS, RiskTables, default_tables
from pp_graph.sites import SiteError, parse_site
from pp_graph.vocab.dpv import PERSONAL_DATA, PROCESSING, PURPOSE, compact

if TYPE_CHECKING:
    from pp_graph.anonymize.recognizers import Entity

ACTION_KEYS = frozenset(
    {"id", "site", "data", "purpose", "purposes", "recipient", "recipients", "basis", "operation", "text", "likelihood"}
)

_MAX_ESTIMATES = 100_000  # slow-path answers kept per engine before the memo starts over


@dataclass(frozen=True)
class ActionContext:
    """One outgoing action. Terms may be IRIs, CURIEs (pd:EmailAddress) or DPV labels."""

    site: str | None = None
    data: tuple[str, ...] = ()
    purposes: tuple[str, ...] = ()
    recipients: tuple[str, ...] = ()
    basis: str | None = None
    operation: str | None = None
    text: str | None = None  # outgoing text: scanned for personal data, never stored in the decision
    likelihood: float | None = None  # fixes L (the paper's stress tests)
    id: str | None = None

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> ActionContext:
        """From a JSON object (one line of a batch file); unknown keys and wrong types raise InputError."""
        if not isinstance(obj, Mapping):
            raise InputError("action", f"expected a JSON object, got {type(obj).__name__}")
        unknown = sorted(set(obj) - ACTION_KEYS)
        if unknown:
            allowed = ", ".join(sorted(ACTION_KEYS))
            raise InputError("action", f"unknown key(s) {', '.join(unknown)}; allowed: {allowed}")

        def terms(*keys: str) -> tuple[str, ...]:
            out: list[str] = []
            for k in keys:
                v = obj.get(k)
                if v is None:
                    continue
                items = [v] if isinstance(v, str) else v
                if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
                    raise InputError("action", f"{k!r} must be a string or a list of strings")
                out.extend(items)
            return tuple(out)

        def text(key: str) -> str | None:
            v = obj.get(key)
            if v is not None and not isinstance(v, str):
                raise InputError("action", f"{key!r} must be a string")
            return v

        lk = obj.get("likelihood")
        if lk is not None and (isinstance(lk, bool) or not isinstance(lk, int | float)):
            raise InputError("action", "'likelihood' must be a number in [0, 1]")
        ident = obj.get("id")
        return cls(
            site=text("site"),
            data=terms("data"),
            purposes=terms("purpose", "purposes"),
            recipients=terms("recipient", "recipients"),
            basis=text("basis"),
            operation=text("operation"),
            text=text("text"),
            likelihood=float(lk) if lk is not None else None,
            id=None if ident is None else str(ident),
        )


@dataclass
class Decision:
    """The decision record (JSON via ``to_dict``). No raw input text: categories and offsets only."""

    decision: str
    risk: float
    tier: str
    thresholds: dict[str, Any]
    z: float
    level: str  # initial anonymization level ℓ0 (counterfactual for allow/deny)
    components: dict[str, float]
    likelihood: dict[str, Any]
    transparency: dict[str, Any]
    categories: list[dict[str, Any]]
    purposes: list[dict[str, Any]]
    recipients: list[dict[str, Any]]
    basis: str | None
    operation: str | None
    evidence: list[dict[str, Any]]
    policy: dict[str, Any] | None
    reasons: list[str]
    site: str | None = None
    id: str | None = None
    tables: str = ""
    rules: list[dict[str, Any]] = field(default_factory=list)  # hard rules that fired (rules.tsv)
    detection: dict[str, Any] | None = None  # how much of the text each detector read (None: no text)
    detector: str | None = None  # digest of the models that read the text (CRF file, spaCy pipeline)
    # The ODRL compliance verdict of the call against the site's exported ODRL policy, beside AMRSF's own
    # verdict (``amrsf``), with the rules it rests on and their policy lines (None: no policy, or ODRL off).
    odrl: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        # Shallow on purpose: every field already holds plain JSON values (asdict's deep copy is slow).
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=False)


class RiskEngine:
    """Decides actions against the policy graphs in ``store`` (an EmbeddedStore or anything with ``query``)."""

    def __init__(
        self,
        store: Store | None,
        *,
        tables: RiskTables | None = None,
        thresholds: str = "paper",
        model: LikelihoodModel | None = None,
        as_of: str | None = None,
        ner_mode: str | None = None,
        odrl: bool = True,
    ) -> None:
        from pp_graph.anonymize.recognizers import mode_name
        from pp_graph.risk.odrl_check import OdrlCheck

        self.store = store
        # The anonymizer's NER mode that reads action texts (None: its default); checked against its registry now.
        self.ner_mode = mode_name(ner_mode)
        self.as_of = as_of  # decide against the policy version in force then (ISO 8601 UTC); None: the newest
        self.t = tables or default_tables()
        if thresholds not in self.t.thresholds:
            raise InputError("--thresholds", f"unknown profile {thresholds!r}; one of {', '.join(self.t.thresholds)}")
        self.profile_name = thresholds
        self.model = model
        # Policy signals per domain (None: no policy at exactly that domain), so every spelling of a site
        # (URL, path, www., case) and every subdomain falling back to the same parent share one load.
        self._profiles: dict[str, Profile | None] = {}
        self._terms: dict[tuple[str, str], str] = {}
        self._estimates: dict[tuple[Any, ...], float] = {}  # slow-path model answers per identical question
        # An active ODRL prohibition in the site's exported policy denies, whatever the score.
        self.odrl = OdrlCheck(store) if store is not None and odrl else None

    # -- caches --

    def profile(self, site: str | None) -> Profile | None:
        """The site's policy signals: its domain's, else the nearest parent domain's; None without a policy."""
        if not site or self.store is None:
            return None
        for domain in candidate_domains(site):
            if domain not in self._profiles:
                self._profiles[domain] = loaded = load_domain_profile(self.store, domain, self.t.vocab, self.as_of)
                if loaded is not None and self.odrl is not None:
                    self.odrl.prepare(loaded)  # the site's ODRL export, read with its signals
            prof = self._profiles[domain]
            if prof is not None:
                return prof
        return None

    # -- input resolution (memoised; errors say what would be right) --

    def resolve(self, kind: str, term: str) -> str:
        """``term`` as the engine reads it (kind: data, purpose, recipient, basis or operation): a full IRI, or a
        recipient kind's / basis's name; InputError naming the kind and the right spellings."""
        return self._resolve(kind, term)

    def _resolve(self, kind: str, term: str) -> str:
        key = (kind, term)
        iri = self._terms.get(key)
        if iri is None:
            iri = self._resolve_uncached(kind, term)
            self._terms[key] = iri
        return iri

    def _resolve_uncached(self, kind: str, term: str) -> str:
        v = self.t.vocab
        t = term.strip()
        if kind == "data":
            iri = v.resolve(t, PERSONAL_DATA)
            if iri is None:
                raise InputError(
                    "data",
                    f"{term!r} is not a personal-data category in DPV 2.3; "
                    "write pd:EmailAddress, pd:TelephoneNumber, … or a full IRI",
                )
            return iri
        if kind == "purpose":
            iri = v.resolve(t, PURPOSE)
            if iri is None:
                other = v.resolve(t, PROCESSING)  # the table also weighs a few processing terms (dpv:Profiling)
                if other in self.t.extra_purposes:
                    return other
                raise InputError(
                    "purpose",
                    f"{term!r} is not a purpose in DPV 2.3; write dpv:Marketing, "
                    "dpv:ServiceProvision, dpv:Advertising, … or a full IRI",
                )
            return iri
        if kind == "recipient":
            name = t.lower().replace("-", "_").replace(" ", "_")
            if name not in self.t.recipient_tr:
                raise InputError(
                    "recipient", f"{term!r} is not a recipient kind; one of {', '.join(k.value for k in RecipientKind)}"
                )
            return name
        if kind == "basis":
            name = t.lower()
            if name not in self.t.basis_mb:
                raise InputError("basis", f"{term!r} is not a basis; one of {', '.join(self.t.basis_mb)}")
            return name
        iri = v.resolve(t, PROCESSING)
        if iri is None:
            raise InputError(
                "operation",
                f"{term!r} is not a processing operation in DPV 2.3; write dpv:Share, dpv:Collect, dpv:Store, …",
            )
        return iri

    # -- the guard: the decision and the text that may leave --

    def guard(
        self,
        ctx: ActionContext,
        *,
        max_level: int = 5,
        guesser: Guesser | None = None,
        rewriter: Rewriter | None = None,
    ) -> Guarded:
        """allow → the original text, transform → the rewrite from ℓ0 with verified escalation, deny → None.
        The text is detected once: the decision's categories and the rewrite read the same entities. The action
        is checked first: a refused one loads no model and runs no detection."""
        self.check(ctx)
        found = entities(ctx.text, mode=self.ner_mode) if ctx.text else None
        decision = self._decide(ctx, found.entities if found else None)
        return guard_text(
            decision,
            ctx.text,
            max_level=max_level,
            guesser=guesser,
            rewriter=rewriter,
            mode=self.ner_mode,
            detected=found,
        )

    def check(self, ctx: ActionContext) -> None:
        """Raises InputError for what ``decide`` would refuse (likelihood, data, purpose, recipient, basis and
        operation terms) before anything is detected."""
        if ctx.likelihood is not None and not 0.0 <= ctx.likelihood <= 1.0:
            raise InputError("likelihood", f"{ctx.likelihood} is outside [0, 1]")
        for kind, terms in (("data", ctx.data), ("purpose", ctx.purposes), ("recipient", ctx.recipients)):
            for term in terms:
                self._resolve(kind, term)
        if ctx.basis:
            self._resolve("basis", ctx.basis)
        if ctx.operation:
            self._resolve("operation", ctx.operation)

    # -- the decision --

    def decide(self, ctx: ActionContext) -> Decision:
        return self._decide(ctx, None)

    def _decide(self, ctx: ActionContext, found: Sequence[Entity] | None) -> Decision:
        """``decide``; ``found``: the text's entities (``detect.entities``) when the caller detected already."""
        t, pr = self.t, self.t.params
        self.check(ctx)
        categories, read, reasons = self._categories(ctx, found)
        cats = sorted(categories)
        purposes = tuple(sorted({self._resolve("purpose", p) for p in ctx.purposes}))
        recipients = tuple(sorted({self._resolve("recipient", r) for r in ctx.recipients}))
        basis = self._resolve("basis", ctx.basis) if ctx.basis else None
        operation = self._resolve("operation", ctx.operation) if ctx.operation else None
        weights, s_data, tier, rules = self._sensitivity(categories, reasons)
        tr, p, m_b = self._transmission(recipients, operation, purposes, basis)

        # Likelihood L with evidence, and transparency M_T, from the site's policy graph. Only the parsed host is
        # looked up and recorded: a malformed site borrows no policy, and user information never reaches the record.
        site, site_error = destination(ctx.site)
        prof = self.profile(site)
        matches: list[CategoryMatch] = []
        if prof is not None:
            matches = [prof.match(c, purposes, recipients, t) for c in cats]
        evidence = [r for m in matches for r in m.records]
        lk = self._likelihood(ctx, prof, matches, evidence, purposes, recipients, basis, reasons)
        if prof is None:
            credits: list[str] = []
            reasons.append(
                f"{self._no_policy(site, site_error)}: L = {lk['L']:.2f}, M_T = {t.transparency['base']:.2f}"
            )
        else:
            credits = prof.credits(cats, purposes, int(pr["substantial_chars"]))
        m_t = amrsf.transparency(credits, t, prof is not None)

        sc = amrsf.score(amrsf.Factors(s_data, tr, p, m_b, m_t, lk["L"]), t)
        th = t.thresholds[self.profile_name][tier]
        verdict = self._credentials_rule(amrsf.decide(sc.risk, th), cats, rules, reasons)
        verdict = _site_rule(verdict, site_error, rules, reasons)
        z = amrsf.band_position(sc.risk, th)
        level = amrsf.initial_level(z)
        reasons.append(
            f"R = L·S_eff·M_T = {sc.likelihood:.3f}·{sc.s_eff:.3f}·{sc.m_t:.3f} = {sc.risk:.3f}; "
            f"tier {tier} allows below {th.allow:.2f} and denies from {th.deny:.2f} → {verdict}"
            + (f", start at L{level} (z = {z:.2f})" if verdict == amrsf.TRANSFORM else "")
        )
        odrl, verdict = self._odrl_rule(prof, (tuple(cats), purposes, recipients, operation), verdict, reasons)

        return Decision(
            decision=verdict,
            risk=round(sc.risk, 6),
            tier=tier,
            thresholds={"profile": self.profile_name, "allow": th.allow, "deny": th.deny},
            z=round(z, 6),
            level=f"L{level}",
            components=_components(sc, lk["u"]),
            likelihood={k: v for k, v in lk.items() if k not in ("L", "u")},
            transparency={"M_T": round(m_t, 6), "credits": credits},
            categories=[
                {
                    "iri": c,
                    "weight": weights[c],
                    "tier": t.tier(c),
                    "weight_from": t.data_weight.source(c),
                    **categories[c],
                }
                for c in cats
            ],
            purposes=[{"iri": x, "p": t.purpose_weight.get(x)} for x in purposes],
            recipients=[{"kind": r, "tr": t.recipient_tr[r]} for r in recipients],
            basis=basis,
            operation=operation,
            evidence=evidence,
            policy=prof.describe() if prof else None,
            reasons=reasons,
            site=site,
            id=ctx.id,
            tables=t.digest,
            rules=rules,
            detection=read,
            detector=detector_digest(self.ner_mode) if ctx.text else None,
            odrl=odrl,
        )

    def _no_policy(self, site: str | None, site_error: str | None) -> str:
        """Why no policy judged the call: the site was refused, none was given, or the graph has none for it."""
        if site_error:
            return f"site refused: {site_error}"
        if not site:
            return "no site given"
        return f"no policy for site {site!r} in the graph" + (f" in force on {self.as_of}" if self.as_of else "")

    def _categories(
        self, ctx: ActionContext, found: Sequence[Entity] | None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, Any] | None, list[str]]:
        """The action's data categories (stated, then detected in its text, with offsets; from ``found`` when
        given), how far NER read, and the first reasons."""
        categories: dict[str, dict[str, Any]] = {}
        for term in ctx.data:
            iri = self._resolve("data", term)
            categories.setdefault(iri, {"source": "input", "spans": []})
        detections: list[Detection] = []
        if ctx.text:
            detections = detect(ctx.text, entities=found, mode=self.ner_mode)
        read = coverage(ctx.text, mode=self.ner_mode) if ctx.text else None
        for d in detections:
            c = categories.setdefault(d.category, {"source": "text", "spans": []})
            c["spans"].append({"start": d.start, "end": d.end, "recognizer": d.recognizer})
        reasons: list[str] = []
        if read is not None and read["ner"] == "partial":
            reasons.append(
                f"names: NER read the first {read['ner_chars']:,} of {read['chars']:,} characters; "
                "the rest had the pattern recognisers only"
            )
        return categories, read, reasons

    def _transmission(
        self, recipients: tuple[str, ...], operation: str | None, purposes: tuple[str, ...], basis: str | None
    ) -> tuple[float, float, float]:
        """M_tr's input (the widest recipient, else the operation), the heaviest purpose, and the basis factor."""
        t, pr = self.t, self.t.params
        if recipients:
            tr = max(t.recipient_tr[r] for r in recipients)
        elif operation:
            tr = t.operation_tr.get(operation)
        else:
            tr = pr["tr_none"]
        p = max((t.purpose_weight.get(x) for x in purposes), default=pr["p_none"])
        m_b = t.basis_mb[basis] if basis else pr["m_b_default"]
        return tr, p, m_b

    def _sensitivity(
        self, categories: dict[str, dict[str, Any]], reasons: list[str]
    ) -> tuple[dict[str, float], float, str, list[dict[str, Any]]]:
        """S_data, the tier, and the bulk rule that applied. S_data is the heaviest category's weight; the tier is
        the most severe tier of any category (weights and tiers are separate tables whose ranges overlap, so the
        heaviest category need not be the strictest)."""
        t, cats = self.t, sorted(categories)
        weights = {c: t.data_weight.get(c) for c in cats}
        if cats:
            top = min(cats, key=lambda c: (-weights[c], t.data_tier.get(c), c))
            strict = min(cats, key=lambda c: (t.data_tier.get(c), -weights[c], c))
            s_data, tier = weights[top], t.tier(strict)
            reasons.append(f"most sensitive data: {compact(top)} (weight {s_data:.2f}, tier {t.tier(top)})")
            if strict != top:
                reasons.append(f"strictest tier: {tier}, from {compact(strict)} (weight {weights[strict]:.2f})")
        else:
            s_data, tier = t.params["s_none"], TIERS[-1]
            reasons.append(f"no personal data stated or detected (S_data {s_data:.2f}, tier {tier})")
        spans = sum(len(c["spans"]) for c in categories.values())
        rules: list[dict[str, Any]] = []
        for count, bulk_tier, line in t.bulk:
            if spans >= count:
                if TIERS.index(bulk_tier) < TIERS.index(tier):
                    reasons.append(f"{spans} personal-data spans in the text: bulk data raises the tier to {bulk_tier}")
                    tier = bulk_tier
                rules.append({"rule": f"bulk ≥ {count} spans → tier {bulk_tier}", "source": f"rules.tsv:{line}"})
                break
        return weights, s_data, tier, rules

    def _credentials_rule(self, verdict: str, cats: list[str], rules: list[dict[str, Any]], reasons: list[str]) -> str:
        """Credentials and secrets never leave: deny, recorded even when R alone denies (the record shows the rule
        that would hold regardless)."""
        cred, cred_line = self.t.credentials
        secret = [c for c in cats if c == cred or self.t.vocab.in_scheme(c, cred)]
        if not secret:
            return verdict
        rules.append(
            {"rule": "credentials never leave → deny", "source": f"rules.tsv:{cred_line}", "categories": secret}
        )
        reasons.append(f"credentials/secrets ({', '.join(map(compact, secret))}) never leave: deny by rule")
        return amrsf.DENY

    def _odrl_rule(
        self,
        prof: Profile | None,
        call: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], str | None],
        verdict: str,
        reasons: list[str],
    ) -> tuple[dict[str, Any] | None, str]:
        """The call against the site's exported ODRL policy: an active prohibition denies, naming its rule and
        policy line; a policy that cannot be exported or read denies too (fail closed)."""
        from pp_graph.errors import PPGraphError
        from pp_graph.odrl.terms import PROHIBITED
        from pp_graph.risk.odrl_check import Call

        if prof is None or self.odrl is None:
            return None, verdict
        try:
            out = {**self.odrl.check(prof, Call(*call)), "amrsf": verdict}
        except PPGraphError as e:
            reasons.append(f"ODRL: the site's ODRL policy could not be evaluated ({e}) → deny")
            return {"verdict": "error", "rules": [], "amrsf": verdict, "message": str(e)}, amrsf.DENY
        if out["verdict"] == PROHIBITED:
            first = out["rules"][0] if out["rules"] else {}
            line = f': "{first["text"]}"' if first.get("text") else ""
            reasons.append(
                f"ODRL: prohibition {first.get('rule', '?')} is active (practice {first.get('practice')}{line}) → deny"
            )
            return out, amrsf.DENY
        first = out["rules"][0] if out["rules"] else {}
        line = f' (rule {first.get("rule", "?")}: "{first["text"]}")' if first.get("text") else ""
        reasons.append(f"ODRL: {out['verdict']} by the site's ODRL policy{line} (AMRSF alone: {verdict})")
        return out, verdict

    def _likelihood(
        self,
        ctx: ActionContext,
        prof: Profile | None,
        matches: list[CategoryMatch],
        evidence: list[dict[str, Any]],
        purposes: tuple[str, ...],
        recipients: tuple[str, ...],
        basis: str | None,
        reasons: list[str],
    ) -> dict[str, Any]:
        t = self.t
        per = [
            {"category": m.category, "match": m.level, "L": t.likelihood[m.level][0], "u": t.likelihood[m.level][1]}
            for m in matches
        ]
        if ctx.likelihood is not None:
            reasons.append(f"L fixed at {ctx.likelihood:.2f} by the caller")
            return {
                "L": ctx.likelihood,
                "u": 0.0,
                "match": "fixed",
                "source": "fixed",
                "path": "fixed",
                "per_category": per,
            }
        if prof is None:
            L, u = t.likelihood["no_policy"]
            return {"L": L, "u": u, "match": "no_policy", "source": "graph", "path": "fast", "per_category": per}
        if not matches:
            level = "undecidable"
        else:
            level = max(matches, key=lambda m: (t.likelihood[m.level][0], t.likelihood[m.level][1])).level
        L, u = t.likelihood[level]
        out: dict[str, Any] = {"L": L, "u": u, "match": level, "source": "graph", "path": "fast", "per_category": per}
        worst = next((m for m in matches if m.level == level), None)
        reasons.append(
            f"policy match: {level.replace('_', ' ')}"
            + (f" for {compact(worst.category)}" if worst else "")
            + f" → L = {L:.2f} (u = {u:.2f})"
        )
        if u < t.params["fast_u"]:
            return out
        if self.model is None:
            out["path"] = "slow-no-model"
            reasons.append("uncertain match and no model configured: the table's L stands")
            return out
        out["path"] = "slow"
        out["model"] = self.model.name
        data = tuple(m.category for m in matches)
        context = {
            "site": prof.site,
            "data": list(data),
            "purposes": list(purposes),
            "recipients": list(recipients),
            "basis": basis,
            "graph_match": level,
        }
        key = (prof.site, data, purposes, recipients, basis, level)
        est = self._estimates.get(key)
        if est is None:
            try:
                est = self.model.estimate(context, evidence)
            except LikelihoodError as e:
                reasons.append(f"model gave no likelihood ({e}); the table's L stands")
                out["model_error"] = str(e)
                return out
            if len(self._estimates) >= _MAX_ESTIMATES:
                self._estimates.clear()
            self._estimates[key] = est
        out["model_estimate"] = est
        if est > L:
            out["L"], out["source"] = est, "model"
            reasons.append(f"model raised L to {est:.2f}")
        else:
            reasons.append(f"model estimate {est:.2f} ≤ {L:.2f}: a model may only raise L")
        return out


def destination(site: str | None) -> tuple[str | None, str | None]:
    """(the site's host, None), or (None, why it is refused) for a site that names no one valid host."""
    if not site:
        return None, None
    try:
        return parse_site(site), None
    except SiteError as e:
        return None, e.problem


def _site_rule(verdict: str, site_error: str | None, rules: list[dict[str, Any]], reasons: list[str]) -> str:
    """A destination that is not a valid host name is denied whatever R says (fail closed): an HTTP client
    could connect to a host other than the one whose policy was read."""
    if site_error is None:
        return verdict
    rules.append({"rule": "invalid site → deny", "source": "site parser (WHATWG URL host)"})
    reasons.append("the site names no valid host: deny by rule")
    return amrsf.DENY


def _components(sc: amrsf.Score, u: Any) -> dict[str, Any]:
    """The AMRSF factors of a decision record (rounded where they are products)."""
    return {
        "S_data": sc.s_data,
        "M_tr": round(sc.m_tr, 6),
        "M_p": round(sc.m_p, 6),
        "M_b": sc.m_b,
        "S_eff": round(sc.s_eff, 6),
        "M_T": round(sc.m_t, 6),
        "L": sc.likelihood,
        "u": u,
    }
