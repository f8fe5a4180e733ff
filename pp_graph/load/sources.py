"""Read policy files: plain text, markdown, HTML. Errors name the file and the problem."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from pp_graph.errors import InputError
from pp_graph.load.versions import iso_of_stamp, stamp_of
from pp_graph.model import Policy

SUFFIXES = {
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".html": "text/html",
    ".htm": "text/html",
}

_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")


def site_from_name(path: Path) -> str:
    """``bbc.co.uk.html`` → ``bbc.co.uk``: the file name, less its suffix, is the site's domain; a dated
    version ``github.com/20230101T000000Z.md`` takes its site from its folder."""
    if stamp_of(path):
        return path.parent.name.lower()
    name = path.name
    for suffix in sorted(SUFFIXES, key=len, reverse=True):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    return name.lower()


def check_site(site: str, source: str) -> str:
    site = site.strip().lower()
    if not _DOMAIN.match(site):
        raise InputError(source, f"site {site!r} is not a domain name (e.g. github.com); pass --site DOMAIN")
    return site


def discover(inputs: Iterable[Path]) -> list[Path]:
    """Policy files under the given files/folders, sorted, supported suffixes only."""
    found: list[Path] = []
    for p in inputs:
        if p.is_dir():
            found.extend(f for f in sorted(p.rglob("*")) if f.is_file() and f.suffix.lower() in SUFFIXES)
        elif p.is_file():
            found.append(p)
        else:
            raise InputError(str(p), "no such file or folder")
    return found


def policy_files(inputs: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """(policies, skipped) under the inputs: inside a folder a file is a policy only when named after its
    domain (README.md, SOURCE.md are skipped); a file named on the command line is always taken."""
    inputs = list(inputs)
    policies: list[Path] = []
    skipped: list[Path] = []
    named = {p for p in inputs if p.is_file()}
    for f in discover(inputs):
        (policies if f in named or "." in site_from_name(f) else skipped).append(f)
    return policies, skipped


def read_text(path: Path) -> str:
    src = path.name
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise InputError(src, f"cannot be read ({e.strerror})") from e
    if not raw.strip():
        raise InputError(src, "is empty")
    if b"\x00" in raw[:8192]:
        raise InputError(src, "looks binary (contains NUL bytes); expected a text, markdown or HTML policy")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(src, f"is not valid UTF-8 (byte {e.start}); re-encode it as UTF-8") from e
    return text


def html_to_text(html: str) -> str:
    """HTML → markdown-like text: headings and list items kept; scripts, styles, navigation dropped."""
    import html2text
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "noscript", "nav", "header", "footer", "template", "svg", "form"]):
        tag.decompose()
    conv = html2text.HTML2Text()
    conv.body_width = 0  # one paragraph = one line, as segmentation expects
    conv.ignore_images = True
    conv.ignore_links = True
    conv.ignore_emphasis = True
    text = conv.handle(str(soup))
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def load_policy(path: Path, site: str | None = None, valid_from: str | None = None) -> Policy:
    """One policy file; a dated version's date comes from its name unless ``valid_from`` is given."""
    suffix = path.suffix.lower()
    media = SUFFIXES.get(suffix)
    if media is None:
        raise InputError(path.name, f"unsupported file type {suffix or '(none)'}; use one of {', '.join(SUFFIXES)}")
    stamp = stamp_of(path)
    if valid_from is None and stamp:
        valid_from = iso_of_stamp(stamp)
    name = f"{path.parent.name}/{path.name}" if stamp else path.name  # a bare date says nothing of the site
    return policy_from_text(read_text(path), site or site_from_name(path), name, media, valid_from)


def policy_from_text(
    text: str, site: str, name: str = "<text>", media_type: str = "text/markdown", valid_from: str | None = None
) -> Policy:
    """A policy from a string; files come through here too, so both get the same checks."""
    if not text.strip():
        raise InputError(name, "is empty")
    # One newline convention so offsets mean the same on every platform.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if media_type == "text/html":
        text = html_to_text(text)
        if not text.strip():
            raise InputError(name, "HTML has no visible text")
    return Policy(
        site=check_site(site, name), text=text, source_name=name, media_type=media_type, valid_from=valid_from
    )
