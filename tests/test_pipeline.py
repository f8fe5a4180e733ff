"""The pipeline enforces the stage contracts whatever the backend returns."""

from __future__ import annotations

import pytest

from pp_graph.errors import ConfigError
from pp_graph.extract.offline.backend import OfflineBackend
from pp_graph.extract.pipeline import StageContractError, extract
from pp_graph.extract.registry import STAGES, get_backend
from pp_graph.load.sources import policy_from_text
from pp_graph.model import Policy, Relation, Role, Segment, SegmentExtraction, Span

TEXT = "We collect your email address and your name for advertising.\nNothing here.\n"


class LyingBackend(OfflineBackend):
    """Offline results plus the mistakes an LLM makes: invented spans, unknown labels, bad ids."""

    def data_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]:
        out = super().data_spans(policy, segments)
        out[0] = [*out[0], Span(0, 5, "Hello"), Span(3, 10, policy.text[3:10] + "x")]
        return out

    def data_classes(self, policy, segments, spans):  # type: ignore[no-untyped-def]
        out = super().data_classes(policy, segments, spans)
        out[0] = [*out[0][:-1], "https://w3id.org/dpv/pd#NotAConcept"]  # last valid span gets a bad label
        return out

    def purpose_classes(self, policy, segments, spans):  # type: ignore[no-untyped-def]
        out = super().purpose_classes(policy, segments, spans)
        out[0] = [*out[0], "https://w3id.org/dpv#Marketing"]  # one label too many
        return out

    def relations(self, policy: Policy, results: list[SegmentExtraction]) -> list[list[Relation]]:
        out = super().relations(policy, results)
        out[0] = [
            *out[0],
            Relation(0, Role.DATA_COLLECTED, "data:99"),
            Relation(7, Role.DATA_COLLECTED, "data:0"),
            Relation(0, Role.DATA_RECEIVER, "data:0"),
        ]
        return out


def test_stages_registered_in_pipeline_order() -> None:
    assert list(STAGES) == ["data", "purposes", "parties", "practices", "attributes", "relations", "transparency"]


def test_unknown_backend_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="unknown backend 'nope'"):
        get_backend("nope")


def test_ungrounded_and_unknown_items_are_rejected_and_counted() -> None:
    policy = policy_from_text(TEXT, "example.com")
    honest = extract(policy, OfflineBackend())
    ex = extract(policy, LyingBackend())
    ex.check_grounding()
    r, h = ex.results[0], honest.results[0]
    assert r.rejected["data_spans"] == 2  # "Hello" is not at 0-5; the other span's text differs
    assert r.rejected["data_classes"] == 1  # only the bad label is lost
    assert [d.concept for d in r.data] == [d.concept for d in h.data][:-1]
    assert r.rejected["purpose_classes"] == 1 and r.purposes == h.purposes
    assert r.rejected["relations"] == 3
    assert set(r.relations) <= set(h.relations)


def test_misaligned_backend_output_is_a_contract_error() -> None:
    class Short(OfflineBackend):
        def parties(self, policy, segments):  # type: ignore[no-untyped-def]
            return super().parties(policy, segments)[:-1]

    with pytest.raises(StageContractError, match="parties"):
        extract(policy_from_text(TEXT, "example.com"), Short())
