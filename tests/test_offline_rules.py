"""The declared rules (data/rules/offline.toml): valid, in step with their code, and their examples hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pp_graph.errors import DataFileError
from pp_graph.extract.offline import backend, paragraph, trigger
from pp_graph.extract.offline.backend import OfflineBackend
from pp_graph.extract.offline.explain import explain, traced_extract
from pp_graph.extract.offline.rules import ENGINE_KINDS, RULES_FILE, declared, load_rules, ordered
from pp_graph.load.sources import policy_from_text

_BACKEND = OfflineBackend()


def _fired(text: str) -> set[str]:
    _, trace = traced_extract(policy_from_text(text + "\n", "example.com"), _BACKEND)
    # (heading and paragraph rules act on the whole text; sentence and trigger rules on its one line)
    return {e.rule for e in trace.events}


def test_every_rule_has_code_and_a_positive_example() -> None:
    rules = declared()
    assert all(r.match for r in rules)
    names = [rid for rid, _ in ordered("trigger", trigger.TRIGGER_RULES)]
    assert names == [r.id for r in rules if r.scope == "trigger"]  # run in the declared order
    names = [rid for rid, _ in ordered("sentence", trigger.SENTENCE_RULES)]
    assert names == [r.id for r in rules if r.scope == "sentence" and r.predicate and r.kind in ENGINE_KINDS]
    for scope, registry in (("heading", backend.HEADING_RULES), ("paragraph", paragraph.PARAGRAPH_RULES)):
        names = [rid for rid, _ in ordered(scope, registry)]
        assert names == [r.id for r in rules if r.scope == scope and r.kind in ENGINE_KINDS]
    modules = (*trigger.RULE_MODULES, backend, paragraph)  # (the sentence and trigger rules by kind)
    for r in rules:
        if r.kind == "cue" and not r.predicate:
            assert r.cue and r.category, r.id  # scored by the gate (gate.cues)
            continue
        assert any(
            hasattr(m, r.predicate) or hasattr(getattr(m, "OfflineBackend", None), r.predicate) for m in modules
        ), r.id


@pytest.mark.parametrize(
    ("rule", "text", "fires"),
    [(r.id, t, True) for r in declared() for t in r.match] + [(r.id, t, False) for r in declared() for t in r.no_match],
)
def test_rule_examples(rule: str, text: str, fires: bool) -> None:
    assert (rule in _fired(text)) is fires


def test_rules_file_is_validated(tmp_path: Path) -> None:
    bad = tmp_path / "rules.toml"
    bad.write_text('[[rule]]\nid = "x"\nkind = "veto"\nscope = "trigger"\ndoc = "d"\n', encoding="utf-8")
    with pytest.raises(DataFileError, match="at least one example"):
        load_rules(bad)
    bad.write_text(
        '[[rule]]\nid = "x"\nkind = "guess"\nscope = "trigger"\ndoc = "d"\nmatch = ["a"]\n', encoding="utf-8"
    )
    with pytest.raises(DataFileError, match="kind must be one of"):
        load_rules(bad)


def test_practices_carry_the_rules_that_made_and_changed_them() -> None:
    ex, _ = traced_extract(policy_from_text("Google collects your IP address.\n", "example.com"), _BACKEND)
    [p] = [p for r in ex.results for p in r.practices]
    assert p.rules == ("promotion.third-party-subject", "candidate.trigger")


def test_explain_names_the_veto_and_the_gate() -> None:
    text = "# Privacy\n\nThis section explains how we collect your email address.\n\nWe collect your email address.\n"
    ex = explain(policy_from_text(text, "example.com"), line=3)
    assert "veto.reference" in {e.rule for e in ex.events if e.action == "vetoed"}
    assert ex.practices == []
    kept = explain(policy_from_text(text, "example.com"), line=5)
    assert kept.practices == [("first-party-collection-use", False, "collect", ("candidate.trigger",))]


def test_cli_explain_prints_rules_and_refuses_a_line_outside(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pp_graph.cli import main

    f = tmp_path / "example.com.md"
    f.write_text("# Privacy\n\nThis section explains how we collect your email address.\n", encoding="utf-8")
    out = CliRunner().invoke(main, ["explain", str(f), "--line", "3"])
    assert out.exit_code == 0, out.output
    assert "veto.reference" in out.output and "kept: no practice" in out.output
    bad = CliRunner().invoke(main, ["explain", str(f), "--line", "40"])
    assert bad.exit_code == 2 and "line 40 is outside the policy" in bad.output
    both = CliRunner().invoke(main, ["explain", str(f), "--line", "3", "--offset", "4"])
    assert both.exit_code == 2 and "exactly one of --line or --offset" in both.output


OPP115 = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "opp115"


@pytest.mark.skipif(not (OPP115 / "annotations").is_dir(), reason="OPP-115 not available")
def test_by_rule_scores_add_up_on_a_few_policies(tmp_path: Path) -> None:
    from pp_graph.evaluate import opp115
    from pp_graph.evaluate.by_rule import evaluate_by_rule

    split = opp115.load_split()
    small = tmp_path / "split.tsv"
    small.write_text("".join(f"{p}\tx\ttrain\n" for p in [p for p in sorted(split) if split[p] == "train"][:2]))
    scores = {s.rule: s for s in evaluate_by_rule(OPP115, "train", small)}
    assert set(scores) >= {r.id for r in declared()}
    assert [s.rule for s in scores.values() if s.kind == "?"] == []  # every id that fired is a declared rule
    assert scores["data.veto.in-url"].kind == "mention-veto"  # the mention rules too, with their kind
    trig = scores["candidate.trigger"]
    assert trig.fired > 0 and trig.tp > trig.fp > 0  # (its practices, copied to list items too, are judged)
    vetoes = [s for s in scores.values() if s.kind == "veto" and s.fired]
    assert vetoes and all(s.tp + s.fp <= s.fired for s in vetoes)  # a veto is judged once per practice it stopped
    fps = [s.fp for s in scores.values()]
    assert fps == sorted(fps, reverse=True)
    # the statement types are scored too, against OPP-115's User Choice/Control … categories
    choice = scores["statement.user-choice"]
    assert choice.kind == "statement" and choice.fired > 0 and choice.tp > 0 and choice.tp + choice.fp <= choice.fired


@pytest.mark.skipif(not (OPP115 / "annotations").is_dir(), reason="OPP-115 not available")
def test_by_rule_scores_the_dev_and_fit_subsets_of_train(tmp_path: Path) -> None:
    """`evaluate opp115 --by-rule` offers dev and fit: they split train's policies, so their counts add up to it."""
    from pp_graph.evaluate import opp115
    from pp_graph.evaluate.by_rule import evaluate_by_rule

    split = opp115.load_split()
    three = [p for p in sorted(split) if split[p] == "train"][:3]
    small = tmp_path / "split.tsv"
    small.write_text("".join(f"{p}\tx\ttrain\n" for p in three))
    dev = tmp_path / "dev.tsv"
    dev.write_text(f"{three[0]}\tx\n")

    def fired(name: str) -> dict[str, tuple[int, int, int]]:
        return {s.rule: (s.fired, s.tp, s.fp) for s in evaluate_by_rule(OPP115, name, small, dev_file=dev)}

    train, on_dev, on_fit = fired("train"), fired("dev"), fired("fit")
    assert sum(f for f, _, _ in on_dev.values()) > 0 and sum(f for f, _, _ in on_fit.values()) > 0
    assert on_dev != on_fit
    for rule, counts in train.items():
        assert counts == tuple(a + b for a, b in zip(on_dev[rule], on_fit[rule], strict=True)), rule


_OFFLINE = Path(__file__).resolve().parents[1] / "pp_graph" / "extract" / "offline"


def _module(f: Path) -> str:
    """A module's dotted name under the offline package ("backend", "patterns.retention", "patterns")."""
    return ".".join(f.relative_to(_OFFLINE).with_suffix("").parts).removesuffix(".__init__")


def _functions() -> list[tuple[str, int]]:
    import ast

    out = []
    for f in sorted(_OFFLINE.rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                out.append((f"{_module(f)}.{node.name}", (node.end_lineno or node.lineno) - node.lineno + 1))
    return out


def test_no_function_over_80_lines_in_the_offline_extractor() -> None:
    assert [(name, n) for name, n in _functions() if n > 80] == []


def test_no_import_cycle_in_the_offline_extractor() -> None:
    import ast

    graph: dict[str, set[str]] = {}
    prefix = "pp_graph.extract.offline."
    for f in _OFFLINE.rglob("*.py"):
        deps = graph.setdefault(_module(f), set())
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):  # (imports under TYPE_CHECKING count too)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(prefix):
                deps.add(node.module.removeprefix(prefix))  # type: ignore[union-attr]
    seen: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> None:
        seen[m] = 1
        for d in sorted(graph.get(m, ())):
            assert seen.get(d) != 1, f"import cycle: {' -> '.join([*path, d])}"
            if d not in seen:
                visit(d, [*path, d])
        seen[m] = 2

    for m in sorted(graph):
        if m not in seen:
            visit(m, [m])
    assert graph["paragraph"] and "backend" not in graph["paragraph"] | graph["trigger"] | graph["facts"]


def test_report_json_lists_each_practices_rules() -> None:
    from pp_graph.api import convert_text

    rep = convert_text("# Privacy\n\nGoogle collects your IP address.\n", "example.com").report.to_dict()
    [entry] = rep["practice_rules"]
    assert entry["type"] == "third-party-collection-use"
    assert entry["rules"] == ["promotion.third-party-subject", "candidate.trigger"]


_TEXT = "# Privacy\n\n## Information we collect\n\nWe collect your email address and share it with advertisers.\n"


def test_mentions_carry_the_rules_that_made_and_linked_them() -> None:
    from pp_graph.api import convert_policy

    conv = convert_policy(policy_from_text(_TEXT, "example.com"), _BACKEND)
    rows = {(m["kind"], m["concept"]): m["rules"] for m in conv.report.mention_rules}
    assert rows[("data", "pd:EmailAddress")] == ["mention.data", "link.sentence"]
    assert rows[("party", "third_party")] == ["mention.party", "link.sentence"]
    assert rows[("party", "first_party")] == ["mention.party"]  # "We": made, tied to no practice
    assert all("text" not in m for m in conv.report.mention_rules)  # offsets and classes only, never the words
    generic = convert_policy(policy_from_text("We collect information.\n", "example.com"), _BACKEND)
    assert [m["rules"] for m in generic.report.mention_rules if m["kind"] == "data"] == [
        ["mention.data.generic", "link.sentence"]
    ]


def test_rule_ids_in_the_graph_only_when_asked_and_valid_shacl() -> None:
    from rdflib import Literal

    from pp_graph.api import convert_policy
    from pp_graph.graph.namespaces import PPG
    from pp_graph.validate.shacl import validate

    plain = convert_policy(policy_from_text(_TEXT, "example.com"), _BACKEND)
    assert plain.dataset.graph(plain.graph) and not any(
        plain.dataset.graph(plain.graph).triples((None, PPG.rule, None))
    )
    traced = convert_policy(policy_from_text(_TEXT, "example.com"), OfflineBackend(rule_ids=True))
    traced_graph = traced.dataset.graph(traced.graph)
    rules = {str(o) for o in traced_graph.objects(None, PPG.rule)}
    assert {"candidate.trigger", "mention.data", "link.sentence"} <= rules
    assert validate(traced.dataset).conforms
    bad = traced.dataset
    node = next(traced_graph.subjects(PPG.rule, None))
    bad.graph(traced.graph).add((node, PPG.rule, Literal("Not A Rule!")))
    report = validate(bad)
    assert not report.conforms


def test_rule_ids_option_is_part_of_the_settings_digest(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pp_graph.batch import settings_digest
    from pp_graph.cli import main

    assert settings_digest("offline", {}, "trig") != settings_digest("offline", {"rule_ids": True}, "trig")
    src = tmp_path / "example.com.md"
    src.write_text(_TEXT, encoding="utf-8")
    out = tmp_path / "out"
    first = CliRunner().invoke(main, ["convert", str(src), "-o", str(out), "--json", "--no-progress"])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(main, ["convert", str(src), "-o", str(out), "--rule-ids", "--json", "--no-progress"])
    assert again.exit_code == 0, again.output
    # converted again, not "unchanged": the option changes the graph
    assert (json.loads(again.output)["converted"], json.loads(again.output)["unchanged"]) == (1, 0)
    assert "ppg:rule" in next(out.glob("*.trig")).read_text(encoding="utf-8")
    llm = CliRunner().invoke(main, ["convert", str(src), "-o", str(out), "--rule-ids", "--backend", "llm"])
    assert llm.exit_code == 2 and "--rule-ids" in llm.output


def test_cue_rules_score_under_their_own_ids() -> None:
    ex = explain(policy_from_text("We collect your email address under the TRUSTe seal.\n", "example.com"), line=1)
    scored = {e.rule: e.why for e in ex.events if e.action == "scored"}
    assert scored == {"cue.base": "+1", "cue.privacy-seal": "-1"}
    [dropped] = [e for e in ex.events if e.action == "dropped"]
    assert dropped.rule == "gate.cues" and "cue.privacy-seal -1" in dropped.why and ex.practices == []


def test_data_in_a_sentence_without_a_practice_is_tied_to_the_nearest_practice_of_its_line() -> None:
    from pp_graph.api import convert_policy
    from pp_graph.model import Role

    text = "Your postal address matters. We collect information from you. This includes your phone number.\n"
    conv = convert_policy(policy_from_text(text, "example.com"), _BACKEND)
    [res] = [r for r in conv.extraction.results if r.practices]
    assert len(res.practices) == 1
    tied = {res.data[int(r.entity[5:])].span.text for r in res.relations if r.role == Role.DATA_COLLECTED}
    assert tied == {"postal address", "information", "phone number"}  # before it (no practice before) and after
    rules = {res.data[i].span.text: res.data[i].rules for i in range(len(res.data))}
    assert rules["phone number"] == ("mention.data", "link.nearby-sentence")
    assert rules["information"] == ("mention.data.generic", "link.sentence")
    # a party in another sentence is not taken as the practice's recipient or provider
    shared = convert_policy(policy_from_text("We share your email address. Advertisers are great.\n", "example.com"))
    [res] = [r for r in shared.extraction.results if r.practices]
    assert not any(r.role == Role.DATA_RECEIVER and r.entity != "party:first" for r in res.relations)


def test_a_mention_rule_that_settles_the_concept_joins_the_mention_rule_ids() -> None:
    from pp_graph.api import convert_policy

    text = "# Privacy\n\nWe collect your language settings and cookie preferences.\n"
    conv = convert_policy(policy_from_text(text, "example.com"), _BACKEND)
    rows = {(m["kind"], m["concept"]): m["rules"] for m in conv.report.mention_rules}
    assert rows[("data", "pd:PrivacyPreference")] == [
        "mention.data",
        "data.concept.cookie-preferences",
        "link.sentence",
    ]


def test_rule_ids_option_accepts_true_false_words_and_refuses_others(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pp_graph.cli import main
    from pp_graph.errors import ConfigError

    for word, want in [(True, True), (False, False), ("on", True), ("YES", True), ("0", False), ("off", False)]:
        assert OfflineBackend(rule_ids=word).rule_ids is want, word
    with pytest.raises(ConfigError, match=r"rule_ids='ture'"):
        OfflineBackend(rule_ids="ture")
    src = tmp_path / "example.com.md"
    src.write_text(_TEXT, encoding="utf-8")
    args = ["convert", str(src), "-o", str(tmp_path / "out"), "--no-progress", "--option", "rule_ids=ture"]
    bad = CliRunner().invoke(main, args)
    assert bad.exit_code == 2 and "rule_ids" in bad.output and "'ture'" in bad.output, bad.output
    assert "Traceback" not in bad.output and not isinstance(bad.exception, ConfigError)


def test_a_rule_id_registered_twice_is_a_data_file_error() -> None:
    from pp_graph.extract.offline.rules import register

    registry: dict[str, object] = {}
    register(registry, "cue.x")(len)
    with pytest.raises(DataFileError, match=r"cue\.x: two functions registered"):
        register(registry, "cue.x")(str)


def test_paragraph_cues_drop_a_practice_only_through_the_gate() -> None:
    text = "# Privacy\n\n## Data retention\nWe keep your email address and we share it with advertisers.\n"
    ex = explain(policy_from_text(text, "example.com"), line=4)
    share = "third-party-sharing-disclosure"
    assert [(e.rule, e.why) for e in ex.events if e.action == "scored" and e.practice == share][-1] == (
        "paragraph.passing-mention",
        "-1",
    )
    [dropped] = [e for e in ex.events if e.action == "dropped" and e.practice == share]
    assert dropped.rule == "gate.cues"  # the gate decides, naming the paragraph cue and the title
    assert "paragraph.passing-mention -1" in dropped.why and "title: ## Data retention" in dropped.why
    assert share not in {p[0] for p in ex.practices}
    # the other party's collection under a title about the site's: read as the site's, the other's scored down
    text = "# Privacy\n\n## Information we collect\nOur hosting partners collect your email address.\n"
    ex = explain(policy_from_text(text, "example.com"), line=4)
    assert [p[0] for p in ex.practices] == ["first-party-collection-use"]
    assert ex.practices[0][3][-1] == "paragraph.title-party"
    [dropped] = [e for e in ex.events if e.action == "dropped"]
    assert dropped.rule == "gate.cues" and "paragraph.replaced-party -1" in dropped.why


def test_a_feature_found_by_a_predicate_needs_the_predicate(tmp_path: Path) -> None:
    bad = tmp_path / "rules.toml"
    rule = '[[rule]]\nid = "x"\nkind = "cue"\nscope = "paragraph"\ndoc = "d"\nmatch = ["a"]\n'
    bad.write_text(rule + 'category = "all"\nweight = -1.0\ncue = "@passing_mention"\n', encoding="utf-8")
    with pytest.raises(DataFileError, match="cues of a rule with a predicate"):
        load_rules(bad)
    bad.write_text(rule + 'predicate = "f"\ncategory = "all"\nweight = -1.0\ncue = "@third_party"\n', encoding="utf-8")
    with pytest.raises(DataFileError, match="cues of a rule with a predicate"):
        load_rules(bad)


def test_a_paragraph_cue_must_outweigh_every_positive_cue(tmp_path: Path) -> None:
    # the paragraph cues (and veto.inherit.out-of-scope) drop a practice only while their weight outweighs the
    # base and every positive cue that can score the same category: a positive cue added is refused at load time
    declared()  # the real rules pass the check
    extra = (
        '\n[[rule]]\nid = "cue.x"\nkind = "cue"\nscope = "sentence"\ncategory = "security"\nweight = 0.5\n'
        'cue = "encrypt"\ndoc = "d"\nmatch = ["a"]\n'
    )
    bad = tmp_path / "rules.toml"
    bad.write_text(RULES_FILE.read_text(encoding="utf-8") + extra, encoding="utf-8")
    with pytest.raises(
        DataFileError, match=r"rule (?:veto\.inherit\.out-of-scope|paragraph\.[\w-]+) .*security.*cue\.x"
    ):
        load_rules(bad)
    # every base rule of a category (and those of category "all") is summed by the gate: a second base rule of
    # +0.5 keeps a security practice under a -1 paragraph cue, so it is refused (the check once took the largest)
    extra_base = (
        '\n[[rule]]\nid = "cue.base-security"\nkind = "cue"\nscope = "sentence"\ncategory = "security"\n'
        'weight = 0.5\ncue = "@base"\ndoc = "d"\nmatch = ["a"]\n'
    )
    bad.write_text(RULES_FILE.read_text(encoding="utf-8") + extra_base, encoding="utf-8")
    with pytest.raises(DataFileError, match=r"cannot drop a security practice.*lower its weight to <= -"):
        load_rules(bad)


def test_an_out_of_scope_line_inherits_nothing_by_the_gate() -> None:
    text = "# Privacy\n\n## Information we collect\n\nInformation from children under 13, such as an email address.\n"
    ex = explain(policy_from_text(text, "example.com"), line=5)
    # no collection inherited from the heading; the line is an audience statement (data/rules/statements.toml)
    assert [(t, rules) for t, _, _, rules in ex.practices] == [("specific-audience", ("statement.specific-audience",))]
    [dropped] = [e for e in ex.events if e.action == "dropped"]
    assert dropped.rule == "gate.cues" and "veto.inherit.out-of-scope -1" in dropped.why
