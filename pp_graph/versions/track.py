"""Keep a dated archive of policies: fetch each site's policy and keep a new version only when its text changed.

The archive is ``<out>/<domain>/<YYYYMMDDTHHMMSSZ>.md`` (the layout ``convert`` reads as dated versions). The
sites file is TOML::

    [sites."github.com"]
    url = "https://docs.github.com/en/site-policy/privacy-policies/github-general-privacy-statement"

Texts are compared after trailing spaces and runs of blank lines are normalised, so a page that only
re-flowed its whitespace is not a new version.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pp_graph.errors import InputError
from pp_graph.load.fetch import Fetched, fetch_policy
from pp_graph.load.sources import check_site
from pp_graph.load.versions import stamp_of, stamp_of_iso
from pp_graph.urls import shown_url, without_userinfo


@dataclass(frozen=True)
class Tracked:
    site: str
    url: str
    status: str  # new (first version), changed, unchanged, failed
    file: str | None = None
    error: str | None = None

    def __post_init__(self) -> None:  # the URL as shown and stored: without a password put in it
        object.__setattr__(self, "url", shown_url(self.url))
        if self.error is not None:
            object.__setattr__(self, "error", without_userinfo(self.error))

    def to_dict(self) -> dict[str, Any]:
        return {"site": self.site, "url": self.url, "status": self.status, "file": self.file, "error": self.error}


def load_sites(path: Path) -> dict[str, str]:
    """Site → URL from the sites file; errors name the file and the key."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(str(path), f"cannot be read ({e.strerror})") from e
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise InputError(str(path), f"is not valid TOML ({e})") from e
    sites = data.get("sites")
    if not isinstance(sites, dict) or not sites:
        raise InputError(str(path), 'needs a [sites."<domain>"] table with url = "…" for each site')
    out: dict[str, str] = {}
    for name, entry in sites.items():
        where = f"{path}: sites.{name}"
        if not isinstance(entry, dict) or not isinstance(entry.get("url"), str):
            raise InputError(where, 'needs url = "https://…"')
        unknown = sorted(set(entry) - {"url"})
        if unknown:
            raise InputError(where, f"unknown key(s) {', '.join(unknown)}; allowed: url")
        out[check_site(name, where)] = entry["url"]
    return out


def normalise(text: str) -> str:
    lines = [ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


def latest(folder: Path) -> Path | None:
    files = sorted(f for f in folder.glob("*.md") if stamp_of(f)) if folder.is_dir() else []
    return files[-1] if files else None


def track_site(site: str, url: str, out: Path, fetch: Callable[[str], Fetched] = fetch_policy) -> Tracked:
    try:
        got = fetch(url)
    except InputError as e:
        return Tracked(site, url, "failed", error=str(e))
    folder = out / site
    prev = latest(folder)
    text = normalise(got.text)
    if prev is not None and normalise(prev.read_text(encoding="utf-8")) == text:
        return Tracked(site, url, "unchanged", str(prev.relative_to(out)))
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{stamp_of_iso(got.fetched_at)}.md"
    if target.exists():  # two changes within one second: keep the first, say so
        return Tracked(site, url, "failed", error=f"{target.name} already exists; run again in a second")
    from pp_graph.outfiles import atomic_write

    atomic_write(target, text)
    return Tracked(site, url, "new" if prev is None else "changed", str(target.relative_to(out)))


def track(sites_file: Path, out: Path, fetch: Callable[[str], Fetched] = fetch_policy) -> list[Tracked]:
    sites = load_sites(sites_file)
    return [track_site(site, url, out, fetch) for site, url in sorted(sites.items())]
