"""Full-text side of the local store: a tantivy index over titles and author surnames.

Why tantivy and not SQLite FTS5: on 1M synthetic titles an FTS5 OR query took
p50 1.26 s, and restricting it to the rarest terms still left p95 at 435 ms,
while tantivy's block-max WAND top-k answered at p50 7.7 ms / p95 11 ms with
a 60 MB index. The index is derived data: SQLite holds the records, and the
index is brought up to date from SQLite's change counter whenever it lags
(for example after a process was killed between the two commits).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import tantivy

from citetracer.match.normalize import tokens

_LATEX_OR_PUNCT_HINT = re.compile(r"[\\{}$~]")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")

#: Cap on query terms: long titles gain nothing from more, and latency grows with them.
MAX_TITLE_TERMS = 24
#: Document frequencies remembered per open index (title words recur across queries).
DF_CACHE_SIZE = 200_000
#: A word in more than this share of titles is common: left out of the first retrieval pass.
COMMON_SHARE = 0.05
#: ... and only when its posting list is longer than this (in a small store every list is cheap).
MIN_COMMON_DF = 1000
#: The first pass keeps at least this many of the rarest words (two of a citation's words may be wrong).
MIN_PASS_TERMS = 3
#: Candidates the first pass hands to the full BM25 ranking.
FIRST_PASS = 20
#: BM25 parameters (tantivy's), and the typical title length in words that normalizes lengths.
BM25_K1, BM25_B, MEAN_TITLE_WORDS = 1.2, 0.75, 10.0


@dataclass(frozen=True)
class IndexedWork:
    rid: int
    titles: list[str]
    surnames: list[str]
    year: int | None


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("rid", stored=True, indexed=True, fast=True)
    builder.add_text_field("title", stored=False, tokenizer_name="default", index_option="freq")
    builder.add_text_field("surname", stored=False, tokenizer_name="raw", index_option="basic")
    builder.add_integer_field("year", stored=False, indexed=True, fast=True)
    return builder.build()


def index_tokens(title: str) -> list[str]:
    """`normalize.tokens`, with a fast path for plain ASCII titles (same result: folding is lower-casing there).

    The bulk ingest tokenizes millions of titles, nearly all plain ASCII; the
    general path (LaTeX, NFKC/NFKD, special letters) stays for the rest.
    """
    if title.isascii() and not _LATEX_OR_PUNCT_HINT.search(title):
        return [t for t in _NON_ALNUM.split(title.lower()) if t]
    return tokens(title)


def bm25_idf(df: int, total: int) -> float:
    """BM25's inverse document frequency (as tantivy computes it)."""
    return math.log(1.0 + (total - df + 0.5) / (df + 0.5))


def bm25(weights: dict[str, float], words: Sequence[str]) -> float:
    """BM25 of one title (its words) for query words weighted by idf; every word counts once, as in titles."""
    norm = BM25_K1 * (1.0 - BM25_B + BM25_B * len(words) / MEAN_TITLE_WORDS)
    return sum(weights[w] for w in set(words) if w in weights) * (BM25_K1 + 1.0) / (1.0 + norm)


def add_document(writer: tantivy.IndexWriter, work: IndexedWork) -> None:
    titles = [" ".join(index_tokens(title)) for title in work.titles]
    add_fields(writer, work.rid, titles, work.surnames, work.year)


def add_fields(
    writer: tantivy.IndexWriter, rid: int, titles: Sequence[str], surnames: Sequence[str], year: int | None
) -> None:
    """One document; `titles` are already tokenized (words joined by spaces)."""
    doc = tantivy.Document()
    doc.add_integer("rid", rid)
    for title in titles:
        doc.add_text("title", title)
    for surname in surnames:
        doc.add_text("surname", surname)
    if year is not None:
        doc.add_integer("year", year)
    writer.add_document(doc)


class TitleIndex:
    """Candidate retrieval by fuzzy title and by author surname + year."""

    def __init__(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.schema = _schema()
        self.index = tantivy.Index(self.schema, path=str(path), reuse=True)
        self._df: dict[str, int] = {}
        #: Reads the stored titles of rows (set by the store): lets `by_title` re-rank its candidates.
        self.titles_of: Callable[[list[int]], dict[int, list[str]]] | None = None

    # ------------------------------------------------------------------ writes

    def write(self, works: Iterable[IndexedWork], heap_bytes: int = 128_000_000) -> int:
        """Replace the documents of these works; one atomic commit."""
        writer = self.index.writer(heap_size=heap_bytes, num_threads=1)
        n = 0
        try:
            for work in works:
                writer.delete_documents_by_term("rid", work.rid)
                add_document(writer, work)
                n += 1
            writer.commit()
        except BaseException:
            writer.rollback()
            raise
        finally:
            writer.wait_merging_threads()
        self.reload()
        return n

    def delete(self, rids: Iterable[int]) -> None:
        writer = self.index.writer(heap_size=32_000_000, num_threads=1)
        for rid in rids:
            writer.delete_documents_by_term("rid", rid)
        writer.commit()
        writer.wait_merging_threads()
        self.reload()

    def clear(self) -> None:
        writer = self.index.writer(heap_size=32_000_000, num_threads=1)
        writer.delete_all_documents()
        writer.commit()
        writer.wait_merging_threads()
        self.reload()

    # ------------------------------------------------------------------- reads

    def searcher(self) -> tantivy.Searcher:
        """The searcher of the last commit (cheap: the reader hands out its current one)."""
        return self.index.searcher()

    def reload(self) -> None:
        self.index.reload()
        self._df.clear()

    def doc_freq(self, term: str) -> int:
        """How many indexed titles hold this word (cached: the same words recur across queries)."""
        df = self._df.get(term)
        if df is None:
            if len(self._df) >= DF_CACHE_SIZE:
                self._df.clear()
            df = self._df[term] = int(self.searcher().doc_freq("title", term))
        return df

    def common_df(self) -> float:
        """Above this many titles a word is common: its postings cost more than it tells (short lists never are)."""
        return max(MIN_COMMON_DF, COMMON_SHARE * self.count())

    def _rids(self, query: tantivy.Query, limit: int) -> list[int]:
        searcher = self.searcher()
        # count=False: counting every match would visit them all and defeat top-k (block-max WAND) pruning.
        hits = searcher.search(query, limit, count=False).hits
        # doc() per hit, not fast_field_values: that call costs ~0.4 ms however few the addresses.
        return [int(searcher.doc(address)["rid"][0]) for _score, address in hits]

    def _title_query(self, terms: Sequence[str]) -> tantivy.Query:
        return tantivy.Query.boolean_query(
            [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "title", t)) for t in terms]
        )

    def by_title(self, title: str, limit: int = 10) -> list[int]:
        """Works whose title is closest to `title` (BM25 over its words), best first.

        Two passes, because among millions of titles the common words ("of",
        "learning", "for") make a disjunction slow (their posting lists hold
        millions of entries, block-max WAND can skip little of them) while
        deciding little: the first pass asks tantivy for the `FIRST_PASS`
        best matches of the rarer words only (at least `MIN_PASS_TERMS` of
        them: up to two words of a citation may be wrong); the second ranks
        those candidates by BM25 over all the words, computed here from
        their stored titles, so that a common word still tells a record from
        its near neighbours ("Learning of X" against "Learning for X").
        Without a way to read titles (`titles_of`), the first pass over all
        the words is the answer.
        """
        words = list(dict.fromkeys(index_tokens(title)))[:MAX_TITLE_TERMS]
        terms = [t for t in words if self.doc_freq(t) > 0]
        if not terms:
            return []
        total = max(1, self.count())
        by_rarity = sorted(terms, key=self.doc_freq)
        rare = [t for t in by_rarity if self.doc_freq(t) <= self.common_df()]
        if len(rare) < MIN_PASS_TERMS:
            rare = by_rarity[:MIN_PASS_TERMS]
        if len(rare) == len(terms) or self.titles_of is None:
            return self._rids(self._title_query(terms), limit)
        first = self._rids(self._title_query(rare), max(limit, FIRST_PASS))
        titles = self.titles_of(first)
        weights = {t: bm25_idf(self.doc_freq(t), total) for t in terms}
        ranked = sorted(
            range(len(first)),
            key=lambda i: (-max((bm25(weights, index_tokens(t)) for t in titles.get(first[i], ())), default=0.0), i),
        )
        return [first[i] for i in ranked[:limit]]

    def by_authors(self, surnames: list[str], year: int | None, limit: int = 10, title: str | None = None) -> list[int]:
        """Works by any of these surnames within a year of `year`; more shared surnames rank higher.

        With a `title`, its words break ties: among millions of records a common
        surname in one year matches thousands, and the one sharing some of the
        cited title's words (even a corrupted title) is the one to look at first.
        """
        keys = [s for s in dict.fromkeys(surnames) if s][:12]
        if not keys:
            return []
        any_author = tantivy.Query.boolean_query(
            [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "surname", s)) for s in keys]
        )
        clauses: list[tuple[tantivy.Occur, tantivy.Query]] = [(tantivy.Occur.Must, any_author)]
        if year is not None:
            years = tantivy.Query.range_query(self.schema, "year", tantivy.FieldType.Integer, year - 1, year + 1)
            clauses.append((tantivy.Occur.Must, years))
        # Only the rarer words: a common one ("of", "learning") would add its millions of postings to the
        # query and tell little apart (tie-breaking among one author's works of a year).
        common = self.common_df()
        words = list(dict.fromkeys(index_tokens(title or "")))[:MAX_TITLE_TERMS]
        terms = [t for t in words if 0 < self.doc_freq(t) <= common]
        if terms:
            clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(self._title_query(terms), 0.5)))
        return self._rids(tantivy.Query.boolean_query(clauses), limit)

    def count(self) -> int:
        return int(self.searcher().num_docs)
