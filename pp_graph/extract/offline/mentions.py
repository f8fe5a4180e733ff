"""Mention-level rules: which lexicon hits are data or purposes at all, and which DPV concept they denote.

A lexicon phrase names a concept out of context ("content", "features", "improve"); the words around a hit decide
whether it is one here (not a verb, a URL, a product or a party's name) and whether the text supports a narrower
concept. The rules are declared in data/rules/mentions.toml, run in declared order for each hit, and the first one
that applies decides: a veto drops the hit, a concept rule changes its concept. Each rule carries examples that
must and must not fire (tests/test_offline_mentions.py runs them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from pp_graph.errors import DataFileError
from pp_graph.extract.offline.lexicon import Entry, Hit, Lexicon
from pp_graph.resources import DATA
from pp_graph.rulefiles import read_toml
from pp_graph.vocab.dpv import PERSONAL_DATA, PURPOSE, expand, vocabulary

MENTION_RULES_FILE = DATA / "rules" / "mentions.toml"
KINDS = ("veto", "concept")
LEXICONS = {"data": PERSONAL_DATA, "purpose": PURPOSE}
# How far the before/after conditions look: beyond any phrase they test, and it bounds the work per hit.
_REACH = 80
_GENERIC = expand("dpv:PersonalData")
_KEYS = {
    "id",
    "kind",
    "lexicon",
    "doc",
    "phrases",
    "unless_phrases",
    "concepts",
    "before",
    "after",
    "unless_before",
    "unless_after",
}
_KEYS |= {"sentence", "predicate", "concept", "match", "no_match"}

# A web or e-mail address, a bare domain with its path, or a Markdown link's target ("](#contact)"): words inside
# it name nothing.
_URL = re.compile(
    r"(?:https?://|mailto:|www\.)[^\s)\]>\"']+"
    r"|\]\([^\s)]+"
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|\b(?:[a-z0-9-]+\.)+(?:com|org|net|edu|gov|io|us|tv|uk|eu|de|fr|ai|app|me|co|info)\b(?:/[^\s)\]>\"']*)?",
    re.I,
)
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")
_COMPOUND = re.compile(r"\b([a-z]+)-(?:related|based)\s+$", re.I)
# "information about / on / regarding X": X names what the information is. "from / (contained) in X" names where it
# is held or came from, which says what it is only for a container of its own kind (_CONTAINERS).
_ABOUT = re.compile(
    r"\s+(?:about|on|regarding|relating to|related to"
    r"|(?P<held>from|in|(?:contained|stored|held|kept|included)\s+(?:in|on)))"
    r"\s+(?:(?:your|the|a|an|their|these|those|this|its|such)\s+)?",
    re.I,
)
# Containers whose contents are of the container's kind: what is in messages or posts is communication, in a profile
# profile data, in cookies, beacons or logs tracking and usage records. Not a place ("data in countries where we
# process it"), a person ("from your friends"), an address book ("in your contacts") or an identifier ("in emails":
# pd:EmailAddress is the address, not the mail): those name the source, not the kind.
_CONTAINERS = frozenset(
    expand(c)
    for c in (
        "pd:Communication",
        "pd:CommunicationsMetadata",
        "pd:Profile",
        "pd:Tracking",
        "pd:BrowserHistory",
        "pd:BrowsingBehaviour",
        "pd:ServiceConsumptionBehaviour",
    )
)
# "information such as X and Y", "data (e.g., X)": the list that follows a generic hit, up to the end of its clause
# ("including" is left out: "personal data, including contact information" names a part, not what the data is).
_LISTED = re.compile(r",?\s*[(\u2014\u2013-]?\s*(?:such as|like|e\.g\.,?|for example,?)\s+", re.I)
# How many sentences back "this information" looks for what it points to.
_ANTECEDENT_SENTENCES = 2
# Data named after a place-like preposition is an aside, not what "this information" points to ("grant this access
# in your device settings", "based on your country or region", "located outside your home country").
_ASIDE = re.compile(
    r"\b(?:in|on|to|into|onto|at|through|via|within|inside|across|outside(?:\s+of)?|based\s+on|according\s+to)\s+"
    r"(?:(?:your|the|their|a|an|its|our|this|that|his|her)\s+)?(?:[\w-]+\s+)?(?:[\w-]+,?\s+(?:and|or)\s+)?$",
    re.I,
)
# A data word naming a feature or a setting ("the smart name tags feature", "location settings") is a modifier, not
# the data pointed to.
_MODIFIER = re.compile(
    r"\s+(?:tags?|features?|settings?|options?|buttons?|tools?|permissions?|controls?|functions?|functionality)\b", re.I
)
# Sentence ends for pointing back: a full stop that ends no abbreviation ("e.g. IP", "i.e. the", "etc. and").
_BACK_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\bInc)[.!?](?=\s)|\n")
_LIST_END = re.compile(r"[.;:)\n]|\s(?:to|for|and other|or other|that|which|when|so|in order)\s")
_LIST_FILLER = frozenset(
    {"your", "the", "a", "an", "and", "or", "other", "their", "its", "his", "her", "any", "some", "our", "certain"}
    | {"e", "g", "etc"}
)
# Data words that are often verbs: before generic data they name it only as a heading ("Street Address Data").
_VERB_LIKE = frozenset({"handle", "contact", "address", "post", "message", "email", "e-mail", "text", "name", "record"})
# Concepts too broad to be what a list says: DPV's top-level groupings of personal data.
_TOO_BROAD = frozenset(
    expand(c)
    for c in (
        "dpv:Data",
        "dpv:PersonalData",
        "pd:External",
        "pd:Internal",
        "pd:Social",
        "pd:Tracking",
        "pd:Historical",
        "pd:Identifying",
        "dpv:IdentifyingPersonalData",
    )
)


@dataclass(frozen=True)
class MentionRule:
    id: str
    kind: str  # veto | concept
    lexicon: str  # data | purpose
    doc: str
    phrases: frozenset[str] = frozenset()  # lower-case surfaces it applies to (none: any)
    unless_phrases: frozenset[str] = frozenset()  # and those it never applies to
    concepts: frozenset[str] = frozenset()  # concept IRIs it applies to (none: any)
    before: re.Pattern[str] | None = None  # must match the text just before the hit (anchored at its end)
    after: re.Pattern[str] | None = None  # must match the text just after the hit (anchored at its start)
    unless_before: re.Pattern[str] | None = None
    unless_after: re.Pattern[str] | None = None
    sentence: re.Pattern[str] | None = None  # must be found in the hit's sentence
    predicate: str = ""  # a named test in PREDICATES (a concept rule's predicate gives the concept)
    concept: str = ""  # the IRI a concept rule gives
    match: tuple[str, ...] = ()  # texts with the hit marked [[…]] that it must fire on
    match_concepts: tuple[str, ...] = ()  # per match example, the concept it must give ("": the rule's concept)
    no_match: tuple[str, ...] = ()


@dataclass
class Context:
    """One segment's text and what the predicates read of it (computed when first asked)."""

    text: str
    offset: int  # absolute offset of text[0]
    lexicon: Lexicon  # the lexicon the hits come from
    names: Sequence[Hit] = ()  # proper-name party hits (the site's own name, named companies)
    others: Sequence[Hit] = ()  # the segment's hits of the same lexicon
    rules: Sequence[MentionRule] = ()  # the rules of that lexicon (set by MentionRules.classify)

    @cached_property
    def urls(self) -> list[tuple[int, int]]:
        return [(m.start() + self.offset, m.end() + self.offset) for m in _URL.finditer(self.text)]

    @cached_property
    def name_ends(self) -> set[int]:
        return {h.end for h in self.names}

    @cached_property
    def starts(self) -> dict[int, Hit]:
        return {h.start: h for h in self.others}

    @cached_property
    def ends(self) -> dict[int, Hit]:
        return {h.end: h for h in self.others}

    def before(self, h: Hit) -> str:
        s = h.start - self.offset
        return self.text[max(0, s - _REACH) : s]

    def after(self, h: Hit) -> str:
        e = h.end - self.offset
        return self.text[e : e + _REACH]

    def sentence(self, h: Hit) -> str:
        s, e = h.start - self.offset, h.end - self.offset
        starts = [m.end() for m in _SENTENCE_END.finditer(self.text, 0, s)]
        end = _SENTENCE_END.search(self.text, e)
        return self.text[starts[-1] if starts else 0 : end.start() if end else len(self.text)]


def _in_url(ctx: Context, h: Hit) -> bool:
    """The hit is part of a web or e-mail address ("help.meta.com/support")."""
    return any(a <= h.start and h.end <= b for a, b in ctx.urls)


def _name_before(ctx: Context, h: Hit) -> bool:
    """A company's name comes right before the hit ("Netflix content")."""
    s = h.start - ctx.offset
    return s > 0 and ctx.text[s - 1] == " " and h.start - 1 in ctx.name_ends


def _after_name(ctx: Context, h: Hit) -> bool:
    """A capitalised hit right after or inside a company's name is part of a product's name ("Facebook Ads",
    "Zoom Email", "Google Analytics")."""
    if any(n.start <= h.start and h.end <= n.end for n in ctx.names):
        return True
    return ctx.text[h.start - ctx.offset].isupper() and _name_before(ctx, h)


def _said_narrower(ctx: Context, h: Hit) -> str | None:
    """Generic information that the text narrows: "location-related information", "information about your device",
    "Precise Location Data" (a data word right before it)."""
    if h.entry.value[0] != _GENERIC:
        return None
    s = h.start - ctx.offset
    if s > 1 and ctx.text[s - 1] == " " and (prev := ctx.ends.get(h.start - 1)) is not None:
        word = ctx.text[prev.start - ctx.offset : prev.end - ctx.offset]
        # "Precise Location Data", "Message Data": a category's name; but not a verb before its object
        # ("we handle personal data") unless capitalised as a heading ("Street Address Data").
        if prev.entry.value[0] != _GENERIC and (word[0].isupper() or word.lower() not in _VERB_LIKE):
            return prev.entry.value[0]
    if m := _COMPOUND.search(ctx.before(h)):
        surface = ctx.text[h.start - ctx.offset : h.end - ctx.offset]
        for phrase in (f"{m.group(1)} {surface}", m.group(1)):
            e = ctx.lexicon.lookup(phrase)
            if e is not None and e.value[0] != _GENERIC:
                return e.value[0]
    if m := _ABOUT.match(ctx.after(h)):
        nxt = ctx.starts.get(h.end + m.end())
        if nxt is not None and nxt.entry.value[0] != _GENERIC:
            # "information about you in posts": what is in the posts is about the person, not the posts' kind
            held = m.group("held") and (" about " in h.entry.phrase.lower() or nxt.entry.value[0] not in _CONTAINERS)
            if not held:
                return nxt.entry.value[0]
    return None


def _listed_narrower(ctx: Context, h: Hit) -> str | None:
    """Generic information followed by what it includes ("information such as your device ID and user ID",
    "data (e.g., cookies)") takes the narrowest concept every listed item falls under, when the list names
    nothing else and that concept is not one of DPV's top groupings."""
    if h.entry.value[0] != _GENERIC or not (m := _LISTED.match(ctx.after(h))):
        return None
    start = h.end + m.end()
    rest = ctx.text[start - ctx.offset : start - ctx.offset + 2 * _REACH]
    stop = _LIST_END.search(rest)
    end = start + (stop.start() if stop else len(rest))
    items = [o for o in ctx.others if start <= o.start and o.end <= end]
    if not items or any(o.entry.value[0] == _GENERIC for o in items):
        return None
    uncovered = ctx.text[start - ctx.offset : end - ctx.offset]
    for o in reversed(items):
        uncovered = uncovered[: o.start - start] + " " + uncovered[o.end - start :]
    if [w for w in re.findall(r"[a-z]+", uncovered.lower()) if w not in _LIST_FILLER]:
        return None  # the list names something the lexicon does not know
    return _narrowest_common([o.entry.value[0] for o in items])


def _narrowest_common(concepts: Sequence[str]) -> str | None:
    """The narrowest concept all of ``concepts`` fall under (each is under itself), unless only DPV's top
    groupings are left."""
    vocab = vocabulary()
    common = frozenset.intersection(*(vocab.broader_closure(c) for c in concepts)) - _TOO_BROAD
    if not common:
        return None
    return max(sorted(common), key=lambda c: len(vocab.broader_closure(c)))


def _antecedent(ctx: Context, h: Hit) -> str | None:
    """ "this information", "such data": generic information pointing back takes what the text before it in its
    segment names (the same sentence's words before it, else the nearest earlier sentence, at most
    _ANTECEDENT_SENTENCES back, that names specific data), when all that data falls under one concept narrower
    than DPV's top groupings and no generic information stays beside it ("relevant data, including web
    addresses" may be what it points to). Data in an aside (_ASIDE) or naming a feature (_MODIFIER) does not
    count; a sentence naming no data is passed over; one that points back itself ("delete this data") names what
    it points to."""
    if h.entry.value[0] != _GENERIC:
        return None
    s = h.start - ctx.offset
    ends = [m.end() for m in _BACK_SENTENCE_END.finditer(ctx.text, 0, s)]
    bounds = [0, *ends, s]
    for i in range(len(bounds) - 1, max(0, len(bounds) - 2 - _ANTECEDENT_SENTENCES), -1):
        a, b = bounds[i - 1] + ctx.offset, bounds[i] + ctx.offset
        items = [
            o
            for o in ctx.others
            if a <= o.start and o.end <= b and not _ASIDE.search(ctx.before(o)) and not _MODIFIER.match(ctx.after(o))
        ]
        # (generic information the rules narrow counts: "information about your location. We keep this data")
        concepts = [c for c in (_decided(ctx, o) for o in items) if c is not None]
        if _GENERIC in concepts:
            return None  # "relevant data, including web addresses. This data…": it may point to the generic data
        if concepts:
            return _narrowest_common(concepts)
    return None


def _capitalised(ctx: Context, h: Hit) -> bool:
    """The hit starts with a capital letter (with a name's other words after it, a title: "Online Safety Act").
    ASCII only, like the [A-Z] of the rules' title expressions, so a title's first word and the rest agree."""
    first = ctx.text[h.start - ctx.offset]
    return first.isascii() and first.isupper()


# What may stand between "help you" and the verb it leads to: the helped party's coordination ("or your device"),
# then at most two of "to" and a few adverbs. Anything else ("with questions", "find friends and") is no verb
# right after it; "and" / "with" never pass, so a coordinated clause is never read as the help's purpose.
_TO_VERB = re.compile(
    r"\s+(?:or\s+(?:your|their|its)\s+[\w-]+\s+)?(?:(?:to|better|more|easily|quickly|also)\s+){0,2}", re.I
)


def _first_applying(ctx: Context, h: Hit) -> tuple[MentionRule, str | bool] | None:
    """The first of the context's rules that applies to the hit, and what it gives (a concept, or True: vetoed)."""
    surface = ctx.text[h.start - ctx.offset : h.end - ctx.offset].lower()
    for rule in ctx.rules:
        got = _applies(rule, ctx, h, surface)
        if got is not False:
            return rule, got
    return None


def _decided(ctx: Context, h: Hit) -> str | None:
    """The concept the mention rules give a hit (None: vetoed), as classify decides it."""
    if (first := _first_applying(ctx, h)) is None:
        return h.entry.value[0]
    return first[1] if isinstance(first[1], str) else None


def _next_in_clause(ctx: Context, h: Hit) -> str | None:
    """The concept of the verb right after the hit (a hit of the same lexicon, within two words): "help you or
    your device register" names the purpose of "register", not customer care. The verb's concept is the one the
    mention rules give it, not its lexicon concept."""
    later = sorted((o for o in ctx.others if h.end < o.start <= h.end + 40), key=lambda o: o.start)
    if not later:
        return None
    between = ctx.text[h.end - ctx.offset : later[0].start - ctx.offset]
    if not _TO_VERB.fullmatch(between):
        return None
    concept = _decided(ctx, later[0])
    return concept if concept != h.entry.value[0] else None


PREDICATES: dict[str, Callable[[Context, Hit], bool | str | None]] = {
    "in_url": _in_url,
    "after_name": _after_name,
    "name_before": _name_before,
    "said_narrower": _said_narrower,
    "listed_narrower": _listed_narrower,
    "antecedent": _antecedent,
    "capitalised": _capitalised,
    "next_in_clause": _next_in_clause,
}


def _applies(rule: MentionRule, ctx: Context, h: Hit, surface: str) -> bool | str:
    """False, or True (a veto applies), or the concept a concept rule gives."""
    if (rule.phrases and surface not in rule.phrases) or surface in rule.unless_phrases:
        return False
    if rule.concepts and h.entry.value[0] not in rule.concepts:
        return False
    if rule.before or rule.unless_before:
        before = ctx.before(h)
        if (rule.before and not rule.before.search(before)) or (
            rule.unless_before and rule.unless_before.search(before)
        ):
            return False
    if rule.after or rule.unless_after:
        after = ctx.after(h)
        if (rule.after and not rule.after.match(after)) or (rule.unless_after and rule.unless_after.match(after)):
            return False
    if rule.sentence and not rule.sentence.search(ctx.sentence(h)):
        return False
    got = PREDICATES[rule.predicate](ctx, h) if rule.predicate else True
    if not got:
        return False
    if rule.kind == "veto":
        return True
    concept = rule.concept or got
    return concept if isinstance(concept, str) else False


@dataclass(frozen=True)
class Decision:
    rule: str
    action: str  # vetoed | changed
    hit: Hit
    concept: str = ""


@dataclass(frozen=True)
class MentionRules:
    rules: tuple[MentionRule, ...]
    by_lexicon: dict[str, tuple[MentionRule, ...]] = field(init=False)

    def __post_init__(self) -> None:
        grouped = {k: tuple(r for r in self.rules if r.lexicon == k) for k in LEXICONS}
        object.__setattr__(self, "by_lexicon", grouped)

    def classify(self, kind: str, ctx: Context, hits: Iterable[Hit]) -> tuple[list[Hit], list[Decision]]:
        """The hits that stay (with their concept), and what each rule that applied did."""
        kept: list[Hit] = []
        done: list[Decision] = []
        rules = self.by_lexicon[kind]
        ctx = replace(ctx, rules=rules)
        for h in hits:
            if (first := _first_applying(ctx, h)) is None:
                kept.append(h)
                continue
            rule, got = first
            if isinstance(got, str):
                done.append(Decision(rule.id, "changed", h, got))
                entry = Entry(h.entry.phrase, (got, *h.entry.value[1:]), h.entry.case_sensitive)
                kept.append(Hit(h.start, h.end, entry))
            else:
                done.append(Decision(rule.id, "vetoed", h))
        return kept, done


def _pattern(raw: dict[str, Any], key: str, where: str) -> re.Pattern[str] | None:
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise DataFileError(f"{where}: {key} must be a non-empty regular expression")
    try:
        return re.compile(f"(?:{value})$" if key in ("before", "unless_before") else value, re.I)
    except re.error as e:
        raise DataFileError(f"{where}: {key} is not a valid regular expression ({e})") from e


def _strings(raw: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise DataFileError(f"{where}: {key} must be a list of non-empty strings")
    return tuple(value)


def _examples(raw: dict[str, Any], rule_kind: str, top: str, where: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The match examples and, per example, the concept it must give: an example is a marked text or a table
    {text = "...", concept = "dpv:..."} (a concept rule's only; "" when it gives none)."""
    value = raw.get("match", [])
    if not isinstance(value, list):
        raise DataFileError(f"{where}: match must be a list of texts or {{text, concept}} tables")
    texts: list[str] = []
    concepts: list[str] = []
    for item in value:
        if isinstance(item, dict):
            text, concept = item.get("text"), item.get("concept")
            if set(item) != {"text", "concept"} or not isinstance(text, str) or not isinstance(concept, str):
                raise DataFileError(f"{where}: a match table needs exactly the strings text and concept")
            if rule_kind != "concept":
                raise DataFileError(f"{where}: only a concept rule's example can name a concept ({text!r})")
            if not vocabulary().in_scheme(expand(concept), top):
                raise DataFileError(f"{where}: example concept {concept} is not a DPV concept under {top}")
            texts.append(text)
            concepts.append(expand(concept))
        elif isinstance(item, str) and item.strip():
            texts.append(item)
            concepts.append("")
        else:
            raise DataFileError(f"{where}: match must be a list of texts or {{text, concept}} tables")
    return tuple(texts), tuple(concepts)


def _rule(raw: dict[str, Any], where: str) -> MentionRule:
    if unknown := set(raw) - _KEYS:
        raise DataFileError(f"{where}: unknown keys {sorted(unknown)}")
    if not all(isinstance(raw.get(k), str) and raw[k].strip() for k in ("id", "kind", "lexicon", "doc")):
        raise DataFileError(f"{where}: id, kind, lexicon and doc are required strings")
    kind, lexicon = raw["kind"], raw["lexicon"]
    if kind not in KINDS or lexicon not in LEXICONS:
        raise DataFileError(f"{where}: kind must be one of {KINDS} and lexicon one of {tuple(LEXICONS)}")
    vocab, top = vocabulary(), LEXICONS[lexicon]
    concepts = [expand(c) for c in (*_strings(raw, "concepts", where), *([raw["concept"]] if "concept" in raw else []))]
    for c in concepts:
        if not vocab.in_scheme(c, top):
            raise DataFileError(f"{where}: {c} is not a DPV concept under {top}")
    predicate = raw.get("predicate", "")
    if predicate and predicate not in PREDICATES:
        raise DataFileError(f"{where}: predicate {predicate!r} is not one of {sorted(PREDICATES)}")
    concept = expand(raw["concept"]) if "concept" in raw else ""
    match, match_concepts = _examples(raw, kind, top, where)
    if kind == "concept" and not (concept or predicate):
        raise DataFileError(f"{where}: a concept rule needs a concept or a predicate that gives one")
    rule = MentionRule(
        id=raw["id"],
        kind=kind,
        lexicon=lexicon,
        doc=raw["doc"],
        phrases=frozenset(p.lower() for p in _strings(raw, "phrases", where)),
        unless_phrases=frozenset(p.lower() for p in _strings(raw, "unless_phrases", where)),
        concepts=frozenset(expand(c) for c in _strings(raw, "concepts", where)),
        before=_pattern(raw, "before", where),
        after=_pattern(raw, "after", where),
        unless_before=_pattern(raw, "unless_before", where),
        unless_after=_pattern(raw, "unless_after", where),
        sentence=_pattern(raw, "sentence", where),
        predicate=predicate,
        concept=concept,
        match=match,
        match_concepts=match_concepts,
        no_match=_strings(raw, "no_match", where),
    )
    if not rule.match or not all("[[" in t and "]]" in t for t in (*rule.match, *rule.no_match)):
        raise DataFileError(f"{where}: a rule needs examples (match) with the hit marked [[…]]")
    return rule


def load_mention_rules(path: Path = MENTION_RULES_FILE) -> MentionRules:
    """Read and validate the mention rules: unique ids, known kinds, DPV concepts, marked examples."""
    doc = read_toml(path)
    rules: list[MentionRule] = []
    for n, raw in enumerate(doc.get("rule", []), 1):
        rule = _rule(raw, f"{path.name}: rule {n} ({raw.get('id', '?')})")
        if any(r.id == rule.id for r in rules):
            raise DataFileError(f"{path.name}: rule {n}: id {rule.id!r} declared twice")
        rules.append(rule)
    return MentionRules(tuple(rules))


@cache
def mention_rules() -> MentionRules:
    return load_mention_rules()
