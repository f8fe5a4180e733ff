"""Constraint satisfaction: a constraint's left operand is read from the request (the facts it states) or the
state of the world (the current time); operators compare literals or walk concept hierarchies.

What is not implemented is reported as Unsupported and what is unknown as Undetermined; neither is Satisfied.
Logical constraints combine their members three-valued (Kleene): one Unsatisfied member of an odrl:and
decides it, one Satisfied member of an odrl:or decides it, otherwise an open member leaves it open.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from decimal import Decimal

from rdflib import Literal, URIRef
from rdflib.term import Node

from pp_graph.graph.namespaces import ODRL
from pp_graph.odrl.model import Constraint, RequestRule
from pp_graph.odrl.report import PremiseReport
from pp_graph.odrl.terms import OPEN_STATES, SATISFIED, UNDETERMINED, UNSATISFIED, UNSUPPORTED
from pp_graph.odrl.world import Hierarchy, World, aware

Outcome = bool | str  # True / False, or why it cannot be decided
DATETIME, EQ, NEQ, IS_A = ODRL.dateTime, ODRL.eq, ODRL.neq, ODRL.isA  # rdflib Namespace lookups are slow
ORDER = {ODRL.lt: "<", ODRL.lteq: "<=", ODRL.gt: ">", ODRL.gteq: ">=", ODRL.eq: "==", ODRL.neq: "!="}
SET_OPS = frozenset((ODRL.isAnyOf, ODRL.isNoneOf, ODRL.isAllOf))
IS_ANY, IS_NONE = ODRL.isAnyOf, ODRL.isNoneOf
AND_LIKE, OR, XONE = frozenset((ODRL["and"], ODRL.andSequence)), ODRL["or"], ODRL.xone


def evaluate_constraint(c: Constraint, req: RequestRule, world: World, hier: Hierarchy, key: str) -> PremiseReport:
    if c.logical is not None:
        kids = [evaluate_constraint(k, req, world, hier, f"{key}/{i}") for i, k in enumerate(c.children)]
        state = combine(c.logical, [k.state for k in kids])
        return PremiseReport("Constraint", state, key, constraint=c.iri, logical=c.logical, children=kids)
    rep = PremiseReport("Constraint", UNDETERMINED, key, constraint=c.iri, operator=c.operator, right=c.right)
    left, why = left_values(c, req, world)
    rep.left = left
    if not left:
        rep.message = why
        return rep
    outcome = decide(c, left, hier)
    if isinstance(outcome, str):
        rep.state, rep.message = UNSUPPORTED, outcome
    else:
        rep.state = SATISFIED if outcome else UNSATISFIED
    return rep


def left_values(c: Constraint, req: RequestRule, world: World) -> tuple[tuple[Node, ...], str]:
    if c.left == DATETIME:
        if world.now_literal is None:
            return (), f"the state of the world ({world.source}) gives no current time for odrl:dateTime"
        return (world.now_literal,), ""
    if c.left in req.facts:
        return req.facts[c.left], ""
    return (), f"neither the request nor the state of the world states a value for {c.left}"


def decide(c: Constraint, left: tuple[Node, ...], hier: Hierarchy) -> Outcome:
    op = c.operator
    if op is not None and op in SET_OPS:
        return _set_op(op, left, c.right, hier)
    if len(c.right) != 1:
        return f"{op} with {len(c.right)} right operands is not supported (one is expected)"
    right = c.right[0]
    results = [_scalar(op, lv, right, hier) for lv in left]
    for r in results:
        if isinstance(r, str):
            return r
    return all(results)  # every value the request states must meet it


def _scalar(op: Node | None, lv: Node, rv: Node, hier: Hierarchy) -> Outcome:
    if op == IS_A:
        if not isinstance(lv, URIRef) or not isinstance(rv, URIRef):
            return "odrl:isA compares concepts (IRIs), not literals"
        return hier.falls_under(lv, rv)
    if op not in ORDER:
        return f"the operator {op} is not supported"
    if isinstance(lv, URIRef) and isinstance(rv, URIRef) and op in (EQ, NEQ):
        return (lv == rv) == (op == EQ)
    a, b = _comparable(lv, rv)
    if a is None or b is None:
        return f"cannot compare {lv!r} with {rv!r} (unsupported or mismatched datatypes)"
    if isinstance(a, str | bool) and op not in (EQ, NEQ):
        return f"{op} on {'truth' if isinstance(a, bool) else 'text'} values is not supported"
    return _COMPARE[ORDER[op]](a, b)  # type: ignore[index]


_COMPARE: dict[str, Callable[[object, object], bool]] = {
    "<": lambda a, b: a < b,  # type: ignore[operator]
    "<=": lambda a, b: a <= b,  # type: ignore[operator]
    ">": lambda a, b: a > b,  # type: ignore[operator]
    ">=": lambda a, b: a >= b,  # type: ignore[operator]
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def _comparable(lv: Node, rv: Node) -> tuple[object, object]:
    """Python values of one kind, or None where the pair cannot be compared."""
    if not isinstance(lv, Literal) or not isinstance(rv, Literal):
        return None, None
    a, b = lv.toPython(), rv.toPython()
    if isinstance(a, datetime) and isinstance(b, datetime):
        return aware(a), aware(b)
    if isinstance(a, datetime) and isinstance(b, date):
        return aware(a).date(), b  # a day-granular bound: compare the current date
    if isinstance(a, date) and isinstance(b, date) and not isinstance(a, datetime) and not isinstance(b, datetime):
        return a, b
    if isinstance(a, timedelta) and isinstance(b, timedelta):
        return a, b
    if isinstance(a, bool) and isinstance(b, bool):
        return a, b
    numbers = (int, float, Decimal)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        return Decimal(str(a)), Decimal(str(b))
    if isinstance(a, str) and isinstance(b, str) and lv.datatype == rv.datatype:
        return a, b
    return None, None


def _set_op(op: Node, left: tuple[Node, ...], right: tuple[Node, ...], hier: Hierarchy) -> Outcome:
    def under(v: Node, r: Node) -> bool:
        if isinstance(v, URIRef) and isinstance(r, URIRef):
            return hier.falls_under(v, r)
        return v == r

    if op == IS_ANY:
        return all(any(under(v, r) for r in right) for v in left)
    if op == IS_NONE:
        return not any(under(v, r) for v in left for r in right)
    return all(any(under(v, r) for v in left) for r in right)  # isAllOf: the request covers every value


def combine(logical: Node, states: list[str]) -> str:
    sat, unsat = states.count(SATISFIED), states.count(UNSATISFIED)
    open_ = [s for s in states if s in OPEN_STATES]
    worst = UNSUPPORTED if UNSUPPORTED in open_ else UNDETERMINED
    if logical in AND_LIKE:
        return UNSATISFIED if unsat else (worst if open_ else SATISFIED)
    if logical == OR:
        return SATISFIED if sat else (worst if open_ else UNSATISFIED)
    if logical == XONE:
        if sat > 1:
            return UNSATISFIED
        if open_:
            return worst
        return SATISFIED if sat == 1 else UNSATISFIED
    return UNSUPPORTED
