"""The policy-conditioned risk controller (AMRSF) fed by the policy graph.

``RiskEngine(store).decide(ActionContext(...)) -> Decision``; tables in ``data/risk/``, SPARQL in
``queries/risk-*.rq``. Layers: tables → amrsf (formula) and signals (graph) and detect (text) → engine.
"""

from pp_graph.risk.engine import ActionContext, Decision, RiskEngine
from pp_graph.risk.llm import LikelihoodModel, OpenAILikelihoodModel

__all__ = ["ActionContext", "Decision", "LikelihoodModel", "OpenAILikelihoodModel", "RiskEngine"]
