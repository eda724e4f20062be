"""Candidate retrieval inside PostgreSQL: the same two-pass ranking as tantivy's (store/ranking.py).

The inverted index is the `postings` table: for each title word, the ids of the records
whose title holds it with each title's word count, and for each surname key the ids with
each record's year; `terms` holds each word's, surname's and year's document frequency
(both kept by the writers in the records' own transactions, store/pg.py). A list is
packed bytes (ids as big-endian 8-byte integers, extras as 2-byte ones), fetched whole and
read with numpy: the first pass reads the lists of the chosen rare words and surnames in
one query and sums BM25 (the same idf and length factor as the second pass) per record
here, best `limit` first; the second pass is the shared one. The author pass reads its
surnames' lists, and scores those works with the lists of its words and other surnames.
Document frequencies are read in one query per citation and cached. The queries run with
sequential scans off: a plan that read the whole postings table (tens of millions of rows)
instead of the few lists asked for would cost seconds.

Why posting lists and not GIN indexes over the records' word arrays (until schema
version 4): a GIN index hands over the matching rows, but scoring them read each row
from the table, so a query cost a random read per match (p50 355 ms at 1M records, and
growing with the store); a posting list carries what the score needs, so a query reads
a few lists and its cost is their length: `ranking.PASS_POSTINGS` bounds all of them but the
first five terms' and the rarest cited surname's, and `ranking.AUTHOR_PASS_POSTINGS` the
author pass's scoring lists, whatever the store's size.

Each write batch appends one list per word it holds (a word's list is the union of its
rows), so an ingest leaves many short lists per common word and, for a replaced or
deleted record, stale ids; `PgStore.compact_postings` rebuilds them from the records at
an ingest's end. Until then a replaced record may count a word twice in the first pass,
which only orders the candidates the second pass re-scores from the records themselves;
the author pass counts a term once a work, and checks that the works it returns exist.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from citetracer.store.common import StoreError
from citetracer.store.ranking import (
    AUTHOR_PASS_TITLE_BOOST,
    MAX_SURNAMES,
    MAX_TITLE_TERMS,
    YEAR_WINDOW,
    Retrieval,
    bm25_idf,
    bm25_norm,
    index_tokens,
)

#: `terms.field` of a title word, a surname key, a year, and the one row counting every record.
FIELDS = {"title": "t", "surname": "s", "year": "y"}
TOTAL = ("n", "")
#: Above this many titles holding even the rarest of a title's words, `titles_containing` counts no further.
MAX_EXACT_DF = 50_000
#: Document frequencies remembered per open store, and how long (other processes write too).
DF_CACHE_SIZE = 200_000
DF_TTL = 300.0


def _weights(pairs: Sequence[tuple[str, str, float]]) -> dict[str, Any]:
    """The query's (field letter, term, weight) triples as the three arrays `_QUERY` unnests."""
    return {
        "fields": [f for f, _, _ in pairs],
        "terms": [t for _, t, _ in pairs],
        "weights": [w for _, _, w in pairs],
    }


def _unpacked(data: bytes, width: int) -> np.ndarray:
    """The integers of a packed posting list column (big-endian, `width` bytes each), in native order."""
    if len(data) % width:
        raise StoreError("a posting list is not whole: run `citetracer mirror reindex`")
    return np.frombuffer(data, dtype=f">i{width}").astype(f"=i{width}")


def _norms(lengths: np.ndarray) -> np.ndarray:
    """BM25's length factor (`ranking.bm25_norm`) of titles of these word counts (a title word list's extras),
    looked up in a table over the counts the list holds."""
    table = np.array([bm25_norm(n) for n in range(int(lengths.max(initial=0)) + 1)])
    return table[lengths]


def _best(works: np.ndarray, totals: np.ndarray, limit: int) -> np.ndarray:
    """Positions of the `limit` best works, by total (descending) then id. Sorting every work the lists
    hold (hundreds of thousands) cost more than summing them: the `limit`-th total is found by a
    partition, and only the works at or above it are sorted."""
    if len(works) > limit > 0:
        kth = np.partition(totals, len(totals) - limit)[len(totals) - limit]
        keep = np.flatnonzero(totals >= kth)
        return keep[np.lexsort((works[keep], -totals[keep]))][:limit]
    return np.lexsort((works, -totals))[: max(limit, 0)]


class PgIndex(Retrieval):
    """The `Retrieval` primitives over a PostgreSQL store's tables; `query` runs one statement."""

    def __init__(self, query: Any) -> None:
        self._query = query
        self._df: dict[tuple[str, str], int] = {}
        self._df_at = time.monotonic()

    # ------------------------------------------------------------ frequencies

    def forget(self) -> None:
        """Drop the cached frequencies (after this process wrote, or when they are old)."""
        self._df.clear()
        self._df_at = time.monotonic()

    def _fresh(self) -> None:
        if time.monotonic() - self._df_at > DF_TTL or len(self._df) > DF_CACHE_SIZE:
            self.forget()

    def prefetch(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Read the frequencies of these (field letter, term) pairs in one query."""
        self._fresh()
        wanted = [p for p in dict.fromkeys(pairs) if p not in self._df]
        if not wanted:
            return
        rows = self._query(
            'SELECT field, term, df FROM terms WHERE (field, term) IN (SELECT * FROM unnest(%s::"char"[], %s::text[]))',
            ([f for f, _ in wanted], [t for _, t in wanted]),
        )
        for pair in wanted:
            self._df[pair] = 0
        for field, term, df in rows:
            self._df[(str(field), str(term))] = int(df)

    def doc_freq(self, term: str | int, field: str = "title") -> int:
        pair = (FIELDS[field], str(term))
        if pair not in self._df:
            self.prefetch([pair])
        return self._df.get(pair, 0)

    def count(self) -> int:
        if TOTAL not in self._df:
            self.prefetch([TOTAL])
        return self._df.get(TOTAL, 0)

    def _prefetch_citation(self, title: str | None, surnames: Sequence[str], year: int | None) -> None:
        words = list(dict.fromkeys(index_tokens(title or "")))[:MAX_TITLE_TERMS]
        pairs = [TOTAL] + [("t", w) for w in words] + [("s", s) for s in list(dict.fromkeys(surnames))[:MAX_SURNAMES]]
        if year is not None:
            pairs += [("y", str(y)) for y in range(year - YEAR_WINDOW, year + YEAR_WINDOW + 1)]
        self.prefetch(pairs)

    # ----------------------------------------------------------------- passes

    def search(
        self, title: str | None, surnames: Sequence[str] = (), year: int | None = None, limit: int = 10
    ) -> list[int]:
        self._prefetch_citation(title, surnames, year)
        return super().search(title, surnames, year, limit)

    def by_authors(self, surnames: list[str], year: int | None, limit: int = 10, title: str | None = None) -> list[int]:
        self._prefetch_citation(title, surnames, year)
        return super().by_authors(surnames, year, limit, title)

    def _pairs(self, words: Sequence[str], surnames: Sequence[str], boost: float) -> list[tuple[str, str, float]]:
        """(field letter, term, idf weight) of the query's title words (times `boost`) and surnames."""
        total = max(1, self.count())
        pairs = [("t", w, boost * bm25_idf(self.doc_freq(w), total)) for w in dict.fromkeys(words)]
        return pairs + [("s", n, bm25_idf(self.doc_freq(n, "surname"), total)) for n in dict.fromkeys(surnames)]

    def _lists(self, pairs: Sequence[tuple[str, str, float]]) -> list[tuple[str, str, np.ndarray, np.ndarray]]:
        """The posting lists (field letter, term, ids, extras) of these (field letter, term, weight) triples, all
        the rows of each in one query: a term written by several batches has several (until compacted)."""
        rows = self._query(
            "SELECT p.field::text, p.term, p.rids, p.extra FROM postings p "
            'WHERE (p.field, p.term) IN (SELECT * FROM unnest(%(fields)s::"char"[], %(terms)s::text[]))',
            _weights(pairs),
            True,
            True,
        )
        return [(str(f), str(t), _unpacked(rids, 8), _unpacked(extra, 2)) for f, t, rids, extra in rows]

    def first_pass(self, words: Sequence[str], surnames: Sequence[str], limit: int) -> list[int]:
        """The best `limit` works holding any of the words or surnames, by the same BM25 as the second pass:
        each term's idf (times the title's length factor for a title word), summed per work over the
        posting lists of the query's terms. Its cost is the length of those lists (the rarer words and
        surnames `Retrieval.search` chose), whatever the number of records.

        The lists are fetched whole and scored here: PostgreSQL's executor spends ~0.6 us a posting
        unnesting and grouping them, and at tens of millions of works the chosen lists hold tens of
        thousands of postings; read packed and summed by numpy they cost a fraction of that, with the
        same sums and the same order (score, then id; scores equal to 1e-9 tie)."""
        if not words and not surnames:
            return []
        pairs = self._pairs(words, surnames, 1.0)
        weight = {(f, t): w for f, t, w in pairs}
        ids: list[np.ndarray] = []
        scores: list[np.ndarray] = []
        for field, term, got, extra in self._lists(pairs):
            w = weight.get((field, term), 0.0)
            if field == "t":  # extra: each title's word count, for BM25's length factor
                scores.append(w * _norms(extra))
            else:
                scores.append(np.full(len(got), w))
            ids.append(got)
        if not ids:
            return []
        works, where = np.unique(np.concatenate(ids), return_inverse=True)
        # Rounded: works whose sums differ only by the order of their terms' additions tie, and go by id.
        totals = np.round(np.bincount(where, weights=np.concatenate(scores), minlength=len(works)), 9)
        return [int(rid) for rid in works[_best(works, totals, limit)]]

    def author_pass(
        self, surnames: Sequence[str], year: int | None, words: Sequence[str], limit: int, also: Sequence[str] = ()
    ) -> list[int]:
        """Works by any of the surnames within the year window (the surname lists carry each work's year),
        ranked by the surnames' idf plus the title words' (weighted `AUTHOR_PASS_TITLE_BOOST`, times the
        title's length factor) plus the idf of the surnames of `also` they hold; then by id.

        Every list is read packed and scored here: the works are those of the `surnames` lists, and the
        lists of `words` and `also` add their weight to the works they hold (`Retrieval.by_authors` keeps
        those lists within `AUTHOR_PASS_POSTINGS`). Scoring on the works' own rows instead cost a random
        read a candidate, and a common surname has thousands of works in a year window. A replaced
        record's stale postings (until the lists are compacted) count a term once; a deleted record's are
        dropped by checking the best works still exist."""
        pairs = self._pairs(words, [*surnames, *also], AUTHOR_PASS_TITLE_BOOST)
        weight = {(f, t): w for f, t, w in pairs}
        lists = self._lists(pairs)
        reached: list[np.ndarray] = []
        for field, term, got, years in lists:
            if field == "s" and term in surnames:
                reached.append(got if year is None else got[np.abs(years.astype(np.int64) - year) <= YEAR_WINDOW])
        works = np.unique(np.concatenate(reached)) if reached else np.empty(0, dtype=np.int64)
        if not len(works):
            return []
        totals = np.zeros(len(works))
        by_term: dict[tuple[str, str], list[tuple[np.ndarray, np.ndarray]]] = {}
        for field, term, got, extra in lists:
            by_term.setdefault((field, term), []).append((got, extra))
        for (field, term), parts in by_term.items():
            got = np.concatenate([g for g, _ in parts])
            extra = np.concatenate([e for _, e in parts])
            got, first = np.unique(got, return_index=True)  # a work counts a term once
            extra = extra[first]
            at = np.minimum(np.searchsorted(works, got), len(works) - 1)
            held = works[at] == got
            w = weight.get((field, term), 0.0)
            if field == "t":  # extra: each title's word count, for BM25's length factor
                np.add.at(totals, at[held], w * _norms(extra[held]))
            else:
                np.add.at(totals, at[held], w)
        # Rounded: works whose sums differ only by the order of their terms' additions tie, and go by id.
        totals = np.round(totals, 9)
        found: list[int] = []
        checked, size = 0, 2 * limit
        while len(found) < limit and checked < len(works):
            order = _best(works, totals, size)
            batch = [int(rid) for rid in works[order[checked:]]]
            checked, size = len(order), size * 4
            rows = self._query("SELECT rid FROM records WHERE rid = ANY(%(rids)s::bigint[])", {"rids": batch}, True)
            alive = {int(rid) for (rid,) in rows}
            found += [rid for rid in batch if rid in alive]
        return found[:limit]

    def titles_containing(self, words: Sequence[str]) -> int:
        """How many works have a title holding every one of `words`: the works of the rarest word's list
        whose stored words hold the others. When even the rarest word is in more than `MAX_EXACT_DF`
        titles, that count is returned instead (an upper bound: a title made of common words only is
        generic, which is what callers ask)."""
        terms = list(dict.fromkeys(t for w in words for t in index_tokens(w)))
        self.prefetch(("t", t) for t in terms)
        if not terms or any(self.doc_freq(t) == 0 for t in terms):
            return 0
        rarest = min(terms, key=self.doc_freq)
        if self.doc_freq(rarest) > MAX_EXACT_DF:
            return self.doc_freq(rarest)
        lists = self._lists([("t", rarest, 0.0)])
        if not lists:
            return 0
        holders = np.unique(np.concatenate([got for _, _, got, _ in lists]))
        rows = self._query(
            "SELECT count(*) FROM unnest(%(rids)s::bigint[]) u(rid) JOIN records r ON r.rid = u.rid "
            "WHERE r.words @> %(terms)s::text[]",
            {"rids": holders.tolist(), "terms": terms},
            True,
        )
        return int(rows[0][0])
