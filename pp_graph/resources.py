"""Where the project's data files live: ontologies/, data/, prompts/, queries/.

They sit beside the package (editable install); PP_GRAPH_HOME points elsewhere when needed.
"""

from __future__ import annotations

import os
from pathlib import Path

HOME = Path(os.environ.get("PP_GRAPH_HOME", Path(__file__).resolve().parent.parent))
ONTOLOGIES = HOME / "ontologies"
DATA = HOME / "data"
PROMPTS = HOME / "prompts"
QUERIES = HOME / "queries"

DPV_FILES = tuple(ONTOLOGIES / "vendor" / "dpv" / n for n in ("dpv.ttl", "pd.ttl", "eu-gdpr.ttl"))
PR2GRAPH_ONTOLOGY = ONTOLOGIES / "pr2graph.ttl"
PR2GRAPH_SHAPES = ONTOLOGIES / "pr2graph-shapes.ttl"
