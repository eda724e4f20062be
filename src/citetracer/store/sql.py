"""The store's queries written once, for both backends: SQLite (store/db.py) and PostgreSQL (store/pg.py).

Why: the two backends hold the same tables and answer the same questions (store/api.py), and their
queries differed only in dialect (`?` or `%s` placeholders, `IN (?, ?)` or `= ANY(%s)`, how a record
names its crossref target). Written twice, a fix to one copy missed the other; here each
dialect-neutral query is written once, in SQLite's spelling with `?` placeholders, and `Dialect`
turns it into the backend's. A backend keeps only what is its own: connecting, locking, the index
and bulk writes, and `_rows`, which runs one statement and returns its rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from citetracer.records import Candidate, WorkRecord
from citetracer.store.claims import registries
from citetracer.store.codec import decode, ranking_fields_of, with_volume
from citetracer.store.common import RECORD_CACHE_SIZE, venue_key
from citetracer.store.coverage import venue_year_coverage
from citetracer.store.ranking import RankingFields
from citetracer.store.venues import VenueEntry, entry_of, name_keys

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


class TransactionMeta:
    """`BatchMeta` (store/api.py) inside one of a backend's write transactions: `set_meta` runs its
    statement through `execute`, the transaction's own, so it commits or rolls back with the batch."""

    def __init__(self, execute: Callable[[str, tuple[Any, ...]], object], dialect: Dialect) -> None:
        self.execute = execute
        self.dialect = dialect

    def set_meta(self, key: str, value: str) -> None:
        self.execute(self.dialect.sql(SET_META), (key, value))


#: Sets one `meta` value (both backends have `meta.key` as primary key).
SET_META = "INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value"


class SqlStore:
    """The queries a store answers the same way on both backends (see the module docstring).

    A backend sets `dialect`, `_cache`, `_known_prefixes`, `_source_dates`, `_venue_names`,
    `_coverage` and `index`, and defines `_rows` (one statement, its rows as a list), `set_meta` and
    `link_verified_many` (how it writes, which differs).
    """

    dialect: Dialect
    index: Any
    _cache: dict[int, WorkRecord]
    _known_prefixes: set[str] | None
    _source_dates: dict[str, str] | None
    _venue_names: dict[str, list[str]]
    _coverage: dict[tuple[str, int | None], tuple[int, str]]

    def _rows(self, sql: str, params: Any = None) -> list[Any]:
        raise NotImplementedError

    def set_meta(self, key: str, value: str) -> None:
        raise NotImplementedError

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows of `sql` (neutral spelling: `?` placeholders, literal `%`) on this store's backend."""
        return self._rows(self.dialect.sql(sql), tuple(params))

    def _first(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = self._query(sql, params)
        return rows[0] if rows else None

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
                # an older store's row may be plain JSON text, a newer one's compressed bytes (memoryview in PostgreSQL)
                record = with_volume(decode(data.encode() if isinstance(data, str) else bytes(data), key), xref_title,
                                     volume)  # fmt: skip
                out[int(rid)] = record
                if len(self._cache) >= RECORD_CACHE_SIZE:
                    self._cache.pop(next(iter(self._cache)))
                self._cache[int(rid)] = record
        return out

    def ranking_fields(self, rids: Sequence[int]) -> dict[int, RankingFields]:
        """Titles (first the record's, then its renderings'), surname keys and year of these rows, for ranking.

        Reads them straight out of each row's JSON: much cheaper than building records.
        """
        ids = list(dict.fromkeys(rids))
        if not ids:
            return {}
        where, params = self.dialect.any_of("rid", ids)
        rows = self._query(f"SELECT rid, data, year FROM records WHERE {where}", params)
        return {int(rid): ranking_fields_of(bytes(data), year) for rid, data, year in rows}

    def link_verified(self, fingerprint: str, evidence: Candidate, code: str) -> None:
        """Remember that a citation with this fingerprint was proved by this evidence record."""
        self.link_verified_many([(fingerprint, evidence, code)])

    def link_verified_many(self, links: Sequence[tuple[str, Candidate, str]]) -> int:
        raise NotImplementedError

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

    # ---------------------------------------------------------------- metadata

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
