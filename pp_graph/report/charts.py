"""Charts for the HTML report as inline SVG, drawn by matplotlib (no script, no network, deterministic bytes).

Text stays text (``svg.fonttype: none``), so a chart is small and searchable; a fixed hash salt and no
date metadata make the same data give the same bytes.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Sequence
from typing import Any

from pp_graph.extras import import_optional

TYPE_COLOURS = {
    "first-party-collection-use": "#6ea8fe",
    "third-party-collection-use": "#ffb84d",
    "third-party-sharing-disclosure": "#f0706a",
    "data-storage-retention-deletion": "#79c267",
    "data-security-protection": "#a98bf0",
    "user-choice-control": "#3cb4b4",
    "policy-change": "#b8a04a",
    "do-not-track": "#8c8c8c",
    "specific-audience": "#e07bb5",
}
_RC: dict[str, Any] = {"svg.fonttype": "none", "svg.hashsalt": "pp-graph", "font.size": 9, "font.family": "sans-serif"}


def _svg(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]  # drop the XML prolog and doctype: the SVG sits inside HTML


def _pyplot() -> Any:
    matplotlib = import_optional("matplotlib", "report", "the report's charts")

    matplotlib.use("Agg")  # no display: draw to files only
    plt: Any = importlib.import_module("matplotlib.pyplot")
    plt.rcParams.update(_RC)
    return plt


def bars(labels: Sequence[str], values: Sequence[float], title: str, colour: str = "#6ea8fe") -> str:
    """A horizontal bar chart, largest on top."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 0.28 * len(labels) + 0.8))
    y = range(len(labels))[::-1]
    ax.barh(list(y), list(values), color=colour)
    ax.set_yticks(list(y), labels)
    for yi, v in zip(y, values, strict=True):
        ax.text(v, yi, f" {v:g}", va="center", fontsize=8)
    ax.set_title(title, loc="left")
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def stacked(rows: Sequence[str], series: dict[str, Sequence[float]], title: str) -> str:
    """Horizontal stacked bars: one bar per row, one segment per series (the practice types)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.2, 0.22 * len(rows) + 1.2))
    y = list(range(len(rows)))[::-1]
    left = [0.0] * len(rows)
    for name, vals in series.items():
        ax.barh(y, list(vals), left=left, color=TYPE_COLOURS.get(name, "#999"), label=name)
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.set_yticks(y, list(rows))
    ax.set_title(title, loc="left")
    ax.legend(loc="lower right", fontsize=7, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def heatmap(rows: Sequence[str], cols: Sequence[str], values: Sequence[Sequence[float]], title: str) -> str:
    """A grid of counts (rows × columns), each cell labelled."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(0.9 * len(cols) + 2.2, 0.22 * len(rows) + 1.2))
    ax.imshow(values, aspect="auto", cmap="Reds")
    ax.set_xticks(range(len(cols)), list(cols), rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), list(rows))
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            if v:
                ax.text(j, i, f"{v:g}", ha="center", va="center", fontsize=7)
    ax.set_title(title, loc="left")
    return _svg(fig)
