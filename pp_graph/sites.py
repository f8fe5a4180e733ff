"""Site names: one normalisation for every command (convert --site, file names, risk --site).

A site is given as a domain, a URL or an internationalised domain; it is kept as the lower-case ASCII
(IDNA A-label, punycode) host without ``www.``, so ``https://www.Bücher.de/privacy`` and
``xn--bcher-kva.de`` name the same site and the same IRIs.
"""

from __future__ import annotations

import re

_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$")


def site_host(site: str) -> str:
    """The host of a domain or URL, lower case, without ``www.``, port, user or path; A-labels where the
    name is internationalised (unchanged where IDNA refuses it, so the caller's check names the problem)."""
    s = site.strip()
    if "://" in s:
        s = s.split("://", 1)[1]
    s = s.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].split("@")[-1].split(":", 1)[0].strip(".")
    s = s.lower()
    if not s.isascii():
        s = _to_ascii(s)
    return s[4:] if s.startswith("www.") else s


def _to_ascii(host: str) -> str:
    import idna

    try:
        return str(idna.encode(host, uts46=True).decode("ascii"))
    except idna.IDNAError:
        return host


def is_domain(host: str) -> bool:
    return bool(_DOMAIN.match(host))
