"""Secrets: a password or PIN after its cue ("password hunter2" → hunter2), not the cue (patterns: credentials.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pp_graph.anonymize.credentials import PASSWORD, PIN, value_span
from pp_graph.anonymize.recognizers.base import Family, Finder

FAMILY = Family("passwords")


def secret_values(pattern: str) -> Finder:
    rx = re.compile(pattern)

    def find(text: str) -> Iterator[tuple[int, int]]:
        return (value_span(m) for m in rx.finditer(text))

    return find


FAMILY.add("password", "SECRET", 9, secret_values(PASSWORD))
FAMILY.add("pin", "SECRET", 9, secret_values(PIN))
