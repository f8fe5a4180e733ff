"""E-mail address patterns shared by the anonymizer and risk detection (run over ``normalize.normalized`` text).

Beyond ``local@domain.tld`` in ASCII: Unicode local parts and internationalised domains (RFC 6531:
``jöhn@exämple.de``, ``user@пример.рф``), quoted local parts (``"john doe"@example.com``), and the forms people
write to keep addresses from harvesters (``john [at] example [dot] com``, ``john(at)example(dot)com``,
``john (at) mail.example.org``, ``john @ example . com``, ``john%40example.com``). "at" counts only in brackets:
in prose, "mail at example dot org" or "meet me at example.com" is no address.
"""

from __future__ import annotations

_LABEL = r"[^\W_](?:[\w-]{0,61}[^\W_])?"
_TLD = r"(?:[^\W\d_]{2,63}|xn--[a-z0-9-]{1,59})"
_LOCAL = r"(?<![\w.+'-])[\w%+-](?:[\w.%+'-]*[\w%+-])?"  # o'neil@…, never a quote or dot at either end
_QUOTED = r'(?<![\w"])"[^"\n\\]{1,64}"'
_BRACKET_AT = r"\s*[\[({<]\s*(?:at|@)\s*[\])}>]\s*"
_BRACKET_DOT = r"\s*[\[({<]\s*(?:dot|\.)\s*[\])}>]\s*"
_WORD_DOT = r"\s+dot\s+"
# "john @ example . com": spaces on both sides of each sign (one side only is how a sentence ends: "@ noon. Then");
# "john%40example.com": percent-encoded, as in a mailto: or query-string URL.
_SPACED_AT = r"\s+@\s+|%40"
_SPACED_DOT = r"\s+\.\s+"
_AT = rf"(?:{_BRACKET_AT}|{_SPACED_AT})"
_DOT = rf"(?:\.|{_BRACKET_DOT}|{_WORD_DOT}|{_SPACED_DOT})"

EMAIL = rf"(?:{_LOCAL}|{_QUOTED})@{_LABEL}(?:\.{_LABEL})*\.{_TLD}(?![\w-])"
OBFUSCATED_EMAIL = rf"(?i)(?<![\w.+-])[\w.+-]*\w{_AT}{_LABEL}(?:{_DOT}{_LABEL})*{_DOT}{_TLD}(?![\w-])"
