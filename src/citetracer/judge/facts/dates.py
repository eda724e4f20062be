"""Year facts: what the cited year is set against, and which of a work's years are facts about the work.

A record's date is the record's (DESIGN.md, "A list proves only what it holds whole"): an index's
year may be an online-first date, a re-deposit or a digitisation years after the work ("a 1955
classic whose record carries its 2010 re-deposit"). So a cited year earlier than every version is
proof only against a year that is the work's first appearance (a proceedings paper's year in DBLP,
an arXiv first version, a store declared complete); a cited year later than the work is proof only
where the cited venue-year pins the version (a conference prints a paper once; a journal volume's
year in DBLP is the issue's). A year the citation itself carries elsewhere (in its DOI, in its
venue's name) settles or contradicts the year field; a year field the author wrote is what the
author wrote (facts/reading.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from citetracer.judge.context import JudgeContext
from citetracer.judge.facts.details import journal_record, page_range, volume_number
from citetracer.judge.facts.identity import record_is_book, versions_of
from citetracer.judge.facts.reading import structured
from citetracer.judge.facts.venue import venue_witness
from citetracer.match.rules import Assessment
from citetracer.normalize.kinds import SCHOLARLY_KINDS, work_kind
from citetracer.normalize.text import arxiv_from_doi, canonical_arxiv, canonical_doi
from citetracer.normalize.venues import venue_kind
from citetracer.records import FieldStatus
from citetracer.sources import source_facts

_YEAR = re.compile(r"(?<![\d.])(1[89]\d\d|20\d\d)(?![\d])")
#: A year inside a DOI's suffix, as publishers write it: "10.1016/j.neuron.2013.05.001",
#: "10.1109/CVPR.2016.90", "10.1007/978-3-319-46448-0_2" (no), "10.1145/3292500.3330701" (no).
_DOI_YEAR = re.compile(r"[./_-]((?:19[5-9]|20[0-4])\d)[./_-]")
#: Venue kinds that print a paper once: a later year at the same venue is not a later version of it.
_ONCE = frozenset({"conference", "workshop"})
M = FieldStatus.MATCH
#: A journal record of fewer pages than this (one or two) is a review, a notice or an erratum, not an article.
SHORT_ITEM_PAGES = 2


def doi_years(doi: str | None) -> set[int]:
    """The years written inside a DOI's suffix (publishers that date their DOIs), else none."""
    d = canonical_doi(doi)
    if not d or "/" not in d:
        return set()
    suffix = "/" + d.split("/", 1)[1] + "/"
    return {int(y) for y in _DOI_YEAR.findall(suffix)}


def venue_name_year(venue: str | None) -> int | None:
    """The one year written in a cited venue name ("2023 IEEE/CVF Conference on ...", "NeurIPS 2021", or,
    without a full year, "ICTAI '94", "SIGMOD'19"), or None when it names none or several."""
    years = {int(y) for y in _YEAR.findall(venue or "")}
    if not years:
        years = {_century(int(yy)) for yy in _SHORT_YEAR.findall(venue or "")}
    return years.pop() if len(years) == 1 else None


#: A year written with two digits after an apostrophe, as meetings name themselves: "KDD '15", "SIGMOD’19".
_SHORT_YEAR = re.compile(r"(?:(?<=\s)|(?<=[A-Za-z]))['’‘](\d\d)(?![\d'’])")


def _century(yy: int) -> int:
    """A two-digit year in the century that puts it no later than next year ('94 is 1994, '15 is 2015)."""
    year = 2000 + yy
    return year if year <= date.today().year + 1 else year - 100


def _dated_meetings(versions: list[Assessment]) -> list[tuple[Assessment, int]]:
    """The versions whose own proceedings title names their meeting's one year (within a year of the record's),
    with that year: the titles that date a proceedings paper."""
    out = []
    for v in versions:
        meeting = venue_name_year(v.candidate.venue_full)
        if meeting is not None and v.candidate.year is not None and abs(meeting - v.candidate.year) <= 1:
            out.append((v, meeting))
    return out


def meeting_years(versions: list[Assessment]) -> set[int]:
    """The years a proceedings paper may be dated, where a record's own proceedings title names its
    meeting's year: the meeting's, the record's own, and the next where the proceedings may have been
    printed after the turn of the year (`printed_next_year`: "NIPS 18, 2006" for the December 2005
    meeting). Never a year before the meeting: "KDD '15, Sydney, August 10-13, 2015" dates no paper of it
    in 2014, nor, printed at the meeting, in 2016. Empty when no record's venue names a single year."""
    years: set[int] = set()
    for v, meeting in _dated_meetings(versions):
        years |= {meeting, v.candidate.year or meeting}
        if printed_next_year(v.candidate.venue_full or ""):
            years.add(meeting + 1)
    return years


def undated_by_meeting(versions: list[Assessment], cited: int | None) -> str:
    """Why a cited year is none a proceedings paper may bear (`meeting_years`), naming the proceedings title that
    dates the meeting ("" when no title dates it, or the year is one it may bear)."""
    dated = _dated_meetings(versions)
    if cited is None or not dated or cited in meeting_years(versions):
        return ""
    v, meeting = dated[0]
    when = "is before it" if cited < meeting else "is after it, and proceedings printed for it bear its year"
    return f"the proceedings '{v.candidate.venue_full}' date the meeting in {meeting}; {cited} {when}"


_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
_MONTH = re.compile(
    r"\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?"
    r"|nov(?:ember)?|dec(?:ember)?)\b",
    re.IGNORECASE,
)
#: A volume of papers revised after the meeting: printed months after it, often the next year.
_AFTER_MEETING = re.compile(r"\b(?:revised|selected papers|post-?proceedings)\b", re.IGNORECASE)
#: The first month of the year's last part: a meeting's proceedings printed after it may bear the next year.
_LATE_MONTH = 11


def printed_next_year(title: str) -> bool:
    """Whether a proceedings volume, by its title, may bear the year after its meeting's: papers revised
    after the meeting ("Revised Selected Papers"), a meeting at the year's end ("December 5-8, 2005"), or
    a title that names no month to tell. A meeting's proceedings are printed for it, at the latest by its
    end; a paper of "KDD 2015, Sydney, August 10-13, 2015" dated 2016 cites no printing of it."""
    if _AFTER_MEETING.search(title):
        return True
    months = [_MONTHS[m.group(1).lower()[:3]] for m in _MONTH.finditer(title)]
    return not months or months[-1] >= _LATE_MONTH


def arxiv_year(a: Assessment) -> int | None:
    """The year an arXiv identifier of the record was issued (its first version: "2602.12233" is February
    2026; "hep-th/9901001" January 1999), or None."""
    arxiv = canonical_arxiv(a.candidate.arxiv_id) or arxiv_from_doi(canonical_doi(a.candidate.doi))
    if not arxiv:
        return None
    digits = arxiv.split("/")[-1][:2]
    if not digits.isdigit():
        return None
    yy = int(digits)
    return (1900 if yy >= 91 else 2000) + yy


def first_appearance(ctx: JudgeContext, a: Assessment) -> bool:
    """Whether a version's record dates the work's first appearance: a proceedings paper's year where
    its source gives the proceedings' year, an arXiv first version, or any record of a store declared
    complete (it holds every version, so the earliest is the first)."""
    if ctx.bundle.closed_world:
        return True
    years = source_facts(a.candidate.source).years
    if years == "first":
        return True
    kind = venue_kind(a.candidate.venue or a.candidate.venue_full, a.candidate.type)
    return years == "venue" and kind in _ONCE


def _volume_pins_year(ctx: JudgeContext, dated: list[Assessment]) -> str | None:
    """Why the cited journal volume dates the work, or None: a volume the author wrote as a field that is
    the volume of a version whose source dates records by their volume (DBLP) appeared in that record's
    year, whatever other versions say (a re-deposit or a digitisation keeps its volume, not its year)."""
    cited = volume_number(ctx.reference.volume) if structured(ctx.reference) else None
    if cited is None:
        return None
    for v in dated:
        c = v.candidate
        if journal_record(c) and source_facts(c.source).years == "venue" and volume_number(c.volume) == cited:
            where = f"[{c.source}:{c.id}] dates it by its volume"
            return f"the cited volume {cited} of the journal appeared in {c.year} ({where})"
    return None


@dataclass(frozen=True)
class YearFact:
    """The cited year against the identified work's versions: whether it contradicts them, and on what."""

    #: The cited year contradicts a fact about the work (not only a record's date).
    contradicted: bool
    #: What the contradiction rests on, or why the difference is no contradiction.
    basis: str


def _printed_once(ctx: JudgeContext, work: Assessment, dated: list[Assessment]) -> bool:
    """Whether the work's venue prints a paper once (a conference or a workshop), by the work's record or
    any version's at the cited venue: DBLP types a paper by its kind, while OpenAlex types a proceedings
    paper "article" as it does a journal's, so one index's type does not make the venue a journal."""
    at_venue = [work, *(v for v in dated if v.status("venue") == M)]
    return any(venue_kind(v.candidate.venue or ctx.reference.venue, v.candidate.type) in _ONCE for v in at_venue)


def year_fact(ctx: JudgeContext, work: Assessment, same_venue: bool) -> YearFact:
    """Whether the cited year, two or more years off every version of the work, contradicts a fact.

    `same_venue`: the cited venue is (a spelling of) the work's venue."""
    cited = ctx.reference.year
    versions = versions_of(ctx, work)
    dated = [v for v in versions if v.candidate.year]
    if cited is None or not dated:
        return YearFact(False, "no year to compare")
    doi = canonical_doi(ctx.reference.doi)
    carried = set().union(*(doi_years(v.candidate.doi) for v in versions), doi_years(doi))
    if cited in carried:
        return YearFact(False, f"the DOI carries the cited year {cited} (the record's date is a later version's)")
    named = venue_name_year(ctx.reference.venue)
    if named is not None and named != cited and any(v.candidate.year == named for v in dated):
        return YearFact(True, f"the cited venue names {named}, the work's year, while the citation dates it {cited}")
    earliest = min(v.candidate.year or 0 for v in dated)
    # An arXiv identifier dates a paper's first appearance (papers appear there first); software, a manual, a book
    # or a web page appears elsewhere first, and its versions go on under one name (R's manual, cited by year).
    issued = [(y, v) for v in versions if (y := arxiv_year(v)) is not None]
    before = bool(issued) and cited < min(y for y, _ in issued) and cited < earliest
    if before and work_kind(ctx.reference)[0] in SCHOLARLY_KINDS | {"unknown"}:
        year, v = min(issued, key=lambda x: x[0])
        return YearFact(
            True,
            f"the cited year is before the work's first appearance: its arXiv identifier "
            f"({canonical_arxiv(v.candidate.arxiv_id) or v.candidate.doi}) was issued in {year}",
        )
    pinned = _volume_pins_year(ctx, dated) if same_venue else None
    if pinned is not None:
        return YearFact(True, pinned)
    if cited < earliest:
        first = [v for v in dated if v.candidate.year == earliest and first_appearance(ctx, v)]
        if first:
            v = first[0]
            return YearFact(
                True,
                f"the cited year is before the work's first appearance ({earliest}, [{v.candidate.source}:"
                f"{v.candidate.id}], whose year is its first appearance)",
            )
        return YearFact(
            False,
            f"the records' years ({earliest} at the earliest) are their own dates, which may be a re-deposit, "
            "a digitisation or an online-first date, not the work's first appearance",
        )
    if not same_venue or record_is_book(work.candidate):
        return YearFact(
            False,
            "a citation dated after the work may cite a later version, or a review, erratum or reply of that title",
        )
    if _printed_once(ctx, work, dated):
        return YearFact(
            True, "the work appeared at the cited conference in another year (a conference prints a paper once)"
        )
    short = [
        f"{who} pages {pages}"
        for who, pages in (("the cited", ctx.reference.pages), ("the record's", work.candidate.pages))
        if (span := page_range(pages)) is not None and span[1] - span[0] < SHORT_ITEM_PAGES
    ]
    if short:
        return YearFact(
            False,
            f"a short item ({short[0]}: a review, notice or erratum), whose title a journal prints again in "
            "later volumes, and a venue-year held whole may leave such items out",
        )
    witnessed, why = venue_witness(ctx)
    if witnessed:
        return YearFact(True, f"the work appeared in the cited journal in another year, and {why}")
    return YearFact(
        False,
        "a journal prints reviews, errata and replies under a work's title in later volumes, and no source asked "
        f"lists the cited volume whole ({why})",
    )
