"""AMRSF tables and formula: coverage of DPV by inheritance, validation at load, monotonicity."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pp_graph.errors import DataFileError
from pp_graph.risk import amrsf
from pp_graph.risk.tables import RISK_DIR, TIERS, Thresholds, default_tables, load_tables
from pp_graph.vocab.dpv import PERSONAL_DATA, PURPOSE, expand

T = default_tables()
PD = "https://w3id.org/dpv/pd#"


def test_every_category_and_purpose_gets_a_weight_and_tier() -> None:
    cats = T.vocab.members(PERSONAL_DATA)
    purposes = T.vocab.members(PURPOSE)
    assert len(cats) > 200 and len(purposes) > 130
    for c in cats:
        assert 0.0 < T.data_weight.get(c) <= 1.0, c
        assert T.tier(c) in TIERS, c
        assert T.data_weight.source(c) is not None, c
    for p in purposes:
        assert 0.0 < T.purpose_weight.get(p) <= 1.0, p


@pytest.mark.parametrize(
    ("term", "weight", "tier"),
    [
        ("pd:Password", 1.00, "critical"),  # inherited from pd:Authenticating (credentials)
        ("pd:CreditCardNumber", 0.95, "critical"),  # from pd:Financial
        ("pd:EmailAddressWork", 0.55, "moderate"),  # from pd:EmailAddress
        ("pd:GPSCoordinate", 0.85, "high"),
        ("pd:BirthCountry", 0.75, "high"),  # poly-hierarchy: max(pd:Country 0.35, pd:BirthPlace → pd:Location 0.75)
        ("pd:Street", 0.65, "high"),  # under pd:PhysicalAddress
        ("pd:Religion", 0.95, "critical"),  # GDPR Art. 9 via dpv:SpecialCategoryPersonalData
        ("pd:Language", 0.10, "low"),
        ("pd:Age", 0.30, "moderate"),  # no weighted ancestor but the root: the paper's unknown category
    ],
)
def test_category_inheritance(term: str, weight: float, tier: str) -> None:
    iri = expand(term)
    assert T.data_weight.get(iri) == weight and T.tier(iri) == tier


@pytest.mark.parametrize(
    ("term", "p"),
    [
        ("dpv:TargetedAdvertising", 0.80),
        ("dpv:DirectMarketing", 0.65),
        ("dpv:ServicePersonalisation", 0.35),
        ("dpv:FraudPreventionAndDetection", 0.15),
        ("dpv:ServiceUsageAnalytics", 0.45),
        ("dpv:Purpose", 0.50),
        ("dpv:SellDataToThirdParties", 0.80),
        ("dpv:Profiling", 0.75),
    ],
)
def test_purpose_inheritance(term: str, p: float) -> None:
    assert T.purpose_weight.get(expand(term)) == p


def test_paper_constants() -> None:
    assert T.recipient_tr == {
        "first_party": 0.2,
        "service_provider": 0.4,
        "analytics": 0.5,
        "government": 0.5,
        "social_media": 0.6,
        "unknown": 0.7,
        "advertising": 0.8,
        "data_broker": 0.9,
    }
    assert T.thresholds["paper"]["critical"] == Thresholds(0.10, 0.55)
    assert T.thresholds["code"]["moderate"] == Thresholds(0.30, 0.70)
    assert T.basis_mb["paste"] == 0.6 and T.basis_mb["background"] == 1.2
    assert amrsf.transparency([], T, has_policy=False) == 1.3
    assert amrsf.transparency(
        ["substantial_text", "covers_category", "covers_purpose", "legal_basis", "user_rights", "retention"],
        T,
        has_policy=True,
    ) == pytest.approx(0.8)


def _broken(tmp_path: Path, name: str, old: str, new: str) -> Path:
    d = tmp_path / "risk"
    shutil.copytree(RISK_DIR, d)
    p = d / name
    text = p.read_text(encoding="utf-8")
    assert old in text
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return d


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        ("data_weights.tsv", "pd:EmailAddress\t0.55", "pd:EmailAdress\t0.55", "not a DPV concept"),
        ("data_weights.tsv", "pd:EmailAddress\t0.55", "pd:EmailAddress\t1.55", "outside"),
        ("data_tiers.tsv", "pd:EmailAddress\tmoderate", "pd:EmailAddress\tmedium", "tier"),
        ("purpose_weights.tsv", "dpv:Marketing\t0.65", "pd:EmailAddress\t0.65", "not a DPV concept"),
        ("recipients.tsv", "advertising\t0.80", "adverts\t0.80", "not one of"),
        ("thresholds.tsv", "paper\tcritical\t0.10\t0.55", "paper\tcritical\t0.60\t0.55", "below"),
        ("likelihood.tsv", "exact\t0.10", "exactly\t0.10", "level"),
        ("params.tsv", "fast_u\t0.25", "fast_u\tlow", "not a number"),
    ],
)
def test_tables_are_validated(tmp_path: Path, name: str, old: str, new: str, message: str) -> None:
    with pytest.raises(DataFileError, match=message):
        load_tables(_broken(tmp_path, name, old, new))


# ---- properties ----

unit = st.floats(0.0, 1.0, allow_nan=False)
factors = st.builds(
    amrsf.Factors,
    s_data=unit,
    tr=unit,
    p=unit,
    m_b=st.sampled_from([0.6, 1.0, 1.2]),
    m_t=st.floats(0.8, 1.3),
    likelihood=unit,
)
FIELDS = ("s_data", "tr", "p", "m_b", "m_t", "likelihood")


@settings(max_examples=300, deadline=None)
@given(f=factors, which=st.sampled_from(FIELDS), bump=st.floats(0.0, 0.5))
def test_risk_never_decreases_when_a_factor_worsens(f: amrsf.Factors, which: str, bump: float) -> None:
    hi = {"m_b": 1.2, "m_t": 1.3}.get(which, 1.0)
    worse = amrsf.Factors(**{**f.__dict__, which: min(hi, getattr(f, which) + bump)})
    assert amrsf.score(worse, T).risk >= amrsf.score(f, T).risk - 1e-12


ORDER = {amrsf.ALLOW: 0, amrsf.TRANSFORM: 1, amrsf.DENY: 2}


@settings(max_examples=300, deadline=None)
@given(a=unit, b=unit, tier=st.sampled_from(TIERS), profile=st.sampled_from(["paper", "code"]))
def test_decisions_and_levels_are_monotone_in_r(a: float, b: float, tier: str, profile: str) -> None:
    lo, hi = sorted((a, b))
    th = T.thresholds[profile][tier]
    assert ORDER[amrsf.decide(lo, th)] <= ORDER[amrsf.decide(hi, th)]
    assert amrsf.initial_level(amrsf.band_position(lo, th)) <= amrsf.initial_level(amrsf.band_position(hi, th))


@settings(max_examples=200, deadline=None)
@given(f=factors, tier=st.sampled_from(TIERS))
def test_decision_regions(f: amrsf.Factors, tier: str) -> None:
    s = amrsf.score(f, T)
    th = T.thresholds["paper"][tier]
    assert 0.0 <= s.risk <= 1.0 and 0.0 <= s.s_eff <= 1.0
    d = amrsf.decide(s.risk, th)
    assert (d == amrsf.ALLOW) == (s.risk < th.allow) and (d == amrsf.DENY) == (s.risk >= th.deny)


def test_levels_by_quartile() -> None:
    assert [amrsf.initial_level(z) for z in (-0.3, 0.0, 0.24, 0.25, 0.49, 0.5, 0.74, 0.75, 1.0, 2.0)] == [
        1,
        1,
        1,
        2,
        2,
        3,
        3,
        4,
        4,
        4,
    ]
