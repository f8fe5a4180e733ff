"""What a backend can read, and the warning when a policy is written in a language it cannot."""

from __future__ import annotations

from pp_graph.load.language import language_name
from pp_graph.model import Language


def language_warning(language: Language | None, backend: str, reads: frozenset[str] | None, practices: int) -> str:
    """The warning for a policy ``backend`` cannot read ('' when it can, or when the language is not sure):
    it names the language found and what was extracted, so an empty graph is never a silent one."""
    if reads is None or language is None or not language.confident or language.code in reads:
        return ""
    readable = " and ".join(language_name(c) for c in sorted(reads))
    found = f"{language_name(language.code)} ({language.code}, {language.confidence:.2f})"
    what = "no practices" if practices == 0 else f"only {practices} practice{'s' if practices != 1 else ''}"
    return (
        f"the {backend} backend reads {readable}; this text looks {found}: {what} extracted by the {backend} "
        "backend — use --backend llm"
    )
