"""PrivacyLens cases → audit traces.

A case's ``executable_trajectory`` is ReAct text: ``Action: Tool`` / ``Action Input: {json}`` /
``Observation: {json}``, one step after another. Each action becomes a step (its input the args, its observation
the result); a trailing action without an observation is a step with no result (the agent's call about to be
made). A case's ``final_action`` is the sink; its arguments come from an ``actions`` map (case name → the sink's
arguments, e.g. what an agent produced), and the sink's site and schema from data/audit/privacylens_sinks.json.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pp_graph.audit.contracts import SinkSpec, read_tools
from pp_graph.audit.model import Step, Trace
from pp_graph.errors import InputError
from pp_graph.resources import DATA

_MARK = re.compile(r"^(Action Input|Action|Observation):[ \t]*", re.M)
_DECODER = json.JSONDecoder()


@cache
def sinks() -> dict[str, SinkSpec]:
    """The four PrivacyLens sink tools' signatures, sites and recipient kinds."""
    return read_tools(DATA / "audit" / "privacylens_sinks.json")


def _value(text: str) -> Any:
    """JSON when the text starts with a JSON value, else the stripped text."""
    s = text.strip()
    try:
        v, _ = _DECODER.raw_decode(s)
    except ValueError:
        return s
    return v


def parse_trajectory(text: str, where: str) -> list[Step]:
    """Steps of one ReAct trajectory; InputError when it holds no action or an input/observation has no action."""
    marks = list(_MARK.finditer(text))
    steps: list[dict[str, Any]] = []
    for i, m in enumerate(marks):
        body = text[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)]
        label = m.group(1)
        if label == "Action":
            steps.append({"tool": body.strip(), "args": None, "result": None})
        elif not steps:
            raise InputError(where, f"{label!r} before any 'Action:'")
        elif label == "Action Input":
            steps[-1]["args"] = _value(body)
        else:
            steps[-1]["result"] = _value(body)
    if not steps:
        raise InputError(where, "no 'Action:' in the trajectory")
    return [Step(s["tool"], s["args"], s["result"]) for s in steps if s["tool"]]


def case_trace(case: Any, actions: Mapping[str, Any] | None = None) -> Trace:
    """One PrivacyLens case as a trace (the sink step appended when ``actions`` holds its arguments)."""
    if not isinstance(case, dict) or not isinstance(case.get("trajectory"), dict):
        raise InputError("privacylens case", "expected an object with a 'trajectory' object")
    name = str(case.get("name") or "?")
    traj = case["trajectory"]
    where = f"privacylens case {name}"
    text, instr = traj.get("executable_trajectory"), traj.get("user_instruction", "")
    if not isinstance(text, str) or not isinstance(instr, str):
        raise InputError(where, "'executable_trajectory' and 'user_instruction' must be strings")
    steps = parse_trajectory(text, where)
    final = traj.get("final_action")
    if actions is not None and name in actions and isinstance(final, str):
        spec = sinks().get(final)
        steps.append(Step(final, actions[name], None, spec.site if spec else None))
    return Trace(name, instr, tuple(steps))


def load_cases(path: Path) -> list[Any]:
    """The JSON list of cases in a PrivacyLens data file."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(str(path.name), f"cannot be read ({e.strerror})") from e
    except ValueError as e:
        raise InputError(str(path.name), f"not valid JSON: {e}") from e
    if not isinstance(doc, list):
        raise InputError(str(path.name), "expected a JSON list of PrivacyLens cases")
    return doc


def traces(path: Path, actions: Mapping[str, Any] | None = None) -> Iterator[Trace | InputError]:
    """Each case as a trace, or the InputError that case raised (so one bad case does not stop the file)."""
    for case in load_cases(path):
        try:
            yield case_trace(case, actions)
        except InputError as e:
            yield e
