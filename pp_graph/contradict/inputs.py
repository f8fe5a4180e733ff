"""Where the statements come from: policy texts (converted on the fly) or converted graph files, split as
``pp-graph comply`` splits them (pp_graph.load.inputs)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from pp_graph.contradict.statements import KEEP, PolicyStatements, Triple, policy_statements
from pp_graph.errors import InputError
from pp_graph.load.inputs import gather as gather_policies

_FORMATS = {".trig": "TRIG", ".nq": "N_QUADS", ".ttl": "TURTLE"}


def graph_file_statements(path: Path) -> list[PolicyStatements]:
    """The statements of every policy (named graph) of a graph file; InputError naming the file if unreadable.
    A graph holds offsets, not the policy text: its statements carry no line numbers."""
    import pyoxigraph as ox

    from pp_graph.graph.files import graph_suffix, parse_failure

    fmt = _FORMATS.get(graph_suffix(path))
    if fmt is None:
        raise InputError(str(path), f"contradictions reads {', '.join(_FORMATS)} graphs (as pp-graph convert writes)")
    keep = {ox.NamedNode(p) for p in KEEP}
    by_graph: dict[str, list[Triple]] = defaultdict(list)
    try:
        with open(path, "rb") as fh:
            for q in ox.parse(fh, format=getattr(ox.RdfFormat, fmt)):
                if q.predicate in keep:
                    g = q.graph_name.value if isinstance(q.graph_name, ox.NamedNode) else ""
                    by_graph[g].append((q.subject.value, q.predicate.value, q.object.value))
    except (OSError, SyntaxError, ValueError, MemoryError) as e:
        raise parse_failure(path, e, fmt.lower().replace("_", "-")) from e
    if not by_graph:
        raise InputError(str(path), "holds no policy graph")
    return [policy_statements(ts, str(path)) for _, ts in sorted(by_graph.items())]


def text_statements(path: Path, backend: str = "offline", site: str | None = None) -> PolicyStatements:
    """A policy text converted on the fly; its statements keep the text, so lines are numbered."""
    from pp_graph.api import convert
    from pp_graph.comply.facts import built_triples

    conv = convert(path, site=site, backend=backend)
    out = policy_statements(built_triples(conv.triples), str(path))
    out.text = conv.extraction.policy.text
    return out


def gather(paths: Iterable[Path], backend: str = "offline", site: str | None = None) -> list[PolicyStatements]:
    """Statements of every policy: graph files (and folders holding them) are read, text files converted (``site``
    for a single text not named after its site)."""
    return gather_policies(paths, graph_file_statements, lambda t: text_statements(t, backend, site), site)
