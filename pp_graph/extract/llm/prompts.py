"""Prompts as data: one TOML file per stage in prompts/, validated at load, versioned by content hash.

A prompt file has ``stage``, ``title``, ``system`` and ``user``; templates use ``$name`` placeholders
(``$$`` for a literal dollar). Each stage declares which variables the code supplies and which the
template must use, so a typo in a placeholder fails at load with the file and the name.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pp_graph.errors import DataFileError
from pp_graph.resources import PROMPTS

_RECOGNITION = ({"schema", "data_concepts", "purpose_concepts"}, {"segments"})
# stage → (variables the system template may use, variables the user template must use)
VARIABLES: dict[str, tuple[set[str], set[str]]] = {
    "entities": _RECOGNITION,
    "structure": _RECOGNITION,
    "data_spans": _RECOGNITION,
    "purpose_spans": _RECOGNITION,
    "parties": _RECOGNITION,
    "practices": _RECOGNITION,
    "data_classes": ({"schema", "concepts"}, {"segment", "spans"}),
    "purpose_classes": ({"schema", "concepts"}, {"segment", "spans"}),
    "relations": ({"schema", "roles"}, {"segments"}),
    "transparency": ({"schema", "requirements"}, {"segments"}),
}


class PromptFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    stage: str
    title: str = Field(min_length=1)
    system: str = Field(min_length=1)
    user: str = Field(min_length=1)


@dataclass(frozen=True)
class Prompt:
    stage: str
    title: str
    system: Template
    user: Template
    digest: str  # sha256 of the file's bytes
    path: Path

    def render(self, **values: str) -> list[dict[str, str]]:
        """The chat messages; DataFileError names any placeholder left without a value."""
        try:
            return [
                {"role": "system", "content": self.system.substitute(values)},
                {"role": "user", "content": self.user.substitute(values)},
            ]
        except KeyError as e:
            raise DataFileError(
                f"{self.path.name}: template variable ${e.args[0]} has no value (given: {', '.join(sorted(values))})"
            ) from e
        except ValueError as e:
            raise DataFileError(f"{self.path.name}: bad placeholder ({e}); write $$ for a literal $") from e


def _identifiers(t: Template, where: str) -> set[str]:
    if not t.is_valid():
        raise DataFileError(f"{where}: bad placeholder; write $$ for a literal $")
    return set(t.get_identifiers())


def load_prompt(path: Path) -> Prompt:
    try:
        raw = path.read_bytes()
        data = tomllib.loads(raw.decode("utf-8"))
        pf = PromptFile.model_validate(data)
    except OSError as e:
        raise DataFileError(f"{path}: prompt cannot be read ({e.strerror})") from e
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise DataFileError(f"{path.name}: not valid TOML: {e}") from e
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors())
        raise DataFileError(f"{path.name}: {problems}") from e
    if pf.stage != path.stem or pf.stage not in VARIABLES:
        raise DataFileError(
            f"{path.name}: stage {pf.stage!r} must equal the file name and be one of {', '.join(VARIABLES)}"
        )
    allowed_system, required_user = VARIABLES[pf.stage]
    system, user = Template(pf.system), Template(pf.user)
    unknown = _identifiers(system, f"{path.name}: system") - allowed_system
    if unknown:
        raise DataFileError(
            f"{path.name}: system uses ${', $'.join(sorted(unknown))}; allowed: {', '.join(sorted(allowed_system))}"
        )
    used = _identifiers(user, f"{path.name}: user")
    if used != required_user:
        raise DataFileError(
            f"{path.name}: user must use exactly ${', $'.join(sorted(required_user))} "
            f"(it uses {', '.join(sorted(used)) or 'none'})"
        )
    return Prompt(pf.stage, pf.title, system, user, hashlib.sha256(raw).hexdigest(), path)


@cache
def load_prompts(folder: Path = PROMPTS) -> dict[str, Prompt]:
    """Every stage's prompt; DataFileError if one is missing or malformed."""
    prompts = {}
    for stage in VARIABLES:
        path = folder / f"{stage}.toml"
        if not path.exists():
            raise DataFileError(f"{path}: prompt for stage {stage!r} is missing")
        prompts[stage] = load_prompt(path)
    return prompts


def prompt_version(prompts: dict[str, Prompt], stages: tuple[str, ...]) -> str:
    """Short hash over the prompts a scheme uses (recorded in Provenance.prompt_version)."""
    h = hashlib.sha256()
    for s in stages:
        h.update(f"{s}:{prompts[s].digest}\n".encode())
    return h.hexdigest()[:12]
