"""The LLM transparency stage (transparency = "llm"): the real openai client against a local OpenAI-compatible server
with scripted answers. Statements must be the model's valid, grounded items only, at exact offsets, with the model
and prompt version as provenance; anything malformed is dropped, counted and said in a warning."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_server import FakeLLMServer, backend_settings, keyword_responder, request_schema, segments_of, user_text

from pp_graph.api import Conversion, convert_policy
from pp_graph.comply.checklist import ADDRESSED, DENIED, checklist
from pp_graph.comply.facts import built_triples, policy_facts
from pp_graph.comply.laws import get_law
from pp_graph.comply.rules import rules
from pp_graph.errors import ConfigError, DataFileError
from pp_graph.extract.llm.backend import LLMBackend
from pp_graph.extract.llm.transparency import SCHEMA_FILE, load_schema, transparency_spec
from pp_graph.graph.namespaces import PPG
from pp_graph.load.sources import policy_from_text
from pp_graph.model import Policy

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
PROV_GENERATED = "http://www.w3.org/ns/prov#wasGeneratedBy"

pytest.importorskip("openai")
pytest.importorskip("jsonschema")

TEXT = """# Privacy notice

Lumen Tree Labs Ltd. is the controller of your personal data.
Write to privacy@lumen-tree.example with any question.
We do not transfer your data outside the EEA.
We keep your account data for 30 days after you close your account.
We collect your email address to prevent fraud.
"""


def item(rid: str, text: str, performed: bool = True, occurrence: int | None = None) -> dict[str, Any]:
    return {"id": rid, "text": text, "occurrence": occurrence, "performed": performed}


def answer(*segments: tuple[int, list[Any]]) -> str:
    return json.dumps({"segments": [{"n": n, "requirements": items} for n, items in segments]})


GOOD = answer(
    (1, []),
    (2, [item("controller-name", "Lumen Tree Labs Ltd.")]),
    (3, [item("controller-contact", "privacy@lumen-tree.example")]),
    (4, [item("third-country-transfers", "do not transfer your data outside the EEA", performed=False)]),
    # Case differs from the text: located case-insensitively, the span keeps the policy's own characters.
    (5, [item("retention-period", "FOR 30 DAYS"), item("data-categories", "account data")]),
)


class Transparency:
    """The server's answers: the scripted ones to transparency requests (in order), keywords to the others."""

    def __init__(self) -> None:
        self.answers: list[str] = []
        self.asked: list[dict[str, Any]] = []

    def __call__(self, body: dict[str, Any]) -> str:
        props = request_schema(body)["properties"]["segments"]["items"]["properties"]
        if "requirements" not in props:
            return keyword_responder(body)
        self.asked.append(body)
        return self.answers.pop(0) if self.answers else answer()


@pytest.fixture
def model() -> Transparency:
    return Transparency()


@pytest.fixture
def server(model: Transparency) -> Iterator[FakeLLMServer]:
    with FakeLLMServer(model) as srv:
        yield srv


@pytest.fixture
def make(server: FakeLLMServer, tmp_path: Path) -> Any:
    def factory(**opts: Any) -> LLMBackend:
        base = backend_settings(server, tmp_path / "cache.sqlite", transparency="llm")
        return LLMBackend(**{**base, **opts})

    return factory


def policy() -> Policy:
    return policy_from_text(TEXT, "lumen-tree.example", name="notice.md")


def statements(conv: Conversion) -> list[tuple[str, str, bool]]:
    return [(m.requirement, m.span.text, m.performed) for r in conv.extraction.results for m in r.requirements]


def test_model_items_become_grounded_statements_with_provenance(model: Transparency, make: Any) -> None:
    model.answers.append(GOOD)
    p = policy()
    conv = convert_policy(p, make())
    assert statements(conv) == [
        ("controller-name", "Lumen Tree Labs Ltd.", True),
        ("controller-contact", "privacy@lumen-tree.example", True),
        ("third-country-transfers", "do not transfer your data outside the EEA", False),
        ("retention-period", "for 30 days", True),
        ("data-categories", "account data", True),
    ]
    spec = transparency_spec()
    for r in conv.extraction.results:
        for m in r.requirements:
            assert p.text[m.span.start : m.span.end] == m.span.text  # exact offsets into the input
            assert m.rule == f"{m.requirement}/llm" and m.concepts == rules().get(m.requirement).concepts
            assert m.source is not None and (m.source.model, m.source.prompt_version) == ("fake-model", spec.version)
    assert conv.report.warnings == [] and not any(k.startswith("rejected.transparency") for k in conv.report.backend)
    # One request for the whole policy, with the schema file as response_format and the rule file's ids listed.
    (body,) = model.asked
    assert body["response_format"]["json_schema"]["schema"] == json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert (
        "third-country-transfers: Third-country Transfers (Art. 13(1)(f), 14(1)(f))" in body["messages"][0]["content"]
    )
    assert len(segments_of(body)) == 6 and '<segment n="1" heading="true">' in user_text(body)


def test_graph_and_checklist_hold_the_model_statements(model: Transparency, make: Any) -> None:
    model.answers.append(GOOD)
    conv = convert_policy(policy(), make())
    facts = policy_facts(built_triples(conv.triples), "notice.md")
    results = {r.item.requirement: r for r in checklist(facts, get_law("gdpr")).results}
    assert results["controller-name"].status == ADDRESSED
    assert results["third-country-transfers"].status == DENIED
    line = "We do not transfer your data outside the EEA."
    assert [(e.text, TEXT[e.start : e.end]) for e in results["third-country-transfers"].evidence] == [(line, line)]
    # Every model statement was generated by an activity naming the model and the stage's prompt version.
    edges: dict[tuple[str, str], set[str]] = {}
    for sub, pred, obj in built_triples(conv.triples):
        edges.setdefault((sub, pred), set()).add(obj)
    stmts = {sub for (sub, pred), objs in edges.items() if pred == RDF_TYPE and str(PPG.TransparencyStatement) in objs}
    runs = {run for st in stmts for run in edges[(st, PROV_GENERATED)]}
    rows = {
        (m, v, x)
        for run in runs
        for m in edges[(run, str(PPG.model))]
        for v in edges[(run, str(PPG.promptVersion))]
        for x in edges[(run, str(PPG.extractor))]
    }
    assert rows == {("fake-model", transparency_spec().version, "llm")}


def test_malformed_items_are_dropped_counted_and_warned(model: Transparency, make: Any) -> None:
    model.answers.append(
        answer(
            (1, [item("right-access", "Privacy notice")]),  # a heading line addresses no right
            (
                2,
                [
                    item("controller-name", "Lumen Tree Labs Ltd."),
                    item("right-to-pizza", "Lumen Tree"),  # not a requirement id of the schema
                    {"id": "controller-name", "text": "Lumen Tree Labs Ltd."},  # no performed, no occurrence
                    item("dpo-contact", "our data protection officer"),  # words not in the line
                    item("controller-name", "Lumen Tree Labs Ltd.", occurrence=2),  # no second occurrence
                ],
            ),
            (99, [item("controller-contact", "privacy@lumen-tree.example")]),  # no segment 99 was sent
            (3, "controller-contact"),  # type: ignore[arg-type]  # not a list of items
        )
    )
    conv = convert_policy(policy(), make())
    assert statements(conv) == [("controller-name", "Lumen Tree Labs Ltd.", True)]
    backend = conv.report.backend
    assert backend["rejected.transparency:heading"] == 1
    assert backend["rejected.transparency:invalid_item"] == 3
    assert backend["rejected.transparency:ungrounded"] == 2
    assert backend["rejected.transparency:bad_segment"] == 1
    (warning,) = conv.report.warnings
    assert warning.startswith("transparency stage (llm): model output dropped, no statement made from it:")
    assert "3 items not valid against the answer schema" in warning and "2 items whose words are not" in warning


def test_unusable_answer_makes_no_statement_and_says_so(model: Transparency, make: Any) -> None:
    model.answers.append("I cannot help with that.")
    conv = convert_policy(policy(), make())
    assert statements(conv) == []
    assert conv.report.warnings == [
        "transparency stage (llm): model output dropped, no statement made from it: 1 answers that were not JSON"
    ]


def test_answers_are_cached_and_the_key_follows_the_model(model: Transparency, make: Any) -> None:
    model.answers.extend([GOOD, GOOD])
    first = statements(convert_policy(policy(), make()))
    again = convert_policy(policy(), make())  # resumed from the cache: no request, same statements
    assert len(model.asked) == 1 and statements(again) == first and again.report.backend["cache_hits"] >= 1
    other = make(stages={"transparency": {"model": "other-model"}})
    conv = convert_policy(policy(), other)
    assert len(model.asked) == 2 and model.asked[-1]["model"] == "other-model"
    assert {m.source.model for r in conv.extraction.results for m in r.requirements if m.source} == {"other-model"}


def test_rules_decide_unless_the_model_is_asked(model: Transparency, make: Any) -> None:
    conv = convert_policy(policy(), make(transparency="rules"))
    assert model.asked == []
    found = [m for r in conv.extraction.results for m in r.requirements]
    assert found and all(m.source is None and not m.rule.endswith("/llm") for m in found)
    with pytest.raises(ConfigError, match="transparency"):
        make(transparency="maybe")


def test_schema_file_must_name_the_rule_files_requirements(tmp_path: Path) -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    ids = schema["properties"]["segments"]["items"]["properties"]["requirements"]["items"]["properties"]["id"]
    ids["enum"] = ids["enum"][:-1]
    short = tmp_path / "short.schema.json"
    short.write_text(json.dumps(schema), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"short\.schema\.json: the requirement ids must be those of"):
        load_schema(short, rules())
    broken = tmp_path / "broken.schema.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"broken\.schema\.json: not valid JSON"):
        load_schema(broken, rules())
    wrong = tmp_path / "wrong.schema.json"
    wrong.write_text(json.dumps({"type": "no-such-type"}), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"wrong\.schema\.json: not a valid JSON schema"):
        load_schema(wrong, rules())


def test_convert_option_and_comply_from_the_command_line(
    model: Transparency, server: FakeLLMServer, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from pp_graph.cli import main

    src = tmp_path / "lumen-tree.example.md"
    src.write_text(TEXT, encoding="utf-8")
    bad = json.loads(GOOD)
    bad["segments"][1]["requirements"].append(item("dpo-contact", "our data protection officer"))
    model.answers.append(json.dumps(bad))
    opts = {
        "base_url": server.base_url,
        "api_key": "k",
        "cache_path": str(tmp_path / "c.sqlite"),
        "transparency": "llm",
    }
    args = [x for k, v in opts.items() for x in ("--option", f"{k}={v}")]
    out = tmp_path / "out"
    res = CliRunner().invoke(
        main, ["convert", str(src), "--backend", "llm", "--model", "fake-model", *args, "-o", str(out)]
    )
    assert res.exit_code == 0, res.output
    assert (
        "transparency stage (llm): model output dropped, no statement made from it: 1 items whose words" in res.stderr
    )
    res = CliRunner().invoke(main, ["comply", str(out), "--law", "gdpr", "--format", "json"])
    reqs = {r["id"]: r for r in json.loads(res.stdout)["policies"][0]["requirements"]}
    assert reqs["third-country-transfers"]["status"] == "denied" and reqs["dpo-contact"]["status"] != "addressed"
    line = "Write to privacy@lumen-tree.example with any question."
    assert reqs["controller-contact"]["evidence"] == [
        {"start": TEXT.index(line), "end": TEXT.index(line) + len(line), "text": line}
    ]
