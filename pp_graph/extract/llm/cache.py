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

from pp_graph.errors import ConfigError

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


_TABLES = {"responses", "facts"}


class CacheError(ConfigError):
    """The cache file cannot be used (corrupt, not ours, unwritable); names it and says what to do."""

    fatal = True  # every further policy would meet the same file


class ResponseCache:
    """A small key → response store; safe for several processes (WAL, busy timeout).

    A file that is not an SQLite database, or an SQLite database holding other tables, is refused
    (CacheError) rather than written into: ``--path`` may name any file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        hint = "remove it, or point --path / cache_path / $PP_GRAPH_LLM_CACHE elsewhere"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as e:
            raise CacheError(f"LLM cache {path}: cannot be opened ({e}); {hint}") from e
        try:
            tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and not tables >= _TABLES:
                raise CacheError(
                    f"LLM cache {path}: is an SQLite database but not a pp-graph cache (tables: "
                    f"{', '.join(sorted(tables))}); refusing to change it; {hint}"
                )
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise CacheError(f"LLM cache {path}: is not a usable SQLite database ({e}); {hint}") from e
        except BaseException:
            self.db.close()
            raise

    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, args)
        except sqlite3.DatabaseError as e:  # a file damaged after it was opened
            raise CacheError(f"LLM cache {self.path}: {e}; remove it (answers will be requested again)") from e

    def get(self, key: str) -> CachedResponse | None:
        row = self._run(
            "SELECT content, finish_reason, prompt_tokens, completion_tokens FROM responses WHERE key = ?", (key,)
        ).fetchone()
        return CachedResponse(*row) if row else None

    def put(self, key: str, stage: str, model: str, resp: CachedResponse) -> None:
        self._run(
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
        row = self._run("SELECT value FROM facts WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def set_fact(self, key: str, value: str) -> None:
        self._run("INSERT OR REPLACE INTO facts VALUES (?, ?)", (key, value))

    def stats(self) -> list[dict[str, Any]]:
        rows = self._run(
            "SELECT stage, model, COUNT(*), SUM(prompt_tokens), SUM(completion_tokens) FROM responses "
            "GROUP BY stage, model ORDER BY stage, model"
        ).fetchall()
        return [
            {"stage": s, "model": m, "responses": n, "prompt_tokens": pt or 0, "completion_tokens": ct or 0}
            for s, m, n, pt, ct in rows
        ]

    def clear(self) -> int:
        n = int(self._run("SELECT COUNT(*) FROM responses").fetchone()[0])
        self._run("DELETE FROM responses")
        self._run("DELETE FROM facts")
        self._run("VACUUM")
        return n

    def close(self) -> None:
        self.db.close()
