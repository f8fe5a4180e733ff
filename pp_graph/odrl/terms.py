"""The vocabularies an ODRL evaluation speaks: ODRL 2.2, the FORCE Compliance Report Model, our extensions."""

from __future__ import annotations

from rdflib import Namespace, URIRef

from pp_graph.graph.namespaces import ODRL, PPG

REPORT = Namespace("https://w3id.org/force/compliance-report#")
SOTW = Namespace("https://w3id.org/force/sotw#")  # the model's newer request form (sotw:EvaluationRequest)
SKOS_EXACT = URIRef("http://www.w3.org/2004/02/skos/core#exactMatch")
SKOS_BROADER = URIRef("http://www.w3.org/2004/02/skos/core#broader")

# Satisfaction states: FORCE's two plus ours for what this evaluator cannot decide (never read as Satisfied).
SATISFIED = "Satisfied"
UNSATISFIED = "Unsatisfied"
UNSUPPORTED = "Unsupported"  # an operator, operand or datatype this evaluator does not implement
UNDETERMINED = "Undetermined"  # supported, but the request and the state of the world lack the value
OPEN_STATES = (UNSUPPORTED, UNDETERMINED)

# Activation states: FORCE's two plus ours when a premise could not be decided.
ACTIVE = "Active"
INACTIVE = "Inactive"
ACTIVATION_UNDETERMINED = "Undetermined"

PERMITTED = "permitted"
PROHIBITED = "prohibited"
NOT_PERMITTED = "not-permitted"
VERDICT_UNDETERMINED = "undetermined"
NOT_APPLICABLE = "not-applicable"

POLICY_CLASSES = (ODRL.Policy, ODRL.Set, ODRL.Offer, ODRL.Agreement, ODRL.Privacy, ODRL.Ticket, ODRL.Assertion)
LOGICAL = (ODRL["and"], ODRL["or"], ODRL.xone, ODRL.andSequence)
RULE_KINDS = {ODRL.permission: "Permission", ODRL.prohibition: "Prohibition", ODRL.obligation: "Duty"}
INHERITED = (ODRL.target, ODRL.assignee, ODRL.assigner, ODRL.action)  # compact policy: policy-level, on every rule


def state_iri(state: str) -> URIRef:
    """FORCE's IRI for its own states, ours (ppg:) for the extensions."""
    if state in OPEN_STATES:
        return PPG[state]
    return REPORT[state]


def state_name(iri: object) -> str:
    s = str(iri)
    for ns in (str(REPORT), str(PPG)):
        if s.startswith(ns):
            return s[len(ns) :]
    return s
