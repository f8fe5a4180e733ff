"""Recognizers of personal data in outgoing text: one positive and the tricky negatives each."""

from __future__ import annotations

import itertools

import pytest

from pp_graph.risk import detect as detect_mod
from pp_graph.risk.detect import detect, iban_ok, luhn_ok

PD = "https://w3id.org/dpv/pd#"


def found(text: str) -> list[tuple[str, str, str]]:
    """(recognizer, pd local name, covered text) — offsets checked against the input."""
    out = []
    for d in detect(text):
        assert 0 <= d.start < d.end <= len(text)
        out.append((d.recognizer, d.category.removeprefix(PD), text[d.start : d.end]))
    return out


@pytest.mark.parametrize(
    ("text", "recognizer", "category", "span"),
    [
        ("mail me at jane.doe+x@mail.example.org!", "email", "EmailAddress", "jane.doe+x@mail.example.org"),
        ("call +1 415-555-2671 now", "phone", "TelephoneNumber", "+1 415-555-2671"),
        ("or (212) 555-0182", "phone", "TelephoneNumber", "(212) 555-0182"),
        ("card 4111 1111 1111 1111 exp", "payment_card", "PaymentCardNumber", "4111 1111 1111 1111"),
        ("amex 3782-822463-10005", "payment_card", "PaymentCardNumber", "3782-822463-10005"),
        ("IBAN GB82 WEST 1234 5698 7654 32.", "iban", "BankAccount", "GB82 WEST 1234 5698 7654 32"),
        ("de DE89370400440532013000 ok", "iban", "BankAccount", "DE89370400440532013000"),
        ("SSN 123-45-6789", "ssn", "OfficialID", "123-45-6789"),
        ("from 192.168.10.1 today", "ipv4", "IPAddress", "192.168.10.1"),
        ("v6 2001:db8:85a3::8a2e:370:7334 ok", "ipv6", "IPAddress", "2001:db8:85a3::8a2e:370:7334"),
        ("mac 00:1A:2B:3C:4D:5E", "mac_address", "MACAddress", "00:1A:2B:3C:4D:5E"),
        ("key AKIAIOSFODNN7EXAMPLE", "aws_access_key", "Authenticating", "AKIAIOSFODNN7EXAMPLE"),
        (
            "Authorization: Bearer abcDEF123456ghiJKL789",
            "bearer_token",
            "Authenticating",
            "Bearer abcDEF123456ghiJKL789",
        ),
        (
            "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "vendor_token",
            "Authenticating",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        ),
        ("my password: s3cret!pw.", "password", "Password", "password: s3cret!pw"),
        ("api_key = 'abcd1234efgh5678'", "api_key", "Authenticating", "api_key = 'abcd1234efgh5678"),
        ("DOB: 12/03/1985", "birth_date", "BirthDate", "12/03/1985"),
        ("I was born on 3 March 1990.", "birth_date", "BirthDate", "3 March 1990"),
        ("I live at 742 Evergreen Terrace in town", "street_address", "PhysicalAddress", "742 Evergreen Terrace"),
        ("at 48.85661, 2.35222 now", "gps", "GPSCoordinate", "48.85661, 2.35222"),
        ("I was diagnosed with diabetes", "term", "PhysicalHealth", "diabetes"),
        ("she takes antidepressants", "term", "Prescription", "antidepressants"),
    ],
)
def test_recognizer_finds(text: str, recognizer: str, category: str, span: str) -> None:
    assert (recognizer, category, span) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "card 4111 1111 1111 1112",  # Luhn fails
        "IBAN GB82 WEST 1234 5698 7654 33",  # mod-97 fails
        "order number 1234567890123",  # 13 digits, Luhn fails
        "version 1.2.3.4.5 and 999.1.1.1",  # not IPv4
        "the meeting is at 12:30:45",  # not IPv6
        "SSN 000-12-3456 and 666-12-3456",  # invalid SSN areas
        "the meeting was on 12/03/1985",  # a date without a birth cue
        "I love the word password",  # no value
        "mail at example dot org",
        "Cancerian horoscope",  # whole words only
    ],
)
def test_recognizer_negatives(text: str) -> None:
    assert found(text) == []


def test_checksums() -> None:
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112") and not luhn_ok("4111")
    assert iban_ok("GB82WEST12345698765432") and iban_ok("gb82 west 1234 5698 7654 32")
    assert not iban_ok("GB82WEST12345698765433") and not iban_ok("GB82")


def test_overlaps_resolve_by_priority() -> None:
    # A card number is not also reported as a phone number; the SSN is not a phone number.
    cats = [c for _, c, _ in found("4111 1111 1111 1111 and 123-45-6789")]
    assert cats == ["PaymentCardNumber", "OfficialID"]


def test_offsets_are_sorted_and_disjoint() -> None:
    text = "a@b.org, +1 415 555 2671, 10.0.0.1, DOB: 1990-01-02, 221 Baker Street, PIN: 1234"
    ds = detect(text)
    assert [d.start for d in ds] == sorted(d.start for d in ds)
    assert all(a.end <= b.start for a, b in itertools.pairwise(ds))
    assert {d.category.removeprefix(PD) for d in ds} == {
        "EmailAddress",
        "TelephoneNumber",
        "IPAddress",
        "BirthDate",
        "PhysicalAddress",
        "PINCode",
    }


def test_the_detection_cache_keeps_no_long_text() -> None:
    """The lru cache holds its keys: a multi-MB text must not stay in memory after detection."""
    from pp_graph.risk import detect as d

    cached = getattr(d, "_detect_cached", d._detect)
    short = "Call me at 555-0100."
    long_text = "Nothing here. " * 2_000 + "Mail jo@example.org."  # > 20,000 characters
    cached.cache_clear()
    assert detect(short, ner=False) == detect(short, ner=False)
    assert cached.cache_info().currsize == 1 and cached.cache_info().hits == 1  # short texts are still cached
    assert [x.category.rsplit("#", 1)[-1] for x in detect(long_text, ner=False)] == ["EmailAddress"]
    assert cached.cache_info().currsize == 1  # the long text was not added


def test_detect_with_the_anonymizers_entities_equals_detect_alone() -> None:
    # the data plane hands over the entities it already found, so NER runs once per text: same detections
    from pp_graph.anonymize.chunks import recognize_long

    short = (
        "We met Maria Lopez at the office. Call her on +1 415 555 0134 or write to maria@lopez.example; "
        "passport X1234567 expires soon."
    )
    long_text = ("We met Daniel Okafor at the office. His card is 4111 1111 1111 1111.\n\n" * 160) + short
    for text in (short, long_text):
        entities = recognize_long(text, ner_chars=detect_mod.NER_MAX_CHARS)
        found = detect_mod.detect(text, entities=entities)
        assert found == detect_mod.detect(text)
        assert {"pd:Name", "pd:Passport"} <= {d.category.replace(detect_mod.PD, "pd:") for d in found}
