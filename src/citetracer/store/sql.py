"""The store's queries written once, for both backends: SQLite (store/db.py) and PostgreSQL (store/pg.py).

Why: the two backends hold the same tables and answer the same questions (store/api.py), and their
queries differed only in dialect (`?` or `%s` placeholders, `IN (?, ?)` or `= ANY(%s)`, how a record
names its crossref target). Written twice, a fix to one copy missed the other; here each
dialect-neutral query is written once, in SQLite's spelling with `?` placeholders, and `Dialect`
turns it into the backend's (store/sqlbase.py). A backend keeps only what is its own: connecting,
locking, the index and bulk writes, and the hooks `SqlBase` lists (running one statement, a write
transaction, ...); where the two differ in substance, not in spelling, a hook of its own says why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from citetracer.records import Candidate, WorkRecord
from citetracer.store.claims import CLAIM_KEYS, Claim, read_claims, registries
from citetracer.store.codec import blob, decode, ranking_fields_of, with_volume
from citetracer.store.common import (
    RANKING_CACHE_SIZE,
    RECORD_CACHE_SIZE,
    BatchMeta,
    display_location,
    evidence_records,
    source_summaries,
    totals,
    unfinished_ingests,
    venue_key,
)
from citetracer.store.ranking import RankingFields
from citetracer.store.rows import row_from_record
from citetracer.store.sqlbase import SET_META
from citetracer.store.sqlvenues import SqlVenues


class SqlStore(SqlVenues):
    """The queries and writes a store does the same way on both backends (see the module docstring):
    records, verified links, metadata and counts here; venue knowledge and coverage in `SqlVenues`
    (store/sqlvenues.py); the hooks a backend defines in `SqlBase` (store/sqlbase.py)."""

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

        Reads them straight out of each row's JSON: much cheaper than building records. Recently read
        ones come from a cache, cleared with the record cache: a search's first pass revisits the same
        near neighbours (nine reads in ten on HALLMARK dev).
        """
        ids = list(dict.fromkeys(rids))
        cache = self._ranking
        out = {rid: cache[rid] for rid in ids if rid in cache}
        missing = [rid for rid in ids if rid not in out]
        if not missing:
            return out
        where, params = self.dialect.any_of("rid", missing)
        rows = self._query(f"SELECT rid, data, year FROM records WHERE {where}", params)
        for rid, data, year in rows:
            fields = ranking_fields_of(blob(data), year)
            out[int(rid)] = fields
            if len(cache) >= RANKING_CACHE_SIZE:
                cache.pop(next(iter(cache)))
            cache[int(rid)] = fields
        return out

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

    def titles_sharing(self, words: Sequence[str]) -> int:
        """How many stored works have a title holding all these words (store/index.py, store/pgindex.py)."""
        return int(self.index.titles_containing(words))

    # ---------------------------------------------------------------- metadata

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
