"""The static HTML report: one self-contained file (styles, script and SVG charts inline; nothing fetched)."""

from __future__ import annotations

import os
import re
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from pp_graph.comply.corpus import LEGEND, SYMBOLS
from pp_graph.errors import InputError
from pp_graph.load.language import language_name
from pp_graph.query.corpus import PRACTICE_TYPES, Corpus, type_counts
from pp_graph.report import charts
from pp_graph.report.compliance import anchor, compliance

if TYPE_CHECKING:
    from pp_graph.coverage import CoverageReport
from pp_graph.version import __version__
from pp_graph.vocab.dpv import compact

HERE = Path(__file__).parent
TOP = 10
DPV = "https://w3id.org/dpv#"


@dataclass
class ReportData:
    summary: dict[str, Any]
    top_data: list[dict[str, Any]]
    top_purposes: list[dict[str, Any]]
    per_site: list[dict[str, Any]]
    sharing: list[dict[str, Any]]
    sharing_kinds: list[str]
    retention: list[dict[str, Any]]
    negated: list[dict[str, Any]]
    rejections: list[dict[str, Any]]
    statements: list[dict[str, Any]]
    compliance: dict[str, Any] = field(default_factory=dict)
    coverage: dict[str, Any] | None = None  # disclosure coverage of a data plane's ledger (``report --ledger``)
    charts: dict[str, str] = field(default_factory=dict)


def collect(c: Corpus) -> ReportData:
    """Every table of the report, from the corpus's named queries and batch reports."""
    newest = [versions[-1] for versions in c.sites.values()]
    keep = {s.policy for s in newest}  # one policy per site: the newest version
    counts = type_counts(newest)
    # The roots (generic "personal data", "purpose") say nothing about what is collected or why: left out.
    top_data = [r for r in c.query("top-data-classes") if r["data"] != DPV + "PersonalData"][:TOP]
    top_purposes = [r for r in c.query("top-purposes") if r["purpose"] != DPV + "Purpose"][:TOP]
    sharing = _sharing(c)
    summary = {
        "sites": len(c.sites),
        "policies": len(c.policies),
        "practices": sum(counts.values()),
        "by_type": {t: counts.get(t, 0) for t in PRACTICE_TYPES},
        "negated": sum(s.negated for s in newest),
        "characters": sum(s.characters for s in newest),
        "version": __version__,
    }
    return ReportData(
        summary=summary,
        top_data=top_data,
        top_purposes=top_purposes,
        per_site=[
            {
                "site": s.site,
                "language": s.language,
                "language_name": language_name(s.language) if s.language else "",
                "total": s.total,
                **{t: s.practices.get(t, 0) for t in PRACTICE_TYPES},
                "negated": s.negated,
            }
            for s in newest
        ],
        sharing=sharing,
        sharing_kinds=sorted({k for row in sharing for k in row["kinds"]}),
        retention=[
            {**r, "wording": "; ".join(r["wording"] or []), "period": period_words(r["period"])}
            for r in c.query("retention")
        ],
        negated=[r for r in c.query("view-negated")],
        rejections=_rejections(c, keep),
        statements=_statements(c),
        compliance=compliance(c),
    )


_UNITS = {"Y": "year", "M": "month", "W": "week", "D": "day", "H": "hour"}
_DURATION = re.compile(r"^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(\d+)H)?$")


def period_words(period: str | None) -> str:
    """An xsd:duration in words ("P2Y" → "2 years", "P1Y6M" → "1 year 6 months"); other values as they are."""
    if not period:
        return ""
    m = _DURATION.match(period)
    if not m or not any(m.groups()):
        return period
    parts = [(n, u) for n, u in zip(m.groups(), _UNITS.values(), strict=True) if n]
    return " ".join(f"{int(n)} {u}{'' if int(n) == 1 else 's'}" for n, u in parts)


def _sharing(c: Corpus) -> list[dict[str, Any]]:
    """Site → recipient kind → (practices, data classes by count)."""
    cells: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    for r in c.query("view-sharing"):
        cells[r["site"]][c.label(r["kind"])][r["data"]] += int(r["practices"])
    return [
        {
            "site": site,
            "kinds": {
                k: {"practices": sum(cnt.values()), "data": cnt.most_common(4)} for k, cnt in sorted(kinds.items())
            },
        }
        for site, kinds in sorted(cells.items())
    ]


def _rejections(c: Corpus, keep: set[str]) -> list[dict[str, Any]]:
    rows = []
    for policy, rep in sorted(c.reports.items()):
        if policy in keep:
            rows.append(
                {
                    "site": rep.get("site", ""),
                    "rejected": dict(rep.get("rejected") or {}),
                    "segments": rep.get("segments"),
                }
            )
    return rows


def _statements(c: Corpus) -> list[dict[str, Any]]:
    per: dict[str, dict[str, list[str]]] = defaultdict(lambda: {"legal-basis": [], "right": []})
    for r in c.query("view-policy-statements"):
        per[r["site"]][r["kind"]].append(r["concept"])
    return [{"site": s, "bases": v["legal-basis"], "rights": v["right"]} for s, v in sorted(per.items())]


def draw(data: ReportData, c: Corpus) -> None:
    """The report's charts, as inline SVG."""
    data.charts["data"] = charts.bars(
        [c.label(r["data"]) for r in data.top_data],
        [r["mentions"] for r in data.top_data],
        "Top data classes (mentions)",
    )
    data.charts["purposes"] = charts.bars(
        [c.label(r["purpose"]) for r in data.top_purposes],
        [r["mentions"] for r in data.top_purposes],
        "Top purposes (mentions)",
        colour="#79c267",
    )
    sites = [r["site"] for r in data.per_site]
    data.charts["per_site"] = charts.stacked(
        sites, {t: [r[t] for r in data.per_site] for t in PRACTICE_TYPES}, "Practices per site, by type"
    )
    if data.sharing:
        data.charts["sharing"] = charts.heatmap(
            [r["site"] for r in data.sharing],
            data.sharing_kinds,
            [[r["kinds"].get(k, {}).get("practices", 0) for k in data.sharing_kinds] for r in data.sharing],
            "Sharing practices by recipient kind",
        )


def render(data: ReportData, c: Corpus) -> str:
    serve = HERE.parent / "serve"
    loader = FileSystemLoader([str(HERE / "templates"), str(serve / "templates")])  # the UI's status legend too
    env = Environment(loader=loader, autoescape=select_autoescape(default=True))
    env.globals.update(label=c.label, short=compact, types=PRACTICE_TYPES, legend=LEGEND, symbols=SYMBOLS)
    env.globals.update(anchor=anchor)
    static = serve / "static"
    return env.get_template("report.html").render(
        d=data,
        css=(static / "app.css").read_text(encoding="utf-8"),
        js=(static / "app.js").read_text(encoding="utf-8"),
    )


def build_report(c: Corpus, coverage: CoverageReport | None = None) -> str:
    """The report's HTML; with ``coverage`` (a ledger judged against the same graphs) a disclosure-coverage section."""
    data = collect(c)
    if coverage is not None:
        data.coverage = coverage.to_dict()
        worst_first = {"denied": 0, "silent": 1, "stated": 2}  # what needs a look, then what is covered
        data.coverage["flows"].sort(key=lambda f: worst_first.get(f["verdict"], -1))
    draw(data, c)
    return render(data, c)


def write_report(html: str, out: Path) -> int:
    """Write atomically, honouring the umask; returns the size in bytes."""
    out = Path(out)
    if out.parent and not out.parent.is_dir():
        raise InputError(str(out.parent), "is not a folder (create it first)")
    data = html.encode("utf-8")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, out)
    except OSError as e:
        if tmp and os.path.exists(tmp):
            os.unlink(tmp)
        raise InputError(str(out), f"cannot be written ({e.strerror or e})") from e
    return len(data)
