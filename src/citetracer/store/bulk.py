"""Building a whole store in one pass (mirror dumps), then swapping it in atomically.

`Store.upsert` is right for a few thousand records; a DBLP dump has millions,
and going through it would write each row twice (SQLite, then re-read for the
index). A `BulkBuild` instead writes a fresh store beside the target
(`<target>.building-<pid>`): rows go to SQLite in large transactions with
the journal in memory and no fsync (the file is disposable until it is
swapped in), index documents go straight to one tantivy writer, the key's
unique index and the secondary indexes are created once at the end (a key
seen twice keeps its last record), and the records of other sources plus the
verified-citation links and the evidence memo are carried over from the previous store.
The caller copies them over at the end, under the store's writer lock held until the
swap (store/lock.py), so nothing written to the old store during the build is lost.
Only `commit()` touches the target, through `swap.replace_store`; any failure
before that (a corrupt dump, a full disk, a kill) leaves the previous store
exactly as it was, and `abort()` (or the next build) deletes the leftovers.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sqlite3
import threading
import uuid
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from citetracer.normalize.text import doi_prefix
from citetracer.records import WorkRecord
from citetracer.store.codec import PACKED, pack, ranking_fields_of
from citetracer.store.common import pid_alive
from citetracer.store.db import INDEXES, RECORD_KEY, SCHEMA_VERSION, TABLES, Store
from citetracer.store.index import TitleIndex, add_fields
from citetracer.store.memo import TABLE as MEMO_TABLE
from citetracer.store.ranking import index_text
from citetracer.store.rows import Row, row_from_record
from citetracer.store.swap import index_path, remove_store_files, replace_store, write_marker
from citetracer.store.venues import TABLES as VENUE_TABLES

#: Rows per SQLite transaction and per check of the writer's health.
BATCH = 20_000
#: tantivy indexing memory; segments are flushed when it fills (bounded RSS).
INDEX_HEAP = 256_000_000
#: Crossref keys remembered in memory (DBLP has ~60k proceedings); past this, lookups go to SQLite.
MAX_XREF_CACHE = 500_000

_INSERT = (
    "INSERT INTO records (rid, key, source, type, doi, arxiv, year, venue_key, data, seq, xref) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)"
)


def clean_leftovers(target: Path) -> None:
    """Remove stores half-built by ingests that were killed (their process is gone)."""
    for leftover in target.parent.glob(target.name + ".building-*"):
        # an index folder alone is a leftover too: a kill can land after the half-built file was removed
        # and before its index folder was (or before the file was created), and nothing else removes it
        base = leftover.with_name(leftover.name.removesuffix(".index"))
        tail = base.name.rsplit("-", 1)[-1]
        if tail.isdigit() and not pid_alive(int(tail)):
            remove_store_files(base)


class _Committing(threading.Thread):
    """The title index's writer committing (and merging) in a thread; `join` raises what it raised."""

    def __init__(self, writer: Any) -> None:
        super().__init__(name="index-commit", daemon=True)
        self.writer = writer
        self.failure: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            self.writer.commit()
            self.writer.wait_merging_threads()
        except BaseException as exc:  # a Rust panic is a BaseException; raised again in the caller's thread
            self.failure = exc

    def wait(self) -> None:
        """Until the commit is over, whatever its outcome."""
        super().join()

    def join(self, timeout: float | None = None) -> None:
        """Until the commit is over; raises what it raised."""
        super().join(timeout)
        if self.failure is not None:
            raise self.failure


class BulkBuild:
    """A new store under construction; see the module docstring."""

    def __init__(self, target: Path) -> None:
        self.target = Path(target)
        self.target.parent.mkdir(parents=True, exist_ok=True)
        clean_leftovers(self.target)
        self.path = self.target.with_name(f"{self.target.name}.building-{os.getpid()}")
        remove_store_files(self.path)
        self.build = uuid.uuid4().hex
        self.db = sqlite3.connect(str(self.path), isolation_level=None)
        for pragma in (
            "journal_mode=MEMORY",
            "synchronous=OFF",
            "locking_mode=EXCLUSIVE",
            "cache_size=-262144",
            "temp_store=FILE",
            f"threads={min(4, os.cpu_count() or 1)}",  # sorts for the indexes built at the end use every core
        ):
            self.db.execute(f"PRAGMA {pragma}")
        # The key's unique index is built once at the end (sorting 8M keys once is far cheaper than
        # inserting them one by one into a B-tree that outgrows the cache); duplicates are resolved first.
        self.db.executescript(TABLES.replace(RECORD_KEY, RECORD_KEY.replace(" UNIQUE", "")) + VENUE_TABLES)
        meta = [("schema", SCHEMA_VERSION), ("seq", "1"), ("indexed_seq", "1"), ("build", self.build)]
        self.db.executemany("INSERT INTO meta VALUES (?, ?)", meta)
        index_dir = index_path(self.path)
        self.index = TitleIndex(index_dir)
        self.writer = self.index.index.writer(heap_size=INDEX_HEAP, num_threads=1)
        self.next_rid = 1
        self.rows: list[tuple[Any, ...]] = []
        self.pending: list[tuple[int, tuple[str, ...], tuple[str, ...], int | None]] = []
        self.prefixes: set[str] = set()
        self.xref_ids: dict[str, int] = {}
        self.added = 0
        self.counts: Counter[tuple[str, str]] = Counter()
        self.years: Counter[tuple[str, int]] = Counter()
        self.previous: Path | None = None
        self.db.execute("BEGIN")

    # ------------------------------------------------------------------ writes

    def xref_id(self, key: str) -> int:
        """The id under which a crossref target (a proceedings volume) is known."""
        xid = self.xref_ids.get(key)
        if xid is not None:
            return xid
        self.db.execute("INSERT OR IGNORE INTO xrefs (key) VALUES (?)", (key,))
        xid = int(self.db.execute("SELECT id FROM xrefs WHERE key = ?", (key,)).fetchone()[0])
        if len(self.xref_ids) >= MAX_XREF_CACHE:
            self.xref_ids.clear()
        self.xref_ids[key] = xid
        return xid

    def set_xref_title(self, key: str, title: str) -> None:
        self.db.execute("UPDATE xrefs SET title = ? WHERE id = ?", (title, self.xref_id(key)))

    def add(self, record: WorkRecord, xref: str | None = None) -> None:
        self.add_row(row_from_record(record, xref))

    def add_row(self, row: Row) -> None:
        self.add_rows((row,))

    def add_rows(self, rows: Iterable[tuple[Any, ...]]) -> None:
        """Add rows (a `Row`, or the plain tuple of its 13 fields as parser processes send them).

        The cyclic garbage collector is paused meanwhile (the rows' tuples are many and in no cycle).
        """
        out, pending, prefixes, xref_ids = self.rows, self.pending, self.prefixes, self.xref_ids
        rid = self.next_rid
        collecting = gc.isenabled()
        gc.disable()
        try:
            for key, source, kind, doi, arxiv, year, vkey, data, xref, titles, surnames, xref_title, packed in rows:
                if doi:
                    prefixes.add(doi_prefix(doi))
                if xref_title:
                    self.set_xref_title(key, xref_title)
                if xref:
                    xkey = f"{source}:{xref}"
                    xid = xref_ids.get(xkey)
                    if xid is None:
                        xid = self.xref_id(xkey)
                else:
                    xid = None
                out.append((rid, key, source, kind, doi, arxiv, year, vkey, data if packed else pack(data), xid))
                pending.append((rid, titles, surnames, year))
                rid += 1
                if len(out) >= BATCH:
                    self.next_rid = rid
                    self.flush()
                    out, pending = self.rows, self.pending
        finally:
            self.next_rid = rid
            if collecting:
                gc.enable()

    def add_all(self, records: Iterable[WorkRecord]) -> None:
        for record in records:
            self.add(record)

    def flush(self) -> None:
        if not self.rows:
            return
        self.db.executemany(_INSERT, self.rows)
        # counted per batch (Counter.update counts in C): (source, type) and (source, year) of every row
        self.counts.update([(row[2], row[3] or "?") for row in self.rows])
        self.years.update([(row[2], row[6] or 0) for row in self.rows])
        for rid, titles, surnames, year in self.pending:
            add_fields(self.writer, rid, titles, surnames, year)
        self.db.executemany("INSERT OR IGNORE INTO doi_prefixes VALUES (?)", [(p,) for p in self.prefixes])
        self.prefixes.clear()
        self.db.execute("COMMIT")
        self.db.execute("BEGIN")
        self.added += len(self.rows)
        self.rows, self.pending = [], []

    def _drop_duplicates(self) -> int:
        """A key written more than once (within a dump): the last record wins, earlier rows and documents go."""
        stale = [
            int(rid)
            for (rids,) in self.db.execute("SELECT group_concat(rid) FROM records GROUP BY key HAVING count(*) > 1")
            for rid in sorted(int(r) for r in str(rids).split(","))[:-1]
        ]
        for start in range(0, len(stale), 500):
            chunk = stale[start : start + 500]
            self.db.execute(f"DELETE FROM records WHERE rid IN ({','.join('?' * len(chunk))})", chunk)
        for rid in stale:
            self.writer.delete_documents_by_term("rid", rid)
        return len(stale)

    def carry_over(self, old: Path, replaced_sources: set[str]) -> int:
        """Copy the other sources' records (their stored bytes and their crossref or venue link, as they
        are) and, at commit, the verified links and the venue knowledge from the previous store."""
        if not old.exists():
            return 0
        with Store(old, readonly=True) as previous:  # heals or upgrades the previous store's schema first
            skip = sorted(replaced_sources)
            marks = ",".join("?" * len(skip))
            rows = previous.db.execute(
                "SELECT r.key, r.source, r.type, r.doi, r.arxiv, r.year, r.venue_key, r.data, x.key FROM records r "
                f"LEFT JOIN xrefs x ON x.id = r.xref WHERE r.source NOT IN ({marks}) ORDER BY r.rid",
                skip,
            )
            n = 0
            for key, source, kind, doi, arxiv, year, vkey, data, xkey in rows:
                fields = ranking_fields_of(data, year)
                xref = xkey.removeprefix(f"{source}:") if xkey else None
                packed = isinstance(data, bytes) and data[:1] == PACKED
                titles = tuple(index_text(t) for t in fields.titles)
                json_bytes = data if packed else (data.encode() if isinstance(data, str) else data)
                self.add_rows([(key, source, kind, doi, arxiv, year, vkey, json_bytes, xref, titles,
                                tuple(sorted(fields.surnames)), None, packed)])  # fmt: skip
                n += 1
        self.flush()
        self.previous = old
        return n

    def _copy_links(self) -> None:
        """Verified links, source dates and completeness flags of the previous store (links re-pointed by key)."""
        if self.previous is None:
            return
        self.db.execute("ATTACH DATABASE ? AS old", (str(self.previous),))
        self.db.execute(
            "INSERT OR IGNORE INTO verified SELECT v.fingerprint, n.rid, v.source, v.source_id, v.code, "
            "v.verified_at FROM old.verified v JOIN old.records o ON o.rid = v.rid JOIN records n ON n.key = o.key"
        )
        self.db.execute(
            "INSERT OR IGNORE INTO meta SELECT key, value FROM old.meta "
            "WHERE key LIKE 'source_%' OR key LIKE 'complete%' OR key LIKE 'scope:%' OR key = 'memo_format'"
        )
        self._copy_memo()
        for table in ("venues", "venue_names", "venue_year_works", "complete_venue_years"):
            self.db.execute(f"INSERT OR IGNORE INTO {table} SELECT * FROM old.{table}")
        # Titles of crossref targets and venues that no record of the new build carries (a venue row's name).
        self.db.execute("INSERT OR IGNORE INTO xrefs (key, title) SELECT key, title FROM old.xrefs "
                        "WHERE title IS NOT NULL AND key NOT IN (SELECT key FROM xrefs)")  # fmt: skip
        self.db.execute("UPDATE xrefs SET title = (SELECT o.title FROM old.xrefs o WHERE o.key = xrefs.key) "
                        "WHERE title IS NULL")  # fmt: skip
        self.db.execute("COMMIT")
        self.db.execute("DETACH DATABASE old")
        self.db.execute("BEGIN")

    def _copy_memo(self) -> None:
        """The evidence memo of the previous store (store/memo.py), when it has one: a rebuild keeps it."""
        self.db.execute(MEMO_TABLE)
        if self.db.execute("SELECT 1 FROM old.sqlite_master WHERE type = 'table' AND name = 'memo'").fetchone():
            columns = "source, subject, status, fetched_at, detail, candidates"
            self.db.execute(f"INSERT OR IGNORE INTO memo ({columns}) SELECT {columns} FROM old.memo")

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute(
            "INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value", (key, value)
        )

    # --------------------------------------------------------------- finishing

    def commit(self) -> None:
        """Finish the new store and move it over the target."""
        self.flush()
        try:
            self.db.execute("CREATE UNIQUE INDEX records_key ON records(key)")
            counted = True
        except sqlite3.IntegrityError:  # some key came twice: keep the last, then index
            self._drop_duplicates()
            self.db.execute("CREATE UNIQUE INDEX records_key ON records(key)")
            counted = False  # the store recounts when first asked
        if counted:  # `Store.record_counts` uses them while the change counter stays at 1
            counts: dict[str, dict[str, int]] = {}
            for (source, kind), n in sorted(self.counts.items()):
                counts.setdefault(source, {})[kind] = n
            self.set_meta("counts", json.dumps({"seq": "1", "counts": counts}))
            years: dict[str, dict[int, int]] = {}
            for (source, year), n in sorted(self.years.items()):
                years.setdefault(source, {})[year] = n
            self.set_meta("years", json.dumps({"seq": "1", "years": years}))
        # The title index is committed in a thread meanwhile: tantivy and SQLite both release the GIL, so
        # its segment is written on one core while SQLite builds its indexes on the other.
        indexing = _Committing(self.writer)
        try:
            self._copy_links()
            self.db.execute("COMMIT")
            self.db.executescript(INDEXES)
            self.db.execute("PRAGMA locking_mode=NORMAL")
            self.db.execute("PRAGMA journal_mode=DELETE")
            self.db.execute("PRAGMA analysis_limit=1000")
            self.db.execute("ANALYZE")
        except BaseException:
            indexing.wait()  # SQLite's failure (a full disk, say) is the one raised
            raise
        indexing.join()
        self.db.close()
        write_marker(index_path(self.path), self.build)
        replace_store(self.path, self.target)

    def abort(self) -> None:
        """Throw the half-built store away; the target was never touched."""
        with contextlib.suppress(Exception):
            self.writer.rollback()
        with contextlib.suppress(Exception):
            self.db.close()
        remove_store_files(self.path)
