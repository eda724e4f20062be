"""Person names: parsing the common written forms and comparing them tolerantly.

Parsing follows BibTeX's rules ("Last, First", "Last, Jr, First",
"First von Last", "and others"), which also cover "First Last" strings from
JSON records. Comparison accepts exactly the variations an honest author or a
database introduces: initials, missing middle names, diacritics, particle
placement ("van de Meent" / "Meent"), hyphenation, family-first order and
DBLP homonym numbers ("Wei Wang 0001").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from rapidfuzz.distance import OSA

from citetracer.data import lexicon, lines
from citetracer.normalize.text import fold, latex_to_text
from citetracer.records import Person

_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_HOMONYM = re.compile(r"\s+\d{4}$")
_SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}
_OTHERS = {"others", "et al", "et al.", "etal", "and others", "al."}


@lru_cache(maxsize=1)
def _particles() -> frozenset[str]:
    return frozenset(lines("name_particles.txt"))


def particles() -> frozenset[str]:
    """Name particles (van, de, da, von, ...), lower-case, from data/name_particles.txt."""
    return _particles()


def split_top_level(text: str, sep: re.Pattern[str]) -> list[str]:
    """Split at separators outside braces (BibTeX protects '{Barnes and Noble}')."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            m = sep.match(text, i)
            if m and m.end() > i:
                parts.append(text[start:i])
                start = i = m.end()
                continue
        i += 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _words(text: str) -> list[str]:
    return split_top_level(text, re.compile(r"\s+"))


def _is_lower_word(word: str) -> bool:
    stripped = latex_to_text(word).lstrip("{\\'\"`^~")
    return bool(stripped) and stripped[0].islower()


@cache
def _collective() -> frozenset[str]:
    """Last words of collective authors' names (data/lexicon/collective.txt)."""
    return lexicon.words("collective")


def _collective_word(word: str) -> bool:
    """Whether a name's last word names a collective ("Team", "Consortium", "Inc.")."""
    return latex_to_text(word).lower().strip(".,") in _collective()


def is_collective(person: Person) -> bool:
    """Whether a name is a collective author's ("Vemeko FPGA Team", "R Core Team"), however a parser
    split it into given and family names: not a person."""
    last = (person.family or "").split()[-1:]
    return bool(last) and _collective_word(last[0])


def parse_person(text: str) -> Person | None:
    """One name in any of BibTeX's three forms, or None for an empty string."""
    text = _HOMONYM.sub("", text.strip().rstrip(","))
    if not text:
        return None
    parts = split_top_level(text, re.compile(r"\s*,\s*"))
    if len(parts) >= 2:
        family = parts[0]
        given = parts[-1] if len(parts) >= 2 else ""
        family_text, given_text = latex_to_text(family), latex_to_text(given)
        return Person(given=given_text or None, family=family_text)
    words = _words(text)
    if len(words) >= 2 and _collective_word(words[-1]):
        return Person(given=None, family=latex_to_text(" ".join(words)))  # "R Core Team": one author, named whole
    if len(words) > 2 and words[-1].lower().rstrip(".") in _SUFFIXES:
        words = words[:-1]  # "John Smith Jr." -> the suffix is not the family name
    if len(words) == 1:
        return Person(given=None, family=latex_to_text(words[0]))
    # First von Last: the von part starts at the first lower-case word (not the last word).
    von_start = next((i for i, w in enumerate(words[:-1]) if i > 0 and _is_lower_word(w)), None)
    if von_start is not None:
        given_words, family_words = words[:von_start], words[von_start:]
    else:
        given_words, family_words = words[:-1], words[-1:]
    return Person(
        given=latex_to_text(" ".join(given_words)) or None,
        family=latex_to_text(" ".join(family_words)),
    )


def parse_people(text: str) -> tuple[list[Person], bool]:
    """A BibTeX author list; the flag says it ended in 'and others' / 'et al.'."""
    people: list[Person] = []
    truncated = False
    for chunk in split_top_level(text, _AND):
        if chunk.strip().lower().strip("{} ") in _OTHERS:
            truncated = True
            continue
        if re.search(r"\bet\.?\s*al\.?$", chunk, re.IGNORECASE):
            truncated = True
            chunk = re.sub(r",?\s*\bet\.?\s*al\.?$", "", chunk, flags=re.IGNORECASE)
        person = parse_person(chunk)
        if person is not None:
            people.append(person)
    return people, truncated


# ------------------------------------------------------------------ comparison


@lru_cache(maxsize=65536)
def _name_tokens(text: str) -> tuple[str, ...]:
    return tuple(t for t in re.split(r"[^0-9a-z]+", fold(text)) if t)


@dataclass(frozen=True, slots=True)
class NameKeys:
    """Comparison keys of one written name, computed once per distinct name (slots: the caches hold tens of
    thousands, and the garbage collector scans each instance dictionary at every full collection)."""

    full: str  # family name, folded, particles kept: "vandemeent"
    core: str  # family name without leading particles: "meent"
    given: tuple[str, ...]  # given-name tokens, initials written together expanded
    whole: str  # given + family as one string, for names split differently
    family: tuple[str, ...] = ()  # family-name tokens: "canton ferrer" for "Canton-Ferrer"


def _family_core(toks: tuple[str, ...]) -> list[str]:
    particles = _particles()
    core = list(toks)
    while len(core) > 1 and core[0] in particles:
        core.pop(0)
    return core


@lru_cache(maxsize=131072)
def surname_keys(family: str) -> tuple[str, ...]:
    """The distinct keys of a family name, as `family_keys` gives them: the full key, then the core one.

    Ranking reads the surnames of many stored records whose given names do not matter:
    this skips the given-name work of `name_keys`.
    """
    toks = _name_tokens(family)
    while len(toks) > 1 and toks[-1] in _SUFFIXES:
        toks = toks[:-1]
    return tuple(k for k in dict.fromkeys(("".join(toks), "".join(_family_core(toks)))) if k)


@lru_cache(maxsize=131072)
def _keys(given: str | None, family: str) -> NameKeys:
    toks = _name_tokens(family)
    while len(toks) > 1 and toks[-1] in _SUFFIXES:
        toks = toks[:-1]  # "Daumé III", "King Jr": a generation suffix is not part of the family name
    given_toks = _name_tokens(given) if given else ()
    if toks and all(t in _SUFFIXES for t in toks) and given_toks:
        toks, given_toks = given_toks[-1:], given_toks[:-1]  # "Hal Daumé" + "III" split at the suffix
    core = _family_core(toks)
    stripped = (given or "").strip()
    if len(given_toks) == 1 and 2 <= len(stripped) <= 3 and stripped.isupper():
        given_toks = tuple(given_toks[0])  # "JW" for "Jan-Willem"
    full = "".join(toks)
    return NameKeys(full=full, core="".join(core), given=given_toks, whole="".join(given_toks) + full, family=toks)


def name_keys(person: Person) -> NameKeys:
    return _keys(person.given, person.family)


def family_keys(person: Person) -> tuple[str, str]:
    """Full family key and the key without leading particles ('vandemeent', 'meent')."""
    k = name_keys(person)
    return k.full, k.core


@cache
def _nickname_table() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """(name -> its nicknames, nickname -> the names it shortens) from data/nicknames.tsv."""
    nicks: dict[str, set[str]] = {}
    formal: dict[str, set[str]] = {}
    for line in lines("nicknames.tsv"):
        name, nick = line.split("\t")
        nicks.setdefault(name, set()).add(nick)
        formal.setdefault(nick, set()).add(name)
    return (
        {k: frozenset(v) for k, v in nicks.items()},
        {k: frozenset(v) for k, v in formal.items()},
    )


@lru_cache(maxsize=65536)
def is_nickname(a: str, b: str) -> bool:
    """Whether the table pairs two folded given names: one a nickname of the other, or both
    nicknames of one name ("Bill" and "Will", both of William)."""
    if a == b:
        return False
    nicks, formal = _nickname_table()
    if b in nicks.get(a, ()) or a in nicks.get(b, ()):
        return True
    if _diminutive(a, b, nicks) or _diminutive(b, a, nicks):
        return True
    return bool(formal.get(a, frozenset()) & formal.get(b, frozenset()))


#: The endings by which English forms a pet name from the head of a given name ("Kat-ie" of Katherine, "Jenn-y" of
#: Jennifer, "Sam-my" of Samantha, "Mar-i" of Maria): the nickname table lists many such forms, not all.
_DIMINUTIVE_ENDINGS = ("ie", "ey", "y", "i")


def _diminutive(short: str, full: str, nicks: dict[str, frozenset[str]]) -> bool:
    """Whether `short` is a pet name made from the head of `full` (three letters or more, its last consonant
    doubled or not) and a diminutive ending, where `full` is a given name the nickname table knows and runs three
    letters or more past that head: a regular form of the language, where a cut with no ending ("Kat", "Lin") is no
    convention at all, and two spellings of one short name ("Cory", "Corey") are not a name and its pet form."""
    if full not in nicks or len(short) >= len(full):
        return False
    for ending in _DIMINUTIVE_ENDINGS:
        stem = short[: -len(ending)]
        if not short.endswith(ending) or len(stem) < 3:
            continue
        stems = {stem, stem[:-1]} if len(stem) >= 4 and stem[-1] == stem[-2] else {stem}
        if any(full.startswith(s) and len(full) >= len(s) + 3 for s in stems):
            return True
    return False


def _token_compatible(a: str, b: str) -> bool:
    """Given-name words that may denote one person: equal, an initial, or a nickname the table pairs
    ("Dan" / "Daniel", "Bill" / "William"). A word cut short where no convention explains it ("Lin" for
    "Linchao") is not: an honest author writes the name, its initial or its nickname (issue 46)."""
    if a == b:
        return True
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    return is_nickname(a, b)


def _given_compatible(ta: tuple[str, ...], tb: tuple[str, ...]) -> bool:
    if not ta or not tb:
        return True
    return _token_compatible(ta[0], tb[0]) or "".join(ta) == "".join(tb)


def given_compatible(a: Person, b: Person) -> bool:
    """Given names that could denote the same person (initials, missing middle names)."""
    return _given_compatible(name_keys(a).given, name_keys(b).given)


class NameMatch:
    SAME = "same"  # same person, possibly written differently
    GIVEN_CONFLICT = "given_conflict"  # same family name, incompatible given names
    VARIANT = "variant"  # a family name spelt one letter differently, or cut short, with compatible given names
    DIFFERENT = "different"


def _compare_keys(a: NameKeys, b: NameKeys) -> str:
    if a.full and (a.full in (b.full, b.core) or a.core in (b.core, b.full)):
        return NameMatch.SAME if _given_compatible(a.given, b.given) else NameMatch.GIVEN_CONFLICT
    if _swapped(a, b) or _swapped(b, a):
        return NameMatch.SAME
    # Given and family written as one word in one source ("Yunhao" "Tang" vs "Yunhaotang").
    if len(a.whole) > 5 and a.whole == b.whole:
        return NameMatch.SAME
    if _compound_split(a, b) or _compound_split(b, a):
        return NameMatch.SAME
    return NameMatch.DIFFERENT


def _swapped(a: NameKeys, b: NameKeys) -> bool:
    """Family-first order read as given-first: "Zhang Wei" for "Wei Zhang", "Le Quoc" for "Quoc V. Le",
    "L. Fei-Fei" for "Fei-Fei Li" (the given name `a` shows is `b`'s family name, or its initial)."""
    if not a.given or not b.given or not a.full or not b.full:
        return False
    b_first = b.given[0]
    family_as_given = a.full in ("".join(b.given), b_first)
    if not family_as_given:
        return False
    a_given = "".join(a.given)
    return a_given == b.full or (len(a.given[0]) == 1 and a.given[0] == b.full[0] and len(a.given) == 1)


def _compound_split(a: NameKeys, b: NameKeys) -> bool:
    """A compound family name one source splits ("C. Canton-Ferrer" vs "Cristian Canton Ferrer")."""
    if len(a.family) < 2 or a.family[-1] != b.full or len(b.given) < 2:
        return False
    lead = a.family[:-1]
    return tuple(b.given[-len(lead) :]) == lead and _given_compatible(a.given, b.given[: -len(lead)])


def _spelling_variant(a: NameKeys, b: NameKeys) -> bool:
    """Family names an honest typo or a cut-off record explains: one edit apart in a name of six or
    more letters ("Strivastava" / "Srivastava"), or one a prefix of the other of four or more letters
    ("Konec" / "Konecny"); the given names must agree. Different short names ("Li" / "Lu") never are."""
    x, y = a.full, b.full
    # The family names first, the given names last: a list comparison asks this of every record author
    # a cited name found no match among, and the lengths alone rule out nearly all of them.
    if not x or not y or abs(len(x) - len(y)) > 3:
        return False
    short, long_ = (x, y) if len(x) <= len(y) else (y, x)
    family = (len(short) >= 4 and long_.startswith(short)) or (
        len(short) >= 6 and OSA.distance(x, y, score_cutoff=1) <= 1
    )
    return family and _given_compatible(a.given, b.given)


def _nicknamed(a: NameKeys, b: NameKeys) -> bool:
    """Whether two names matched as one person through a nickname of the first given name."""
    if not a.given or not b.given or "".join(a.given) == "".join(b.given):
        return False
    x, y = a.given[0], b.given[0]
    return len(x) > 1 and len(y) > 1 and x != y and is_nickname(x, y)


def compare_people(a: Person, b: Person) -> str:
    return _compare_keys(name_keys(a), name_keys(b))


@dataclass(frozen=True, slots=True)
class AuthorListComparison:
    """How a cited author list relates to a candidate's (slots: see `NameKeys`)."""

    cited: int
    found: int
    matched: int
    given_conflicts: int
    in_order: bool
    #: Cited authors that match nobody in the candidate list.
    unmatched_cited: tuple[str, ...]
    #: Candidate authors nobody cited (ignoring those hidden by a truncation).
    uncited: int
    #: Cited authors beyond a record's truncated list ("... and others"): cannot be checked.
    hidden: int = 0
    #: Cited authors whose family name is a spelling variant of a record author's (typo, cut short).
    variants: int = 0
    #: Cited authors whose given name is a nickname of the record author's ("Bill" for "William").
    nicknames: int = 0

    @property
    def overlap(self) -> float:
        """Share of the checkable cited authors that are the candidate's authors."""
        checkable = self.cited - self.hidden
        return (self.matched + self.variants) / checkable if checkable else 0.0

    @property
    def complete(self) -> bool:
        """Every cited author is one of the record's, and no record author is left out."""
        return (
            self.matched + self.variants + self.hidden == self.cited
            and self.uncited == 0
            and self.matched + self.variants > 0
        )

    @property
    def coverage(self) -> float:
        return self.matched / self.found if self.found else 0.0


def _lookup(found: list[NameKeys]) -> dict[str, tuple[int, ...]]:
    table: dict[str, list[int]] = {}
    for j, k in enumerate(found):
        for key in {k.full, k.core, "".join(k.given), "=" + k.whole}:
            if key and key != "=":
                table.setdefault(key, []).append(j)
    return _sealed(table)


def _sealed(table: dict[str, list[int]]) -> dict[str, tuple[int, ...]]:
    """A lookup table kept in a cache, its positions as tuples: the garbage collector leaves a tuple of ints
    alone, and scans every list at each full collection."""
    return {key: tuple(positions) for key, positions in table.items()}


def _unkeyed_lookup(found: list[NameKeys]) -> dict[str, tuple[int, ...]]:
    """Record authors by the keys of the forms `_lookup` misses, for `_unkeyed_queries`: family-first order
    read as given-first (`_swapped`, either way round) and a compound family name split (`_compound_split`,
    either way round). Each of those ties one name's family key to the other's given names or last family
    word, so a cited name is compared with the few authors sharing such a key, not with every author of a
    long list (a collaboration's hundreds)."""
    table: dict[str, list[int]] = {}
    for j, k in enumerate(found):
        keys = {"f" + k.full}
        if k.given:
            keys |= {"g" + "".join(k.given), "g" + k.given[0]}
        if k.family:
            keys.add("g" + k.family[-1])
        for key in keys:
            table.setdefault(key, []).append(j)
    return _sealed(table)


def _unkeyed_queries(k: NameKeys) -> set[str]:
    """The keys of `_unkeyed_lookup` a record author needs for `_compare_keys` to find it the same as `k`
    by a swapped order or a split compound name."""
    queries = {"g" + k.full}
    if k.given:
        queries |= {"f" + "".join(k.given), "f" + k.given[0]}
    if k.family:
        queries.add("f" + k.family[-1])
    return queries


#: A cited name as `_compare_lists` looks it up (`_probe`): its keys, the `_lookup` keys, the `_unkeyed_queries`
#: and the `_ends` (none for a family key of under four letters, never a spelling variant) it is found by.
_Probe = tuple[NameKeys, tuple[str, ...], frozenset[str], tuple[str, ...]]


@lru_cache(maxsize=131072)
def _probe(given: str | None, family: str) -> _Probe:
    """A cited name as `_compare_lists` looks it up, worked out once per distinct name: a citation's names are
    looked up in the list of every candidate of its search."""
    k = _keys(given, family)
    ends = _ends(k.full) if len(k.full) >= 4 else ()
    return k, (k.full, k.core, "=" + k.whole), frozenset(_unkeyed_queries(k)), ends


#: A name as `compare_name_lists` takes it: (given, family) of a `Person`.
Name = tuple[str | None, str]


def compare_author_lists(
    cited: list[Person], found: list[Person], cited_truncated: bool, found_truncated: bool
) -> AuthorListComparison:
    """Match cited authors to a record's authors, one to one, preferring the same position."""
    return compare_name_lists(name_pairs(cited), name_pairs(found), cited_truncated, found_truncated)


def name_pairs(people: list[Person]) -> tuple[Name, ...]:
    """People as `compare_name_lists` and `shown_names` take them, cache keys: a tuple of strings hashes at once,
    a tuple of models field by field."""
    return tuple([(p.given, p.family) for p in people])


@lru_cache(maxsize=16384)
def shown_names(names: tuple[Name, ...]) -> str:
    """The names as a report lists them, each as `Person.display` writes it: a record's list is shown again for
    every citation it is a candidate of."""
    return "; ".join(f"{given} {family}" if given else family for given, family in names)


@lru_cache(maxsize=16384)
def compare_name_lists(
    cited: tuple[Name, ...], found: tuple[Name, ...], cited_truncated: bool, found_truncated: bool
) -> AuthorListComparison:
    """`compare_author_lists` of `name_pairs`, once per pair of lists and flags."""
    n = len(found)
    # A list ending in a one-letter "surname" ("..., Russ Bates, Z") was cut off mid-name.
    while n and len(_keys(*found[n - 1]).full) <= 1:
        n -= 1
        found_truncated = True
    # A list ending in a name cut short ("..., Keith Rush, Konec" for Konečný) was cut off there too.
    last = _keys(*found[n - 1]).full if n else ""
    if len(last) >= 3 and any(
        _keys(given, family).full.startswith(last) and _keys(given, family).full != last for given, family in cited
    ):
        found_truncated = True
    return _compare_lists(cited, found[:n], cited_truncated, found_truncated)


#: A record's author list as `_compare_lists` reads it (`_found_side`): its authors' keys, their `_lookup` table,
#: their `_unkeyed_lookup` table and their positions by the ends of their family key (`_by_ends`).
_FoundSide = tuple[list[NameKeys], dict[str, tuple[int, ...]], dict[str, tuple[int, ...]], dict[str, tuple[int, ...]]]


@lru_cache(maxsize=4096)
def _found_side(found: tuple[Name, ...]) -> _FoundSide:
    """A record's author keys and their lookup tables, worked out once per author list: one record is
    compared with many citations, and a collaboration's list runs to hundreds of names. Read-only."""
    found_keys = [_keys(given, family) for given, family in found]
    return found_keys, _lookup(found_keys), _unkeyed_lookup(found_keys), _by_ends(found_keys)


def _ends(full: str) -> tuple[str, str]:
    """The keys `_by_ends` files a family key of four letters or more under: its first two letters and its last two.

    Two family keys `_spelling_variant` pairs share one of them: one a prefix of the other shares its first
    letters; one edit apart in six letters or more (a letter changed, added, dropped or two swapped) leaves
    either the first two letters alone or, when it falls among them, the last three."""
    return "<" + full[:2], ">" + full[-2:]


def _by_ends(found: list[NameKeys]) -> dict[str, tuple[int, ...]]:
    """Record authors by the `_ends` of their family key, those of four letters or more: the only ones
    `_spelling_variant` can pair with a cited name (see `_variant_pool`)."""
    table: dict[str, list[int]] = {}
    for j, k in enumerate(found):
        if len(k.full) >= 4:
            for key in _ends(k.full):
                table.setdefault(key, []).append(j)
    return _sealed(table)


def _variant_pool(k: NameKeys, found: list[NameKeys], by_ends: dict[str, tuple[int, ...]]) -> list[int]:
    """Positions, in order, of the record authors `_spelling_variant` may find `k` a variant of: family keys of
    four letters or more (a shorter one is never a variant) sharing an end with `k`'s (`_ends`), at most three
    letters longer or shorter. Cited names that match nobody are the common case (a citation is compared with
    every candidate of its search), and trying each of them on a whole list was a third of the author
    comparison's time, then on every name of a like length still a sixth."""
    n = len(k.full)
    if n < 4:
        return []
    first, last = _ends(k.full)
    near = {*by_ends.get(first, ()), *by_ends.get(last, ())}
    return sorted(j for j in near if abs(len(found[j].full) - n) <= 3)


def _compare_lists(
    cited: tuple[Name, ...], found: tuple[Name, ...], cited_truncated: bool, found_truncated: bool
) -> AuthorListComparison:
    found_keys, table, unkeyed, by_ends = _found_side(found)
    used: set[int] = set()
    matched = conflicts = 0
    positions: list[int] = []
    unmatched: list[str] = []
    hidden = variants = nicknames = 0
    for i, (given, family) in enumerate(cited):
        k, direct, queries, ends = _probe(given, family)
        best: tuple[int, str] | None = None
        variant: int | None = None
        # A name no key of which finds a record author matches none in any way (the common case: a citation is
        # compared with every candidate of its search), and is known so at once.
        if not (
            table.keys().isdisjoint(direct) and unkeyed.keys().isdisjoint(queries) and by_ends.keys().isdisjoint(ends)
        ):
            best = _best_match(i, k, direct, queries, found_keys, table, unkeyed, used)
            if best is None:
                variant = next(
                    (
                        j
                        for j in _variant_pool(k, found_keys, by_ends)
                        if j not in used and _spelling_variant(k, found_keys[j])
                    ),
                    None,
                )
        if best is None:
            if variant is not None:
                used.add(variant)
                positions.append(variant)
                variants += 1
            elif found_truncated and i >= len(found):
                hidden += 1  # the record lists only its first authors
            else:
                unmatched.append(f"{given} {family}" if given else family)  # as `Person.display` writes it
            continue
        used.add(best[0])
        positions.append(best[0])
        if best[1] == NameMatch.SAME:
            matched += 1
            nicknames += _nicknamed(k, found_keys[best[0]])
        else:
            conflicts += 1
    uncited = 0 if cited_truncated else len(found) - len(used)
    return AuthorListComparison(
        cited=len(cited),
        found=len(found),
        matched=matched,
        given_conflicts=conflicts,
        in_order=positions == sorted(positions),
        unmatched_cited=tuple(unmatched),
        uncited=max(0, uncited),
        hidden=hidden,
        variants=variants,
        nicknames=nicknames,
    )


def _best_match(
    i: int,
    k: NameKeys,
    direct: tuple[str, ...],
    queries: frozenset[str],
    found_keys: list[NameKeys],
    table: dict[str, tuple[int, ...]],
    unkeyed: dict[str, tuple[int, ...]],
    used: set[int],
) -> tuple[int, str] | None:
    """The record author not yet `used` that the `i`th cited name `k` is (`NameMatch.SAME`, the same position
    first), else one sharing its family name with another given name (`NameMatch.GIVEN_CONFLICT`), else one
    written in a form the key table cannot see (swapped order with initials, a compound name split), or None."""
    best: tuple[int, str] | None = None
    for j in sorted({j for key in direct for j in table.get(key, ())} - used, key=lambda j: (j != i, j)):
        outcome = _compare_keys(k, found_keys[j])
        if outcome == NameMatch.SAME:
            return j, outcome
        if outcome == NameMatch.GIVEN_CONFLICT and best is None:
            best = (j, outcome)
    if best is not None:
        return best
    return next(
        (
            (j, NameMatch.SAME)
            for j in sorted({j for key in queries for j in unkeyed.get(key, ())} - used)
            if _compare_keys(k, found_keys[j]) == NameMatch.SAME
        ),
        None,
    )
