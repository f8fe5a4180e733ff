"""The two ways to pick versions to compare: dated graphs of a site in a folder, or two policy files."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from pp_graph.errors import InputError
from pp_graph.graph.namespaces import policy_iri
from pp_graph.load.versions import parse_date
from pp_graph.query.corpus import Corpus
from pp_graph.versions.diff import Change, Diff, Evidence, diff


def diff_site(graph: Path, site: str, date_from: str | None, date_to: str | None) -> Diff:
    """The versions of ``site`` in force on ``date_from`` and ``date_to`` (default: the two newest)."""
    c = Corpus.open([graph])
    versions = c.versions_of(site, f"under {graph}")
    new = c.as_of(site, parse_date(date_to, "--to")) if date_to else versions[-1]
    if date_from:
        old = c.as_of(site, parse_date(date_from, "--from"))
    else:
        older = [v for v in versions if (v.valid_from or "") < (new.valid_from or "")]
        if not older:
            raise InputError(site, "has no version before the one compared; give --from")
        old = older[-1]
    return diff(c, old, new)


def diff_files(old: Path, new: Path, site: str | None) -> Diff:
    """Convert two policy files (offline) and compare them; they must be of one site. The files carry no dates:
    they are converted as versions of two made-up days, so the comparison knows which is older, and the answer
    names them as an undated conversion of each file would (no date, the policy IRI without one)."""
    from pp_graph.batch import convert_batch

    with tempfile.TemporaryDirectory(prefix="pp-graph-diff-") as tmp:
        for name, f, date in (("old", old, "1970-01-01"), ("new", new, "1970-01-02")):
            rep = convert_batch([f], Path(tmp) / name, site=site, valid_from=parse_date(date))
            failed = [r for r in rep.files if r.status == "failed"]
            if failed:
                # The batch's message already names the file: say it once.
                msg = failed[0].error or "could not be converted"
                for prefix in (f"{f}: ", f"{f.name}: "):
                    msg = msg.removeprefix(prefix)
                raise InputError(str(f), msg)
        c = Corpus.open([Path(tmp)])
        if len(c.sites) != 1:
            raise InputError(f"{old}, {new}", f"are policies of different sites ({', '.join(c.sites)}); pass --site")
        old_v, new_v = next(iter(c.sites.values()))
        return _undated(diff(c, old_v, new_v))


def _undated(d: Diff) -> Diff:
    """``d`` as between undated conversions of the two files: no dates, and the IRIs of policies and practices
    those conversions give (``file`` named a graph in a folder that no longer exists)."""
    old, new = (replace(s, valid_from=None, policy=str(policy_iri(s.site, s.digest)), file="") for s in (d.old, d.new))
    moved = {d.old.policy + "/": old.policy + "/", d.new.policy + "/": new.policy + "/"}

    def evidence(es: list[Evidence]) -> list[Evidence]:
        return [replace(e, practice=_rebased(e.practice, moved)) for e in es]

    def changes(cs: list[Change]) -> list[Change]:
        return [replace(c, old=evidence(c.old), new=evidence(c.new)) for c in cs]

    return replace(d, old=old, new=new, added=changes(d.added), removed=changes(d.removed), changed=changes(d.changed))


def _rebased(iri: str, moved: dict[str, str]) -> str:
    """``iri`` under the new prefix of the first old prefix it starts with (unchanged under none)."""
    return next((new + iri[len(old) :] for old, new in moved.items() if iri.startswith(old)), iri)
