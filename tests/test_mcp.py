"""pp-graph mcp: the SDK's own client against the server in a subprocess, over stdio and over streamable HTTP.

One policy (examples/github.com.md) is converted once; one stdio session runs every call the tests look at (the
server loads spaCy once), and each test asserts on its part of that session.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from pp_graph.errors import InputError
from pp_graph.mcpserver.odrl_tool import MAX_TURTLE
from pp_graph.mcpserver.service import MAX_TEXT, PolicyService

ROOT = Path(__file__).resolve().parents[1]
SECRET = "jane.doe@example.com"  # the value that must reach neither the ledger nor a log
TEXT = f"Please contact Jane Doe at {SECRET} or +1 415 555 0100 about the refund."
TOOLS = {"check_egress", "anonymize", "policy_facts", "named_query", "odrl_evaluate", "compliance"}
# An ODRL policy, request and state of the world of our own: reading allowed for a purpose until a date.
PREFIXES = """@prefix odrl: <http://www.w3.org/ns/odrl/2/> .
@prefix dct: <http://purl.org/dc/terms/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix ex: <http://example.com/> .
"""
POLICY = (
    PREFIXES
    + """ex:policy a odrl:Set ;
    odrl:permission [ odrl:target ex:secretreport ; odrl:action odrl:read ; odrl:assignee ex:alice ;
        odrl:constraint [ odrl:leftOperand odrl:dateTime ; odrl:operator odrl:lt ;
            odrl:rightOperand "2030-01-01T00:00:00Z"^^xsd:dateTime ] ] ;
    odrl:prohibition [ odrl:target ex:secretreport ; odrl:action odrl:distribute ] .
"""
)
REQUEST = (
    PREFIXES
    + """ex:q a odrl:Request ; odrl:permission ex:qr .
ex:qr odrl:target ex:secretreport ; odrl:action odrl:read ; odrl:assignee ex:alice .
"""
)
STATE = (
    PREFIXES
    + """<http://example.com/currentTime> dct:issued "2026-06-01T12:00:00Z"^^xsd:dateTime .
"""
)


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from click.testing import CliRunner

    from pp_graph.cli import main

    out = tmp_path_factory.mktemp("mcp-graph")
    res = CliRunner().invoke(main, ["convert", str(ROOT / "examples" / "github.com.md"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out


CALLS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "allow",
        "check_egress",
        {
            "site": "github.com",
            "data": ["pd:EmailAddress"],
            "purpose": ["dpv:ServiceProvision"],
            "recipient": ["first_party"],
        },
    ),
    (
        "transform",
        "check_egress",
        {"site": "https://www.github.com/", "text": TEXT, "purpose": ["dpv:Marketing"], "recipient": ["advertising"]},
    ),
    (
        "deny",
        "check_egress",
        {
            "site": "github.com",
            "data": ["pd:Password"],
            "purpose": ["dpv:ServiceProvision"],
            "recipient": ["service_provider"],
        },
    ),
    ("unknown_site", "check_egress", {"site": "nosuch.example", "data": ["pd:EmailAddress"]}),
    ("bad_types", "check_egress", {"site": "github.com", "data": "pd:EmailAddress", "purpose": 5}),
    ("missing_site", "check_egress", {"data": ["pd:EmailAddress"]}),
    ("bad_term", "check_egress", {"site": "github.com", "data": ["pd:NoSuchThing"]}),
    ("oversize", "check_egress", {"site": "github.com", "text": "a" * (MAX_TEXT + 1)}),
    ("anonymize", "anonymize", {"text": TEXT, "level": 3}),
    ("anonymize_bad_level", "anonymize", {"text": TEXT, "level": 9}),
    ("anonymize_oversize", "anonymize", {"text": "b" * (MAX_TEXT + 1)}),
    ("facts", "policy_facts", {"site": "github.com", "practice_type": "third-party-sharing-disclosure"}),
    ("facts_unknown", "policy_facts", {"site": "gitlab.com"}),
    ("query", "named_query", {"name": "practices-of-site", "params": {"site": "github.com"}, "limit": 3}),
    ("query_free_sparql", "named_query", {"name": "SELECT * WHERE { ?s ?p ?o }"}),
    ("query_path", "named_query", {"name": "../../etc/passwd"}),
    ("query_bad_param", "named_query", {"name": "practices-of-site", "params": {"site": "github.com", "x": "1"}}),
    ("query_unknown_site", "named_query", {"name": "practices-of-site", "params": {"site": "nosuch.example"}}),
    (
        "odrl_site",
        "odrl_evaluate",
        {
            "site": "github.com",
            "action": "share",
            "data": ["pd:EmailAddress"],
            "purpose": ["dpv:DirectMarketing"],
            "recipient": ["advertising"],
        },
    ),
    ("odrl_turtle", "odrl_evaluate", {"policy": POLICY, "request": REQUEST, "state": STATE}),
    ("odrl_bad_turtle", "odrl_evaluate", {"policy": POLICY.replace(" .\n", "\n", 1), "request": REQUEST}),
    ("odrl_unknown_site", "odrl_evaluate", {"site": "nosuch.example", "data": ["pd:EmailAddress"]}),
    ("odrl_bad_action", "odrl_evaluate", {"site": "github.com", "action": "sell"}),
    ("compliance", "compliance", {"site": "github.com"}),
    ("compliance_unknown_law", "compliance", {"site": "github.com", "law": "hipaa"}),
    ("compliance_unknown_site", "compliance", {"site": "nosuch.example"}),
    ("no_such_tool", "free_sparql", {"site": "github.com"}),
    ("after_errors", "check_egress", {"site": "github.com", "data": ["pd:EmailAddress"]}),
]


async def _session(client: Client) -> dict[str, Any]:
    out: dict[str, Any] = {"tools": await client.list_tools()}
    for key, tool, args in CALLS:
        out[key] = await client.call_tool(tool, args)
    out["resources"] = await client.list_resources()
    out["resource"] = await client.read_resource("policy://github.com")
    out["resource_sub"] = await client.read_resource("policy://gist.github.com")
    try:
        await client.read_resource("policy://nosuch.example")
        out["resource_unknown"] = None
    except Exception as e:  # the SDK raises the server's protocol error
        out["resource_unknown"] = e
    out["listed_after"] = await client.list_tools()
    return out


@pytest.fixture(scope="module")
def stdio(graph: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    db = tmp_path_factory.mktemp("mcp-ledger") / "plane.db"
    errlog = db.with_name("server.err")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "pp_graph.cli", "mcp", "--graph", str(graph), "--ledger", str(db)],
        env=_env(),
    )

    async def run() -> dict[str, Any]:
        with errlog.open("w") as err:  # the server's stderr, checked for raw values too
            async with Client(stdio_client(params, errlog=err)) as client:
                return await _session(client)

    out = anyio.run(run)
    out["db"] = db
    return out


def _text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def test_lists_the_tools_with_json_schemas(stdio: dict[str, Any]) -> None:
    tools = {t.name: t for t in stdio["tools"].tools}
    assert set(tools) == TOOLS
    egress = tools["check_egress"].input_schema
    assert egress["required"] == ["site"]
    assert egress["properties"]["data"]["type"] == "array"
    assert egress["properties"]["text"]["maxLength"] == MAX_TEXT
    assert tools["anonymize"].input_schema["properties"]["level"]["maximum"] == 5
    names = tools["named_query"].input_schema["properties"]["name"]["enum"]
    assert "practices-of-site" in names and "SELECT" not in " ".join(names)
    odrl = tools["odrl_evaluate"].input_schema["properties"]
    assert odrl["policy"]["maxLength"] == MAX_TURTLE and odrl["recipient"]["type"] == "array"
    assert {"share", "transfer", "collect", "use"} <= set(json.dumps(odrl["action"]).replace('"', " ").split())
    assert "gdpr" in tools["compliance"].input_schema["properties"]["law"]["enum"]


def test_check_egress_allow_transform_deny(stdio: dict[str, Any]) -> None:
    allow, transform, deny = (stdio[k].structured_content for k in ("allow", "transform", "deny"))
    assert not any(stdio[k].is_error for k in ("allow", "transform", "deny"))
    assert allow["decision"] == "allow" and allow["site"] == "github.com"
    assert allow["evidence"] and all("text" in e for e in allow["evidence"])  # the policy lines it rests on
    assert transform["decision"] == "transform" and transform["site"] == "github.com"
    assert SECRET not in transform["text"] and "Jane" not in transform["text"]
    assert {"pd:EmailAddress", "pd:TelephoneNumber"} <= {c["category"] for c in transform["categories"]}
    assert deny["decision"] == "deny"
    assert any("credentials" in r["rule"] for r in deny["rules"])


def test_bad_arguments_are_tool_errors_naming_the_problem(stdio: dict[str, Any]) -> None:
    expect = {
        "unknown_site": "no policy for site 'nosuch.example'",
        "bad_types": "data",
        "missing_site": "site",
        "bad_term": "not a personal-data category",
        "oversize": f"over the limit of {MAX_TEXT:,}",
        "anonymize_bad_level": "level",
        "anonymize_oversize": f"over the limit of {MAX_TEXT:,}",
        "facts_unknown": "no policy for site 'gitlab.com'",
        "query_free_sparql": "no named query",
        "query_path": "no named query",
        "query_bad_param": "unknown parameter(s) x",
        "query_unknown_site": "no policy in the store is for site 'nosuch.example'",
        "odrl_bad_turtle": "policy: not valid Turtle",
        "odrl_unknown_site": "no policy for site 'nosuch.example'",
        "odrl_bad_action": "action",
        "compliance_unknown_law": "unknown law 'hipaa'; known laws: ccpa, gdpr",
        "compliance_unknown_site": "no policy for site 'nosuch.example'",
        "no_such_tool": "free_sparql",
    }
    for key, words in expect.items():
        res = stdio[key]
        assert res.is_error, key
        assert words in _text(res), (key, _text(res))
    assert "limit of" in _text(stdio["oversize"]) and "aaaa" not in _text(stdio["oversize"])


def test_server_stays_up_after_errors(stdio: dict[str, Any]) -> None:
    after = stdio["after_errors"]
    assert not after.is_error and after.structured_content["decision"] in {"allow", "transform", "deny"}
    assert {t.name for t in stdio["listed_after"].tools} == TOOLS


def test_anonymize_policy_facts_and_named_query(stdio: dict[str, Any]) -> None:
    a = stdio["anonymize"].structured_content
    assert SECRET not in a["text"] and a["level"] >= 3 and "pd:EmailAddress" in a["categories"]
    facts = stdio["facts"].structured_content
    assert facts["site"] == "github.com" and facts["total"] == len(facts["practices"]) > 0
    assert all(p["type"] == "third-party-sharing-disclosure" for p in facts["practices"])
    assert all(p["evidence"]["text"] and p["evidence"]["start"] is not None for p in facts["practices"])
    assert any(p["negated"] for p in facts["practices"])  # "we do not sell …" is a practice with its line
    q = stdio["query"].structured_content
    assert q["query"] == "practices-of-site" and len(q["rows"]) == 3 and q["total"] > 3


def test_odrl_evaluate_a_site_and_turtle(stdio: dict[str, Any]) -> None:
    site = stdio["odrl_site"].structured_content
    assert not stdio["odrl_site"].is_error and site["verdict"] == "prohibited" and site["site"] == "github.com"
    assert site["request"] == {
        "action": "dpv:Share",
        "data": ["pd:EmailAddress"],
        "purposes": ["dpv:DirectMarketing"],
        "recipients": ["advertising"],
    }
    (report,) = site["reports"]
    assert report["verdict"] == "prohibited" and report["decidedBy"]
    active = [r for r in report["rules"] if r["activationState"] == "Active"]
    assert any(r["kind"] == "Prohibition" for r in active)
    assert all({p["kind"] for p in r["premises"]} >= {"Target", "Action"} for r in report["rules"])
    assert all(p["satisfactionState"] == "Satisfied" for r in active for p in r["premises"])
    ban = site["evidence"][0]  # the policy line the verdict rests on, with its offsets
    assert ban["kind"] == "prohibition" and "Shine the Light" in ban["text"] and ban["start"] < ban["end"]
    decided = {m for r in report["rules"] if r["rule"] in report["decidedBy"] for m in r.get("group", [r["rule"]])}
    assert ban["rule"] in decided
    turtle = stdio["odrl_turtle"].structured_content
    assert not stdio["odrl_turtle"].is_error and turtle["verdict"] == "permitted"
    (report,) = turtle["reports"]
    assert report["policy"] == "http://example.com/policy" and report["created"] == "2026-06-01T12:00:00+00:00"
    allowed = next(r for r in report["rules"] if r["kind"] == "Permission")
    assert allowed["activationState"] == "Active"
    kinds = {p["kind"]: p["satisfactionState"] for p in allowed["premises"]}
    assert kinds == {"Target": "Satisfied", "Party": "Satisfied", "Action": "Satisfied", "Constraint": "Satisfied"}
    banned = next(r for r in report["rules"] if r["kind"] == "Prohibition")
    assert banned["activationState"] == "Inactive"  # reading is not distributing


def test_compliance_checklist_of_a_site(stdio: dict[str, Any]) -> None:
    out = stdio["compliance"].structured_content
    assert not stdio["compliance"].is_error and out["site"] == "github.com" and out["law"] == "gdpr"
    (policy,) = out["policies"]
    assert policy["file"] == "github.com.trig" and out["complete"] is policy["complete"] is False
    reqs = {r["id"]: r for r in policy["requirements"]}
    assert {"controller-name", "legal-basis", "right-lodge-complaint"} <= set(reqs)
    assert all(set(r) >= {"id", "label", "article", "status", "evidence"} for r in reqs.values())
    controller = reqs["controller-name"]
    assert controller["status"] == "addressed" and controller["article"].startswith("Art. 13")
    first = controller["evidence"][0]
    assert "GitHub" in first["text"] and first["end"] - first["start"] == len(first["text"])
    assert reqs["mandatory-disclosure"]["status"] == "missing" and not reqs["mandatory-disclosure"]["evidence"]


def test_each_policy_is_a_resource(stdio: dict[str, Any]) -> None:
    assert [str(r.uri) for r in stdio["resources"].resources] == ["policy://github.com"]
    body = stdio["resource"].contents[0].text
    assert body.startswith("# Privacy policy of github.com") and "third-party-sharing-disclosure" in body
    assert stdio["resource_sub"].contents[0].text == body  # a subdomain falls back to the site's policy
    assert "no policy for site 'nosuch.example'" in str(stdio["resource_unknown"])


def test_every_call_is_in_the_ledger_without_raw_values(stdio: dict[str, Any]) -> None:
    from pp_graph.plane.db import connect
    from pp_graph.plane.ledger import Ledger

    db = stdio["db"]
    ledger = Ledger(connect(db, create=False))
    assert ledger.verify().ok
    entries = [e for _, e in ledger.entries()]
    names = [e["name"] for e in entries]
    # every call, those the SDK refuses before any tool runs (bad types, unknown tools) included
    assert names.count("check_egress") == 9 and names.count("anonymize") == 3
    assert "policy_facts" in names and "named_query:practices-of-site" in names
    assert names.count("resource:policy") == 3
    assert names.count("odrl_evaluate") == 5 and names.count("compliance") == 3  # refused calls included
    odrl = [e for e in entries if e["name"] == "odrl_evaluate"]
    assert [e["result"] for e in odrl] == ["prohibited", "permitted", "refused", "refused", "refused"]
    assert [f["name"] for f in odrl[4]["fields"]] == ["action"]  # refused by the schema: the argument's name only
    refused = [
        [f["name"] for f in e["fields"]] for e in entries if e["name"] == "check_egress" and e["result"] == "refused"
    ]
    assert ["data,purpose"] in refused and ["site"] in refused
    assert [e["fields"][0]["name"] for e in entries if e["name"] == "anonymize" and e["result"] == "refused"] == [
        "level",
        "text",
    ]
    unknown = [e for e in entries if e["name"] == "unknown-tool"]
    assert (
        len(unknown) == 1 and b"free_sparql" not in json.dumps(unknown).encode()
    )  # the caller's tool name is not kept
    assert odrl[0]["sites"] == ["github.com"] and odrl[0]["fields"][0]["category"] == "pd:EmailAddress"
    assert [f["name"] for f in odrl[1]["fields"]] == ["policy", "request", "state"]
    assert [f["name"] for f in odrl[2]["fields"]] == ["policy"]  # the argument refused, not its text
    checked = next(e for e in entries if e["name"] == "compliance")
    assert checked["result"] == "incomplete" and checked["sites"] == ["github.com"]
    assert {"controller-name": "addressed", "mandatory-disclosure": "missing"}.items() <= {
        f["name"]: f["action"] for f in checked["fields"]
    }.items()
    results = {e["result"] for e in entries if e["name"] == "check_egress"}
    assert {"allow", "transform", "deny", "refused"} <= results
    transform = next(e for e in entries if e.get("result") == "transform")
    assert transform["sites"] == ["github.com"] and transform["purpose"] == "dpv:Marketing"
    assert {"pd:EmailAddress", "pd:TelephoneNumber"} <= {f["category"] for f in transform["fields"]}
    raw = b"".join(r[0] for r in sqlite3.connect(db).execute("SELECT entry FROM ledger"))
    assert SECRET.encode() not in raw and b"Jane" not in raw and b"aaaaaaaa" not in raw
    assert b"secretreport" not in raw and b"example.com" not in raw  # nothing of the caller's Turtle
    for path in db.parent.iterdir():  # nor the database file, its WAL, or the server's log
        assert SECRET.encode() not in path.read_bytes(), path


def test_service_refuses_before_any_model_loads(graph: Path) -> None:
    svc = PolicyService([graph])
    with pytest.raises(InputError, match="over the limit of 100,000"):
        svc.anonymize("x" * (MAX_TEXT + 1))
    with pytest.raises(InputError, match=r"nearest: github\.com"):
        svc.policy_facts("githb.com")
    with pytest.raises(InputError, match="not a practice type"):
        svc.policy_facts("github.com", practice_type="selling")
    with pytest.raises(InputError, match="must be a string"):
        svc.named_query("practices-of-site", {"site": 5})  # type: ignore[dict-item]


def test_named_query_errors_name_the_tool_argument_not_a_cli_flag(graph: Path) -> None:
    # Said "pass --param site=VALUE": an MCP client has no such flag; it gives the value in the params argument.
    with pytest.raises(InputError) as e:
        PolicyService([graph]).named_query("practices-of-site", {})
    msg = str(e.value)
    assert "missing parameter 'site'" in msg and "--param" not in msg
    assert 'in the params argument: {"site": "…"}' in msg
    from pp_graph.query.runner import load_query

    with pytest.raises(InputError, match=r"pass --param site=VALUE"):  # the command line keeps its flag
        load_query("practices-of-site").bindings({})


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("top-purposes", {}),
        ("top-data-classes", {}),
        ("practices-of-site", {"site": "github.com", "under": "pd:Contact"}),
    ],
)
def test_named_queries_over_dpv_answer_as_the_cli_does(graph: Path, name: str, params: dict[str, str]) -> None:
    # The service's store held no DPV, so these came back empty ("total": 0) with no error: a silent wrong answer.
    from pp_graph.query.runner import load_query
    from pp_graph.store.embedded import open_store

    q = load_query(name)
    want = q.run_bound(open_store([graph]), q.bindings(params))
    got = PolicyService([graph]).named_query(name, params, limit=3)
    assert want and got["total"] == len(want) and len(got["rows"]) == 3


def test_service_odrl_and_compliance_refusals(
    graph: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    from rdflib import Dataset

    svc = PolicyService([graph])
    with pytest.raises(InputError, match=r"^policy: give either a site"):
        svc.odrl_evaluate(site="github.com", policy=POLICY, request=REQUEST)
    with pytest.raises(InputError, match=r"^data: describes an agent's action"):
        svc.odrl_evaluate(policy=POLICY, request=REQUEST, data=["pd:EmailAddress"])
    with pytest.raises(InputError, match=r"^request: missing"):
        svc.odrl_evaluate(policy=POLICY)
    with pytest.raises(InputError, match=rf"^state: 200,001 characters is over the limit of {MAX_TURTLE:,}"):
        svc.odrl_evaluate(policy=POLICY, request=REQUEST, state="#" * (MAX_TURTLE + 1))
    with pytest.raises(InputError, match=r"^request: no ODRL request in it"):
        svc.odrl_evaluate(policy=POLICY, request=STATE)
    # an ill-typed literal: refused by name, and rdflib's logged traceback (quoting the caller's value) dropped
    with pytest.raises(InputError, match=r"^policy: the literal 'zq-canary' is not a valid xsd:integer"):
        svc.odrl_evaluate(policy=POLICY + 'ex:n ex:count "zq-canary"^^xsd:integer .', request=REQUEST)
    assert "zq-canary" not in caplog.text and "Traceback" not in capsys.readouterr().err
    with pytest.raises(InputError, match=r"^purpose: 'dpv:Nope' is not a purpose"):
        svc.odrl_evaluate(site="github.com", purposes=["dpv:Nope"])
    # a graph converted before the transparency stage: the message pp-graph comply gives
    ds = Dataset()
    ds.parse(graph / "github.com.trig", format="trig")
    for s, p, o, g in list(ds.quads()):
        if "transparency" in f"{s}{p}{o}".lower() or "gdpr-" in str(o):
            ds.remove((s, p, o, g))
    (tmp_path / "github.com.trig").write_text(ds.serialize(format="trig"), "utf-8")
    with pytest.raises(InputError, match=r"^--graph: .*github\.com\.trig: converted before .* convert it again"):
        PolicyService([tmp_path]).compliance("github.com")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(port: int, proc: subprocess.Popen[bytes], seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError("the server did not listen in time")


def test_streamable_http(graph: Path) -> None:
    port = _free_port()
    cmd = [sys.executable, "-m", "pp_graph.cli", "mcp", "--transport", "http", "--port", str(port)]
    proc = subprocess.Popen([*cmd, "--graph", str(graph)], env=_env(), stderr=subprocess.DEVNULL)
    try:
        _wait_for(port, proc)

        async def run() -> dict[str, Any]:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                return {
                    "tools": await client.list_tools(),
                    "deny": await client.call_tool("check_egress", CALLS[2][2]),
                    "bad": await client.call_tool("check_egress", {"site": ["github.com"]}),
                    "oversize": await client.call_tool("anonymize", {"text": "c" * (MAX_TEXT + 1)}),
                    "after": await client.call_tool("policy_facts", {"site": "github.com", "limit": 1}),
                }

        out = anyio.run(run)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert {t.name for t in out["tools"].tools} == TOOLS
    assert out["deny"].structured_content["decision"] == "deny"
    assert out["bad"].is_error and "site" in _text(out["bad"])
    assert out["oversize"].is_error and f"over the limit of {MAX_TEXT:,}" in _text(out["oversize"])
    assert not out["after"].is_error and len(out["after"].structured_content["practices"]) == 1
