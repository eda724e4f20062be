"""The venue knowledge base: what a venue string is, and which list says so.

A cited venue is either recognised as a specific known venue, or it is not; only a
recognised venue can contradict the venue of a work (DESIGN.md, "Accuse on what a
source knows"). Three lists, each saying what it holds:

- the venue table (`data/venues.tsv`): the major computer-science venues with their
  aliases, acronyms and abbreviations;
- the journal list (`data/journals.tsv.gz`, compiled by scripts/build_venues.py from
  JabRef's abbreviation lists, CC0): about 43,000 journals by full name and their
  ISO 4, MEDLINE and MathSciNet abbreviations;
- the store's venue names, given at run time: DBLP's journal names and booktitles
  ("Computers & OR", "JASIST", "SC") and the proceedings titles of its conference
  volumes, ACL Anthology volumes, and whatever else the local store holds.

A name and a listed name are the same venue when they share a structural key
(`venue_keys`): folded words without "Proceedings of the", years, ordinals in
words or digits, societies, places and dates, page ranges and volume tails, so
that "Proceedings of the Twenty-First International Conference on Machine
Learning" is ICML and "2011 IEEE 17th international conference on parallel and
distributed systems" is the ICPADS of the store. Each listed venue has ids in the
namespace of its list ("table:icml", "journal:1234", "store:nips"); two venues
differ only where they have ids in a common list and share none of them.
"""

from __future__ import annotations

import gc
import gzip
import math
import re
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources

from rapidfuzz import fuzz

from citetracer.data import lines
from citetracer.normalize.text import tokens
from citetracer.normalize.venues import venue_id, venue_kind

#: The lists, by namespace, as the rationale names them.
LIST_NAMES = {
    "table": "the venue table",
    "journal": "the journal list (JabRef, ~43,000 journals)",
    "store": "the local store's venue names",
}
#: Words that frame a conference name without naming which one.
_CONFERENCE_FRAME = frozenset(
    "proceedings proc the of in annual international intl volume vol part companion joint "
    "ieee acm cvf usenix siam aaai ifip sigplan sigmod sigkdd sigir sigchi sigops sigarch sigsac "
    "association computing machinery computer society press".split()
)
#: Words that mark a name as that of a meeting (then the conference frame applies).
_MEETING = frozenset("conference conferences symposium symposia workshop workshops meeting congress colloquium".split())
_JOURNAL_FRAME = frozenset("the of and in".split())
_TENS = frozenset("twenty thirty forty fifty sixty seventy eighty ninety hundred hundredth".split())
_ORDINAL_WORDS = frozenset(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth fortieth "
    "fiftieth sixtieth seventieth eightieth ninetieth".split()
)
_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
_NUMBERISH = re.compile(r"^(\d+(st|nd|rd|th)?|[ivxlc]+)$")
_PAREN = re.compile(r"\(([^()]*)\)")
#: Tails that are not part of a venue's name: "..., pages 1-8", "vol. 12", "LNCS 1234", "Part II".
_TAIL = re.compile(
    r"(^|,|\s)\s*(pp\.?|pages?|vol\.?|volume|no\.?|number|part|lncs|lnai|ccis)\s*[\divxlc]+.*$", re.IGNORECASE
)
#: "Workshop on X at Y" / "co-located with Y": the workshop is the venue.
_HOSTED = re.compile(r"\s(at|@|co-located with|colocated with|in conjunction with|held with)\s.*$", re.IGNORECASE)


def _is_number(word: str) -> bool:
    return bool(_NUMBERISH.match(word)) and (word[0].isdigit() or len(word) <= 4)


def _segments(name: str) -> list[str]:
    """The comma-separated parts of a name that say which venue it is: a part after the first that
    holds no venue word (a place, a date, a publisher) is left out."""
    parts = [p.strip() for p in re.split(r"[,;]", name) if p.strip()]
    if len(parts) <= 1:
        return parts
    keep = [parts[0]]
    for part in parts[1:]:
        words = set(tokens(part))
        if words & _MEETING or {"journal", "transactions", "letters"} & words:
            keep.append(part)
    return keep


@cache
def venue_keys(name: str) -> tuple[str, ...]:
    """Structural keys of a venue name, most specific first; equal keys mean the same venue.

    Each is the name's folded words without boilerplate: for a meeting, "Proceedings of the",
    ordinals (also in words: "Twenty-First"), years, societies, "Annual", "International",
    months, places and tails after the name; for a journal only the small words. A bracketed
    acronym gives a key of its own."""
    if not name or not name.strip():
        return ()
    text = _TAIL.sub("", name)
    text = _HOSTED.sub("", text) if "workshop" in text.lower() else text
    bracketed = [b for b in _PAREN.findall(text) if b.strip()]
    base = _PAREN.sub(" ", text)
    keys: list[str] = []
    for part in [" ".join(_segments(base)), base, *bracketed]:
        key = _key(part)
        if key and key not in keys:
            keys.append(key)
    return tuple(keys)


def _key(text: str) -> str:
    words = tokens(text)
    meeting = bool(set(words) & _MEETING) or "proceedings" in words or "proc" in words
    frame = _CONFERENCE_FRAME if meeting else _JOURNAL_FRAME
    kept = [
        w
        for w in words
        if w not in frame
        and not _is_number(w)
        and w not in _ORDINAL_WORDS
        and w not in _TENS
        and not (meeting and w in _MONTHS)
    ]
    if not kept and words:
        kept = [w for w in words if not _is_number(w)]
    return " ".join(kept)


@dataclass(frozen=True)
class Venue:
    """A recognised venue: its ids (namespace:id), a name to show, its kind, and the lists that know it."""

    ids: frozenset[str]
    name: str
    kind: str | None
    lists: tuple[str, ...]

    def namespaces(self) -> set[str]:
        return {i.split(":", 1)[0] for i in self.ids}


#: A listed name: (venue id "namespace:id", the name as listed, its kind).
_Entry = tuple[str, str, str | None]


#: Cited venue names whose nearest listed name is remembered at once (a few MB at most).
NEAREST_MEMO_SIZE = 20_000


@dataclass(frozen=True, slots=True)
class _Lists:
    """The packaged lists (the venue table, then the journal list) and their key index, read once per process
    and shared read-only by every knowledge base: a web server's two checkers, a scan worker's threads and each
    `Checker` a program opens would otherwise read and index the same 90,000 names again (0.4 s each)."""

    entries: tuple[_Entry, ...] = ()
    keys: tuple[tuple[str, ...], ...] = ()
    by_key: Mapping[str, tuple[int, ...]] = field(default_factory=dict)


#: Held while the shared lists or their word index are built, so that threads starting together read them once.
_LISTS_LOCK = threading.Lock()


def packaged_lists() -> _Lists:
    """The packaged lists, read on the first call in this process (the collector paused: see
    `_collector_paused`) and the same object at every later one. Read-only."""
    with _LISTS_LOCK:
        return _read_lists()


@cache
def _read_lists() -> _Lists:
    with _collector_paused():
        entries: list[_Entry] = []
        keys: list[tuple[str, ...]] = []
        by_key: dict[str, list[int]] = {}
        for line in lines("venues.tsv"):
            vid, kind, aliases = line.split("\t", 2)
            for alias in aliases.split("|"):
                name = alias.strip()
                _index(entries, keys, by_key, (f"table:{vid.strip()}", name, kind.strip()), listed_keys(name))
        _index_journals(entries, keys, by_key)
        # Positions as tuples: the collector leaves a tuple of ints alone, and scans every list at each full pass.
        return _Lists(tuple(entries), tuple(keys), {k: tuple(v) for k, v in by_key.items()})


def _index(
    entries: list[_Entry],
    keys: list[tuple[str, ...]],
    by_key: dict[str, list[int]],
    entry: _Entry,
    name_keys: tuple[str, ...],
) -> None:
    """List one packaged name under its structural keys."""
    n = len(entries)
    entries.append(entry)
    keys.append(name_keys)
    for key in name_keys:
        by_key.setdefault(key, []).append(n)


def _packaged_words() -> Mapping[str, tuple[int, ...]]:
    """Word -> packaged names holding it in their first key (for `VenueKB.nearest`), built on first use, once per
    process. Read-only."""
    with _LISTS_LOCK:
        return _read_words()


@cache
def _read_words() -> dict[str, tuple[int, ...]]:
    return _word_index(_read_lists().keys, 0)


def _word_index(all_keys: Iterable[tuple[str, ...]], start: int) -> dict[str, tuple[int, ...]]:
    """Word -> positions (from `start`) of the names holding it in their first key, in order."""
    by_word: defaultdict[str, list[int]] = defaultdict(list)
    with _collector_paused():
        for n, name_keys in enumerate(all_keys, start):
            if name_keys:
                for word in set(name_keys[0].split()):
                    by_word[word].append(n)
        return {w: tuple(ns) for w, ns in by_word.items()}


@dataclass
class VenueKB:
    """The lists and their key index. `store_names` yields (store venue key, name) pairs on first use.

    The packaged lists are shared by every instance (`packaged_lists`); an instance holds only its store's names,
    numbered after the packaged ones, so that a name's position is one number whichever list holds it."""

    store_names: Callable[[], Iterable[tuple[str, str]]] | None = None
    #: The packaged lists once loaded (shared, read-only).
    _lists: _Lists = field(default_factory=_Lists)
    #: The store's names, their keys and key index (positions counted after the packaged names).
    _entries: list[_Entry] = field(default_factory=list)
    _by_key: dict[str, list[int]] = field(default_factory=dict)
    _by_word: dict[str, tuple[int, ...]] = field(default_factory=dict)
    _keys: list[tuple[str, ...]] = field(default_factory=list)
    _store_loaded: bool = False
    _loaded: bool = False
    #: `nearest`'s answers by the cited name's key and limit: a pure function of the key while the lists
    #: stay as they are (a paper names the same venues again and again), so cleared whenever a name is listed.
    _nearest: dict[tuple[str, int], str | None] = field(default_factory=dict)
    #: Listed store names whose kind is not worked out yet (`_kind`): most are never asked about, and
    #: reading the kind of every name of a large store was a tenth of a short run.
    _kind_unknown: set[int] = field(default_factory=set)

    def _load(self) -> None:
        """Take the packaged lists (on first use: a citation that raises no venue question costs nothing),
        then read the store's names."""
        if self._loaded and (self._store_loaded or self.store_names is None):
            return
        if not self._loaded:
            self._lists = packaged_lists()
            self._loaded = True
        with _collector_paused():
            self._load_store()

    def _add(self, vid: str, name: str, kind: str | None, kind_later: bool = False) -> None:
        """List one store name, found by its structural keys without a bracketed acronym (a listed
        "Comput Graph (ACM)" is no venue called "ACM")."""
        n = len(self._lists.entries) + len(self._entries)
        name_keys = listed_keys(name)
        self._entries.append((vid, name, kind))
        if kind_later:
            self._kind_unknown.add(n)
        self._keys.append(name_keys)
        for key in name_keys:
            self._by_key.setdefault(key, []).append(n)
        self._by_word.clear()  # rebuilt by the next nearest()
        self._nearest.clear()

    def _words(self) -> dict[str, tuple[int, ...]]:
        """Word -> listed store names holding it (for `nearest`), built on first use."""
        if not self._by_word and self._keys:
            self._by_word = _word_index(self._keys, len(self._lists.entries))
        return self._by_word

    def _load_store(self) -> None:
        if self._store_loaded or self.store_names is None:
            return
        self._store_loaded = True
        for key, name in self.store_names():
            if key and name:
                self._add(f"store:{key}", name, None, kind_later=True)

    def _listed(self, key: str) -> list[int]:
        """Positions of the listed names (packaged, then the store's) that have structural key `key`."""
        return [*self._lists.by_key.get(key, ()), *self._by_key.get(key, ())]

    def _name_keys(self, n: int) -> tuple[str, ...]:
        base = len(self._lists.keys)
        return self._lists.keys[n] if n < base else self._keys[n - base]

    def _entry(self, n: int) -> _Entry:
        """The `n`th listed name, a store name's kind worked out on first use (`venue_kind` of the name, as listed)."""
        base = len(self._lists.entries)
        if n < base:
            return self._lists.entries[n]
        if n in self._kind_unknown:
            self._kind_unknown.discard(n)
            vid, name, _ = self._entries[n - base]
            self._entries[n - base] = (vid, name, venue_kind(name))
        return self._entries[n - base]

    def lists(self) -> list[str]:
        """The lists this knowledge base searches, as a rationale names them."""
        names = [LIST_NAMES["table"], LIST_NAMES["journal"]]
        return [*names, LIST_NAMES["store"]] if self.store_names is not None else names

    def recognise(self, name: str | None) -> Venue | None:
        """The known venue `name` names, or None when no list knows it."""
        if not name or not name.strip():
            return None
        self._load()
        hits: list[_Entry] = []
        for key in venue_keys(name):
            hits.extend(self._entry(i) for i in self._listed(key))
        table = venue_id(name)
        ids = {h[0] for h in hits}
        if table is not None:
            ids.add(f"table:{table}")
        if not ids:
            return None
        first = hits[0] if hits else None
        kind = venue_kind(name) or (first[2] if first else None)
        shown = first[1] if first else name
        spaces = sorted({i.split(":", 1)[0] for i in ids}, key=list(LIST_NAMES).index)
        return Venue(frozenset(ids), shown, kind, tuple(LIST_NAMES[s] for s in spaces))

    def journal_named(self, name: str) -> bool:
        """Whether `name` is, word for word (case, small words and "&" aside), the name of a journal of the lists,
        in two words or more: "Environmental Modelling & Software", "IEEE Software" and "Scientific Data" are
        journals whatever their names say, while a lone "Software" or "Data" is what a citation of a thing says,
        and a name merely like a listed one ("Software" for "Software, Environments, and Tools") is not one."""
        key = _key(name or "")
        if len(key.split()) < 2:
            return False
        self._load()
        return any(
            entry[2] == "journal" and _key(entry[1]) == key for entry in (self._entry(i) for i in self._listed(key))
        )

    def nearest(self, name: str, limit: int = 3000) -> str | None:
        """A listed venue name that `name` could be a way of writing (cut short, abbreviated, with
        other framing), or None: then nothing in the lists is close to it."""
        self._load()
        memo_key = (_key(name), limit)
        if memo_key not in self._nearest:
            if len(self._nearest) >= NEAREST_MEMO_SIZE:  # a server checks for months: the memo may not grow with it
                self._nearest.clear()
            self._nearest[memo_key] = self._nearest_uncached(memo_key[0], limit)
        return self._nearest[memo_key]

    def _nearest_uncached(self, key: str, limit: int) -> str | None:
        """`nearest` for a cited name's key: everything it looks at is the key's words and the lists."""
        packaged, store = _packaged_words(), self._words()
        cited = key.split()
        words = [w for w in set(cited) if w in packaged or w in store]
        if not words:
            return None
        total = len(self._lists.entries) + len(self._entries) or 1
        scores: dict[int, float] = {}
        for w in words:
            postings = [*packaged.get(w, ()), *store.get(w, ())]
            idf = math.log(1 + total / len(postings))
            for n in postings:
                scores[n] = scores.get(n, 0.0) + idf
        # Best first, ties in the order first scored (a reversed sort keeps that order), no call per name.
        best = sorted(scores, key=scores.__getitem__, reverse=True)[:limit]
        shape = _topical_shape(key)
        for n in best:
            listed = self._name_keys(n)
            if listed and _may_be_alike(shape, _topical_shape(listed[0])):
                if alike_names(cited, listed[0].split(), listed_kind=self._entry(n)[2]):
                    return self._entry(n)[1]
        return None


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while the lists are read or indexed: a hundred thousand new
    tuples and lists, none in a cycle, that it would otherwise scan again and again (three full collections
    in the middle of a HALLMARK run's first venue question; see also store/bulk.py)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _index_journals(entries: list[_Entry], keys: list[tuple[str, ...]], by_key: dict[str, list[int]]) -> None:
    """List every name of the journal list (journal id, name, structural keys, as compiled by
    scripts/build_venues.py: names that share an abbreviation are one journal, one id), as `_index` lists a name.

    One loop, `_index` written out: ninety thousand names read through a list of rows and a call each took a
    third of the lists' loading, itself a tenth of a HALLMARK run."""
    raw = resources.files("citetracer.data").joinpath("journals.tsv.gz").read_bytes()
    n = len(entries)
    for line in gzip.decompress(raw).decode("utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        gid, name, joined = line.split("\t")
        name_keys = tuple(filter(None, joined.split("|")))
        entries.append(("journal:" + gid, name, "journal"))
        keys.append(name_keys)
        for key in name_keys:
            positions = by_key.get(key)
            if positions is None:
                by_key[key] = [n]
            else:
                positions.append(n)
        n += 1


@cache
def packaged_kb() -> VenueKB:
    """The knowledge base of the packaged lists alone (no store): built once per process."""
    return VenueKB()


def listed_keys(name: str) -> tuple[str, ...]:
    """The keys a listed name is found by: its structural keys without the bracketed ones."""
    bracket_free = _PAREN.sub(" ", name)
    return tuple(k for k in venue_keys(name) if k in venue_keys(bracket_free) or not _PAREN.search(name))


#: Words that say what kind of venue a name is, or frame it, without saying which one.
_KIND = frozenset(
    "journal transactions letters review reviews magazine bulletin annals conference symposium "
    "workshop meeting congress series notes on for and in of the international annual "
    "ieee acm cvf siam usenix ifip aaai "
    # their ISO 4 abbreviations
    "j trans lett rev mag bull ann conf symp proc int intl".split()
)
_JOURNAL_KIND = frozenset("journal transactions letters review reviews magazine bulletin annals j trans lett".split())
_MEETING_KIND = _MEETING | {"conf", "symp", "proc"}


def _abbreviates(short: str, full: str) -> bool:
    return (full.startswith(short) and len(short) >= 3) or short == full


def _kind_of(words: list[str]) -> str | None:
    present = set(words)
    if present & _MEETING_KIND:
        return "meeting"
    if present & _JOURNAL_KIND:
        return "journal"
    return None


def close_names(
    cited: list[str], listed: list[str], cut: bool = True, listed_kind: str | None = None, one_word: bool = False
) -> bool:
    """Whether a cited venue's key words can be a way of writing a listed venue's: the same name
    with a typo, abbreviated word by word, with an acronym for a run of its words ("OR" for
    "Operations Research"), or (with `cut`) cut short after its first words. A word the listed name
    lacks ("Conference on Quantum Machine Learning" against "... on Machine Learning"), a word
    skipped inside it, or another kind of venue (a symposium against a journal) is another venue. With
    `one_word`, a name cut short after its first topical word ("Journal of the Association") counts too:
    it is like the listed name, though it cannot say which of several it is."""
    if not cited or not listed:
        return False
    kinds = (_kind_of(cited), _kind_of(listed) or {"journal": "journal", None: None}.get(listed_kind, "meeting"))
    if None not in kinds and kinds[0] != kinds[1]:
        return False
    topical_cited = [w for w in cited if w not in _KIND]
    topical_listed = [w for w in listed if w not in _KIND]
    if not topical_cited or not topical_listed:
        return False
    if (
        len(topical_cited) == len(topical_listed)
        and fuzz.ratio(" ".join(topical_cited), " ".join(topical_listed)) >= 90
    ):
        return True  # a typo
    return _consecutive(topical_cited, topical_listed, cut) and (
        len(topical_cited) >= 2 or len(topical_listed) == 1 or (one_word and cut)
    )


#: Words a journal's longer name inserts into its shorter one without naming another venue: its place
#: ("of London"), a series or section letter ("A", "Series B").
_INSERTED = frozenset("london america american british royal series section part new".split())


def extends(longer: list[str], shorter: list[str]) -> bool:
    """Whether a venue name is another one with words added (an extension: "Philosophical Transactions of
    the Royal Society of London A: Mathematical, Physical and Engineering Sciences" for "Philosophical
    Transactions of the Royal Society A"): the shorter name's topical words, two or more, open the
    longer one's, in order, with only a place or a series letter between them, and anything after them
    (a subtitle). A topic word put inside a name ("... on Quantum Machine Learning") or before it names
    another venue."""
    short = [w for w in shorter if w not in _KIND]
    long_ = [w for w in longer if w not in _KIND]
    if len(short) < 2 or len(long_) <= len(short) or not _abbreviates(short[0], long_[0]):
        return False
    i = 1
    for w in short[1:]:
        while i < len(long_) and not _abbreviates(w, long_[i]) and (long_[i] in _INSERTED or len(long_[i]) == 1):
            i += 1
        if i >= len(long_) or not _abbreviates(w, long_[i]):
            return False
        i += 1
    return True


def alike_names(cited: list[str], listed: list[str], listed_kind: str | None = None) -> bool:
    """Whether a cited venue's key words are like a listed venue's of the same kind: written another way
    (`close_names`: a typo, abbreviated, an acronym, cut short, even after one topical word) or either
    name the other with words added (`extends`). A name like none listed is the only kind of venue
    name a list can show invented."""
    kinds = (_kind_of(cited), _kind_of(listed) or {"journal": "journal", None: None}.get(listed_kind, "meeting"))
    if None not in kinds and kinds[0] != kinds[1]:
        return False
    return (
        close_names(cited, listed, listed_kind=listed_kind, one_word=True)
        or close_names(listed, cited, cut=False)
        or extends(cited, listed)
        or extends(listed, cited)
    )


def alike_venues(cited: str, found: str) -> bool:
    """Whether two venue names, as written, are alike (`alike_names` on their first keys): how a name a list of
    venues answered is read against the cited one, by the collector deciding what to ask and by the judge."""
    ka, kb = (venue_keys(cited) or ("",))[0].split(), (venue_keys(found) or ("",))[0].split()
    return alike_names(ka, kb)


@lru_cache(maxsize=65536)
def _topical_shape(key: str) -> tuple[int, str]:
    """How many topical words (not in _KIND) a venue key has, and the first letter of the first one."""
    topical = [w for w in key.split() if w not in _KIND]
    return len(topical), topical[0][0] if topical else ""


def _may_be_alike(cited: tuple[int, str], listed: tuple[int, str]) -> bool:
    """A cheap bound on `alike_names` by the names' `_topical_shape`: each of its tests needs topical words on
    both sides, and either as many of them (a typo) or the same first letter (every other way of writing a
    name keeps its first topical word's initial: an abbreviation, an acronym, a cut, an extension).
    `nearest` tries thousands of listed names for one cited name; this skips nearly all of them."""
    return bool(cited[0] and listed[0]) and (cited[0] == listed[0] or cited[1] == listed[1])


def _consecutive(cited: list[str], listed: list[str], cut: bool) -> bool:
    """Every cited word, in order, abbreviates the next listed word or is the initials of the next
    run of listed words; with `cut`, listed words may be left over at the end (a name cut short)."""
    if not cited:
        return cut or not listed
    if not listed:
        return False
    word = cited[0]
    if _abbreviates(word, listed[0]) and _consecutive(cited[1:], listed[1:], cut):
        return True
    for n in range(2, min(len(word), 6) + 1):
        run = listed[:n]
        if len(run) == n and "".join(w[0] for w in run) == word and _consecutive(cited[1:], listed[n:], cut):
            return True
    return False
