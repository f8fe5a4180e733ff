"""The residual sweep (L3 and above): each rule's worked examples, consistent placeholders, records without raw
values, a name the detector misses masked at L3, and L1/L2 untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pp_graph.anonymize import Entity, anonymize, apply_level, recognize
from pp_graph.anonymize.sweep import (
    DEFAULT_SWEEP,
    NO_SWEEP,
    RULES,
    SweepSettings,
    examples,
    sweep,
)
from pp_graph.errors import ConfigError

EXAMPLES = examples()


def _masked(text: str, settings: SweepSettings, entities: list[Entity] | None = None) -> list[str]:
    return [text[e.start : e.end] for e in sweep(text, entities or [], settings)]


def test_every_rule_has_must_and_must_not_examples() -> None:
    for name in RULES:
        kinds = {x.mask for x in EXAMPLES if x.rule == name}
        assert kinds == {True, False}, name


@pytest.mark.parametrize("ex", EXAMPLES, ids=[f"{x.rule}-{'mask' if x.mask else 'keep'}-{x.value}" for x in EXAMPLES])
def test_rule_examples(ex: object) -> None:
    from pp_graph.anonymize.sweep import Example

    assert isinstance(ex, Example)
    found = sweep(ex.text, [], SweepSettings(rules=(ex.rule,)))
    at = ex.text.index(ex.value)
    spans = [ex.text[e.start : e.end] for e in found]
    if ex.mask:  # one masked span holds the value whole (adjacent names merge into one span)
        whole = ex.value in spans or any(e.start <= at and at + len(ex.value) <= e.end for e in found)
        assert whole, (ex.text, spans)
    else:
        assert not any(e.start < at + len(ex.value) and at < e.end for e in found), (ex.text, spans)


def test_spans_keep_clear_of_detected_entities_and_keep_their_free_part() -> None:
    text = "Please add Maja S Hermansen now"
    ents = [Entity("PERSON", 11, 15, "t"), Entity("PERSON", 18, 27, "t")]
    assert _masked(text, DEFAULT_SWEEP, ents) == ["S"]
    # a capitalised run around a detected name: the rest of the run is masked, never the entity twice
    text = "We met Jane Roe Consulting there"
    assert _masked(text, SweepSettings(rules=("capitalised-run",)), [Entity("PERSON", 7, 15, "t")]) == ["Consulting"]


def test_placeholders_are_consistent_per_value() -> None:
    text = "We asked Zorblat about it. Zorblat said Quendra knows, and Quendra agreed; ref 4411 and 4411 again."
    out = apply_level(text, [], 3)[0]
    assert out.count("[NAME_1]") == 2 and out.count("[NAME_2]") == 2 and out.count("[NUMBER_1]") == 2, out
    assert "Zorblat" not in out and "Quendra" not in out and "4411" not in out


def test_l3_masks_a_name_the_detector_misses() -> None:
    text = "my name is sandra and i need help"
    assert recognize(text) == []  # the detector alone misses the name
    r = anonymize(text, 3)
    assert r.text == "my name is [NAME_1] and i need help", r.text
    rec = r.to_dict()["entities"][0]
    assert rec["recognizer"] == "sweep:lowercase-name" and rec["evidence"] == "name list, lower-case text"
    assert rec["kind"] == "placeholder" and rec["replacement"] == "[NAME_1]"
    assert "sandra" in apply_level(text, [], 3, residual=NO_SWEEP)[0]


def test_l1_and_l2_are_unchanged_by_the_sweep() -> None:
    text = "Megan paid 4411 at Zorblat Labs on 7/30/1964; Jane Roe knows."
    ents = recognize(text)
    for lv in (1, 2):
        assert apply_level(text, ents, lv) == apply_level(text, ents, lv, residual=NO_SWEEP)


def test_records_hold_no_raw_value() -> None:
    canary = "my name is sandra, my reference is qx7781z and my locker 77123."
    found = {canary[e.start : e.end] for e in recognize(canary)}
    assert "sandra" not in found and "77123" not in found  # only the sweep finds these two
    for lv in (3, 4, 5):
        r = anonymize(canary, lv, escalate=True)
        blob = json.dumps(r.to_dict())
        for raw in ("sandra", "77123", "qx7781z"):
            assert raw not in blob and raw not in r.text, (lv, raw)
        assert any(e["recognizer"].startswith("sweep:") for e in r.to_dict()["entities"])


def test_unknown_rule_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="unknown sweep rule 'nope'"):
        sweep("x", [], SweepSettings(rules=("nope",)))


def test_anonymize_takes_the_sweep_settings() -> None:
    from pp_graph.anonymize.sweep import NO_SWEEP as OFF

    text = "my name is sandra and i need help"
    assert anonymize(text, 3, residual=OFF).text == text
    assert anonymize(text, 3, residual=SweepSettings(rules=("number",))).text == text
    assert anonymize(text, 3).text == "my name is [NAME_1] and i need help"


def test_placeholders_already_in_the_text_are_left_alone() -> None:
    text = "Ask [PERSON_1] about [NUMBER] and [DETAILS] today."
    assert sweep(text, [], DEFAULT_SWEEP) == []


def test_bad_thresholds_are_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="min_digits 0"):
        SweepSettings(min_digits=0)


# ---- review fixes (issue 13) ----


def test_records_name_the_sweep_that_ran() -> None:
    from pp_graph.anonymize.sweep import sweep_digest

    text = "my name is sandra and my pin is 771."
    ents: list[Entity] = []
    a = anonymize(text, 3, entities=ents).to_dict()["sweep"]
    b = anonymize(text, 3, entities=ents, residual=NO_SWEEP).to_dict()["sweep"]
    c = anonymize(text, 3, entities=ents, residual=DEFAULT_SWEEP.replace(min_digits=4)).to_dict()["sweep"]
    assert a == sweep_digest(DEFAULT_SWEEP) and a.startswith("sha256:") and len(a) == 71
    assert b is None and c is not None and c != a
    assert anonymize(text, 2, entities=ents).to_dict()["sweep"] is None  # no sweep below L3
    assert sweep_digest(DEFAULT_SWEEP.replace(rules=tuple(reversed(DEFAULT_SWEEP.rules)))) != a  # order counts


def test_guard_record_names_the_sweep() -> None:
    from dataclasses import dataclass

    from pp_graph.anonymize.guard import guard_text
    from pp_graph.anonymize.recognizers import Detected

    @dataclass
    class D:
        decision: str = "transform"
        level: str = "L3"

        def to_dict(self) -> dict[str, object]:
            return {"decision": self.decision, "level": self.level}

    text = "my name is sandra and my pin is 771."
    none = Detected((), "none", None)
    on = guard_text(D(), text, max_level=3, detected=none).record()["anonymization"]["sweep"]
    off = guard_text(D(), text, max_level=3, detected=none, residual=NO_SWEEP).record()["anonymization"]["sweep"]
    assert on is not None and off is None


def test_bracketed_numbers_are_masked() -> None:
    text = "Ref [44112210] and pin[7712], account (44112210)."
    out = apply_level(text, [], 3)[0]
    assert "44112210" not in out and "7712" not in out, out
    assert "[44112210]" not in rewrite_l4(text)


def rewrite_l4(text: str) -> str:
    return apply_level(text, [], 4, residual=NO_SWEEP)[0]


@pytest.mark.parametrize(
    "text,ents",
    [
        ("Ask [NAME_1] about Zorblat today.", []),
        ("Ask [PERSON_1] about it, Jane Roe said.", [Entity("PERSON", 25, 33, "t")]),
    ],
)
def test_placeholders_in_the_text_do_not_collide(text: str, ents: list[Entity]) -> None:
    import re

    out, reps = apply_level(text, ents, 3)
    tags = re.findall(r"\[[A-Z_]+_\d+\]", out)
    assert len(tags) == len(set(tags)) == 2, out
    assert all(r.replacement not in text for r in reps), out


def test_numbers_do_not_join_across_commas_or_lines() -> None:
    text = "Room 4411, 2210 and later 4411 again."
    out = apply_level(text, [], 3)[0]
    assert out == "Room [NUMBER_1], [NUMBER_2] and later [NUMBER_1] again.", out
    found = _masked("Rooms 12\n34 Main St", SweepSettings(rules=("number",)))
    assert found == ["12", "34"], found


@pytest.mark.parametrize("text,word", [("@kateWinslet wrote", "Winslet"), ("I sold it on eBay.", "Bay")])
def test_spans_never_start_mid_word(text: str, word: str) -> None:
    found = sweep(text, [], DEFAULT_SWEEP)
    at = text.index(word)
    assert not any(e.start == at for e in found), [text[e.start : e.end] for e in found]


def test_decomposed_accents_stay_in_the_word() -> None:
    text = "We met Zoe\u0308 Bronte\u0308 there."
    found = _masked(text, DEFAULT_SWEEP)
    assert found == ["Zoe\u0308 Bronte\u0308"], found


@pytest.mark.parametrize(
    "text",
    [
        "Went home early. Children were asleep.",
        "i went there and bought milk for the children",
        "Men ran. Feet hurt. Bought bread.",
        "我叫王小明，住在北京。",
        "اسمي أحمد وأعيش في القاهرة.",
    ],
)
def test_english_irregular_forms_and_caseless_scripts_are_kept(text: str) -> None:
    found = _masked(text, SweepSettings(rules=("unknown-word", "lowercase-name")))
    assert found == [], found


def test_cyrillic_sentence_start_is_not_an_unknown_english_word() -> None:
    text = "Привет, как дела? Хорошо."
    assert _masked(text, SweepSettings(rules=("unknown-word",))) == []


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Blue Harbour Labs signed it.", "[NAME_1] signed it."),
        ("Ask Maria de la Cruz.", "Ask [NAME_1]."),
        ("We moved to the United Kingdom.", "We moved to the [NAME_1]."),
        ("Zorblat Quendra called. Later Zorblat said hi.", "[NAME_1] called. Later [NAME_1] said hi."),
    ],
)
def test_rules_together_give_one_placeholder_per_run(text: str, expected: str) -> None:
    assert apply_level(text, [], 3)[0] == expected


@pytest.mark.parametrize("ex", [x for x in EXAMPLES if x.mask], ids=[f"{x.rule}-{x.value}" for x in EXAMPLES if x.mask])
def test_mask_examples_hold_with_every_rule(ex: object) -> None:
    """All rules together (DEFAULT_SWEEP) mask each mask example's value too, covered by masked spans."""
    from pp_graph.anonymize.sweep import Example

    assert isinstance(ex, Example)
    at = ex.text.index(ex.value)
    cover = bytearray(len(ex.text))
    for e in sweep(ex.text, [], DEFAULT_SWEEP):
        cover[e.start : e.end] = b"\x01" * (e.end - e.start)
    assert all(cover[at : at + len(ex.value)]), (ex.text, _masked(ex.text, DEFAULT_SWEEP))


def test_a_sentence_start_before_a_detected_name_stays() -> None:
    text = "Mail Jane Roe today."
    ents = [Entity("PERSON", 5, 13, "t")]
    assert _masked(text, SweepSettings(rules=("capitalised-run",)), ents) == []


def test_other_mentions_of_a_swept_name_are_masked() -> None:
    text = "Zorblat called. We thank Zorblat now."
    found = sweep(text, [], SweepSettings(rules=("unknown-word",)))
    assert [(e.start, e.recognizer.rsplit(":", 1)[1]) for e in found] == [
        (0, "sentence start, not an English word"),
        (25, "another mention"),
    ]


def test_the_keep_list_is_validated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pp_graph.anonymize import sweep as sweep_mod
    from pp_graph.errors import DataFileError

    assert sweep_mod.keep_terms().fullmatch("privacy policy")
    for body, problem in (("IPv6\nipv6\n", "repeats line 1"), ("a<b\n", "is not a term"), ("IPv6\n", "fewer than")):
        bad = tmp_path / "sweep-keep.txt"
        bad.write_text(body, encoding="utf-8")
        monkeypatch.setattr(sweep_mod, "KEEP_FILE", bad)
        sweep_mod.keep_terms.cache_clear()
        with pytest.raises(DataFileError, match=problem):
            sweep_mod.keep_terms()
    monkeypatch.undo()
    sweep_mod.keep_terms.cache_clear()


def test_the_particle_list_is_validated_and_in_the_digest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pp_graph.anonymize import gazetteer
    from pp_graph.anonymize import sweep as sweep_mod

    assert {"de", "la", "van"} <= sweep_mod.particles()
    assert {sweep_mod.KEEP_FILE, sweep_mod.PARTICLES_FILE} <= set(sweep_mod.DATA_FILES)
    bad = tmp_path / "name-particles.txt"
    bad.write_text("de\nLa Cruz\n", encoding="utf-8")
    monkeypatch.setattr(sweep_mod, "PARTICLES_FILE", bad)
    sweep_mod.particles.cache_clear()
    with pytest.raises(gazetteer.GazetteerUnavailable, match="not one lower-case word"):
        sweep_mod.particles()
    monkeypatch.undo()
    sweep_mod.particles.cache_clear()


def test_role_labels_of_a_dialogue_are_not_speaker_names() -> None:
    text = 'Customer: "My card is blocked."\nAgent: "Let me check."\nZuzana: "Thanks."'
    assert _masked(text, DEFAULT_SWEEP) == ["Zuzana"]


def test_a_free_piece_is_trimmed_of_punctuation() -> None:
    text = "Order 4411-2210 arrived."
    ents = [Entity("ZIP_CODE", 6, 10, "t")]
    assert _masked(text, SweepSettings(rules=("number",)), ents) == ["2210"]
