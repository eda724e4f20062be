"""Field-by-field mutations of a real record's citation, each labelled with the class it must get.

Each `Mutation` changes one field of the honest citation (`fieldrecords.base_fields`) by a
general, documented rule and says what the checker owes it:

- `H`: a fabrication the record contradicts: must be Hallucinated (caught = share H);
- `P`: an honest-looking but unexplained difference (a name cut to a fragment, a missing
  author): Potential, never Real (caught = share not Real);
- `Real`: an honest sibling, a difference of writing only: must stay Real (caught = share Real);
- `notH`: honest, though the checker may hesitate (pages of a preprint version): never
  Hallucinated (caught = share not H).

A rule returns None when it does not apply to the record (no pages, no proceedings city, no
nickname form of any author's given name, ...). Every choice is drawn from the `random.Random`
given, so a seed gives the same citations.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fieldrecords import US_STATES, Sample

Fields = dict[str, Any]

#: Recognised publishers with their writings, for "another recognised publisher".
PUBLISHERS = {
    "IEEE": ("IEEE", "IEEE Computer Society", "Institute of Electrical and Electronics Engineers"),
    "Springer": ("Springer", "Springer-Verlag", "Springer International Publishing", "Springer Berlin Heidelberg"),
    "ACM": ("ACM", "ACM Press", "Association for Computing Machinery"),
    "Elsevier": ("Elsevier",),
}
#: Other recognised publishers' names as a fabricated citation would give them.
OTHER_PUBLISHER = {"IEEE": "Springer", "Springer": "IEEE", "ACM": "Elsevier", "Elsevier": "ACM"}
#: Cities of large conferences, for "another city".
CITIES = (
    "Tokyo, Japan", "Barcelona, Spain", "Montreal, Canada", "Sydney, Australia", "Vienna, Austria",
    "Seoul, Korea", "Lisbon, Portugal", "Honolulu, Hawaii, USA", "Cape Town, South Africa",
    "Buenos Aires, Argentina", "Stockholm, Sweden", "New Orleans, Louisiana, USA",
)  # fmt: skip
#: Common English given names and a familiar short form of each ("Alex" for "Alexander").
NICKNAMES = {
    "Alexander": "Alex", "Alexandra": "Alex", "William": "Bill", "Robert": "Bob", "Michael": "Mike",
    "Richard": "Rick", "James": "Jim", "Thomas": "Tom", "Daniel": "Dan", "David": "Dave",
    "Christopher": "Chris", "Matthew": "Matt", "Andrew": "Andy", "Joseph": "Joe", "Stephen": "Steve",
    "Steven": "Steve", "Edward": "Ed", "Anthony": "Tony", "Benjamin": "Ben", "Jonathan": "Jon",
    "Nicholas": "Nick", "Samuel": "Sam", "Timothy": "Tim", "Peter": "Pete", "Charles": "Charlie",
    "Katherine": "Kate", "Elizabeth": "Liz", "Jennifer": "Jenny", "Patricia": "Pat", "Susan": "Sue",
    "Margaret": "Maggie", "Rebecca": "Becky", "Frederick": "Fred", "Gregory": "Greg", "Kenneth": "Ken",
    "Donald": "Don", "Ronald": "Ron", "Lawrence": "Larry", "Jeffrey": "Jeff", "Douglas": "Doug",
    "Philip": "Phil", "Raymond": "Ray", "Gerald": "Jerry", "Vincent": "Vince", "Zachary": "Zach",
}  # fmt: skip
#: One word of a title and a synonym an LLM rewording would put in its place.
SYNONYMS = {
    "approach": "method", "method": "technique", "methods": "techniques", "technique": "method",
    "techniques": "methods", "analysis": "examination", "study": "investigation", "novel": "new",
    "new": "novel", "fast": "quick", "improved": "enhanced", "enhanced": "improved", "robust": "resilient",
    "automatic": "automated", "automated": "automatic", "large": "big", "evaluation": "assessment",
    "problem": "task", "problems": "tasks", "efficient": "effective", "effective": "efficient",
    "scheme": "method", "algorithm": "procedure", "algorithms": "procedures", "framework": "architecture",
    "application": "use", "applications": "uses", "multiple": "several", "simple": "basic",
    "system": "platform", "systems": "platforms", "design": "construction", "model": "formulation",
    "models": "formulations", "using": "with", "based": "grounded", "towards": "on the way to",
    "optimal": "best", "detection": "identification", "improving": "enhancing",
}  # fmt: skip
#: Given and family names for a made-up author.
MADE_UP_GIVEN = ("Aria", "Jonas", "Mei", "Rahul", "Elena", "Tomasz", "Yuki", "Omar", "Lena", "Diego")
MADE_UP_FAMILY = ("Lindqvist", "Okafor", "Brennan", "Castellanos", "Nakamura", "Petrov", "Haddad", "Whitfield")
#: Real venues of another kind or field, as (entry type, venue field, name).
OTHER_VENUES = (
    ("article", "journal", "Nature"),
    ("article", "journal", "Science"),
    ("article", "journal", "The Lancet"),
    ("article", "journal", "Physical Review Letters"),
    ("inproceedings", "booktitle", "Proceedings of the International World Wide Web Conference (WWW)"),
)


@dataclass(frozen=True)
class Mutation:
    name: str
    field: str
    expect: str  # "H", "P", "Real", "notH"
    why: str
    rule: Callable[[Sample, Fields, random.Random], Fields | None]


def _pages_other(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """A wholly different range of the same length, after the record's last page (no overlap)."""
    span = s.first_last()
    if span is None:
        return None
    a, b = span
    start = b + rng.randint(20, 400)
    return {**f, "pages": f"{start}--{start + b - a}"}


def _pages_written(style: str) -> Callable[[Sample, Fields, random.Random], Fields | None]:
    def rule(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
        """The record's range written another way."""
        span = s.first_last()
        if span is None:
            return None
        a, b = span
        text = {"dash": f"{a}-{b}", "pp": f"pp. {a}-{b}", "endash": f"{a}\u2013{b}", "first": f"{a}"}[style]
        return {**f, "pages": text}

    return rule


def _article_number(style: str) -> Callable[[Sample, Fields, random.Random], Fields | None]:
    def rule(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
        """An article number where the record has a page range: a number the range does not hold."""
        span = s.first_last()
        if span is None:
            return None
        a, b = span
        n = rng.choice([x for x in range(1, 400) if not a <= x <= b])
        return {**f, "pages": {"e": f"e{n}", "article": f"Article {n}", "bare": str(n)}[style]}

    return rule


def _page_count(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """The number of pages ("12 pp.") where the record has the range."""
    span = s.first_last()
    return None if span is None else {**f, "pages": f"{span[1] - span[0] + 1} pp."}


def _preprint_pages(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """The work cited as its arXiv preprint, with the preprint's own pages (1 to the page count + a few)."""
    span = s.first_last()
    if span is None:
        return None
    out = {k: v for k, v in f.items() if k not in ("journal", "booktitle", "volume", "number", "publisher", "address")}
    return {
        **out,
        "kind": "article",
        "journal": "arXiv preprint",
        "pages": f"1--{span[1] - span[0] + 1 + rng.randint(2, 9)}",
    }


def _volume_other(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """Another volume number, 1 to 5 away from the record's."""
    if not s.volume or not s.volume.isdigit():
        return None
    v = int(s.volume)
    choices = [v + d for d in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5) if v + d >= 1]
    return {**f, "volume": str(rng.choice(choices))}


def _series_volume(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """The proceedings' series volume (LNCS 8689) given as the paper's volume, with the series."""
    if not s.series_volume or s.kind != "inproceedings":
        return None
    return {**f, "volume": s.series_volume, "series": "Lecture Notes in Computer Science"}


def publisher_family(name: str | None) -> str | None:
    """Which recognised publisher a name is a writing of (see PUBLISHERS), or None."""
    if not name:
        return None
    low = name.lower()
    for family, names in PUBLISHERS.items():
        if any(low == n.lower() for n in names) or low.startswith(family.lower() + " "):
            return family
    return None


def _publisher_other(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """Another recognised publisher than the record's (IEEE for Springer, ...)."""
    family = publisher_family(s.publisher)
    return None if family is None else {**f, "publisher": OTHER_PUBLISHER[family]}


def _publisher_writing(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """The record's publisher written as another name of the same house ("Springer-Verlag" for "Springer")."""
    family = publisher_family(s.publisher)
    if family is None:
        return None
    others = [n for n in PUBLISHERS[family] if n != s.publisher]
    return {**f, "publisher": rng.choice(others)} if others else None


def _publisher_acl(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """ "ACL" for the Association for Computational Linguistics (a record of it, or an ACL DOI)."""
    # DBLP names it "The Association for Computer Linguistics" on many ACL volumes
    acl = re.search(r"association for comput\w* linguistics", s.publisher or "", re.I)
    if acl or (s.doi or "").startswith("10.18653/"):
        return {**f, "publisher": "ACL"}
    return None


def _publisher_curran(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """Curran Associates, which prints NeurIPS and ACL proceedings, for a paper of those."""
    venue = f"{s.venue_short} {s.venue}".lower()
    # ICONIP's "Neural Information Processing" is Springer's, not the NeurIPS Foundation's
    neurips = re.search(r"neurips|neural information processing systems|\bnips\b", venue)
    if neurips or (s.doi or "").startswith("10.18653/"):
        return {**f, "publisher": "Curran Associates, Inc."}
    return None


def _location_other(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """Another conference city than the record's."""
    if not s.location:
        return None
    city = s.location.split(",")[0].strip()
    return {**f, "address": rng.choice([c for c in CITIES if not c.startswith(city)])}


def location_writing(place: str) -> str | None:
    """The same place written another way: US state name <-> postal code ("Miami, Florida, USA" <->
    "Miami, FL"), else the city alone ("Graz, Austria" -> "Graz")."""
    parts = [p.strip() for p in place.split(",")]
    codes = {v: k for k, v in US_STATES.items()}
    if len(parts) >= 2 and parts[1] in US_STATES:
        return f"{parts[0]}, {US_STATES[parts[1]]}"
    if len(parts) >= 2 and parts[1] in codes:
        return f"{parts[0]}, {codes[parts[1]]}, USA"
    return parts[0] if len(parts) >= 2 else None


def _location_writing(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """The record's city written another way (`location_writing`)."""
    other = location_writing(s.location) if s.location else None
    return {**f, "address": other} if other else None


def _location_online(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """ "Virtual" for a conference the record says was held online."""
    if s.location and re.search(r"\b(virtual|online)\b", s.location, re.I):
        return {**f, "address": "Virtual"}
    return None


def _year(delta: int) -> Callable[[Sample, Fields, random.Random], Fields | None]:
    def rule(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
        """The year field moved by `delta`; the venue names no year."""
        return {**f, "year": s.year + delta}

    return rule


def _venue_year(delta: int) -> Callable[[Sample, Fields, random.Random], Fields | None]:
    def rule(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
        """The booktitle naming the true year ("... DCW 2000"), the year field moved by `delta`."""
        if not s.booktitle_year:
            return None
        return {**f, "booktitle": s.booktitle_year, "year": s.year + delta}

    return rule


def _author_added(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """A made-up author put after the first, in a list the record's source holds whole."""
    if not s.whole:
        return None
    families = {fam.lower() for _, fam in s.authors}
    family = rng.choice([x for x in MADE_UP_FAMILY if x.lower() not in families])
    authors = list(s.authors)
    authors.insert(rng.randint(1, len(authors)), (rng.choice(MADE_UP_GIVEN), family))
    return {**f, "authors": authors}


def _author_removed_middle(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """A real author dropped from the middle of a list of three or more, with no "et al."."""
    if len(s.authors) < 3:
        return None
    i = rng.randint(1, len(s.authors) - 2)
    return {**f, "authors": s.authors[:i] + s.authors[i + 1 :]}


def _author_removed_last(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """The last author of a list of two or more dropped, with no "et al."."""
    return None if len(s.authors) < 2 else {**f, "authors": s.authors[:-1]}


def _authors_others(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """The list cut after its first one or two authors, ending "and others"."""
    if len(s.authors) < 3:
        return None
    return {**f, "authors": [*s.authors[: rng.randint(1, 2)], "others"]}


def _authors_swapped(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """The first two authors in the other order."""
    if len(s.authors) < 2:
        return None
    return {**f, "authors": [s.authors[1], s.authors[0], *s.authors[2:]]}


def _given_fragment(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """One author's given name cut to its first three letters ("Linchao" -> "Lin"), with a period one time
    in two ("Saurabh" -> "Sau."); not when the cut is a known short form of it ("Sam" of "Samuel")."""
    fit = [
        i
        for i, (given, _) in enumerate(s.authors)
        if given
        and re.fullmatch(r"[A-Z][a-z]{4,}", given.split()[0])
        and given.split()[0][:3] not in NICKNAMES.values()
    ]
    if not fit:
        return None
    i = rng.choice(fit)
    given, family = s.authors[i]
    first, *rest = given.split()
    cut = first[:3] + ("." if rng.random() < 0.5 else "")
    authors = list(s.authors)
    authors[i] = (" ".join([cut, *rest]), family)
    return {**f, "authors": authors}


def _given_nickname(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """A known short form for one author's given name ("Alex" for "Alexander", "Bill" for "William")."""
    fit = [i for i, (given, _) in enumerate(s.authors) if given and given.split()[0] in NICKNAMES]
    if not fit:
        return None
    i = rng.choice(fit)
    given, family = s.authors[i]
    first, *rest = given.split()
    authors = list(s.authors)
    authors[i] = (" ".join([NICKNAMES[first], *rest]), family)
    return {**f, "authors": authors}


def _given_initials(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """Every given name as initials ("Kaiming" -> "K.", "Logan C." -> "L. C.")."""
    if not any(given for given, _ in s.authors):
        return None
    authors = [(" ".join(f"{w[0]}." for w in re.split(r"[\s.]+", g) if w), fam) for g, fam in s.authors]
    return {**f, "authors": authors}


def _title_synonym(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """One title word replaced by a synonym (SYNONYMS), the same authors, venue and year."""
    words = re.findall(r"[A-Za-z]+", s.title)
    fit = [w for w in words if w.lower() in SYNONYMS]
    if not fit:
        return None
    word = rng.choice(fit)
    new = SYNONYMS[word.lower()]
    new = new[:1].upper() + new[1:] if word[:1].isupper() else new
    return {**f, "title": re.sub(rf"\b{re.escape(word)}\b", new, s.title, count=1)}


def _venue_other(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """The venue replaced by a real venue of another field or kind (Nature, Science, WWW, ...)."""
    current = f"{s.venue} {s.venue_short}".lower()
    kind, slot, name = rng.choice([v for v in OTHER_VENUES if v[2].lower() not in current])
    drop = ("journal", "booktitle", "publisher", "address") + (("volume", "number") if kind == "inproceedings" else ())
    out = {k: v for k, v in f.items() if k not in drop}
    return {**out, "kind": kind, slot: name}


def _original(s: Sample, f: Fields, rng: random.Random) -> Fields | None:
    """The record as it is: every field it states."""
    return f


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("original", "-", "Real", "the record as it is", _original),
    Mutation("pages-other", "pages", "H", "a range the record's contradicts", _pages_other),
    Mutation("pages-dash", "pages", "Real", "740-755 for 740--755", _pages_written("dash")),
    Mutation("pages-pp", "pages", "Real", "pp. 740-755", _pages_written("pp")),
    Mutation("pages-endash", "pages", "Real", "740\u2013755", _pages_written("endash")),
    Mutation("pages-first", "pages", "Real", "first page only", _pages_written("first")),
    Mutation("pages-e-number", "pages", "Real", "e1234 (article number)", _article_number("e")),
    Mutation("pages-article-n", "pages", "Real", "Article 42", _article_number("article")),
    Mutation("pages-lone-number", "pages", "Real", "27 (a number, not the first page)", _article_number("bare")),
    Mutation("pages-count", "pages", "Real", "12 pp.", _page_count),
    Mutation("pages-preprint", "pages", "notH", "arXiv preprint with its own pages", _preprint_pages),
    Mutation("volume-other", "volume", "H", "another volume number", _volume_other),
    Mutation("volume-series", "volume", "notH", "LNCS series volume for the paper", _series_volume),
    Mutation("publisher-other", "publisher", "H", "another recognised publisher", _publisher_other),
    Mutation("publisher-writing", "publisher", "Real", "Springer-Verlag / IEEE Computer Society", _publisher_writing),
    Mutation("publisher-acl", "publisher", "Real", "ACL = Assoc. for Comp. Linguistics", _publisher_acl),
    Mutation("publisher-curran", "publisher", "Real", "Curran Associates (NeurIPS, ACL)", _publisher_curran),
    Mutation("location-other", "location", "H", "another city", _location_other),
    Mutation("location-writing", "location", "Real", "Miami, FL = Miami, Florida, USA", _location_writing),
    Mutation("location-online", "location", "Real", "Virtual (held online)", _location_online),
    Mutation("year+1", "year", "P", "off by one, no version evidence", _year(1)),
    Mutation("year-1", "year", "P", "off by one, no version evidence", _year(-1)),
    Mutation("year+2", "year", "H", "year field 2 off", _year(2)),
    Mutation("year-2", "year", "H", "year field 2 off", _year(-2)),
    Mutation("year+3", "year", "H", "year field 3 off", _year(3)),
    Mutation("year-3", "year", "H", "year field 3 off", _year(-3)),
    Mutation("venue-year+1", "year", "H", "booktitle has the true year, year +1", _venue_year(1)),
    Mutation("venue-year+2", "year", "H", "booktitle has the true year, year +2", _venue_year(2)),
    Mutation("author-added", "authors", "H", "made-up author in a whole list", _author_added),
    Mutation("author-dropped-mid", "authors", "P", "middle author missing, no et al.", _author_removed_middle),
    Mutation("author-dropped-last", "authors", "P", "last author missing, no et al.", _author_removed_last),
    Mutation("authors-others", "authors", "Real", "cut + 'and others'", _authors_others),
    Mutation("authors-swapped", "authors", "Real", "first two swapped (R2)", _authors_swapped),
    Mutation("given-fragment", "authors", "P", "Linchao -> Lin / Sau.", _given_fragment),
    Mutation("given-nickname", "authors", "Real", "Alex for Alexander (R2)", _given_nickname),
    Mutation("given-initials", "authors", "Real", "initials", _given_initials),
    Mutation("title-synonym", "title", "H", "one word replaced by a synonym", _title_synonym),
    Mutation("venue-other", "venue", "H", "Nature / Science / WWW for a CS paper", _venue_other),
)
