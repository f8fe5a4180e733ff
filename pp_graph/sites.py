"""Site names: one normalisation for every command (convert --site, file names, risk --site, the what-if page).

A site is given as a domain, a URL or an internationalised domain; it is kept as the lower-case ASCII
(IDNA A-label, punycode) host without ``www.``, so ``https://www.Bücher.de/privacy`` and
``xn--bcher-kva.de`` name the same site and the same IRIs.

URLs are split the way HTTP clients split them (the WHATWG URL standard): for http(s) a backslash ends the
authority like ``/`` does, the user information is everything before the last ``@`` of the authority, and a
port must be a number. Whatever is left must be a host name (letters, digits and hyphens in dot-separated
labels); anything else is refused, never guessed at, so a malformed destination cannot borrow the policy of a
real site whose name appears somewhere in it. A backslash in the authority is refused outright: browsers end
the host there, other clients do not, so the two would connect to different hosts.
"""

from __future__ import annotations

import re

from pp_graph.errors import InputError

_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_SPECIAL = frozenset({"http", "https", "ws", "wss", "ftp"})
_AUTHORITY_END = re.compile(r"[/\\?#]")  # WHATWG: for special schemes "\" ends the authority as "/" does
_PORT = re.compile(r"^[0-9]{1,5}$")


class SiteError(InputError):
    """A site that is not a host name (or a URL of one). The message names the host part, never user information."""


def parse_site(site: str, where: str = "site") -> str:
    """The site's host: lower case, A-labels, without ``www.``, port, user information or path.
    Raises SiteError when the input does not name exactly one valid host name."""
    host = _host_part(site, where)
    if not host.isascii():
        host = _to_ascii(host, where)
    host = host.lower()
    host = host[:-1] if host.endswith(".") else host  # the fully qualified spelling names the same host
    host = host[4:] if host.startswith("www.") else host
    if not is_domain(host):
        raise SiteError(where, f"{_shown(host)} is not a host name (such as github.com)")
    return host


def site_host(site: str) -> str:
    """``parse_site`` for callers that check the host themselves: an unparsable site gives ``""`` (no domain)."""
    try:
        return parse_site(site)
    except SiteError:
        return ""


def is_domain(host: str) -> bool:
    return bool(_DOMAIN.match(host))


def _host_part(site: str, where: str) -> str:
    """The host of a domain or URL, split as an HTTP client splits it (WHATWG); SiteError for what no client
    would read as one host: control characters or spaces, a backslash in the authority, a bad port."""
    s = site.strip()
    if not s:
        raise SiteError(where, "is empty; give a host name such as github.com")
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in s):
        raise SiteError(where, "contains spaces or control characters; give one host name such as github.com")
    m = _SCHEME.match(s)
    if m and m.group(1).lower() in _SPECIAL:
        s = s[m.end() :].lstrip("/\\")  # WHATWG skips any run of slashes and backslashes after a special scheme
    elif m and not _PORT.match(re.split(r"[/\\?#]", s[m.end() :], maxsplit=1)[0]):  # 'github.com:443' is no scheme
        raise SiteError(where, f"scheme {m.group(1)!r} is not a web address; give an http(s) URL or a host name")
    end = _AUTHORITY_END.search(s)
    authority = s[: end.start()] if end else s
    if end and end.group() == "\\":
        # Browsers end the host at a backslash ('evil.com\.github.com' is evil.com), other clients read on
        # ('evil.com\@github.com' is user 'evil.com\' at github.com): no one host can be named.
        raise SiteError(where, "has a backslash in its host part: HTTP clients disagree on which host it names")
    host = authority.rsplit("@", 1)[-1]  # the user information ends at the authority's last '@'
    if host.startswith("["):
        raise SiteError(where, "is an IP address, not a host name such as github.com")
    if ":" in host:
        host, port = host.split(":", 1)
        if port and (not _PORT.match(port) or int(port) > 65535):
            raise SiteError(where, f"port {_shown(port)} of host {_shown(host)} is not a number from 0 to 65535")
    if "%" in host:  # browsers percent-decode hosts; a host that needs it is refused rather than decoded
        raise SiteError(where, f"{_shown(host)} is percent-encoded; give the host name itself")
    return host


def _shown(part: str) -> str:
    """A host or port part for a message: quoted and cut to a readable length."""
    return repr(part if len(part) <= 80 else part[:77] + "...")


def _to_ascii(host: str, where: str) -> str:
    import idna

    try:
        return str(idna.encode(host, uts46=True).decode("ascii"))
    except idna.IDNAError as e:
        raise SiteError(where, f"{_shown(host)} is not a valid internationalised host name ({e})") from e
