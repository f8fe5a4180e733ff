"""SQLite response cache: one row per request, keyed by the hash of everything that changes the answer.

The key covers stage, prompt hash, model, parameters and the full messages (see :func:`cache_key`), so
editing a prompt, switching models or changing max_tokens never returns a stale answer. Truncated
answers are cached too: a rerun then replays the same retry path without a request.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_CACHE = Path(".pp-graph-cache") / "llm.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
  key TEXT PRIMARY KEY, stage TEXT NOT NULL, model TEXT NOT NULL, content TEXT NOT NULL,
  finish_reason TEXT, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def cache_key(stage: str, prompt_hash: str, model: str, params: dict[str, Any], messages: list[dict[str, str]]) -> str:
    blob = json.dumps([stage, prompt_hash, model, params, messages], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class CachedResponse:
    content: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int


def default_cache_path() -> Path:
    env = os.environ.get("PP_GRAPH_LLM_CACHE")
    return Path(env) if env else Path.cwd() / DEFAULT_CACHE


class ResponseCache:
    """A small key → response store; safe for several processes (WAL, busy timeout)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(_SCHEMA)

    def get(self, key: str) -> CachedResponse | None:
        row = self.db.execute(
            "SELECT content, finish_reason, prompt_tokens, completion_tokens FROM responses WHERE key = ?", (key,)
        ).fetchone()
        return CachedResponse(*row) if row else None

    def put(self, key: str, stage: str, model: str, resp: CachedResponse) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                stage,
                model,
                resp.content,
                resp.finish_reason,
                resp.prompt_tokens,
                resp.completion_tokens,
                time.time(),
            ),
        )

    def fact(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM facts WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def set_fact(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO facts VALUES (?, ?)", (key, value))

    def stats(self) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT stage, model, COUNT(*), SUM(prompt_tokens), SUM(completion_tokens) FROM responses "
            "GROUP BY stage, model ORDER BY stage, model"
        ).fetchall()
        return [
            {"stage": s, "model": m, "responses": n, "prompt_tokens": pt or 0, "completion_tokens": ct or 0}
            for s, m, n, pt, ct in rows
        ]

    def clear(self) -> int:
        n = int(self.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])
        self.db.execute("DELETE FROM responses")
        self.db.execute("DELETE FROM facts")
        self.db.execute("VACUUM")
        return n

    def close(self) -> None:
        self.db.close()
