"""The PostgreSQL store's own guarantees: concurrent writers lose and duplicate nothing, a killed writer leaves
whole batches, the schema migrates, a bad URL is one clear line, and verdicts match the SQLite store's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citetracer.cli import main
from citetracer.normalize.names import surname_keys
from citetracer.records import WorkRecord
from citetracer.store.api import open_store
from citetracer.store.db import Store, StoreError
from citetracer.store.ranking import BM25_B, BM25_K1, MEAN_TITLE_WORDS, index_tokens
from tests.conftest import RECORDS, pg_location, run_check

psycopg = pytest.importorskip("psycopg")

WRITER = """
import sys
from citetracer.records import Person, WorkRecord
from citetracer.store.pg import PgStore

url, me, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with PgStore(url) as store:
    for start in range(0, n, 100):
        batch = []
        for i in range(start, min(n, start + 100)):
            # even ids are shared by every writer (each writes its own version), odd ids are this writer's own
            key = f"shared{i}" if i % 2 == 0 else f"w{me}-{i}"
            batch.append(WorkRecord(source="gen", id=key, title=f"Generated work {i} by writer {me}",
                                    authors=[Person(family=f"Writer{me}")], year=2000 + i % 20))
        store.upsert(batch, batch_size=100)
"""


def _terms(url: str) -> dict[tuple[str, str], int]:
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute("SELECT field, term, df FROM terms WHERE df <> 0").fetchall()
    return {(str(f), str(t)): int(n) for f, t, n in rows}


def test_concurrent_writers_in_several_processes_lose_and_duplicate_nothing(pg_server: str, tmp_path: Path) -> None:
    url = pg_location(pg_server)
    open_store(url).close()  # the schema, once
    writers, n = 4, 1000
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, url, str(w), str(n)]) for w in range(writers)]
    assert all(p.wait(timeout=300) == 0 for p in procs)
    with open_store(url) as store:
        counts = store.record_counts()
        expected = n // 2 + writers * (n // 2)  # shared keys once, each writer's own keys
        assert counts == {"gen": {"?": expected}}
        with psycopg.connect(url) as conn:
            keys = conn.execute("SELECT count(*), count(DISTINCT key) FROM records").fetchone()
        assert keys == (expected, expected)
        assert store.index.count() == expected
        kept = _terms(url)
        store.reindex()  # recounts every document frequency from the records
        assert _terms(url) == kept  # the writers' own incremental counts were exact
        rid = store.index.by_title("Generated work 7 by writer 3", 1)
        assert store.records(rid)[rid[0]].id == "w3-7"


def test_a_writer_killed_mid_ingest_leaves_whole_batches(pg_server: str, tmp_path: Path) -> None:
    url = pg_location(pg_server)
    records = tmp_path / "many.jsonl"
    with records.open("w") as fh:
        for i in range(100_000):
            fh.write(json.dumps({"id": f"r{i}", "title": f"Generated Title Number {i}", "authors": ["A B"]}) + "\n")
    script = (
        "import sys; from pathlib import Path; from citetracer.store.pg import PgStore; "
        "from citetracer.mirror.jsonl import add_jsonl; add_jsonl(PgStore(sys.argv[1]), Path(sys.argv[2]), 'gen')"
    )
    proc = subprocess.Popen([sys.executable, "-c", script, url, str(records)])
    deadline = time.time() + 120
    while time.time() < deadline:
        with open_store(url) as store:
            if store.index.count() >= 10_000:
                break
        time.sleep(0.1)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with open_store(url) as store:
        n = store.index.count()
        assert n >= 10_000 and n % 5000 == 0  # whole batches only
        assert store.record_counts() == {"gen": {"?": n}}
        assert "gen" in store.unfinished_ingests()
        kept = _terms(url)
        store.reindex()
        assert _terms(url) == kept


def test_an_older_schema_is_migrated_and_a_newer_one_refused(pg_server: str) -> None:
    from citetracer.store.pgschema import SCHEMA_VERSION, migrate

    url = pg_location(pg_server)
    with psycopg.connect(url, autocommit=True) as conn:
        assert migrate(conn, upto=1) == (0, 1)
        conn.execute("INSERT INTO meta VALUES ('kept', 'yes')")
    with open_store(url) as store:  # opening for writing migrates
        assert store.meta_value("kept") == "yes"
        assert store.rate_turns().take_turn("x", 1.0, 1, None) == 0.0  # version 2's table is there
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchone() == (SCHEMA_VERSION,)
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError, match="newer than this citetracer"):
        open_store(url)


def test_an_unreachable_server_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from tests.pgserver import free_port

    url = f"postgresql://nobody@127.0.0.1:{free_port()}/nowhere"
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    for argv in (["mirror", "stats"], ["check", str(bib), "--offline"]):
        assert main([*argv, "--store", url]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error: cannot connect to the store postgresql://nobody@127.0.0.1")


def test_a_password_never_shows_in_messages() -> None:
    from citetracer.store.api import display_location

    assert display_location("postgresql://ann:s3cret@db:5432/x") == "postgresql://ann:***@db:5432/x"
    assert display_location("postgresql://ann@db/x") == "postgresql://ann@db/x"


BIB = """
@inproceedings{real, title={Deep Residual Learning for Image Recognition}, author={He, Kaiming and Zhang, Xiangyu
 and Ren, Shaoqing and Sun, Jian}, booktitle={CVPR}, year={2016}}
@inproceedings{variant, title={Adam: a method for stochastic optimization}, author={Kingma, D. and Ba, J.},
 booktitle={International Conference on Learning Representations}, year={2015}}
@inproceedings{wrongauthors, title={Sequence to Sequence Learning with Neural Networks}, author={Smith, John and
 Doe, Jane}, booktitle={NIPS}, year={2014}}
@inproceedings{fabricated, title={Synthetic Study Number 99 of Covered Conference Papers Revisited},
 author={Nobody, Ann}, booktitle={Conference on Covered Topics}, year={2021}}
@article{wrongyear, title={Long Short-Term Memory}, author={Hochreiter, Sepp and Schmidhuber, J{\\"u}rgen},
 journal={Neural Computation}, year={2005}}
"""


def test_verdicts_are_the_same_on_both_backends(pg_server: str, tmp_path: Path) -> None:
    verdicts = []
    for location in (tmp_path / "s.sqlite", pg_location(pg_server)):
        with open_store(location) as store:
            store.upsert(RECORDS)
            store.set_source_complete("test")
            got = run_check(store, BIB)  # type: ignore[arg-type]
        verdicts.append({k: (r.verdict.class_, r.verdict.codes, r.verdict.fields) for k, r in got.items()})
    assert verdicts[0] == verdicts[1]
    classes = {k: v[0] for k, v in verdicts[0].items()}
    assert (classes["real"], classes["variant"], classes["wrongauthors"]) == ("Real", "Real", "Hallucinated")
    assert classes["fabricated"] == "Hallucinated"  # absent from a venue-year the store covers


def test_the_sqlite_store_is_still_the_default(tmp_path: Path) -> None:
    with open_store(tmp_path / "s.sqlite") as store:
        assert isinstance(store, Store)
        store.upsert([WorkRecord(source="x", id="1", title="A title")])
        assert store.index.count() == 1


def _postings(url: str) -> dict[tuple[str, str], list[int]]:
    """Each word's and surname's record ids over all its posting lists (sorted, duplicates kept)."""
    out: dict[tuple[str, str], list[int]] = {}
    with psycopg.connect(url, autocommit=True) as conn:
        for field, term, rids in conn.execute("SELECT field, term, rids FROM postings"):
            out.setdefault((str(field), str(term)), []).extend(_unpack(rids, 8))
    return {k: sorted(v) for k, v in out.items()}


def _insert_records_as_written_before(conn: psycopg.Connection) -> None:
    """RECORDS as rows of an older schema (versions 3 and 4 wrote records alike), without any index."""
    for record in RECORDS:
        words = sorted(set(index_tokens(record.title or "")))
        names = sorted({k for p in record.authors for k in surname_keys(p.family)})
        conn.execute(
            "INSERT INTO records (key, source, type, year, data, words, nwords, surnames) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            (f"{record.source}:{record.id}", record.source, record.type, record.year, b"{}", words, len(words),
             names),
        )  # fmt: skip


def test_a_store_of_the_gin_schema_gets_posting_lists_from_its_records(pg_server: str) -> None:
    from citetracer.store.pgschema import migrate

    url = pg_location(pg_server)
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn, upto=3)  # the schema before posting lists: records indexed by GIN only
    with psycopg.connect(url, autocommit=True) as conn:  # records as version 3 wrote them
        _insert_records_as_written_before(conn)
    with open_store(url):  # opening for writing migrates: the lists are built from the rows
        lists = _postings(url)
    assert lists[("t", "stochastic")] and all(len(set(v)) == len(v) for v in lists.values())
    assert len(lists) == len(
        {("t", w) for r in RECORDS for w in index_tokens(r.title or "")}
        | {("s", k) for r in RECORDS for p in r.authors for k in surname_keys(p.family)}
    )
    with psycopg.connect(url, autocommit=True) as conn:
        indexes = {r[0] for r in conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'records'")}
    assert "records_words" not in indexes and "records_surnames" not in indexes


def test_a_store_of_array_posting_lists_gets_the_same_lists_packed(pg_server: str) -> None:
    """Schema 4 kept each list as arrays, several rows per word before compaction; opening it for writing
    packs them (schema 5): the same ids in the same order, the same extras, the same answers."""
    from citetracer.store.pgschema import migrate

    url = pg_location(pg_server)
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn, upto=4)
        _insert_records_as_written_before(conn)
        for half in ("r.rid % 2 = 0", "r.rid % 2 = 1"):  # two write batches: two lists for a shared word
            conn.execute(
                "INSERT INTO postings SELECT 't', w, array_agg(r.rid ORDER BY r.rid), array_agg(r.nwords::smallint "
                f"ORDER BY r.rid) FROM records r, unnest(r.words) w WHERE {half} GROUP BY w UNION ALL "
                "SELECT 's', n, array_agg(r.rid ORDER BY r.rid), array_agg(coalesce(r.year, 0)::smallint "
                f"ORDER BY r.rid) FROM records r, unnest(r.surnames) n WHERE {half} GROUP BY n"
            )
        conn.execute(  # the document frequencies, as the writers of version 4 kept them
            "INSERT INTO terms SELECT 't', w, count(*) FROM records, unnest(words) w GROUP BY w "
            "UNION ALL SELECT 's', s, count(*) FROM records, unnest(surnames) s GROUP BY s "
            "UNION ALL SELECT 'n', '', count(*) FROM records"
        )
        arrays = {
            (str(f), t, tuple(rids), tuple(extra))
            for f, t, rids, extra in conn.execute("SELECT field, term, rids, extra FROM postings")
        }
    assert len({(f, t) for f, t, _, _ in arrays}) < len(arrays)  # some word has two lists
    with open_store(url) as store:
        with psycopg.connect(url, autocommit=True) as conn:
            packed = {
                (str(f), t, _unpack(rids, 8), _unpack(extra, 2))
                for f, t, rids, extra in conn.execute("SELECT field, term, rids, extra FROM postings")
            }
        assert packed == arrays
        title = RECORDS[0].title or ""
        assert store.index.by_title(title, 1) == [store.rid_of_key(f"{RECORDS[0].source}:{RECORDS[0].id}")]


def _unpack(data: bytes, width: int) -> tuple[int, ...]:
    """The big-endian integers of a packed posting list column, `width` bytes each."""
    return tuple(int.from_bytes(data[i : i + width], "big", signed=True) for i in range(0, len(data), width))


def test_posting_lists_are_merged_at_an_ingest_end_and_lose_deleted_records(pg_server: str) -> None:
    from citetracer.store.pg import PgStore

    url = pg_location(pg_server)
    with PgStore(url) as store:
        records = [WorkRecord(source="gen", id=f"w{i}", title=f"Posting list number {i} about graphs", year=2001)
                   for i in range(40)]  # fmt: skip
        store.upsert(records, batch_size=5)  # 8 batches: 8 lists for 'graphs'
        store.upsert(records[:10], batch_size=5)  # replaced records: their ids come again in 2 more lists
        before = store.index.search("Posting list number 7 about graphs", [], 2001, 3)
        with psycopg.connect(url, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM postings WHERE term = 'graphs'").fetchone() == (10,)
        assert store.sync_index() > 0  # an ingest's end: one list per word, from the records
        lists = _postings(url)
        assert lists[("t", "graphs")] == sorted(set(lists[("t", "graphs")])) and len(lists[("t", "graphs")]) == 40
        assert store.index.search("Posting list number 7 about graphs", [], 2001, 3) == before
        assert store.sync_index() == 0  # nothing more to merge
        assert store.delete_older("gen", store.next_generation()) == 40
        store.compact_postings()
        assert _postings(url) == {}
        assert store.index.search("Posting list number 7 about graphs", [], 2001, 3) == []


def test_the_author_pass_returns_no_deleted_work_before_the_lists_are_merged(pg_server: str) -> None:
    """A deleted record's ids stay in the posting lists until they are compacted: the author pass, which
    ranks from the lists alone, returns the best works that still exist, as many as asked."""
    from citetracer.records import Person
    from citetracer.store.pg import PgStore

    url = pg_location(pg_server)
    with PgStore(url) as store:
        old = [WorkRecord(source="old", id=f"o{i}", title=f"Okafor sparse kernels {i}",
                          authors=[Person(family="Okafor"), Person(family="Lindqvist")], year=2020)
               for i in range(6)]  # fmt: skip
        kept = [WorkRecord(source="new", id=f"n{i}", title=f"Okafor graph {i}", authors=[Person(family="Okafor")],
                           year=2020) for i in range(6)]  # fmt: skip
        store.upsert(old + kept)
        gone = {store.rid_of_key(f"old:o{i}") for i in range(6)}
        assert set(store.index.by_authors(["okafor", "lindqvist"], 2020, 4)) <= gone  # the pair ranks first
        assert store.delete_older("old", store.next_generation()) == 6
        store.index.forget()
        rids = store.index.by_authors(["okafor", "lindqvist"], 2020, 4)
        assert len(rids) == 4 and not set(rids) & gone
        assert set(store.records(rids)) == set(rids)


def test_counting_titles_stops_at_common_words(pg_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from citetracer.store import pgindex

    url = pg_location(pg_server)
    with open_store(url) as store:
        store.upsert([WorkRecord(source="gen", id=f"w{i}", title=f"Deep learning for task {i % 7}") for i in range(30)])
        assert store.titles_sharing(["deep", "learning", "task"]) == 30
        assert store.titles_sharing(["deep", "learning", "3"]) == 4
        assert store.titles_sharing(["deep", "unheard"]) == 0
        monkeypatch.setattr(pgindex, "MAX_EXACT_DF", 10)
        store.index.forget()
        assert store.titles_sharing(["deep", "learning", "3"]) == 4  # the rarest word is rare enough: exact
        assert store.titles_sharing(["deep", "learning"]) == 30  # every word common: the rarest one's count


#: The first pass as one SQL query (how it was computed until the lists were summed client-side): the reference
#: the client-side sum must agree with, score for score and in the same order (score to 1e-9, then id). The
#: packed lists are read in SQL: the i-th id is bytes 8i..8i+7 (big-endian), the i-th extra bytes 2i..2i+1.
_FIRST_PASS_IN_SQL = (
    'SELECT h.rid FROM (SELECT u.rid, q.field, q.w, u.x FROM unnest(%(fields)s::"char"[], %(terms)s::text[], '
    "%(weights)s::float8[]) q(field, term, w) JOIN postings p ON p.field = q.field AND p.term = q.term "
    "CROSS JOIN LATERAL (SELECT ('x' || encode(substr(p.rids, 8 * i + 1, 8), 'hex'))::bit(64)::bigint, "
    "('x' || encode(substr(p.extra, 2 * i + 1, 2), 'hex'))::bit(16)::integer "
    "FROM generate_series(0, length(p.rids) / 8 - 1) i) u(rid, x)) h GROUP BY h.rid "
    "ORDER BY round(sum(CASE WHEN h.field = 't' THEN h.w * {norm} ELSE h.w END)::numeric, 9) DESC, h.rid "
    "LIMIT %(limit)s"
)


def _norm(words: str) -> str:
    """BM25's length factor (`ranking.bm25_norm`) of a title whose word count is the SQL expression `words`."""
    return (
        f"({BM25_K1 + 1.0}::float8 / (1.0::float8 + {BM25_K1}::float8 * (1.0::float8 - {BM25_B}::float8 "
        f"+ {BM25_B}::float8 * {words}::float8 / {MEAN_TITLE_WORDS}::float8)))"
    )


def test_the_first_pass_summed_client_side_ranks_as_the_same_sum_in_sql(pg_server: str) -> None:
    """Titles of many lengths (the length factor), shared surnames, lists written by several batches and a
    replaced record (a word's postings over several rows, one id twice): the order is the SQL sum's."""
    from citetracer.records import Person
    from citetracer.store.pgindex import _weights

    url = pg_location(pg_server)
    words = ["graph", "neural", "sparse", "kernel", "spectral"]
    with open_store(url) as store:
        for batch in range(3):
            store.upsert(
                [
                    WorkRecord(
                        source="gen",
                        id=f"w{i}",
                        title=" ".join(words[j % 5] for j in range(i, i + 1 + i % 4)) + " methods" * (i % 3),
                        authors=[Person(family=["Okafor", "Lindqvist", "Tanaka"][i % 3])],
                        year=2000 + i % 5,
                    )
                    for i in range(batch * 40, batch * 40 + 40)
                ]
            )
        store.upsert([WorkRecord(source="gen", id="w7", title="Graph kernel spectral sparse methods revisited")])
        assert max(len(v) for v in _postings(url).values()) > len(set(_postings(url)[("t", "graph")])) - 1
        index = store.index
        index.forget()
        for terms, names in (
            (words[:3], []),
            (words, ["okafor"]),
            (["kernel"], ["tanaka", "lindqvist"]),
            ([], ["okafor"]),
        ):
            pairs = index._pairs(terms, names, 1.0)
            sql = _FIRST_PASS_IN_SQL.format(norm=_norm("h.x"))
            with psycopg.connect(url, autocommit=True) as conn:
                expected = [int(r) for (r,) in conn.execute(sql, {**_weights(pairs), "limit": 15}).fetchall()]
            assert len(expected) == 15
            assert index.first_pass(terms, names, 15) == expected
