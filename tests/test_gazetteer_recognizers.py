"""The name, firm, place and nationality recognisers that check shapes against name lists (gazetteer.py), the
name-cue fixes and the hybrid mode's filter of spaCy organisations: each with matching and non-matching text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pp_graph.anonymize import gazetteer
from pp_graph.anonymize.recognizers import REGISTRY, Entity, kept_spacy, recognize


def spans(name: str, text: str) -> set[str]:
    return {text[s:e] for s, e in REGISTRY[name].find(text)}


def test_the_lists_load_from_the_shipped_files() -> None:
    assert gazetteer.is_first_name("Margaret") and gazetteer.is_first_name("JAMES")
    assert gazetteer.is_last_name("Okafor") and not gazetteer.is_last_name("Vehbija")
    assert gazetteer.is_last_name("Johnson") and not gazetteer.is_last_name("Microsoft")
    assert gazetteer.is_country("germany") and gazetteer.is_country("United Kingdom")
    assert gazetteer.is_country("Czech Republic") and not gazetteer.is_country("Paris")
    # English function words and calendar words are not names, though the Census lists them
    assert not gazetteer.is_first_name("My") and not gazetteer.is_first_name("May")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("It's under my partner's name, Shane M Culp", "Shane M Culp"),
        ("a speech by John F. Kennedy in 1961", "John F. Kennedy"),
    ],
)
def test_name_with_a_middle_initial(text: str, value: str) -> None:
    assert value in spans("name_initial", text)


@pytest.mark.parametrize("text", ["Plan B Capital", "Vitamin D Supplements", "World War I Memorial", "My A Team"])
def test_name_with_a_middle_initial_negative(text: str) -> None:
    assert spans("name_initial", text) == set()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I want to add James Talbot as a beneficiary", "James Talbot"),
        ("Bryan Maclean's killers were sentenced", "Bryan Maclean"),
        ("Mary Smith-Jones called", "Mary Smith-Jones"),
    ],
)
def test_listed_first_name_then_a_surname(text: str, value: str) -> None:
    assert spans("name_listed", text) == {value}


@pytest.mark.parametrize(
    "text", ["Georgia Avenue is closed", "We met in May Day Parade", "Will You Marry Me", "Virginia Street 5"]
)
def test_listed_first_name_negative(text: str) -> None:
    assert spans("name_listed", text) == set()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Tomomi is from Hawkins, Richardson and Santana", "Hawkins, Richardson and Santana"),
        ("invoice from owens, duran and oneal\n", "owens, duran and oneal"),
        ("Karin works at Fritz-Armstrong now", "Fritz-Armstrong"),
    ],
)
def test_firm_shapes(text: str, value: str) -> None:
    assert spans("org_firm", text) == {value}


@pytest.mark.parametrize(
    "text",
    [
        "They had 6: Mary, Ariana, Isabel and Jodi.",  # a longer enumeration of people
        "Mary Smith-Jones called",  # a double surname after a first name
        "Anne-Marie Dupont called",  # a hyphenated first name before a surname
        "Apples, pears and plums",
    ],
)
def test_firm_shapes_negative(text: str) -> None:
    assert spans("org_firm", text) == set()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Persint is a German multinational investment bank", "Persint"),
        ("We'll meet Thursday at Recargo, 73111 Seneca Place", "Recargo"),
        ("according to the Roadify Transit website, they", "Roadify Transit"),
        ("The address of Evidera is 928 Main Street", "Evidera"),
    ],
)
def test_organisation_named_by_what_is_said_of_it(text: str, value: str) -> None:
    assert spans("org_said", text) == {value}


@pytest.mark.parametrize(
    "text",
    [
        "It is a German company.",
        "We'll meet at noon, 5 of us",
        "according to the website",
        "This is a bank",
        "Our Company is a leading provider of tools.",
        "Everyone is a provider of data.",
    ],
)
def test_organisation_said_negative(text: str) -> None:
    assert spans("org_said", text) == set()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("I'm Naomi, originally from ESPOO, and", "ESPOO"),
        ("The Princess Royal arrived at Khandallah this morning", "Khandallah"),
        ("studying journalism at the University of Nicosia.", "Nicosia"),
    ],
)
def test_place_cues(text: str, value: str) -> None:
    assert spans("place_cue", text) == {value}


@pytest.mark.parametrize("text", ["it arrived at 5 Main Street", "she moved to tears", "born in 1970"])
def test_place_cues_negative(text: str) -> None:
    assert spans("place_cue", text) == set()


def test_countries_take_the_longest_listed_name() -> None:
    text = "Slovenia leader visits the United Kingdom and United Airlines"
    assert spans("country", text) == {"Slovenia", "United Kingdom"}
    assert spans("country", "Turkey sandwiches, georgia peaches") == {"Turkey"}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a 2005 French action-comedy film", "French"),
        ("We are proud saudis", "saudis"),
        ("Two New Zealanders came", "New Zealanders"),
        ("The Japanese Border Force", "Japanese"),
        ("a Catholic school", "Catholic"),
    ],
)
def test_nationalities_and_groups(text: str, value: str) -> None:
    assert spans("nationality", text) == {value}


@pytest.mark.parametrize(
    "text", ["studying English and journalism", "she speaks Spanish", "polish the car", "a catholic taste in music"]
)
def test_nationalities_negative(text: str) -> None:
    assert spans("nationality", text) == set()


def test_a_malformed_nationality_list_is_an_error_naming_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "n.txt"
    bad.write_text("# section: demonyms\nFrench\nnot capitalised\n", encoding="utf-8")
    monkeypatch.setattr(gazetteer, "NATIONALITIES_FILE", bad)
    gazetteer.nationalities.cache_clear()
    try:
        with pytest.raises(gazetteer.GazetteerUnavailable, match=r"n.txt:3: 'not capitalised'"):
            gazetteer.nationalities()
    finally:
        gazetteer.nationalities.cache_clear()


def test_name_cue_stays_on_its_line_and_takes_an_undotted_initial() -> None:
    text = "Name: Toshimi Arata\nPhone: 0490 75 40 81"
    assert spans("name_cue", text) == {"Toshimi Arata"}
    assert spans("name_cue", "My name is Ruth R Montez.") == {"Ruth R Montez"}
    assert spans("name_cue", "What's your last name? Boyle") == {"Boyle"}
    assert spans("name_cue", "She named him Luís") == {"Luís"}
    assert spans("name_cue", "my name is not important") == set()


def test_street_suffix_inside_a_common_word_is_not_a_street() -> None:
    assert spans("street", "Need to see last 10 transactions") == set()
    assert spans("street", "He lives at Kirkeway 3 now") == {"Kirkeway 3"}


def test_org_suffix_takes_a_leading_number_and_sons() -> None:
    assert spans("org_suffix", "I work for 48 Factoring Inc") == {"48 Factoring Inc"}
    assert spans("org_suffix", "Thomas and Sons is a bank") == {"Thomas and Sons"}
    assert spans("org_suffix", "my 3 sons are here") == set()


def test_spacy_organisations_the_hybrid_mode_keeps() -> None:
    text = "Comedy, Kids & Family with Microsoft, Nguyen and Scott at Acme Corp"

    def ent(value: str) -> Entity:
        s = text.index(value)
        return Entity("ORGANIZATION", s, s + len(value), "ner:ORG")

    kept = {
        (x.type, text[x.start : x.end])
        for x in kept_spacy(
            [ent(v) for v in ("Comedy, Kids & Family", "Microsoft", "Nguyen", "Scott", "Acme Corp")], text
        )
    }
    assert kept == {("ORGANIZATION", "Microsoft"), ("ORGANIZATION", "Acme Corp"), ("PERSON", "Scott")}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Karin M. Beike\nLeasing consultant\nFritz-Armstrong", "Leasing consultant"),
        ("naomi ryan\nsewer pipe cleaner\nhubbard", "sewer pipe cleaner"),
        ("Cormac Allan\nEchocardiographer\nPlaceilivecom", "Echocardiographer"),
        ("Jane Roe\nDirector of Sales", "Director of Sales"),
    ],
)
def test_job_title_on_its_own_line(text: str, value: str) -> None:
    assert spans("title_line", text) == {value}


@pytest.mark.parametrize(
    "text",
    [
        "Leasing consultant",
        "Hi\nCall the manager\nnow",
        "Karin\nShopping list\nEggs",
        "a manager said",
        "Overview\nData Controller\nWe decide why.",
        "Who we are\nData Protection Officer\nContact us.",
    ],
)
def test_job_title_line_negative(text: str) -> None:
    assert spans("title_line", text) == set()


def test_spacy_places_that_are_listed_names_are_dropped() -> None:
    text = "From Toronto to Margaret and ESPOO"

    def ent(value: str) -> Entity:
        s = text.index(value)
        return Entity("GPE", s, s + len(value), "ner:GPE")

    kept = {text[x.start : x.end] for x in kept_spacy([ent(v) for v in ("Toronto", "Margaret", "ESPOO")], text)}
    assert kept == {"Toronto", "ESPOO"}


def test_enumeration_of_listed_first_names_in_any_case() -> None:
    text = "they had 6: silvana, adam, christopher, kristina, chad and caleb."
    assert spans("name_list", text) == {"silvana", "adam", "christopher", "kristina", "chad", "caleb"}
    assert spans("name_list", "Mary, John and Paul") == {"Mary", "John", "Paul"}
    assert spans("name_list", "apples, pears and plums") == set()
    assert spans("name_list", "Paris, Rome and Vienna") == set()  # mostly not first names


def test_signature_first_line_with_a_listed_first_name() -> None:
    assert spans("name_signature", "> \n> Lina Artemova\n> Irecycle") == {"Lina Artemova"}
    assert spans("name_signature", "naomi ryan\nsewer pipe cleaner") == {"naomi ryan"}
    assert spans("name_signature", "Hello World\nfoo") == set()
    assert spans("name_signature", "Dear team\nplease") == set()
    assert spans("name_signature", "Lina Artemova") == set()  # one line: not a signature


def test_name_cue_stops_before_an_address_unit() -> None:
    text = "Mrs. Barbara Yudina Apt. 675 62314 Mellemvej 32"
    assert spans("name_cue", text) == {"Barbara Yudina"}
    assert spans("name_cue", "Mr. Suite") == {"Suite"}  # a lone word after the cue is still read


def test_region_code_between_place_and_postcode_is_a_place() -> None:
    from pp_graph.anonymize.structure import address_blocks

    text = "62314 Mellemvej 32\nAalborg NO 9100"
    got = {(t, text[s:e]) for t, s, e in address_blocks(text, [(0, 18)])}
    assert got == {("GPE", "Aalborg"), ("GPE", "NO"), ("ZIP_CODE", "9100")}
    text = "62314 Mellemvej 32\nEstonia 62488"  # no region code: the number is the benchmark's street number
    got = {(t, text[s:e]) for t, s, e in address_blocks(text, [(0, 18)])}
    assert got == {("GPE", "Estonia"), ("STREET_ADDRESS", "62488")}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Julia Kárpáthy\nMhealthcoach\n50668 Kiannonkatu 98", "Mhealthcoach"),
        ("aksel kristensen\nstillwater supercomputing inc.\npsc 5420", "stillwater supercomputing inc."),
        ("> \n> Lina Artemova\n> Irecycle\n> 2224 Trenerys gate 232", "Irecycle"),
        ("Karin M. Beike\nLeasing consultant\nFritz-Armstrong\nul. Miła 53", "Fritz-Armstrong"),
    ],
)
def test_signature_employer_line(text: str, value: str) -> None:
    assert spans("org_signature", text) == {value}


@pytest.mark.parametrize(
    "text",
    [
        "Dear John Smith\nThank you\nfor",  # the line under the name holds English function words
        "Jane Roe\nAcme Widgets",  # two lines: nothing under the employer, not a signature block
        "Hello there\nSee the list below\nitem",
        "Lina Artemova wrote\nIrecycle\n2224 Trenerys gate 232",  # the first line is not a name
        "Privacy Policy\nCookie Settings\nManage your choices",  # nor a listed first name or surname
    ],
)
def test_signature_employer_line_negative(text: str) -> None:
    assert spans("org_signature", text) == set()


def test_function_words_are_read_from_the_data_file_and_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "my" in gazetteer.stop_words() and "sunday" in gazetteer.stop_words()
    bad = tmp_path / "f.txt"
    bad.write_text("# c\nthe\nTwo Words\n", encoding="utf-8")
    monkeypatch.setattr(gazetteer, "FUNCTION_WORDS_FILE", bad)
    gazetteer.stop_words.cache_clear()
    try:
        with pytest.raises(gazetteer.GazetteerUnavailable, match=r"f.txt:3: 'Two Words'"):
            gazetteer.stop_words()
    finally:
        gazetteer.stop_words.cache_clear()


def test_spacy_places_dropped_only_when_a_listed_name() -> None:
    # an anonymizer that drops a span leaks it: an unlisted place stays, only a listed name is not a place
    text = "He works in Silicon Valley and Vehbija, near Margaret, in Jordan and Chad"

    def ent(value: str, label: str) -> Entity:
        s = text.index(value)
        return Entity("ORGANIZATION" if label == "ORG" else "GPE", s, s + len(value), f"ner:{label}")

    ents = [ent("Silicon Valley", "LOC"), ent("Vehbija", "GPE"), ent("Margaret", "GPE")]
    ents += [ent("Jordan", "ORG"), ent("Chad", "ORG")]
    kept = {(x.type, text[x.start : x.end]) for x in kept_spacy(ents, text)}
    assert kept == {("GPE", "Silicon Valley"), ("GPE", "Vehbija"), ("GPE", "Jordan"), ("GPE", "Chad")}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Contact James Talbot today", "James Talbot"),
        ("Dear Mary Smith", "Mary Smith"),
        ("Customer Anna Berg wrote", "Anna Berg"),
        ("Sales Rep Linda Park", "Linda Park"),
        ("Read Mary Smith's Privacy Notice.", "Mary Smith"),
    ],
)
def test_listed_name_after_a_capitalised_word(text: str, value: str) -> None:
    assert spans("name_listed", text) == {value}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Terence Vassiliev's Cautionary Tales", "Terence Vassiliev"),
        ("James Bond's Car Wash", "James Bond"),
        ("James Bond’s Car Wash", "James Bond"),
    ],
)
def test_a_name_stops_at_a_possessive(text: str, value: str) -> None:
    assert spans("name_listed", text) == {value}
    persons = {text[x.start : x.end] for x in recognize(text, mode="none") if x.type == "PERSON"}
    assert persons == {value}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Visit Germany now", "Germany"),
        ("Hello Canada", "Canada"),
        ("Our Office In France", "France"),
        ("Residents Of California", "California"),
        ("Transfers To The United States", "United States"),
    ],
)
def test_country_after_a_capitalised_word(text: str, value: str) -> None:
    assert spans("country", text) == {value}


_COMMON_WORD_PHRASES = [
    "Rich Media Ads",
    "Page Views",
    "Young Adults Program",
    "Star Ratings",
    "Chase Sapphire Card",
    "Long Term Storage",
    "Grace Period",
    "Bill Payment Services",
    "Mark Read",
    "Grant Access",
]


@pytest.mark.parametrize("text", [f"See our {p} today" for p in _COMMON_WORD_PHRASES])
def test_a_first_name_that_is_a_common_word_needs_a_listed_surname(text: str) -> None:
    assert spans("name_listed", text) == set()


@pytest.mark.parametrize("text", ["Major Update\nWe changed things.", "Grace Period\nThirty days."])
def test_signature_name_that_opens_with_a_common_word_needs_a_listed_surname(text: str) -> None:
    assert spans("name_signature", text) == set()


def test_a_common_word_first_name_with_a_listed_surname_is_a_person() -> None:
    assert spans("name_listed", "I spoke to Grace Johnson yesterday") == {"Grace Johnson"}
    assert spans("name_signature", "Mark Johnson\nSales manager") == {"Mark Johnson"}


def test_common_word_names_are_read_from_the_data_file_and_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "rich" in gazetteer.common_word_names() and "james" not in gazetteer.common_word_names()
    for body, message in [("rich\nRich Man\n", r"c.txt:2: 'Rich Man'"), ("rich\n", r"c.txt: .* fewer than 20")]:
        bad = tmp_path / "c.txt"
        bad.write_text(body, encoding="utf-8")
        monkeypatch.setattr(gazetteer, "COMMON_WORD_NAMES_FILE", bad)
        gazetteer.common_word_names.cache_clear()
        try:
            with pytest.raises(gazetteer.GazetteerUnavailable, match=message):
                gazetteer.common_word_names()
        finally:
            gazetteer.common_word_names.cache_clear()


@pytest.mark.parametrize(
    "text",
    [
        "This page is available in English and French.",
        "Translations: German, Spanish, Italian",
        "Read the English language version.",
        "transfers outside the European Union/Economic Area",
        "the European Economic Area",
        "We accept American Express cards.",
    ],
)
def test_languages_and_institutions_are_not_nationalities(text: str) -> None:
    assert spans("nationality", text) == set()


def test_a_nationality_after_a_language_list_still_counts() -> None:
    assert spans("nationality", "available in English. A French film") == {"French"}


@pytest.mark.parametrize(
    ("text", "value"),
    [("First Name: James Talbot", "James Talbot"), ("my first name is Ruth", "Ruth"), ("Name: Ann Lee", "Ann Lee")],
)
def test_first_name_cue_needs_a_colon_or_is(text: str, value: str) -> None:
    assert spans("name_cue", text) == {value}


def test_form_field_labels_are_not_a_name() -> None:
    text = "Fields: First Name Last Name Email Address"
    assert spans("name_cue", text) == set()
    assert [x for x in recognize(text, mode="none") if x.type == "PERSON"] == []


def _fake_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> None:
    """A gazetteer folder holding ``files``, in place of the shipped one."""
    for rel, body in files.items():
        (tmp_path / rel).write_text(body, encoding="utf-8")
    monkeypatch.setattr(gazetteer, "GAZETTEER_DIR", tmp_path)
    for f in (gazetteer.first_names, gazetteer.last_names, gazetteer.countries, gazetteer.cities):
        f.cache_clear()


@pytest.fixture
def fresh_lists() -> Iterator[None]:
    yield None
    for f in (gazetteer.first_names, gazetteer.last_names, gazetteer.countries, gazetteer.cities):
        f.cache_clear()


def test_the_shipped_lists_are_attributed_and_complete() -> None:
    source = (gazetteer.GAZETTEER_DIR / "SOURCE.md").read_text(encoding="utf-8")
    assert "CC BY 4.0" in source and "public domain" in source
    for f in sorted(gazetteer.GAZETTEER_DIR.glob("*.txt")):
        assert f.name in source
    assert len(gazetteer.last_names()) > 80_000 and len(gazetteer.cities()) > 30_000


@pytest.mark.usefixtures("fresh_lists")
@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("# source\nSMITH\n\nJONES\n", r"last.txt:3: '' is not a Census name"),
        ("# source\nSMITH\tJONES\n", r"last.txt:2: 'SMITH\\tJONES' is not a Census name"),
        ("# source\nSMITH\n", r"last.txt: the Census list has 1 names, fewer than 1000"),
    ],
)
def test_a_damaged_census_list_is_an_error_naming_the_file(
    body: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_lists(tmp_path, monkeypatch, {"last.txt": body})
    with pytest.raises(gazetteer.GazetteerUnavailable, match=message):
        gazetteer.last_names()


@pytest.mark.usefixtures("fresh_lists")
def test_a_short_or_missing_place_list_is_an_error_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_lists(tmp_path, monkeypatch, {"countries.txt": "# source\nGermany\n", "us-states.txt": "Ohio\n" * 60})
    with pytest.raises(gazetteer.GazetteerUnavailable, match=r"countries.txt: the country list has 1 names"):
        gazetteer.countries()
    with pytest.raises(gazetteer.GazetteerUnavailable, match=r"cities15000.txt: cannot read the city list"):
        gazetteer.cities()
