"""A policy in UTF-16 or UTF-32 without a byte-order mark is named as such, with the way to fix it, instead of
being called binary (issue 28 §4)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.load.sources import decode_text

TEXT = "# Datenschutz\n\nWe collect your email address to send receipts. Größe: 1.\n"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_bomless_utf16_and_utf32_are_named(codec: str) -> None:
    with pytest.raises(InputError) as e:
        decode_text(TEXT.encode(codec), "p.md")
    assert f"looks like {codec.upper()} without a byte-order mark" in str(e.value)
    assert "binary" not in str(e.value) and "iconv" in str(e.value)


def test_with_a_bom_they_are_read_and_binary_stays_binary() -> None:
    assert decode_text(TEXT.encode("utf-16"), "p.md") == TEXT
    with pytest.raises(InputError, match="looks binary"):
        decode_text(bytes(range(256)) * 8, "p.md")


def test_convert_names_the_encoding(tmp_path: Path) -> None:
    src = tmp_path / "shop.example.md"
    src.write_bytes(TEXT.encode("utf-16-le"))
    res = CliRunner().invoke(main, ["convert", str(src), "-o", str(tmp_path / "o")])
    assert res.exit_code == 1 and "UTF-16-LE without a byte-order mark" in res.output  # the file failed
    assert "Traceback" not in res.output
