"""Named SPARQL queries over policy graphs (see ``queries/*.rq``) and corpus statistics."""

from pp_graph.query.runner import NamedQuery, Param, load_all, load_query, run_query

__all__ = ["NamedQuery", "Param", "load_all", "load_query", "run_query"]
