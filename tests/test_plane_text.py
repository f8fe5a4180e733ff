"""The data plane's free text through the anonymizer: the entity-type → DPV category table (every row checked
against the DPV vocabulary), the transformer at the asked level with the plane's tokens, and a canary run on a
real SQLite ledger that records categories and offsets, never the values."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pp_graph.anonymize.categories import CATEGORY_TABLE, HEADER, TYPES, load_categories
from pp_graph.datafiles import tsv_lines
from pp_graph.errors import ConfigError, ContractError, DataFileError, LedgerError, PlaneError
from pp_graph.plane import DataPlane, Field
from pp_graph.plane import demo as demo_mod
from pp_graph.plane.contracts import Contracts, parse_contract
from pp_graph.plane.keys import PlaneKeys
from pp_graph.plane.ledger import check_record
from pp_graph.plane.projection import Projector, SiteVerdict, Tokenizer
from pp_graph.plane.text import AnonymizerText, parse_level
from pp_graph.vocab.dpv import expand, vocabulary

KEYS = PlaneKeys(bytes(range(32)))
CANARY = "Zqxwv Plortnik (zqxwv.plortnik@canary-mail.org, password: Hunter2Canary!) cannot log in"
CANARY_PARTS = ("Zqxwv", "Plortnik", "zqxwv", "canary-mail", "Hunter2Canary")


def fake_token(value: str) -> str:
    return f"tok_{sum(map(ord, value)):06d}"


# -- the table --


def test_every_row_is_a_dpv_personal_data_concept() -> None:
    vocab = vocabulary()
    rows = list(tsv_lines(CATEGORY_TABLE))
    assert rows[0][1] == HEADER
    body = [parts for _, parts, _ in rows[1:]]
    assert sorted(p[0] for p in body) == sorted(TYPES)  # every anonymizer type (detected and swept), once
    assert {"PERSON", "NAME", "NUMBER", "CODE"} <= set(TYPES)
    for type_, term, rationale in body:
        iri = expand(term)
        assert iri in vocab.labels, f"{type_}: {term} is not in the DPV files"
        assert vocab.is_personal_data(iri), f"{type_}: {term} is not under dpv:PersonalData"
        assert len(rationale.split()) >= 3, type_  # a reason, not a placeholder
    assert load_categories()["PERSON"] == expand("pd:Name")


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        ("PERSON\tpd:Name\twhy\n", "first row must be the header"),
        ("type\tcategory\trationale\nPERSON\tpd:NoSuchThing\twhy\n", "not a DPV personal-data concept"),
        ("type\tcategory\trationale\nPERSON\tdpv:Marketing\twhy\n", "not a DPV personal-data concept"),
        ("type\tcategory\trationale\nMARTIAN\tpd:Name\twhy\n", "not an anonymizer entity type"),
        ("type\tcategory\trationale\nPERSON\tpd:Name\twhy\nPERSON\tpd:Name\twhy\n", "mapped twice"),
        ("type\tcategory\trationale\nPERSON\tpd:Name\n", "expected 'type<TAB>category<TAB>rationale'"),
        ("type\tcategory\trationale\nPERSON\tpd:Name\twhy\n", "no category for entity type(s) AGE"),
    ],
)
def test_bad_tables_are_refused(tmp_path: Path, rows: str, problem: str) -> None:
    f = tmp_path / "t.tsv"
    f.write_text(rows, encoding="utf-8")
    with pytest.raises(DataFileError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        load_categories(f, ("PERSON", "AGE") if "AGE" in problem else ("PERSON",))


# -- the transformer --


def test_transformer_replaces_with_tokens_and_records_offsets() -> None:
    rw = AnonymizerText()(CANARY, "L1", fake_token)  # L1 asked: the floor (L3) applies
    assert not any(p in rw.text for p in CANARY_PARTS) and "tok_" in rw.text and "cannot log in" in rw.text
    assert {"pd:Name", "pd:EmailAddress", "pd:Password"} <= set(rw.categories)
    by_cat = {s.category: CANARY[s.start : s.end] for s in rw.spans}
    assert by_cat["pd:Name"] == "Zqxwv Plortnik" and by_cat["pd:EmailAddress"] == "zqxwv.plortnik@canary-mail.org"
    assert "Hunter2Canary" in by_cat["pd:Password"]  # found by risk detection, not by an anonymizer type
    assert rw.how.startswith("anonymized at L3")
    again = AnonymizerText()(CANARY, "L3", fake_token)
    assert again.text == rw.text  # the same value gets the same token


def test_transformer_levels() -> None:
    text = "Mail Jane Roe at jane@roe.org, she is our nurse at Acme Corp."
    l3 = AnonymizerText()(text, "L3", fake_token)
    l4 = AnonymizerText()(text, "L4", fake_token)
    assert l3.how.startswith("anonymized at L3") and l4.how.startswith("anonymized at L4")
    assert "nurse" in l3.text and "nurse" not in l4.text  # L4 rewrites the contextual cue
    low = AnonymizerText(floor=1)(text, "L1", fake_token)
    assert "J. R." in low.text and "Jane" not in low.text  # with the floor lowered, L1 generalises
    with pytest.raises(PlaneError, match="expected L1–L5"):
        parse_level("L9")


def test_ledger_refuses_span_entries_with_room_for_a_value() -> None:
    check_record({"event": "context", "fields": [{"name": "x", "spans": ["pd:Name PERSON 0-5"]}]})
    with pytest.raises(LedgerError, match="spans"):
        check_record({"event": "context", "fields": [{"name": "x", "spans": ["pd:Name PERSON 0-5 Jane Roe"]}]})


# -- end to end on a real SQLite ledger --


def test_plane_default_records_categories_and_offsets_never_values(tmp_path: Path) -> None:
    db = tmp_path / "agent.db"
    plane: DataPlane = demo_mod.demo_plane(db, KEYS, demo_mod.Clock())
    issue = Field("issue", CANARY, "internal", subject="user:42", purpose="dpv:CustomerCare", free_text=True)
    ctx = plane.context([issue], purpose="dpv:CustomerCare", principal="bot")
    assert not any(p in ctx["issue"] for p in CANARY_PARTS) and "tok_" in ctx["issue"]
    entry = list(plane.ledger.entries())[-1][1]
    f = entry["fields"][0]
    assert f["action"] == "transform" and any("anonymized at L3" in r for r in f["reasons"])
    assert f["ner_mode"] == "hybrid" and f["detector"].startswith("sha256:")  # which detector, in the scan below
    spans = {s.split()[0]: s for s in f["spans"]}
    start, end = map(int, spans["pd:Name"].split()[2].split("-"))
    assert CANARY[start:end] == "Zqxwv Plortnik"
    assert plane.ledger.verify().ok
    plane.close()
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    blob = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("agent.db"))
    for part in CANARY_PARTS:
        assert part.encode() not in blob, part


# -- the level a contract asks, and a site raising it --

NURSE = "Mail Jane Roe at jane@roe.org, she is our nurse at Acme Corp."


def _contract(level: str | None, free_text: bool = True) -> Any:
    rule: dict[str, Any] = {"classes": ["internal"], "free_text": free_text}
    if level is not None:
        rule["level"] = level
    doc = {"contract": {"name": "t", "boundary": "tool", "purpose": "dpv:CustomerCare"}, "fields": {"note": rule}}
    return parse_contract(doc, "t.toml")


def _project(contract: Any, site_level: str | None = None) -> Any:
    check = (lambda *_: SiteVerdict("transform", site_level, "test site")) if site_level else None
    p = Projector(Tokenizer(bytes(range(32))), check)
    fields = [Field("note", NURSE, "internal", subject="user:1", free_text=True)]
    proj = p.project(fields, boundary="tool", purpose="dpv:CustomerCare", contract=contract, sites=("s",) * bool(check))
    return proj["note"], proj.decisions[0]


def test_contract_asks_a_level() -> None:
    text, d = _project(_contract(None))
    assert "nurse" in text and any("anonymized at L3" in r for r in d.reasons)  # default: the floor
    text, d = _project(_contract("l4"))
    assert "nurse" not in text and "Jane" not in text and any("anonymized at L4" in r for r in d.reasons)
    assert _contract("L4").digest != _contract(None).digest  # the level is part of what a decision rests on
    with pytest.raises(ContractError, match=r"fields.note.level.*not an anonymization level"):
        _contract("L7")
    with pytest.raises(ContractError, match="applies to free text only"):
        _contract("L4", free_text=False)


def test_a_site_level_above_the_contract_rewrites_again() -> None:
    text, d = _project(_contract(None), site_level="L4")
    assert "nurse" not in text and any("rewritten again at L4" in r for r in d.reasons)
    text, d = _project(_contract("L4"), site_level="L3")  # a lower site level never loosens
    assert "nurse" not in text and not any("rewritten again" in r for r in d.reasons)


def test_long_free_text_says_how_far_ner_read(monkeypatch: pytest.MonkeyPatch) -> None:
    import pp_graph.risk.detect as detect_mod

    monkeypatch.setattr(detect_mod, "NER_MAX_CHARS", 2_000)  # NER reads the first chunk (≤ 10,000) only
    filler = "The weather was mild and the meeting ran long. " * 230  # ≈ 10,800 characters
    text = "Mail Zqxwv Plortnik at zqxwv.plortnik@canary-mail.org. " + filler + "Barack Obama visited."
    rw = AnonymizerText()(text, "L3", fake_token)
    assert "Zqxwv" not in rw.text and "zqxwv" not in rw.text  # patterns run throughout
    late = [s.type for s in rw.spans if s.start >= text.index("Barack")]
    assert late == ["NAME"]  # no NER past its bound: only the L3 residual sweep masks the late name
    assert "names by NER in the first" in rw.how and f"of {len(text):,} characters" in rw.how


# -- which detector judged the text --


def test_the_rewrite_names_the_ner_mode_and_the_digest_of_its_models() -> None:
    from pp_graph.anonymize.recognizers import detector_digest

    rw = AnonymizerText()(CANARY, "L3", fake_token)
    assert rw.ner_mode == "hybrid" and rw.detector == detector_digest("hybrid")
    patterns = AnonymizerText(mode="none")(CANARY, "L3", fake_token)  # the mode runs: no NER finds the name
    assert patterns.ner_mode == "none" and patterns.detector is None
    assert "PERSON" not in {s.type for s in patterns.spans} and "PERSON" in {s.type for s in rw.spans}
    assert "zqxwv.plortnik@canary-mail.org" not in patterns.text
    with pytest.raises(ConfigError, match="unknown NER mode 'nonsense'"):
        AnonymizerText(mode="nonsense")


def _ledger_fields(plane: DataPlane, text: str) -> tuple[dict[str, Any], str]:
    issue = Field("issue", text, "internal", subject="user:42", purpose="dpv:CustomerCare", free_text=True)
    plane.context([issue], purpose="dpv:CustomerCare", principal="bot")
    entry = list(plane.ledger.entries())[-1][1]
    return entry["fields"][0], entry["policy"]


def test_the_ledger_names_the_detector_and_the_policy_digest_rests_on_it(tmp_path: Path) -> None:
    from pp_graph.anonymize.recognizers import detector_digest

    default = demo_mod.demo_plane(tmp_path / "a.db", KEYS, demo_mod.Clock())
    f, policy = _ledger_fields(default, CANARY)
    assert f["ner_mode"] == "hybrid" and f["detector"] == detector_digest("hybrid")
    clean, clean_policy = _ledger_fields(default, "The printer on floor two is jammed again.")
    assert clean["action"] == "allow" and clean["ner_mode"] == "hybrid"  # "nothing found" was judged too
    assert clean_policy == policy  # the same contract and detector
    contracts = Contracts.load(demo_mod.DEMO / "contracts")
    other = DataPlane(tmp_path / "b.db", contracts=contracts, keys=KEYS, transform_text=AnonymizerText(mode="none"))
    g, other_policy = _ledger_fields(other, CANARY)
    assert g["ner_mode"] == "none" and "detector" not in g  # no model ran
    assert other_policy != policy  # another detector, another basis for the decision
    memory = Field("channel", "sms", "personal", subject="user:1", retention="preference")
    default.remember(memory, subject="user:1", purpose="dpv:Personalisation")
    other.remember(memory, subject="user:1", purpose="dpv:Personalisation")
    a, b = (list(p.ledger.entries())[-1][1]["policy"] for p in (default, other))
    assert a == b  # no text judged: the detector is not part of it
    for p in (default, other):
        assert p.ledger.verify().ok
        p.close()
    with pytest.raises(LedgerError, match="detector"):
        check_record({"event": "context", "fields": [{"name": "x", "detector": "Zqxwv Plortnik"}]})


def test_the_policy_digest_rests_on_the_detector_digest_not_only_the_mode_name(tmp_path: Path) -> None:
    """The same mode name over other models (a test mode registered twice) gives context entries another
    detector and another policy digest; the name alone would leave both unchanged."""
    from pp_graph.anonymize import recognizers

    def run(text: str, taken: list[recognizers.Entity]) -> list[recognizers.Entity]:
        return taken

    contracts = Contracts.load(demo_mod.DEMO / "contracts")
    recognizers.register_mode("test-twice", run, lambda: "sha256:" + "a" * 64)
    try:
        plane = DataPlane(
            tmp_path / "c.db", contracts=contracts, keys=KEYS, transform_text=AnonymizerText(mode="test-twice")
        )
        first, first_policy = _ledger_fields(plane, CANARY)
        again, again_policy = _ledger_fields(plane, CANARY)
        recognizers.register_mode("test-twice", run, lambda: "sha256:" + "b" * 64)  # same name, other models
        second, second_policy = _ledger_fields(plane, CANARY)
    finally:
        del recognizers.MODES["test-twice"]
    assert first["ner_mode"] == second["ner_mode"] == "test-twice"
    assert (first["detector"], second["detector"]) == ("sha256:" + "a" * 64, "sha256:" + "b" * 64)
    assert again["detector"] == first["detector"] and again_policy == first_policy  # same detector: same digest
    assert second_policy != first_policy  # only the digest of the models changed
    entries = [e for _, e in plane.ledger.entries()]
    assert [e["event"] for e in entries] == ["context"] * 3 and [e["policy"] for e in entries] == [
        first_policy,
        first_policy,
        second_policy,
    ]
    assert plane.ledger.verify().ok
    plane.close()


@pytest.mark.parametrize(
    "field",
    [
        {"detector": "sha256:ZqxwvPlortnik"},  # a value in a digest's place: not 64 hex digits
        {"detector": "sha256:" + "Zq" * 32},
        {"ner_mode": "Zqxwv.Plortnik"},  # not a mode name's shape
        {"ner_mode": "zqxwv.plortnik"},  # the shape of a name, but no registered mode
    ],
)
def test_the_ledger_refuses_a_value_in_the_detector_keys(field: dict[str, str]) -> None:
    with pytest.raises(LedgerError, match=next(iter(field))):
        check_record({"event": "context", "fields": [{"name": "x", **field}]})


def test_the_rewrite_and_the_ledger_name_the_sweep(tmp_path: Path) -> None:
    from pp_graph.anonymize.sweep import DEFAULT_SWEEP, NO_SWEEP, sweep_digest

    text = "my name is zqxwvina and my pin is 771."
    on = AnonymizerText(mode="none")(text, "L3", fake_token)
    off = AnonymizerText(mode="none", residual=NO_SWEEP)(text, "L3", fake_token)
    other = AnonymizerText(mode="none", residual=DEFAULT_SWEEP.replace(min_digits=4))(text, "L3", fake_token)
    assert on.sweep == sweep_digest(DEFAULT_SWEEP) and off.sweep is None and other.sweep not in (None, on.sweep)
    contracts = Contracts.load(demo_mod.DEMO / "contracts")
    fields = []
    for name, residual in (("d.db", DEFAULT_SWEEP), ("e.db", NO_SWEEP)):
        tt = AnonymizerText(mode="none", residual=residual)
        plane = DataPlane(tmp_path / name, contracts=contracts, keys=KEYS, transform_text=tt)
        fields.append(_ledger_fields(plane, CANARY)[0])
        assert plane.ledger.verify().ok
        plane.close()
    assert fields[0]["sweep"] == sweep_digest(DEFAULT_SWEEP) and "sweep" not in fields[1]
    check_record({"event": "context", "fields": [{"name": "x", "sweep": sweep_digest(DEFAULT_SWEEP)}]})
    with pytest.raises(LedgerError, match="sweep"):
        check_record({"event": "context", "fields": [{"name": "x", "sweep": "Zqxwv Plortnik"}]})


def test_the_texts_own_placeholders_stay_as_they_are() -> None:
    text = "Ask [NAME_1] about Zorblat today."
    rw = AnonymizerText(mode="none")(text, "L3", fake_token)
    assert "[NAME_1]" in rw.text and "Zorblat" not in rw.text, rw.text
    assert [text[s.start : s.end] for s in rw.spans] == ["Zorblat"]
