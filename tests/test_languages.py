"""Language detection: the module, the graph triple, the offline backend's warning, the convert summary."""

from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from pp_graph.api import convert
from pp_graph.cli import main
from pp_graph.errors import DataFileError
from pp_graph.extract.languages import language_warning
from pp_graph.load import language as language_module
from pp_graph.load.language import MIN_CONFIDENCE, MIN_LETTERS, SAMPLES, WINDOW, detect, language_name, sample
from pp_graph.model import Language
from pp_graph.query.corpus import Corpus
from pp_graph.report.html import build_report
from pp_graph.serve.app import create_app
from pp_graph.validate import validate

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GERMAN = FIXTURES / "languages" / "beispiel.example.md"
FRENCH = FIXTURES / "languages" / "exemple.example.md"
ENGLISH = FIXTURES / "policies" / "tinyshop.example.md"
DETECTED = URIRef("urn:pp-graph:ontology#detectedLanguage")

ENGLISH_PARAGRAPH = (
    "We collect your email address when you create an account. We use it to send you receipts and to answer "
    "your questions. We share it with the payment provider that processes your orders, and with nobody else. "
    "You can ask us to delete your account at any time; we then erase your data within thirty days."
)
GERMAN_PARAGRAPH = (
    "Wir erheben Ihre E-Mail-Adresse, wenn Sie ein Konto anlegen. Wir nutzen sie, um Ihnen Belege zu senden und "
    "Ihre Fragen zu beantworten. Wir geben sie an den Zahlungsdienstleister weiter, der Ihre Bestellungen "
    "abwickelt, und an niemanden sonst. Sie können jederzeit die Löschung Ihres Kontos verlangen."
)


def test_detects_english_german_and_french() -> None:
    for path, code in ((GERMAN, "de"), (FRENCH, "fr")):
        lang = detect(path.read_text(encoding="utf-8"))
        assert lang is not None and lang.code == code and lang.confident and lang.confidence >= MIN_CONFIDENCE
    en = detect(ENGLISH_PARAGRAPH * 2)
    assert en is not None and en.code == "en" and en.confident
    assert language_name("de") == "German" and language_name("fr") == "French" and language_name("qqq") == "qqq"


def test_short_text_is_named_but_not_confident() -> None:
    short = detect("Wir erheben Ihre E-Mail-Adresse.")
    assert short is not None and short.code == "de" and not short.confident
    assert sum(c.isalpha() for c in "Wir erheben Ihre E-Mail-Adresse.") < MIN_LETTERS
    assert detect("1234 -- 5678 ** https://example.org/a") is None  # nothing to read


def test_addresses_and_whitespace_are_not_read() -> None:
    text = "Wir  erheben\n\nDaten. https://example.org/privacy-policy-english-words datenschutz@example.org Ende"
    assert sample(text) == "Wir erheben Daten. Ende"


def test_long_text_is_read_in_spread_windows_deterministically() -> None:
    # English for the first 60%, German after: the windows reach the German part, whole words only.
    text = " ".join([ENGLISH_PARAGRAPH] * 60 + [GERMAN_PARAGRAPH] * 40)
    read = sample(text)
    assert len(read) <= SAMPLES * (WINDOW + 1) < len(text)
    assert "Wir erheben" in read and "We collect" in read
    assert all(w in text.split() for w in read.split())  # no window starts or ends inside a word
    assert sample(text) == read and detect(text) == detect(text)


def test_same_input_same_output() -> None:
    text = GERMAN.read_text(encoding="utf-8")
    assert len({detect(text) for _ in range(5)}) == 1


def test_detection_opens_no_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model is the one inside the package: detecting (loading it first) never touches the network."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("language detection tried to open a network connection")

    language_module._detector.cache_clear()
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    lang = detect(GERMAN_PARAGRAPH)
    assert lang is not None and lang.code == "de"


def test_names_table_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(language_module.names()) > 150
    bad = tmp_path / "languages.tsv"
    bad.write_text("# comment\nde\tGerman\nDeutsch\tGerman\n", encoding="utf-8")
    monkeypatch.setattr(language_module, "NAMES_FILE", bad)
    language_module.names.cache_clear()
    try:
        with pytest.raises(DataFileError, match=r"languages.tsv:3: expected 'code<TAB>name'"):
            language_module.names()
    finally:
        language_module.names.cache_clear()


def test_warning_only_for_a_sure_language_the_backend_cannot_read() -> None:
    en = frozenset({"en"})
    de = Language("de", 0.97, True)
    text = language_warning(de, "offline", en, 0)
    assert text == (
        "the offline backend reads English; this text looks German (de, 0.97): no practices extracted by the "
        "offline backend — use --backend llm"
    )
    assert "only 2 practices extracted" in language_warning(de, "offline", en, 2)
    assert language_warning(Language("de", 0.6, False), "offline", en, 0) == ""  # unsure: no cry of wolf
    assert language_warning(Language("en", 0.99, True), "offline", en, 0) == ""
    assert language_warning(de, "llm", None, 0) == ""  # reads any language
    assert language_warning(None, "offline", en, 0) == ""


@pytest.mark.parametrize(("path", "code", "name"), [(GERMAN, "de", "German"), (FRENCH, "fr", "French")])
def test_offline_conversion_names_the_language(path: Path, code: str, name: str) -> None:
    conv = convert(path)
    assert conv.report.language == {
        "code": code,
        "name": name,
        "confidence": pytest.approx(0.99, abs=0.02),
        "sure": True,
    }
    assert conv.report.practices == {}
    assert len(conv.report.warnings) == 1
    assert f"reads English; this text looks {name} ({code}, " in conv.report.warnings[0]
    assert "no practices extracted by the offline backend — use --backend llm" in conv.report.warnings[0]
    assert (conv.graph, DETECTED, Literal(code, datatype=XSD.language)) in conv.dataset.graph(conv.graph)
    assert validate(conv.dataset).conforms


def test_english_conversion_has_no_language_warning() -> None:
    conv = convert(ENGLISH)
    assert conv.report.language is not None and conv.report.language["code"] == "en"
    assert not any("looks" in w for w in conv.report.warnings)
    assert (conv.graph, DETECTED, Literal("en", datatype=XSD.language)) in conv.dataset.graph(conv.graph)


def test_shapes_refuse_a_bad_language_literal() -> None:
    conv = convert(GERMAN)
    ds = conv.dataset
    g = ds.graph(conv.graph)
    g.remove((conv.graph, DETECTED, None))
    g.add((conv.graph, DETECTED, Literal("German")))
    report = validate(ds)
    assert not report.conforms and "ppg:detectedLanguage" in report.text()


def test_convert_cli_warns_on_stderr_and_reports_the_language(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(GERMAN, src)
    shutil.copy(ENGLISH, src)
    res = CliRunner().invoke(main, ["convert", str(src), "-o", str(tmp_path / "o"), "--json"])
    assert res.exit_code == 0, res.output
    assert "warning: beispiel.example.md: the offline backend reads English; this text looks German (de," in (
        res.stderr
    )
    assert "tinyshop.example.md: the offline backend" not in res.stderr
    files = {f["source"]: f["report"] for f in json.loads(res.stdout)["files"]}
    assert files["beispiel.example.md"]["language"]["code"] == "de"
    assert files["tinyshop.example.md"]["language"]["code"] == "en"
    saved = json.loads((tmp_path / "o" / "beispiel.example.report.json").read_text(encoding="utf-8"))
    assert saved["language"]["code"] == "de" and "looks German" in saved["warnings"][0]
    table = CliRunner().invoke(main, ["convert", str(src), "-o", str(tmp_path / "o2")])
    assert table.exit_code == 0 and "language" in table.stdout and "de 0.9" in table.stdout
    for lang in (files["beispiel.example.md"]["language"], files["tinyshop.example.md"]["language"]):
        cell = f"{lang['code']} {lang['confidence']:.2f}{'' if lang['sure'] else '?'}"
        assert cell in table.stdout  # an unsure verdict is marked
    assert not files["tinyshop.example.md"]["language"]["sure"]  # a short text: named, never acted on


@pytest.fixture(scope="module")
def language_corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    out = tmp_path_factory.mktemp("language-graphs")
    res = CliRunner().invoke(main, ["convert", str(GERMAN), str(FRENCH), str(ENGLISH), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return Corpus.open([out])


def test_corpus_reads_the_language_of_each_policy(language_corpus: Corpus) -> None:
    langs = {s.site: s.language for s in language_corpus.policies}
    assert langs == {"beispiel.example": "de", "exemple.example": "fr", "tinyshop.example": "en"}


def test_report_shows_the_language_per_site(language_corpus: Corpus) -> None:
    html = build_report(language_corpus)
    table = html[html.index('id="table-per-site"') :]
    table = table[: table.index("</table>")]
    assert "<th>language</th>" in table
    for site, code, name in (
        ("beispiel.example", "de", "German"),
        ("exemple.example", "fr", "French"),
        ("tinyshop.example", "en", "English"),
    ):
        assert f'<tr><td>{site}</td><td class="lang" title="{name}">{code}</td>' in table


def test_ui_shows_the_language(language_corpus: Corpus) -> None:
    client = create_app(language_corpus).test_client()
    page = client.get("/site/beispiel.example")
    assert page.status_code == 200
    assert '<span class="lang" id="policy-language">written in German (de)</span>' in page.get_data(as_text=True)
    cards = client.get("/").get_data(as_text=True)
    assert '<span class="lang" title="French">fr</span>' in cards


def test_the_detector_decides_the_settings_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Graphs carry the language: changing how it is detected converts again instead of keeping old outputs."""
    from pp_graph.batch import settings_digest

    before = settings_digest("offline", {}, "trig")
    monkeypatch.setattr(language_module, "VERSION", language_module.VERSION + "-changed")
    assert settings_digest("offline", {}, "trig") != before
