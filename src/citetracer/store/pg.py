"""The shared store: PostgreSQL, for a team whose machines all read and write one store.

`--store postgresql://USER@HOST:PORT/DB` (or `CITETRACER_STORE`, or `store =` in the config)
opens this backend instead of the SQLite file; it implements the same interface
(store/api.py) and ranks candidates with the same code (store/ranking.py, store/pgindex.py).

Why PostgreSQL: the mirror, the evidence memo and the verified links must be one for a
whole fleet (an editorial office's machines, a conference's, the web app's workers),
with concurrent writers on several machines and readers that are never blocked. Its
MVCC gives every reader a consistent snapshot, and each write batch is one transaction.

Writers: a batch of records takes a transaction-scoped advisory lock (`WRITE_LOCK`), so
batches from different processes and machines are applied one after another; each
batch computes, from the rows it replaces, the exact change to the document
frequencies in `terms`, which could not be right if two batches replaced the same key
at once. Batches are short (bulk rows arrive with COPY into a temporary table, then
one INSERT ... ON CONFLICT), so writers interleave and none waits for a whole ingest.
Memo rows and verified links are single-row upserts that need no such lock.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal

from citetracer.normalize.text import doi_prefix
from citetracer.records import WorkRecord
from citetracer.store.codec import pack
from citetracer.store.common import BatchMeta, StoreError, display_location
from citetracer.store.memo import SqlMemo
from citetracer.store.pgschema import SchemaTooNew, migrate
from citetracer.store.sql import SqlStore
from citetracer.store.sqlbase import POSTGRESQL, Transaction

if TYPE_CHECKING:
    from citetracer.store.ranking import RankingFields
    from citetracer.store.turns import PgTurns

try:
    import numpy  # noqa: F401  (store/pgindex.py sums posting lists with it; checked here for one clear line)
    import psycopg
except ImportError:  # the `postgres` extra (psycopg, numpy) is not installed
    psycopg = None  # type: ignore[assignment]

#: Advisory lock key that serialises record batches (see the module docstring).
WRITE_LOCK = 0x43495446
#: Seconds a store keeps trying to reconnect after its server went away (a restart takes a few).
RECONNECT_SECONDS = 30.0
#: Memory a retrieval query may sort and group in (PostgreSQL's default, 4 MB, spills a common word's postings to disk).
RETRIEVAL_WORK_MEM = "64MB"
#: Seconds to wait for the server when connecting (libpq's `connect_timeout`), unless the URL says.
CONNECT_TIMEOUT = 10
#: Rows per transaction of a bulk ingest (`write_rows`).
BULK_BATCH = 20_000
#: The posting lists are rebuilt at an ingest's end when they hold this many rows per word (see `sync_index`).
COMPACT_RATIO = 1.5
#: Sort memory of that rebuild (it groups every word of every title).
COMPACT_WORK_MEM = "256MB"
#: The posting lists of some records (`{rows}`: a FROM clause naming them `r`): one row per title word
#: (record ids, and each title's word count for BM25's length factor) and per surname key (ids, and
#: years for the author pass's window), ids ascending, packed (store/pgindex.py reads them: ids as
#: big-endian 8-byte integers, extras as 2-byte ones).
POSTINGS_OF = (
    "SELECT 't', w, string_agg(int8send(r.rid), ''::bytea ORDER BY r.rid), "
    "string_agg(int2send(least(r.nwords, 32767)::smallint), ''::bytea ORDER BY r.rid) "
    "FROM {rows}, unnest(r.words) w GROUP BY w UNION ALL "
    "SELECT 's', n, string_agg(int8send(r.rid), ''::bytea ORDER BY r.rid), "
    "string_agg(int2send(least(greatest(coalesce(r.year, 0), 0), 32767)::smallint), ''::bytea ORDER BY r.rid) "
    "FROM {rows}, unnest(r.surnames) n GROUP BY n"
)

_STAGE = """
CREATE TEMP TABLE IF NOT EXISTS stage (
    key text, source text, type text, doi text, arxiv text, year integer, venue_key text, data bytea,
    xref text, words text[], nwords integer, surnames text[], gen bigint, ord integer
) ON COMMIT DELETE ROWS
"""
_COLUMNS = "key, source, type, doi, arxiv, year, venue_key, data, xref, words, nwords, surnames, gen"


def _connect_url(url: str) -> str:
    if "connect_timeout" in url:
        return url
    return url + ("&" if "?" in url else "?") + f"connect_timeout={CONNECT_TIMEOUT}"


#: What a server says when it is not there yet or not ready, as opposed to refusing this login or database.
_NOT_UP = (
    "connection refused",
    "starting up",
    "shutting down",
    "in recovery",
    "timeout expired",
    "connection timed out",
    "server closed the connection",
    "no such file or directory",  # a Unix socket not there yet
)


def _first_connect(url: str, wait: float, notify: Callable[[str], None] | None) -> psycopg.Connection[Any]:
    """The store's first connection: a server not up yet is tried again with backoff for `wait` seconds
    (once, a PostgreSQL store down at the first open failed at once while one that went down later was
    waited for); any other refusal is one StoreError at once."""
    deadline = time.monotonic() + wait
    delay, said = 0.25, False
    while True:
        try:
            return psycopg.connect(_connect_url(url), autocommit=True)
        except psycopg.Error as exc:
            why = _first_line(exc)
            down = isinstance(exc, psycopg.OperationalError) and any(w in str(exc).lower() for w in _NOT_UP)
            if not down:
                raise StoreError(f"cannot connect to the store {display_location(url)}: {why}") from exc
            if time.monotonic() + delay > deadline:
                raise StoreError(
                    f"cannot connect to the store {display_location(url)}: it did not answer within {wait:g} s ({why})"
                ) from exc
            if notify is not None and not said:
                notify(f"waiting up to {wait:g} s for the store {display_location(url)} ({why})")
                said = True
            time.sleep(delay)
            delay = min(delay * 2, 4.0)


class PgStore(SqlStore):
    """A citetracer store in a PostgreSQL database (see the module docstring)."""

    dialect = POSTGRESQL
    shared = True
    label = "postgresql"

    def __init__(
        self,
        url: str,
        *,
        readonly: bool = False,
        connect_wait: float = RECONNECT_SECONDS,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        """Connect to the store at `url`. A server that does not answer yet (starting, restarting, failed
        over) is waited for `connect_wait` seconds with backoff, as after a restart (`_reconnect`); one that
        refuses the login or names no such database is an error at once. `notify` hears, once, that it waits."""
        if psycopg is None:
            raise StoreError(
                f"{display_location(url)}: a PostgreSQL store needs the postgres extra "
                "(pip install 'citetracer[postgres]')"
            )
        self.path: str = url
        self.readonly = readonly
        self.index_lag = 0
        self.db = _first_connect(url, connect_wait, notify)
        try:
            if not readonly:
                migrate(self.db)
            else:
                self._check_version()
        except SchemaTooNew as exc:
            self.db.close()
            raise StoreError(f"{display_location(url)}: {exc}") from exc
        except psycopg.Error as exc:
            self.db.close()
            raise StoreError(f"{display_location(url)}: not a usable citetracer store ({_first_line(exc)})") from exc
        from citetracer.store.pgindex import PgIndex  # numpy: the postgres extra, checked above

        self.index = PgIndex(self._rows)
        self.index.fields_of = self.ranking_fields
        self.memo = SqlMemo(self)
        self._cache: dict[int, WorkRecord] = {}
        self._ranking: dict[int, RankingFields] = {}
        self._known_prefixes: set[str] | None = None
        self._source_dates: dict[str, str] | None = None
        self._venue_names: dict[str, list[str]] = {}
        #: Venue-year coverage, once per venue-year (store/coverage.py reads the venue-year's records).
        self._coverage: dict[tuple[str, int | None], tuple[int, str]] = {}

    def _check_version(self) -> None:
        from citetracer.store.pgschema import SCHEMA_VERSION

        try:
            row = self.db.execute("SELECT version FROM schema_version").fetchone()
        except psycopg.errors.UndefinedTable as exc:
            raise StoreError(f"{display_location(self.path)}: not a citetracer store (no schema)") from exc
        if row is None or int(row[0]) != SCHEMA_VERSION:
            raise StoreError(
                f"{display_location(self.path)}: schema version {row[0] if row else 0}, this citetracer reads "
                f"{SCHEMA_VERSION}; open it once for writing to migrate it"
            )

    # ---------------------------------------------------------------- plumbing

    def _rows(self, sql: str, params: Any = None, index_only: bool = False, binary: bool = False) -> list[Any]:
        """Run one statement; a lost server is a StoreError (one clear line), never a traceback.

        `index_only`: with sequential scans off and `RETRIEVAL_WORK_MEM` to group in (the retrieval
        queries, see store/pgindex.py). `binary`: results in PostgreSQL's binary format (packed
        posting lists arrive as they are stored, not as hex text to decode).
        """
        for attempt in (1, 2):
            try:
                if index_only:
                    with self.db.transaction():
                        # One round trip for both settings (this runs for every retrieval query). A common
                        # word's postings are tens of thousands of rows to group: in memory, not on disk.
                        self.db.execute(
                            "SELECT set_config('enable_seqscan', 'off', true), set_config('work_mem', %s, true)",
                            (RETRIEVAL_WORK_MEM,),
                        )
                        cur = self.db.execute(sql, params, binary=binary)
                        return cur.fetchall()
                cur = self.db.execute(sql, params, binary=binary)
                return cur.fetchall() if cur.description is not None else []
            except psycopg.OperationalError as exc:
                if attempt == 2 or not self._connection_lost():
                    raise StoreError(f"the store {display_location(self.path)} failed: {_first_line(exc)}") from exc
                self._reconnect()  # the statements here are reads and idempotent writes: run it once more
        raise AssertionError("unreachable")

    def _connection_lost(self) -> bool:
        return bool(self.db.closed or self.db.broken)

    def _reconnect(self) -> None:
        """A new connection after the server went away (restarted, failed over): tried with backoff for
        RECONNECT_SECONDS, then a StoreError. Each PgStore belongs to one thread, so nothing else uses
        the old connection meanwhile."""
        self.db.close()
        deadline = time.monotonic() + RECONNECT_SECONDS
        delay = 0.25
        while True:
            try:
                self.db = psycopg.connect(_connect_url(self.path), autocommit=True)
                return
            except psycopg.OperationalError as exc:
                if time.monotonic() + delay > deadline:
                    raise StoreError(
                        f"the store {display_location(self.path)} failed and did not come back within "
                        f"{RECONNECT_SECONDS:g} s: {_first_line(exc)}"
                    ) from exc
                time.sleep(delay)
                delay = min(delay * 2, 4.0)

    def _one(self, sql: str, params: Any = None) -> Any:
        rows = self._rows(sql, params)
        return rows[0] if rows else None

    def _stream(self, sql: str, params: Sequence[Any]) -> Iterator[Any]:
        """A server-side cursor, on a connection of its own (the store's stays free for other statements)."""
        with psycopg.connect(_connect_url(self.path)) as conn, conn.cursor(name="stream") as cur:
            cur.execute(sql, params)
            yield from cur

    @contextmanager
    def _transaction(self) -> Iterator[Transaction]:
        """One write transaction on a cursor of the store's connection; a lost server is one StoreError."""
        try:
            with self.db.transaction(), self.db.cursor() as cur:
                yield Transaction(cur, POSTGRESQL)
        except psycopg.OperationalError as exc:
            raise StoreError(f"the store {display_location(self.path)} failed: {_first_line(exc)}") from exc

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def writing(self, wait: float | Literal["default"] | None = "default") -> Iterator[None]:
        """Groups writes like the SQLite store's writer lock; here the server orders concurrent writers
        (each write is its own transaction), so nothing is waited for and no writer is ever refused."""
        self._writable()
        if self._connection_lost():  # the writes below use the connection directly
            self._reconnect()
        yield

    def prepare_ingest(self) -> None:
        """Nothing to prepare: the server manages its own memory."""

    def rate_turns(self) -> PgTurns:
        from citetracer.store.turns import PgTurns

        return PgTurns(self.path)

    # ------------------------------------------------------------------ writes

    def write_rows(
        self, rows: Sequence[tuple[Any, ...]], on_batch: Callable[[BatchMeta], None] | None = None, gen: int = 0
    ) -> int:
        """Write rows (`store.bulk.Row`, or the plain tuples mirror parsers send) in one transaction.

        COPY into a temporary table, then: lock (`WRITE_LOCK`), read the terms of the rows
        being replaced, upsert, and move the document frequencies by the difference.
        A key given twice keeps its last row.
        """
        self._writable()
        latest: dict[str, tuple[Any, ...]] = {}
        xref_titles: dict[str, str] = {}
        prefixes: set[str] = set()
        for key, source, kind, doi, arxiv, year, vkey, data, xref, titles, surnames, xref_title, packed in rows:
            words = [w for t in titles for w in t.split()]
            latest[key] = (
                key, source, kind, doi, arxiv, year, vkey, data if packed else pack(data),
                f"{source}:{xref}" if xref else None, sorted(set(words)), len(words), sorted(set(surnames)), gen,
            )  # fmt: skip
            if xref_title:
                xref_titles[key] = xref_title
            if doi:
                prefixes.add(doi_prefix(doi))
        ordered = list(latest.values())  # in the order given: row ids follow it, as in the SQLite store
        try:
            with self.db.transaction(), self.db.cursor() as cur:
                cur.execute(_STAGE)
                with cur.copy(f"COPY stage ({_COLUMNS}, ord) FROM STDIN") as copy:
                    for i, row in enumerate(ordered):
                        copy.write_row((*row, i))
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                delta: Counter[tuple[str, str]] = Counter()
                old = cur.execute("SELECT r.words, r.surnames, r.year FROM records r JOIN stage s USING (key)")
                replaced = 0
                for words, surnames, year in old.fetchall():
                    replaced += 1
                    _count_terms(delta, words, surnames, year, -1)
                for row in ordered:
                    _count_terms(delta, row[9], row[11], row[5], +1)
                delta[("n", "")] += len(ordered) - replaced
                cur.execute(
                    f"INSERT INTO records ({_COLUMNS}) SELECT {_COLUMNS} FROM stage ORDER BY ord "
                    "ON CONFLICT (key) DO UPDATE SET source = excluded.source, type = excluded.type, "
                    "doi = excluded.doi, arxiv = excluded.arxiv, year = excluded.year, venue_key = excluded.venue_key, "
                    "data = excluded.data, xref = excluded.xref, words = excluded.words, nwords = excluded.nwords, "
                    "surnames = excluded.surnames, gen = excluded.gen"
                )
                changed = sorted((k, n) for k, n in delta.items() if n)
                if changed:
                    cur.execute(
                        'INSERT INTO terms SELECT * FROM unnest(%s::"char"[], %s::text[], %s::bigint[]) '
                        "ORDER BY 1, 2 ON CONFLICT (field, term) DO UPDATE SET df = terms.df + excluded.df",
                        ([f for (f, _), _ in changed], [t for (_, t), _ in changed], [n for _, n in changed]),
                    )
                cur.execute(f"INSERT INTO postings {POSTINGS_OF.format(rows='stage s JOIN records r USING (key)')}")
                if prefixes:
                    cur.execute(
                        "INSERT INTO doi_prefixes SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING", (sorted(prefixes),)
                    )
                tx = Transaction(cur, POSTGRESQL)
                if xref_titles:
                    self._name_targets(tx, list(xref_titles.items()))
                if on_batch is not None:
                    on_batch(tx)
        except psycopg.OperationalError as exc:
            raise StoreError(f"the store {display_location(self.path)} failed: {_first_line(exc)}") from exc
        self._forget()
        return len(rows)

    def delete_older(self, source: str, gen: int) -> int:
        """Delete `source`'s records written before generation `gen` (a rebuilt mirror's vanished records)."""
        self._writable()
        removed = 0
        while True:
            with self.db.transaction(), self.db.cursor() as cur:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                gone = cur.execute(
                    "DELETE FROM records WHERE rid IN (SELECT rid FROM records WHERE source = %s AND gen < %s "
                    "LIMIT %s) RETURNING words, surnames, year",
                    (source, gen, BULK_BATCH),
                ).fetchall()
                delta: Counter[tuple[str, str]] = Counter()
                for words, surnames, year in gone:
                    _count_terms(delta, words, surnames, year, -1)
                delta[("n", "")] -= len(gone)
                changed = sorted((k, n) for k, n in delta.items() if n)
                if changed:
                    cur.execute(
                        'UPDATE terms t SET df = t.df + d.n FROM unnest(%s::"char"[], %s::text[], %s::bigint[]) '
                        "d(field, term, n) WHERE t.field = d.field AND t.term = d.term",
                        ([f for (f, _), _ in changed], [t for (_, t), _ in changed], [n for _, n in changed]),
                    )
            removed += len(gone)
            if len(gone) < BULK_BATCH:
                break
        self._forget()
        return removed

    def next_generation(self) -> int:
        """A number larger than any record's `gen`: what a rebuild stamps its records with."""
        row = self._one("SELECT coalesce(max(gen), 0) + 1 FROM records")
        return int(row[0])

    def _forget(self) -> None:
        super()._forget()
        self.index.forget()  # its document frequencies and posting lists read before

    def sync_index(self) -> int:
        """The index is in the same transactions as the records; after many batches (an ingest's end), its
        posting lists are merged into one per word (see `compact_postings`). Returns the lists merged."""
        if self.readonly:
            return 0
        rows = self._one("SELECT count(*) FROM postings")
        lists = self._one("SELECT count(*) FROM terms WHERE field IN ('t', 's') AND df > 0")
        if rows and lists and int(rows[0]) > COMPACT_RATIO * max(1, int(lists[0])):
            return self.compact_postings()
        return 0

    def compact_postings(self) -> int:
        """Rebuild the posting lists from the records: one list per word and surname, without the rows of
        replaced or deleted records. Each write batch adds a list for each of its words (store/pgindex.py),
        so after an ingest a common word has hundreds. Built in a table of its own, which replaces the old
        one at the end: readers wait only for the swap, writers (the advisory lock) for the whole rebuild."""
        self._writable()
        with self.db.transaction(), self.db.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            cur.execute(f"SET LOCAL work_mem = '{COMPACT_WORK_MEM}'")
            cur.execute("DROP TABLE IF EXISTS postings_next")
            cur.execute("CREATE TABLE postings_next (LIKE postings)")
            cur.execute(f"INSERT INTO postings_next {POSTINGS_OF.format(rows='records r')}")
            cur.execute("CREATE INDEX postings_next_term ON postings_next (field, term)")
            cur.execute("DROP TABLE postings")
            cur.execute("ALTER TABLE postings_next RENAME TO postings")
            cur.execute("ALTER INDEX postings_next_term RENAME TO postings_term")
            cur.execute("ANALYZE postings")
            row = cur.execute("SELECT count(*) FROM postings").fetchone()
        self._forget()
        return int(row[0]) if row else 0

    def reindex(self, why: str = "asked to") -> int:
        """Recount every document frequency and rebuild the posting lists from the records; returns the records."""
        self._writable()
        with self.db.transaction(), self.db.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            cur.execute("DELETE FROM terms")
            cur.execute(
                "INSERT INTO terms SELECT 't', w, count(*) FROM records, unnest(words) w GROUP BY w "
                "UNION ALL SELECT 's', s, count(*) FROM records, unnest(surnames) s GROUP BY s "
                "UNION ALL SELECT 'y', year::text, count(*) FROM records WHERE year IS NOT NULL GROUP BY year "
                "UNION ALL SELECT 'n', '', count(*) FROM records"
            )
            n = int(cur.execute("SELECT df FROM terms WHERE field = 'n'").fetchone()[0])  # type: ignore[index]
        self.compact_postings()
        return n

    def _name_targets(self, tx: Transaction, names: Sequence[tuple[str, str]]) -> None:
        """One upsert, race-free: `put_venues` takes no lock (writers of other processes and machines come
        between), where an insert-if-missing could collide; `xrefs.key` is the primary key of every
        PostgreSQL store, so the ON CONFLICT always has its constraint."""
        tx.execute(
            "INSERT INTO xrefs SELECT * FROM unnest(?::text[], ?::text[]) "
            "ON CONFLICT (key) DO UPDATE SET title = excluded.title",
            ([key for key, _ in names], [title for _, title in names]),
        )

    def _sizes(self) -> dict[str, object]:
        """The tables of the store's schema, with their indexes and TOAST, in bytes."""
        size = self._one(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'"
        )
        return {"bytes": int(size[0])}


def _count_terms(
    delta: Counter[tuple[str, str]], words: Sequence[str], surnames: Sequence[str], year: int | None, sign: int
) -> None:
    for w in words:
        delta[("t", w)] += sign
    for s in surnames:
        delta[("s", s)] += sign
    if year is not None:
        delta[("y", str(year))] += sign


def ping(url: str, timeout: int = 3) -> str | None:
    """None when the server answers `SELECT 1` within `timeout` s on a new connection, else why not."""
    if psycopg is None:
        return "the postgres extra is not installed"
    try:
        with psycopg.connect(url, connect_timeout=timeout) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"the store {display_location(url)} does not answer: {_first_line(exc)}"
    return None


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
