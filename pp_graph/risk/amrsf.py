"""AMRSF, the risk formula of GuardianAgent (REFERENCE.md §5), as pure functions over the tables.

R = min(1, L · S_eff · M_T),  S_eff = min(1, S_data · M_tr · M_p · M_b);
the decision compares R with the thresholds of the most sensitive category's tier, and inside the
transform band z = (R − τa)/(τd − τa) picks the initial anonymization level ℓ0 by quartile (L1–L4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pp_graph.risk.tables import RiskTables, Thresholds

ALLOW, TRANSFORM, DENY = "allow", "transform", "deny"


@dataclass(frozen=True)
class Factors:
    """The raw factor values before they become multipliers."""

    s_data: float  # max DW over the action's categories (s_none without any)
    tr: float  # transmission risk
    p: float  # purpose legitimacy score
    m_b: float  # contextual basis multiplier
    m_t: float  # transparency multiplier
    likelihood: float  # L


@dataclass(frozen=True)
class Score:
    s_data: float
    m_tr: float
    m_p: float
    m_b: float
    s_eff: float
    m_t: float
    likelihood: float
    risk: float


def score(f: Factors, t: RiskTables) -> Score:
    pr = t.params
    m_tr = pr["m_tr_intercept"] + pr["m_tr_slope"] * f.tr
    m_p = pr["m_p_intercept"] + pr["m_p_slope"] * f.p
    s_eff = min(1.0, f.s_data * m_tr * m_p * f.m_b)
    risk = min(1.0, f.likelihood * s_eff * f.m_t)
    return Score(f.s_data, m_tr, m_p, f.m_b, s_eff, f.m_t, f.likelihood, risk)


def decide(risk: float, th: Thresholds) -> str:
    """Allow below τa, deny from τd, transform between."""
    if risk < th.allow:
        return ALLOW
    if risk >= th.deny:
        return DENY
    return TRANSFORM


def band_position(risk: float, th: Thresholds) -> float:
    """z = (R − τa)/(τd − τa): 0 at the allow ceiling, 1 at the deny floor (unclamped)."""
    return (risk - th.allow) / (th.deny - th.allow)


def initial_level(z: float) -> int:
    """ℓ0(z) by quartile of the clamped band position: 1…4 (L5 is reached only by escalation)."""
    zc = min(1.0, max(0.0, z))
    return min(4, 1 + int(zc * 4))


def transparency(credits: Iterable[str], t: RiskTables, has_policy: bool) -> float:
    """M_T = base − Σ credits, floored; base alone when there is no policy evidence."""
    tt = t.transparency
    if not has_policy:
        return tt["base"]
    return max(tt["floor"], tt["base"] - sum(tt[c] for c in set(credits)))
