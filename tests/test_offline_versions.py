"""Versions that change when behaviour changes, and caches keyed by everything that decides the answer."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pp_graph.batch import convert_batch, settings_digest
from pp_graph.extract.offline import backend as offline_backend
from pp_graph.extract.offline.backend import OfflineBackend
from pp_graph.extract.offline.version import RULESET_NAME
from pp_graph.extract.pipeline import extract
from pp_graph.load.sources import policy_from_text
from pp_graph.model import PartyKind

ACME = "# Privacy\n\nAcme collects your email address when you sign up.\n"


def _first_parties(backend: OfflineBackend, site: str) -> list[str]:
    ex = extract(policy_from_text(ACME, site), backend)
    return [p.span.text for r in ex.results for p in r.parties if p.kind == PartyKind.FIRST_PARTY]


def test_segment_cache_is_keyed_by_site_and_text() -> None:
    shared = OfflineBackend()
    assert _first_parties(shared, "acme.com") == ["Acme"]
    # The same text for another site: Acme is not globex.com's own name.
    assert _first_parties(shared, "globex.com") == _first_parties(OfflineBackend(), "globex.com") == []


def test_settings_digest_follows_the_ruleset_version(monkeypatch: pytest.MonkeyPatch) -> None:
    before = settings_digest("offline", {}, "trig")
    monkeypatch.setattr(offline_backend, "RULESET_VERSION", offline_backend.RULESET_VERSION + "-changed")
    assert settings_digest("offline", {}, "trig") != before


def test_resume_reconverts_after_a_rule_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "acme.com.md").write_text(ACME, encoding="utf-8")
    out = tmp_path / "out"
    assert [f.status for f in convert_batch([src], out).files] == ["converted"]
    assert [f.status for f in convert_batch([src], out).files] == ["unchanged"]
    monkeypatch.setattr(offline_backend, "RULESET_VERSION", offline_backend.RULESET_VERSION + "-changed")
    assert [f.status for f in convert_batch([src], out).files] == ["converted"]


def test_ruleset_digest_covers_rule_code_and_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pp_graph.extract.offline import version

    names = {p.name for p in version.rule_files()}
    assert {"backend.py", "retention.py", "paragraph.py", "gate.py", "offline.toml"} <= names  # (patterns/ too)
    code = tmp_path / "code"
    shutil.copytree(version.CODE_DIR, code)
    monkeypatch.setattr(version, "CODE_DIR", code)
    monkeypatch.setattr(version, "RULE_DATA", ())
    before = version.digest_files(version.rule_files())
    with (code / "patterns" / "retention.py").open("a", encoding="utf-8") as fh:
        fh.write("\n# a rule change\n")
    assert version.digest_files(version.rule_files()) != before


def test_provenance_names_ruleset_dpv_and_package() -> None:
    from pp_graph import __version__
    from pp_graph.api import convert_text
    from pp_graph.extract.offline.version import dpv_digest, ruleset_digest
    from pp_graph.graph.namespaces import PPG

    conv = convert_text(ACME, "acme.com")
    g = conv.dataset.graph(conv.graph)
    from pp_graph.comply.rules import rules

    # The offline extraction, and the transparency stage's rules beside it (an activity of their own).
    assert {str(o) for o in g.objects(None, PPG.model)} == {f"{RULESET_NAME}+{ruleset_digest()}", rules().version}
    assert {str(o) for o in g.objects(None, PPG.vocabularyVersion)} == {dpv_digest()}
    assert {str(o) for o in g.objects(None, PPG.softwareVersion)} == {__version__}


SALE = "We also sell your email address to data brokers."


def _sales(text: str, line: str = SALE) -> list[tuple[str, bool]]:
    ex = extract(policy_from_text(text, "github.com"), OfflineBackend())
    return [(p.type.value, p.negated) for r in ex.results if line in r.segment.text for p in r.practices]


@pytest.mark.parametrize(
    "heading",
    ["## Nevada\n\nWe do not sell your covered information.", "## We do not sell", "## California residents"],
)
def test_a_stated_sale_is_never_hidden_by_its_heading(heading: str) -> None:
    assert _sales(f"{SALE}\n") == [("third-party-sharing-disclosure", False)]  # alone
    assert _sales(f"# Privacy\n\n{heading}\n\n{SALE}\n") == [("third-party-sharing-disclosure", False)]


def test_a_sale_under_githubs_nevada_heading_is_kept(corpus: Path) -> None:
    lines = (corpus / "github.com.md").read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("We do not sell your covered information"))
    text = "\n".join([*lines[: at + 1], "", SALE, *lines[at + 1 :]])
    assert _sales(text) == [("third-party-sharing-disclosure", False)]
    # a denied sale there stays what it was: not a practice of the site
    denied = "We do not sell your email address to data brokers."
    assert _sales(f"# Privacy\n\n## Nevada\n\n{denied}\n", denied) == []
    assert _sales(f"{denied}\n", denied) == [("third-party-sharing-disclosure", True)]  # (alone: a denied sale)
