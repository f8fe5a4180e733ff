"""Passwords and PINs written in prose, shared by the anonymizer (type SECRET) and risk detection (pd:Password,
pd:PINCode). Each pattern's ``value`` group is the secret itself; the whole match is the cue and the value.

After ``:`` or ``=`` anything is a value ("password: swordfish"). Without one ("password hunter2", "my password
is 'swordfish'", "pin 4711") only what looks like a secret counts: quoted, or a token holding a digit or a
symbol; so the prose of a policy ("your password is encrypted", "password reset", "the password is stored
hashed") is not a secret.
"""

from __future__ import annotations

import re

_KEY = r"(?:password|passwd|pwd|passphrase|passcode)"
_SEP_STRONG = r"\s*[:=]\s*"
_SEP_WEAK = r"(?:\s+(?:is|was|reads|=)\s+|\s+)"  # "password is x", "password x"
_END = r"[^\s.,;:!?\"')\]]"
_QUOTED = r"[\"'“‘`](?P<quoted>[^\s\"'”’`]{3,64})[\"'”’`]"
_TOKEN = r"(?=[^\s]*[\d!@#$%^&*_+=~|<>/\\])[^\s\"'(\[]{3,63}" + _END  # a digit or symbol: not a word of prose

PASSWORD = rf"(?i)\b{_KEY}(?!\w)(?:{_SEP_STRONG}(?P<value>\S*{_END})|{_SEP_WEAK}(?:{_QUOTED}|(?P<token>{_TOKEN})))"
PIN = r"(?i)\b(?:PIN(?:\s*(?:code|number))?)(?!\w)(?:\s*[:=]\s*|\s+(?:is|was)\s+|\s+)(?P<value>\d{4,8})(?![\d.,]\d)"


def value_span(m: re.Match[str]) -> tuple[int, int]:
    """The secret's own span in a PASSWORD or PIN match."""
    for g in ("value", "quoted", "token"):
        if g in m.re.groupindex and m.group(g):
            return m.start(g), m.end(g)
    return m.start(), m.end()
