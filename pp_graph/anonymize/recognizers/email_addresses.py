"""E-mail addresses: Unicode, IDN and quoted forms, and obfuscated ones ("john [at] example [dot] com"); the
patterns live in emails.py (the risk detector reads them too)."""

from __future__ import annotations

from pp_graph.anonymize.emails import EMAIL, OBFUSCATED_EMAIL
from pp_graph.anonymize.recognizers.base import Family

FAMILY = Family("email_addresses")

FAMILY.regex("email", "EMAIL_ADDRESS", 10, EMAIL)
FAMILY.regex("email_obfuscated", "EMAIL_ADDRESS", 10, OBFUSCATED_EMAIL)
