"""Where the project's data files live: ontologies/, data/, prompts/, queries/ inside this package.

They ship in the wheel beside this module, so a regular install finds them; PP_GRAPH_HOME points elsewhere when a
user keeps edited copies (the same four folders under one directory).
"""

from __future__ import annotations

import os
from pathlib import Path

HOME = Path(os.environ.get("PP_GRAPH_HOME", Path(__file__).resolve().parent))
ONTOLOGIES = HOME / "ontologies"
DATA = HOME / "data"
PROMPTS = HOME / "prompts"
QUERIES = HOME / "queries"

DPV_FILES = tuple(ONTOLOGIES / "vendor" / "dpv" / n for n in ("dpv.ttl", "pd.ttl", "eu-gdpr.ttl"))
PR2GRAPH_ONTOLOGY = ONTOLOGIES / "pr2graph.ttl"
PR2GRAPH_SHAPES = ONTOLOGIES / "pr2graph-shapes.ttl"
