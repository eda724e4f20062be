"""Identity facts: which records are the cited work or a version of it, and how that was established.

A work is identified by its whole title (up to formatting, an edition or a bracketed qualifier),
by a cited identifier that names a record of the cited people under another of its titles (arXiv
papers are renamed between versions), and its versions are the records of the same work or of the
same title by the same people (preprint, proceedings, journal extension, reprint). A book is not
its review, and a short title shared by many works identifies nothing without its year and venue.
"""

from __future__ import annotations

from citetracer.data import lexicon
from citetracer.judge.context import JudgeContext
from citetracer.judge.facts.absence import title_specificity
from citetracer.judge.facts.authors import MOST, SOME, by_cited_people, same_people
from citetracer.judge.facts.reading import content_words
from citetracer.match.rules import Assessment
from citetracer.normalize.kinds import work_kind
from citetracer.normalize.text import tokens
from citetracer.normalize.venues import venue_id
from citetracer.records import Candidate, FieldStatus, Reference
from citetracer.thresholds import SHARED_TITLES, SPECIFIC_TITLE_WORDS, VERSION_TITLE_SIMILARITY

M = FieldStatus.MATCH

_PUBLISHER_WORDS = lexicon.words("publisher")
#: Venue words of reference works and collections, whose entries are reprinted and revised.
_COLLECTION_WORDS = lexicon.words("collection")
_BOOK_TYPES = frozenset(("book", "inbook", "incollection", "reference", "proceedings"))


def label(a: Assessment) -> str:
    """How a record is named in a rationale: [source:id]."""
    return f"[{a.candidate.source}:{a.candidate.id}]"


def is_book(ref: Reference) -> bool:
    """A book (or a chapter of one): cited by type, or with a publisher where a venue would be."""
    if ref.type in ("book", "inbook", "incollection"):
        return True
    return bool(ref.venue) and bool(set(tokens(ref.venue or "")) & _PUBLISHER_WORDS) and not venue_id(ref.venue)


def record_is_book(c: Candidate) -> bool:
    """A record of a book, a chapter or an entry of a reference work (editions and reprints in other years)."""
    if c.type in _BOOK_TYPES or (c.id or "").startswith(("reference/", "books/")):
        return True
    words = set(tokens(f"{c.venue or ''} {c.venue_full or ''}"))
    return bool(words & _COLLECTION_WORDS) or (bool(words & _PUBLISHER_WORDS) and not venue_id(c.venue))


def work_of(ctx: JudgeContext) -> Assessment | None:
    """The real work this citation most plausibly means: identified by its title, or else by the cited
    identifier on a record of the cited authors under another of its titles (`renamed`). Made once
    per citation."""
    key = ("work", 0)
    if key not in ctx.facts:
        ctx.facts[key] = _the_work(ctx)
    return ctx.facts[key]  # type: ignore[return-value]


def _the_work(ctx: JudgeContext) -> Assessment | None:
    kept = [a for a in ctx.title_matches if not _title_alone(ctx, a)]
    if kept:
        return max(kept, key=lambda a: (a.authors.overlap if a.authors else 0.0, a.identity))
    renamed_ones = [a for a in ctx.assessments if renamed(a)]
    return max(renamed_ones, key=lambda a: a.identity) if renamed_ones else None


def _title_alone(ctx: JudgeContext, a: Assessment) -> bool:
    """A record that shares only a title with the citation, and none of its authors, is not the cited work
    when that title names no one work (a short or common title: "Convex Optimization", "Literate
    Programming", "Software") or the two are different kinds (a book against a talk or an article), and a
    record of another kind under a short title is not it either, even by one of its authors (Boyd and
    Vandenberghe's book "Convex Optimization" against Boyd's talk of that title): the citation is then
    unverified, never another work cited with conflicts.

    A record that names no authors shares none of the cited ones (an untitled-by-people column "Software"
    is no one's software), unless its year and venue are the cited ones too, which identify a short title
    (`identified`). The title shared is the shorter of the two when one is the other without its subtitle:
    "Convex Optimization" is short even when the record's title goes on ("...: from embedded real-time to
    large-scale distributed")."""
    other_kind = work_kind(ctx.reference)[0] == "book" and not record_is_book(a.candidate)
    cmp = a.authors
    cited = bool(ctx.reference.authors)
    strangers = cited and cmp is not None and not cmp.matched + cmp.variants + cmp.given_conflicts
    unnamed = cited and not a.candidate.authors and not _year_and_venue(ctx, a)
    if not strangers and not unnamed and not other_kind:
        return False
    if (strangers or unnamed) and other_kind:
        return True
    return not _shared_title_specific(ctx, a)


def _year_and_venue(ctx: JudgeContext, a: Assessment) -> bool:
    """Whether the record states the cited year and a venue that matches the cited one."""
    return ctx.reference.year is not None and a.year_delta == 0 and bool(ctx.reference.venue) and a.status("venue") == M


def _shared_title_specific(ctx: JudgeContext, a: Assessment) -> bool:
    """Whether the title the citation and the record share names one work: the record's title, or the cited
    one when it is only the record's title without its subtitle (then it must be long enough by itself)."""
    if a.title_form == "subtitle" and len(content_words(ctx.reference.title)) < SPECIFIC_TITLE_WORDS:
        return False
    return specific(ctx, a)


def renamed(a: Assessment) -> bool:
    """Whether `a` is the cited work under another title: the record the cited arXiv id names, by the
    cited authors, with a title at least half alike (papers are renamed between arXiv versions,
    "MACE-OFF23: ..." becoming "MACE-OFF: ...", and an arXiv id names one work). A DOI names one
    published version whose title is fixed: a title one word off it is a near miss (H2)."""
    arxiv_doi = a.fields.get("doi") is not None and a.status("doi") == M and a.fields["doi"].note == "arXiv DOI"
    if a.same_title or (a.status("arxiv_id") != M and not arxiv_doi):
        return False
    return version_by_identifier(a)


def version_by_identifier(a: Assessment) -> bool:
    """Whether the record a cited identifier names is by the cited authors with a title at least half
    alike: another version of the cited work (renamed, or a conference paper and its journal
    extension), not a different work."""
    return by_cited_people(a, SOME) and a.title_similarity >= VERSION_TITLE_SIMILARITY


def versions_of(ctx: JudgeContext, work: Assessment) -> list[Assessment]:
    """Renderings of the same work: same record, or same title and (nearly) the same authors. Made once
    per work."""
    key = ("versions", id(work))
    if key not in ctx.facts:
        ctx.facts[key] = _versions(ctx, work)
    return ctx.facts[key]  # type: ignore[return-value]


def _versions(ctx: JudgeContext, work: Assessment) -> list[Assessment]:
    out = []
    for a in ctx.assessments:
        same_record = bool(a.candidate.work) and a.candidate.work == work.candidate.work
        if same_record or (a.same_title and same_people(a.candidate, work.candidate)):
            out.append(a)
    return out


def whole_title(ctx: JudgeContext, work: Assessment) -> str | None:
    """Why `work` is not identified by the whole cited title, or None when it is. A record that holds the
    cited title without its subtitle (indexes drop subtitles) identifies the work when that main title
    names one work by itself; a cited title without the record's subtitle does not (a textbook's "Finite
    element analysis" is the head of many titles)."""
    if work.title_form == "raw-text":
        return "the record's title was only found inside the reference's text"
    if work.title_form == "subtitle":
        record, cited = content_words(work.candidate.title), content_words(ctx.reference.title)
        if len(record) >= len(cited) or len(record) < SPECIFIC_TITLE_WORDS or not specific(ctx, work):
            return "only the title without its subtitle matches"
        return None
    if work.title_form not in ("exact", "qualifier"):
        return "the titles differ"
    return None


def specific(
    ctx: JudgeContext, work: Assessment, words: int = SPECIFIC_TITLE_WORDS, shared: int = SHARED_TITLES
) -> bool:
    """Whether the work's title is rare enough to name one work (absence.title_specificity)."""
    return title_specificity(ctx, work, words, shared).specific


def identified(ctx: JudgeContext, work: Assessment, *, need_authors: bool) -> tuple[str | None, str]:
    """(why the work is not identified, or None; how it is identified)."""
    why = whole_title(ctx, work)
    if why:
        return why, ""
    if work_kind(ctx.reference)[0] == "book" and not record_is_book(work.candidate):
        return "the cited work is a book and the record is not: journals print reviews under a book's title", ""
    title = work.candidate.title or ""
    parts = [f"the whole title of {label(work)}"]
    if need_authors:
        if work.authors is not None and not by_cited_people(work, MOST):
            return "the cited authors are not the record's", ""
        if work.authors is not None:
            parts.append("its authors")
    if not specific(ctx, work):
        exact_year = any(v.year_delta == 0 for v in versions_of(ctx, work)) or ctx.reference.year is None
        if not (exact_year and work.status("venue") in (M, None) and (need_authors or ctx.reference.venue)):
            return f"the short title '{title}' is shared by many works", ""
        parts.append("its year and venue")
    return None, ", ".join(parts)
