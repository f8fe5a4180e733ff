"""The learned layers a conversion uses, loaded from their folders: an OPP-115 layer (`convert --model`) and a
transparency layer (`convert --gdpr-model`), told apart by the format their manifest declares."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pp_graph.errors import ModelError
from pp_graph.extras import need


@dataclass(frozen=True)
class Layers:
    learned: Any = None  # LearnedModel (segment classes) or None
    transparency: Any = None  # TransparencyModel (transparency statements) or None

    def digests(self) -> list[str]:
        return [m.digest for m in (self.learned, self.transparency) if m is not None]


def _format(folder: Path) -> str | None:
    try:
        man = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None  # the loader below says what is wrong
    return man.get("format") if isinstance(man, dict) else None


def load_layers(folders: Sequence[str]) -> Layers:
    """Each folder's model (checked against its manifest); ModelError for two models of one kind."""
    if not folders:
        return Layers()
    need("learned", "the learned layer (convert --model / --gdpr-model)")
    from pp_graph.extract.learned.model import load_model
    from pp_graph.extract.learned.transparency import FORMAT, OLDER_FORMATS, load_transparency_model

    learned = transparency = None
    for f in folders:
        if _format(Path(f)) in (FORMAT, *OLDER_FORMATS):  # an older one: its loader says to train again
            if transparency is not None:
                raise ModelError(f"{f}: a second transparency model (give one)")
            transparency = load_transparency_model(Path(f))
        else:
            if learned is not None:
                raise ModelError(f"{f}: a second OPP-115 learned model (give one)")
            learned = load_model(Path(f))
    return Layers(learned, transparency)
