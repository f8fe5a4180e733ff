"""The sale purpose from every form of the verb with personal data as its object, and not from goods or a business
sold: the purpose a sale denial needs so that it prohibits selling, not all sharing."""

from __future__ import annotations

import pytest

from pp_graph.api import convert_text
from pp_graph.query.runner import run_query
from pp_graph.store.embedded import EmbeddedStore

SELL = "https://w3id.org/dpv#SellDataToThirdParties"


def practices(line: str) -> list[dict[str, object]]:
    conv = convert_text(f"# Privacy\n\n{line}\n", "sale.example")
    store = EmbeddedStore()
    store.load_dataset(conv.dataset)
    (policy,) = store.policies()
    return run_query(store, "export-practices", {"policy": policy})


@pytest.mark.parametrize(
    "line",
    [
        "We do not sell your personal information.",
        "We have never sold any personal information.",
        "We don't make money from selling your personal information to third parties.",
    ],
)
def test_a_sale_denial_has_the_sale_purpose(line: str) -> None:
    rows = practices(line)
    assert rows and all(r["negated"] for r in rows), rows
    assert any(SELL in [str(p) for p in r["purposes"]] for r in rows), rows


@pytest.mark.parametrize(
    "line",
    [
        "Android devices include devices sold by our partners, and we collect your device identifiers from them.",
        "We may share your data when our business is sold to others.",
    ],
)
def test_goods_or_a_business_sold_is_no_sale_of_data(line: str) -> None:
    rows = practices(line)
    assert rows, line
    assert not any(SELL in [str(p) for p in r["purposes"]] for r in rows), rows
