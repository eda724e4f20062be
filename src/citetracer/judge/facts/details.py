"""Publication-detail facts: pages, volume, publisher and conference location, as a record of the same
version states them.

A detail is a fact about the cited work only where a record of the same version states it: the record's
venue is the cited venue and its year the cited year (a preprint's own pages, another printing's, a
journal extension's volume are other versions' details). And only where the citation states the field
unambiguously: a page range (two numbers, in order), a volume written as a field (BibTeX), never a lone
number (an article number, an issue
or a volume the parser read as pages: "Scikit-learn ... 12" against 2825-2830), an e-locator
("e1234", "W70") or a page count ("12 pp."); a journal volume, never a proceedings series volume; a
publisher or place that the knowledge tables recognise (normalize/publishers.py, normalize/places.py),
never an unrecognised string, which is a gap. A contradiction is a range wholly apart from the record's,
another number, another recognised publisher with no tie to the record's, another place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citetracer.judge.context import JudgeContext
from citetracer.judge.facts.authors import ALL, by_cited_people
from citetracer.judge.facts.identity import specific, versions_of
from citetracer.judge.facts.reading import structured
from citetracer.match.rules import Assessment
from citetracer.normalize.places import location_of_proceedings, parse_place, place_relation
from citetracer.normalize.publishers import publisher_relation, recognise_publishers
from citetracer.normalize.text import tokens
from citetracer.normalize.venues import is_preprint, spells_any, venue_kind
from citetracer.records import Candidate, FieldStatus
from citetracer.sources import venue_year_lister

M = FieldStatus.MATCH
_RANGE = re.compile(r"^\s*(?:pp?\.?\s*|pages?\s+)?(\d{1,6})\s*(?:-+|\u2013|\u2014)\s*(\d{1,6})\s*\.?\s*$", re.I)
_NUMBER = re.compile(r"^\s*(?:vol\.?\s*|volume\s+)?(\d{1,5})\s*$", re.I)
#: A range longer than this is no page range of one work (a misread pair of numbers).
_MAX_PAGES = 1000


#: The source whose proceedings volumes' titles name the conference city (data/source_facts.tsv "lists
#: venue-years": DBLP).
VENUE_LISTER = venue_year_lister()


def journal_record(c: Candidate) -> bool:
    """Whether a record is of a journal article (a journal volume's, not a proceedings series')."""
    return venue_kind(c.venue or c.venue_full, c.type) == "journal" and c.type != "inproceedings"


def page_range(text: str | None) -> tuple[int, int] | None:
    """A page range as two numbers in order ("740-755", "pp. 740--755", "1054-8" for 1054-1058), or None
    for anything else: a lone number, an e-locator, a page count, two years."""
    m = _RANGE.match(text or "")
    if not m:
        return None
    first, last = m.group(1), m.group(2)
    if len(last) < len(first):
        last = first[: len(first) - len(last)] + last  # "1054-8"
    a, b = int(first), int(last)
    if b <= a or b - a > _MAX_PAGES:
        return None
    if 1800 <= a <= 2100 and 1800 <= b <= 2100 and b - a <= 10:
        return None  # "2015-2016": years, not pages
    return a, b


def own_pagination(cited: tuple[int, int], held: tuple[int, int]) -> bool:
    """Whether a cited range is the work's own pagination: it opens at page 1 and runs as many pages as the
    record's range (within one). A copy paginated on its own (the author's PDF, a digital library's download,
    a preprint) numbers the same pages 1-6 that the proceedings number 308-313; no other work is meant."""
    return cited[0] == 1 and abs((cited[1] - cited[0]) - (held[1] - held[0])) <= 1


def volume_number(text: str | None) -> int | None:
    """A volume written as a plain number ("42", "vol. 42"), else None."""
    m = _NUMBER.match(text or "")
    return int(m.group(1)) if m else None


@dataclass(frozen=True)
class DetailContradiction:
    """A cited publication detail that a record of the same version states otherwise."""

    field: str
    cited: str
    found: str
    record: Candidate

    def sentence(self) -> str:
        label = f"[{self.record.source}:{self.record.id}]"
        return f"the cited {self.field} {self.cited!r} is not the work's ({self.found!r} in {label})"


def same_version(ctx: JudgeContext, work: Assessment) -> list[Assessment]:
    """The records of the identified work (its own record, one with the same DOI, or another source's
    record of the whole cited title by the same people) whose venue is the cited venue and whose year is
    the cited year, preprints left out: their details are the cited version's. Records that merely share
    the title and people are not enough: a database paper titled "GenBank" appears in the same journal
    every year. A title too short to name one work ("Formal Islands") names it with every cited author
    among the record's, at the cited venue and year (the GenBank paper of the cited year is the cited one)."""
    ref = ctx.reference
    if not ref.venue or ref.year is None or is_preprint(ref.venue):
        return []
    if not specific(ctx, work) and not by_cited_people(work, ALL):
        return []
    out = []
    for v in versions_of(ctx, work):
        c = v.candidate
        # Another source's record of the whole cited title by the same people (a version, versions_of), of the
        # cited venue and year, is the cited version too: each source words its details for itself.
        same = c.work == work.candidate.work or (c.doi is not None and c.doi == work.candidate.doi)
        same = same or (v.same_title and work.same_title)
        if not same or v.year_delta != 0 or is_preprint(c.venue or c.venue_full) or c.type == "preprint":
            continue
        names = [n for n in (c.venue, c.venue_full) if n]
        if v.status("venue") == M or spells_any(ref.venue, names):
            out.append(v)
    # A DOI names one version: a record with the DOI of one of these is of the cited version however its
    # source words the venue ("AMAST" for "Algebraic Methodology and Software Technology, ... AMAST").
    dois = {v.candidate.doi for v in out if v.candidate.doi}
    out += [v for v in versions_of(ctx, work) if v not in out and v.candidate.doi in dois and v.year_delta == 0]
    return out


def detail_contradictions(ctx: JudgeContext, work: Assessment) -> list[DetailContradiction]:
    """The cited details that a record of the same version contradicts, one per field."""
    key = ("details", id(work))
    if key not in ctx.facts:
        ctx.facts[key] = _contradictions(ctx, work)
    return ctx.facts[key]  # type: ignore[return-value]


def _contradictions(ctx: JudgeContext, work: Assessment) -> list[DetailContradiction]:
    """Per field, the first record of the cited version that contradicts the cited detail, unless another record of
    it agrees: one venue-year may hold two records of one title by the same people (a paper and its poster in the
    conference companion, "Kay95" and "Kay95a"), each with its own pages, and the cited one is either."""
    ref = ctx.reference
    found: dict[str, DetailContradiction] = {}
    agreed: set[str] = set()
    for v in same_version(ctx, work):
        c = v.candidate
        cited, held = page_range(ref.pages), page_range(c.pages)
        if cited and held:
            apart = (cited[1] < held[0] or cited[0] > held[1]) and not own_pagination(cited, held)
            if apart:
                found.setdefault("pages", DetailContradiction("pages", ref.pages or "", c.pages or "", c))
            else:
                agreed.add("pages")
        journal = journal_record(c)
        # A volume cut from free text is a lone number our parser placed (a page, an issue, a year):
        # only a volume field the author wrote states one.
        cv, hv = volume_number(ref.volume) if structured(ref) else None, volume_number(c.volume)
        if journal and cv is not None and hv is not None:
            if cv != hv:
                found.setdefault("volume", DetailContradiction("volume", ref.volume or "", c.volume or "", c))
            else:
                agreed.add("volume")
        if ref.publisher and c.publisher:
            if _other_publisher(ref.publisher, c):
                found.setdefault("publisher", DetailContradiction("publisher", ref.publisher, c.publisher, c))
            else:
                agreed.add("publisher")
        # A city is stated by Crossref's event location or inside a DBLP proceedings title, never read
        # out of another service's venue name ("Software Composition, 11th International Conference, SC").
        volume = c.venue_full if c.source == VENUE_LISTER else None  # the lister's proceedings title names the city
        place = c.location or (location_of_proceedings(volume) if volume else None)
        named_in_title = bool(ref.location) and _words_in(ref.location or "", c.venue_full or "")
        if ref.location and place:
            if not named_in_title and _places_differ(ref.location, place):
                found.setdefault("location", DetailContradiction("location", ref.location, place, c))
            else:
                agreed.add("location")
    return [d for name, d in found.items() if name not in agreed]


def _other_publisher(cited: str, c: Candidate) -> bool:
    """Whether a cited publisher is another than the record's: a recognised publisher with no tie to the
    record's, nor (for a printer) to the society whose venue the record names. Authors name a venue's
    present printer for every year of it ("Curran Associates" for NIPS 1990, whose volume names Morgan Kaufmann):
    a slip of bibliography about the right venue, not a detail invented for another work."""
    if c.publisher is None or publisher_relation(cited, c.publisher) != "different":
        return False
    printers = recognise_publishers(cited)
    if not printers or any(p.role != "printer" for p in printers):
        return True  # only a printer prints for a venue's society whoever published the volume
    return not any(publisher_relation(cited, v) in ("same", "related") for v in (c.venue, c.venue_full) if v)


def _words_in(short: str, long_: str) -> bool:
    """Whether a cited place's words all stand in the record's proceedings title (a conference held in two
    cities, "Melbourne, Australia and St. Petersburg, Russia", is read as one of them)."""
    words = tokens(short)
    return bool(words) and f" {' '.join(words)} " in f" {' '.join(tokens(long_))} "


def _places_differ(cited: str, found: str) -> bool:
    """Two places that are not one, neither of them an online event (a conference moved online is cited
    at its planned city as often as "virtual")."""
    a, b = parse_place(cited), parse_place(found)
    if a is None or b is None or a.online or b.online:
        return False
    return place_relation(cited, found) == "different"
