"""The risk engine over small hand-made policy graphs: likelihood levels, transparency, the paper's
stress tests (GuardianAgent Tables 2 and 3), the decision record and the CLI."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from statistics import mean
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.risk import ActionContext, RiskEngine
from pp_graph.store.embedded import EmbeddedStore

PD = "https://w3id.org/dpv/pd#"
DPV = "https://w3id.org/dpv#"


def practice(
    label: str = "third-party-sharing-disclosure",
    data: tuple[str, ...] = (),
    purposes: tuple[str, ...] = (),
    kinds: tuple[str, ...] = (),
    negated: bool = False,
    text: str = "We share it.",
    retention: bool = False,
) -> dict[str, Any]:
    return {
        "label": label,
        "data": data,
        "purposes": purposes,
        "kinds": kinds,
        "negated": negated,
        "text": text,
        "retention": retention,
    }


def policy_trig(
    site: str,
    practices: list[dict[str, Any]],
    chars: int = 5000,
    bases: tuple[str, ...] = (),
    rights: tuple[str, ...] = (),
) -> str:
    """A policy graph in the shape pp_graph.graph.build writes (only what the risk engine reads)."""
    pol = f"urn:pp-graph:policy:{site}:0000000000000000"
    lines = [
        f'<urn:pp-graph:site:{site}> a pr2g:Website ; pr2g:hasDomain "{site}" .',
        f"<{pol}> a pr2g:PrivacyPolicy ; pr2g:for <urn:pp-graph:site:{site}> ; "
        f'ppg:contentDigest "{"0" * 64}" ; ppg:characterCount {chars} .',
    ]
    lines += [f"<{pol}> ppg:statesLegalBasis <{b}> ." for b in bases]
    lines += [f"<{pol}> ppg:disclosesRight <{r}> ." for r in rights]
    for i, p in enumerate(practices):
        node, text = f"<{pol}/practice/{i}-0>", f"<{pol}/text/{i}>"
        cls = {
            "third-party-sharing-disclosure": "DataSharingDisclosure",
            "data-storage-retention-deletion": "DataStorageRetention",
        }.get(p["label"], "DataCollectionUse")
        lines.append(f"<{pol}> pr2g:hasDataPractice {node} .")
        lines.append(
            f'{node} a pr2g:{cls} ; ppg:practiceLabel "{p["label"]}" ; '
            f"ppg:negated {'true' if p['negated'] else 'false'} ; pr2g:text {text} ."
        )
        lines.append(f"{text} pr2g:value {json.dumps(p['text'])} ; ppg:start {i * 100} ; ppg:end {i * 100 + 50} .")
        lines += [f"{node} pr2g:data <{d}> ." for d in p["data"]]
        lines += [f"{node} pr2g:purpose <{q}> ." for q in p["purposes"]]
        for k in p["kinds"]:
            party = f"<{pol}/party/{k}>"
            prop = "ppg:collector" if k == "first_party" else "pr2g:receiver"
            lines.append(f"{node} {prop} {party} . {party} ppg:recipientKind ppg:recipient-{k.replace('_', '-')} .")
        if p["retention"]:
            lines.append(f'{node} ppg:retentionText "for two years" .')
    body = "\n  ".join(lines)
    return (
        f"@prefix pr2g: <urn:pp-analyze:core#> .\n@prefix ppg: <urn:pp-graph:ontology#> .\n<{pol}> {{\n  {body}\n}}\n"
    )


CONTACT = (PD + "Contact", PD + "Location", PD + "Age", PD + "DeviceBased", PD + "Financial")
FULL = [
    practice("first-party-collection-use", CONTACT, (DPV + "ServiceProvision",), ("first_party",), retention=True),
    practice("third-party-sharing-disclosure", CONTACT, (DPV + "ServiceUsageAnalytics",), ("service_provider",)),
]
SITES = {
    # full transparency: every credit (M_T 0.8)
    "full.example": policy_trig(
        "full.example", FULL, bases=(DPV + "Consent",), rights=("https://w3id.org/dpv/legal/eu/gdpr#A15",)
    ),
    # partial: text, category and purpose (M_T 0.95)
    "partial.example": policy_trig("partial.example", [dict(p, retention=False) for p in FULL]),
    # vague: a policy with next to nothing in it (M_T 1.3)
    "vague.example": policy_trig("vague.example", [], chars=30),
    # Table 3's setting: text and category covered, purposes not (M_T 1.05)
    "t3.example": policy_trig("t3.example", [practice("first-party-collection-use", CONTACT, (), ("first_party",))]),
    # likelihood levels
    "ads.example": policy_trig(
        "ads.example",
        [
            practice(
                data=(PD + "EmailAddress",),
                purposes=(DPV + "Marketing",),
                kinds=("advertising",),
                text="We share your email address with advertising partners for marketing.",
            ),
            practice(data=(PD + "Contact",), purposes=(DPV + "Advertising",), kinds=("unknown",)),
            practice(data=(PD + "TelephoneNumber",), purposes=(), kinds=("advertising",)),
            practice(data=(PD + "Location",), purposes=(DPV + "ServiceProvision",), kinds=("service_provider",)),
            practice(
                data=("https://w3id.org/dpv#PersonalData",),
                purposes=(DPV + "ResearchAndDevelopment",),
                kinds=("analytics",),
            ),
            practice(data=(PD + "GPSCoordinate",), purposes=(DPV + "Marketing",), kinds=("social_media",)),
        ],
    ),
    "nosell.example": policy_trig(
        "nosell.example",
        [
            practice(data=(PD + "EmailAddress",), purposes=(DPV + "Marketing",), kinds=("advertising",)),
            practice(
                data=(PD + "EmailAddress",),
                kinds=("advertising",),
                negated=True,
                text="We never share your email address with advertisers.",
            ),
            practice(
                data=("https://w3id.org/dpv#PersonalData",),
                kinds=("data_broker",),
                negated=True,
                text="We do not sell your personal information.",
            ),
            practice("first-party-collection-use", (PD + "Name",), (DPV + "ServiceProvision",), ("first_party",)),
        ],
    ),
    "empty.example": policy_trig("empty.example", []),
}


@pytest.fixture(scope="module")
def graph_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("risk-graphs")
    for site, trig in SITES.items():
        (d / f"{site}.trig").write_text(trig, encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def engine(graph_dir: Path) -> RiskEngine:
    store = EmbeddedStore()
    store.load([graph_dir])
    return RiskEngine(store)


def act(
    site: str | None,
    data: tuple[str, ...] = (),
    purpose: tuple[str, ...] = (),
    recipient: tuple[str, ...] = (),
    **kw: Any,
) -> ActionContext:
    return ActionContext(site=site, data=data, purposes=purpose, recipients=recipient, **kw)


# ---- likelihood levels from the graph ----


@pytest.mark.parametrize(
    ("data", "purpose", "recipient", "level"),
    [
        ("pd:EmailAddress", "dpv:Marketing", "advertising", "exact"),
        ("pd:EmailAddress", "dpv:DirectMarketing", "advertising", "broader"),  # a broader purpose is declared
        ("pd:EmailAddressWork", "dpv:Marketing", "advertising", "broader"),  # a broader category is declared
        ("pd:EmailAddress", "dpv:Advertising", "data_broker", "broader"),  # pd:Contact to an unspecified third party
        ("pd:Location", "dpv:Marketing", "social_media", "narrower"),  # only pd:GPSCoordinate is declared
        ("pd:TelephoneNumber", "dpv:ServiceProvision", "advertising", "no_purpose"),
        ("pd:Religion", "dpv:ResearchAndDevelopment", "analytics", "generic"),
        ("pd:Location", "dpv:Marketing", "government", "category_only"),
        ("pd:Password", "dpv:Marketing", "advertising", "undeclared"),
    ],
)
def test_likelihood_levels(engine: RiskEngine, data: str, purpose: str, recipient: str, level: str) -> None:
    d = engine.decide(act("ads.example", (data,), (purpose,), (recipient,)))
    assert d.likelihood["match"] == level
    L, u = engine.t.likelihood[level]
    assert (d.components["L"], d.components["u"]) == (L, u)
    if level != "undeclared":
        assert d.evidence and all(e["practice"].startswith("urn:pp-graph:policy:ads.example") for e in d.evidence)


def test_likelihood_is_ordered_as_the_brief_says(engine: RiskEngine) -> None:
    L = {k: v[0] for k, v in engine.t.likelihood.items()}
    assert L["exact"] < L["broader"] < L["category_only"] < L["undeclared"] < L["negated"] < L["no_policy"] == 1.0
    assert L["undecidable"] == 0.5


def test_negated_practice_is_highest_and_cited(engine: RiskEngine) -> None:
    d = engine.decide(act("nosell.example", ("pd:EmailAddress",), ("dpv:Marketing",), ("advertising",)))
    assert d.likelihood["match"] == "negated" and d.components["L"] == 0.95
    assert any(e["negated"] and "never share" in e["text"] for e in d.evidence)
    # "we do not sell your personal information" covers a data broker only generically …
    d = engine.decide(act("nosell.example", ("pd:TelephoneNumber",), ("dpv:Marketing",), ("data_broker",)))
    assert d.likelihood["match"] == "negated_generic"
    assert any("do not sell" in e["text"] for e in d.evidence)
    # … and does not override a declaration for this purpose and recipient.
    d = engine.decide(act("nosell.example", ("pd:Name",), ("dpv:ServiceProvision",), ("first_party",)))
    assert d.likelihood["match"] == "exact"


def test_no_policy_and_empty_policy(engine: RiskEngine) -> None:
    for site in ("unknown.example", None):
        d = engine.decide(act(site, ("pd:EmailAddress",)))
        assert d.components["L"] == 1.0 and d.components["M_T"] == 1.3 and d.policy is None
    d = engine.decide(act("empty.example", ("pd:EmailAddress",)))
    assert d.likelihood["match"] == "undecidable" and d.components["L"] == 0.5
    assert d.likelihood["path"] == "slow-no-model"


def test_site_lookup_accepts_urls_and_subdomains(engine: RiskEngine) -> None:
    for site in ("https://www.ads.example/login?x=1", "api.ads.example", "ADS.EXAMPLE"):
        d = engine.decide(act(site, ("pd:EmailAddress",), ("dpv:Marketing",), ("advertising",)))
        assert d.likelihood["match"] == "exact" and d.policy and d.policy["site"] == "ads.example"


def test_transparency_credits(engine: RiskEngine) -> None:
    full = engine.decide(act("full.example", ("pd:EmailAddress",), ("dpv:ServiceProvision",), ("first_party",)))
    assert sorted(full.transparency["credits"]) == sorted(
        ["substantial_text", "covers_category", "covers_purpose", "legal_basis", "user_rights", "retention"]
    )
    assert full.components["M_T"] == pytest.approx(0.8)
    partial = engine.decide(act("partial.example", ("pd:EmailAddress",), ("dpv:ServiceProvision",)))
    assert partial.components["M_T"] == pytest.approx(0.95)
    assert engine.decide(act("vague.example", ("pd:EmailAddress",))).components["M_T"] == pytest.approx(1.3)
    uncovered = engine.decide(act("partial.example", ("pd:Password",), ("dpv:Marketing",)))
    assert uncovered.components["M_T"] == pytest.approx(1.2)


def test_policy_digest_recorded_and_stable(engine: RiskEngine, graph_dir: Path) -> None:
    a = engine.decide(act("ads.example", ("pd:EmailAddress",))).policy
    assert a and len(a["graph_digest"]) == 64 and a["policies"] == ["urn:pp-graph:policy:ads.example:0000000000000000"]
    store = EmbeddedStore()
    store.load([graph_dir])
    b = RiskEngine(store).decide(act("ads.example", ("pd:EmailAddress",))).policy
    assert b and b["graph_digest"] == a["graph_digest"]
    other = engine.decide(act("nosell.example", ("pd:EmailAddress",))).policy
    assert other and other["graph_digest"] != a["graph_digest"]


def test_unknown_terms_fail_with_a_clear_error(engine: RiskEngine) -> None:
    with pytest.raises(InputError, match="pd:EmailAddress"):
        engine.decide(act("ads.example", ("pd:NoSuchThing",)))
    with pytest.raises(InputError, match="not a purpose"):
        engine.decide(act("ads.example", ("pd:EmailAddress",), ("dpv:Nope",)))
    with pytest.raises(InputError, match="data_broker"):
        engine.decide(act("ads.example", ("pd:EmailAddress",), (), ("martians",)))
    with pytest.raises(InputError, match="background"):
        engine.decide(act("ads.example", ("pd:EmailAddress",), basis="telepathy"))
    with pytest.raises(InputError, match="outside"):
        engine.decide(act("ads.example", ("pd:EmailAddress",), likelihood=1.5))


def test_labels_and_paper_names_are_accepted(engine: RiskEngine) -> None:
    d = engine.decide(act("ads.example", ("email address",), ("Marketing",), ("service-provider",), basis="Paste"))
    assert [c["iri"] for c in d.categories] == [PD + "EmailAddress"]
    assert d.recipients == [{"kind": "service_provider", "tr": 0.4}] and d.basis == "paste"
    d = engine.decide(act(None, ("pd:EmailAddress",), ("profiling",)))
    assert d.purposes == [{"iri": DPV + "Profiling", "p": 0.75}]


# ---- the paper's stress tests (fixed L = 0.7) ----

# PII-Masking-like texts; the most sensitive category in each is phone (0.70), address (0.65) or GPS (0.85).
TEXTS = [
    "Please call me back on +1 415-555-2671 about the delivery.",
    "Ship it to 221 Baker Street, apartment 2.",
    "Meet me at 48.85661, 2.35222 tomorrow morning.",
    "Reach me at jane.doe@example.org or +1 (212) 555-0182.",
    "Invoice to 1600 Pennsylvania Avenue, copy to jd@example.com.",
    "My number changed, it is now +1 646 555 0199.",
    "The drone landed at 40.68925, -74.04450, mail pics to pics@example.net.",
    "Text +1 303 555 0147 when you arrive.",
]
CONTEXTS = {
    "C_low": ("full.example", "first_party", "dpv:ServiceProvision", "paste"),
    "C_med": ("partial.example", "service_provider", "dpv:ServiceUsageAnalytics", "default"),
    "C_high": ("vague.example", "advertising", "dpv:Profiling", "background"),
    "C_ext": ("missing.example", "data_broker", "dpv:Advertising", "background"),
}
PAPER_TABLE2 = {
    "C_low": (0.119, "allow"),
    "C_med": (0.413, "transform"),
    "C_high": (0.909, "deny"),
    "C_ext": (0.909, "deny"),
}


def test_table2_action_context_stress(engine: RiskEngine) -> None:
    for name, (site, recipient, purpose, basis) in CONTEXTS.items():
        ds = [
            engine.decide(
                ActionContext(
                    site=site, text=t, purposes=(purpose,), recipients=(recipient,), basis=basis, likelihood=0.7
                )
            )
            for t in TEXTS
        ]
        r, dominant = PAPER_TABLE2[name]
        assert mean(d.risk for d in ds) == pytest.approx(r, abs=0.015), name
        counts = Counter(d.decision for d in ds)
        assert counts.most_common(1)[0][0] == dominant, (name, counts)
        assert counts[dominant] == len(ds), (name, counts)


def test_table3_band_position_and_level_rise(engine: RiskEngine) -> None:
    contexts = [
        ("first_party", "dpv:Personalisation"),
        ("service_provider", "dpv:Personalisation"),
        ("service_provider", "dpv:Marketing"),
        ("advertising", "dpv:Marketing"),
    ]
    zs, levels, risks = [], [], []
    for recipient, purpose in contexts:
        ds = [
            engine.decide(
                ActionContext(
                    site="t3.example",
                    text=t,
                    purposes=(purpose,),
                    recipients=(recipient,),
                    basis="default",
                    likelihood=0.7,
                )
            )
            for t in TEXTS
        ]
        risks.append(mean(d.risk for d in ds))
        zs.append(mean(d.z for d in ds))
        levels.append(mean(int(d.level[1]) for d in ds))
    assert risks == sorted(risks) and zs == sorted(zs) and levels == sorted(levels)
    assert levels[0] < 2 and levels[-1] == 4  # L1-dominant for T_mild, L4 for T_near-deny
    assert risks[0] == pytest.approx(0.340, abs=0.03) and risks[2] == pytest.approx(0.557, abs=0.03)


# ---- the record ----


def test_record_holds_no_raw_text(engine: RiskEngine) -> None:
    secret = "My card is 4111 1111 1111 1111, mail me at alice.secret@b.org, password: hunter2xyz"
    d = engine.decide(ActionContext(site="ads.example", text=secret, recipients=("advertising",)))
    blob = d.to_json()
    for fragment in ("4111", "alice.secret", "hunter2xyz", "b.org", secret):
        assert fragment not in blob
    spans = [(s["start"], s["end"]) for c in d.categories for s in c["spans"]]
    assert (11, 30) in spans and all(c["source"] == "text" for c in d.categories)
    assert {c["iri"] for c in d.categories} == {PD + "PaymentCardNumber", PD + "EmailAddress", PD + "Password"}
    assert d.tier == "critical"


def test_record_components_reproduce_r(engine: RiskEngine) -> None:
    d = engine.decide(
        act("ads.example", ("pd:EmailAddress",), ("dpv:Marketing",), ("advertising",), basis="background")
    )
    c = d.components
    assert c["M_tr"] == pytest.approx(0.6 + 0.9 * 0.8) and c["M_p"] == pytest.approx(0.5 + 0.9 * 0.65)
    assert c["S_eff"] == pytest.approx(min(1, 0.55 * c["M_tr"] * c["M_p"] * 1.2), abs=1e-6)
    assert d.risk == pytest.approx(min(1, c["L"] * c["S_eff"] * c["M_T"]), abs=1e-6)
    assert d.reasons and json.loads(d.to_json())["decision"] == d.decision


def test_thresholds_profile_code(graph_dir: Path) -> None:
    store = EmbeddedStore()
    store.load([graph_dir])
    paper, code = RiskEngine(store), RiskEngine(store, thresholds="code")
    ctx = act(None, ("pd:Password",), likelihood=0.3, basis="paste")
    assert paper.decide(ctx).thresholds["allow"] == 0.10 and code.decide(ctx).thresholds["allow"] == 0.20
    with pytest.raises(InputError):
        RiskEngine(store, thresholds="nope")


# ---- CLI ----


def test_cli_single_decision(graph_dir: Path) -> None:
    res = CliRunner().invoke(
        main,
        [
            "risk",
            "--graph",
            str(graph_dir),
            "--site",
            "ads.example",
            "--data",
            "pd:EmailAddress",
            "--purpose",
            "dpv:Marketing",
            "--recipient",
            "advertising",
            "--basis",
            "background",
        ],
    )
    assert res.exit_code == 0, res.output
    rec = json.loads(res.output)
    assert rec["likelihood"]["match"] == "exact" and rec["decision"] in {"allow", "transform", "deny"}
    res = CliRunner().invoke(
        main,
        [
            "risk",
            "--graph",
            str(graph_dir),
            "--site",
            "ads.example",
            "--likelihood",
            "0.7",
            "--text",
            "mail me at a@b.org",
            "--recipient",
            "data_broker",
        ],
    )
    assert res.exit_code == 0 and "a@b.org" not in res.output
    assert json.loads(res.output)["components"]["L"] == 0.7
    res = CliRunner().invoke(main, ["risk", "--graph", str(graph_dir), "--data", "pd:Bogus"])
    assert res.exit_code == 2 and "pd:Bogus" in res.output


def test_cli_batch_survives_bad_lines(graph_dir: Path, tmp_path: Path) -> None:
    lines = [
        json.dumps(
            {
                "id": "a",
                "site": "ads.example",
                "data": ["pd:EmailAddress"],
                "purpose": "dpv:Marketing",
                "recipient": "advertising",
            }
        ),
        "{not json",
        json.dumps({"id": "b", "site": "ads.example", "data": "pd:Nope"}),
        "",
        json.dumps(["a", "list"]),
        json.dumps({"id": "c", "site": "nowhere.example", "text": "call +1 415 555 2671", "basis": "fetch"}),
        json.dumps({"id": "d", "color": "blue"}),
    ]
    f = tmp_path / "actions.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["risk", "--graph", str(graph_dir), "--batch", str(f)])
    assert res.exit_code == 1
    recs = [json.loads(x) for x in res.stdout.splitlines() if x.strip()]
    assert [r["line"] for r in recs] == [1, 2, 3, 5, 6, 7]
    errors = {r["line"]: r for r in recs if "error" in r}
    assert set(errors) == {2, 3, 5, 7} and all(r["decision"] == "deny" for r in errors.values())
    assert errors[3]["id"] == "b" and "pd:Nope" in errors[3]["error"] and "color" in errors[7]["error"]
    ok = {r["id"]: r for r in recs if "error" not in r}
    assert ok["c"]["components"]["L"] == 1.0 and "555" not in json.dumps(ok["c"])


# ---- regressions (review findings) ----

SEVERITY = {"allow": 0, "transform": 1, "deny": 2}


def test_tier_is_the_strictest_present_not_the_heaviest(engine: RiskEngine) -> None:
    # pd:Country weighs more (0.35) but is in the low tier; pd:Age (0.30) inherits moderate from dpv:PersonalData.
    base: dict[str, Any] = {"recipients": ("data_broker",), "basis": "script", "likelihood": 0.5}
    one = engine.decide(ActionContext(data=("pd:Age",), **base))
    two = engine.decide(ActionContext(data=("pd:Age", "pd:Country"), **base))
    assert (one.decision, one.tier) == ("transform", "moderate")
    assert (two.decision, two.tier) == ("transform", "moderate")
    assert two.components["S_data"] == 0.35  # S_data stays the heaviest weight
    assert any("strictest tier: moderate, from pd:Age" in r for r in two.reasons)


def _table_categories() -> list[str]:
    from pp_graph.risk.tables import default_tables
    from pp_graph.vocab.dpv import compact

    t = default_tables()
    return sorted({compact(c) for c in (*t.data_weight.rows, *t.data_tier.rows)} | {"pd:Age", "pd:EmailAddressWork"})


TABLE_CATEGORIES = _table_categories()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.lists(st.sampled_from(TABLE_CATEGORIES), min_size=1, max_size=4, unique=True),
    more=st.sampled_from(TABLE_CATEGORIES),
    site=st.sampled_from([None, "ads.example", "nosell.example", "empty.example", "full.example"]),
    purpose=st.sampled_from(["dpv:Marketing", "dpv:ServiceProvision", "dpv:Profiling"]),
    recipient=st.sampled_from(["first_party", "service_provider", "advertising", "data_broker", "unknown"]),
    basis=st.sampled_from(["paste", "default", "script", "background"]),
    likelihood=st.none() | st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.9]),
)
@example(
    data=["pd:Age"],
    more="pd:Country",
    site=None,
    purpose="dpv:ServiceProvision",
    recipient="data_broker",
    basis="script",
    likelihood=0.5,
)
def test_adding_a_category_never_weakens_the_decision(
    engine: RiskEngine,
    data: list[str],
    more: str,
    site: str | None,
    purpose: str,
    recipient: str,
    basis: str,
    likelihood: float | None,
) -> None:
    def decide(cats: list[str]) -> Any:
        return engine.decide(
            ActionContext(
                site=site,
                data=tuple(cats),
                purposes=(purpose,),
                recipients=(recipient,),
                basis=basis,
                likelihood=likelihood,
            )
        )

    before, after = decide(data), decide([*data, more])
    assert SEVERITY[after.decision] >= SEVERITY[before.decision], (data, more, before.tier, after.tier)
    assert after.risk >= before.risk - 1e-9
    assert after.thresholds["allow"] <= before.thresholds["allow"]


class CountingStore:
    def __init__(self, store: Any) -> None:
        self.store, self.queries = store, 0

    def query(self, sparql: str, bindings: Any = None) -> list[dict[str, Any]]:
        self.queries += 1
        return self.store.query(sparql, bindings)


def test_profile_loaded_once_per_domain_whatever_the_spelling(engine: RiskEngine) -> None:
    store = CountingStore(engine.store)
    e = RiskEngine(store)
    first = e.profile("ads.example")
    assert first is not None
    loaded = store.queries
    for spelling in ("https://ads.example/a", "ads.example/b", "www.ads.example", "HTTPS://WWW.Ads.Example:443/c?d"):
        assert e.profile(spelling) is first
    assert store.queries == loaded
    # A subdomain asks once whether it has a policy of its own, then shares the parent's profile.
    assert e.profile("shop.ads.example") is first and store.queries == loaded + 1
    assert e.profile("https://shop.ads.example/x") is first and store.queries == loaded + 1
    # No policy: asked once per domain, then remembered.
    assert e.profile("nowhere.example") is None and e.profile("https://nowhere.example/") is None
    assert store.queries == loaded + 2
    assert e.decide(act("https://www.ads.example/x", ("pd:EmailAddress",))).policy == first.describe()


def test_extra_purposes_accepted_by_iri_curie_and_label(engine: RiskEngine) -> None:
    from pp_graph.vocab.dpv import compact

    assert engine.t.extra_purposes
    for iri in engine.t.extra_purposes:
        for spelling in (iri, compact(iri), engine.t.vocab.label(iri), engine.t.vocab.label(iri).upper()):
            assert engine._resolve_uncached("purpose", spelling) == iri
    with pytest.raises(InputError, match="not a purpose"):
        engine.decide(act(None, ("pd:EmailAddress",), ("dpv:Collect",)))  # processing, but not a weighed one


@pytest.mark.parametrize(
    ("recipient", "basis", "likelihood"),
    [("data_broker", "script", 0.5), ("advertising", "background", 0.3), ("service_provider", "default", 0.7)],
)
def test_adding_a_category_never_weakens_the_decision_grid(
    engine: RiskEngine, recipient: str, basis: str, likelihood: float
) -> None:
    """Every pair of table categories decides at least as strictly as either category alone."""

    def severity(*cats: str) -> int:
        ctx = ActionContext(data=cats, recipients=(recipient,), basis=basis, likelihood=likelihood)
        return SEVERITY[engine.decide(ctx).decision]

    alone = {c: severity(c) for c in TABLE_CATEGORIES}
    weaker = [
        (a, b)
        for i, a in enumerate(TABLE_CATEGORIES)
        for b in TABLE_CATEGORIES[i + 1 :]
        if severity(a, b) < max(alone[a], alone[b])
    ]
    assert weaker == []


def test_the_decision_record_names_the_detector(engine: RiskEngine) -> None:
    from pp_graph.anonymize.crf import detector_digest

    with_text = engine.decide(act("ads.example", (), ("dpv:Marketing",), ("advertising",), text="Mail Jane Roe."))
    assert with_text.to_dict()["detector"] == detector_digest()
    assert with_text.to_dict()["detection"]["mode"] == "hybrid"  # the mode whose models the digest names
    assert engine.decide(act("ads.example", ("pd:EmailAddress",))).to_dict()["detector"] is None  # nothing read


# ---- the NER mode detection runs in ----

CANARY_NAME = "Zqxwv Plortnik"
TEST_DIGEST = "sha256:" + "7" * 64


@pytest.fixture
def test_mode() -> Any:
    """A mode registered after every import (the registry is read at call time): the canary name is a person."""
    from pp_graph.anonymize import recognizers

    def run(text: str, taken: list[recognizers.Entity]) -> list[recognizers.Entity]:
        i = text.find(CANARY_NAME)
        found = [(50, 0, recognizers.Entity("PERSON", i, i + len(CANARY_NAME), "test"))] if i >= 0 else []
        return recognizers.resolve(found, taken)

    recognizers.register_mode("test-risk", run, lambda: TEST_DIGEST)
    yield "test-risk"
    del recognizers.MODES["test-risk"]


def test_the_engine_detects_in_its_ner_mode_and_the_record_says_which(graph_dir: Path, test_mode: str) -> None:
    from pp_graph.errors import ConfigError

    store = EmbeddedStore()
    store.load([graph_dir])
    text = f"Mail {CANARY_NAME} about the order."
    ctx = act("ads.example", (), ("dpv:Marketing",), ("advertising",), text=text)
    mine = RiskEngine(store, ner_mode=test_mode).decide(ctx).to_dict()
    assert mine["detection"]["mode"] == test_mode and mine["detector"] == TEST_DIGEST
    names = [c for c in mine["categories"] if c["iri"] == PD + "Name"]
    assert [(s["start"], s["end"]) for s in names[0]["spans"]] == [(5, 5 + len(CANARY_NAME))]
    patterns = RiskEngine(store, ner_mode="none").decide(ctx).to_dict()
    assert patterns["detection"]["mode"] == "none" and patterns["detector"] is None
    assert PD + "Name" not in {c["iri"] for c in patterns["categories"]}  # the mode ran: no NER, no name
    assert CANARY_NAME not in json.dumps(mine) + json.dumps(patterns)
    with pytest.raises(ConfigError, match=r"unknown NER mode 'nonsense'.*test-risk"):
        RiskEngine(store, ner_mode="nonsense")


def test_cli_ner_mode_reaches_risk_and_guard_records(graph_dir: Path, test_mode: str) -> None:
    base = ["--graph", str(graph_dir), "--site", "ads.example", "--recipient", "data_broker", "--likelihood", "0.7"]
    text = ["--text", f"Mail {CANARY_NAME} about the order."]
    res = CliRunner().invoke(main, ["risk", *base, *text, "--ner-mode", test_mode])
    assert res.exit_code == 0, res.output
    rec = json.loads(res.output)
    assert rec["detection"]["mode"] == test_mode and rec["detector"] == TEST_DIGEST and CANARY_NAME not in res.output
    res = CliRunner().invoke(main, ["guard", *base, *text, "--ner-mode", test_mode, "--format", "json"])
    assert res.exit_code == 0, res.output
    (rec,) = json.loads(res.output)
    assert rec["detection"]["mode"] == test_mode and rec["anonymization"]["ner_mode"] == test_mode
    assert CANARY_NAME not in rec["text"]  # the guard's rewrite ran the same mode
    for cmd in ("risk", "guard"):
        res = CliRunner().invoke(main, [cmd, *base, *text, "--ner-mode", "nonsense"])
        assert res.exit_code == 2, res.output
        assert "--ner-mode" in res.output and "'nonsense'" in res.output and test_mode in res.output, res.output
        assert "Traceback" not in res.output


def test_mode_none_records_that_ner_read_nothing(engine: RiskEngine) -> None:
    """Mode "none" runs no NER: the record must not claim NER read the whole text."""
    text = f"Mail {CANARY_NAME} at zq@plortnik.example about the order."
    ctx = act("ads.example", (), ("dpv:Marketing",), ("advertising",), text=text)
    none = RiskEngine(engine.store, ner_mode="none").decide(ctx).to_dict()["detection"]
    assert none == {"chars": len(text), "ner_chars": 0, "ner": "off", "mode": "none"}
    default = engine.decide(ctx).to_dict()["detection"]
    assert default == {"chars": len(text), "ner_chars": len(text), "ner": "full", "mode": "hybrid"}


def test_an_empty_ner_mode_is_an_unknown_mode_not_the_default(engine: RiskEngine, graph_dir: Path) -> None:
    from pp_graph.anonymize.recognizers import mode_name
    from pp_graph.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown NER mode ''"):
        RiskEngine(engine.store, ner_mode="")
    with pytest.raises(ConfigError, match="unknown NER mode ''"):
        mode_name("")
    assert mode_name(None) == "hybrid"
    base = ["--graph", str(graph_dir), "--site", "ads.example", "--text", "hello"]
    res = CliRunner().invoke(main, ["risk", *base, "--ner-mode", ""])
    assert res.exit_code == 2 and "unknown NER mode ''" in res.output, res.output


# ---- the guard detects once ----


@pytest.fixture
def counting_mode(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Mode "count-hybrid": the real hybrid NER, each run counted (the length of the text it read)."""
    from pp_graph.anonymize import modes, recognizers

    calls: list[int] = []

    def run(text: str, taken: list[recognizers.Entity]) -> list[recognizers.Entity]:
        calls.append(len(text))
        return recognizers.hybrid(text, taken)

    monkeypatch.setattr(modes, "MODES", dict(modes.MODES))  # the registration goes with the test
    modes.register_mode("count-hybrid", run, modes.mode_digest("count-hybrid", modes.crf_digest))
    return calls


def test_the_guard_detects_once_and_the_rewrite_uses_those_detections(
    engine: RiskEngine, counting_mode: list[int]
) -> None:
    counted = RiskEngine(engine.store, ner_mode="count-hybrid")
    text = f"Mail {CANARY_NAME} (Jane Roe's brother) at zq@plortnik.example before the guard-once check."
    ctx = act("ads.example", (), ("dpv:Marketing",), ("advertising",), text=text, likelihood=0.5)
    g = counted.guard(ctx)
    assert g.decision.decision == "transform" and g.anonymized is not None
    assert counting_mode == [len(text)]  # one NER run for the decision and the rewrite together
    assert counted.guard(ctx).to_dict() == g.to_dict() and counting_mode == [len(text)]  # resent: no run at all
    names = next(c for c in g.record()["categories"] if c["iri"] == PD + "Name")
    persons = [(e.start, e.end) for e in g.anonymized.entities if e.type == "PERSON"]
    assert {(s["start"], s["end"]) for s in names["spans"]} <= set(persons)  # the rewrite hides what was judged
    rec = g.record()["anonymization"]
    assert rec["ner_mode"] == "count-hybrid" and rec["detector"] == counted.decide(ctx).to_dict()["detector"]
    assert CANARY_NAME not in json.dumps(g.record()) and CANARY_NAME not in (g.text or "")


@pytest.mark.parametrize(
    "bad",
    [{"likelihood": 1.5}, {"data": ("pd:NoSuchCategory",)}, {"purposes": ("dpv:NoSuchPurpose",)}],
    ids=["likelihood", "data", "purpose"],
)
def test_a_refused_guard_runs_no_ner(engine: RiskEngine, counting_mode: list[int], bad: dict[str, Any]) -> None:
    counted = RiskEngine(engine.store, ner_mode="count-hybrid")
    ctx = ActionContext(text=f"Mail {CANARY_NAME} at 12 Main St about the refused {sorted(bad)} guard.", **bad)
    with pytest.raises(InputError):
        counted.guard(ctx)
    assert counting_mode == []  # validated before detection: a refused action loads and runs nothing


def test_the_guard_cache_is_keyed_on_the_ner_mode(engine: RiskEngine) -> None:
    text = f"Send {CANARY_NAME} the mode-keyed cache note today."
    ctx = act("ads.example", (), ("dpv:Marketing",), ("advertising",), text=text, likelihood=0.5)
    hybrid = engine.guard(ctx).record()
    none = RiskEngine(engine.store, ner_mode="none").guard(ctx).record()
    assert PD + "Name" in {c["iri"] for c in hybrid["categories"]}
    assert PD + "Name" not in {c["iri"] for c in none["categories"]}  # not the hybrid answer from the cache
    assert none["detection"]["mode"] == "none" and hybrid["detection"]["mode"] == "hybrid"


def test_the_entities_cache_is_keyed_on_the_ner_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    from pp_graph.risk import detect as d

    text = ("We keep the logs for a while. " * 430) + f"Write to {CANARY_NAME} about it."
    assert d.CACHE_MAX_CHARS >= len(text) > 12_000
    full = d.entities(text)
    assert any(e.type == "PERSON" for e in full.entities)
    monkeypatch.setattr(d, "NER_MAX_CHARS", 2000)
    part = d.entities(text)
    assert d.coverage(text)["ner"] == "partial"
    assert not any(e.type == "PERSON" for e in part.entities)  # not the full read from the cache


def test_guard_text_takes_provenance_with_the_entities() -> None:
    from pp_graph.anonymize.guard import guard_text
    from pp_graph.anonymize.recognizers import Detected
    from pp_graph.risk.detect import entities

    class Transform:
        decision, level = "transform", "L3"

        def to_dict(self) -> dict[str, Any]:
            return {"decision": self.decision}

    text = "Mail Jane Roe at jane@roe.org"
    with pytest.raises(TypeError):
        guard_text(Transform(), text, entities=[])  # type: ignore[call-arg]  # no bare list with a borrowed name
    found = entities(text, mode="hybrid")
    assert isinstance(found, Detected) and found.mode == "hybrid" and found.detector
    g = guard_text(Transform(), text, detected=found)
    assert g.anonymized is not None and "jane@roe.org" not in (g.text or "")
    assert (g.anonymized.ner_mode, g.anonymized.detector) == ("hybrid", found.detector)
    own = guard_text(Transform(), text, detected=Detected((), "none", None))  # the caller's claim, recorded as made
    assert own.anonymized is not None and (own.anonymized.ner_mode, own.anonymized.detector) == ("none", None)
