"""The local evidence store: bibliographic records in SQLite (WAL) plus a tantivy index.

Layout on disk: the SQLite file at the store path and the index directory
beside it (`<path>.index/`). SQLite is the source of truth; each write batch
bumps a change counter, and the index records up to which counter it has been
brought, so a process killed between the two commits leaves a store that
heals itself on the next open. Citations judged Real are linked back to the
evidence record that proved them (never to the citation's own fields). The
evidence memo (store/memo.py) keeps what online sources answered, and when.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import shutil
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from citetracer.normalize.text import doi_prefix, parse_year
from citetracer.records import WorkRecord
from citetracer.store import memo
from citetracer.store.codec import pack, ranking_fields_of
from citetracer.store.common import (
    BatchMeta,
    StoreError,
    venue_key,
)
from citetracer.store.index import READ_ERRORS, IndexedWork, TitleIndex
from citetracer.store.lock import StoreBusy, writer_lock
from citetracer.store.ranking import RankingFields
from citetracer.store.sql import SqlStore
from citetracer.store.sqlbase import SET_META, SQLITE, Transaction
from citetracer.store.swap import heal_index_pair, index_path, read_marker, write_marker
from citetracer.store.turns import FileTurns
from citetracer.store.venues import TABLES as VENUE_TABLES

SCHEMA_VERSION = "2"

TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    rid INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    type TEXT,
    doi TEXT,
    arxiv TEXT,
    year INTEGER,
    venue_key TEXT,
    data BLOB NOT NULL,
    seq INTEGER NOT NULL,
    xref INTEGER
);
CREATE TABLE IF NOT EXISTS xrefs (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, title TEXT);
CREATE INDEX IF NOT EXISTS xrefs_by_key ON xrefs(key);
CREATE TABLE IF NOT EXISTS doi_prefixes (prefix TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS verified (
    fingerprint TEXT PRIMARY KEY,
    rid INTEGER NOT NULL,
    source TEXT NOT NULL,
    source_id TEXT NOT NULL,
    code TEXT NOT NULL,
    verified_at TEXT NOT NULL
);
"""

#: The records table's key column (a bulk build adds its unique index only at the end, store/bulk.py).
RECORD_KEY = "key TEXT NOT NULL UNIQUE,\n    source TEXT NOT NULL"
assert RECORD_KEY in TABLES

#: Seconds a write waits for another process's write by default (store/lock.py); commands that only
#: read and write a little at the end (`check`) wait less, ingests as long as it takes.
DEFAULT_LOCK_WAIT = 60.0
#: What tantivy raises for an index it cannot read (a missing or corrupt file); a Rust panic
#: (pyo3's PanicException) derives from BaseException, so it is named too.
INDEX_ERRORS: tuple[type[BaseException], ...] = READ_ERRORS
#: What a write of the store may fail with when the disk is full (see `storage_failure`).
WRITE_ERRORS: tuple[type[BaseException], ...] = (sqlite3.OperationalError, *INDEX_ERRORS)
#: Crossref targets and venues whose ids a store keeps in memory while writing.
XREF_CACHE_SIZE = 200_000
#: Records written between two index catch-ups of one `upsert` (bounds the index writer's memory).
INDEX_EVERY = 100_000
#: ... and at least this long before healing the index pair at open (another process may be swapping).
HEAL_WAIT = 60.0
#: Rebuilds of the title index tried before giving up: its files deleted under the first (by whoever
#: removed the damaged index the rebuild replaces) fail it, and the next one finds the folder quiet.
REBUILD_TRIES = 2

#: Bytes of the store file read through a memory map (SQLite lowers this to its compiled limit).
MMAP_BYTES = 4 << 30

#: Secondary indexes, created after the rows when a store is built in bulk (much faster than during).
INDEXES = """
CREATE INDEX IF NOT EXISTS records_doi ON records(doi) WHERE doi IS NOT NULL;
CREATE INDEX IF NOT EXISTS records_arxiv ON records(arxiv) WHERE arxiv IS NOT NULL;
DROP INDEX IF EXISTS records_seq;
CREATE INDEX IF NOT EXISTS records_seq2 ON records(seq) WHERE seq > 1;
CREATE INDEX IF NOT EXISTS records_venue_year ON records(venue_key, year);
"""


#: Seconds an open keeps retrying a schema setup that lost a race with another process opening the store.
SETUP_WAIT = 30.0


#: Free bytes below which a failed write is put down to a full disk (tantivy's io::Error says no more).
LOW_DISK = 8 << 20


def storage_failure(exc: BaseException, path: Path) -> str | None:
    """Why a write to the store at `path` failed when the cause is the disk (full, a file-size limit, an
    I/O error), as one sentence; None for any other failure (a bug stays a bug).

    SQLite says "database or disk is full" or "disk I/O error"; the OS says ENOSPC, EDQUOT or EFBIG;
    tantivy only that its writer died of an io::Error. The disk's free space is named when it is low."""
    text = str(exc)
    disk = (
        (isinstance(exc, sqlite3.OperationalError) and ("disk is full" in text or "disk I/O error" in text))
        or (isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG))
        or (isinstance(exc, INDEX_ERRORS) and any(w in text for w in ("io::Error", "writer was killed", "IoError")))
    )
    if not disk:
        return None
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        free = None
    full = "" if free is None or free >= LOW_DISK else f"the disk holding it has {free // 1024} KB free; "
    return (
        f"{path}: a write failed ({full}{text.splitlines()[0][:160] if text else type(exc).__name__}); what was "
        "committed before is kept: free some space (or raise the file-size limit) and run the same command again"
    )


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    return any(word in str(exc) for word in ("database is locked", "database is busy"))


class Store(SqlStore):
    """Records, the title/author index, and verified-citation links."""

    dialect = SQLITE
    path: Path

    def __init__(
        self,
        path: Path,
        *,
        readonly: bool = False,
        lock_wait: float | None = DEFAULT_LOCK_WAIT,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        """Open (or create) the store. `readonly`: never write (no index catch-up either).

        `lock_wait`: how long a write waits for another process's write to finish (None: as
        long as it takes); `notify` hears, once, whom it waits for. See store/lock.py.
        """
        self.path = Path(path)
        self.readonly = readonly
        self.lock_wait = lock_wait
        self.notify = notify
        #: Records written by another process that the index does not hold yet (it was busy writing).
        self.index_lag = 0
        #: What went wrong and was mended while the store was open (a report says so), and whether the index
        #: was rebuilt in use already (`_index_damaged`: once).
        self.problems: list[str] = []
        self._rebuilt_in_use = False
        #: Crossref targets' and venues' ids by key (see `_xref`), and records written since the index caught up.
        self._xref_ids: dict[str, int] = {}
        self._unindexed = 0
        #: Index documents of the batches this store wrote since the index caught up, and their change
        #: counters: when they are all the batches since (no other writer came between), `sync_index`
        #: indexes them as they are instead of reading every row back.
        self._pending: list[tuple[int, tuple[str, ...], tuple[str, ...], int | None]] = []
        self._pending_seqs: list[int] = []
        self.memo = memo.SqlMemo(self)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if index_path(self.path).exists() and not index_path(self.path).is_dir():  # never removed: not ours
            raise StoreError(
                f"{index_path(self.path)} is a file, not the store's title index folder; move it away and run again"
            )
        self._connect()
        build = self._meta("build")
        if not readonly and read_marker(index_path(self.path)) != build:
            # Healing moves index directories: only under the writer lock (a rebuild's swap holds it
            # for a moment; one that was killed left it free). writing() reconnects when the file changed.
            with self.writing(wait=None if lock_wait is None else max(lock_wait, HEAL_WAIT)):
                heal_index_pair(self.path, str(self._meta("build")), self._reset_index)
        self._open_index()
        self._known_prefixes: set[str] | None = None
        self._source_dates: dict[str, str] | None = None
        self._venue_names: dict[str, list[str]] = {}
        #: Venue-year coverage, once per venue-year (store/coverage.py reads the venue-year's records).
        self._coverage: dict[tuple[str, int | None], tuple[int, str]] = {}
        self._cache: dict[int, WorkRecord] = {}
        self._ranking: dict[int, RankingFields] = {}
        if not readonly:
            self._catch_up_index()

    def _connect(self) -> None:
        """Connect and make sure the schema is there. Processes opening one new store at once race on
        creating it: in WAL mode a statement that reads the schema and then writes it gets "database is
        locked" at once, without waiting, when another process wrote in between (two `mirror add`s on a
        new store failed 1 run in 4). Every step here is idempotent, so a lost race is simply retried."""
        deadline = time.monotonic() + SETUP_WAIT
        while True:
            try:
                self._connect_once()
                break
            except sqlite3.OperationalError as exc:
                if getattr(self, "db", None) is not None:
                    self.db.close()
                if not _is_busy(exc) or time.monotonic() > deadline:
                    raise StoreError(f"{self.path}: not a usable citetracer store ({exc})") from exc
                time.sleep(random.uniform(0.02, 0.1))  # apart from the other openers
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path}: not a usable citetracer store ({exc})") from exc
        self._file_id = _file_id(self.path)

    def _connect_once(self) -> None:
        """One try of `_connect` (sqlite3 errors go to it)."""
        self.db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        # Reads through a memory map: ranking reads ~20 random rows per title query, and at 8M
        # records each read through the page cache costs ~40 us of system calls (halved this way).
        # SQLite caps the map at its compiled maximum (2 GB); a rebuild replaces the file by
        # rename, never truncating a mapped one.
        self.db.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
        self.db.executescript(TABLES + VENUE_TABLES)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(records)")}
        if "xref" not in columns:  # stores written before crossrefs were kept
            self.db.execute("ALTER TABLE records ADD COLUMN xref INTEGER")
        self.db.executescript(INDEXES)
        memo.prepare(self.db)
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('build', ?)", (uuid.uuid4().hex,))
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('seq', '0')")
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('indexed_seq', '0')")

    def _open_index(self) -> None:
        """Open the title index; a damaged one is rebuilt from the records (SQLite is the truth).

        Damage is a segment file missing, garbled or truncated (tantivy refuses to open it),
        or an index that holds fewer or more documents than the records it has caught up
        with (a deleted meta.json opens as an empty index: verdicts would change silently).
        """
        why = None
        try:
            self.index = TitleIndex(index_path(self.path))
            self.index.fields_of = self.ranking_fields
            why = self._index_mismatch()
            self.index.on_damage = self._index_damaged
        except INDEX_ERRORS as exc:
            why = f"it cannot be read ({str(exc).splitlines()[0][:160]})"
        if why is None:
            return
        if self.readonly:
            raise StoreError(f"{self.path}: the title index is damaged: {why}; run `citetracer mirror reindex`")
        self.reindex(why)

    def _index_mismatch(self) -> str | None:
        """Why the index cannot be the records' (documents != records once caught up), or None."""
        seq, indexed = self._meta("seq"), self._meta("indexed_seq")
        if seq != indexed or seq in (None, "0"):
            return None  # lagging (another writer, or a catch-up to come): counts differ by design
        docs = self.index.count()
        records = sum(n for kinds in self.record_counts().values() for n in kinds.values())
        if docs == records or self._meta("seq") != seq:
            return None
        return f"it holds {docs:,} documents for {records:,} records"

    def reindex(self, why: str = "asked to") -> int:
        """Rebuild the title index from every record (under the writer lock); returns the documents written."""
        with self.writing():
            if why != "asked to" and getattr(self, "index", None) is not None:
                try:  # another process may have rebuilt it meanwhile
                    self.index.reload()
                    if self._index_mismatch() is None:
                        return 0
                except INDEX_ERRORS:
                    pass
            if self.notify is not None:
                self.notify(f"{self.path}: the title index is rebuilt from its records ({why})")
            for attempt in range(REBUILD_TRIES):
                try:
                    return self._rebuild_index()
                except INDEX_ERRORS as exc:
                    if storage_failure(exc, self.path) is not None:
                        raise  # a full disk: writing() says so
                    detail = (str(exc).splitlines() or [type(exc).__name__])[0][:160]
                    if attempt + 1 == REBUILD_TRIES:
                        raise StoreError(
                            f"{self.path}: the title index could not be rebuilt from its records ({detail}); "
                            "run `citetracer mirror reindex` when nothing else uses the store"
                        ) from exc
                    self.problems.append(
                        f"{self.path}: the title index changed under its rebuild ({detail}); built again"
                    )
            raise AssertionError("unreachable")

    def _rebuild_index(self) -> int:
        """The index made anew in an empty folder and filled from every record. Files of it deleted while it
        is written (someone removing the index as a check rebuilds it) fail tantivy's commit with an error
        of INDEX_ERRORS, which `reindex` answers by building again."""
        folder = index_path(self.path)
        shutil.rmtree(folder, ignore_errors=True)
        write_marker(folder, str(self._meta("build")))
        self._reset_index()
        self.index = TitleIndex(folder)
        self.index.fields_of = self.ranking_fields
        n = self.sync_index()
        self.index.on_damage = self._index_damaged
        return n

    def _index_damaged(self, exc: BaseException) -> TitleIndex:
        """The title index failed while in use (a segment file garbled or deleted under a running check):
        rebuilt from the records, which SQLite holds, once per open store, and said in `problems`; a
        store opened read-only, or a second failure, is one StoreError."""
        detail = (str(exc).splitlines() or [type(exc).__name__])[0][:160]
        if self.readonly or self._rebuilt_in_use:
            raise StoreError(
                f"{self.path}: the title index broke while in use ({detail}); run `citetracer mirror reindex`"
            )
        self._rebuilt_in_use = True
        self.reindex(f"it broke while in use: {detail}")
        self.problems.append(
            f"{self.path}: the title index broke while in use ({detail}) and was rebuilt from its records"
        )
        return self.index

    def _catch_up_index(self) -> None:
        """Bring a lagging index up to date (a process killed between its two commits), unless another
        process is writing right now: then it is that writer's to do, and this reader is not held up."""
        try:
            with self.writing(wait=0):
                self.sync_index()
                self.index_lag = 0
        except (StoreBusy, StoreError):  # busy, or a full disk: the index answers as it stands
            self.index_lag = max(0, int(self._meta("seq") or 0) - int(self._meta("indexed_seq") or 0))

    @contextmanager
    def writing(self, wait: float | Literal["default"] | None = "default") -> Iterator[None]:
        """Hold the store's writer lock (store/lock.py) for a block of writes; StoreBusy if it stays taken.

        When another process replaced the store meanwhile (a `mirror dblp` swap), this
        connection and index are reopened on the new files first, so the write lands in
        the store that is now in place and is never lost with the old file.
        """
        self._writable()
        limit = self.lock_wait if wait == "default" else wait
        with writer_lock(self.path, limit, self.notify):
            if _file_id(self.path) != self._file_id:
                self.db.close()
                self._connect()
                self._open_index()
                self._known_prefixes, self._source_dates = None, None
                self._venue_names, self._cache, self._xref_ids, self._coverage = {}, {}, {}, {}
                self._ranking = {}
                self._pending, self._pending_seqs = [], []
            try:
                yield
            except WRITE_ERRORS as exc:
                # A full disk is the user's to fix, not a bug: one clear StoreError (callers that can go on
                # without the write, a check saving its memo, do; an ingest stops, its committed batches kept).
                why = storage_failure(exc, self.path)
                if why is None:
                    raise
                self._pending, self._pending_seqs = [], []
                raise StoreError(why) from exc

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _transaction(self) -> Iterator[Transaction]:
        """One write transaction, begun IMMEDIATE: SQLite's write lock is taken at the start, so a busy store
        is waited for there (the connection's timeout) and not met halfway through."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield Transaction(self.db, SQLITE)
        except BaseException:
            if self.db.in_transaction:  # SQLite rolled back itself on some errors (a full disk)
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _reset_index(self) -> None:
        """Forget what was indexed: the next `sync_index` rebuilds the index from SQLite."""
        self.db.execute("UPDATE meta SET value = '0' WHERE key = 'indexed_seq'")

    def prepare_ingest(self) -> None:
        """No memory map for an ingest: it reads back every row it writes (to index them), and pages read
        through the map stay in its resident memory, growing with the store (GBs at millions of records)."""
        self.db.execute("PRAGMA mmap_size=0")

    def rate_turns(self) -> FileTurns:
        """The polite rates' turns shared by every process using this store (store/turns.py): a file beside it."""
        return FileTurns(self.path.with_name(self.path.name + ".turns"))

    def _meta(self, key: str) -> str | None:
        return self.meta_value(key)

    def _rows(self, sql: str, params: Any = None) -> list[Any]:
        return self.db.execute(sql, params or ()).fetchall()

    def _stream(self, sql: str, params: Sequence[Any]) -> Iterator[Any]:
        """SQLite's cursor reads rows as they are asked for."""
        return iter(self.db.execute(sql, params))

    # ------------------------------------------------------------------ writes

    def _end_upsert(self, batch: Sequence[tuple[Any, ...]], on_batch: Callable[[BatchMeta], None] | None) -> int:
        """An upsert's last batch and the catch-up of the title index, under one hold of the writer lock:
        the index (tantivy, beside the database) is brought up to date at the end of every upsert, and
        every `INDEX_EVERY` records before (`write_rows`), which bounds the index writer's memory."""
        with self.writing():
            n = self._write_rows(batch, on_batch) if batch else 0
            self.sync_index()
            self._unindexed = 0
        return n

    def write_rows(self, rows: Sequence[tuple[Any, ...]], on_batch: Callable[[BatchMeta], None] | None = None) -> int:
        """Write rows (`store.rows.Row`, or the plain tuples mirror parsers make) in one transaction under the
        writer lock; a key given twice keeps its last row. `on_batch` runs inside the transaction (see `upsert`).

        The index is brought up to date once `INDEX_EVERY` records were written this way (bounding the
        index writer's memory); a caller that writes many batches calls `sync_index` at the end.
        """
        with self.writing():
            n = self._write_rows(rows, on_batch)
            self._unindexed += n
            if self._unindexed >= INDEX_EVERY:
                self.sync_index()
                self._unindexed = 0
        return n

    def _write_rows(self, batch: Sequence[tuple[Any, ...]], on_batch: Callable[[BatchMeta], None] | None) -> int:
        docs: dict[str, tuple[int, tuple[str, ...], tuple[str, ...], int | None]] = {}
        with self._transaction() as db:
            seq = int(db.execute("SELECT value FROM meta WHERE key='seq'").fetchone()[0]) + 1
            db.execute("UPDATE meta SET value = ? WHERE key = 'seq'", (str(seq),))
            rows = []
            prefixes = set()
            for key, source, kind, doi, arxiv, year, vkey, data, xref, _titles, _names, xref_title, packed in batch:
                if doi:
                    prefixes.add(doi_prefix(doi))
                if xref_title:
                    self._xref(db, key, xref_title)
                xid = self._xref(db, f"{source}:{xref}") if xref else None
                rows.append((key, source, kind, doi, arxiv, year, vkey, data if packed else pack(data), seq, xid))
            self._count_batch(db, seq, rows)
            db.executemany(
                "INSERT INTO records (key, source, type, doi, arxiv, year, venue_key, data, seq, xref) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET "
                "source=excluded.source, type=excluded.type, doi=excluded.doi, arxiv=excluded.arxiv, "
                "year=excluded.year, venue_key=excluded.venue_key, data=excluded.data, seq=excluded.seq, "
                "xref=coalesce(excluded.xref, records.xref)",
                rows,
            )
            db.executemany("INSERT OR IGNORE INTO doi_prefixes VALUES (?)", [(p,) for p in prefixes])
            rids = self._rids_of_keys(db, [row[0] for row in batch])
            for key, _, _, _, _, year, _, _, _, titles, surnames, _, _ in batch:
                docs[key] = (rids[key], tuple(titles), tuple(surnames), year)
            if on_batch is not None:
                on_batch(db)
        self._pending.extend(docs.values())  # committed: the index may take them as they are
        self._pending_seqs.append(seq)
        self._forget()
        return len(batch)

    def _xref(self, db: Transaction, key: str, title: str | None = None) -> int:
        """The id of a crossref target or venue (`xrefs`), made when new; `title` sets its name."""
        xid = self._xref_ids.get(key)
        if xid is None:
            row = db.execute("SELECT id FROM xrefs WHERE key = ?", (key,)).fetchone()
            xid = int(row[0]) if row else int(db.execute("INSERT INTO xrefs (key) VALUES (?)", (key,)).lastrowid or 0)
            if len(self._xref_ids) >= XREF_CACHE_SIZE:
                self._xref_ids.clear()
            self._xref_ids[key] = xid
        if title is not None:
            db.execute("UPDATE xrefs SET title = ? WHERE id = ?", (title, xid))
        return xid

    def _count_batch(self, db: Transaction, seq: int, rows: Sequence[tuple[Any, ...]]) -> None:
        """Bring the cached record counts by source and type, and by source and year (see `record_counts`,
        `years_by_source`), forward over this batch of upserts.

        Counting millions of rows again after every small write (a record the online stages found)
        would cost seconds at the next `mirror stats`; the batch's own keys tell what changes.
        Counts already stale stay stale (they are recounted when asked).
        """
        counts = self._cached_counts("counts", seq - 1)
        years = self._cached_counts("years", seq - 1)
        if counts is None and years is None:
            return
        written: dict[str, tuple[str, str, str]] = {row[0]: (row[1], row[2] or "?", str(row[5] or 0)) for row in rows}
        keys = list(written)
        gone = []
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT source, coalesce(type, '?'), coalesce(year, 0) FROM records WHERE key IN ({marks})"
            gone += [(s, k, str(y)) for s, k, y in db.execute(query, chunk)]
        for table, name, column in ((counts, "counts", 1), (years, "years", 2)):
            if table is None:
                continue
            for sign, entries in ((-1, gone), (1, list(written.values()))):
                for entry in entries:
                    inner = table.setdefault(entry[0], {})
                    inner[entry[column]] = inner.get(entry[column], 0) + sign
            kept = {src: {k: n for k, n in inner.items() if n > 0} for src, inner in table.items()}
            value = json.dumps({"seq": str(seq), name: {src: inner for src, inner in kept.items() if inner}})
            db.execute("UPDATE meta SET value = ? WHERE key = ?", (value, name))

    def _cached_counts(self, name: str, seq: int) -> dict[str, dict[str, int]] | None:
        """The counts kept in `meta` under `name` if they belong to change counter `seq`."""
        cached = self._meta(name)
        if not cached:
            return None
        try:
            obj = json.loads(cached)
            if obj["seq"] != str(seq):
                return None
            table: dict[str, dict[str, int]] = obj[name]
            return table
        except (ValueError, TypeError, KeyError):
            return None

    def _rids_of_keys(self, db: Transaction, keys: Sequence[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            out.update(db.execute(f"SELECT key, rid FROM records WHERE key IN ({','.join('?' * len(chunk))})", chunk))
        return out

    def sync_index(self) -> int:
        """Index every record changed since the index was last brought up to date: from the documents of
        this store's own batches when they are all the batches since, else from the rows themselves."""
        indexed = int(self._meta("indexed_seq") or 0)
        current = int(self._meta("seq") or 0)
        pending, seqs = self._pending, self._pending_seqs
        self._pending, self._pending_seqs = [], []
        if indexed >= current:
            return 0
        if seqs == list(range(indexed + 1, current + 1)):
            n = self.index.write_fields(pending)
            self.db.execute("UPDATE meta SET value = ? WHERE key = 'indexed_seq'", (str(current),))
            return n
        if indexed == 0:  # everything: a full scan
            cursor = self.db.execute("SELECT rid, data, year FROM records ORDER BY rid")
        else:  # `seq > 1` lets SQLite use the partial index (bulk-built rows, seq 1, stay out of it)
            cursor = self.db.execute(
                "SELECT rid, data, year FROM records WHERE seq > ? AND seq > 1 ORDER BY rid", (indexed,)
            )

        def works() -> Iterator[IndexedWork]:
            for rid, data, year in cursor:  # read straight from the row's JSON: no record is built
                fields = ranking_fields_of(data, year)
                yield IndexedWork(rid=rid, titles=fields.titles, surnames=sorted(fields.surnames), year=year)

        n = self.index.write(works())
        self.db.execute("UPDATE meta SET value = ? WHERE key = 'indexed_seq'", (str(current),))
        return n

    def _name_targets(self, tx: Transaction, names: Sequence[tuple[str, str]]) -> None:
        """Insert-if-missing, then set the title: a store built before `xrefs.key` was unique may lack the
        constraint an ON CONFLICT needs (the writer lock keeps another writer from coming between)."""
        tx.executemany(
            "INSERT INTO xrefs (key) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM xrefs WHERE key = ?)",
            [(key, key) for key, _ in names],
        )
        tx.executemany("UPDATE xrefs SET title = ? WHERE key = ?", [(title, key) for key, title in names])

    def _counts(self, name: str, query: str, params: Sequence[Any] = ()) -> dict[str, dict[str, int]]:
        """The counts by source kept in `meta` under `name`, or `query`'s counted now and kept.

        Counting 8M rows takes SQLite seconds, so the counts are kept in `meta` with the change
        counter they belong to (a bulk build writes them as it goes, each batch brings them
        forward); they are recounted only when a write has moved the counter otherwise.
        """
        seq = self._meta("seq")
        kept = self._cached_counts(name, int(seq or 0))
        if kept is not None:
            return {src: {k: int(n) for k, n in inner.items()} for src, inner in kept.items()}
        counts = super()._counts(name, query, params)
        if not self.readonly:
            # A busy store (another writer) or a read-only file: the counts stay uncached.
            with contextlib.suppress(sqlite3.Error, StoreBusy, StoreError), self.writing(wait=0):
                if self._meta("seq") == seq:
                    self.db.execute(SET_META, (name, json.dumps({"seq": seq, name: counts})))
        return counts

    def _sizes(self) -> dict[str, object]:
        """The SQLite file and the index directory beside it, in bytes."""
        size = self.path.stat().st_size if self.path.exists() else 0
        index_size = sum(f.stat().st_size for f in self.index.path.rglob("*") if f.is_file())
        return {"bytes": size + index_size, "sqlite_bytes": size, "index_bytes": index_size}


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


__all__ = ["Store", "StoreBusy", "StoreError", "WorkRecord", "parse_year", "venue_key"]
