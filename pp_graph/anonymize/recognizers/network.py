"""Network identifiers: URLs and domain names, IPv4 and IPv6 addresses (checked with ``ipaddress``)."""

from __future__ import annotations

import ipaddress
import re

from pp_graph.anonymize.recognizers.base import Family

FAMILY = Family("network")


def _ip_ok(m: re.Match[str]) -> bool:
    try:
        ipaddress.ip_address(m.group(0))
    except ValueError:
        return False
    return ":" not in m.group(0) or m.group(0).count(":") >= 2


FAMILY.regex("url", "DOMAIN_NAME", 12, r"\bhttps?://[^\s<>\"')\]]+[^\s<>\"')\].,;:!?]")
FAMILY.regex(
    "domain",
    "DOMAIN_NAME",
    13,
    r"(?<![\w@.-])(?:www\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:com|org|net|info|biz|io|co|edu|gov|"
    r"[a-z]{2})(?:\.[a-z]{2})?(?:/[^\s]*[^\s.,;:!?])?(?![\w@-])",
    check=lambda m: "." in m.group(0) and not re.fullmatch(r"[\d.]+", m.group(0)) and not m.group(0)[0].isdigit(),
)
FAMILY.regex("ipv4", "IP_ADDRESS", 14, r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])", check=_ip_ok)
FAMILY.regex("ipv6", "IP_ADDRESS", 14, r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])", check=_ip_ok)
