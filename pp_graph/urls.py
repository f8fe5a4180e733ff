"""URLs as shown: without their user information (``https://user:secret@host/`` → ``https://host/``).

Every message, output row and stored record that names a URL shows it this way, so a password put in a URL never
reaches a terminal, a log or a file. The authority ends where HTTP clients end it (``/``, ``\\``, ``?`` or ``#``)
and the user information at its last ``@`` (as ``pp_graph.sites`` splits a site). Only text after a scheme of two
or more letters and a slash is a URL here: a file name such as ``site@20250101T000000Z.trig`` or a Windows drive
(``C:\\``) is left alone.
"""

from __future__ import annotations

import re

_SCHEME_AND_USER = r"([a-zA-Z][a-zA-Z0-9+.-]+:[/\\]+)[^\s/\\?#'\"<>]*@"  # the user information: up to the last '@'
_IN_TEXT = re.compile(r"(?<![a-zA-Z0-9+.-])" + _SCHEME_AND_USER)
_WHOLE = re.compile(r"^" + _SCHEME_AND_USER)


def shown_url(url: str) -> str:
    """``url`` without its user information (unchanged when it has none)."""
    return _WHOLE.sub(r"\1", url, count=1)


def without_userinfo(text: str) -> str:
    """``text`` with the user information of every URL in it removed."""
    return _IN_TEXT.sub(r"\1", text) if "@" in text else text
