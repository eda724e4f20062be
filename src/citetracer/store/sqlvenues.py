"""The venue knowledge and coverage questions, written once for both backends (see store/sql.py).

What a venue is called (the proceedings titles the records name, a sources snapshot's venues
and their names, store/venues.py) and how many of a venue-year's works the complete sources
hold (store/coverage.py holds the rule), with the writes that keep them: a snapshot's venues,
and the venue-years a source holds whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from citetracer.records import WorkRecord
from citetracer.store.common import batched, venue_key
from citetracer.store.coverage import venue_year_coverage
from citetracer.store.sqlbase import SqlBase, Transaction
from citetracer.store.venues import VenueEntry, entry_of, entry_rows, name_keys

#: Venue-year coverage answers kept per open store before the cache starts again.
COVERAGE_CACHE_SIZE = 4096


class SqlVenues(SqlBase):
    """Venue knowledge and coverage (see the module docstring); `SqlStore` (store/sql.py) adds the rest."""

    def records(self, rids: Iterable[int]) -> dict[int, WorkRecord]:
        """Records by row id (`SqlStore.records`)."""
        raise NotImplementedError

    def source_dates(self) -> dict[str, str]:
        """Each source's snapshot date (`SqlStore.source_dates`)."""
        raise NotImplementedError

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
