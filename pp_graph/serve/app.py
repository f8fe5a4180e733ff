"""The read-only browser UI: server-rendered pages over a corpus of policy graphs and the risk engine.

Flask, because its pages are plain Jinja templates rendered on the server (they read without JavaScript),
its test client runs the whole app in-process, and werkzeug's server binds a loopback port (0 for a
free one) with no other process to manage. Nothing here writes: the only POST is the what-if panel,
so that outgoing text in it never lands in a URL or an access log.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, render_template, request

from pp_graph.comply.corpus import DEFAULT_LAW, LEGEND, SYMBOLS, check_newest, check_policy, corpus_table
from pp_graph.comply.laws import get_law
from pp_graph.deadline import budget, check_budget
from pp_graph.errors import PPGraphError, QueryTimeout
from pp_graph.load.language import language_name
from pp_graph.query.corpus import PRACTICE_TYPES, Corpus, Practice
from pp_graph.query.runner import NamedQuery, load_all
from pp_graph.report.formats import csv_text
from pp_graph.report.highlight import Mark, pieces, to_html
from pp_graph.risk.engine import ActionContext, RiskEngine
from pp_graph.serve.cards import card, concept_id
from pp_graph.serve.checklist import checklist_rows, evidence_by_line
from pp_graph.versions.timeline import step_changes

PAGE_CACHE = 32  # rendered policy pages kept in memory
QUERY_SECONDS = 10.0  # a named query that runs longer is stopped with an error page (504)
PAGE_SECONDS = 20.0  # a policy page (its queries and its lines) that takes longer is stopped likewise
WHATIF_SECONDS = 20.0  # a what-if's policy look-ups and evidence
PAGE_LINES = 1000  # policy lines shown per page; a longer policy is paged ("lines 1–1000 of N")
MAX_WHATIF_TEXT = 20_000  # characters of what-if text: detection reads ~10,000 per second, refused before it runs
MAX_BODY_BYTES = 512 * 1024  # any request body; larger is refused (413) before it is read
MAX_CELL = 80  # characters of a query result cell shown; the whole value is its title
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def create_app(
    corpus: Corpus,
    *,
    query_seconds: float = QUERY_SECONDS,
    page_seconds: float = PAGE_SECONDS,
    whatif_seconds: float = WHATIF_SECONDS,
) -> Flask:
    here = Path(__file__).parent
    app = Flask(__name__, template_folder=str(here / "templates"), static_folder=str(here / "static"))
    app.jinja_env.autoescape = True  # every template, whatever its suffix: policy text is untrusted
    app.config.update(
        corpus=corpus,
        engine=RiskEngine(corpus.store),
        query_seconds=query_seconds,
        page_seconds=page_seconds,
        whatif_seconds=whatif_seconds,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        MAX_FORM_MEMORY_SIZE=MAX_BODY_BYTES,
    )
    cell = functools.partial(_cell, label=corpus.label)
    app.jinja_env.globals.update(
        label=corpus.label, types=PRACTICE_TYPES, short=_short, kind=_kind, cell=cell, language=language_name
    )
    app.before_request(_loopback_only)
    app.after_request(_headers)
    for rule, view, methods in _ROUTES:
        app.add_url_rule(rule, view.__name__, view, methods=methods)
    app.register_error_handler(PPGraphError, _input_error)
    app.register_error_handler(QueryTimeout, _too_slow)
    for name in app.jinja_env.list_templates():  # compile once at start, not on a user's first page
        app.jinja_env.get_template(name)
    _top_classes(corpus)  # the site cards' one corpus-wide query, run at start too
    return app


def _corpus() -> Corpus:
    from flask import current_app

    c: Corpus = current_app.config["corpus"]
    return c


def _loopback_only() -> None:
    # A page on another site could otherwise reach this server through DNS rebinding.
    host = (
        (request.host or "").rsplit(":", 1)[0] if not request.host.startswith("[") else request.host.split("]")[0] + "]"
    )
    if host not in LOOPBACK_HOSTS:
        abort(403)


def _headers(resp: Response) -> Response:
    # Inline scripts are our own (no policy text is ever placed in a script); nothing loads from elsewhere.
    resp.headers["Content-Security-Policy"] = (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


def _input_error(e: PPGraphError) -> tuple[str, int]:
    return render_template("error.html", message=str(e)), 400


def _too_slow(e: QueryTimeout) -> tuple[str, int]:
    # The work stopped where the budget ran out (see pp_graph.deadline): nothing goes on after this answer.
    return render_template("error.html", message=str(e).replace("--timeout", "the server's limit")), 504


def _short(iri: str) -> str:
    from pp_graph.vocab.dpv import compact

    return compact(iri)


def _cell(v: Any, label: Callable[[str], str]) -> tuple[str, str, str]:
    """A result value for a table cell: (the text shown, the prefixed name of a single IRI shown by its label, the
    title: the full value on hover, "" when all of it is shown). IRIs by their label or prefixed name, lists joined,
    long values cut at MAX_CELL characters."""
    values = v if isinstance(v, list) else [v]
    full = ["" if x is None else str(x) for x in values]
    shown = [_readable(x, label) for x in full]
    text, whole = ", ".join(shown), ", ".join(full)
    prefixed = _short(whole) if len(full) == 1 and shown[0] != whole and _short(whole) != text else ""
    if len(text) > MAX_CELL:
        text = text[: MAX_CELL - 1].rstrip() + "…"
    return text, prefixed, (whole if text != whole else "")


def _readable(text: str, label: Callable[[str], str]) -> str:
    if not text.startswith(("http://", "https://", "urn:")) or any(ch.isspace() for ch in text):
        return text
    return label(text)  # DPV's or the pp-graph ontology's label ("Email Address", "Service provider"), else prefixed


def _kind(iri: str | None) -> str:
    return (iri or "").rsplit("#", 1)[-1].removeprefix("recipient-")


# -- pages --


def sites() -> str:
    c = _corpus()
    q = request.args.get("q", "").strip().lower()
    rows = [(site, versions[-1], len(versions)) for site, versions in c.sites.items() if q in site]
    return render_template("sites.html", rows=rows, q=q, total=len(c.sites), tops=_top_classes(c))


def _top_classes(c: Corpus) -> dict[str, list[tuple[str, int]]]:
    """Per site: its three most mentioned data classes (one query over the corpus, cached on the corpus)."""
    cached = getattr(c, "_site_tops", None)
    if cached is None:
        cached = {}
        for r in c.query("view-site-top-data"):
            cached.setdefault(str(r["site"]), []).append((str(r["data"]), int(r["mentions"])))
        cached = {s: sorted(v, key=lambda x: (-x[1], x[0]))[:3] for s, v in cached.items()}
        c._site_tops = cached  # type: ignore[attr-defined]
    return cached


def site(name: str) -> str:
    from flask import current_app

    c = _corpus()
    summary = c.find(name, request.args.get("version"))
    first = request.args.get("from", "0")
    start = int(first) if first.isdigit() else 0
    pages: dict[tuple[str, int], str] = current_app.config.setdefault("pages", {})
    if (summary.policy, start) not in pages:  # the corpus never changes while the server runs
        with budget(current_app.config["page_seconds"], f"the page of {summary.site}"):
            html = _render_policy(c, summary, start)
        if len(pages) >= PAGE_CACHE:
            pages.pop(next(iter(pages)))
        pages[summary.policy, start] = html
    return pages[summary.policy, start]


def _render_policy(c: Corpus, summary: Any, start: int = 0) -> str:
    """The policy's lines ``start`` … ``start + PAGE_LINES`` with their practices; the budget is checked per line."""
    view = c.view(summary)
    by_segment = view.practices_by_segment()
    shown = view.segments[start : start + PAGE_LINES]
    lines: list[tuple[Any, str, str]] = []
    concepts: set[str] = set()
    for seg in shown:
        check_budget()
        practices = by_segment.get(seg.iri, [])
        marks = [m for p in practices for m in _marks(p)]
        cards = "".join(card(p, seg, c.label) for p in practices)
        concepts.update(ln.value for p in practices for ln in p.links if not ln.name)
        lines.append((seg, to_html(pieces(seg.text, seg.start, marks)), cards))
    glossary = [(concept_id(i), c.label(i), i, c.definition(i)) for i in sorted(concepts, key=c.label)]
    window = {"first": start + 1, "last": start + len(shown), "total": len(view.segments), "size": PAGE_LINES}
    checked = check_policy(c, summary, get_law(DEFAULT_LAW))
    rows = checklist_rows(checked, view, PAGE_LINES)
    return render_template(
        "site.html",
        s=summary,
        view=view,
        lines=lines,
        versions=c.sites[summary.site],
        changes=_step(c, summary),
        checked=checked,
        checklist=rows,
        evidence=evidence_by_line(rows),
        legend=LEGEND,
        symbols=SYMBOLS,
        glossary=glossary,
        window=window,
    )


def _step(c: Corpus, summary: Any) -> dict[str, dict[str, Any]]:
    """{policy: what changed since the version before} for the version shown ({} for a site's first version): one
    diff per page, where the whole history of a site with 50 versions would not fit the page's time limit."""
    versions = c.sites[summary.site]
    pos = versions.index(summary)
    return {summary.policy: step_changes(c, versions[pos - 1], summary)} if pos > 0 else {}


def compliance() -> str:
    from flask import current_app

    c = _corpus()
    table = current_app.config.get("corpus_table")
    if table is None:  # the corpus never changes while the server runs
        table = current_app.config["corpus_table"] = corpus_table(check_newest(c))
    return render_template("compliance.html", t=table, legend=LEGEND, symbols=SYMBOLS)


def _marks(p: Practice) -> list[Mark]:
    """What a practice highlights: its trigger, and its data, purposes, bases and named third parties.

    The reader and the site themselves ("you", "we") are listed on the card but not highlighted: they are
    in nearly every line and would drown the spans that say something."""
    out = [Mark(p.trigger.start, p.trigger.end, p.id, p.type, "trigger", p.negated)] if p.trigger else []
    for ln in p.links:
        if ln.value.endswith(("/party/user", "/party/first")):
            continue
        out.extend(Mark(s.start, s.end, p.id, p.type, ln.role, p.negated) for s in ln.spans)
    return out


def queries() -> str:
    return render_template("queries.html", queries=_named_queries())


def _named_queries() -> list[NamedQuery]:
    return [q for q in load_all() if not q.name.startswith(("view-", "risk-", "export-"))]


def query(name: str) -> Response | str:
    from flask import current_app

    c = _corpus()
    q = next((x for x in _named_queries() if x.name == name), None)
    if q is None:
        abort(404)
    values = {p.name: request.args[p.name] for p in q.params if request.args.get(p.name, "").strip()}
    ran = "run" in request.args or not [p for p in q.params if p.default is None]
    rows: list[dict[str, Any]] = []
    if ran:
        with budget(current_app.config["query_seconds"], f"query {name}"):
            rows = q.run(c.store, values, how="fill in the {name} field")
    fmt = request.args.get("format", "html")
    if fmt == "json":
        return Response(
            json.dumps(rows, ensure_ascii=False, indent=1),
            mimetype="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}.json"'},
        )
    if fmt == "csv":
        return Response(
            _csv(rows), mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{name}.csv"'}
        )
    return render_template("query.html", q=q, values=values, rows=rows, ran=ran)


def _csv(rows: list[dict[str, Any]]) -> str:
    """The command line's CSV (cells safe for spreadsheets and terminals); a list cell joined by "|"."""
    if not rows:
        return ""
    cols = list(rows[0])
    return csv_text(
        cols, ([("|".join(v) if isinstance(v, list) else v) for v in (r.get(c) for c in cols)] for r in rows)
    )


def whatif() -> str | tuple[str, int]:
    from flask import current_app

    c = _corpus()
    engine: RiskEngine = current_app.config["engine"]
    form = request.form if request.method == "POST" else request.args
    fields = {k: form.get(k, "").strip() for k in ("site", "data", "purpose", "recipient", "basis", "text")}
    decision = released = None
    lines: list[Any] = []
    if request.method == "POST":
        ctx = ActionContext(
            site=fields["site"] or None,
            data=tuple(x.strip() for x in fields["data"].split(",") if x.strip()),
            purposes=tuple(x.strip() for x in fields["purpose"].split(",") if x.strip()),
            recipients=tuple(x.strip() for x in fields["recipient"].split(",") if x.strip()),
            basis=fields["basis"] or None,
            text=fields["text"] or None,
        )
        if len(fields["text"]) > MAX_WHATIF_TEXT:  # refused before detection, which reads ~10,000 characters/s
            return render_template("error.html", message=_too_long(len(fields["text"]))), 413
        with budget(current_app.config["whatif_seconds"], "the what-if"):
            decision, released = _decide(engine, ctx)
            lines = _evidence_lines(c, decision)
    return render_template(
        "whatif.html",
        f=fields,
        d=decision,
        released=released,
        lines=lines,
        sites=list(c.sites),
        recipients=sorted(engine.t.recipient_tr),
        bases=sorted(engine.t.basis_mb),
    )


def _too_long(n: int) -> str:
    return (
        f"the text has {n:,} characters; the what-if reads at most {MAX_WHATIF_TEXT:,} "
        "(use pp-graph risk --text-file for longer texts)"
    )


def _decide(engine: RiskEngine, ctx: ActionContext) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The decision record, and with a text, the text that would leave (the guard's release)."""
    if not ctx.text:
        return engine.decide(ctx).to_dict(), None
    g = engine.guard(ctx)  # allow: the text as it is; transform: the verified rewrite; deny: nothing
    rec = g.record()
    return rec, {"text": g.text, "anonymization": rec.get("anonymization")}


def _evidence_lines(c: Corpus, decision: dict[str, Any]) -> list[dict[str, Any]]:
    """The evidence records, each with its whole policy line and that practice's spans highlighted."""
    practices: dict[str, tuple[Practice, Any]] = {}
    wanted = set((decision.get("policy") or {}).get("policies", []))
    for summary in (s for s in c.policies if s.policy in wanted):
        view = c.view(summary)
        segs = {s.iri: s for s in view.segments}
        practices.update({p.iri: (p, segs.get(p.segment)) for p in view.practices})
    out = []
    for e in decision.get("evidence", []):
        found = practices.get(str(e.get("practice")))
        html, anchor = "", None
        if found and found[1] is not None:
            p, seg = found
            html, anchor = to_html(pieces(seg.text, seg.start, _marks(p))), p.id
        out.append({**e, "html": html, "anchor": anchor})
    return out


def health() -> Response:
    c = _corpus()
    return Response(json.dumps({"sites": len(c.sites), "policies": len(c.policies)}), mimetype="application/json")


_ROUTES: list[tuple[str, Callable[..., Any], list[str]]] = [
    ("/", sites, ["GET"]),
    ("/site/<name>", site, ["GET"]),
    ("/compliance", compliance, ["GET"]),
    ("/queries", queries, ["GET"]),
    ("/queries/<name>", query, ["GET"]),
    ("/whatif", whatif, ["GET", "POST"]),
    ("/health", health, ["GET"]),
]
