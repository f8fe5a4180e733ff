"""Settings of the LLM backend: defaults < TOML file (--config) < options (--model, --option KEY=VALUE).

Validated by pydantic with ``extra="forbid"``, so a misspelt key is an error that names the key.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pp_graph.errors import ConfigError

SCHEMES: dict[str, tuple[str, ...]] = {
    # ours: recognition+classification together, structure together, relations on code-given ids
    "ours": ("entities", "structure", "relations"),
    # the paper: one request per stage per segment, seven stages
    "paper": ("data_spans", "data_classes", "purpose_spans", "purpose_classes", "parties", "practices", "relations"),
}
# The transparency stage (GDPR Art. 13/14 requirements) asks the model only with ``transparency = "llm"``.
TRANSPARENCY = "transparency"
ALL_STAGES = tuple(dict.fromkeys([*(s for stages in SCHEMES.values() for s in stages), TRANSPARENCY]))


class StageSettings(BaseModel):
    """Per-stage overrides (``[llm.stages.<stage>]`` in the TOML file)."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = None
    temperature: float | None = Field(default=None, ge=0, le=2)
    max_tokens: int | None = Field(default=None, ge=16)
    concurrency: int | None = Field(default=None, ge=1, le=256)


class LLMSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str = "gpt-4o-mini"
    base_url: str | None = None  # default: $OPENAI_BASE_URL, else the OpenAI API
    api_key: str | None = None  # default: $OPENAI_API_KEY (or api_key_env)
    api_key_env: str = "OPENAI_API_KEY"
    scheme: Literal["ours", "paper"] = "ours"
    # Who finds the transparency requirements: the offline rules over the model's facts (no request), or the model.
    transparency: Literal["rules", "llm"] = "rules"
    temperature: float = Field(default=0.0, ge=0, le=2)
    seed: int | None = 20240901
    max_tokens: int | None = Field(default=None, ge=16)  # default: 1000 for the paper scheme, 4096 for ours
    max_tokens_cap: int = Field(default=8192, ge=16)
    structured_output: Literal["auto", "json_schema", "json_object", "none"] = "auto"
    timeout: float = Field(default=60.0, gt=0)
    retries: int = Field(default=5, ge=0, le=20)
    backoff_base: float = Field(default=1.0, ge=0)
    backoff_cap: float = Field(default=30.0, ge=0)
    retry_after_cap: float = Field(default=120.0, ge=0)
    concurrency: int = Field(default=8, ge=1, le=256)
    prefilter: bool = False
    pack_chars: int = Field(default=5000, ge=1)
    pack_segments: int = Field(default=24, ge=1, le=200)
    budget: float | None = Field(default=None, ge=0)
    no_cache: bool = False
    cache_path: str | None = None
    price_in: float | None = Field(default=None, ge=0)  # USD per 1M tokens, overrides data/llm-prices.tsv
    price_out: float | None = Field(default=None, ge=0)
    stages: dict[str, StageSettings] = Field(default_factory=dict)

    @field_validator("stages")
    @classmethod
    def _known_stages(cls, v: dict[str, StageSettings]) -> dict[str, StageSettings]:
        unknown = sorted(set(v) - set(ALL_STAGES))
        if unknown:
            raise ValueError(f"unknown stage(s) {', '.join(unknown)}; stages are: {', '.join(ALL_STAGES)}")
        return v

    # -- resolved values --

    def stage(self, name: str) -> StageSettings:
        return self.stages.get(name, StageSettings())

    def stage_model(self, name: str) -> str:
        return self.stage(name).model or self.model

    def stage_temperature(self, name: str) -> float:
        t = self.stage(name).temperature
        return self.temperature if t is None else t

    def stage_max_tokens(self, name: str) -> int:
        mt = self.stage(name).max_tokens or self.max_tokens
        return mt or (1000 if self.scheme == "paper" else 4096)

    def resolved_base_url(self) -> str | None:
        return self.base_url or os.environ.get("OPENAI_BASE_URL") or None

    def resolved_api_key(self) -> str | None:
        return self.api_key or os.environ.get(self.api_key_env) or None

    def asked_stages(self) -> tuple[str, ...]:
        """The stages that send requests: the scheme's, and the transparency stage when the model answers it."""
        return SCHEMES[self.scheme] + ((TRANSPARENCY,) if self.transparency == "llm" else ())

    def models(self) -> list[str]:
        return sorted({self.stage_model(s) for s in self.asked_stages()})


def load_settings(config: str | Path | None = None, **options: Any) -> LLMSettings:
    """Merge the TOML file (top level or an ``[llm]`` table) with the options; ConfigError if invalid."""
    data: dict[str, Any] = {}
    source = "options"
    if config is not None:
        path = Path(config)
        source = str(path)
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as e:
            raise ConfigError(f"{path}: cannot read the LLM config ({e.strerror})") from e
        except UnicodeDecodeError as e:
            raise ConfigError(f"{path}: the LLM config is not valid UTF-8 (byte {e.start})") from e
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: not valid TOML: {e}") from e
        data = dict(raw.get("llm", raw))
    for k, v in options.items():
        if v is None:
            continue
        if k == "stages" and isinstance(v, dict):
            data.setdefault("stages", {}).update(v)
        else:
            data[k] = v
    try:
        settings = LLMSettings.model_validate(data)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(map(str, err['loc'])) or 'config'}: {err['msg']}" for err in e.errors())
        raise ConfigError(f"llm backend settings ({source}): {problems}") from e
    if settings.max_tokens and settings.max_tokens > settings.max_tokens_cap:
        raise ConfigError(
            f"llm backend: max_tokens {settings.max_tokens} is above max_tokens_cap {settings.max_tokens_cap}"
        )
    return settings
