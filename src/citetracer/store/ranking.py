"""Candidate retrieval for the memory stage, whatever holds the inverted index (tantivy or PostgreSQL).

Why a base class: the two store backends must rank alike, or a citation would be Real
against one store and Potential against the same records in the other. What differs is
only how the passes read their posting lists (tantivy's block-max WAND, or PostgreSQL's
packed lists summed client-side, store/pgindex.py) and how a word's document frequency is
read; the choice of words, the idf weights and the second pass (BM25 over every title
word read from the stored rows, the shared surnames, the year window) live here once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from citetracer.normalize.homoglyphs import latin_skeleton
from citetracer.normalize.text import tokens

_LATEX_OR_PUNCT_HINT = re.compile(r"[\\{}$~]")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
#: Every ASCII character but the lower-case letters and digits, as a space (`index_text`'s fast path).
_ASCII_SPACES = str.maketrans({chr(c): " " for c in range(128) if not chr(c).isdigit() and not "a" <= chr(c) <= "z"})

#: Cap on query terms: long titles gain nothing from more, and latency grows with them.
MAX_TITLE_TERMS = 24
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
#: Postings the first pass reads past its `MIN_PASS_TERMS` rarest words, and the author pass past its rarest
#: surname: a word or surname whose list would take the total over this is scored from the candidates'
#: stored fields instead of read. Why a count and not only a share of the store (`COMMON_SHARE`): a share
#: grows with the store (5% of 20M works is a million postings a word), and PostgreSQL reads every posting
#: of a list it is asked for (~0.6 us each), so the cost of a query must be bounded by postings, not by
#: the store's size; tantivy, which skips what cannot reach the top, ranks from the same choice.
PASS_POSTINGS = 40_000
#: Postings the author pass scores its works with past the surnames it reads: the other cited surnames, then
#: the title words, count rarest first while their lists stay within this. They only rank the works read (one
#: author's works of a year), which the rarer terms tell apart; a backend that reads a term's list to
#: score it (PostgreSQL, ~50 ns a posting) pays for all of it, and the alternative there, reading each
#: candidate's row, costs a random read a work (a common surname has thousands of works in a year).
AUTHOR_PASS_POSTINGS = 400_000
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
#: Weight of the title words against the surnames when ranking one author's works of a year.
AUTHOR_PASS_TITLE_BOOST = 0.5


@dataclass(frozen=True)
class RankingFields:
    """What the second pass reads of a candidate: its titles (the record's, its renderings'), surname keys, year."""

    titles: list[str]
    surnames: frozenset[str]
    year: int | None


def index_tokens(title: str) -> list[str]:
    """`normalize.tokens`, with a fast path for plain ASCII titles (same result: folding is lower-casing there).

    The bulk ingest tokenizes millions of titles, nearly all plain ASCII; the
    general path (LaTeX, NFKC/NFKD, special letters) stays for the rest.
    """
    if title.isascii() and not _LATEX_OR_PUNCT_HINT.search(title):
        return [t for t in _NON_ALNUM.split(title.lower()) if t]
    # Look-alike letters of another script in a Latin title are read as Latin here (and only here): a title
    # written in them must find the work it imitates, to be compared with it (normalize/homoglyphs.py).
    return tokens(latin_skeleton(title))


@lru_cache(maxsize=65536)
def _title_bag(title: str) -> tuple[tuple[str, ...], float]:
    """A stored title as `bm25` reads it: its distinct `index_tokens`, in the order `bm25` sums them, and its
    `bm25_norm`. Cached: the same records come back as candidates of many citations, each scored again."""
    words = index_tokens(title)
    return tuple(set(words)), bm25_norm(len(words))


def index_text(title: str) -> str:
    """`index_tokens(title)` joined by spaces (what the title index is given), faster for plain ASCII titles.

    The same words: once the title is lower-cased and every other ASCII character a space, the words
    between spaces are the runs of letters and digits `index_tokens` splits out.
    """
    if title.isascii() and not _LATEX_OR_PUNCT_HINT.search(title):
        return " ".join(title.lower().translate(_ASCII_SPACES).split())
    return " ".join(index_tokens(title))


def bm25_idf(df: int, total: int) -> float:
    """BM25's inverse document frequency (as tantivy computes it)."""
    return math.log(1.0 + (total - df + 0.5) / (df + 0.5))


def bm25_norm(words: int) -> float:
    """BM25's factor for a title of this many words (every word counted once, as in titles)."""
    return (BM25_K1 + 1.0) / (1.0 + BM25_K1 * (1.0 - BM25_B + BM25_B * words / MEAN_TITLE_WORDS))


def bm25(weights: dict[str, float], words: Sequence[str]) -> float:
    """BM25 of one title (its words) for query words weighted by idf; every word counts once, as in titles."""
    return sum(weights[w] for w in set(words) if w in weights) * bm25_norm(len(words))


def _within(costs: Sequence[int], budget: int) -> int:
    """How many of the leading `costs` (terms in rarity order: every later one costs as much or more)
    fit within `budget` together."""
    spent = 0
    for n, cost in enumerate(costs):
        spent += cost
        if spent > budget:
            return n
    return len(costs)


class Retrieval:
    """The memory stage's two queries over an inverted index of titles, surnames and years.

    A backend gives the primitives: `count`, `doc_freq`, `first_pass` (the best
    matches of a disjunction of title words and surnames), `author_pass` (works by
    any of some surnames within a year window, title words breaking ties) and
    `titles_containing`.
    """

    #: Reads titles, surnames and year of rows (set by the store): lets `search` re-rank its candidates.
    fields_of: Callable[[list[int]], dict[int, RankingFields]] | None = None

    # ------------------------------------------------------------ primitives

    def count(self) -> int:
        raise NotImplementedError

    def doc_freq(self, term: str | int, field: str = "title") -> int:
        """How many indexed works hold this word (or surname, or year)."""
        raise NotImplementedError

    def first_pass(self, words: Sequence[str], surnames: Sequence[str], limit: int) -> list[int]:
        """Works holding any of `words` in a title or `surnames` among their authors, by BM25, best first."""
        raise NotImplementedError

    def author_pass(
        self, surnames: Sequence[str], year: int | None, words: Sequence[str], limit: int, also: Sequence[str] = ()
    ) -> list[int]:
        """Works by any of `surnames` within `YEAR_WINDOW` of `year` (any year if None), ranked by the
        surnames they share (those of `also` too, which are scored but whose works are not read), then
        (weighted `AUTHOR_PASS_TITLE_BOOST`) by the title `words` they hold."""
        raise NotImplementedError

    def titles_containing(self, words: Sequence[str]) -> int:
        """How many indexed works have a title holding every one of `words` (how generic a title is:
        "deep learning" is in thousands, "longitudinal fairness censorship" in one)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- shared

    def year_window_freq(self, year: int) -> int:
        """How many works have a year within `YEAR_WINDOW` of this one."""
        return sum(self.doc_freq(y, "year") for y in range(year - YEAR_WINDOW, year + YEAR_WINDOW + 1))

    def common_df(self) -> float:
        """Above this many titles a word is common: its postings cost more than it tells (short lists never are)."""
        return max(MIN_COMMON_DF, COMMON_SHARE * self.count())

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
        the index for the `FIRST_PASS` best matches of the rarer title words
        (at least `MIN_PASS_TERMS`, at most `MAX_PASS_WORDS` or half the
        title's words; past five terms with the surnames below, only while
        their lists stay within `PASS_POSTINGS`) and of the rarest cited
        surnames (whose lists are within it). The second ranks those candidates by one sum
        computed here from their stored fields: BM25 over all the title's
        words (so that a common word still tells "Learning of X" from
        "Learning for X"), plus the idf of every cited surname the record
        shares, plus the idf of the year window when the years agree. The
        surnames and year are what put the true work first when two words of
        its title are wrong and a neighbour's title happens to be closer.
        Without a way to read stored fields (`fields_of`), the index's own
        ranking of the first-pass query over all the words is the answer.
        """
        words = list(dict.fromkeys(index_tokens(title or "")))[:MAX_TITLE_TERMS]
        # Each frequency read once here: the rest of the search asks for them again and again (every read
        # goes through a backend's guard and cache; a server's is a query).
        df = {t: self.doc_freq(t) for t in words}
        surname_df = {s: self.doc_freq(s, "surname") for s in dict.fromkeys(surnames) if s}
        terms = [t for t in words if df[t] > 0]
        names = [s for s, n in surname_df.items() if n > 0][:MAX_SURNAMES]
        if not terms and not names:
            return []
        total = max(1, self.count())
        common = self.common_df()
        by_rarity = sorted(terms, key=df.__getitem__)
        # A long title's own length weighs against it in the first pass's BM25 (short titles that share a
        # few of its rarest words outrank it), so it keeps more of its words: half of them.
        pass_names = sorted(
            (s for s in names if surname_df[s] <= min(common, PASS_POSTINGS)),
            key=surname_df.__getitem__,
        )[:MAX_PASS_SURNAMES]
        most = max(MAX_PASS_WORDS, len(terms) // 2)
        # Five terms hold three right ones when two are wrong: words stand in for the surnames a citation
        # lacks whatever they cost; past that, words are read only within `PASS_POSTINGS`.
        owed = MAX_PASS_WORDS - len(pass_names)
        pass_words = by_rarity[:MIN_PASS_TERMS]
        read = sum(df[t] for t in pass_words)
        for t in by_rarity[MIN_PASS_TERMS:most]:
            if df[t] > common or (len(pass_words) >= owed and read + df[t] > PASS_POSTINGS):
                break  # the words are in rarity order: every later one costs as much or more
            pass_words.append(t)
            read += df[t]
        if self.fields_of is None:
            return self.first_pass(terms, names, limit)
        first = self.first_pass(pass_words, pass_names, max(limit, FIRST_PASS))
        fields = self.fields_of(first)
        word_weights = {t: bm25_idf(df[t], total) for t in terms}
        name_weights = {s: bm25_idf(surname_df[s], total) for s in names}
        year_weight = bm25_idf(self.year_window_freq(year), total) if year is not None else 0.0

        def score(rid: int) -> float:
            got = fields.get(rid)
            if got is None:
                return 0.0
            value = max(
                (
                    sum(word_weights[w] for w in bag if w in word_weights) * norm
                    for bag, norm in map(_title_bag, got.titles)
                ),
                default=0.0,
            )  # `bm25` of each title, its words and norm worked out once per title
            value += sum(w for s, w in name_weights.items() if s in got.surnames)
            if year is not None and got.year is not None and abs(got.year - year) <= YEAR_WINDOW:
                value += year_weight
            return value

        ranked = sorted(range(len(first)), key=lambda i: (-score(first[i]), i))
        return [first[i] for i in ranked[:limit]]

    def by_authors(self, surnames: list[str], year: int | None, limit: int = 10, title: str | None = None) -> list[int]:
        """Works by any of these surnames within a year of `year`; more shared surnames rank higher.

        With a `title`, its words break ties: among millions of records a common
        surname in one year matches thousands, and the one sharing some of the
        cited title's words (even a corrupted title) is the one to look at first.
        """
        keys = [s for s in dict.fromkeys(surnames) if s][:MAX_SURNAMES]
        if not keys:
            return []
        # The works of the rarest surnames are read, within `PASS_POSTINGS`; a commoner one (a Wang, a Li
        # among millions of works) then only ranks them: a work only common names share is the first
        # pass's to find by its title.
        by_rarity = sorted(keys, key=lambda s: self.doc_freq(s, "surname"))
        surname_df = [self.doc_freq(s, "surname") for s in by_rarity]
        reach = 1 + _within(surname_df[1:], PASS_POSTINGS - surname_df[0])
        # The other cited surnames, then the title words, rarest first within `AUTHOR_PASS_POSTINGS`: a
        # co-author tells the cited team's works from the rest of a common name's, the words only break
        # ties among them; a word in more than `common_df` titles ("of", "learning") never counts.
        scored_names = reach + _within(surname_df[reach:], AUTHOR_PASS_POSTINGS)
        spent = sum(surname_df[reach:scored_names])
        common = self.common_df()
        words = list(dict.fromkeys(index_tokens(title or "")))[:MAX_TITLE_TERMS]
        scored = sorted((t for t in words if 0 < self.doc_freq(t) <= common), key=self.doc_freq)
        terms = scored[: _within([self.doc_freq(t) for t in scored], AUTHOR_PASS_POSTINGS - spent)]
        return self.author_pass(by_rarity[:reach], year, terms, limit, by_rarity[reach:scored_names])
