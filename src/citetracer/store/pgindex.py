"""Candidate retrieval inside PostgreSQL: the same two-pass ranking as tantivy's (store/ranking.py).

The inverted index is the `postings` table: for each title word, the ids of the records
whose title holds it with each title's word count, and for each surname key the ids with
each record's year; `terms` holds each word's, surname's and year's document frequency
(both kept by the writers in the records' own transactions, store/pg.py). The first
pass reads the posting lists of the chosen rare words and surnames in one query and sums
BM25 (the same idf and length factor as the second pass) per record here, best `limit`
first; the second pass is the shared one. Document frequencies are read in one query per
citation and cached. The queries run with sequential scans off: a plan that read the whole
postings table (tens of millions of rows) instead of the few lists asked for would cost seconds.

Why posting lists and not GIN indexes over the records' word arrays (until schema
version 4): a GIN index hands over the matching rows, but scoring them read each row
from the table, so a query cost a random read per match (p50 355 ms at 1M records, and
growing with the store); a posting list carries what the score needs, so a query reads
a few arrays and its cost is the length of the chosen rare words' lists: `ranking.PASS_POSTINGS`
bounds all of them but the first five terms' and the rarest cited surname's, whatever the store's size.

Each write batch appends one list per word it holds (a word's list is the union of its
rows), so an ingest leaves many short lists per common word and, for a replaced or
deleted record, stale ids; `PgStore.compact_postings` rebuilds them from the records at
an ingest's end. Until then a replaced record may count a word twice in the first pass,
which only orders the candidates the second pass re-scores from the records themselves.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from citetracer.store.common import StoreError
from citetracer.store.ranking import (
    AUTHOR_PASS_TITLE_BOOST,
    BM25_B,
    BM25_K1,
    MAX_SURNAMES,
    MAX_TITLE_TERMS,
    MEAN_TITLE_WORDS,
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


#: The query's words and surnames with their weights, joined to their posting lists, one row per posting:
#: (rid, field, weight, extra) where extra is the title's word count (title words) or the year (surnames).
_POSTINGS = (
    'SELECT u.rid, q.field, q.w, u.x FROM unnest(%(fields)s::"char"[], %(terms)s::text[], %(weights)s::float8[]) '
    "q(field, term, w) JOIN postings p ON p.field = q.field AND p.term = q.term "
    "CROSS JOIN LATERAL unnest(p.rids, p.extra) u(rid, x)"
)


def _norm(words: str) -> str:
    """BM25's length factor (`ranking.bm25_norm`) of a title whose word count is the SQL expression `words`.

    Written in float8 throughout: SQL's decimal literals are `numeric`, whose arithmetic, once per
    posting, cost more than reading the postings."""
    return (
        f"({BM25_K1 + 1.0}::float8 / (1.0::float8 + {BM25_K1}::float8 * (1.0::float8 - {BM25_B}::float8 "
        f"+ {BM25_B}::float8 * {words}::float8 / {MEAN_TITLE_WORDS}::float8)))"
    )


def _held(terms: str, weights: str, column: str) -> str:
    """The summed weights of the query's `terms` (parameter names) that the record's array `column` holds:
    how the author pass scores what it does not read from posting lists (title words, commoner surnames)."""
    return (
        f"coalesce((SELECT sum(q.w) FROM unnest(%({terms})s::text[], %({weights})s::float8[]) q(term, w) "
        f"WHERE q.term = ANY({column})), 0)"
    )


#: PostgreSQL's binary array format (`array_send`) of bigint and smallint elements: each value after its length.
_BIGINT = np.dtype([("length", ">i4"), ("value", ">i8")])
_SMALLINT = np.dtype([("length", ">i4"), ("value", ">i2")])


def _packed(data: bytes, element: np.dtype) -> np.ndarray:
    """The values of a one-dimensional array without NULLs in `array_send`'s format: a header (dimensions,
    a NULL flag, the element type, then each dimension's size and lower bound), then (length, value) pairs."""
    dims, has_nulls = int.from_bytes(data[0:4], "big"), int.from_bytes(data[4:8], "big")
    if dims == 0:
        return np.empty(0, dtype=element["value"].newbyteorder("="))
    if dims != 1 or has_nulls:
        raise StoreError("a posting list is not a one-dimensional array without NULLs: run `citetracer mirror reindex`")
    return np.frombuffer(data, dtype=element, offset=20)["value"].astype(element["value"].newbyteorder("="))


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

    def first_pass(self, words: Sequence[str], surnames: Sequence[str], limit: int) -> list[int]:
        """The best `limit` works holding any of the words or surnames, by the same BM25 as the second pass:
        each term's idf (times the title's length factor for a title word), summed per work over the
        posting lists of the query's terms. Its cost is the length of those lists (the rarer words and
        surnames `Retrieval.search` chose), whatever the number of records.

        The lists are fetched whole and scored here: PostgreSQL's executor spends ~0.6 us a posting
        unnesting and grouping them, and at tens of millions of works the chosen lists hold tens of
        thousands of postings; read as packed arrays (`array_send`) and summed by numpy they cost a
        fraction of that, with the same sums and the same order (score, then id; scores equal to 1e-9 tie)."""
        if not words and not surnames:
            return []
        pairs = self._pairs(words, surnames, 1.0)
        weight = {(f, t): w for f, t, w in pairs}
        rows = self._query(
            "SELECT p.field::text, p.term, array_send(p.rids), array_send(p.extra) FROM postings p "
            'WHERE (p.field, p.term) IN (SELECT * FROM unnest(%(fields)s::"char"[], %(terms)s::text[]))',
            _weights(pairs),
            True,
            True,
        )
        ids: list[np.ndarray] = []
        scores: list[np.ndarray] = []
        for field, term, rids, extra in rows:
            got = _packed(rids, _BIGINT)
            w = weight.get((str(field), str(term)), 0.0)
            if str(field) == "t":  # extra: each title's word count, for BM25's length factor
                lengths = _packed(extra, _SMALLINT)
                norms = np.array([bm25_norm(n) for n in range(int(lengths.max(initial=0)) + 1)])
                scores.append(w * norms[lengths])
            else:
                scores.append(np.full(len(got), w))
            ids.append(got)
        if not ids:
            return []
        works, where = np.unique(np.concatenate(ids), return_inverse=True)
        # Rounded: works whose sums differ only by the order of their terms' additions tie, and go by id.
        totals = np.round(np.bincount(where, weights=np.concatenate(scores), minlength=len(works)), 9)
        best = np.lexsort((works, -totals))[:limit]
        return [int(rid) for rid in works[best]]

    def author_pass(
        self, surnames: Sequence[str], year: int | None, words: Sequence[str], limit: int, also: Sequence[str] = ()
    ) -> list[int]:
        """Works by any of the surnames within the year window (the surname lists carry each work's year),
        ranked by the surnames' idf plus the title words' (weighted `AUTHOR_PASS_TITLE_BOOST`).

        The surname lists are read first and the title words are scored on those works' own word lists
        (`records.words`): the words only break ties among the authors' works, and reading their posting
        lists instead would cost every work holding any of them (most of which no cited author wrote).
        The surnames of `also` are scored alike, on the works' own surname keys (`records.surnames`)."""
        pairs = self._pairs(words, [*surnames, *also], AUTHOR_PASS_TITLE_BOOST)
        names = [p for p in pairs if p[0] == "s" and p[1] in surnames]
        others = [p for p in pairs if p[0] == "s" and p[1] not in surnames]
        params: dict[str, Any] = {
            **_weights(names),
            "words": [t for f, t, _ in pairs if f == "t"],
            "word_weights": [w for f, _, w in pairs if f == "t"],
            "also": [t for _, t, _ in others],
            "also_weights": [w for _, _, w in others],
            "limit": limit,
        }
        window = ""
        if year is not None:
            window = "WHERE h.x BETWEEN %(first)s AND %(last)s"
            params.update(first=year - YEAR_WINDOW, last=year + YEAR_WINDOW)
        by_words = f"{_held('words', 'word_weights', 'r.words')} * {_norm('r.nwords')}"
        by_others = _held("also", "also_weights", "r.surnames")
        rows = self._query(
            f"SELECT a.rid FROM (SELECT h.rid, sum(h.w) AS w FROM ({_POSTINGS}) h {window} "
            f"GROUP BY h.rid) a JOIN records r ON r.rid = a.rid ORDER BY a.w + {by_others} + {by_words} DESC, a.rid "
            "LIMIT %(limit)s",
            params,
            True,
        )
        return [int(rid) for (rid,) in rows]

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
        rows = self._query(
            "SELECT count(*) FROM records r WHERE r.rid IN (SELECT DISTINCT u.rid FROM postings p, unnest(p.rids) "
            "u(rid) WHERE p.field = 't' AND p.term = %(rarest)s) AND r.words @> %(terms)s::text[]",
            {"rarest": rarest, "terms": terms},
            True,
        )
        return int(rows[0][0])
