"""Candidate retrieval inside PostgreSQL: the same two-pass ranking as tantivy's (store/ranking.py).

The inverted index is two GIN indexes over each record's distinct title words and
surname keys; `terms` holds each word's, surname's and year's document frequency
(kept exact by the writers, store/pg.py). The first pass is one query: the records
holding any of the chosen rare words or surnames, scored by BM25 with the same idf
and length normalisation as the second pass, best `limit` first; the second pass is
the shared one. Document frequencies are read in one query per citation and cached.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

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
    index_tokens,
)

#: `terms.field` of a title word, a surname key, a year, and the one row counting every record.
FIELDS = {"title": "t", "surname": "s", "year": "y"}
TOTAL = ("n", "")
#: Document frequencies remembered per open store, and how long (other processes write too).
DF_CACHE_SIZE = 200_000
DF_TTL = 300.0


def _score(words: Sequence[str], surnames: Sequence[str], params: dict[str, Any]) -> str:
    """BM25 of the matched words of a row, in SQL: the idf of each query word it holds times the length
    factor of `bm25_norm` (store/ranking.py), plus the idf of each query surname it has. One CASE per
    word, with its weight as a parameter: much cheaper per row than a subquery over the query's words."""
    title, names = [], []
    for i, word in enumerate(words):
        params[f"w{i}"] = [word]
        title.append(f"CASE WHEN r.words @> %(w{i})s::text[] THEN %(ww{i})s ELSE 0 END")
    for i, name in enumerate(surnames):
        params[f"s{i}"] = [name]
        names.append(f"CASE WHEN r.surnames @> %(s{i})s::text[] THEN %(sw{i})s ELSE 0 END")
    norm = f"{BM25_K1 + 1.0} / (1.0 + {BM25_K1} * (1.0 - {BM25_B} + {BM25_B} * r.nwords / {MEAN_TITLE_WORDS}))"
    parts = [f"({' + '.join(title)}) * %(title_boost)s * {norm}"] if title else []
    parts += names
    return " + ".join(parts) or "0"


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

    def _ranked(self, where: str, words: Sequence[str], surnames: Sequence[str], boost: float, limit: int,
                 params: dict[str, Any]) -> list[int]:  # fmt: skip
        """The best `limit` rows matching `where`, by `_score`. Run with sequential scans off: the planner
        guesses array overlaps match a few percent of the table and would read all of it, while the GIN
        indexes hand over only the rows that hold a pass word or surname."""
        total = max(1, self.count())
        for i, word in enumerate(words):
            params[f"ww{i}"] = bm25_idf(self.doc_freq(word), total)
        for i, name in enumerate(surnames):
            params[f"sw{i}"] = bm25_idf(self.doc_freq(name, "surname"), total)
        params.update(title_boost=boost, limit=limit)
        score = _score(words, surnames, params)
        rows = self._query(
            f"SELECT r.rid FROM records r WHERE {where} ORDER BY {score} DESC, r.rid LIMIT %(limit)s", params, True
        )
        return [int(rid) for (rid,) in rows]

    def first_pass(self, words: Sequence[str], surnames: Sequence[str], limit: int) -> list[int]:
        if not words and not surnames:
            return []
        params: dict[str, Any] = {"words": list(words), "names": list(surnames)}
        clauses = ["r.words && %(words)s::text[]"] if words else []
        clauses += ["r.surnames && %(names)s::text[]"] if surnames else []
        where = " OR ".join(clauses)
        return self._ranked(where, words, surnames, 1.0, limit, params)

    def author_pass(self, surnames: Sequence[str], year: int | None, words: Sequence[str], limit: int) -> list[int]:
        params: dict[str, Any] = {"names": list(surnames)}
        where = "r.surnames && %(names)s::text[]"
        if year is not None:
            where += " AND r.year BETWEEN %(first)s AND %(last)s"
            params.update(first=year - YEAR_WINDOW, last=year + YEAR_WINDOW)
        return self._ranked(where, words, surnames, AUTHOR_PASS_TITLE_BOOST, limit, params)

    def titles_containing(self, words: Sequence[str]) -> int:
        terms = list(dict.fromkeys(t for w in words for t in index_tokens(w)))
        self.prefetch(("t", t) for t in terms)
        if not terms or any(self.doc_freq(t) == 0 for t in terms):
            return 0
        rows = self._query("SELECT count(*) FROM records WHERE words @> %s::text[]", (terms,), True)
        return int(rows[0][0])
