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

from citetracer.normalize.text import tokens

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
#: ... and at most this many (or half the title's words, if more): in a title, a word's postings score
#: nearly alike, so top-k pruning skips little and a pass costs about the total length of its lists
#: (~9 ns a posting); five rare words hold three right ones even when two are wrong, and the second
#: pass scores all the words anyway.
MAX_PASS_WORDS = 5
#: The rarest cited surnames the first pass also asks for (a real work's authors find it even when
#: its title was garbled); two, as one of them may be misspelt or invented, and each costs ~0.25 ms.
MAX_PASS_SURNAMES = 2
#: A stored year this close to the cited one agrees with it (preprint and proceedings years differ by one).
YEAR_WINDOW = 1
#: Cited surname keys a query looks at (a long author list adds little past its first dozen).
MAX_SURNAMES = 12
#: Candidates the first pass hands to the full BM25 ranking.
FIRST_PASS = 20
#: BM25 parameters (tantivy's), and the typical title length in words that normalizes lengths.
BM25_K1, BM25_B, MEAN_TITLE_WORDS = 1.2, 0.75, 10.0


@dataclass(frozen=True)
class RankingFields:
    """What the second pass reads of a candidate: its titles (the record's, its renderings'), surname keys, year."""

    titles: list[str]
    surnames: frozenset[str]
    year: int | None


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
        self._df: dict[tuple[str, str | int], int] = {}
        #: Reads titles, surnames and year of rows (set by the store): lets `search` re-rank its candidates.
        self.fields_of: Callable[[list[int]], dict[int, RankingFields]] | None = None

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

    def doc_freq(self, term: str | int, field: str = "title") -> int:
        """How many indexed works hold this word (or surname, or year) (cached: the same ones recur)."""
        key = (field, term)
        df = self._df.get(key)
        if df is None:
            if len(self._df) >= DF_CACHE_SIZE:
                self._df.clear()
            df = self._df[key] = int(self.searcher().doc_freq(field, term))
        return df

    def year_window_freq(self, year: int) -> int:
        """How many works have a year within `YEAR_WINDOW` of this one."""
        return sum(self.doc_freq(y, "year") for y in range(year - YEAR_WINDOW, year + YEAR_WINDOW + 1))

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
        """Works whose title is closest to `title`, best first (`search` with the title alone)."""
        return self.search(title, (), None, limit)

    def search(
        self, title: str | None, surnames: Sequence[str] = (), year: int | None = None, limit: int = 10
    ) -> list[int]:
        """Works closest to a citation, best first: its title words, author surnames and year scored together.

        Two passes, because among millions of titles the common words ("of",
        "learning", "for") make a disjunction slow (their posting lists hold
        millions of entries) while deciding little. The first pass asks
        tantivy for the `FIRST_PASS` best matches of the rarer title words
        (at least `MIN_PASS_TERMS`, at most `MAX_PASS_WORDS` or half the
        title's words) and of the rarest cited surnames. The second ranks those candidates by one sum
        computed here from their stored fields: BM25 over all the title's
        words (so that a common word still tells "Learning of X" from
        "Learning for X"), plus the idf of every cited surname the record
        shares, plus the idf of the year window when the years agree. The
        surnames and year are what put the true work first when two words of
        its title are wrong and a neighbour's title happens to be closer.
        Without a way to read stored fields (`fields_of`), tantivy's own
        ranking of the first-pass query over all the words is the answer.
        """
        words = list(dict.fromkeys(index_tokens(title or "")))[:MAX_TITLE_TERMS]
        terms = [t for t in words if self.doc_freq(t) > 0]
        names = [s for s in dict.fromkeys(surnames) if s and self.doc_freq(s, "surname") > 0][:MAX_SURNAMES]
        if not terms and not names:
            return []
        total = max(1, self.count())
        common = self.common_df()
        by_rarity = sorted(terms, key=self.doc_freq)
        # A long title's own length weighs against it in the first pass's BM25 (short titles that share a
        # few of its rarest words outrank it), so it keeps more of its words: half of them.
        pass_words = [t for t in by_rarity if self.doc_freq(t) <= common][: max(MAX_PASS_WORDS, len(terms) // 2)]
        if len(pass_words) < MIN_PASS_TERMS:
            pass_words = by_rarity[:MIN_PASS_TERMS]
        pass_names = sorted(
            (s for s in names if self.doc_freq(s, "surname") <= common), key=lambda s: self.doc_freq(s, "surname")
        )[:MAX_PASS_SURNAMES]
        if self.fields_of is None:
            return self._rids(self._query(terms, names), limit)
        first = self._rids(self._query(pass_words, pass_names), max(limit, FIRST_PASS))
        fields = self.fields_of(first)
        word_weights = {t: bm25_idf(self.doc_freq(t), total) for t in terms}
        name_weights = {s: bm25_idf(self.doc_freq(s, "surname"), total) for s in names}
        year_weight = bm25_idf(self.year_window_freq(year), total) if year is not None else 0.0

        def score(rid: int) -> float:
            got = fields.get(rid)
            if got is None:
                return 0.0
            value = max((bm25(word_weights, index_tokens(t)) for t in got.titles), default=0.0)
            value += sum(w for s, w in name_weights.items() if s in got.surnames)
            if year is not None and got.year is not None and abs(got.year - year) <= YEAR_WINDOW:
                value += year_weight
            return value

        ranked = sorted(range(len(first)), key=lambda i: (-score(first[i]), i))
        return [first[i] for i in ranked[:limit]]

    def _query(self, words: Sequence[str], surnames: Sequence[str]) -> tantivy.Query:
        clauses = [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "title", t)) for t in words]
        clauses += [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "surname", s)) for s in surnames]
        return tantivy.Query.boolean_query(clauses)

    def by_authors(self, surnames: list[str], year: int | None, limit: int = 10, title: str | None = None) -> list[int]:
        """Works by any of these surnames within a year of `year`; more shared surnames rank higher.

        With a `title`, its words break ties: among millions of records a common
        surname in one year matches thousands, and the one sharing some of the
        cited title's words (even a corrupted title) is the one to look at first.
        """
        keys = [s for s in dict.fromkeys(surnames) if s][:MAX_SURNAMES]
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

    def titles_containing(self, words: Sequence[str]) -> int:
        """How many indexed works have a title holding every one of `words` (how generic a title is:
        "deep learning" is in thousands, "longitudinal fairness censorship" in one)."""
        terms = list(dict.fromkeys(t for w in words for t in index_tokens(w)))
        if not terms or any(self.doc_freq(t) == 0 for t in terms):
            return 0
        query = tantivy.Query.boolean_query(
            [(tantivy.Occur.Must, tantivy.Query.term_query(self.schema, "title", t)) for t in terms]
        )
        return int(self.searcher().search(query, 1, count=True).count)  # type: ignore[attr-defined]
