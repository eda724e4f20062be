"""The local store: idempotent writes, retrieval that survives corrupted titles, and crash safety."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from citetracer.normalize.names import family_keys
from citetracer.store.api import StoreAPI
from citetracer.store.db import Store
from tests.conftest import RECORDS, people


def titles(store: StoreAPI, rids: list[int]) -> list[str]:
    records = store.records(rids)
    return [records[r].title or "" for r in rids]


def test_upsert_is_idempotent(store: StoreAPI) -> None:
    before = store.stats()["records"]
    store.upsert(RECORDS)
    assert store.stats()["records"] == before == len(RECORDS)
    assert store.index.count() == len(RECORDS)


def test_lookup_by_doi_and_arxiv(store: StoreAPI) -> None:
    assert titles(store, store.rids_by_doi("10.1109/cvpr.2016.90")) == ["Deep Residual Learning for Image Recognition"]
    assert titles(store, store.rids_by_arxiv("1412.6980")) == ["Adam: A Method for Stochastic Optimization"]
    assert store.knows_doi_prefix("10.1109") and not store.knows_doi_prefix("10.99999")


def test_title_search_tolerates_wrong_missing_and_extra_words(store: StoreAPI) -> None:
    target = "Sequence to Sequence Learning with Neural Networks"
    for query in (
        target,
        "Sequence to Sequence Learning with Recurrent Networks",  # one word wrong
        "Sequence to Sequence Learning Neural Networks",  # one missing
        "Sequence to Sequence Learning with Deep Neural Networks for Translation",  # extra words
    ):
        assert titles(store, store.index.by_title(query, 3))[0] == target, query


def test_author_year_search_finds_the_real_work_behind_a_fabricated_title(store: StoreAPI) -> None:
    surnames = [k for p in people("Ilya Sutskever", "Oriol Vinyals", "Quoc Le") for k in family_keys(p)]
    found = titles(store, store.index.by_authors(surnames, 2014, 5))
    assert found[0] == "Sequence to Sequence Learning with Neural Networks"
    # 2012 is outside the year window:
    assert "ImageNet Classification with Deep Convolutional Neural Networks" not in found


def test_index_catches_up_when_it_lags(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store(path) as s:
        s.upsert(RECORDS[:3])
        # Simulate a process killed after the SQLite commit but before the index commit.
        s.db.execute("UPDATE meta SET value = '0' WHERE key = 'indexed_seq'")
        s.index.clear()
    with Store(path) as s:
        assert s.index.count() == 3
        best = titles(s, s.index.by_title("Deep Residual Learning", 1))
        assert best == ["Deep Residual Learning for Image Recognition"]


def test_killed_writer_leaves_a_consistent_store(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    records = tmp_path / "many.jsonl"
    with records.open("w") as fh:
        for i in range(200_000):
            fh.write(
                json.dumps(
                    {"id": f"r{i}", "title": f"Generated Title Number {i}", "authors": ["A B"], "year": 2000 + i % 20}
                )
                + "\n"
            )
    script = (
        "import sys; from pathlib import Path; from citetracer.store.db import Store; "
        "from citetracer.mirror.jsonl import add_jsonl; "
        "add_jsonl(Store(Path(sys.argv[1])), Path(sys.argv[2]), 'gen')"
    )
    proc = subprocess.Popen([sys.executable, "-c", script, str(path), str(records)])
    deadline = time.time() + 60
    while time.time() < deadline and (not path.exists() or path.stat().st_size < 2_000_000):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with Store(path) as s:
        n = s.stats()["records"]
        assert isinstance(n, int) and n % 5000 == 0  # whole batches only
        assert s.index.count() == n
        ok = s.db.execute("PRAGMA integrity_check").fetchone()[0]
        assert ok == "ok"


def test_record_counts_are_kept_until_a_write_changes_them(sqlite_store: Store) -> None:
    store = sqlite_store
    first = store.stats()["by_source_and_type"]
    assert json.loads(store._meta("counts") or "{}")["counts"] == first  # cached for the next `mirror stats`
    store.upsert([RECORDS[0].model_copy(update={"id": "another-id", "type": "book"})])
    after = store.stats()["by_source_and_type"]
    assert isinstance(after, dict)
    assert after[RECORDS[0].source]["book"] == first.get(RECORDS[0].source, {}).get("book", 0) + 1


def _counted(store: Store) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    rows = store.db.execute("SELECT source, coalesce(type, '?'), count(*) FROM records GROUP BY source, type")
    for source, kind, n in rows:
        counts.setdefault(source, {})[kind] = n
    return counts


def test_writes_carry_the_cached_counts_forward_instead_of_forcing_a_recount(sqlite_store: Store) -> None:
    store = sqlite_store
    store.record_counts()  # cached at the current change counter
    base = RECORDS[0]
    store.upsert(
        [
            base.model_copy(update={"id": "counted-new", "type": "article"}),
            base.model_copy(update={"id": "counted-new", "type": "book"}),  # the same key twice: the last wins
            base.model_copy(update={"type": "phdthesis"}),  # an existing record changes type
            base.model_copy(update={"source": "elsewhere", "id": "x1", "type": None}),
        ]
    )
    cached = json.loads(store._meta("counts") or "{}")
    assert cached["seq"] == store._meta("seq")  # kept current by the write itself: no recount needed
    assert cached["counts"] == _counted(store)
    assert store.record_counts() == _counted(store)


def _rows(start: int, n: int, title: str = "Indexed straight from the rows") -> list[tuple[object, ...]]:
    from citetracer.records import Person, WorkRecord
    from citetracer.store.rows import row_from_record

    return [
        tuple(row_from_record(WorkRecord(source="gen", id=f"w{i}", title=f"{title} number {i}", year=2000 + i % 5,
                                         authors=[Person(given="A.", family=f"Writer{i % 7}")])))
        for i in range(start, start + n)
    ]  # fmt: skip


def test_the_index_takes_a_writer_s_own_batches_as_they_are(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The documents of the batches a store wrote are indexed without reading the rows back, unless another
    process wrote in between; either way the index is the one a rebuild from the records gives."""
    path = tmp_path / "s.sqlite"
    with Store(path) as store, Store(path) as other:
        store.upsert([])  # the index caught up once: from here on batches are indexed as written
        reads = []
        real = store.index.write
        monkeypatch.setattr(store.index, "write", lambda works: reads.append(1) or real(works))
        for start in range(0, 300, 100):
            store.write_rows(_rows(start, 100))
        store.write_rows(_rows(0, 50, "Replaced titles"))  # replaced records: one document each
        store.sync_index()
        assert reads == [] and store.index.count() == 300
        assert store.index.by_title("Replaced titles number 7", 1) == [store.rid_of_key("gen:w7")]
        assert store.index.titles_containing(["replaced", "7"]) == 1
        assert store.index.titles_containing(["indexed", "7"]) == 0  # w7's old document is gone
        store.write_rows(_rows(300, 10))
        other.write_rows(_rows(310, 10))  # another writer between this store's batches
        store.write_rows(_rows(320, 10))
        store.sync_index()
        assert reads == [1] and store.index.count() == 330  # read back from the rows: nothing missed
        searches = [store.index.search(f"Indexed straight from the rows number {i}", ["writer3"], 2003, 3)
                    for i in (3, 103, 303, 318)]  # fmt: skip
        store.reindex()
        assert [store.index.search(f"Indexed straight from the rows number {i}", ["writer3"], 2003, 3)
                for i in (3, 103, 303, 318)] == searches  # fmt: skip


def test_replacing_venues_finds_their_names_by_index_not_by_scanning_them_all(tmp_path: Path) -> None:
    """A sources snapshot has ~250,000 venues: each one replaced deletes its old names, which must be an
    index lookup (a scan of every venue's names each time made the ingest quadratic: hours at 200,000)."""
    from citetracer.store.venues import VenueEntry

    with Store(tmp_path / "s.sqlite") as store:
        entries = [
            VenueEntry(
                id=f"openalex:S{i}",
                source="openalex",
                name=f"Journal of Things {i}",
                alternate_titles=(f"J. Things {i}",),
                works_by_year={2020: i},
            )
            for i in range(50)
        ]
        assert store.put_venues(entries) == 50
        assert store.put_venues(entries[:1]) == 1  # replaced, not doubled
        assert [v.name for v in store.venue_entries("J. Things 0")] == ["Journal of Things 0"]
        plan = " ".join(str(row[-1]) for row in store.db.execute(
            "EXPLAIN QUERY PLAN DELETE FROM venue_names WHERE venue = ?", ("openalex:S1",)))  # fmt: skip
        assert "USING INDEX" in plan or "USING COVERING INDEX" in plan, plan
