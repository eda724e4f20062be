"""The evidence memo's table: round trip, answer/failure precedence, old stores, damaged rows, pruning."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from citetracer.records import Candidate, Person
from citetracer.store.db import Store
from citetracer.store.memo import MemoEntry
from tests.store.conftest import Stores

CAND = Candidate(
    source="openalex",
    id="W1",
    title="Deep Residual Learning for Image Recognition",
    authors=[Person(given="Kaiming", family="He")],
    year=2016,
    doi="10.1109/cvpr.2016.90",
    work="openalex:W1",
    found_by="search",
)


def test_answers_round_trip_exactly(stores: Stores) -> None:
    with stores.open() as store:
        store.memo.put_many([MemoEntry("openalex", "ref:a", "answered", 1000.0, [CAND, CAND])])
        entry = store.memo.get("openalex", "ref:a")
        assert entry is not None and entry.status == "answered" and entry.fetched_at == 1000.0
        assert entry.candidates == [CAND, CAND]
        assert store.memo.get("crossref", "ref:a") is None and store.memo.get("openalex", "ref:b") is None


def test_a_failure_never_replaces_an_answer(stores: Stores) -> None:
    with stores.open() as store:
        store.memo.put_many([MemoEntry("dblp", "ref:a", "failed", 1000.0, detail="HTTP 500")])
        store.memo.put_many([MemoEntry("dblp", "ref:a", "answered", 2000.0, [])])
        store.memo.put_many([MemoEntry("dblp", "ref:a", "failed", 3000.0, detail="HTTP 429")])
        entry = store.memo.get("dblp", "ref:a")
        assert entry is not None and (entry.status, entry.fetched_at) == ("answered", 2000.0)
        store.memo.put_many([MemoEntry("dblp", "ref:a", "answered", 1500.0, [CAND])])  # older: ignored
        entry = store.memo.get("dblp", "ref:a")
        assert entry is not None and entry.fetched_at == 2000.0 and entry.candidates == []
        assert store.memo.counts() == {"answered": 1}


def test_a_store_written_before_the_memo_gains_it_and_keeps_its_records(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with Store(path) as store:
        from citetracer.records import WorkRecord

        store.upsert([WorkRecord(**CAND.model_dump(exclude={"work", "found_by"}))])
        store.db.execute("DROP TABLE memo")
    with Store(path) as store:
        assert len(store.memo) == 0 and store.rids_by_doi("10.1109/cvpr.2016.90")
        store.memo.put_many([MemoEntry("openalex", "ref:a", "answered", time.time(), [CAND])])
        assert store.stats()["memo_answers"] == 1


def test_a_damaged_row_reads_as_absent(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite") as store:
        store.memo.put_many([MemoEntry("openalex", "ref:a", "answered", 1000.0, [CAND])])
        store.db.execute("UPDATE memo SET candidates = ?", (b"not zlib",))
        assert store.memo.get("openalex", "ref:a") is None


def test_prune_forgets_only_old_rows(stores: Stores) -> None:
    with stores.open() as store:
        store.memo.put_many(
            [MemoEntry("a", "ref:x", "answered", 100.0, []), MemoEntry("b", "ref:x", "answered", 5000.0, [])]
        )
        assert store.memo.prune(1000.0) == 1
        assert store.memo.get("a", "ref:x") is None and store.memo.get("b", "ref:x") is not None


def test_the_memo_table_is_plain_sqlite(tmp_path: Path) -> None:
    """Other tools (and `mirror stats`) can read it without citetracer."""
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        store.memo.put_many([MemoEntry("openalex", "ref:a", "answered", 1000.0, [CAND])])
    db = sqlite3.connect(path)
    assert db.execute("SELECT source, subject, status FROM memo").fetchall() == [("openalex", "ref:a", "answered")]
    db.close()


def test_a_bulk_rebuild_keeps_the_memo(tmp_path: Path) -> None:
    from citetracer.store.bulk import BulkBuild

    target = tmp_path / "s.sqlite"
    with Store(target) as store:
        store.memo.put_many([MemoEntry("openalex", "ref:a", "answered", 1000.0, [CAND])])
    build = BulkBuild(target)
    build.carry_over(target, replaced_sources={"dblp"})
    build.commit()
    with Store(target) as store:
        entry = store.memo.get("openalex", "ref:a")
        assert entry is not None and entry.candidates == [CAND]


def test_not_found_lookups_of_an_older_memo_are_forgotten_once(tmp_path: Path) -> None:
    """Memos written before a lookup's 200 reply without a record counted as a failure may hold such a
    reply as "no such DOI" (a real DOI then stayed H5 for a week): their empty lookup answers go."""
    now = time.time()
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        store.memo.put_many(
            [
                MemoEntry("doi", "doi:10.1109/cvpr.2016.90", "answered", now, []),
                MemoEntry("crossref", "doi:10.1109/cvpr.2016.90", "answered", now, []),
                MemoEntry("crossref", "doi:10.1/kept", "answered", now, [CAND]),
                MemoEntry("openalex", "ref:a", "answered", now, []),
            ]
        )
        # What a store of the older format looks like: no format mark.
        store.db.execute("DELETE FROM meta WHERE key = 'memo_format'")
    with Store(path) as store:
        assert store.memo.get("doi", "doi:10.1109/cvpr.2016.90") is None
        assert store.memo.get("crossref", "doi:10.1109/cvpr.2016.90") is None
        assert store.memo.get("crossref", "doi:10.1/kept") is not None
        assert store.memo.get("openalex", "ref:a") is not None  # a well-formed empty search stays
        store.memo.put_many([MemoEntry("doi", "doi:10.1/new", "answered", now, [])])
    with Store(path) as store:  # the current format is never migrated again
        assert store.memo.get("doi", "doi:10.1/new") is not None
