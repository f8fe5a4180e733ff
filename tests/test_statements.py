"""The statement practices (data/rules/statements.toml): user choice, policy change, Do Not Track, specific
audiences, storage places and transfers, read by the offline extractor, written to the graph and validated.

The sentences are written for these tests (none is copied from a policy)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, XSD

from pp_graph.api import convert_text
from pp_graph.errors import DataFileError
from pp_graph.extract.offline.statement_rules import RULES_FILE, parse_rules, statement_rules
from pp_graph.graph.namespaces import DPV, PPG, PR2G
from pp_graph.query.runner import run_query
from pp_graph.store.embedded import EmbeddedStore, open_store
from pp_graph.validate import validate

EU_GDPR = "https://w3id.org/dpv/legal/eu/gdpr#"


def _graph(sentence: str) -> Graph:
    c = convert_text(f"# Privacy at Lumen\n\n{sentence}\n", "lumen-notes.example")
    return c.dataset.graph(c.graph)


def _practices(g: Graph, cls: URIRef) -> list[URIRef]:
    return sorted(g.subjects(RDF.type, cls))  # type: ignore[arg-type]


def _one(g: Graph, cls: URIRef) -> URIRef:
    found = _practices(g, cls)
    assert len(found) == 1, f"expected one {cls}, got {found}"
    return found[0]


def _values(g: Graph, s: URIRef, p: URIRef) -> set[str]:
    return {str(o) for o in g.objects(s, p)}


# (sentence, expected negated, {property: expected values}) per statement class; then sentences it must miss
CHOICES = [
    (
        "You can opt out of marketing emails at any time.",
        False,
        {"choiceScope": {"marketing"}, "choiceMechanism": {"opt-out"}},
    ),
    (
        "Use the unsubscribe link in each newsletter to stop receiving it.",
        False,
        {"choiceMechanism": {"unsubscribe"}, "choiceScope": {"marketing"}},
    ),
    (
        "You can turn off interest-based ads in your ad settings.",
        False,
        {"choiceScope": {"targeted-ads"}, "choiceMechanism": {"settings"}},
    ),
    (
        "You may withdraw your consent at any time without affecting earlier processing.",
        False,
        {"choiceMechanism": {"withdraw-consent"}},
    ),
    (
        "You can block cookies through your browser settings, but some pages may not work.",
        False,
        {"choiceScope": {"cookies"}},
    ),
    ("Members cannot opt out of emails about their billing.", True, {"choiceMechanism": {"opt-out"}}),
    (
        "Push notifications can be disabled; you can manage notifications in the app.",
        False,
        {"choiceScope": {"notifications"}},
    ),
]
CHANGES = [
    ("We will notify you by email of any material changes to this policy.", {"email"}),
    ("We may revise this privacy notice and will post the revised version on this page.", {"site-notice"}),
    ("If we change this policy, we will update the last updated date above.", {"updated-date"}),
    ("This policy may be updated; we will tell you through the app before changes take effect.", {"in-app"}),
    ("Your continued use of Lumen after we amend this statement means you accept it.", {"continued-use"}),
    ("We can modify this policy at any time without notice.", {"no-notice"}),
    ("Users will be notified of any privacy policy changes by email.", {"email"}),
]
DNT = [
    ("We do not respond to Do Not Track signals.", False),
    ("Lumen does not currently recognize DNT browser signals.", False),
    ("Do Not Track requests are not honored by this website.", False),
    ("We honor Do Not Track signals sent by your browser.", True),
    ("We currently take no action to respond to Do Not Track signals.", False),
]
AUDIENCES = [
    ("Our services are not directed to children under 13.", {"children"}, 13),
    ("We do not knowingly collect data from children under the age of 16.", {"children"}, 16),
    ("You must be at least 18 to open a Lumen account.", set(), 18),
    ("If we learn we hold data about a child without parental consent, we delete it.", {"children"}, None),
    ("Teens under 16 need a guardian's permission before they sign up.", {"teens"}, 16),
    # residents of a state or region (OPP-115's International and Specific Audiences), a child named as someone's
    ("California residents may request a list of the companies we shared data with.", {"residents"}, None),
    ("If you live outside the European Union, these terms apply to you.", {"residents"}, None),
    ("Parents may review their son's account at any time.", {"children"}, None),
]
STORAGE = [
    ("Your data may be stored and processed in any country where we have facilities.", False, {"any-country"}, set()),
    (
        "We rely on Standard Contractual Clauses when we transfer your data outside the EEA.",
        False,
        {"outside-EEA"},
        {"scc"},
    ),
    ("Our servers are located in Germany.", False, {"DE"}, set()),
    ("Your information is transferred to the United States under an adequacy decision.", False, {"US"}, {"adequacy"}),
    ("We never transfer personal data outside the European Union.", True, {"outside-EEA"}, set()),
    ("Data moved between our group companies is covered by binding corporate rules.", False, set(), {"bcr"}),
    ("We adhere to the Safe Harbor Framework for data about our European customers.", False, set(), {"dpf"}),
]
MISSES = [
    "We collect your email address when you register.",
    "You can update your display name in your profile.",
    "Your browser may offer a Do Not Track setting.",
    "We answer access requests in under 30 days.",
    "We ship orders to customers in Canada.",
    "Climate change is a frequent topic on our blog.",
    "Our optical products are sold in retail stores.",
    # "us" the pronoun is no place; neither are shops, nor the country whose law sets an age of consent
    "Your browser keeps these cookies and sends them back to us on each visit.",
    "Our partners send information about the offers you viewed to us.",
    "This notice covers personal information we gather at our retail stores in the United States and online.",
    "You must be old enough to consent to the processing of your personal data in your country.",
    # a date stamp says nothing of changes to come
    "This privacy notice was last updated on March 3, 2024.",
    # the site's control over cookies is no choice of the reader's
    "Lumen has no access or control over these cookies, which advertisers set.",
    # a count is no age (the shapes allow ages up to 25)
    "Cookies from over 50+ major advertising networks may be set on our pages.",
]


@pytest.mark.parametrize(("sentence", "negated", "props"), CHOICES, ids=[c[0][:40] for c in CHOICES])
def test_user_choice_with_its_scope(sentence: str, negated: bool, props: dict[str, set[str]]) -> None:
    g = _graph(sentence)
    p = _one(g, PPG.UserChoiceControl)
    assert (p, PPG.negated, Literal(negated)) in g
    assert (p, PPG.practiceLabel, Literal("user-choice-control")) in g
    for name, expected in props.items():
        assert expected <= _values(g, p, PPG[name]), name


def test_a_choice_names_its_dpv_concepts() -> None:
    g = _graph("You can opt out of marketing emails at any time.")
    p = _one(g, PPG.UserChoiceControl)
    assert {DPV.OptingOutFromProcess, DPV.Marketing} <= set(g.objects(p, PPG.relatedConcept))


@pytest.mark.parametrize(("sentence", "means"), CHANGES, ids=[c[0][:40] for c in CHANGES])
def test_policy_change_with_how_readers_are_told(sentence: str, means: set[str]) -> None:
    g = _graph(sentence)
    p = _one(g, PPG.PolicyChange)
    assert means <= _values(g, p, PPG.notificationMeans)


@pytest.mark.parametrize(("sentence", "honoured"), DNT, ids=[c[0][:40] for c in DNT])
def test_do_not_track_honoured_or_not(sentence: str, honoured: bool) -> None:
    g = _graph(sentence)
    p = _one(g, PPG.DoNotTrack)
    assert (p, PPG.honoursDoNotTrack, Literal(honoured)) in g
    assert (p, PPG.negated, Literal(not honoured)) in g


@pytest.mark.parametrize(("sentence", "audience", "age"), AUDIENCES, ids=[c[0][:40] for c in AUDIENCES])
def test_specific_audience_with_its_age_limit(sentence: str, audience: set[str], age: int | None) -> None:
    g = _graph(sentence)
    p = _one(g, PPG.SpecificAudience)
    assert _values(g, p, PPG.audience) == audience
    ages = set(g.objects(p, PPG.ageLimit))
    assert ages == ({Literal(age, datatype=XSD.integer)} if age is not None else set())


@pytest.mark.parametrize(("sentence", "negated", "regions", "safeguards"), STORAGE, ids=[c[0][:40] for c in STORAGE])
def test_storage_place_and_transfer_safeguard_not_sharing(
    sentence: str, negated: bool, regions: set[str], safeguards: set[str]
) -> None:
    g = _graph(sentence)
    p = _one(g, PR2G.DataStorageRetention)
    assert (p, PPG.negated, Literal(negated)) in g
    assert _values(g, p, PPG.storageRegion) == regions
    assert _values(g, p, PPG.transferSafeguard) == safeguards
    assert not _practices(g, PR2G.DataSharingDisclosure)


def test_a_safeguard_names_its_gdpr_concept() -> None:
    g = _graph("We rely on Standard Contractual Clauses when we transfer your data outside the EEA.")
    p = _one(g, PR2G.DataStorageRetention)
    assert URIRef(EU_GDPR + "StandardContractualClauses") in set(g.objects(p, PPG.relatedConcept))


def test_retention_with_a_place_takes_the_region_instead_of_a_second_practice() -> None:
    g = _graph("We keep your account data in the EU for two years.")
    p = _one(g, PR2G.DataStorageRetention)
    assert _values(g, p, PPG.storageRegion) == {"EU"}
    assert (p, PPG.retentionPeriod, Literal("P2Y", datatype=XSD.duration)) in g


def test_sharing_with_partners_abroad_stays_sharing() -> None:
    g = _graph("We share your email address with advertisers in other countries.")
    assert _practices(g, PR2G.DataSharingDisclosure)


@pytest.mark.parametrize("sentence", MISSES)
def test_sentences_without_a_statement(sentence: str) -> None:
    g = _graph(sentence)
    for cls in (PPG.UserChoiceControl, PPG.PolicyChange, PPG.DoNotTrack, PPG.SpecificAudience):
        assert not _practices(g, cls), cls
    stored = _practices(g, PR2G.DataStorageRetention)
    assert not any(set(g.objects(p, PPG.storageRegion)) for p in stored)


def test_sharing_device_identifiers_for_personalised_ads() -> None:
    # "share your device …" was read as advice about sharing a computer, and the practice dropped
    g = _graph("We share your device identifiers with advertising partners so that they can show you personalized ads.")
    p = _one(g, PR2G.DataSharingDisclosure)
    assert (p, PR2G.purpose, DPV.PersonalisedAdvertising) in g


def test_graph_of_every_statement_conforms() -> None:
    text = "# Privacy at Lumen\n\n" + "\n\n".join(s for s, *_ in [*CHOICES, *CHANGES, *DNT, *AUDIENCES, *STORAGE])
    c = convert_text(text + "\n", "lumen-notes.example", rule_ids=True)
    rep = validate(c.dataset)
    assert rep.conforms, rep.text()
    g = c.dataset.graph(c.graph)
    rules = {str(o) for o in g.objects(None, PPG.rule)}
    assert {s.id for s in statement_rules().statements} <= rules


def test_shapes_catch_a_broken_statement() -> None:
    g = _graph("You can opt out of marketing emails at any time. We do not respond to Do Not Track signals.")
    choice, dnt = _one(g, PPG.UserChoiceControl), _one(g, PPG.DoNotTrack)
    g.set((choice, PPG.choiceScope, Literal("everything")))
    g.remove((dnt, PPG.honoursDoNotTrack, None))
    rep = validate(g)
    shapes = {str(r.shape).rsplit("#", 1)[-1] for r in rep.results}
    assert {"UserChoiceShape", "DoNotTrackShape"} <= shapes, rep.text()


def _edited(old: str, new: str) -> bytes:
    text = RULES_FILE.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1).encode("utf-8")


def test_a_failing_example_is_a_load_error() -> None:
    bad = _edited(
        'details = { choice_mechanism = "opt-out", choice_scope = "marketing" }',
        'details = { choice_scope = "cookies" }',
    )
    with pytest.raises(DataFileError, match=r"statement\.user-choice: example .* has no choice_scope 'cookies'"):
        parse_rules(bad)


def test_a_concept_outside_dpv_is_a_load_error() -> None:
    bad = _edited('concept = "dpv:Marketing"', 'concept = "dpv:NoSuchThing"')
    with pytest.raises(DataFileError, match="NoSuchThing"):
        parse_rules(bad)


def test_an_unknown_practice_is_a_load_error(tmp_path: Path) -> None:
    bad = _edited('practice = "do-not-track"', 'practice = "dnt"')
    with pytest.raises(DataFileError, match="'dnt' is not one of"):
        parse_rules(bad)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    """Two sites: one that states every kind of statement, one that states none."""
    folder = tmp_path_factory.mktemp("graphs")
    lumen = "\n\n".join(
        [
            "You can opt out of marketing emails at any time.",
            "Members cannot opt out of emails about their billing.",
            "We do not respond to Do Not Track signals.",
            "Our services are not directed to children under 13.",
            "You must be at least 16 years old to post reviews.",
            "We will notify you by email of any material changes to this policy.",
            "We rely on Standard Contractual Clauses when we transfer your data outside the EEA.",
            "Our servers are located in Germany.",
        ]
    )
    for site, body in (("lumen-notes.example", lumen), ("quiet.example", "We collect your email address.")):
        c = convert_text(f"# Privacy\n\n{body}\n", site)
        (folder / f"{site}.trig").write_text(c.dataset.serialize(format="trig"), encoding="utf-8")
    return open_store(sorted(folder.glob("*.trig")))


def test_query_user_choices(store: EmbeddedStore) -> None:
    rows = run_query(store, "user-choices", {})
    got = sorted((r["site"], r["negated"], r["mechanisms"], r["scopes"]) for r in rows)
    assert got == [
        ("lumen-notes.example", False, ["opt-out"], ["marketing"]),
        ("lumen-notes.example", True, ["opt-out"], []),
    ]


def test_query_storage_places(store: EmbeddedStore) -> None:
    rows = run_query(store, "storage-places", {})
    got = sorted((r["regions"], r["safeguards"]) for r in rows)
    assert got == [(["DE"], []), (["outside-EEA"], ["scc"])]


def test_query_site_statements(store: EmbeddedStore) -> None:
    rows = {r["site"]: r for r in run_query(store, "site-statements", {})}
    lumen = rows["lumen-notes.example"]
    assert lumen["doNotTrack"] == ["false"] and lumen["audiences"] == ["children"]
    assert int(lumen["lowestAgeLimit"]) == 13 and lumen["notificationMeans"] == ["email"]
    assert int(lumen["choices"]) == 1  # the opt-out of marketing; not the choice the policy denies
    quiet = rows["quiet.example"]
    assert quiet["doNotTrack"] == [] and quiet["audiences"] == [] and int(quiet["choices"]) == 0


def test_every_practice_type_has_a_report_and_ui_colour() -> None:
    from pp_graph.model import PracticeType
    from pp_graph.query.corpus import PRACTICE_TYPES
    from pp_graph.report.charts import TYPE_COLOURS
    from pp_graph.serve import cards

    css = (Path(cards.__file__).parent / "static" / "app.css").read_text(encoding="utf-8")
    assert tuple(t.value for t in PracticeType) == PRACTICE_TYPES
    for t in PracticeType:
        assert TYPE_COLOURS[t.value].startswith("#"), t
        assert f".t-{t.value} {{ background:" in css, t
    assert len(set(TYPE_COLOURS.values())) == len(TYPE_COLOURS)  # each type told apart


def test_policy_page_shows_a_statements_details(store: EmbeddedStore, tmp_path: Path) -> None:
    from pp_graph.query.corpus import Corpus
    from pp_graph.serve.cards import card

    c = convert_text("# Privacy\n\nWe do not respond to Do Not Track signals.\n", "lumen-notes.example")
    f = tmp_path / "lumen-notes.example.trig"
    f.write_text(c.dataset.serialize(format="trig"), encoding="utf-8")
    corpus = Corpus.open([f])
    view = corpus.view(corpus.policies[0])
    [p] = view.practices
    assert p.type == "do-not-track" and p.details == [("honoursDoNotTrack", "false")]
    seg = next(s for s in view.segments if s.iri == p.segment)
    html = card(p, seg, corpus.label)
    assert "<dt>honoursDoNotTrack</dt><dd><code>false</code></dd>" in html and "t-do-not-track" in html


def test_odrl_export_constrains_a_storage_region_and_conforms() -> None:
    from pp_graph.export import export_store
    from pp_graph.export.odrl import validate_odrl
    from pp_graph.graph.namespaces import ODRL

    text = (
        "# Privacy\n\nWe store your email address on servers located in Germany.\n\n"
        "We transfer your email address outside the EEA under standard contractual clauses.\n\n"
        "Your data may be stored in any country where we have facilities.\n\n"
        "You can opt out of marketing emails.\n"
    )
    c = convert_text(text, "lumen-notes.example")
    s = EmbeddedStore()
    s.load_dpv()
    s.load_dataset(c.dataset)
    g = export_store("odrl", s)[str(c.graph)]
    spatial = sorted(
        (str(g.value(k, ODRL.operator)).rsplit("/", 1)[-1], str(g.value(k, ODRL.rightOperand)))
        for k in g.subjects(ODRL.leftOperand, ODRL.spatial)
    )
    loc = "https://w3id.org/dpv/loc#"
    assert spatial == [("eq", loc + "DE"), ("neq", loc + "EEA")]  # "any country" names no place
    actions = {str(a).rsplit("#", 1)[-1] for a in g.objects(None, ODRL.action)}
    assert actions <= {"Store", "Transfer"}  # the choice is not a permission to process
    rep = validate_odrl(g)
    assert rep.conforms, rep.text


def test_a_statements_sentence_still_passes_its_data_to_the_practice_before() -> None:
    # before the statements, the second sentence stated no practice, so its data went to the first one's
    g = _graph("We collect information when you sign up. You can opt out of newsletters sent to your email address.")
    collect = _one(g, PR2G.DataCollectionUse)
    assert (collect, PR2G.data, URIRef("https://w3id.org/dpv/pd#EmailAddress")) in g
    assert _one(g, PPG.UserChoiceControl)


def test_a_place_drops_only_a_sharing_verb_that_moves_data() -> None:
    moved = _graph("Your information will be collected, stored, processed and disclosed in the United States.")
    assert not _practices(moved, PR2G.DataSharingDisclosure)
    assert _values(moved, _one(moved, PR2G.DataStorageRetention), PPG.storageRegion) == {"US"}
    shared = _graph("If we share personal data stored in the United States, we tell you first.")
    assert _practices(shared, PR2G.DataSharingDisclosure)


def test_a_place_that_says_where_people_are_is_no_storage_place() -> None:
    """ "If you live in the EEA, … information processed …" named the EEA as a storage place; the detail veto reads
    the words just before the place. Without the veto the file's own examples fail to load."""
    from pp_graph.extract.offline.statement_rules import read_sentence

    rules = statement_rules()
    lived = "If you live in the EEA, our affiliate is the controller of information processed in connection with it."
    assert not [f for f in read_sentence(rules, lived) if f.rule.id == "statement.storage-place"]
    stored = read_sentence(rules, "Information about users in the EU is stored on servers in Ireland.")
    places = [d.code for f in stored if f.rule.id == "statement.storage-place" for d in f.details]
    assert places == ["IE"]  # "users in the EU" vetoed, Ireland kept (users in the EU are an audience)
    start = RULES_FILE.read_text(encoding="utf-8").index("\n[[detail_veto]]\n") + 1
    without = RULES_FILE.read_text(encoding="utf-8")
    without = without[:start] + without[start:].split("\n\n", 1)[1]
    with pytest.raises(DataFileError, match="is found"):
        parse_rules(without.encode("utf-8"))
    with pytest.raises(DataFileError, match="detail_veto 1"):
        parse_rules(_edited('kind = "storage_place"\nbefore', 'kind = "nowhere"\nbefore'))


def test_a_transfers_heading_gives_storage_not_sharing() -> None:
    """Under "International data transfers", a line saying where data is stored and on which safeguard was also
    read as sharing, inherited from the heading's "transfers"."""
    text = (
        "# Privacy at Lumen\n\n## International data transfers\n\n"
        "We store your personal data in the United States and rely on Standard Contractual Clauses.\n"
    )
    c = convert_text(text, "lumen-notes.example")
    g = c.dataset.graph(c.graph)
    assert _practices(g, PR2G.DataSharingDisclosure) == []
    storage = _practices(g, PR2G.DataStorageRetention)
    assert {"US"} <= {str(o) for p in storage for o in g.objects(p, PPG.storageRegion)}
    assert {"scc"} <= {str(o) for p in storage for o in g.objects(p, PPG.transferSafeguard)}
    # a line under that heading that names a recipient and no place still shares
    shared = convert_text(text + "\nWe share your email address with our payment processor.\n", "lumen-notes.example")
    assert _practices(shared.dataset.graph(shared.graph), PR2G.DataSharingDisclosure)


def test_global_privacy_control_is_an_opt_out_not_do_not_track() -> None:
    """GPC is an opt-out of sale, sharing and targeted ads that some laws make binding; Do Not Track is a request
    sites may ignore. Policies answer them differently in one paragraph ("we do not respond to DNT … we honor GPC"),
    so GPC read as Do Not Track gave a site that both honours and ignores Do Not Track."""
    g = _graph("We do not respond to Do Not Track signals. We honor the Global Privacy Control signal in some states.")
    dnt = _one(g, PPG.DoNotTrack)
    assert (dnt, PPG.honoursDoNotTrack, Literal(False)) in g
    choice = _one(g, PPG.UserChoiceControl)
    assert (choice, PPG.negated, Literal(False)) in g
    assert _values(g, choice, PPG.choiceMechanism) == {"opt-out"}
    g = _graph("Where your browser sends a Global Privacy Control signal, we treat it as a valid opt-out of sharing.")
    assert not _practices(g, PPG.DoNotTrack)
    assert _values(g, _one(g, PPG.UserChoiceControl), PPG.choiceMechanism) == {"opt-out"}


def test_the_pronoun_us_is_no_place_but_the_us_in_capitals_is() -> None:
    upper = _graph("Your data is stored on servers in the US.")
    assert _values(upper, _one(upper, PR2G.DataStorageRetention), PPG.storageRegion) == {"US"}
    shouted = _graph("WE MAY TRANSFER AND STORE YOUR ACCOUNT INFORMATION IN THE UNITED STATES.")
    assert _values(shouted, _one(shouted, PR2G.DataStorageRetention), PPG.storageRegion) == {"US"}


def test_a_title_line_of_plain_text_makes_no_statement() -> None:
    """In plain text without heading markup, a short title line acts as a heading: it announces what its lines
    state, so "Changes to This Privacy Policy" or "Your Opt-Out Choices" is no statement of its own."""
    text = (
        "Changes to This Privacy Policy\n\nWe may change this policy and will notify you by email.\n\n"
        "Your Opt-Out Choices\n\nYou can opt out of marketing emails at any time.\n"
    )
    c = convert_text(text, "lumen-notes.example")
    g = c.dataset.graph(c.graph)
    change = _one(g, PPG.PolicyChange)
    assert _values(g, change, PPG.notificationMeans) == {"email"}
    assert _values(g, _one(g, PPG.UserChoiceControl), PPG.choiceScope) == {"marketing"}


def test_a_table_of_contents_line_makes_no_statement() -> None:
    """A line of section titles ("… Changes To This Policy Your Opt-Out Choices Children Under 13 …") or of links to
    the policy's own sections names topics; each title made a statement (a policy change, a choice, an audience)."""
    plain = (
        "Information We Collect How We Use Information Changes To This Policy Your Opt-Out Choices "
        "Children Under 13 Contact Us\n\nWe may change this policy and will notify you by email.\n"
    )
    links = "[Your opt-out choices](#choices) · [Changes to this policy](#changes) · [California residents](#ca)\n"
    for text in (plain, f"# Privacy at Lumen\n\n{links}\nWe may change this policy and will notify you by email.\n"):
        c = convert_text(text, "lumen-notes.example")
        g = c.dataset.graph(c.graph)
        assert _values(g, _one(g, PPG.PolicyChange), PPG.notificationMeans) == {"email"}
        assert not _practices(g, PPG.UserChoiceControl) and not _practices(g, PPG.SpecificAudience)


def test_a_table_of_contents_entry_states_no_practice() -> None:
    """One entry per line ("* [How long do we keep your data?](#retention)") names its section as the heading
    does; each entry made a practice of its own (a retention, a sharing, a security practice) and the reading
    dropped its link, so nothing told it from a sentence."""
    from pp_graph.graph.build import PRACTICE_CLASS
    from pp_graph.model import PracticeType

    toc = (
        "* [How long do we keep your data?](#retention)\n* [Who do we share your data with?](#sharing)\n"
        "3. [How do we protect your data?](#security)\n"
    )
    text = f"# Privacy at Lumen\n\n{toc}\n## Collection\n\nWe collect your email address to send receipts.\n"
    c = convert_text(text, "lumen-notes.example")
    g = c.dataset.graph(c.graph)
    assert _practices(g, URIRef(PRACTICE_CLASS[PracticeType.FIRST_PARTY_COLLECTION_USE].value))
    for t in ("DATA_STORAGE_RETENTION_DELETION", "THIRD_PARTY_SHARING_DISCLOSURE", "DATA_SECURITY_PROTECTION"):
        assert not _practices(g, URIRef(PRACTICE_CLASS[PracticeType[t]].value)), t
