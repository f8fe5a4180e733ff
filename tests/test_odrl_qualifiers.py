"""A negated practice whose sentence states an exception or a condition is exported as a qualified prohibition
(ppgo:statedException eq false / ppgo:statedCondition eq true): an evaluator that does not know whether the
exception applies reports the rule undetermined, and the risk engine does not deny on it; an unqualified
prohibition still denies."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS

from pp_graph.cli import main
from pp_graph.export.odrl import STATED, export_policy, validate_odrl
from pp_graph.export.qualifiers import qualifiers
from pp_graph.graph.namespaces import ODRL
from pp_graph.odrl import evaluate
from pp_graph.risk.engine import ActionContext, RiskEngine
from pp_graph.store.embedded import EmbeddedStore

POLICY = """# Privacy notice

We collect your email address and your phone number to provide the service.

We do not share your email address with third parties unless you give us your consent.

We never sell your personal information.

We do not share information that identifies you, such as your name or email address, with advertisers.

If you do not create an account, we do not collect your postal address.
"""


@pytest.mark.parametrize(
    ("line", "kinds"),
    [
        ("We do not share your data, except as required by law.", ["exception"]),
        ("We do not sell your data unless you consent.", ["exception"]),
        ("If you opt out, we do not use your location.", ["condition"]),
        ("We never sell your personal information.", []),
        ("We do not sell data. If you ask, we delete it.", []),  # the condition is in another sentence
        ("If we detect the signal, we honour it (we do not sell your data).", []),  # a parenthesis of its own
        ("We honour the signal (we do not sell data unless you consent).", ["exception"]),
    ],
)
def test_the_qualifiers_of_the_triggers_sentence(line: str, kinds: list[str]) -> None:
    assert [q.kind for q in qualifiers(line, line.index("not") if "not" in line else 3)] == kinds


def test_the_wording_says_what_the_exception_is() -> None:
    (q,) = qualifiers("We do not share it with anyone unless you give us your consent.", 3)
    assert q.wording == "unless you give us your consent"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    root = tmp_path_factory.mktemp("qualified")
    (root / "in").mkdir()
    (root / "in" / "qualified.example.md").write_text(POLICY, encoding="utf-8")
    res = CliRunner().invoke(main, ["convert", str(root / "in"), "-o", str(root / "out")])
    assert res.exit_code == 0, res.output
    st = EmbeddedStore()
    assert st.load([root / "out"])
    return st


def export(store: EmbeddedStore) -> Graph:
    (policy,) = store.policies()
    return export_policy(store, policy)


def prohibitions(g: Graph) -> dict[str, list[tuple[str, str]]]:
    """Each prohibition's source line text (via its constraints' descriptions) → its stated qualifiers."""
    out: dict[str, list[tuple[str, str]]] = {}
    for rule in g.subjects(None, ODRL.Prohibition):
        quals = []
        for c in g.objects(rule, ODRL.constraint):
            left = g.value(c, ODRL.leftOperand)
            if left in {v[0] for v in STATED.values()}:
                quals.append((str(left).rsplit("#", 1)[-1], str(g.value(c, DCTERMS.description))))
        out[str(rule)] = quals
    return out


def test_qualified_and_unqualified_prohibitions(store: EmbeddedStore) -> None:
    g = export(store)
    rules = prohibitions(g)
    qualified = {k: v for k, v in rules.items() if v}
    assert any(
        "emailaddress" in k
        and v == [("statedException", 'the policy line states an exception: "unless you give us your consent"')]
        for k, v in qualified.items()
    ), rules
    assert any(
        v and v[0][0] == "statedCondition" and "If you do not create an account" in v[0][1] for v in qualified.values()
    ), rules
    assert any(not v for v in rules.values()), "the unqualified 'never sell' stays a plain prohibition"
    for c in g.subjects(ODRL.leftOperand, STATED["exception"][0]):
        assert g.value(c, ODRL.rightOperand) == Literal(False)
    assert validate_odrl(g).conforms and validate_odrl(g, inference="rdfs").conforms


def test_an_evaluator_leaves_a_qualified_prohibition_undetermined_until_told(store: EmbeddedStore) -> None:
    g = export(store)
    rule = next(k for k, v in prohibitions(g).items() if v and v[0][0] == "statedException" and "emailaddress" in k)
    r_iri = URIRef(rule)
    target, action, party = (g.value(r_iri, p) for p in (ODRL.target, ODRL.action, ODRL.assignee))

    def request(extra: str = "") -> Graph:
        return Graph().parse(
            format="turtle",
            data=f"""
@prefix odrl: <http://www.w3.org/ns/odrl/2/> . @prefix ppgo: <urn:pp-graph:odrl-profile#> .
<urn:q> a odrl:Request ; odrl:permission <urn:qr> .
<urn:qr> odrl:action <{action}> ; odrl:target <{target}> ; odrl:assignee <{party}> {extra} .""",
        )

    only = Graph()
    for t in g:
        only.add(t)
    rep = evaluate(only, request())
    (r,) = [x for x in rep.rules if str(x.rule) == rule]
    assert r.activation == "Undetermined"
    assert stated(r) == (
        "Undetermined",
        "neither the request nor the state of the world states a value for urn:pp-graph:odrl-profile#statedException",
    )
    told = evaluate(
        only,
        request(
            "; odrl:constraint [ odrl:leftOperand ppgo:statedException ; odrl:operator odrl:eq ;"
            " odrl:rightOperand false ]"
        ),
    )
    (r,) = [x for x in told.rules if str(x.rule) == rule]
    # the caller says the exception does not apply: this premise holds
    assert stated(r)[0] == "Satisfied"


def stated(rule: object) -> tuple[str, str]:
    (p,) = [p for p in rule.premises if str(p.constraint).endswith("/stated-exception")]  # type: ignore[attr-defined]
    return p.state, p.message


def call(data: str, purposes: tuple[str, ...], recipients: tuple[str, ...]) -> ActionContext:
    return ActionContext(
        site="qualified.example", data=(data,), purposes=purposes, recipients=recipients, likelihood=0.0
    )  # AMRSF alone would allow


def test_the_risk_engine_denies_on_the_plain_prohibition_only(store: EmbeddedStore) -> None:
    engine = RiskEngine(store)
    sell = engine.decide(call("pd:EmailAddress", ("dpv:SellDataToThirdParties",), ("advertising",)))
    assert sell.decision == "deny" and sell.odrl is not None and sell.odrl["verdict"] == "prohibited"
    share = engine.decide(call("pd:EmailAddress", ("dpv:ServiceProvision",), ("service_provider",)))
    assert share.odrl is not None and share.odrl["verdict"] != "prohibited", share.odrl
    assert share.decision == "allow"


def test_a_denial_prohibits_the_data_it_names_not_all_personal_data(store: EmbeddedStore) -> None:
    g = export(store)
    by_line: dict[str, set[str]] = {}
    for rule in g.subjects(None, ODRL.Prohibition):
        practice = g.value(rule, DCTERMS.source)
        by_line.setdefault(str(practice), set()).add(str(g.value(rule, ODRL.target)).rsplit("#", 1)[-1])
    targets = sorted(by_line.values(), key=sorted)
    assert any({"Name", "EmailAddress"} <= t for t in targets), targets  # "information that identifies you, such as …"
    assert {"PersonalData"} in targets, targets  # "we never sell your personal information": all of it
    assert not any("PersonalData" in t and len(t) > 1 for t in targets), targets
