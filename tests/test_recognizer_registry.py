"""The recogniser registry: the built-in families, and a registry without a recogniser no longer finds its type."""

from __future__ import annotations

import pytest

from pp_graph.anonymize.pipeline import recognize
from pp_graph.anonymize.recognizers import REGISTRY, TYPES, RecognizerRegistry, regex
from pp_graph.anonymize.recognizers.base import Recognizer
from pp_graph.errors import ConfigError

TEXT = "Write to jane.roe@example.org or call +1 415 555 0134 about order 12."

FAMILIES = {
    "passwords",
    "email_addresses",
    "financial",
    "network",
    "ids",
    "dates",
    "titles",
    "orgs",
    "addresses",
    "phone",
    "names",
    "places",
}


def found(text: str, registry: RecognizerRegistry | None = None) -> set[tuple[str, str]]:
    return {(x.type, text[x.start : x.end]) for x in recognize(text, mode="none", registry=registry)}


def test_the_registry_lists_every_family_and_covers_every_type() -> None:
    families = REGISTRY.families()
    assert set(families) == FAMILIES
    assert families["email_addresses"] == ("email", "email_obfuscated")
    assert "phone" in families["phone"] and "street" in families["addresses"]
    assert REGISTRY.types() == frozenset(TYPES)
    assert len(REGISTRY) == sum(len(v) for v in families.values())


def test_removing_a_family_stops_its_type_being_found() -> None:
    assert ("EMAIL_ADDRESS", "jane.roe@example.org") in found(TEXT)
    assert ("PHONE_NUMBER", "+1 415 555 0134") in found(TEXT)
    reg = REGISTRY.copy()
    for name in REGISTRY.families()["email_addresses"]:
        reg.remove(name)
    without_email = found(TEXT, reg)
    assert not any(t == "EMAIL_ADDRESS" for t, _ in without_email)
    assert ("PHONE_NUMBER", "+1 415 555 0134") in without_email
    reg.remove("phone")
    assert not any(t == "PHONE_NUMBER" for t, _ in found(TEXT, reg))
    assert "email" in REGISTRY and "phone" in REGISTRY  # a copy changed, not the default registry


def test_an_added_recognizer_is_run_and_wins_by_priority() -> None:
    text = "The key is KEY-4EC39HQLYJWDARJT."
    assert not any(t == "SECRET" for t, _ in found(text))
    reg = REGISTRY.copy()
    reg.add(regex("api_key", "SECRET", 9, r"\bKEY-[A-Z0-9]{16}\b"))
    assert ("SECRET", "KEY-4EC39HQLYJWDARJT") in found(text, reg)
    assert reg["api_key"].analyze(text)[0].recognizer == "api_key"


def test_registry_errors_name_the_problem() -> None:
    reg = RecognizerRegistry()
    reg.add(regex("x", "SECRET", 9, "x"))
    with pytest.raises(ConfigError, match="'x' is registered already"):
        reg.add(regex("x", "SECRET", 9, "y"))
    reg.add(regex("x", "SECRET", 9, "y"), replace=True)
    assert [e.start for e in reg["x"].analyze("xy")] == [1]
    with pytest.raises(ConfigError, match="no recogniser 'nope' to remove"):
        reg.remove("nope")
    with pytest.raises(ConfigError, match="unknown entity type 'SHOE_SIZE'"):
        Recognizer("shoe", "SHOE_SIZE", 5, lambda text: [])
    with pytest.raises(ConfigError, match="Recognizer records"):
        reg.add("email")  # type: ignore[arg-type]


def test_an_empty_registry_finds_no_pattern_entities() -> None:
    assert found(TEXT, RecognizerRegistry()) == set()
