"""The store's queries written once, for both backends: SQLite (store/db.py) and PostgreSQL (store/pg.py).

Why: the two backends hold the same tables and answer the same questions (store/api.py), and their
queries differed only in dialect (`?` or `%s` placeholders, `IN (?, ?)` or `= ANY(%s)`, how a record
names its crossref target). Written twice, a fix to one copy missed the other; here each
dialect-neutral query is written once, in SQLite's spelling with `?` placeholders, and `Dialect`
turns it into the backend's. A backend keeps only what is its own: connecting, locking, the index
and bulk writes, and `_rows`, which runs one statement and returns its rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, Self

from citetracer.records import Candidate, WorkRecord
from citetracer.store.claims import CLAIM_KEYS, Claim, read_claims, registries
from citetracer.store.codec import blob, decode, ranking_fields_of, with_volume
from citetracer.store.common import (
    RECORD_CACHE_SIZE,
    BatchMeta,
    StoreError,
    batched,
    display_location,
    evidence_records,
    source_summaries,
    totals,
    unfinished_ingests,
    venue_key,
)
from citetracer.store.coverage import venue_year_coverage
from citetracer.store.ranking import RankingFields
from citetracer.store.rows import row_from_record
from citetracer.store.venues import VenueEntry, entry_of, entry_rows, name_keys

#: Venue-year coverage answers kept per open store before the cache starts again.
COVERAGE_CACHE_SIZE = 4096


@dataclass(frozen=True)
class Dialect:
    """How one backend spells what the queries here need."""

    name: str
    #: The placeholder of one parameter.
    mark: str
    #: Whether a list parameter binds as one array (`= ANY(%s)`), else one placeholder per item (`IN (?, ?)`).
    arrays: bool
    #: The join condition of a record (`r`) to its crossref target or venue (`x`): SQLite keeps the
    #: target's row id in `records.xref`, PostgreSQL its key.
    xref_join: str

    @property
    def volume_join(self) -> str:
        """The joins of a record (`r`) to its crossref target (`x`) and that target's own record (`v`, a
        proceedings volume's, when the store holds it)."""
        return f"LEFT JOIN xrefs x ON {self.xref_join} LEFT JOIN records v ON v.key = x.key"

    def sql(self, query: str) -> str:
        """`query`, written with `?` placeholders and literal `%`, in this dialect (psycopg's `%s`
        placeholders make a literal `%` `%%`)."""
        if self.mark == "?":
            return query
        return query.replace("%", "%%").replace("?", self.mark)

    def any_of(self, column: str, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
        """A condition `column` is one of `values`, in neutral spelling (`?`), and its parameters."""
        if self.arrays:
            return f"{column} = ANY(?)", (list(values),)
        return f"{column} IN ({','.join('?' * len(values))})", tuple(values)


SQLITE = Dialect("sqlite", "?", arrays=False, xref_join="x.id = r.xref")
POSTGRESQL = Dialect("postgresql", "%s", arrays=True, xref_join="x.key = r.xref")


class Transaction:
    """One of a backend's write transactions, taking statements in neutral spelling (`?` placeholders,
    literal `%`): the shared writes run in it, and it is the `BatchMeta` (store/api.py) an ingest's
    `on_batch` gets, so that its progress commits or rolls back with the batch.

    `cursor` runs the backend's spelling: the SQLite connection, or a psycopg cursor in a transaction.
    """

    def __init__(self, cursor: Any, dialect: Dialect) -> None:
        self.cursor = cursor
        self.dialect = dialect

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement; returns the backend's cursor (fetch from it only after a SELECT)."""
        return self.cursor.execute(self.dialect.sql(sql), tuple(params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.cursor.executemany(self.dialect.sql(sql), rows)

    def set_meta(self, key: str, value: str) -> None:
        self.execute(SET_META, (key, value))


#: Sets one `meta` value (both backends have `meta.key` as primary key).
SET_META = "INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value"


class SqlStore:
    """The queries and writes a store does the same way on both backends (see the module docstring).

    A backend sets `dialect`, `path`, `readonly`, `index`, `memo` and the caches (`_cache`,
    `_known_prefixes`, `_source_dates`, `_venue_names`, `_coverage`), and defines the hooks below:
    `_rows` (one statement, its rows), `_stream` (a long read), `_transaction` (one write
    transaction), `writing` (a block of writes), `write_rows` (a batch of records: the bulk write and
    the index are the backend's own) and `_sizes`. Where the two backends differ in substance, not in
    spelling, a hook of its own says why: `_name_targets`, `_end_upsert`, `_counts`.
    """

    dialect: Dialect
    #: Whether several machines write the store (PostgreSQL): then a process id in it (an ingest's)
    #: means something only on the machine that wrote it.
    shared: bool = False
    #: The backend's name in `mirror stats` (None: the embedded default, which it does not name).
    label: str | None = None
    path: Path | str
    readonly: bool
    index: Any
    memo: Any
    _cache: dict[int, WorkRecord]
    _known_prefixes: set[str] | None
    _source_dates: dict[str, str] | None
    _venue_names: dict[str, list[str]]
    _coverage: dict[tuple[str, int | None], tuple[int, str]]

    # ------------------------------------------------------------------- hooks

    def _rows(self, sql: str, params: Any = None) -> list[Any]:
        """Run one statement in the backend's spelling; its rows as a list."""
        raise NotImplementedError

    def _stream(self, sql: str, params: Sequence[Any]) -> Iterator[Any]:
        """The rows of one long read in the backend's spelling, streamed (bounded memory)."""
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Transaction]:
        """One write transaction: committed when the block ends, rolled back when it raises."""
        raise NotImplementedError

    def writing(self, wait: float | Literal["default"] | None = "default") -> AbstractContextManager[None]:
        """A block of writes (SQLite: under the store's writer lock); a read-only store refuses it."""
        raise NotImplementedError

    def write_rows(self, rows: Sequence[tuple[Any, ...]], on_batch: Callable[[BatchMeta], None] | None = None) -> int:
        """Write one batch of record rows (`store.rows.Row`) in one transaction; returns how many."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _sizes(self) -> dict[str, object]:
        """What the store takes on disk or in its database, in bytes, for `stats`."""
        raise NotImplementedError

    # ---------------------------------------------------------------- plumbing

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows of `sql` (neutral spelling: `?` placeholders, literal `%`) on this store's backend."""
        return self._rows(self.dialect.sql(sql), tuple(params))

    def _first(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = self._query(sql, params)
        return rows[0] if rows else None

    def _writable(self) -> None:
        if self.readonly:
            raise StoreError(f"{display_location(self.path)}: opened read-only")

    def _forget(self) -> None:
        """Forget what was read of the tables a write may have changed (the caches)."""
        self._known_prefixes = None
        self._venue_names.clear()
        self._coverage.clear()
        self._cache.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writes

    def upsert(
        self,
        records: Iterable[WorkRecord],
        batch_size: int = 5000,
        on_batch: Callable[[BatchMeta], None] | None = None,
    ) -> int:
        """Insert or replace records (by source and id); returns how many were written.

        Each batch is one transaction (`write_rows`), so other writers interleave between batches and
        none waits for a whole ingest; `on_batch` runs inside each batch's transaction (an ingest
        records its progress there, so what is committed and what the progress says never disagree).
        """
        self._writable()
        total = 0
        batch: list[tuple[Any, ...]] = []
        for record in records:
            batch.append(row_from_record(record))
            if len(batch) >= batch_size:
                total += self.write_rows(batch, on_batch)
                batch = []
        return total + self._end_upsert(batch, on_batch)

    def _end_upsert(self, batch: Sequence[tuple[Any, ...]], on_batch: Callable[[BatchMeta], None] | None) -> int:
        """Write an upsert's last batch (perhaps empty). PostgreSQL's index is in the same transactions as
        the records, so nothing else is left to do (the SQLite store brings its own index up to date)."""
        return self.write_rows(batch, on_batch) if batch else 0

    # ------------------------------------------------------------------- reads

    def rid_of_key(self, key: str) -> int | None:
        """The row id of the record `source:id`, if stored."""
        row = self._first("SELECT rid FROM records WHERE key = ?", (key,))
        return int(row[0]) if row else None

    def rid_of(self, candidate: Candidate) -> int | None:
        key = candidate.work or f"{candidate.source}:{candidate.id}"
        for k in (key, key.removeprefix("memory:")):
            rid = self.rid_of_key(k)
            if rid is not None:
                return rid
        return None

    def records(self, rids: Iterable[int]) -> dict[int, WorkRecord]:
        """Records by row id; recently read ones come from a small cache (records are immutable per seq)."""
        ids = list(dict.fromkeys(rids))
        out = {rid: self._cache[rid] for rid in ids if rid in self._cache}
        missing = [rid for rid in ids if rid not in out]
        if missing:
            where, params = self.dialect.any_of("r.rid", missing)
            rows = self._query(
                f"SELECT r.rid, r.key, r.data, x.title, v.data FROM records r {self.dialect.volume_join} WHERE {where}",
                params,
            )
            for rid, key, data, xref_title, volume in rows:
                record = with_volume(decode(blob(data), key), xref_title, volume)
                out[int(rid)] = record
                if len(self._cache) >= RECORD_CACHE_SIZE:
                    self._cache.pop(next(iter(self._cache)))
                self._cache[int(rid)] = record
        return out

    def all_records(self, exclude_sources: set[str] | None = None) -> Iterator[WorkRecord]:
        """Every record, in insertion order, optionally without some sources (streams; bounded memory)."""
        skip = sorted(exclude_sources or ())
        where, params = self.dialect.any_of("r.source", skip)
        rows = self._stream(
            self.dialect.sql(
                f"SELECT r.key, r.data, x.title, v.data FROM records r {self.dialect.volume_join} "
                f"{f'WHERE NOT ({where}) ' if skip else ''}ORDER BY r.rid"
            ),
            params if skip else (),
        )
        for key, data, xref_title, volume in rows:
            yield with_volume(decode(blob(data), key), xref_title, volume)

    def ranking_fields(self, rids: Sequence[int]) -> dict[int, RankingFields]:
        """Titles (first the record's, then its renderings'), surname keys and year of these rows, for ranking.

        Reads them straight out of each row's JSON: much cheaper than building records.
        """
        ids = list(dict.fromkeys(rids))
        if not ids:
            return {}
        where, params = self.dialect.any_of("rid", ids)
        rows = self._query(f"SELECT rid, data, year FROM records WHERE {where}", params)
        return {int(rid): ranking_fields_of(blob(data), year) for rid, data, year in rows}

    def link_verified(self, fingerprint: str, evidence: Candidate, code: str) -> None:
        """Remember that a citation with this fingerprint was proved by this evidence record."""
        self.link_verified_many([(fingerprint, evidence, code)])

    def link_verified_many(self, links: Sequence[tuple[str, Candidate, str]]) -> int:
        """Remember, in one write, which evidence record proved each citation fingerprint.

        Evidence from an online source is first stored as a record of its own (one batch), so every
        link points at a record that came from a source and never at the citation's own fields.
        """
        with self.writing():
            fresh = evidence_records(links, self.rid_of)
            if fresh:
                self.upsert(fresh)
            stamp = datetime.now(UTC).isoformat(timespec="seconds")
            rows = []
            for fingerprint, evidence, code in links:
                rid = self.rid_of(evidence)
                if rid is not None:
                    rows.append((fingerprint, rid, evidence.source, evidence.id, code, stamp))
            if rows:
                with self._transaction() as tx:
                    tx.executemany(
                        "INSERT INTO verified VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (fingerprint) DO UPDATE SET "
                        "rid = excluded.rid, source = excluded.source, source_id = excluded.source_id, "
                        "code = excluded.code, verified_at = excluded.verified_at",
                        rows,
                    )
        return len(rows)

    def rids_by_doi(self, doi: str) -> list[int]:
        return [int(r[0]) for r in self._query("SELECT rid FROM records WHERE doi = ?", (doi,))]

    def rids_by_arxiv(self, arxiv: str) -> list[int]:
        return [int(r[0]) for r in self._query("SELECT rid FROM records WHERE arxiv = ?", (arxiv,))]

    def verified_link(self, fingerprint: str) -> tuple[int, str] | None:
        row = self._first("SELECT rid, verified_at FROM verified WHERE fingerprint = ?", (fingerprint,))
        return (int(row[0]), str(row[1])) if row else None

    def knows_doi_prefix(self, prefix: str) -> bool:
        if self._known_prefixes is None:
            self._known_prefixes = {r[0] for r in self._query("SELECT prefix FROM doi_prefixes")}
        return prefix in self._known_prefixes

    def knows_venue(self, venue: str) -> bool:
        """Whether any stored record was published in this venue."""
        key = venue_key(venue)
        if not key:
            return False
        return self._first("SELECT 1 FROM records WHERE venue_key = ? LIMIT 1", (key,)) is not None

    def meta_value(self, key: str) -> str | None:
        """A value of the store's `meta` table (ingest progress, source dates, ...)."""
        row = self._first("SELECT value FROM meta WHERE key = ?", (key,))
        return str(row[0]) if row else None

    # ------------------------------------------------------------------ venues

    def venue_names(self, venue: str, limit: int = 60) -> list[str]:
        """The venue knowledge base: names the store's records give the venue `venue` is stored
        under (DBLP's proceedings titles of a booktitle: "WWW" -> "Proceedings of the 16th
        International Conference on World Wide Web, WWW 2007, ..."), so that a cited spelling can
        be recognised as one of them."""
        key = venue_key(venue)
        if not key:
            return []
        cached = self._venue_names.get(key)
        if cached is None:
            rows = self._query(
                f"SELECT DISTINCT x.title FROM records r JOIN xrefs x ON {self.dialect.xref_join} "
                "WHERE r.venue_key = ? AND x.title IS NOT NULL LIMIT ?",
                (key, limit),
            )
            cached = self._venue_names[key] = [t for (t,) in rows]
        return cached

    def venue_catalog(self) -> list[tuple[str, str]]:
        """Every venue the store's records name, as (venue key, name) pairs: the venue keys themselves
        and the proceedings titles of each (the store's part of the venue knowledge base,
        normalize/venue_kb.py). Read once per process when a venue question first comes up."""
        keys = self._query("SELECT DISTINCT venue_key FROM records WHERE venue_key IS NOT NULL")
        names = [(k, k) for (k,) in keys]
        names += [
            (k, t)
            for k, t in self._query(
                f"SELECT DISTINCT r.venue_key, x.title FROM records r JOIN xrefs x ON {self.dialect.xref_join} "
                "WHERE r.venue_key IS NOT NULL AND x.title IS NOT NULL"
            )
        ]
        return names

    def venue_entries(self, name: str, limit: int = 20) -> list[VenueEntry]:
        """The venues one of whose names, alternate or abbreviated titles or ISSNs is `name` (a sources
        snapshot's venue knowledge, store/venues.py); several when the name is ambiguous."""
        keys = name_keys(name)
        if not keys:
            return []
        where, params = self.dialect.any_of("key", keys)
        rows = self._query(
            "SELECT id, source, name, kind, issn_l, publisher, data FROM venues WHERE id IN "
            f"(SELECT venue FROM venue_names WHERE {where}) ORDER BY id LIMIT ?",
            (*params, limit),
        )
        out = []
        for row in rows:
            years = self._query("SELECT year, works FROM venue_year_works WHERE venue = ?", (row[0],))
            out.append(entry_of(tuple(row), {int(y): int(n) for y, n in years}))
        return out

    def put_venues(self, entries: Iterable[VenueEntry], batch_size: int = 5000) -> int:
        """Add or replace venues of a sources snapshot (store/venues.py), one transaction per batch."""
        self._writable()
        return sum(self._put_venues(batch) for batch in batched(entries, batch_size))

    def _put_venues(self, entries: Sequence[VenueEntry]) -> int:
        latest = {e.id: e for e in entries}  # a venue given twice keeps its last entry
        rows = [entry_rows(e) for e in latest.values()]
        where, params = self.dialect.any_of("venue", list(latest))
        with self.writing(), self._transaction() as tx:
            for table in ("venue_names", "venue_year_works"):
                tx.execute(f"DELETE FROM {table} WHERE {where}", params)
            tx.executemany(
                "INSERT INTO venues VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
                "source = excluded.source, name = excluded.name, kind = excluded.kind, issn_l = excluded.issn_l, "
                "publisher = excluded.publisher, data = excluded.data",
                [venue for venue, _, _ in rows],
            )
            tx.executemany(
                "INSERT INTO venue_names VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [name for _, names, _ in rows for name in names],
            )
            tx.executemany(
                "INSERT INTO venue_year_works VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [year for _, _, years in rows for year in years],
            )
            self._name_targets(tx, [(e.id, e.name) for e in latest.values()])
        self._forget()
        return len(entries)

    def _name_targets(self, tx: Transaction, names: Sequence[tuple[str, str]]) -> None:
        """Give these crossref targets (`xrefs`: venues here) their (key, title), making the rows that are new."""
        raise NotImplementedError

    def declare_complete_venue_years(self, source: str) -> int:
        """Recompute the venue-years `source` holds whole: those where its records of the venue (by the
        venue row the records point at) are at least the venue's own count; returns how many.

        Every venue of `venue_year_works` has its `xrefs` row (`put_venues` writes both), so joining
        through `xrefs` finds each record's venue key in either backend.
        """
        with self.writing(), self._transaction() as tx:
            tx.execute("DELETE FROM complete_venue_years WHERE source = ?", (source,))
            tx.execute(
                "INSERT INTO complete_venue_years SELECT w.venue, w.year, ?, c.n, w.works FROM venue_year_works w "
                "JOIN (SELECT x.key AS venue, r.year AS year, count(*) AS n FROM records r "
                f"JOIN xrefs x ON {self.dialect.xref_join} WHERE r.source = ? AND r.year IS NOT NULL "
                "GROUP BY x.key, r.year) c ON c.venue = w.venue AND c.year = w.year "
                "WHERE w.works > 0 AND c.n >= w.works",
                (source, source),
            )
            row = tx.execute("SELECT count(*) FROM complete_venue_years WHERE source = ?", (source,)).fetchone()
        self._forget()
        return int(row[0]) if row else 0

    def titles_sharing(self, words: Sequence[str]) -> int:
        """How many stored works have a title holding all these words (store/index.py, store/pgindex.py)."""
        return int(self.index.titles_containing(words))

    # ---------------------------------------------------------------- coverage

    def venue_year_count(self, key: str, year: int | None) -> int:
        """Records of this venue in exactly `year`, from complete sources whose snapshot covers that year."""
        return self.venue_year_coverage(key, year)[0]

    def venue_year_coverage(self, key: str, year: int | None) -> tuple[int, str]:
        """(records of this venue in exactly `year` from complete sources whose snapshot covers that year,
        and a sentence saying which; store/coverage.py holds the rule)."""
        cached = self._coverage.get((key, year))
        if cached is None:
            cached = venue_year_coverage(
                key,
                year,
                self.complete_sources(),
                self.source_dates(),
                self._count_years,
                self._listed_years,
                self._year_issues,
            )
            if len(self._coverage) > COVERAGE_CACHE_SIZE:
                self._coverage.clear()
            self._coverage[(key, year)] = cached
        return cached

    def _year_issues(
        self, key: str, year: int, sources: Sequence[str]
    ) -> list[tuple[str | None, str | None, str | None]]:
        """(volume, issue, pages) of each record of a venue-year from these sources (store/coverage.py)."""
        where, params = self.dialect.any_of("source", sources)
        rows = self._query(
            f"SELECT rid FROM records WHERE venue_key = ? AND year = ? AND {where}", (key, year, *params)
        )
        return [(r.volume, r.issue, r.pages) for r in self.records([rid for (rid,) in rows]).values()]

    def _count_years(self, key: str, first: int, last: int, sources: Sequence[str]) -> dict[int, int]:
        where, params = self.dialect.any_of("source", sources)
        rows = self._query(
            f"SELECT year, count(*) FROM records WHERE venue_key = ? AND year BETWEEN ? AND ? AND {where} "
            "GROUP BY year",
            (key, first, last, *params),
        )
        return {int(y): int(n) for y, n in rows if y is not None}

    def _listed_years(self, key: str, year: int) -> list[tuple[str, str | None, int]]:
        keys = name_keys(key)
        if not keys:
            return []
        where, params = self.dialect.any_of("n.key", keys)
        rows = self._query(
            "SELECT DISTINCT n.venue, c.source, coalesce(c.records, 0) FROM venue_names n "
            "LEFT JOIN complete_venue_years c ON c.venue = n.venue AND c.year = ? "
            f"WHERE {where} AND n.what != 'issn'",
            (year, *params),
        )
        return [(str(v), s, int(n)) for v, s, n in rows]

    def complete_sources(self) -> set[str]:
        """Sources that hold every paper of each venue-year they hold any of (DBLP, ACL Anthology).

        Only their records make a venue-year "covered", so that absence from it is evidence;
        a hand-made or partial record file must be declared complete to count.
        """
        rows = self._query("SELECT key FROM meta WHERE key LIKE 'complete:%' AND value = '1'")
        return {k.removeprefix("complete:") for (k,) in rows}

    def identifier_registries(self, kind: str) -> dict[str, str | None]:
        """Sources complete for identifiers of `kind` (store/claims.py: `arxiv`) and their snapshot dates:
        an identifier of that kind issued before such a date and absent from the store does not exist."""
        rows = self._query("SELECT key, value FROM meta WHERE key LIKE 'complete_ids:%'")
        return registries(rows, self.source_dates(), kind)

    def claims(self) -> dict[str, Claim]:
        """What each source declares it is complete for (store/claims.py)."""
        meta = dict(self._query(f"SELECT key, value FROM meta WHERE {CLAIM_KEYS}"))
        years = self._query("SELECT source, count(*) FROM complete_venue_years GROUP BY source")
        return read_claims(meta, {str(k): int(n) for k, n in years}, set(self.record_counts()))

    # ---------------------------------------------------------------- metadata

    def set_meta(self, key: str, value: str) -> None:
        self._coverage.clear()  # completeness and snapshot dates decide coverage
        with self.writing():
            self._query(SET_META, (key, value))

    def set_source_complete(self, source: str, complete: bool = True) -> None:
        self.set_meta(f"complete:{source}", "1" if complete else "0")

    def source_dates(self) -> dict[str, str]:
        """Each source's dump (or ingest) date, as recorded when it was loaded."""
        if self._source_dates is None:
            rows = self._query("SELECT key, value FROM meta WHERE key LIKE 'source_date:%'")
            self._source_dates = {k.removeprefix("source_date:"): v for k, v in rows}
        return self._source_dates

    def set_source_date(self, source: str, date: str | None = None) -> None:
        self._source_dates = None
        self.set_meta(f"source_date:{source}", date or datetime.now(UTC).date().isoformat())

    def unfinished_ingests(self) -> dict[str, dict[str, Any]]:
        """Ingests (`mirror add`) that have not finished: still running (here, or on another machine of a
        shared store), or interrupted (killed), with how many records they had committed; the same
        command run again resumes them."""
        rows = self._query("SELECT key, value FROM meta WHERE key LIKE 'ingest:%'")
        return unfinished_ingests(rows, check_host=self.shared)

    # ------------------------------------------------------------------ counts

    def record_counts(self) -> dict[str, dict[str, int]]:
        """Records by source and type (type None as '?')."""
        return self._counts("counts", "SELECT source, coalesce(type, ?), count(*) FROM records GROUP BY 1, 2", ("?",))

    def years_by_source(self) -> dict[str, dict[int, int]]:
        """Records per source and year (year 0: none)."""
        counts = self._counts("years", "SELECT source, coalesce(year, 0), count(*) FROM records GROUP BY 1, 2")
        return {src: {int(y): n for y, n in years.items()} for src, years in counts.items()}

    def _counts(self, name: str, query: str, params: Sequence[Any] = ()) -> dict[str, dict[str, int]]:
        """The (source, key, count) rows of `query`, counted now, by source and key.

        `name` names the counts for a backend that keeps them between writes (store/db.py: counting
        millions of rows takes SQLite seconds); PostgreSQL counts them when asked, as it always did.
        """
        counts: dict[str, dict[str, int]] = {}
        for source, key, n in self._query(query, params):
            counts.setdefault(str(source), {})[str(key)] = int(n)
        return counts

    def stats(self) -> dict[str, object]:
        """Counts by source and type, dump dates and files, sizes."""
        by_source_type = self.record_counts()
        by_source, by_type = totals(by_source_type)
        memo = self.memo.counts()
        metas = self._query("SELECT key, value FROM meta WHERE key LIKE 'source_%'")
        return {
            "path": display_location(self.path),
            **({"backend": self.label} if self.label else {}),
            "records": sum(by_source.values()),
            "by_source": by_source,
            "by_type": by_type,
            "by_source_and_type": by_source_type,
            "verified_links": int(self._first("SELECT count(*) FROM verified")[0]),
            "memo_answers": memo.get("answered", 0),
            "memo_failures": memo.get("failed", 0),
            "indexed_documents": self.index.count(),
            **self._sizes(),
            "sources": {k.removeprefix("source_date:"): v for k, v in metas if k.startswith("source_date:")},
            "unfinished_ingests": self.unfinished_ingests(),
            "source_files": {k.removeprefix("source_file:"): v for k, v in metas if k.startswith("source_file:")},
            "per_source": source_summaries(by_source, self.source_dates(), self.claims(), self.years_by_source()),
        }
