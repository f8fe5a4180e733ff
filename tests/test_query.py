"""Named queries on a hand-made graph (tests/fixtures/graphs/mini.trig) with known answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from pp_graph.errors import DataFileError, InputError
from pp_graph.query.runner import load_all, load_query, parse, run_query
from pp_graph.query.stats import corpus_stats
from pp_graph.store.embedded import EmbeddedStore, open_store

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "graphs" / "mini.trig"
PD = "https://w3id.org/dpv/pd#"
DPV = "https://w3id.org/dpv#"
SHOP, NEWS, QUIET = "shop.example", "news.example", "quiet.example"


@pytest.fixture(scope="module")
def store() -> EmbeddedStore:
    return open_store([MINI])


def q(store: EmbeddedStore, name: str, **params: str) -> list[dict]:
    return run_query(store, name, params)


def test_every_query_file_loads_and_validates() -> None:
    names = {nq.name for nq in load_all()}
    assert {
        "top-data-classes",
        "top-purposes",
        "practices-of-site",
        "sites-sharing",
        "shares-for-advertising",
        "retention",
        "missing-practice-type",
        "stats-totals",
        "stats-practices",
    } <= names


def test_top_data_classes_counts_mentions_and_policies(store: EmbeddedStore) -> None:
    rows = {r["data"]: (r["mentions"], r["policies"]) for r in q(store, "top-data-classes")}
    assert rows == {
        PD + "EmailAddress": (2, 1),
        PD + "Name": (1, 1),
        PD + "TelephoneNumber": (1, 1),
        PD + "Transaction": (1, 1),
        PD + "IPAddress": (1, 1),
        PD + "Contact": (1, 1),
    }
    assert q(store, "top-data-classes")[0]["data"] == PD + "EmailAddress"  # most mentioned first


def test_top_data_classes_is_hierarchy_aware(store: EmbeddedStore) -> None:
    rows = q(store, "top-data-classes", under="pd:Contact")
    assert {r["data"] for r in rows} == {PD + "Contact", PD + "EmailAddress", PD + "TelephoneNumber"}


def test_top_purposes(store: EmbeddedStore) -> None:
    rows = {r["purpose"]: (r["mentions"], r["policies"]) for r in q(store, "top-purposes")}
    assert rows == {
        DPV + "ServiceProvision": (2, 2),
        DPV + "Marketing": (1, 1),
        DPV + "PersonalisedAdvertising": (1, 1),
    }
    under = q(store, "top-purposes", under="dpv:Advertising")
    assert [r["purpose"] for r in under] == [DPV + "PersonalisedAdvertising"]


def test_practices_of_site(store: EmbeddedStore) -> None:
    rows = q(store, "practices-of-site", site=SHOP)
    assert [r["practice"].rsplit("/", 1)[1] for r in rows] == ["1-0", "2-0", "2-1", "3-0"]
    by = {r["practice"].rsplit("/", 1)[1]: r for r in rows}
    assert by["1-0"]["dataClasses"] == [PD + "EmailAddress", PD + "Name"]
    assert by["2-1"]["negated"] is True and by["2-0"]["negated"] is False
    assert by["3-0"]["retention"] == "P7Y"
    assert q(store, "practices-of-site", site="unknown.example") == []
    contact = q(store, "practices-of-site", site=SHOP, under="pd:Contact")
    assert [r["practice"].rsplit("/", 1)[1] for r in contact] == ["1-0", "2-0", "2-1"]


def test_sites_sharing_finds_narrower_classes_and_ignores_negated(store: EmbeddedStore) -> None:
    rows = q(store, "sites-sharing", data="pd:Contact")  # shop shares pd:EmailAddress (under pd:Contact)
    assert [(r["site"], r["dataClasses"], r["receivers"]) for r in rows] == [
        (SHOP, [PD + "EmailAddress"], ["service providers"])
    ]
    assert q(store, "sites-sharing", data="pd:TelephoneNumber") == []  # "we do not sell your telephone number"
    assert [r["site"] for r in q(store, "sites-sharing", data=PD + "IPAddress")] == [NEWS]


def test_shares_for_advertising(store: EmbeddedStore) -> None:
    rows = {(r["site"], r["data"]): r for r in q(store, "shares-for-advertising")}
    assert set(rows) == {(NEWS, PD + "IPAddress"), (SHOP, PD + "EmailAddress")}
    assert rows[NEWS, PD + "IPAddress"]["practices"] == 2 and rows[NEWS, PD + "IPAddress"]["shares"] == 1
    assert rows[NEWS, PD + "IPAddress"]["receivers"] == ["advertisers"]
    assert rows[SHOP, PD + "EmailAddress"]["purposes"] == [DPV + "Marketing"]


def test_retention(store: EmbeddedStore) -> None:
    rows = q(store, "retention")
    assert [(r["site"], r["period"], r["wording"], r["dataClasses"]) for r in rows] == [
        (SHOP, "P7Y", ["for 7 years"], [PD + "Transaction"])
    ]
    assert q(store, "retention", under="pd:Contact") == []
    assert len(q(store, "retention", under="pd:Financial")) == 1  # pd:Transaction is under pd:Financial


def test_missing_practice_type(store: EmbeddedStore) -> None:
    sites = [r["site"] for r in q(store, "missing-practice-type", practice="data-storage-retention-deletion")]
    assert sites == [NEWS, QUIET]
    sites = [r["site"] for r in q(store, "missing-practice-type", practice="third-party-sharing-disclosure")]
    assert sites == [QUIET]  # shop's negated sale does not count, its stated sharing does
    sites = [
        r["site"]
        for r in q(
            store, "missing-practice-type", practice="third-party-sharing-disclosure", under="pd:TelephoneNumber"
        )
    ]
    assert sites == [NEWS, QUIET, SHOP]


def test_stats(store: EmbeddedStore) -> None:
    st = corpus_stats(store)
    assert (st.policies, st.practices, st.negated_practices) == (3, 6, 1)
    assert st.by_type["third-party-sharing-disclosure"] == {"stated": 2, "negated": 1}
    assert (st.first_party_collection_use, st.third_party_sharing) == (3, 2)
    assert (st.data_classes, st.data_mentions, st.purpose_classes, st.purpose_mentions) == (6, 7, 3, 4)
    assert st.triples == 274  # every triple of the three policy graphs, none of DPV


def test_parameter_errors_name_the_file(store: EmbeddedStore) -> None:
    with pytest.raises(InputError, match=r"sites-sharing\.rq: unknown parameter\(s\) colour"):
        q(store, "sites-sharing", data="pd:Contact", colour="red")
    with pytest.raises(InputError, match=r"sites-sharing\.rq: missing parameter 'data'"):
        q(store, "sites-sharing")
    with pytest.raises(InputError, match="is not a DPV personal-data concept"):
        q(store, "sites-sharing", data="foo:Bar")


def test_header_validation(tmp_path: Path) -> None:
    bad = tmp_path / "undeclared.rq"
    bad.write_text("# name: undeclared\n# purpose: x\n# param site (string): a domain\nSELECT ?x WHERE { ?x ?p ?o }\n")
    with pytest.raises(DataFileError, match=r"undeclared\.rq.*'site' is declared but \?site does not occur"):
        parse(bad)
    unprojected = tmp_path / "unprojected.rq"
    unprojected.write_text(
        "# name: unprojected\n# purpose: x\n# param s (iri): a subject\nSELECT ?p WHERE { ?s ?p ?o }\n"
    )
    with pytest.raises(DataFileError, match=r"unprojected\.rq.*project every parameter"):
        parse(unprojected)
    noname = tmp_path / "noname.rq"
    noname.write_text("# purpose: x\nSELECT * WHERE { ?s ?p ?o }\n")
    with pytest.raises(DataFileError, match="lacks '# name"):
        parse(noname)
    syntax = tmp_path / "syntax.rq"
    syntax.write_text("# name: syntax\n# purpose: x\nSELECT WHERE { ?s }\n")
    with pytest.raises(DataFileError, match="syntax error"):
        parse(syntax)


def test_malicious_parameter_changes_nothing(store: EmbeddedStore) -> None:
    before = len(store)
    evil = '"} DROP ALL ; {"'
    with pytest.raises(InputError, match="not a site domain"):
        q(store, "practices-of-site", site=evil)
    assert store.query("SELECT ?x ?site WHERE { GRAPH ?g { ?x ?y ?site } }", {"site": evil}) == []
    with pytest.raises(InputError):
        q(store, "sites-sharing", data="http://x> } DROP ALL ; { <y")  # not an IRI: rejected
    assert len(store) == before


def test_persistent_store_skips_unchanged_files(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    s1 = open_store([MINI], folder)
    n = len(s1)
    assert (s1.loaded, s1.skipped) == (1, 0)
    del s1
    s2 = open_store([MINI], folder)
    assert (s2.loaded, s2.skipped, len(s2)) == (0, 1, n)
    assert len(load_query("top-data-classes").run(s2)) == 6
    # A changed file replaces the graphs it held instead of adding to them.
    changed = tmp_path / "mini.trig"
    changed.write_text(MINI.read_text().replace('"for 7 years"', '"for seven years"'))
    s2.load([changed])
    assert len(s2) == n and s2.loaded == 1


def test_cli_query_and_stats() -> None:
    import json

    from click.testing import CliRunner

    from pp_graph.cli import main

    runner = CliRunner()
    res = runner.invoke(main, ["query", "sites-sharing", str(MINI), "--param", "data=pd:Contact", "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)
    assert isinstance(rows, list) and rows[0]["site"] == SHOP
    res = runner.invoke(main, ["query", "sites-sharing", str(MINI), "--param", "colour=red"])
    assert res.exit_code == 2 and "sites-sharing.rq" in res.output
    res = runner.invoke(main, ["stats", str(MINI), "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)[0]["third_party_sharing"] == 2
    res = runner.invoke(main, ["stats", str(MINI)])
    assert "distinct data classes" in res.output and "pd:EmailAddress" in res.output


def test_persistent_store_forgets_the_old_version_of_a_reloaded_file(tmp_path: Path) -> None:
    """A source file whose content changed (new text digest → new graph IRI) replaces its old graphs."""
    folder, src = tmp_path / "store", tmp_path / "policies.trig"
    src.write_text(MINI.read_text())
    open_store([src], folder).store.flush()
    # Version 2 of the shop policy: new text digest, so a new graph name.
    src.write_text(MINI.read_text().replace("aaaaaaaaaaaaaaaa", "dddddddddddddddd"))
    s2 = open_store([src], folder)
    shops = [p for p in s2.policies() if ":shop.example:" in p]
    assert shops == ["urn:pp-graph:policy:shop.example:dddddddddddddddd"]
    assert len(s2.policies()) == 3
    assert corpus_stats(s2).policies == 3
    assert corpus_stats(s2).to_dict() == corpus_stats(open_store([MINI])).to_dict()


def test_load_files_reports_graphs_also_for_skipped_files(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    first = EmbeddedStore(folder).load_files([MINI])
    again = EmbeddedStore(folder)
    assert again.load_files([MINI]) == first and again.skipped == 1
    assert first == {MINI: open_store([MINI], dpv=False).policies()}


def test_turtle_without_a_policy_is_refused_by_name(tmp_path: Path) -> None:
    ttl = tmp_path / "loose.ttl"
    ttl.write_text("<urn:x> <urn:y> <urn:z> .\n")
    with pytest.raises(InputError, match=r"loose\.ttl.*no pr2g:PrivacyPolicy"):
        EmbeddedStore().load([ttl])


def test_graph_file_suffixes_ignore_case(tmp_path: Path) -> None:
    upper = tmp_path / "MINI.TRIG"
    upper.write_bytes(MINI.read_bytes())
    store = EmbeddedStore()
    assert store.load([tmp_path]) == 1 and len(store.policies()) == 3


def test_a_file_in_the_working_directory_does_not_shadow_a_named_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: EmbeddedStore
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "stats-totals").write_text("not a query\n")
    assert load_query("stats-totals").path.parent.name == "queries"
    assert corpus_stats(store).policies == 3
    with pytest.raises(InputError, match=r"available: .*stats-totals"):
        load_query("no-such-query")
    own = tmp_path / "mine.rq"
    own.write_text("# name: mine\n# purpose: x\nSELECT ?s WHERE { ?s ?p ?o } LIMIT 1\n")
    assert load_query("mine.rq").name == "mine"
    with pytest.raises(InputError, match="no such query file"):
        load_query("sub/missing")


def test_variables_ignore_comments_strings_and_iris() -> None:
    from pp_graph.query.runner import variables

    text = 'SELECT ?a WHERE { ?a <urn:x?no> "?str" . # ?comment\n ?a <urn:y#frag> $b }'
    assert variables(text) == {"a", "b"}


def test_ask_works_on_the_embedded_store(store: EmbeddedStore) -> None:
    # pyoxigraph 0.5 answers ASK with a QueryBoolean (was refused as "use SELECT or ASK").
    assert store.query("PREFIX pr2g: <urn:pp-analyze:core#> ASK { GRAPH ?g { ?p a pr2g:PrivacyPolicy } }") == [
        {"ask": True}
    ]
    assert store.query("ASK { GRAPH ?g { <urn:none> ?p ?o } }") == [{"ask": False}]


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("sites-sharing", {"data": "pd:Bogus"}, r"parameter data: 'pd:Bogus' is not a DPV personal-data concept"),
        ("sites-sharing", {"data": "pd:contact"}, r"did you mean pd:Contact\?"),
        ("top-purposes", {"under": "pd:Contact"}, r"parameter under: 'pd:Contact' is not a DPV purpose"),
        ("missing-practice-type", {"practice": "retention"}, r"'retention' is not a practice type; one of: "),
    ],
)
def test_parameters_are_checked_against_what_they_mean(name: str, params: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        load_query(name).bindings(params)


def test_site_parameter_is_case_insensitive_and_must_be_in_the_store(store: EmbeddedStore) -> None:
    nq = load_query("practices-of-site")
    bound = nq.bindings({"site": "https://www.Shop.Example/privacy"})
    nq.check_store(store, bound)
    assert nq.run_bound(store, bound) == q(store, "practices-of-site", site=SHOP) != []
    with pytest.raises(InputError, match=r"no policy in the store is for site 'shop.exampel'; nearest: shop.example"):
        nq.check_store(store, nq.bindings({"site": "shop.exampel"}))


def test_store_folder_with_paths_answers_over_those_files_only(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    first = open_store([MINI], folder)  # the folder now holds mini's three policies
    del first  # one open store per folder (RocksDB lock)
    import gc

    gc.collect()
    scoped = open_store([FIXTURES / "graphs" / "edge.trig"], folder)
    assert scoped.policies() == ["urn:pp-graph:policy:edge.example:eeeeeeeeeeeeeeee"]
    assert q(scoped, "stats-totals")[0]["policies"] == 1
    scoped.scope = None  # the folder alone (no PATHS): everything it holds
    assert q(scoped, "stats-totals")[0]["policies"] == 4


def test_cli_query_errors_name_the_parameter(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pp_graph.cli import main

    res = CliRunner().invoke(main, ["query", "sites-sharing", str(MINI), "--param", "data=pd:contact"])
    assert res.exit_code == 2 and "did you mean pd:Contact?" in res.output and "Traceback" not in res.output
    res = CliRunner().invoke(main, ["query", "practices-of-site", str(MINI), "--param", "site=GitHub.com"])
    assert res.exit_code == 2 and "no policy in the store is for site 'github.com'" in res.output
    res = CliRunner().invoke(main, ["query", "practices-of-site", str(MINI), "--param", "site=Shop.Example"])
    assert res.exit_code == 0 and "1-0" in res.output
