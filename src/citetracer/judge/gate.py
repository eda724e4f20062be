"""The accusation gate: the one place every Hallucinated finding must pass to become a verdict.

The principle (DESIGN.md, "Accuse only with proof about this work"): a citation is
Hallucinated only on positive evidence about *this* cited work:

(a) its identity established, so that an honest citation of that work would look like
    this one (the whole title, not a fragment of it, with the other fields it names agreeing
    well enough), or its absence shown where the sources cover the cited venue in that very
    year; and
(b) a contradiction that an honest citation of that work could not produce (an honest
    author misspells a name, drops a subtitle, cites a later edition, writes a venue in a
    way no table lists; a fabrication invents authors, venues, identifiers and titles).

Anything weaker is Potential (P3 when a real work matches, P1 otherwise) and says which
half of the proof was missing. Each code's check below returns the basis of the accusation
(what it rests on, shown in the report) or the reason it was withheld. The rules that find
a code (`codes.py`) say what is wrong; this module decides whether that is proof.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from citetracer.judge.codes import Finding
from citetracer.judge.context import JudgeContext
from citetracer.judge.facts.absence import absence_fact, title_specificity
from citetracer.judge.facts.authors import MOST, SOME, author_fact, by_cited_people
from citetracer.judge.facts.dates import year_fact
from citetracer.judge.facts.identity import identified, is_book, label, record_is_book, versions_of, work_of
from citetracer.judge.facts.reading import (
    ET_AL,
    content_words,
    garbled_copy,
    names_in_text,
    not_a_citation,
    phrase_in_text,
    text_trouble,
    title_doubt,
    title_in_text,
    year_in_text,
)
from citetracer.judge.facts.venue import spelled, venue_conflict, venue_names, venue_witness, version_at_cited_venue
from citetracer.match.rules import Assessment
from citetracer.normalize.opposites import opposed_words
from citetracer.normalize.rewording import swapped_in_place
from citetracer.normalize.text import canonical_doi, title_form, title_inside
from citetracer.records import FieldStatus
from citetracer.thresholds import (
    IMPLAUSIBLE_FUTURE,
    LONG_LIST,
    LONG_LIST_MATCHED,
    NEAR_MISS_CERTAIN,
    RENAMED_TITLE_SIMILARITY,
    UNIQUE_SHARED,
    UNIQUE_TITLE_WORDS,
    VERSION_YEARS,
)

M, X = FieldStatus.MATCH, FieldStatus.MISMATCH

#: Venues that publish a paper once: the same paper in another year of one is no later version of it
#: (a journal prints reviews, errata and replies under a work's title in later volumes).
_ONCE = frozenset({"conference", "workshop"})


@dataclass(frozen=True)
class Decision:
    """The gate's answer for one finding: admitted with its basis, or withheld with the reason."""

    admitted: bool
    basis: str


def _admit(basis: str) -> Decision:
    return Decision(True, basis)


def _withhold(reason: str) -> Decision:
    return Decision(False, reason)


def _years_agree(ctx: JudgeContext, work: Assessment) -> bool:
    deltas = [abs(v.year_delta) for v in versions_of(ctx, work) if v.year_delta is not None]
    return not deltas or min(deltas) <= VERSION_YEARS


def _venue_agrees(ctx: JudgeContext, work: Assessment) -> bool:
    conflict = venue_conflict(ctx, work)
    agreeing = ("preprint-version", "unconfirmable", "unrecognised")
    return conflict is None or conflict[0] in agreeing or spelled(ctx, work)


# --------------------------------------------------------------------------- per code


def _h1(ctx: JudgeContext, f: Finding) -> Decision:
    absence = absence_fact(ctx)
    if not absence.proven:
        return _withhold(absence.basis)
    shape = not_a_citation(ctx.reference) or text_trouble(ctx.reference) or title_doubt(ctx.reference)
    if shape:
        return _withhold(shape)
    garbled = next(
        (a for a in ctx.assessments if a.candidate.title and garbled_copy(ctx.reference, a.candidate.title)), None
    )
    if garbled is not None:
        return _withhold(f"the cited title is that of {label(garbled)} with numbers or stray letters inside")
    renamed = None if ctx.bundle.closed_world else _another_title_of_theirs(ctx)
    if renamed is not None:
        return _withhold(
            f"the cited authors' {label(renamed)} '{renamed.candidate.title}' ({renamed.candidate.year}) is "
            f"{renamed.title_similarity:.0%} alike: the work may be cited under another of its titles (papers are "
            "renamed between versions, and the sources searched show only the latest)"
        )
    return _admit(f"absence where the search covers the citation ({absence.basis}){_opposed_note(ctx)}")


def _opposed(ctx: JudgeContext, a: Assessment) -> tuple[str, str] | None:
    """The words by which the cited title says the opposite of a record's title, if any."""
    if not ctx.reference.title or not a.candidate.title:
        return None
    return opposed_words(ctx.reference.title, a.candidate.title)


def _no_other_title(ctx: JudgeContext, a: Assessment) -> str | None:
    """Why a record's title, alike the cited one, is no other title of the cited work, if it is not: the cited
    title says the opposite of it, or rewrites it word for word in place (a version is renamed, not turned into
    its opposite nor made up from the other word by word)."""
    words = _opposed(ctx, a)
    if words is not None:
        cited, theirs = words
        said = (
            f"says '{cited}' where it says '{theirs}'"
            if cited and theirs
            else (f"adds '{cited}'" if cited else f"drops its '{theirs}'")
        )
        return f"the cited title {said} (a version is renamed, not turned into its opposite)"
    swaps = swapped_in_place(ctx.reference.title or "", a.candidate.title or "")
    if swaps:
        said = ", ".join(f"'{c}' for '{t}'" for c, t in swaps)
        return (
            f"the cited title keeps its words in place but swaps {said} (a version is renamed, not made up from "
            "another title word for word)"
        )
    return None


def _opposed_note(ctx: JudgeContext) -> str:
    """Why the cited authors' most alike work is not the cited one under another title, when its title says the
    opposite or is rewritten word for word (see `_no_other_title`): said beside an absence that stands."""
    for a in sorted(ctx.assessments, key=lambda x: x.title_similarity, reverse=True):
        if a.title_similarity < RENAMED_TITLE_SIMILARITY:
            break
        why = _no_other_title(ctx, a) if by_cited_people(a, MOST) else None
        if why is not None:
            title, year = a.candidate.title, a.candidate.year
            return f"; the cited authors' {label(a)} '{title}' ({year}) is no other title of it: {why}"
    return ""


def _another_title_of_theirs(ctx: JudgeContext) -> Assessment | None:
    """A work of the cited authors, of the cited year (or one off) and venue, whose title is alike enough to
    be another title of the cited work (a declared-complete store holds every title: never asked there)."""
    for a in sorted(ctx.assessments, key=lambda x: x.title_similarity, reverse=True):
        if a.title_similarity < RENAMED_TITLE_SIMILARITY:
            break
        if not by_cited_people(a, MOST):
            continue
        if a.year_delta is not None and abs(a.year_delta) > VERSION_YEARS:
            continue
        if a.status("venue") == X and venue_conflict(ctx, a) is not None:
            continue
        if _no_other_title(ctx, a) is not None:
            continue  # a version is renamed, not turned into its opposite nor rewritten word for word
        return a
    return None


def _their_version_of_the_title(ctx: JudgeContext, work: Assessment) -> Assessment | None:
    """When the identified work is by none of the cited people: a record of another work, by the cited people, of
    the cited year (or one off), whose title is the cited one with a few words around it or without its subtitle
    ("Towards high-resolution annual maps ..." for "High-resolution annual maps ..."): the cited authors' own
    work, cited under another of its titles. Then the same title held by others' work is a shared title, not
    their names put on it (H3, H6). Another record of the identified work itself (the same title) is no such
    witness: a name added to a list is judged against the work's own records."""
    if by_cited_people(work, SOME, names=1):
        return None
    cited, found = ctx.reference.title or "", work.candidate.title or ""
    for a in ctx.assessments:
        title = a.candidate.title or ""
        same_work = a.candidate.work is not None and a.candidate.work == work.candidate.work
        if a is work or not title or same_work or title_form(found, title) == "exact":
            continue
        if not by_cited_people(a, MOST):
            continue
        if a.year_delta is not None and abs(a.year_delta) > VERSION_YEARS:
            continue
        if _opposed(ctx, a) is None and (title_inside(cited, title) or title_form(cited, title) is not None):
            return a
    return None


def _their_version_withheld(ctx: JudgeContext, work: Assessment) -> Decision | None:
    own = _their_version_of_the_title(ctx, work)
    if own is None:
        return None
    year = f", {own.candidate.year}" if own.candidate.year else ""
    return _withhold(
        f"the cited authors' own '{own.candidate.title}'{year} {label(own)} is the cited title in another form: "
        "their work cited under another of its titles, which a work by others shares"
    )


def _h2(ctx: JudgeContext, f: Finding) -> Decision:
    shape = not_a_citation(ctx.reference) or text_trouble(ctx.reference) or title_doubt(ctx.reference)
    if shape:
        return _withhold(shape)
    near = next((a for a in ctx.assessments if f.evidence and a.candidate is f.evidence[0]), None)
    if near is not None and near.candidate.title and garbled_copy(ctx.reference, near.candidate.title):
        return _withhold("the cited title is the record's with numbers or stray letters inside (a PDF line break)")
    if near is not None and not ctx.bundle.covered and not ctx.failed_sources and _same_paper_slot(near):
        return _admit(
            f"the cited authors' work {label(near)} in the cited venue and year has a nearly identical title "
            f"({near.title_similarity:.0%})"
        )
    absence = absence_fact(ctx)
    if not absence.proven:
        return _withhold(f"the cited title may be another version the sources searched do not hold ({absence.basis})")
    if near is None or not by_cited_people(near, SOME):
        return _withhold("the similar title is not by the cited authors")
    if near.year_delta is not None and abs(near.year_delta) > 1:
        return _withhold("the similar title is from another year")
    return _admit(
        f"the cited authors' work {label(near)} of that year has a nearly identical title, and no work has the cited "
        f"one where the search covers it ({absence.basis})"
    )


def _same_paper_slot(near: Assessment) -> bool:
    """The near-miss record has exactly the cited authors, venue and year, and a title one word away:
    two such papers by the same people in one venue and year do not happen by honest accident."""
    return (
        near.title_similarity >= NEAR_MISS_CERTAIN
        and near.status("authors") == M
        and near.status("venue") == M
        and near.year_delta == 0
    )


def _h3(ctx: JudgeContext, f: Finding) -> Decision:
    work = work_of(ctx)
    assert work is not None and work.authors is not None
    why, how = identified(ctx, work, need_authors=False)
    if why:
        return _withhold(why)
    theirs = _their_version_withheld(ctx, work)
    if theirs is not None:
        return theirs
    agree = _years_agree(ctx, work) and _venue_agrees(ctx, work)
    if _doi_names(ctx, work):
        how += " and the cited DOI, which is the record's"
    else:
        unique = title_specificity(ctx, work, UNIQUE_TITLE_WORDS, UNIQUE_SHARED)
        if not _years_agree(ctx, work) and not unique.specific:
            return _withhold(
                f"the record is from another year: another work with this title is as likely ({unique.basis})"
            )
        if not _venue_agrees(ctx, work) and not unique.specific:
            return _withhold(f"the venue differs too: another work with this title is as likely ({unique.basis})")
    trouble = text_trouble(ctx.reference)
    if trouble:
        return _withhold(trouble)
    if names_in_text(ctx.reference, work.candidate):
        return _withhold("the record's authors missing from the parsed list are named in the reference's text")
    cmp = work.authors
    fact = author_fact(ctx, work)
    if fact is not None and not fact.complete and not _head_contradicted(ctx, work):
        return _withhold(f"the record's author list may not be whole: {fact.why}")
    if cmp.matched + cmp.variants == cmp.cited and cmp.uncited and ET_AL.search(ctx.reference.raw or ""):
        return _withhold("the reference's text ends its author list with 'et al.'")
    # A stray name in a long list may render a record author that no other cited name matches; where every
    # author of a list the source holds whole is matched, it renders no one: a padded list, judged as such.
    rendered = cmp.uncited > 0 or fact is None or not fact.complete
    if (
        rendered
        and cmp.cited >= LONG_LIST
        and (cmp.matched + cmp.variants + cmp.given_conflicts) / cmp.cited >= LONG_LIST_MATCHED
    ):
        return _withhold(
            f"{cmp.matched + cmp.variants} of {cmp.cited} cited authors match: the rest read as renderings"
        )
    if fact is not None and not fact.complete:
        held = "a list cut short keeps its first authors"
    else:
        held = fact.why if fact is not None else "the record lists its authors"
    return _admit(f"identified by {how}{'; the year and venue agree' if agree else ''}; {held}")


def _doi_names(ctx: JudgeContext, work: Assessment) -> bool:
    """The cited DOI is the record's: an identifier names one work, so a common title under it is no doubt
    that this is the cited work (whatever other works share the title, year or venue)."""
    doi = canonical_doi(ctx.reference.doi)
    return doi is not None and doi == canonical_doi(work.candidate.doi)


def _head_contradicted(ctx: JudgeContext, work: Assessment) -> bool:
    """A record that may have cut its author list still knows the authors it lists: a cited name inside
    the record's span (among the cited list's first as many names as the record holds, less the record's
    names the citation leaves out or names by a family name only: a cited list that skips two of them
    reaches two names further into the work's list) that no record author explains cannot be the cut's
    doing; nor can a cited list none of whose names is among a record's three or more."""
    cmp = work.authors
    if cmp is None:
        return False
    if len(work.candidate.authors) >= 3 and cmp.matched + cmp.variants + cmp.given_conflicts == 0:
        return True
    fact = author_fact(ctx, work)
    if fact is None:
        return False
    # Record names no cited name is, or that a cited name matches by its family name only (another person
    # of that name: "Tong Zhang" for "Yihan Zhang"), may be ones the citation skipped.
    skipped = cmp.uncited + cmp.given_conflicts
    span = {p.display() for p in ctx.reference.authors[: len(work.candidate.authors) - skipped]}
    return any(n in span for n in fact.unmatched)


def _h4(ctx: JudgeContext, f: Finding) -> Decision:
    if f.kind == "details":
        return _details(ctx, f)
    if f.kind == "future":
        year = ctx.reference.year or 0
        if year > ctx.today_year + IMPLAUSIBLE_FUTURE:
            return _withhold(f"{year} is not a plausible year (a number read as one)")
        shape = not_a_citation(ctx.reference)
        return _withhold(shape) if shape else _admit(f"the cited year {year} has not come yet")
    work, how, doubt = _identified_work(ctx)
    if doubt:
        return _withhold(doubt)
    if "venue" in f.fields and spelled(ctx, work):
        return _withhold(f"'{ctx.reference.venue}' can be a spelling of the work's venue")
    if "venue" in f.fields and any(phrase_in_text(ctx.reference, n) for n in venue_names(ctx, work)):
        return _withhold("the work's venue is named in the reference's text (the field parser read another part)")
    other = version_at_cited_venue(ctx, work) if "venue" in f.fields else None
    if other is not None:
        return _withhold(
            f"the cited authors' {label(other)} '{other.candidate.title}' ({other.candidate.venue}, "
            f"{other.candidate.year}) is at the cited venue: a conference version and its journal extension often "
            "carry different titles, and citations mix them"
        )
    if "year" in f.fields and "venue" not in f.fields:
        written = year_in_text(ctx.reference, [v.candidate.year or 0 for v in versions_of(ctx, work)])
        if written is not None:
            return _withhold(
                f"the work's year {written} is written in the reference's text (the cited year is another number "
                "read as one, such as an arXiv identifier's month)"
            )
        if is_book(ctx.reference) or record_is_book(work.candidate):
            return _withhold("books have editions, reprints and translations in other years")
        same_venue = bool(ctx.reference.venue) and (work.status("venue") == M or spelled(ctx, work))
        fact = year_fact(ctx, work, same_venue)
        return _admit(f"identified by {how}; {fact.basis}") if fact.contradicted else _withhold(fact.basis)
    conflict = venue_conflict(ctx, work) if "venue" in f.fields else None
    if conflict is not None and conflict[0] in ("preprint-as-published", "other-venue"):
        _, witness = venue_witness(ctx, renamed=conflict[0] == "preprint-as-published")
        return _admit(f"identified by {how}; {witness}")
    return _admit(f"identified by {how}")


def _identified_work(ctx: JudgeContext) -> tuple[Assessment, str, str | None]:
    """The work, how it is identified by its title and its authors, and why that is not enough to accuse
    (not identified, or the reference's text untrustworthy), or None."""
    work = work_of(ctx)
    assert work is not None
    why, how = identified(ctx, work, need_authors=True)
    return work, how, why or text_trouble(ctx.reference)


def _details(ctx: JudgeContext, f: Finding) -> Decision:
    """Publication details contradict the work only where the work is identified by its title and its
    authors, and the record stating them is of the cited venue and year (facts/details.py)."""
    _, how, doubt = _identified_work(ctx)
    if doubt:
        return _withhold(doubt)
    held = ", ".join(sorted({label(a) for a in ctx.assessments if a.candidate in f.evidence}))
    return _admit(f"identified by {how}; {held} of the cited venue and year states the {', '.join(f.fields)}")


def _h5(ctx: JudgeContext, f: Finding) -> Decision:
    if f.kind in ("doi-absent", "arxiv-absent"):
        work = work_of(ctx)
        if work is not None and not any(
            v.candidate.arxiv_id or (v.candidate.doi or "").startswith("10.48550/") for v in versions_of(ctx, work)
        ):
            # The cited work is held, by its title and authors, and no record of it names an arXiv id to set
            # the cited one against: an id mistyped for a held work is a doubt, not a fabricated work.
            if f.kind == "arxiv-absent" and not ctx.bundle.closed_world:
                return _withhold(f"the work is held ({label(work)}) and no record of it names its arXiv id")
        return _admit("a registry complete for the identifier answered that it does not exist")
    if f.kind in ("doi-other-work", "arxiv-other-work"):
        if len(content_words(ctx.reference.title)) < 2:
            return _withhold("the citation has no title to compare with the identifier's record")
        holder = f.evidence[0] if f.evidence else None
        if holder is not None and holder.title and title_in_text(ctx.reference, holder.title):
            return _withhold("the identifier's record is named in the reference's text (two references run together)")
        return _admit("the identifier's record has another title")
    work = work_of(ctx)
    if f.kind == "arxiv-not-the-works" and work is not None:
        why, how = identified(ctx, work, need_authors=True)
        if why:
            return _withhold(why)
        return _admit(f"identified by {how}; an arXiv id names one work")
    if ctx.bundle.closed_world:
        return _admit("the local store is declared complete, and it knows the identifier as no work's")
    return _withhold("the identifier may belong to a version the sources searched do not hold")


def _h6(ctx: JudgeContext, f: Finding) -> Decision:
    work = work_of(ctx)
    assert work is not None
    why, how = identified(ctx, work, need_authors=False)
    if why:
        return _withhold(why)
    if "doi" in f.fields:
        return _admit(f"identified by {how}; the DOI's record is another work")
    theirs = _their_version_withheld(ctx, work)
    if theirs is not None:
        return theirs
    unique = title_specificity(ctx, work, UNIQUE_TITLE_WORDS, UNIQUE_SHARED)
    if not unique.specific:
        return _withhold(
            f"works by other people may merely share the title ({unique.basis}): a title by others is no proof "
            "that the cited authors took it"
        )
    other = f.evidence[1] if len(f.evidence) > 1 else None
    others = [a for a in ctx.assessments if other is not None and a.candidate is other]
    if not others or others[0].authors is None:
        return _withhold("the other work is not established")
    cmp = others[0].authors
    if cmp.matched < min(2, cmp.cited) or cmp.given_conflicts:
        return _withhold("the authors' other work is not established by more than one shared surname")
    trouble = text_trouble(ctx.reference)
    if trouble:
        return _withhold(trouble)
    if names_in_text(ctx.reference, work.candidate):
        return _withhold("every author of the titled work is named in the reference's text")
    if by_cited_people(work, SOME, names=1):
        return _withhold("the titled work shares authors with the citation")
    return _admit(f"identified by {how}; the cited authors are those of {label(others[0])}")


CHECKS: dict[str, Callable[[JudgeContext, Finding], Decision]] = {
    "H1": _h1,
    "H2": _h2,
    "H3": _h3,
    "H4": _h4,
    "H5": _h5,
    "H6": _h6,
}


def admit(ctx: JudgeContext, finding: Finding) -> Decision:
    """Whether `finding` (an H code) is proof about this cited work, and on what basis."""
    check = CHECKS[finding.code]
    return check(ctx, finding)


def withheld_finding(ctx: JudgeContext, finding: Finding, reason: str) -> Finding:
    """The Potential finding a withheld accusation becomes: what was found, and why it is not proof."""
    work = work_of(ctx)
    code = "P3" if work is not None else "P1"
    text = f"{finding.observed or finding.reason}, but this is not proof ({reason})"
    evidence = finding.evidence or ([work.candidate] if work is not None else [])
    return replace(
        finding,
        code=code,
        reason=f"not accused of {finding.code}: {text}",
        evidence=evidence,
        withheld_from=finding.code,
    )
