"""Run test cases laid out as the ODRL test suite does (test_cases/, policies/, requests/, sotw/ under one folder)
and compare each report with the expected one by what it decides, not by node identifiers or timestamps:

- activation: every expected rule report's activation state (matched by report:rule);
- premises: every expected premise report's satisfaction state (target, party and action reports by kind,
  constraint reports by the constraint they name, nested ones included);
- duties: the deontic state of every condition (duty) report the expected report points to, read from the
  state of the world, when it is about a duty of the evaluated rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rdflib import Graph, URIRef
from rdflib.namespace import DCTERMS, RDF
from rdflib.term import Node

from pp_graph.errors import InputError, PPGraphError
from pp_graph.odrl.api import evaluate, load_graph
from pp_graph.odrl.report import PolicyReport
from pp_graph.odrl.terms import REPORT, state_name

EX = "http://example.org/"
FOLDERS = ("policies", "requests", "sotw")
PREMISE_KINDS = ("TargetReport", "PartyReport", "ActionReport", "ConstraintReport")


@dataclass
class CaseResult:
    case: str
    title: str
    activation: bool = False
    premises: bool = False
    duties: bool | None = None  # None: nothing comparable
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.activation and self.premises and self.duties is not False


@dataclass(frozen=True)
class Case:
    path: Path
    graph: Graph
    node: Node
    policy: Path
    request: Path
    sotw: Path | None


def load_cases(root: Path) -> list[Case]:
    tc = root / "test_cases"
    if not tc.is_dir():
        raise InputError(str(root), "no test_cases/ folder (the layout is test_cases/, policies/, requests/, sotw/)")
    index = {f: _index(root / f) for f in FOLDERS}
    cases = []
    for path in sorted(tc.glob("*.ttl")):
        g, name = load_graph(path, "test case")
        node = g.value(None, RDF.type, URIRef(EX + "TestCase"))
        if node is None:
            raise InputError(name, "no ex:TestCase in it")
        found = {}
        for prop, folder in (("policy", "policies"), ("request", "requests"), ("sotw", "sotw")):
            ref = g.value(node, URIRef(EX + prop))
            if ref is None and prop != "sotw":
                raise InputError(name, f"the test case names no ex:{prop}")
            if ref is not None and ref not in index[folder]:
                raise InputError(name, f"its {prop} {ref} is in no file under {folder}/")
            found[prop] = index[folder].get(ref) if ref is not None else None
        cases.append(Case(path, g, node, found["policy"], found["request"], found["sotw"]))  # type: ignore[arg-type]
    if not cases:
        raise InputError(str(tc), "no test case (*.ttl) in it")
    return cases


def _index(folder: Path) -> dict[Node, Path]:
    out: dict[Node, Path] = {}
    for path in sorted(folder.glob("*.ttl")) if folder.is_dir() else []:
        g, _ = load_graph(path, folder.name)
        for s in set(g.subjects(RDF.type, None)):
            out.setdefault(s, path)
    return out


def run_case(case: Case) -> CaseResult:
    g = case.graph
    res = CaseResult(case.path.stem, str(g.value(case.node, DCTERMS.title) or ""))
    try:
        got = evaluate(case.policy, case.request, case.sotw)
    except PPGraphError as e:
        res.problems.append(f"evaluation failed: {e}")
        return res
    expected = g.value(case.node, URIRef(EX + "expectedReport"))
    res.activation = _compare_activation(g, expected, got, res.problems)
    res.premises = _compare_premises(g, got, res.problems)
    sotw = load_graph(case.sotw, "state of the world")[0] if case.sotw else Graph()
    res.duties = _compare_duties(g, expected, sotw, got, res.problems)
    return res


def _compare_activation(g: Graph, expected: Node | None, got: PolicyReport, problems: list[str]) -> bool:
    ok = True
    mine = {r.rule: r for r in got.rules}
    for rr in g.objects(expected, REPORT.ruleReport):
        rule, want = g.value(rr, REPORT.rule), state_name(g.value(rr, REPORT.activationState))
        have = mine.get(rule)  # type: ignore[arg-type]
        if have is None:
            problems.append(f"no rule report for {rule}")
            ok = False
        elif have.activation != want:
            problems.append(f"rule {rule}: activation {have.activation}, expected {want}")
            ok = False
    return ok


def _premise_key(kind: str, constraint: Node | None) -> str:
    return kind if constraint is None else f"{kind} {constraint}"


def _compare_premises(g: Graph, got: PolicyReport, problems: list[str]) -> bool:
    want: dict[str, str] = {}
    for kind in PREMISE_KINDS:
        for p in g.subjects(RDF.type, REPORT[kind]):
            want[_premise_key(kind, g.value(p, REPORT.constraint))] = state_name(g.value(p, REPORT.satisfactionState))
    have: dict[str, str] = {}
    for r in got.rules:
        if r.attempt == "Attempted":
            for mp in r.all_premises():
                have[_premise_key(mp.kind + "Report", mp.constraint)] = mp.state
    if want == have:
        return True
    for k in sorted(set(want) | set(have)):
        if want.get(k) != have.get(k):
            problems.append(f"premise {k}: {have.get(k, 'absent')}, expected {want.get(k, 'absent')}")
    return False


def _compare_duties(
    g: Graph, expected: Node | None, sotw: Graph, got: PolicyReport, problems: list[str]
) -> bool | None:
    duties = {d.rule: d for r in got.rules for d in r.conditions}
    compared, ok = 0, True
    for rr in g.objects(expected, REPORT.ruleReport):
        for cond in g.objects(rr, REPORT.conditionReport):
            rule = sotw.value(cond, REPORT.rule) or g.value(cond, REPORT.rule)
            want = sotw.value(cond, REPORT.deonticState) or g.value(cond, REPORT.deonticState)
            if rule not in duties or want is None:
                problems.append(f"note: expected condition report {cond} is about {rule}, not a duty of this policy")
                continue
            compared += 1
            if duties[rule].deontic != state_name(want):
                problems.append(f"duty {rule}: deontic {duties[rule].deontic}, expected {state_name(want)}")
                ok = False
    return ok if compared else None


def run(root: Path) -> list[CaseResult]:
    return [run_case(c) for c in load_cases(root)]


def summary(results: list[CaseResult]) -> str:
    n = len(results)
    duties = [r for r in results if r.duties is not None]
    return (
        f"{n} cases: {sum(r.passed for r in results)}/{n} pass; "
        f"by rule activation {sum(r.activation for r in results)}/{n}, "
        f"by premise satisfaction {sum(r.premises for r in results)}/{n}, "
        f"by duty deontic state {sum(bool(r.duties) for r in duties)}/{len(duties)} (cases with a comparable duty)"
    )
