"""Price table (data/llm-prices.tsv, validated at load) and the token estimate used before a request."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pp_graph.datafiles import tsv_lines
from pp_graph.errors import DataFileError
from pp_graph.resources import DATA

PRICES_FILE = DATA / "llm-prices.tsv"


@dataclass(frozen=True, slots=True)
class Price:
    model: str
    input_per_1m: float
    output_per_1m: float

    def cost(self, prompt_tokens: float, completion_tokens: float) -> float:
        return (prompt_tokens * self.input_per_1m + completion_tokens * self.output_per_1m) / 1e6


def estimate_tokens(text: str) -> int:
    """Approximate token count: about four characters per token for English text."""
    return max(1, (len(text) + 3) // 4)


@cache
def load_prices(path: Path = PRICES_FILE) -> dict[str, Price]:
    """model name or 'prefix*' → price; raise DataFileError naming the line if malformed."""
    prices: dict[str, Price] = {}
    for no, cols, line in tsv_lines(path):
        if len(cols) < 3:
            raise DataFileError(f"{path.name}:{no}: expected model<TAB>input<TAB>output[<TAB>note], got {line!r}")
        model = cols[0].strip()
        try:
            pin, pout = float(cols[1]), float(cols[2])
        except ValueError as e:
            raise DataFileError(f"{path.name}:{no}: prices must be numbers (USD per 1M tokens): {line!r}") from e
        if pin < 0 or pout < 0 or not model or "*" in model[:-1]:
            raise DataFileError(f"{path.name}:{no}: negative price or bad model pattern {model!r}")
        if model in prices:
            raise DataFileError(f"{path.name}:{no}: {model!r} is listed twice")
        prices[model] = Price(model, pin, pout)
    return prices


def price_for(model: str, prices: dict[str, Price] | None = None) -> Price | None:
    """Exact row first, then the longest 'prefix*' row; None if the table does not know the model."""
    table = load_prices() if prices is None else prices
    if model in table:
        return table[model]
    best: Price | None = None
    for key, p in table.items():
        if key.endswith("*") and model.startswith(key[:-1]) and (best is None or len(key) > len(best.model)):
            best = p
    return best
