"""Read policy files: plain text, markdown, HTML, PDF (its text layer). Errors name the file and the problem."""

from __future__ import annotations

import errno
from collections.abc import Iterable
from pathlib import Path

from pp_graph.errors import InputError
from pp_graph.load.html import html_text
from pp_graph.load.versions import iso_of_stamp, stamp_of
from pp_graph.model import Policy
from pp_graph.sites import is_domain, site_host

SUFFIXES = {
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".html": "text/html",
    ".htm": "text/html",
    ".pdf": "application/pdf",  # read as its text layer (text/plain)
}

# Files over this size are refused by the batch unless raised (--max-size): a policy is rarely over 1 MB,
# and a 50 MB file is more likely a dump than one policy (and takes minutes).
DEFAULT_MAX_BYTES = 10_000_000


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


def check_site(site: str, source: str, *, from_option: bool = False) -> str:
    """The normalised site (see pp_graph.sites) or InputError; the hint names --site only when it was not given,
    and the file's name first."""
    host = site_host(site)
    if not is_domain(host):
        hint = "" if from_option else "; name the file after its site (e.g. github.com.md), or give --site DOMAIN"
        raise InputError(source, f"site {site.strip()!r} is not a domain name or URL (e.g. github.com){hint}")
    return host


def skip_reason(path: Path) -> str | None:
    """Why a file found in a folder is not a policy, or None when it is one."""
    link = link_problem(path)
    if link:
        return link
    if path.name.startswith("._"):
        return "AppleDouble metadata file (._*), not a policy"
    if path.name.startswith("."):
        return "hidden file"
    if "." not in site_from_name(path):
        return "not named <domain>.<ext>"
    return None


def link_problem(path: Path) -> str | None:
    """Why a symbolic link found in a folder is not read (a loop, a missing target, a folder), or None."""
    if not path.is_symlink():
        return None
    try:
        path.stat()
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "symbolic link loop (following it never reaches a file)"
        return f"broken symbolic link ({e.strerror or 'target missing'})"
    if path.is_dir():
        target = path.resolve()
        if target == path.parent.resolve() or target in path.parent.resolve().parents:
            return "symbolic link loop (the link points to a folder that contains it)"
        return "symbolic link to a folder: not followed (name the folder itself to convert it)"
    return None


def discover(inputs: Iterable[Path]) -> list[Path]:
    """Policy files under the given files/folders, sorted, supported suffixes only; symbolic links that cannot be
    read as files (loops, missing targets, links to folders) are listed too, for ``skip_reason`` to name."""
    found: list[Path] = []
    for p in inputs:
        if p.is_dir():
            found.extend(
                f
                for f in sorted(p.rglob("*"))
                if not _in_hidden_folder(f, p)
                and ((f.is_file() and f.suffix.lower() in SUFFIXES) or _unreadable_link(f))
            )
        elif p.is_file():
            found.append(p)
        elif p.is_symlink():
            raise InputError(str(p), link_problem(p) or "symbolic link that cannot be read")
        else:
            raise InputError(str(p), "no such file or folder")
    return found


def _unreadable_link(f: Path) -> bool:
    """A link ``discover`` lists for its reason: a policy-named one that is not a file, or one to a folder."""
    if not f.is_symlink():
        return False
    return f.is_dir() or (not f.is_file() and f.suffix.lower() in SUFFIXES)


def _in_hidden_folder(f: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in f.relative_to(root).parts[:-1])


def display_name(f: Path, inputs: Iterable[Path]) -> str:
    """How messages name a file: relative to the folder it was found in, else as given."""
    for p in inputs:
        if p.is_dir() and f.is_relative_to(p):
            return str(f.relative_to(p))
    return str(f)


def policy_files(inputs: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """(policies, skipped) under the inputs: inside a folder a file is a policy only when named after its
    domain (README.md, SOURCE.md are skipped); a file named on the command line is always taken."""
    inputs = list(inputs)
    policies: list[Path] = []
    skipped: list[Path] = []
    named = {p for p in inputs if p.is_file()}
    for f in discover(inputs):
        (policies if f in named or skip_reason(f) is None else skipped).append(f)
    return policies, skipped


def read_text(path: Path, label: str | None = None, max_bytes: int | None = None) -> str:
    """The file's text (UTF-8, or UTF-16/32 with a byte-order mark); InputError naming ``label`` otherwise."""
    src = label or path.name
    try:
        if max_bytes is not None and path.stat().st_size > max_bytes:
            raise InputError(src, too_big(path.stat().st_size, max_bytes))
        raw = path.read_bytes()
    except OSError as e:
        raise InputError(src, f"cannot be read ({e.strerror})") from e
    return decode_text(raw, src)


def pdf_file_text(path: Path, src: str, max_bytes: int | None = None) -> str:
    """A PDF file's text layer; InputError naming ``src`` otherwise."""
    from pp_graph.load.pdf import pdf_text

    try:
        if max_bytes is not None and path.stat().st_size > max_bytes:
            raise InputError(src, too_big(path.stat().st_size, max_bytes))
        raw = path.read_bytes()
    except OSError as e:
        raise InputError(src, f"cannot be read ({e.strerror})") from e
    return pdf_text(raw, src)


def too_big(size: int, limit: int) -> str:
    return (
        f"is {size / 1e6:.3g} MB, over the size limit of {limit / 1e6:g} MB; if it really is one policy, "
        f"raise the limit (--max-size {max(1, -(-size // 1_000_000))})"
    )


_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def decode_text(raw: bytes, src: str) -> str:
    """Bytes → text: a UTF-16/32 byte-order mark decides the encoding, else UTF-8 (BOM optional)."""
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            try:
                text = raw.decode(codec)  # the BOM itself is consumed by the codec
            except UnicodeDecodeError as e:
                raise InputError(
                    src, f"is not valid {codec.upper()} (byte {e.start}) despite its byte-order mark"
                ) from e
            if not text.strip():
                raise InputError(src, "is empty")
            return text
    if not raw.strip():
        raise InputError(src, "is empty")
    if b"\x00" in raw[:8192]:
        found = bomless_codec(raw[:8192])
        if found:
            # Not decoded on a guess: the NUL pattern is strong evidence, but the caller should confirm it.
            raise InputError(
                src,
                f"looks like {found.upper()} without a byte-order mark; re-encode it as UTF-8 "
                f"(e.g. iconv -f {found.upper()} -t UTF-8) or save it with a byte-order mark",
            )
        raise InputError(src, "looks binary (contains NUL bytes); expected a text, markdown or HTML policy")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(src, f"is not valid UTF-8 (byte {e.start}); re-encode it as UTF-8") from e


def bomless_codec(head: bytes) -> str | None:
    """'utf-16-le' / 'utf-16-be' / 'utf-32-le' / 'utf-32-be' when the NUL bytes of ``head`` fall where that
    encoding puts them for text in the first 256 code points (and the bytes decode), else None."""
    for codec, width in (("utf-32-le", 4), ("utf-32-be", 4), ("utf-16-le", 2), ("utf-16-be", 2)):
        n = len(head) // width * width
        if n < 2 * width:
            continue
        units = [head[i : i + width] for i in range(0, n, width)]
        text_byte = 0 if codec.endswith("le") else width - 1  # where the character's own byte sits
        zero_rest = sum(all(b == 0 for j, b in enumerate(u) if j != text_byte) for u in units)
        if zero_rest >= 0.7 * len(units) and sum(u[text_byte] != 0 for u in units) >= 0.7 * len(units):
            try:
                head[:n].decode(codec)
            except UnicodeDecodeError:
                continue
            return codec
    return None


def load_policy(
    path: Path,
    site: str | None = None,
    *,
    label: str | None = None,
    max_bytes: int | None = None,
    valid_from: str | None = None,
) -> Policy:
    """A policy file; errors name it as ``label`` (default: its name), sites from --site are checked as such.
    A dated version's date comes from its name (``<domain>/<YYYYMMDDTHHMMSSZ>.md``) unless ``valid_from`` is given."""
    src = label or path.name
    suffix = path.suffix.lower()
    media = SUFFIXES.get(suffix)
    if media is None:
        raise InputError(src, f"unsupported file type {suffix or '(none)'}; use one of {', '.join(SUFFIXES)}")
    if media == "application/pdf":
        text, media = pdf_file_text(path, src, max_bytes), "text/plain"
    else:
        text = read_text(path, src, max_bytes)
    if site is not None:
        site = check_site(site, src, from_option=True)
    stamp = stamp_of(path)
    if valid_from is None and stamp:
        valid_from = iso_of_stamp(stamp)
    name = f"{path.parent.name}/{path.name}" if stamp else path.name  # a bare date says nothing of the site
    return policy_from_text(text, site or site_from_name(path), name, media, label=src, valid_from=valid_from)


def policy_from_text(
    text: str,
    site: str,
    name: str = "<text>",
    media_type: str = "text/markdown",
    *,
    label: str | None = None,
    valid_from: str | None = None,
) -> Policy:
    """A policy from a string; files come through here too, so both get the same checks."""
    src = label or name
    if not text.strip():
        raise InputError(src, "is empty")
    # One newline convention so offsets mean the same on every platform.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if media_type == "text/html":
        text = html_text(text)
        if not text.strip():
            raise InputError(src, "HTML has no visible text")
    return Policy(site=check_site(site, src), text=text, source_name=name, media_type=media_type, valid_from=valid_from)
