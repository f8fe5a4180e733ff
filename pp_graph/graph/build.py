"""PolicyExtraction → one named graph per policy, as triples of pyoxigraph terms (an rdflib Dataset on request).

Shape of a policy graph (named by the policy IRI):
  <policy> a pr2g:PrivacyPolicy ; pr2g:for <site> ; pr2g:hasDataPractice <practice> … ;
      ppg:detectedLanguage "en"^^xsd:language (the language its text looks written in) .
  <practice> a pr2g:DataCollectionUse | DataSharingDisclosure | DataStorageRetention | DataSecurityProtection
      | ppg:UserChoiceControl | ppg:PolicyChange | ppg:DoNotTrack | ppg:SpecificAudience ;
      ppg:practiceLabel "first-party-collection-use" ; ppg:negated false ; pr2g:text <text> ;
      ppg:trigger <mention> ; pr2g:data pd:… ; pr2g:purpose dpv:… ; ppg:collector/pr2g:sharer/pr2g:receiver <party> ;
      ppg:retentionPeriod … ; ppg:storagePlace … ; ppg:storageRegion "EEA" ; ppg:transferSafeguard "scc" ;
      ppg:choiceScope "marketing" ; ppg:choiceMechanism "opt-out" ; ppg:notificationMeans "email" ;
      ppg:honoursDoNotTrack false ; ppg:audience "children" ; ppg:ageLimit 13 ; ppg:relatedConcept <DPV term> ;
      pr2g:method … ; dpv:hasLegalBasis … ;
      ppg:inherited true ; ppg:inheritedFrom <text> (inherited: the lead-in or heading line of its trigger) ;
      ppg:evidence <mention> … ; prov:wasGeneratedBy <extraction activity> .
  <mention> a ppg:Mention ; ppg:start 10 ; ppg:end 23 ; ppg:anchorText "email address" ; ppg:denotes pd:EmailAddress .
  <text> a pr2g:Text ; pr2g:value "…line…" ; ppg:start ; ppg:end ; ppg:segmentIndex ; ppg:headingPath "A › B" .
With a learned model only (convert --model DIR), a class a classifier gave a whole line, which has no span:
  <policy> ppg:hasInferredClass <inferred> .
  <inferred> a ppg:InferredClass ; ppg:inferredKind "data" ; ppg:inferredClass pd:… ; ppg:onText <text> ;
      ppg:start ; ppg:end (the line) ; ppg:score 0.87 ; ppg:modelDigest "sha256:…" ; prov:wasGeneratedBy <run> .
It is not a ppg:Mention and never a ppg:denotes, so queries counting mentions leave it out.
Transparency requirements (GDPR Art. 13/14; pp_graph.comply), one statement per line, requirement and polarity:
  <policy> ppg:transparencyRules "1.0+digest" ; ppg:addressesRequirement ppg:gdpr-… ; ppg:hasTransparencyStatement <s> .
  <s> a ppg:TransparencyStatement ; ppg:requirement ppg:gdpr-… ; ppg:performed true ; ppg:evidence <mention> ;
      ppg:onText <text> ; ppg:transparencyRule "right-access/cue-2" ; prov:wasGeneratedBy <run> .
  (<run>: the rules' activity; for the LLM transparency stage ("…/llm" rules) an activity with the model and the
  stage's prompt version; for a user-trained layer its model's activity)
  (the requirement's DPV / eu-gdpr concepts are on ppg:gdpr-… in the ontology: ppg:relatedConcept)
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator

import pyoxigraph as ox
from rdflib import Dataset, URIRef
from rdflib.namespace import PROV as RDFLIB_PROV
from rdflib.namespace import RDF as RDFLIB_RDF

from pp_graph.comply.rules import rules as transparency_rules
from pp_graph.graph import namespaces as names
from pp_graph.graph.namespaces import bind_prefixes, policy_iri, site_iri, slug
from pp_graph.graph.terms import Triple, Vocabulary, boolean, integer, to_rdflib, typed
from pp_graph.model import (
    AttributeKind,
    PartyKind,
    PartyMention,
    PolicyExtraction,
    PracticeType,
    Provenance,
    RequirementMention,
    Role,
    SegmentExtraction,
    Span,
)
from pp_graph.vocab.dpv import compact

# The vocabularies as pyoxigraph terms (see graph/terms.py); rdflib's forms stay in graph/namespaces.py.
PR2G = Vocabulary(str(names.PR2G))
PPG = Vocabulary(str(names.PPG))
DPV = Vocabulary(str(names.DPV))
PROV = Vocabulary(str(RDFLIB_PROV))
RDF_TYPE = ox.NamedNode(str(RDFLIB_RDF.type))

PRACTICE_CLASS = {
    PracticeType.FIRST_PARTY_COLLECTION_USE: PR2G.DataCollectionUse,
    PracticeType.THIRD_PARTY_COLLECTION_USE: PR2G.DataCollectionUse,
    PracticeType.THIRD_PARTY_SHARING_DISCLOSURE: PR2G.DataSharingDisclosure,
    PracticeType.DATA_STORAGE_RETENTION_DELETION: PR2G.DataStorageRetention,
    PracticeType.DATA_SECURITY_PROTECTION: PR2G.DataSecurityProtection,
    PracticeType.USER_CHOICE_CONTROL: PPG.UserChoiceControl,
    PracticeType.POLICY_CHANGE: PPG.PolicyChange,
    PracticeType.DO_NOT_TRACK: PPG.DoNotTrack,
    PracticeType.SPECIFIC_AUDIENCE: PPG.SpecificAudience,
}

PARTY_ROLE_PROPERTY = {
    Role.DATA_COLLECTOR: PPG.collector,
    Role.DATA_PROVIDER: PR2G.provider,
    Role.DATA_SHARER: PR2G.sharer,
    Role.DATA_RECEIVER: PR2G.receiver,
    Role.DATA_HOLDER: PPG.holder,
    Role.DATA_PROTECTOR: PPG.protector,
}

ATTR_PROPERTY = {
    Role.STORAGE_PLACE: PPG.storagePlace,
    Role.METHOD: PR2G.method,
    Role.PROTECT_AGAINST: PR2G.protectAgainst,
}

# Statement details (data/rules/statements.toml): the detail's code, and its DPV concept as ppg:relatedConcept.
DETAIL_PROPERTY = {
    Role.CHOICE_SCOPE: PPG.choiceScope,
    Role.CHOICE_MECHANISM: PPG.choiceMechanism,
    Role.NOTIFICATION_MEANS: PPG.notificationMeans,
    Role.AUDIENCE: PPG.audience,
    Role.TRANSFER_SAFEGUARD: PPG.transferSafeguard,
}


def child(policy: ox.NamedNode, *parts: object) -> ox.NamedNode:
    """``namespaces.child`` for the builder's terms."""
    return ox.NamedNode(policy.value + "/" + "/".join(str(p) for p in parts))


def recipient_kind_iri(kind: str) -> ox.NamedNode:
    return ox.NamedNode(str(names.recipient_kind_iri(kind)))


def concept(iri: str) -> ox.NamedNode:
    return ox.NamedNode(iri)


class _Builder:
    # Each new triple is filed under its subject, and becomes its pyoxigraph Quad once, at the end (quads()): the
    # writers take the quads as they are (no sort, no conversion at write time), each subject's statements come
    # together, and the order is the build's, the same on every run (graph/serialize.py). An rdflib store cost
    # ~10x the time and memory per triple.
    def __init__(self, ex: PolicyExtraction, rule_ids: bool = False) -> None:
        self.ex = ex
        self.rule_ids = rule_ids  # write ppg:rule on practices and mentions (convert --rule-ids)
        p = ex.policy
        self.policy = ox.NamedNode(str(policy_iri(p.site, p.digest, p.valid_from)))
        # Subject → its (predicate, object) pairs in the order first added: a dict, so a repeat (the builder adds
        # a line's text node once per practice) is kept once. Quads are made only at the end, subject by subject
        # (quads()): a quad costs ~500 bytes, a pair ~200, and a set of (s, p, o) keys beside them kept every
        # object alive twice over (issue 28: a one-line policy of 1 MB made ~500k triples).
        self.by_subject: dict[ox.NamedNode, dict[tuple[ox.NamedNode, ox.NamedNode | ox.Literal], None]] = {}
        self.parties: dict[str, ox.NamedNode] = {}
        self.span_nodes: dict[tuple[int, int], ox.NamedNode] = {}  # first mention node of each span
        self.transparency_run: ox.NamedNode | None = None
        self.starts: list[int] = []  # the segments' start offsets, for line_of (filled when first needed)
        self.sharing: list[ox.NamedNode] = []  # sharing practices, and those with a receiver: ensure_receivers
        self.received: set[ox.NamedNode] = set()

    def add(self, s: ox.NamedNode, p: ox.NamedNode, o: ox.NamedNode | ox.Literal) -> None:
        pairs = self.by_subject.get(s)
        if pairs is None:
            self.by_subject[s] = {(p, o): None}
        else:
            pairs[(p, o)] = None  # a repeat keeps its first place

    def size(self) -> int:
        """The number of triples added (each once)."""
        return sum(map(len, self.by_subject.values()))

    def quads(self) -> Iterator[ox.Quad]:
        """The graph's quads by subject, then predicate, each in the order first met (JSON-LD writes a node once
        only if its predicates come together, too). Empties the builder as it goes: each subject's pairs are freed
        as its quads are made, so the two forms of the graph are never all in memory at once."""
        subjects, self.by_subject = self.by_subject, {}
        for s in list(subjects):
            by_predicate: dict[ox.NamedNode, list[ox.NamedNode | ox.Literal]] = {}
            for p, o in subjects.pop(s):
                by_predicate.setdefault(p, []).append(o)
            for p, objects in by_predicate.items():
                for o in objects:
                    yield ox.Quad(s, p, o, self.policy)

    def mention(self, span: Span, denotes: ox.NamedNode | None = None) -> ox.NamedNode:
        # One node per reading of a span: "legal obligations" may be both a purpose and a legal basis.
        parts = ["span", f"{span.start}-{span.end}"]
        if denotes is not None:
            parts.append(slug(compact(denotes.value)))
        m = child(self.policy, *parts)
        self.span_nodes.setdefault((span.start, span.end), m)
        self.add(m, RDF_TYPE, PPG.Mention)
        self.add(m, PPG.start, integer(span.start))
        self.add(m, PPG.end, integer(span.end))
        self.add(m, PPG.anchorText, ox.Literal(span.text))
        if denotes is not None:
            self.add(m, PPG.denotes, denotes)
        return m

    def rules(self, node: ox.NamedNode, rules: tuple[str, ...]) -> None:
        if self.rule_ids:
            for rid in rules:
                self.add(node, PPG.rule, ox.Literal(rid))

    def first_party(self) -> ox.NamedNode:
        return self.party_node("first", PR2G.FirstParty, self.ex.policy.site, "first_party")

    def party_node(self, key: str, cls: ox.NamedNode, name: str, rkind: str) -> ox.NamedNode:
        node = self.parties.get(key)
        if node is None:
            node = child(self.policy, "party", key)
            self.parties[key] = node
            self.add(node, RDF_TYPE, cls)
            self.add(node, PR2G.name, ox.Literal(name))
            self.add(node, PPG.recipientKind, recipient_kind_iri(rkind))
        return node

    def party(self, m: PartyMention) -> ox.NamedNode:
        if m.kind == PartyKind.FIRST_PARTY:
            node = self.first_party()
        elif m.kind == PartyKind.USER:
            node = self.party_node("user", PR2G.User, "user", "first_party")
        else:
            node = self.party_node("third-" + slug(m.name), PR2G.ThirdParty, m.name, m.recipient_kind.value)
        mention = self.mention(m.span)
        self.add(node, PPG.evidence, mention)
        self.rules(mention, m.rules)
        return node

    def build(self) -> ox.NamedNode:
        ex, pol = self.ex, self.policy
        site = ox.NamedNode(str(site_iri(ex.policy.site)))
        self.add(site, RDF_TYPE, PR2G.Website)
        self.add(site, PR2G.hasDomain, ox.Literal(ex.policy.site))
        self.add(pol, RDF_TYPE, PR2G.PrivacyPolicy)
        self.add(pol, PR2G["for"], site)
        self.add(pol, PPG.contentDigest, ox.Literal(ex.policy.digest))
        self.add(pol, PPG.sourceName, ox.Literal(ex.policy.source_name))
        self.add(pol, PPG.mediaType, ox.Literal(ex.policy.media_type))
        self.add(pol, PPG.characterCount, integer(len(ex.policy.text)))
        if ex.policy.valid_from:
            self.add(pol, PPG.validFrom, typed(ex.policy.valid_from, "dateTime"))
        if ex.language is not None:
            self.add(pol, PPG.detectedLanguage, typed(ex.language.code, "language"))
        self.first_party()

        prov = ex.provenance
        run = child(pol, "extraction", slug(f"{prov.extractor}-{prov.model}-{prov.prompt_version}"))
        self.add(run, RDF_TYPE, PROV.Activity)
        self.add(run, PPG.extractor, ox.Literal(prov.extractor))
        self.add(run, PPG.model, ox.Literal(prov.model))
        self.add(run, PPG.promptVersion, ox.Literal(prov.prompt_version))
        if prov.vocabulary:
            self.add(run, PPG.vocabularyVersion, ox.Literal(prov.vocabulary))
        if prov.software:
            self.add(run, PPG.softwareVersion, ox.Literal(prov.software))
        if prov.segmenter:
            self.add(run, PPG.segmenterVersion, ox.Literal(prov.segmenter))
        self.add(run, PROV.used, pol)

        # Only when the stage ran: a graph without the marker is one comply asks to convert again.
        self.transparency_run = self.transparency_activity() if "transparency" in ex.stages else None
        for res in ex.results:
            self.segment(res, run)
            for i, m in enumerate(res.requirements):  # after the line's other mentions: their nodes are reused
                self.requirement(res, i, m)
        return pol

    def transparency_activity(self) -> ox.NamedNode:
        """The rule set the transparency statements came from; its version on the policy marks graphs that have them
        (a graph converted before the transparency stage has none: comply asks to reconvert, never says 'missing')."""
        version = transparency_rules().version
        run = child(self.policy, "extraction", slug(f"transparency-{version}"))
        self.add(self.policy, PPG.transparencyRules, ox.Literal(version))
        self.add(run, RDF_TYPE, PROV.Activity)
        self.add(run, PPG.extractor, ox.Literal("transparency-rules"))
        self.add(run, PPG.model, ox.Literal(version))
        self.add(run, PPG.promptVersion, ox.Literal(version))
        self.add(run, PROV.used, self.policy)
        return run

    def requirement(self, res: SegmentExtraction, i: int, m: RequirementMention) -> None:
        assert self.transparency_run is not None  # statements exist only when the transparency stage ran
        pol, req = self.policy, PPG["gdpr-" + m.requirement]
        node = child(pol, "transparency", f"{res.segment.index}-{i}")
        self.add(pol, PPG.addressesRequirement, req)
        self.add(pol, PPG.hasTransparencyStatement, node)
        self.add(node, RDF_TYPE, PPG.TransparencyStatement)
        self.add(node, PPG.requirement, req)
        self.add(node, PPG.performed, boolean(m.performed))
        # The span as the line's other stages read it, if they did (no second, concept-less node for it).
        self.add(node, PPG.evidence, self.span_nodes.get((m.span.start, m.span.end)) or self.mention(m.span))
        self.add(node, PPG.onText, self.text_node(res))
        self.add(node, PPG.transparencyRule, ox.Literal(m.rule))
        if m.model:  # found by a user-trained model: its own activity, its score
            self.add(node, PPG.score, typed(f"{m.score or 0.0:.4f}", "decimal"))
            self.add(node, PPG.modelDigest, ox.Literal(m.model))
            self.add(node, PROV.wasGeneratedBy, self.learned_run(m.model))
        elif m.source is not None:  # found by a language model: the model and the stage's prompt version
            self.add(node, PROV.wasGeneratedBy, self.asked_run(m.source))
        else:
            self.add(node, PROV.wasGeneratedBy, self.transparency_run)

    def asked_run(self, prov: Provenance) -> ox.NamedNode:
        name = f"transparency-{prov.extractor}-{prov.model}-{prov.prompt_version}"
        run = child(self.policy, "extraction", slug(name))
        self.add(run, RDF_TYPE, PROV.Activity)
        self.add(run, PPG.extractor, ox.Literal(prov.extractor))
        self.add(run, PPG.model, ox.Literal(prov.model))
        self.add(run, PPG.promptVersion, ox.Literal(prov.prompt_version))
        self.add(run, PROV.used, self.policy)
        return run

    def learned_run(self, digest: str) -> ox.NamedNode:
        run = child(self.policy, "learned", slug(digest))
        self.add(run, RDF_TYPE, PROV.Activity)
        self.add(run, PPG.extractor, ox.Literal("learned"))
        self.add(run, PPG.model, ox.Literal(digest))
        self.add(run, PPG.promptVersion, ox.Literal(digest))
        return run

    def segment(self, res: SegmentExtraction, run: ox.NamedNode) -> None:
        seg, pol = res.segment, self.policy
        # Statements that hold for the whole policy, wherever they appear.
        for a in res.attributes:
            if a.kind == AttributeKind.USER_RIGHT and a.concept:
                self.add(pol, PPG.disclosesRight, concept(a.concept))
                self.add(pol, PPG.evidence, self.mention(a.span, concept(a.concept)))
            elif a.kind == AttributeKind.LEGAL_BASIS and a.concept:
                self.add(pol, PPG.statesLegalBasis, concept(a.concept))
                self.add(pol, PPG.evidence, self.mention(a.span, concept(a.concept)))
        if res.inferred:
            self.inferred(res)
        if not res.practices:
            return
        text = self.text_node(res)
        for pi, pr in enumerate(res.practices):
            node = child(pol, "practice", f"{seg.index}-{pi}")
            self.add(pol, PR2G.hasDataPractice, node)
            self.add(node, RDF_TYPE, PRACTICE_CLASS[pr.type])
            if pr.type == PracticeType.THIRD_PARTY_SHARING_DISCLOSURE:
                self.sharing.append(node)
            self.add(node, PPG.practiceLabel, ox.Literal(pr.type.value))
            self.add(node, PPG.negated, boolean(pr.negated))
            self.add(node, PPG.inherited, boolean(pr.inherited))
            self.add(node, PR2G.text, text)
            self.add(node, PPG.trigger, self.mention(pr.span))
            if pr.inherited and (source := self.line_of(pr.span)) is not None and source is not res:
                self.add(node, PPG.inheritedFrom, self.text_node(source))  # the lead-in or heading line
            self.add(node, PROV.wasGeneratedBy, run)
            self.rules(node, pr.rules)
            if pr.type == PracticeType.DO_NOT_TRACK:  # said positively beside ppg:negated, so a query need not invert
                self.add(node, PPG.honoursDoNotTrack, boolean(not pr.negated))
            for r in res.relations:
                if r.practice == pi:
                    self.relation(node, res, r.role, r.entity)

    def line_of(self, span: Span) -> SegmentExtraction | None:
        """The segment whose text holds ``span`` (an inherited practice's trigger, in its lead-in or heading)."""
        if not self.starts:
            self.starts = [r.segment.start for r in self.ex.results]
        i = bisect.bisect_right(self.starts, span.start) - 1
        res = self.ex.results[i] if i >= 0 else None
        return res if res is not None and span.end <= res.segment.end else None

    def text_node(self, res: SegmentExtraction) -> ox.NamedNode:
        seg = res.segment
        text = child(self.policy, "text", seg.index)
        self.add(text, RDF_TYPE, PR2G.Text)
        self.add(text, PR2G.value, ox.Literal(seg.text))
        self.add(text, PPG.start, integer(seg.start))
        self.add(text, PPG.end, integer(seg.end))
        self.add(text, PPG.segmentIndex, integer(seg.index))
        if seg.heading_path:
            self.add(text, PPG.headingPath, ox.Literal(" › ".join(seg.heading_path)))
        return text

    def inferred(self, res: SegmentExtraction) -> None:
        """Classifier decisions on a whole line: evidence of their own kind, beside (not among) the mentions."""
        seg, text = res.segment, self.text_node(res)
        for c in res.inferred:
            cls = PRACTICE_CLASS[PracticeType(c.concept)] if c.kind == "practice" else concept(c.concept)
            node = child(self.policy, "inferred", f"{seg.index}-{c.kind}-{slug(compact(c.concept))}")
            run = self.learned_run(c.model)
            self.add(self.policy, PPG.hasInferredClass, node)
            self.add(node, RDF_TYPE, PPG.InferredClass)
            self.add(node, PPG.inferredKind, ox.Literal(c.kind))
            self.add(node, PPG.inferredClass, cls)
            self.add(node, PPG.onText, text)
            self.add(node, PPG.start, integer(seg.start))
            self.add(node, PPG.end, integer(seg.end))
            self.add(node, PPG.score, typed(f"{c.score:.4f}", "decimal"))
            self.add(node, PPG.modelDigest, ox.Literal(c.model))
            self.add(node, PROV.wasGeneratedBy, run)

    def relation(self, node: ox.NamedNode, res: SegmentExtraction, role: Role, ref: str) -> None:
        kind, _, idx = ref.partition(":")
        if kind == "party":
            target = self.first_party() if idx == "first" else self.party(res.parties[int(idx)])
            self.add(node, PARTY_ROLE_PROPERTY[role], target)
            if role == Role.DATA_RECEIVER:
                self.received.add(node)
            if role == Role.DATA_PROVIDER and target == self.parties.get("user"):
                self.add(node, PR2G.user, target)
        elif kind == "data":
            d = res.data[int(idx)]
            assert d.concept is not None  # the pipeline drops unresolved spans
            self.add(node, PR2G.data, concept(d.concept))
            self.add(node, PPG.evidence, mention := self.mention(d.span, concept(d.concept)))
            self.rules(mention, d.rules)
        elif kind == "purpose":
            p = res.purposes[int(idx)]
            assert p.concept is not None
            self.add(node, PR2G.purpose, concept(p.concept))
            self.add(node, PPG.evidence, mention := self.mention(p.span, concept(p.concept)))
            self.rules(mention, p.rules)
        else:
            a = res.attributes[int(idx)]
            if role == Role.LEGAL_BASIS and a.concept:
                self.add(node, DPV.hasLegalBasis, concept(a.concept))
            elif role == Role.RETENTION_PERIOD:
                if a.value:  # normalised to an xsd:duration when the text gives a number and a unit
                    self.add(node, PPG.retentionPeriod, typed(a.value, "duration"))
                self.add(node, PPG.retentionText, ox.Literal(a.span.text))
            elif role in ATTR_PROPERTY:
                self.add(node, ATTR_PROPERTY[role], ox.Literal(a.span.text))
                if role == Role.STORAGE_PLACE and a.value:  # the place's region code (statements.toml places)
                    self.add(node, PPG.storageRegion, ox.Literal(a.value))
            elif role == Role.AGE_LIMIT and a.value:
                self.add(node, PPG.ageLimit, integer(int(a.value)))
            elif role in DETAIL_PROPERTY and a.value:
                self.add(node, DETAIL_PROPERTY[role], ox.Literal(a.value))
                if a.concept:
                    self.add(node, PPG.relatedConcept, concept(a.concept))
            # a detail's concept (an opt-out, a safeguard) is no mention's class: it is on the practice
            denotes = concept(a.concept) if a.concept and role not in DETAIL_PROPERTY else None
            self.add(node, PPG.evidence, self.mention(a.span, denotes))

    def ensure_receivers(self) -> None:
        """A sharing practice whose text names no recipient gets the policy's 'unspecified third party'.

        'We sell your data' implies a recipient; an explicit, marked node keeps that honest and queryable.
        """
        unspecified = child(self.policy, "party", "third-unspecified")
        for practice in sorted(set(self.sharing) - self.received, key=lambda n: n.value):
            self.add(unspecified, RDF_TYPE, PR2G.ThirdParty)
            self.add(unspecified, PR2G.name, ox.Literal("unspecified third party"))
            self.add(unspecified, PPG.recipientKind, recipient_kind_iri("unknown"))
            self.add(unspecified, PPG.implicit, boolean(True))
            self.add(practice, PR2G.receiver, unspecified)


def policy_quads(ex: PolicyExtraction, rule_ids: bool = False) -> tuple[ox.NamedNode, list[ox.Quad]]:
    """One policy's named graph: its name and its quads (pyoxigraph), each subject's together, in the order built
    (the same on every run: what the writers write). ``rule_ids`` adds the ppg:rule of each practice and mention
    (the ids of the extractor rules that made, changed or linked it)."""
    name, _, quads = policy_stream(ex, rule_ids)
    return name, list(quads)


def policy_stream(ex: PolicyExtraction, rule_ids: bool = False) -> tuple[ox.NamedNode, int, Iterator[ox.Quad]]:
    """``policy_quads`` as its name, its number of triples and its quads made one subject at a time, as they are
    read: a writer given them never holds the whole graph as quads (~500 bytes a triple), and the extraction is
    not kept by them (the caller may drop it before writing)."""
    b = _Builder(ex, rule_ids)
    name = b.build()
    b.ensure_receivers()
    del b.ex  # the build is done: the quads are made from the builder's pairs alone
    return name, b.size(), b.quads()


def build_graph(ex: PolicyExtraction, ds: Dataset | None = None) -> tuple[Dataset, URIRef]:
    """Add one policy's named graph to ``ds`` (a new rdflib Dataset by default); returns it and the graph name."""
    name, quads = policy_quads(ex)
    return to_dataset(name, triples_of(quads), ds), URIRef(name.value)


def triples_of(quads: Iterable[ox.Quad]) -> Iterator[Triple]:
    """The (subject, predicate, object) of each quad: the builder makes no RDF-star triple terms."""
    for q in quads:
        yield q.subject, q.predicate, q.object  # type: ignore[misc]


def to_dataset(name: ox.NamedNode | URIRef, triples: Iterable[Triple], ds: Dataset | None = None) -> Dataset:
    """The triples (pyoxigraph terms) as the named graph ``name`` of an rdflib Dataset with the project's prefixes."""
    if ds is None:
        ds = Dataset()
        bind_prefixes(ds)
    g = ds.graph(URIRef(name.value) if isinstance(name, ox.NamedNode) else name)
    g.addN((to_rdflib(s), to_rdflib(p), to_rdflib(o), g) for s, p, o in triples)
    return ds
