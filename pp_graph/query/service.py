"""Find SERVICE calls in a SPARQL query by lexing it as SPARQL does, not by searching for the word.

SPARQL 1.1 (§19.2) replaces ``\\u`` / ``\\U`` escapes anywhere in a query before parsing, so they are undone first;
then strings, IRIs and comments are read as whole tokens (a ``SERVICE`` inside them is text), variables
(``?service``) and prefixed names (``ex:service``, ``service:x``) as theirs. What remains as the keyword ``SERVICE``
can only be a federated call (it is reserved), followed by ``SILENT`` or not, then the endpoint: an IRI, a prefixed
name or a variable. The lexer is a few regular expressions, so it costs microseconds, where a full SPARQL parser in
Python takes tens of milliseconds per query; the tests cross-check it against rdflib's parse tree.
"""

from __future__ import annotations

import re

_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_LEX = re.compile(
    r"""(?P<skip>\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\#[^\n]*|\s+)
    |(?P<iri><[^<>"{}|^`\\\s]*>)
    |(?P<var>[?$][\w\u00b7\u0300-\u036f\u203f-\u2040]+)
    |(?P<pname>[\w.\-]*:(?:[\w.\-:%]|\\.)*)
    |(?P<word>[A-Za-z_]\w*)
    |(?P<other>.)""",
    re.VERBOSE,
)


def unescape(text: str) -> str:
    """SPARQL's codepoint escapes, applied to the whole query text as the grammar requires."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), text)


def services(text: str) -> tuple[str, ...]:
    """The endpoints of the query's SERVICE calls, in order (an IRI, a prefixed name or a variable each)."""
    tokens = [(m.lastgroup, m.group()) for m in _LEX.finditer(unescape(text)) if m.lastgroup != "skip"]
    out: list[str] = []
    for i, (kind, value) in enumerate(tokens):
        if kind == "word" and value.upper() == "SERVICE":
            j = i + 1
            if j < len(tokens) and tokens[j][0] == "word" and tokens[j][1].upper() == "SILENT":
                j += 1
            out.append(tokens[j][1] if j < len(tokens) else "(no endpoint)")
    return tuple(out)
