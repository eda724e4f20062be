"""Real records for bench/fields.py: sampled from a store as a user builds it, and rendered as BibTeX.

A DBLP store (`citetracer mirror dblp` + `mirror add world.jsonl`) holds, per record, what
DBLP states: journal articles with pages, volume and number; proceedings papers with pages and
a cross-reference to their proceedings volume, whose own record carries the publisher, the
series volume (LNCS 8689) and a title naming the city ("..., CVPR 2009, Miami, Florida, USA,
June 20-25, 2009"). `Sample` is one such record with those details gathered once;
`render_bibtex` writes it as an author would cite it (@article / @inproceedings with
title, author, journal/booktitle, year, volume, number, pages, publisher, address).

Sampling is seeded: random row ids are drawn until enough records of each kind qualify
(a page range of two numbers; for a proceedings paper, a proceedings title whose city
`proceedings_location` can read with confidence).
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from citetracer.records import WorkRecord
from citetracer.store.codec import decode

MONTHS = (
    "January February March April May June July August September October November December "
    "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec"
).split()
_MONTH = re.compile(r"\b(" + "|".join(MONTHS) + r")\b")
#: US states and their postal codes: "Miami, FL" and "Miami, Florida, USA" name one place.
US_STATES = {
    "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA", "Colorado": "CO",
    "Connecticut": "CT", "Delaware": "DE", "Florida": "FL", "Georgia": "GA", "Hawaii": "HI", "Idaho": "ID",
    "Illinois": "IL", "Indiana": "IN", "Iowa": "IA", "Kansas": "KS", "Kentucky": "KY", "Louisiana": "LA",
    "Maine": "ME", "Maryland": "MD", "Massachusetts": "MA", "Michigan": "MI", "Minnesota": "MN",
    "Mississippi": "MS", "Missouri": "MO", "Montana": "MT", "Nebraska": "NE", "Nevada": "NV",
    "New Hampshire": "NH", "New Jersey": "NJ", "New Mexico": "NM", "New York": "NY", "North Carolina": "NC",
    "North Dakota": "ND", "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR", "Pennsylvania": "PA",
    "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD", "Tennessee": "TN", "Texas": "TX",
    "Utah": "UT", "Vermont": "VT", "Virginia": "VA", "Washington": "WA", "West Virginia": "WV",
    "Wisconsin": "WI", "Wyoming": "WY", "District of Columbia": "DC",
}  # fmt: skip
#: Countries a proceedings title's place ends with (the bench reads a city only when it ends in one of these).
COUNTRIES = (
    frozenset(
        "USA,US,United States,Canada,Mexico,Brazil,Argentina,Chile,Colombia,Peru,UK,United Kingdom,England,Scotland,"
        "Ireland,France,Germany,Italy,Spain,Portugal,The Netherlands,Netherlands,Belgium,Luxembourg,Switzerland,"
        "Austria,Denmark,Sweden,Norway,Finland,Iceland,Poland,Czech Republic,Slovakia,Hungary,Romania,Bulgaria,"
        "Greece,Cyprus,Malta,Turkey,Israel,Egypt,Morocco,Tunisia,South Africa,Russia,Ukraine,Estonia,Latvia,"
        "Lithuania,Slovenia,Croatia,Serbia,India,China,Japan,Korea,South Korea,Republic of Korea,Taiwan,Hong Kong,"
        "Singapore,Malaysia,Thailand,Vietnam,Indonesia,Philippines,Australia,New Zealand,Qatar,"
        "United Arab Emirates,UAE,Saudi Arabia,Iran,Pakistan,Macau,Macao,PR China".split(",")
    )
    | frozenset(US_STATES)
    | frozenset(US_STATES.values())
)
#: Places that are a city and a country at once.
CITY_STATES = frozenset(("Singapore", "Hong Kong", "Macau", "Macao", "Luxembourg"))
#: Words that say a title segment is not a place.
_NOT_PLACE = re.compile(
    r"\b(Proceedings|Conference|Workshop|Symposium|International|Part|Volume|Revised|Selected|Papers|"
    r"co-located|Track|Demos?|Annual|Session|Edition|Held|Joint|University|Institute)\b",
    re.I,
)
_PAGE_RANGE = re.compile(r"^(\d{1,6})-(\d{1,6})$")


@dataclass
class Sample:
    """One real record, with what the store states about it, ready to be cited."""

    key: str
    source: str
    kind: str  # "article" or "inproceedings"
    title: str
    #: (given, family) per author, as the record spells them.
    authors: list[tuple[str, str]]
    #: The record's source holds the author list whole (DBLP lists every author).
    whole: bool
    year: int
    #: The journal, or the booktitle without its place and dates (`booktitle_year` keeps the year in it).
    venue: str
    booktitle_year: str | None = None
    venue_short: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    pages: str | None = None
    volume: str | None = None
    issue: str | None = None
    publisher: str | None = None
    location: str | None = None
    #: The proceedings volume: its DBLP key (without "dblp:"), its full title (with the city) and its series volume.
    crossref: str | None = None
    proceedings_title: str | None = None
    series_volume: str | None = None
    #: Store keys of the records that share its venue and year (the closed world's neighbours).
    neighbours: list[str] = field(default_factory=list)

    def first_last(self) -> tuple[int, int] | None:
        m = _PAGE_RANGE.match(self.pages or "")
        return (int(m.group(1)), int(m.group(2))) if m else None


def _segments(title: str) -> list[str]:
    return [s.strip() for s in re.split(r",\s*|\s+-\s+", title) if s.strip()]


def _is_date(segment: str) -> bool:
    """A month, a year, or days ("27" of "August 24 - 27, 2014" cut at its dash)."""
    return bool(_MONTH.search(segment)) or bool(
        re.fullmatch(r"(\d{4}\.?( Proceedings)?|\d{1,2}(\s*-\s*\d{1,2})?)", segment)
    )


def _is_place(segment: str) -> bool:
    return (
        not re.search(r"\d", segment)
        and not _NOT_PLACE.search(segment)
        and segment[:1].isupper()
        and len(segment) <= 40
        and "(" not in segment
    )


def proceedings_location(title: str) -> tuple[str, str] | None:
    """(the city as the title names it, the title without its place and dates), or None when unsure.

    DBLP proceedings titles put the place next to the dates, before or after them:
    "Distributed Communities on the Web, Third International Workshop, DCW 2000, Quebec City,
    Canada, June 19-21, 2000, Proceedings" or "IEEE Computer Society Conference on Computer Vision
    and Pattern Recognition (CVPR 2009), 20-25 June 2009, Miami, Florida, USA". The place is the run
    of one to four segments without digits that touches the first date segment and ends in a
    country or US state.
    """
    segs = _segments(title)
    dates = [i for i, s in enumerate(segs) if _is_date(s)]
    if not dates:
        return None
    first = dates[0]
    runs = []
    j = first - 1  # the place before the dates
    while j >= 0 and _is_place(segs[j]):
        j -= 1
    runs.append((j + 1, first))
    k = dates[-1] + 1  # ... or after them
    while k < len(segs) and _is_place(segs[k]):
        k += 1
    runs.append((dates[-1] + 1, k))
    for start, end in runs:
        place = segs[start:end]
        # "New York, NY, USA": a first segment that could be a state is a city when two follow it
        city_first = place and (place[0] not in COUNTRIES or place[0] in CITY_STATES or len(place) >= 3)
        if 1 <= len(place) <= 4 and city_first and place[-1] in COUNTRIES and start > 0:
            rest = [s for i, s in enumerate(segs) if not (start <= i < end) and i not in dates]
            rest = [s for s in rest if s.lower() not in ("proceedings", "revised selected papers")]
            return ", ".join(place), ", ".join(rest)
    return None


def strip_years(text: str) -> str:
    """A venue name without its years ("DCW 2000" -> "DCW", "KDD '14" -> "KDD")."""
    out = re.sub(r"\s*(?<!\d)(?:19|20)\d\d(?!\d)|\s*'\d\d\b", "", text)
    out = re.sub(r"\(\s*\)", "", re.sub(r"\s+,", ",", out))
    return re.sub(r",\s*([.,])", r"\1", out).strip(" ,")


def _people(record: WorkRecord) -> list[tuple[str, str]]:
    return [(p.given or "", p.family) for p in record.authors]


def _open(store: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{store}?mode=ro", uri=True)


def _dblp_sample(db: sqlite3.Connection, key: str, record: WorkRecord, xref: str | None) -> Sample | None:
    """A DBLP record as a Sample, when it qualifies (see the module docstring)."""
    if not _PAGE_RANGE.match(record.pages or "") or not record.year or not record.authors or not record.venue:
        return None
    a, b = (int(x) for x in (record.pages or "").split("-"))
    if not a < b <= a + 200:
        return None
    base = Sample(
        key=key,
        source="dblp",
        kind="article" if record.type == "article" else "inproceedings",
        title=record.title or "",
        authors=_people(record),
        whole=not record.authors_truncated,
        year=record.year,
        venue=record.venue,
        venue_short=record.venue,
        doi=record.doi,
        pages=record.pages,
        volume=record.volume,
        issue=record.issue,
    )
    if base.kind == "article":
        return base if record.volume else None
    if not xref or not record.venue_full:
        return None
    found = proceedings_location(record.venue_full)
    if found is None:
        return None
    place, booktitle = found
    row = db.execute("SELECT data FROM records WHERE key = ?", (xref,)).fetchone()
    volume = decode(row[0], xref) if row else None
    return replace(
        base,
        venue=strip_years(booktitle) or record.venue,
        booktitle_year=booktitle if strip_years(booktitle) != booktitle else None,
        location=place,
        crossref=xref.removeprefix("dblp:"),
        proceedings_title=record.venue_full,
        publisher=volume.publisher if volume else None,
        series_volume=volume.volume if volume else None,
    )


def sample_dblp(store: Path, seed: int, want: dict[str, int], neighbours: int = 20) -> list[Sample]:
    """`want[kind]` qualifying DBLP records of each kind ("article", "inproceedings"), drawn at random (seeded)."""
    rng = random.Random(seed)
    got: dict[str, list[Sample]] = {k: [] for k in want}
    with _open(store) as db:
        (top,) = db.execute("SELECT max(rid) FROM records").fetchone()
        tries = 0
        while any(len(got[k]) < n for k, n in want.items()) and tries < 200:
            tries += 1
            rids = rng.sample(range(1, top + 1), 2000)
            rows = db.execute(
                "SELECT r.rid, r.key, r.type, r.data, x.key, x.title, r.venue_key, r.year FROM records r "
                "LEFT JOIN xrefs x ON x.id = r.xref "
                f"WHERE r.source = 'dblp' AND r.rid IN ({','.join('?' * len(rids))})",
                rids,
            ).fetchall()
            rows.sort(key=lambda r: rids.index(r[0]))
            for _rid, key, kind, data, xref, xref_title, venue_key, year in rows:
                if kind not in got or len(got[kind]) >= want[kind]:
                    continue
                record = decode(data, key)
                if xref_title and not record.venue_full:
                    record.venue_full = xref_title
                sample = _dblp_sample(db, key, record, xref)
                if sample is None:
                    continue
                near = db.execute(
                    "SELECT key FROM records WHERE venue_key = ? AND year = ? AND key != ? ORDER BY rid LIMIT ?",
                    (venue_key, year, key, neighbours),
                ).fetchall()
                sample.neighbours = [k for (k,) in near] + ([xref] if xref else [])
                got[kind].append(sample)
    return [s for k in want for s in got[k]]


def world_samples(world: Path, seed: int, n: int) -> list[Sample]:
    """`n` world.jsonl records of journals and conferences (preprints and bioRxiv left out), seeded."""
    out = []
    for line in world.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        venue = obj.get("venue_full") or obj.get("venue")
        if not venue or "rxiv" in venue.lower() or obj.get("type") not in ("article", "inproceedings"):
            continue
        names = [a for a in obj.get("authors") or [] if isinstance(a, str) and a.lower() != "others"]
        if not names or not obj.get("year"):
            continue
        authors = [(g, f) for g, _, f in (a.rpartition(" ") for a in names)]
        out.append(
            Sample(
                key=f"world:{obj['id']}",
                source="world",
                kind=obj["type"],
                title=obj["title"],
                authors=authors,
                whole=False,
                year=int(obj["year"]),
                venue=venue,
                venue_short=obj.get("venue"),
                doi=obj.get("doi"),
                arxiv_id=obj.get("arxiv_id"),
            )
        )
    random.Random(seed).shuffle(out)
    return out[:n]


def _bib_value(value: str) -> str:
    value = value.replace("{", "").replace("}", "")
    return re.sub(r"(?<!\\)([&%#])", r"\\\1", value)


def render_bibtex(key: str, fields: dict[str, Any]) -> str:
    """One BibTeX entry: `fields` holds `kind` (entry type), `authors` ((given, family) pairs, or the
    string "others" last) and any of title, journal, booktitle, year, volume, number, pages, publisher,
    address, series."""
    kind = fields.get("kind") or "misc"
    lines = [f"@{kind}{{{key},"]
    people = []
    for person in fields.get("authors") or []:
        if person == "others":
            people.append("others")
        else:
            given, family = person
            people.append(f"{_bib_value(family)}, {_bib_value(given)}" if given else _bib_value(family))
    if people:
        lines.append(f"  author = {{{' and '.join(people)}}},")
    for name in (
        "title",
        "journal",
        "booktitle",
        "series",
        "year",
        "volume",
        "number",
        "pages",
        "publisher",
        "address",
    ):
        value = fields.get(name)
        if value not in (None, ""):
            lines.append(f"  {name} = {{{_bib_value(str(value))}}},")
    lines.append("}")
    return "\n".join(lines)


def base_fields(s: Sample) -> dict[str, Any]:
    """The fields an honest author writes for the record: everything the store states about it."""
    venue_field = "journal" if s.kind == "article" else "booktitle"
    return {
        "kind": s.kind,
        "authors": list(s.authors),
        "title": s.title,
        venue_field: s.venue,
        "year": s.year,
        "volume": s.volume,
        "number": s.issue,
        "pages": s.pages.replace("-", "--") if s.pages else None,
        "publisher": s.publisher,
        "address": s.location,
    }
