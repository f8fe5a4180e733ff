"""The transparency stage: runs after the other stages, on their checked results, whatever the backend."""

from __future__ import annotations

from pp_graph.comply.detect import detect_line
from pp_graph.comply.rules import rules
from pp_graph.errors import StageContractError
from pp_graph.extract.registry import Backend, stage
from pp_graph.model import Policy, Segment, SegmentExtraction


@stage("transparency", "GDPR Art. 13/14 transparency requirements addressed or denied (rules + earlier facts)")
def transparency(backend: Backend, policy: Policy, segs: list[Segment], results: list[SegmentExtraction]) -> None:
    asked = backend.requirements(policy, segs)  # the backend's own answer (a model), else the rules decide
    if asked is not None and len(asked) != len(segs):
        raise StageContractError(f"stage transparency: {len(asked)} outputs for {len(segs)} segments")
    ruleset = rules()
    for i, res in enumerate(results):
        for m in detect_line(ruleset, res) if asked is None else asked[i]:
            # The pipeline's contract for every span: equal to the policy text at its offsets, inside its line.
            if m.span.matches(policy.text) and res.segment.start <= m.span.start and m.span.end <= res.segment.end:
                res.requirements.append(m)
            else:
                res.reject("transparency")
