"""Mention rules (data/rules/mentions.toml): valid, their examples hold, and the extractor applies them."""

from __future__ import annotations

from pathlib import Path

import pytest

from pp_graph.errors import DataFileError
from pp_graph.extract.offline.backend import OfflineBackend
from pp_graph.extract.offline.explain import explain, traced_extract
from pp_graph.extract.offline.mentions import PREDICATES, load_mention_rules, mention_rules
from pp_graph.extract.pipeline import extract
from pp_graph.load.sources import policy_from_text
from pp_graph.vocab.dpv import compact

_BACKEND = OfflineBackend()


def _marked(text: str) -> tuple[str, int, int]:
    """The text without its [[…]] marks, and the offsets of the marked words in it."""
    s = text.index("[[")
    e = text.index("]]") - 2
    return text.replace("[[", "", 1).replace("]]", "", 1), s, e


def _at(text: str, kind: str) -> tuple[list[str], str | None]:
    """The mention rules that acted on the marked hit, and the concept the extractor's stage gives it (None:
    dropped or not a hit)."""
    plain, s, e = _marked(text)
    policy = policy_from_text(plain + "\n", "example.com")
    ex, trace = traced_extract(policy, _BACKEND)
    fired = [ev.rule for ev in trace.events if (ev.start, ev.end) == (s, e) and ev.rule.startswith(kind + ".")]
    mentions = [m for r in ex.results for m in (r.data if kind == "data" else r.purposes)]
    concept = next((m.concept for m in mentions if (m.span.start, m.span.end) == (s, e)), None)
    return fired, concept


def _lexicon_hit(text: str, kind: str) -> bool:
    plain, s, e = _marked(text)
    lex = _BACKEND.lex.data if kind == "data" else _BACKEND.lex.purposes
    return any((h.start, h.end) == (s, e) for h in lex.find(plain))


@pytest.mark.parametrize(
    ("rule", "text", "fires", "expected"),
    [
        (r.id, t, True, c or r.concept)
        for r in mention_rules().rules
        for t, c in zip(r.match, r.match_concepts, strict=True)
    ]
    + [(r.id, t, False, "") for r in mention_rules().rules for t in r.no_match],
)
def test_mention_rule_examples(rule: str, text: str, fires: bool, expected: str) -> None:
    r = next(x for x in mention_rules().rules if x.id == rule)
    assert _lexicon_hit(text, r.lexicon), f"the marked words in {text!r} are not a {r.lexicon} hit"
    fired, concept = _at(text, r.lexicon)
    assert (fired[:1] == [rule]) is fires, fired
    if fires and r.kind == "veto":
        assert concept is None  # the vetoed hit is no mention
    elif fires and expected:
        assert concept == expected  # the rule's concept, or (a predicate rule's) the example's


def test_every_rule_is_valid_and_has_an_example() -> None:
    rules = mention_rules().rules
    assert len({r.id for r in rules}) == len(rules)
    assert all(r.match and (not r.predicate or r.predicate in PREDICATES) for r in rules)
    assert all(r.id.startswith(f"{r.lexicon}.{r.kind}.") for r in rules)


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ('kind = "guess"\nlexicon = "data"', "kind must be one of"),
        ('kind = "concept"\nlexicon = "data"\nconcept = "pd:NoSuchThing"', "not a DPV concept"),
        ('kind = "concept"\nlexicon = "purpose"\nconcept = "pd:EmailAddress"', "not a DPV concept"),
        ('kind = "veto"\nlexicon = "data"\nafter = "("', "not a valid regular expression"),
        ('kind = "veto"\nlexicon = "data"\npredicate = "guess"', "predicate"),
        ('kind = "concept"\nlexicon = "data"', "needs a concept"),
        ('kind = "veto"\nlexicon = "data"\nmatch = [{text = "a [[b]]", concept = "pd:Name"}]', "only a concept rule"),
        (
            'kind = "concept"\nlexicon = "data"\npredicate = "said_narrower"\n'
            'match = [{text = "a [[b]]", concept = "pd:Nope"}]',
            "example concept",
        ),
        (
            'kind = "concept"\nlexicon = "data"\npredicate = "said_narrower"\nmatch = [{text = "a [[b]]"}]',
            "exactly the strings",
        ),
    ],
)
def test_rules_file_is_validated(tmp_path: Path, body: str, error: str) -> None:
    bad = tmp_path / "mentions.toml"
    example = "" if "match =" in body else 'match = ["a [[b]]"]\n'
    bad.write_text(f'[[rule]]\nid = "x"\ndoc = "d"\n{example}{body}\n', encoding="utf-8")
    with pytest.raises(DataFileError, match=error):
        load_mention_rules(bad)


def test_an_example_must_mark_its_hit(tmp_path: Path) -> None:
    bad = tmp_path / "mentions.toml"
    bad.write_text('[[rule]]\nid = "x"\ndoc = "d"\nkind = "veto"\nlexicon = "data"\nmatch = ["ab"]\n', encoding="utf-8")
    with pytest.raises(DataFileError, match=r"marked \[\["):
        load_mention_rules(bad)


def test_the_graph_concepts_follow_the_rules() -> None:
    # Through the whole pipeline: a changed concept reaches the mention, a vetoed hit is no mention, and a hit no
    # rule touches keeps its lexicon concept.
    text = (
        "We use location-related information to show local news. We collect your email address. "
        "Find us at https://support.example.com/privacy.\n"
    )
    ex = extract(policy_from_text(text, "example.com"), _BACKEND)
    data = {m.span.text: compact(m.concept) for r in ex.results for m in r.data if m.concept}
    purposes = {m.span.text for r in ex.results for m in r.purposes}
    assert data["information"] == "pd:Location"
    assert data["email address"] == "pd:EmailAddress"
    assert "support" not in purposes


def test_explain_names_the_mention_rule_and_why() -> None:
    text = "We share your postal address with delivery companies to deliver your order.\n"
    rows = explain(policy_from_text(text, "example.com"), line=1).rows()
    [row] = [r for r in rows if r["rule"] == "purpose.veto.party"]
    assert (row["kind"], row["action"], row["note"]) == ("veto", "vetoed", "delivery")
    assert "a party named by what it does" in str(row["why"])


def _data_concepts(text: str) -> tuple[dict[tuple[int, int], str], tuple[int, int]]:
    """The data concepts the extractor gives, by span, for a text with one [[marked]] span, and that span."""
    plain, s, e = _marked(text)
    ex = extract(policy_from_text(plain + "\n", "example.com"), _BACKEND)
    return {(m.span.start, m.span.end): compact(m.concept) for r in ex.results for m in r.data if m.concept}, (s, e)


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        # diagnostics describe the device (pd:DeviceBased), not only its software
        ("We collect [[crash reports]] when the app fails.", "pd:DeviceBased"),
        ("We collect [[diagnostic data]] from your console.", "pd:DeviceBased"),
        # a network's password authenticates; other network information is technical data about the device
        # (DPV's pd:Connection is a connection in a social network)
        ("We sync your [[Wi-Fi credentials]] if you choose.", "pd:Authenticating"),
        ("We collect [[network information]] such as signal strength.", "pd:DeviceBased"),
        ("We collect device identifiers and [[mobile network]] information.", "pd:DeviceBased"),
        # interactions with the service are its consumption (pd:Interaction is the public sphere)
        ("We log your [[interactions]] with our apps.", "pd:ServiceConsumptionBehaviour"),
        ("We collect your [[time zone setting]] from your phone.", "pd:DeviceBased"),
        # a time zone locates coarsely: not pd:Locality, which DPV files under a physical address (contact data)
        ("We collect your [[time zone]] to schedule reminders.", "pd:Location"),
        # an IP address written out in full, either way round, is never a physical address
        ("We log [[Internet Protocol (IP) addresses]] of visitors.", "pd:IPAddress"),
        ("We log your [[IP (Internet Protocol) address]].", "pd:IPAddress"),
        ("We log [[IP-addresses]] of visitors.", "pd:IPAddress"),
        # a page's address is what the person browses; their own children are their offspring
        ("We collect the [[address]] of the websites you visit.", "pd:BrowsingBehaviour"),
        ("We ask for the names of [[your children]] to send birthday cards.", "pd:Offspring"),
        ("We collect [[Message Data]] when you message other users.", "pd:Communication"),
        # device, advertising and user identifiers are tracking identifiers (every sample's annotators), not pd:UID
        ("We share your resettable [[device identifier]] with partners.", "pd:Identifier"),
        ("We collect your [[advertising ID]] and cookies.", "pd:Identifier"),
        ("We assign you a [[user ID]] when you sign up.", "pd:Identifier"),
        # a public profile is what anyone on the platform sees
        ("We collect your [[public profile]] when you connect an account.", "pd:PubliclyAvailableSocialMedia"),
    ],
)
def test_lexicon_rows_give_the_narrower_concept(text: str, concept: str) -> None:
    got, span = _data_concepts(text)
    assert got.get(span) == concept, got


def test_children_as_an_audience_are_no_data() -> None:
    # "children" alone names who the policy speaks of, not data about the person's offspring (pd:Offspring)
    got, span = _data_concepts("We do not knowingly collect information from [[children]] under 13.")
    assert span not in got and "pd:Offspring" not in got.values(), got


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        # listed_narrower: the narrowest concept every listed item falls under, not a broader one they share
        ("We collect [[information]] such as your device ID and user ID.", "pd:Identifier"),
        ("We collect [[data]] (e.g., your IP address).", "pd:IPAddress"),  # not its parent pd:DeviceBased
        ("We collect [[information]] such as your email address and phone number.", "pd:Contact"),
        # items sharing only DPV's top groupings leave the hit generic
        ("We collect [[information]] such as your IP address and device ID.", "dpv:PersonalData"),
        # said_narrower: the data word right before the hit, a '-related' compound, an 'about' phrase
        ("We collect your Precise Location [[Data]] when you allow it.", "pd:CurrentLocation"),
        ("We use location-related [[information]], such as where you live.", "pd:Location"),
        ("We collect [[information]] about your location.", "pd:Location"),
        # antecedent: "this information" takes the data its sentence or the sentence before names, passing over a
        # sentence that names none or only asides ("in your device settings"), and a chain of pointers
        ("Your gender (optional). We will use this [[information]] to customise your experience.", "pd:Gender"),
        (
            "We use your voiceprint. You can delete this data in Settings. We keep this [[data]] for a year.",
            "pd:Biometric",
        ),
        (
            "We collect your location. You can turn it off in your device settings. We use this [[data]] for maps.",
            "pd:Location",
        ),
        # ... but not when generic data stands beside it, nor when the data named share only a top grouping
        ("We collect data and your IP address. We keep this [[data]] for a year.", "dpv:PersonalData"),
        ("We collect your name and your location. We keep this [[data]] for a year.", "dpv:PersonalData"),
    ],
)
def test_predicates_give_the_intended_concept(text: str, concept: str) -> None:
    # The rule examples only check that a predicate rule fired; this checks the concept it gives.
    got, span = _data_concepts(text)
    assert got.get(span) == concept, got


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        # bare "content" stays pd:Communication; what a platform's users publish is social media communication
        ("We collect the [[content]] of your messages.", "pd:Communication"),
        ("Learn how your public [[content]] is accessible to anyone.", "pd:SocialMediaCommunication"),
        ("We may notify others that you posted [[content]] or made new connections.", "pd:SocialMediaCommunication"),
        ("Non-public [[content]] you submit includes your saved drafts.", "pd:SocialMediaCommunication"),
        ("Every piece of [[content]] added, removed, or altered by you is recorded.", "pd:SocialMediaCommunication"),
        ("We allow you to create, share, and consume [[content]].", "pd:SocialMediaCommunication"),
        # data about the content is its metadata; what the person views or clicks is their consumption
        ("We collect metadata about [[content]] and messages.", "pd:CommunicationsMetadata"),
        ("We log usage data such as when you view or click on [[content]] or ads.", "pd:ServiceConsumptionBehaviour"),
        # e-mails sent or received are their content, not an address
        ("We share your content when you send an [[email]] to a friend.", "pd:EmailContent"),
        ("We collect the content of reviews and [[emails]] to us.", "pd:EmailContent"),
        # generic data said to identify the person, or to be pseudonymous
        ("The samples are processed to remove [[information]] that could identify you.", "dpv:IdentifyingPersonalData"),
        ("Partners provide insights based on aggregated or pseudonymous [[data]].", "dpv:PseudonymisedData"),
    ],
)
def test_content_and_generic_data_in_context(text: str, concept: str) -> None:
    got, span = _data_concepts(text)
    assert got.get(span) == concept, got


@pytest.mark.parametrize(
    "text",
    [
        # content the service suggests, offers or shows is not the person's data
        "We may suggest related learning [[content]] to help you.",
        "We use it to provide [[content]] you may like.",
        "We customize our Services by personalizing language and [[content]].",
        "We are not responsible for third party [[content]] or privacy practices.",
        "Your browser accesses other [[content]] served by or on behalf of Example on other websites.",
    ],
)
def test_content_the_service_offers_is_no_data(text: str) -> None:
    got, span = _data_concepts(text)
    assert span not in got, got


def _purpose_concepts(text: str) -> tuple[dict[tuple[int, int], str], tuple[int, int]]:
    plain, s, e = _marked(text)
    ex = extract(policy_from_text(plain + "\n", "example.com"), _BACKEND)
    return {(m.span.start, m.span.end): compact(m.concept) for r in ex.results for m in r.purposes if m.concept}, (s, e)


@pytest.mark.parametrize(
    ("text", "concept"),
    [
        # defending the company's rights is about legal claims, not intellectual property
        ("We may disclose it to [[protect our rights]] or property.", "dpv:DisputeManagement"),
        # personalising a named product, its features or its feed is personalising the service
        ("We offer settings that control how we may [[personalize]] Example for you.", "dpv:ServicePersonalisation"),
        ("To develop, provide and [[personalize]] features and integrations.", "dpv:ServicePersonalisation"),
        # ads aimed by traits or behaviour are targeted advertising
        ("The [[ads]] are also targeted at people with similar traits.", "dpv:TargetedAdvertising"),
        ("Ad networks display [[advertisements]] based on your visits to websites.", "dpv:TargetedAdvertising"),
        ("They use those profiles to follow you around with [[ads]].", "dpv:TargetedAdvertising"),
        # developing features, new or the company's own, is research and development
        ("Build and test out new products and [[features]] to see if they work.", "dpv:ResearchAndDevelopment"),
        ("We use no more data than is necessary to develop our [[features]] and models.", "dpv:ResearchAndDevelopment"),
        # improving a kind of feature stays improvement
        ("We use error reports to improve security [[features]].", "dpv:ImproveExistingProductsAndServices"),
    ],
)
def test_purposes_in_context(text: str, concept: str) -> None:
    got, span = _purpose_concepts(text)
    assert got.get(span) == concept, got


def test_features_named_by_their_kind_are_no_purpose() -> None:
    got, span = _purpose_concepts("Our devices offer security [[features]] to protect them against loss of data.")
    assert span not in got, got


def test_court_orders_are_no_purchases() -> None:
    got, span = _data_concepts("We disclose it to respond to subpoenas, court [[orders]], or legal process.")
    assert span not in got, got
