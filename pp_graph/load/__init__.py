"""Files and folders → policies (text) → segments with offsets and heading paths."""

from pp_graph.load.segment import segment
from pp_graph.load.sources import SUFFIXES, discover, load_policy, site_from_name

__all__ = ["SUFFIXES", "discover", "load_policy", "segment", "site_from_name"]
