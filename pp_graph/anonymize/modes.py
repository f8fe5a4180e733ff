"""NER modes: what runs after the registry's pattern recognisers, and the digest of the models each runs.

"hybrid" (default: the sequence model decides street-address runs and adds persons, the soft pattern spans and
filtered spaCy entities fill the rest), "crf" (the sequence model decides every soft type), "spacy" (the spaCy
pipeline's entities after the patterns) and "none". ``register_mode`` adds one; records carry a mode's name and
its digest.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from pp_graph.anonymize.recognizers.base import Entity
from pp_graph.anonymize.recognizers.spacy_ner import kept_spacy, ner_entities
from pp_graph.anonymize.resolve import clip, resolve
from pp_graph.errors import ConfigError

# The types the sequence model owns: pattern spans of these types are its features, not the answer.
SOFT_TYPES = frozenset({"PERSON", "ORGANIZATION", "GPE", "STREET_ADDRESS", "TITLE", "NRP", "ZIP_CODE"})
# In the hybrid mode the sequence model decides these types only (chosen by cross-validation on the dev half).
CRF_OWN = frozenset({"STREET_ADDRESS"})
CRF_FILL = frozenset({"PERSON"})  # the model adds persons where nothing else found one (dev CV: +0.2 pt)

_NUMBER_WORD = re.compile(r"\d+[ \t]+[^\W\d_]")
_LETTERS = re.compile(r"[^\W\d_]{3,}")


def _plausible(span: tuple[str, int, int], streets: list[tuple[int, int]], text: str) -> bool:
    """A model address either extends a pattern street match or reads like one on its own (a number followed by
    a word, and at least two words): "3... 2... 1... liftoff" or "They had 6: Anna, …" are not addresses."""
    t, s, e = span
    if t != "STREET_ADDRESS" or any(a < e and s < b for a, b in streets):
        return True
    value = text[s:e]
    return bool(_NUMBER_WORD.search(value)) and len(_LETTERS.findall(value)) >= 2


def hybrid(text: str, taken: list[Entity], model_decides_all: bool = False) -> list[Entity]:
    """The sequence model (pattern and spaCy labels as features) decides street-address runs and adds persons
    nothing else found; the soft pattern spans and spaCy fill the rest. ``model_decides_all``: the model alone
    decides every soft type (the ablation the choice was measured against)."""
    from pp_graph.anonymize import crf

    spacy_ents = ner_entities(text)
    model = crf.predict(text, [(x.type, x.start, x.end) for x in taken], [(x.type, x.start, x.end) for x in spacy_ents])
    hard = [x for x in taken if x.type not in SOFT_TYPES]
    if model_decides_all:
        return resolve([(50, -(e - s), Entity(t, s, e, "crf")) for t, s, e in model], hard)
    soft = [(51, -(x.end - x.start), x) for x in taken if x.type in SOFT_TYPES]
    streets = [(x.start, x.end) for x in taken if x.type == "STREET_ADDRESS"]
    own = [x for x in clip([m for m in model if m[0] in CRF_OWN], hard, text) if _plausible(x, streets, text)]
    out = resolve([(50, -(e - s), Entity(t, s, e, "crf")) for t, s, e in own], hard)
    out = resolve(soft, out)
    out = resolve([(55, -(x.end - x.start), x) for x in kept_spacy(spacy_ents, text)], out)
    return resolve([(56, -(e - s), Entity(t, s, e, "crf")) for t, s, e in model if t in CRF_FILL], out)


def _spacy(text: str, taken: list[Entity]) -> list[Entity]:
    return resolve([(55, -(x.end - x.start), x) for x in ner_entities(text)], taken)


def spacy_digest() -> str:
    import hashlib
    import json

    from pp_graph.anonymize import crf

    # the rule recognisers run before spaCy read the name lists: their digest is part of the answer's
    parts = {**crf.ner_pipeline(), "rules": rules_digest()}
    return "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def rules_digest() -> str:
    """The digest of the name lists the rule recognisers read (the packages' versions and this project's word
    lists)."""
    import hashlib
    import json

    from pp_graph.anonymize import crf

    parts = {"lexicons": crf.lexicons(), "word_lists": crf.word_lists_digest()}
    return "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def mode_digest(mode: str, models: Callable[[], str]) -> Callable[[], str]:
    """A digest of ``{"mode", "models"}``: two modes over the same models give different entities, so different
    digests."""

    def digest() -> str:
        import hashlib
        import json

        parts = {"mode": mode, "models": models()}
        return "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()

    return digest


def crf_digest() -> str:
    from pp_graph.anonymize import crf

    return crf.detector_digest()


@dataclass(frozen=True)
class NerMode:
    """One NER mode: what runs after the pattern recognisers, and the digest of the models it runs (None: no
    model ran). The digest is computed once per registration: ``detect`` asks for it on every call, and a mode
    registered again is a new ``NerMode`` with its own."""

    run: Callable[[str, list[Entity]], list[Entity]]
    digest: Callable[[], str | None]

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", cache(self.digest))  # a failing digest raises again: not cached


# The NER modes (``recognize``'s ``mode``). The default keeps the plain CRF digest (the one records carry already).
MODES: dict[str, NerMode] = {
    "hybrid": NerMode(hybrid, crf_digest),
    "crf": NerMode(lambda text, taken: hybrid(text, taken, model_decides_all=True), mode_digest("crf", crf_digest)),
    "spacy": NerMode(_spacy, spacy_digest),
    "none": NerMode(lambda text, taken: taken, lambda: None),
}
BUILT_IN_MODES = frozenset(MODES)  # register_mode cannot replace these
DEFAULT_MODE = "hybrid"
# The shapes of a mode's name and of its digest, checked at registration and again by the plane ledger (which
# imports them): ASCII and hex only, so neither has room for a personal value.
MODE_NAME = re.compile(r"[a-z0-9][a-z0-9+._-]{0,63}")
DIGEST = re.compile(r"sha256:[0-9a-f]{64}")


def ner_modes() -> tuple[str, ...]:
    """The NER modes registered now (built-in ones and any added with ``register_mode`` since import)."""
    return tuple(MODES)


def register_mode(
    name: str, run: Callable[[str, list[Entity]], list[Entity]], digest: Callable[[], str | None]
) -> None:
    """Add an NER mode. ``digest`` names the models it runs (records carry it); a mode without one is refused, so
    no record says "no model ran" of a mode that ran one. A built-in mode cannot be replaced (its records would
    carry its name over other models)."""
    if name in BUILT_IN_MODES:
        raise ConfigError(f"NER mode {name!r} is built-in and cannot be replaced; register it under another name")
    if not isinstance(name, str) or not MODE_NAME.fullmatch(name):
        raise ConfigError(
            f"NER mode name {str(name)[:70]!r}: records carry it, so it must be 1-64 of a-z 0-9 + . _ - "
            "(starting with a letter or digit)"
        )
    if not callable(run) or not callable(digest):
        raise ConfigError(f"NER mode {name!r}: needs a run function and a digest function of its models")
    MODES[name] = NerMode(run, _checked_digest(name, digest))


def _checked_digest(name: str, digest: Callable[[], str | None]) -> Callable[[], str]:
    """``digest``, refusing a value that is not "sha256:" and 64 lowercase hex digits (None would record that no
    model ran; any other string could carry a value into the records)."""

    def checked() -> str:
        value = digest()
        if not isinstance(value, str) or not DIGEST.fullmatch(value):
            raise ConfigError(
                f"NER mode {name!r}: its digest function gave {type(value).__name__} {str(value)[:20]!r}, "
                "not a 'sha256:<64 hex digits>' digest of its models"
            )
        return value

    return checked


def mode_entry(mode: str | None) -> NerMode:
    mode = DEFAULT_MODE if mode is None else mode  # "" is an unknown mode, not the default
    entry = MODES.get(mode)
    if entry is None:
        raise ConfigError(f"unknown NER mode {mode!r} (one of {', '.join(ner_modes())})")
    if not isinstance(entry, NerMode):
        raise ConfigError(f"NER mode {mode!r} was not added with register_mode (no digest of its models)")
    return entry


def mode_name(mode: str | None) -> str:
    """The registered name of ``mode`` (None: ``DEFAULT_MODE``), looked up in ``MODES`` now, so a mode added
    later with ``register_mode`` is accepted. Raises ConfigError naming an unknown mode and the known ones."""
    mode_entry(mode)
    return DEFAULT_MODE if mode is None else mode


def detector_digest(mode: str | None = None) -> str | None:
    """The digest of the models ``mode`` runs (None for mode "none"). Records carry it.
    Raises ConfigError for an unknown mode or one not added with ``register_mode``."""
    return mode_entry(mode).digest()
