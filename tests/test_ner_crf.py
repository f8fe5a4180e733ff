"""The anonymizer's sequence model and the rules around it: the committed model loads, matches its recorded
digest, finds names, organisations, places and multi-line addresses in hand-written text; the organisation, name-cue
and clipping rules with positive and negative cases."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pp_graph.anonymize import crf, recognize
from pp_graph.anonymize.recognizers import REGISTRY, Entity, ner_entities, rule_entities
from pp_graph.errors import ConfigError, ModelMismatch, ModelUnavailable, PPGraphError


def found(text: str, **kw: object) -> set[tuple[str, str]]:
    return {(e.type, text[e.start : e.end]) for e in recognize(text, **kw)}  # type: ignore[arg-type]


def test_model_digest_is_recorded_in_provenance() -> None:
    prov = crf.provenance()
    assert prov["digest"] == crf.file_digest(crf.MODEL_DIR / crf.MODEL_FILE)
    assert prov["features_version"] == crf.FEATURES_VERSION
    assert "development half" in prov["training_data"]["part"]


def test_a_changed_model_file_is_refused(tmp_path: Path) -> None:
    shutil.copytree(crf.MODEL_DIR, tmp_path / "m")
    with (tmp_path / "m" / crf.MODEL_FILE).open("ab") as f:
        f.write(b"\0")
    with pytest.raises(crf.ModelUnavailable, match="digest"):
        crf.tagger(tmp_path / "m")
    # the model file intact but a wrong digest recorded beside it: refused as well
    shutil.copytree(crf.MODEL_DIR, tmp_path / "m2")
    prov = json.loads((tmp_path / "m2" / "PROVENANCE.json").read_text())
    (tmp_path / "m2" / "PROVENANCE.json").write_text(json.dumps({**prov, "digest": "sha256:0"}))
    with pytest.raises(crf.ModelUnavailable, match="digest does not match PROVENANCE"):
        crf.tagger(tmp_path / "m2")
    (tmp_path / "m3").mkdir()
    with pytest.raises(crf.ModelUnavailable, match="provenance"):
        crf.tagger(tmp_path / "m3")


def test_the_spacy_pipeline_is_recorded_and_a_different_one_refused(tmp_path: Path) -> None:
    assert crf.provenance()["ner_pipeline"] == crf.ner_pipeline()  # the committed model matches what is installed
    assert crf.ModelUnavailable is ModelUnavailable and issubclass(ModelMismatch, ModelUnavailable)
    prov = crf.provenance()
    other = {**prov, "ner_pipeline": {"name": prov["ner_pipeline"]["name"], "version": "0.0.1"}}
    with pytest.raises(ModelMismatch, match=r"0\.0\.1.*installed is"):
        crf.tagger(_model_with(tmp_path / "m", other))
    without = {k: v for k, v in prov.items() if k != "ner_pipeline"}
    with pytest.raises(ModelUnavailable, match="does not record the spaCy pipeline"):
        crf.tagger(_model_with(tmp_path / "n", without))


def _model_with(folder: Path, provenance: dict[str, Any]) -> Path:
    """A copy of the committed model whose PROVENANCE.json is replaced by ``provenance``."""
    shutil.copytree(crf.MODEL_DIR, folder)
    (folder / "PROVENANCE.json").write_text(json.dumps(provenance))
    return folder


def test_the_name_lists_are_recorded_and_different_ones_refused(tmp_path: Path) -> None:
    assert crf.provenance()["lexicons"] == crf.lexicons()  # the committed model matches the shipped lists
    prov = crf.provenance()
    other = {**prov, "lexicons": {"gazetteer": "sha256:0"}}
    with pytest.raises(ModelMismatch, match=r"name lists gazetteer sha256:0, shipped are sha256:[0-9a-f]{64}"):
        crf.tagger(_model_with(tmp_path / "m", other))
    without = {k: v for k, v in prov.items() if k != "lexicons"}
    with pytest.raises(ModelUnavailable, match="does not record the name lists"):
        crf.tagger(_model_with(tmp_path / "n", without))


@pytest.mark.parametrize("attr", ["FUNCTION_WORDS_FILE", "COMMON_WORD_NAMES_FILE", "NATIONALITIES_FILE"])
def test_the_digests_follow_every_word_list(attr: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pp_graph.anonymize import gazetteer
    from pp_graph.anonymize.modes import rules_digest, spacy_digest

    before = (crf.detector_digest(), spacy_digest(), rules_digest())
    changed = tmp_path / "list.txt"
    changed.write_text(getattr(gazetteer, attr).read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")
    monkeypatch.setattr(gazetteer, attr, changed)
    crf.detector_digest.cache_clear()
    try:
        after = (crf.detector_digest(), spacy_digest(), rules_digest())
    finally:
        crf.detector_digest.cache_clear()
    assert all(a != b for a, b in zip(before, after, strict=True))


def test_the_detector_digest_follows_the_model_and_the_pipeline(tmp_path: Path) -> None:
    d = crf.detector_digest()
    assert d.startswith("sha256:") and d == crf.detector_digest(crf.MODEL_DIR)
    shutil.copytree(crf.MODEL_DIR, tmp_path / "m")
    prov = json.loads((tmp_path / "m" / "PROVENANCE.json").read_text())
    (tmp_path / "m" / "PROVENANCE.json").write_text(json.dumps({**prov, "digest": "sha256:0"}))
    assert crf.detector_digest(tmp_path / "m") != d


def test_records_carry_the_detector_digest() -> None:
    from pp_graph.anonymize import anonymize

    d = crf.detector_digest()
    assert anonymize("Mail Jane Roe at jane@roe.org", 3).to_dict()["detector"] == d
    assert anonymize("Mail Jane Roe at jane@roe.org", 3, ner=False).to_dict()["detector"] is None  # no model ran


def test_bad_modes_and_types_raise_typed_errors() -> None:
    with pytest.raises(ConfigError):
        recognize("x", mode="gpt")
    from pp_graph.anonymize.recognizers import recognizer

    with pytest.raises(ConfigError, match="unknown entity type"):
        recognizer("bad", "NOT_A_TYPE", 1)
    assert issubclass(ModelUnavailable, PPGraphError)


def test_model_finds_person_organisation_and_place() -> None:
    text = "Yesterday Margaret Olsen of Northwind Traders Ltd flew to Lisbon for the audit."
    rules = [(x.type, x.start, x.end) for x in rule_entities(text)]
    ner = [(x.type, x.start, x.end) for x in ner_entities(text)]  # the model reads the spaCy labels as features
    got = {(t, text[s:e]) for t, s, e in crf.predict(text, rules, ner)}
    assert {t for t, _ in got} >= {"PERSON", "ORGANIZATION", "GPE"}, got
    assert ("GPE", "Lisbon") in got
    assert any(t == "PERSON" and "Margaret Olsen" in v for t, v in got), got


def test_model_extends_an_address_over_its_city_and_postcode_lines() -> None:
    text = "Please ship the parcel to 742 Evergreen Terrace\nSpringfield\nOR 97403 before Friday."
    got = found(text)
    street = [v for t, v in got if t == "STREET_ADDRESS"]
    assert street and street[0].startswith("742 Evergreen Terrace") and "97403" in street[0], got
    assert ("DATE_TIME", "Friday") in got  # the structured entity is cut out of the model's span
    assert all("before" not in v for v in street)


def test_model_spans_that_do_not_read_like_an_address_are_dropped() -> None:
    assert not any(t == "STREET_ADDRESS" for t, _ in found("They had 3: Anna, Boris and Chiara."))
    assert not any(t == "STREET_ADDRESS" for t, _ in found("3... 2... 1... go!"))


def test_the_spacy_only_mode_is_still_available_and_bad_modes_fail() -> None:
    assert ("EMAIL_ADDRESS", "a@b.org") in found("mail a@b.org", mode="spacy")
    with pytest.raises(ConfigError, match="unknown NER mode"):
        recognize("x", mode="gpt")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("She joined Fabrikam Software Inc. last year.", "Fabrikam Software Inc."),
        ("I banked with Allied Irish Bank for years", "Allied Irish Bank"),
        ("invoice from blue heron widgets llc today", "blue heron widgets llc"),
    ],
)
def test_org_suffix_positive(text: str, value: str) -> None:
    spans = {text[s:e] for s, e in REGISTRY["org_suffix"].find(text)}
    assert value in spans, spans


@pytest.mark.parametrize("text", ["The Bank is closed on Sunday.", "Our Group meets at noon.", "a group of friends"])
def test_org_suffix_negative(text: str) -> None:
    assert list(REGISTRY["org_suffix"].find(text)) == []


def test_org_suffix_does_not_swallow_the_person_before_of() -> None:
    text = "Margaret Olsen of Northwind Traders Ltd called."
    assert {text[s:e] for s, e in REGISTRY["org_suffix"].find(text)} == {"Northwind Traders Ltd"}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I work for Tailspin Toys these days.", "Tailspin Toys"),
        ("He is employed by Contoso.", "Contoso"),
        ("The Wingtip office is at the harbour.", "Wingtip"),
    ],
)
def test_org_cue_positive(text: str, value: str) -> None:
    spans = {text[s:e] for s, e in REGISTRY["org_cue"].find(text)}
    assert value in spans, spans


@pytest.mark.parametrize("text", ["I work for myself.", "We worked at night.", "the office is closed"])
def test_org_cue_negative(text: str) -> None:
    assert list(REGISTRY["org_cue"].find(text)) == []


def test_name_cue_after_a_credit_line_and_without_the_possessive() -> None:
    find = REGISTRY["name_cue"].find
    text = "Written by: Tomasz Nowak. I'm Amanda's friend."
    assert {text[s:e] for s, e in find(text)} == {"Tomasz Nowak", "Amanda"}
    assert list(find("written by hand, sent by post")) == []


def test_ner_spans_stop_at_quoted_speech() -> None:
    got = found('Koppány: "Who are you?"')
    assert ("PERSON", "Koppány") in got
    assert not any(":" in v or '"' in v for _, v in got)


@pytest.mark.parametrize(("text", "ok"), [("born 12/05/1990", True), ("on 5.6.2001", True), ("03.93.92.16.85", False)])
def test_numeric_dates_need_a_day_and_month_in_range(text: str, ok: bool) -> None:
    assert bool(list(REGISTRY["date"].find(text))) is ok


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Fax: 9498777106", "9498777106"),
        ("(37) 788-063-Office", "(37) 788-063"),
        ("Mobile: 03.93.92.16.85", "03.93.92.16.85"),
    ],
)
def test_phone_forms(text: str, value: str) -> None:
    assert ("PHONE_NUMBER", value) in found(text)


@pytest.mark.parametrize("text", ["order 12345 shipped", "see last 10 transactions", "in 2019 we moved"])
def test_phone_negative(text: str) -> None:
    assert not any(t == "PHONE_NUMBER" for t, _ in found(text))


def test_model_address_does_not_start_with_the_verb_before_it() -> None:
    text = "The address of Acme is 12 Main Street, Springfield."
    street = [v for t, v in found(text) if t == "STREET_ADDRESS"]
    assert street and street[0].startswith("12 Main Street"), street


def test_each_sentence_of_a_long_text_reads_as_it_does_alone() -> None:
    one = "Mail Jane Roe at jane@roe.org. She lives at 12 Main Street, Springfield and works for Acme Corp in Paris. "
    alone = found(one)
    assert ("STREET_ADDRESS", "12 Main Street, Springfield") in alone, alone
    assert {("ORGANIZATION", "Acme Corp"), ("GPE", "Paris")} <= alone, alone
    many = recognize(one * 5)
    assert sum(e.type == "GPE" for e in many) == 5
    assert max(e.end - e.start for e in many) <= len("12 Main Street, Springfield")


def test_sentences_do_not_split_after_abbreviations_or_numbers() -> None:
    text = "Send it to Apt. 5 Main St. Anna said yes. Then 12. Boris left."
    toks = crf.tokens(text)
    ends = [toks[b - 1].text + "|" + (toks[b].text if b < len(toks) else "$") for _, b in crf.sentences(text, toks)]
    assert ends == [".|Then", ".|$"], ends


def test_records_name_the_models_of_the_mode_that_ran() -> None:
    from pp_graph.anonymize import anonymize
    from pp_graph.anonymize.recognizers import detector_digest

    text = "Mail Jane Roe at jane@roe.org"
    spacy_only = anonymize(text, 3, mode="spacy").to_dict()["detector"]
    assert spacy_only == detector_digest("spacy") and spacy_only not in (None, crf.detector_digest())
    assert anonymize(text, 3, mode="crf").to_dict()["detector"] == detector_digest("crf")
    assert detector_digest("none") is None
    with pytest.raises(ConfigError, match="unknown NER mode"):
        anonymize(text, 3, mode="gpt")


def test_each_mode_has_its_own_digest_and_the_record_names_the_mode() -> None:
    from pp_graph.anonymize import anonymize
    from pp_graph.anonymize.recognizers import detector_digest

    digests = {m: detector_digest(m) for m in ("hybrid", "crf", "spacy")}
    assert None not in digests.values() and len(set(digests.values())) == 3, digests
    assert digests["hybrid"] == crf.detector_digest()  # the default mode's digest is unchanged
    text = "Mail Jane Roe at jane@roe.org"
    crf_only = anonymize(text, 3, mode="crf").to_dict()
    assert crf_only["ner_mode"] == "crf" and crf_only["detector"] == digests["crf"]
    assert anonymize(text, 3).to_dict()["ner_mode"] == "hybrid"
    assert anonymize(text, 3, ner=False).to_dict()["ner_mode"] == "none"


def test_a_mode_registered_from_outside_must_name_its_models() -> None:
    from pp_graph.anonymize import anonymize, recognizers

    def run(text: str, taken: list[recognizers.Entity]) -> list[recognizers.Entity]:
        return taken

    with pytest.raises(ConfigError, match="digest"):
        recognizers.register_mode("test-nodigest", run, None)  # type: ignore[arg-type]
    assert "test-nodigest" not in recognizers.MODES
    recognizers.MODES["test-raw"] = run  # type: ignore[assignment]  # around the registration
    try:
        with pytest.raises(ConfigError, match="test-raw"):
            recognizers.detector_digest("test-raw")
    finally:
        del recognizers.MODES["test-raw"]
    recognizers.register_mode("test-own", run, lambda: "sha256:" + "0" * 64)
    try:
        rec = anonymize("Mail Jane Roe at jane@roe.org", 3, mode="test-own").to_dict()
        assert rec["detector"] == "sha256:" + "0" * 64 and rec["ner_mode"] == "test-own"
    finally:
        del recognizers.MODES["test-own"]


def test_a_registered_mode_can_neither_replace_a_built_in_one_nor_digest_to_nothing() -> None:
    from pp_graph.anonymize import anonymize, recognizers

    def run(text: str, taken: list[recognizers.Entity]) -> list[recognizers.Entity]:
        return taken

    hybrid = recognizers.MODES["hybrid"]
    for name in ("hybrid", "crf", "spacy", "none"):
        with pytest.raises(ConfigError, match=f"{name!r}.*built-in"):
            recognizers.register_mode(name, run, lambda: "sha256:" + "0" * 64)
    assert recognizers.MODES["hybrid"] is hybrid
    # a digest that gives no "sha256:" string would record "detector: None" (no model) of a mode that ran one
    for i, bad in enumerate((lambda: None, lambda: "", lambda: "md5:abc", lambda: 42)):
        name = f"test-baddigest-{i}"
        recognizers.register_mode(name, run, bad)  # type: ignore[arg-type]
        try:
            with pytest.raises(ConfigError, match=f"{name!r}.*sha256"):
                recognizers.detector_digest(name)
            with pytest.raises(ConfigError, match=f"{name!r}.*sha256"):
                anonymize("Mail Jane Roe at jane@roe.org", 3, mode=name)
        finally:
            del recognizers.MODES[name]


def test_the_benchmark_refuses_an_unknown_mode_without_a_traceback() -> None:
    import subprocess
    import sys

    bench = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_anonymize.py"
    r = subprocess.run([sys.executable, str(bench), "--mode", "nonsense"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, (r.returncode, r.stderr[-500:])
    assert "Traceback" not in r.stderr and "unknown NER mode 'nonsense'" in r.stderr


def _keep(text: str, taken: list[Entity]) -> list[Entity]:
    return taken


def test_one_shape_for_mode_names_and_digests_from_registration_to_the_ledger() -> None:
    """register_mode refuses what the plane ledger would refuse, so a mode never fails late at an append; the
    shapes are one pair, kept by the anonymizer and read by the ledger."""
    from pp_graph.anonymize import recognizers
    from pp_graph.plane import ledger

    for name in ("Zqxwv Plortnik", "Zqxwv.Plortnik", "", "-lead", "x" * 65, "naïve", "a/b"):
        with pytest.raises(ConfigError, match="NER mode name"):
            recognizers.register_mode(name, _keep, lambda: "sha256:" + "0" * 64)
        assert name not in recognizers.MODES
    for i, bad in enumerate(("sha256:ZqxwvPlortnik", "sha256:" + "A" * 64, "sha256:" + "0" * 63, "sha256:" + "0" * 65)):
        name = f"test-shape-{i}"
        recognizers.register_mode(name, _keep, lambda bad=bad: bad)
        try:
            with pytest.raises(ConfigError, match=f"{name!r}.*sha256"):
                recognizers.detector_digest(name)
        finally:
            del recognizers.MODES[name]
    name = "test.mode+x_1"
    recognizers.register_mode(name, _keep, lambda: "sha256:" + "0" * 64)
    try:
        field = {"name": "x", "ner_mode": name, "detector": recognizers.detector_digest(name)}
        ledger.check_record({"event": "context", "fields": [field]})  # accepted here, accepted there
    finally:
        del recognizers.MODES[name]
    # the shapes are the anonymizer's own objects (the sweep's digest has the detector's shape)
    assert ledger.SHAPES == {
        "ner_mode": recognizers.MODE_NAME,
        "detector": recognizers.DIGEST,
        "sweep": recognizers.DIGEST,
    }


def test_the_built_in_digests_have_the_ledger_shape() -> None:
    from pp_graph.anonymize import recognizers
    from pp_graph.plane import ledger

    for mode in ("hybrid", "crf", "spacy"):
        digest = recognizers.detector_digest(mode)
        assert digest is not None and recognizers.DIGEST.fullmatch(digest), (mode, digest)
        ledger.check_record({"event": "context", "fields": [{"name": "x", "ner_mode": mode, "detector": digest}]})
    assert all(recognizers.MODE_NAME.fullmatch(m) for m in recognizers.ner_modes())


def test_the_digest_is_computed_once_per_registration(monkeypatch: pytest.MonkeyPatch) -> None:
    """detect() runs on every decision: the digest of a mode's models is computed once, not per call."""
    from pp_graph.anonymize import recognizers
    from pp_graph.risk import detect as risk_detect

    calls: list[str] = []

    def digest(value: str) -> str:
        calls.append(value)
        return value

    texts = ("Mail Jane Roe at jane@roe.org", "Call Ann Lee on Monday", "Mail Jane Roe at jane@roe.org")
    recognizers.register_mode("test-once", _keep, lambda: digest("sha256:" + "1" * 64))
    try:
        for text in texts:
            risk_detect.detect(text, mode="test-once")
            assert risk_detect.detector_digest("test-once") == "sha256:" + "1" * 64
        assert len(calls) == 1, calls
        recognizers.register_mode("test-once", _keep, lambda: digest("sha256:" + "2" * 64))  # registered again
        for text in texts:
            risk_detect.detect(text, mode="test-once")
        assert risk_detect.detector_digest("test-once") == "sha256:" + "2" * 64 and len(calls) == 2, calls
    finally:
        del recognizers.MODES["test-once"]
    pipeline = crf.ner_pipeline
    reads: list[int] = []
    monkeypatch.setattr(crf, "ner_pipeline", lambda: reads.append(1) or pipeline())
    for text in texts:  # the built-in modes too: the spaCy digest read package metadata on every call
        for mode in ("hybrid", "crf", "spacy"):
            risk_detect.detect(text, mode=mode)
            recognizers.detector_digest(mode)
    assert len(reads) <= 3, len(reads)  # at most once per mode (none if this process computed them already)
