"""Typed extraction results → Pr2Graph triples (deterministic IRIs, provenance, one named graph per policy)."""
