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

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from citetracer.judge.codes import Finding, is_book, record_is_book, venue_conflict
from citetracer.judge.context import JudgeContext
from citetracer.judge.facts import absence_fact, author_fact, content_words, title_specificity
from citetracer.match.rules import Assessment
from citetracer.normalize.kinds import work_kind
from citetracer.normalize.names import particles, surname_keys
from citetracer.normalize.text import canonical_doi, title_similarity, title_words
from citetracer.normalize.venues import spells_any, venue_kind
from citetracer.records import FieldStatus
from citetracer.thresholds import (
    IMPLAUSIBLE_FUTURE,
    LONG_LIST,
    LONG_LIST_MATCHED,
    NEAR_MISS_CERTAIN,
    RENAMED_TITLE_SIMILARITY,
    SAME_AUTHORS_OVERLAP,
    SAME_PEOPLE_OVERLAP,
    SHARED_TITLES,
    SPECIFIC_TITLE_WORDS,
    UNIQUE_SHARED,
    UNIQUE_TITLE_WORDS,
    VERSION_TITLE_SIMILARITY,
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


def _label(a: Assessment) -> str:
    return f"[{a.candidate.source}:{a.candidate.id}]"


def _ref_looks_cited(ctx: JudgeContext) -> str | None:
    """Why the reference does not look like a citation at all (a table row, an equation), or None."""
    ref = ctx.reference
    if len(content_words(ref.title)) < 2:
        return "the reference has no title of two or more words to check"
    if not ref.authors and not ref.venue and not ref.doi and not ref.arxiv_id:
        return "the reference names neither authors nor a venue"
    return None


def _raw_names(ctx: JudgeContext) -> str:
    """The reference's own text, folded, when it was read from free text (a PDF, .bbl, plain list)."""
    raw = ctx.reference.raw or ""
    return "" if raw.lstrip().startswith("@") else f" {' '.join(title_words(raw))} "


def _names_in_raw(ctx: JudgeContext, work: Assessment) -> bool:
    """Whether the record's authors that the parsed list lacks are all in the reference's text:
    then the field parser, not the citation, lost them."""
    raw = _raw_names(ctx)
    if not raw.strip() or not work.candidate.authors:
        return False
    cited = {k for p in ctx.reference.authors for k in surname_keys(p.family)}
    lacking = [p for p in work.candidate.authors if not set(surname_keys(p.family)) & cited]
    families = [" ".join(title_words(p.family)) for p in lacking]
    families = [f for f in families if f]
    return bool(families) and all(f" {f} " in raw for f in families)


_LABEL = re.compile(r"(?:^|\s)\[\d{1,4}\](?=\s)")
_ET_AL = re.compile(r"\bet\.?\s*al\b|\band\s+others\b", re.IGNORECASE)


def _raw_trouble(ctx: JudgeContext) -> str | None:
    """Why the reference's own text shows that its parsed author list cannot be trusted, or None."""
    raw = ctx.reference.raw or ""
    if not raw or raw.lstrip().startswith("@"):
        return None
    if len(_LABEL.findall(f" {raw} ")) >= 2:
        return "the reference's text holds two numbered references run together"
    head = raw.lstrip()
    first = head.split(" ", 1)[0].lower()
    if (head[:1].islower() and first not in particles()) or first in ("and", "&"):
        return "the reference's text starts mid-sentence (its beginning is elsewhere, e.g. before a page break)"
    return None


def _whole_title(ctx: JudgeContext, work: Assessment) -> str | None:
    """Why `work` is not identified by the whole cited title, or None when it is."""
    if work.title_form == "raw-text":
        return "the record's title was only found inside the reference's text"
    if work.title_form == "subtitle":
        return "only the title without its subtitle matches"
    if work.title_form not in ("exact", "qualifier"):
        return "the titles differ"
    return None


def _specific(
    ctx: JudgeContext, work: Assessment, words: int = SPECIFIC_TITLE_WORDS, shared: int = SHARED_TITLES
) -> bool:
    """Whether the work's title is rare enough to name one work (judge/facts.py: title_specificity)."""
    return title_specificity(ctx, work, words, shared).specific


def _years_agree(ctx: JudgeContext, work: Assessment) -> bool:
    deltas = [abs(v.year_delta) for v in ctx.versions_of(work) if v.year_delta is not None]
    return not deltas or min(deltas) <= VERSION_YEARS


def _venue_agrees(ctx: JudgeContext, work: Assessment) -> bool:
    conflict = venue_conflict(ctx, work)
    agreeing = ("preprint-version", "unconfirmable", "unrecognised")
    return conflict is None or conflict[0] in agreeing or _spelled(ctx, work)


def _venue_names(ctx: JudgeContext, work: Assessment) -> list[str]:
    """Every name the work's venue goes by: each version's venue and proceedings title, and what the
    store's venue knowledge base holds for them."""
    names: list[str] = []
    for v in ctx.versions_of(work):
        for n in (v.candidate.venue, v.candidate.venue_full):
            if n and n not in names:
                names.append(n)
                names.extend(x for x in ctx.venue_names(n) if x not in names)
    return names


def _spelled(ctx: JudgeContext, work: Assessment) -> bool:
    cited = ctx.reference.venue
    return bool(cited) and spells_any(cited or "", _venue_names(ctx, work))


def _identified(ctx: JudgeContext, work: Assessment, *, need_authors: bool) -> tuple[str | None, str]:
    """(why the work is not identified, or None; how it is identified)."""
    why = _whole_title(ctx, work)
    if why:
        return why, ""
    title = work.candidate.title or ""
    specific = _specific(ctx, work)
    parts = [f"the whole title of {_label(work)}"]
    if need_authors:
        cmp = work.authors
        if cmp is not None and not (
            work.status("authors") == M
            or (cmp.overlap >= SAME_PEOPLE_OVERLAP and cmp.matched + cmp.variants >= min(2, cmp.cited))
        ):
            return "the cited authors are not the record's", ""
        if cmp is not None:
            parts.append("its authors")
    if not specific:
        exact_year = any(v.year_delta == 0 for v in ctx.versions_of(work)) or ctx.reference.year is None
        if not (exact_year and work.status("venue") in (M, None) and (need_authors or ctx.reference.venue)):
            return f"the short title '{title}' is shared by many works", ""
        parts.append("its year and venue")
    return None, ", ".join(parts)


# --------------------------------------------------------------------------- per code


def _h1(ctx: JudgeContext, f: Finding) -> Decision:
    absence = absence_fact(ctx)
    if not absence.proven:
        return _withhold(absence.basis)
    shape = _ref_looks_cited(ctx) or _raw_trouble(ctx)
    if shape:
        return _withhold(shape)
    garbled = next((a for a in ctx.assessments if a.candidate.title and _garbled_copy(ctx, a.candidate.title)), None)
    if garbled is not None:
        return _withhold(f"the cited title is that of {_label(garbled)} with numbers or stray letters inside")
    renamed = None if ctx.bundle.closed_world else _another_title_of_theirs(ctx)
    if renamed is not None:
        return _withhold(
            f"the cited authors' {_label(renamed)} '{renamed.candidate.title}' ({renamed.candidate.year}) is "
            f"{renamed.title_similarity:.0%} alike: the work may be cited under another of its titles (papers are "
            "renamed between versions, and the sources searched show only the latest)"
        )
    return _admit(f"absence where the search covers the citation ({absence.basis})")


def _another_title_of_theirs(ctx: JudgeContext) -> Assessment | None:
    """A work of the cited authors, of the cited year (or one off) and venue, whose title is alike enough to
    be another title of the cited work (a declared-complete store holds every title: never asked there)."""
    for a in sorted(ctx.assessments, key=lambda x: x.title_similarity, reverse=True):
        if a.title_similarity < RENAMED_TITLE_SIMILARITY:
            break
        cmp = a.authors
        if cmp is None or cmp.overlap < SAME_PEOPLE_OVERLAP or cmp.matched + cmp.variants < min(2, cmp.cited):
            continue
        if a.year_delta is not None and abs(a.year_delta) > VERSION_YEARS:
            continue
        if a.status("venue") == X and venue_conflict(ctx, a) is not None:
            continue
        return a
    return None


def _h2(ctx: JudgeContext, f: Finding) -> Decision:
    shape = _ref_looks_cited(ctx) or _raw_trouble(ctx)
    if shape:
        return _withhold(shape)
    near = next((a for a in ctx.assessments if f.evidence and a.candidate is f.evidence[0]), None)
    if near is not None and near.candidate.title and _garbled_copy(ctx, near.candidate.title):
        return _withhold("the cited title is the record's with numbers or stray letters inside (a PDF line break)")
    if near is not None and not ctx.bundle.covered and not ctx.failed_sources and _same_paper_slot(near):
        return _admit(
            f"the cited authors' work {_label(near)} in the cited venue and year has a nearly identical title "
            f"({near.title_similarity:.0%})"
        )
    absence = absence_fact(ctx)
    if not absence.proven:
        return _withhold(f"the cited title may be another version the sources searched do not hold ({absence.basis})")
    if (
        near is None
        or near.authors is None
        or near.authors.matched + near.authors.variants < min(2, near.authors.cited)
    ):
        return _withhold("the similar title is not by the cited authors")
    if near.year_delta is not None and abs(near.year_delta) > 1:
        return _withhold("the similar title is from another year")
    return _admit(
        f"the cited authors' work {_label(near)} of that year has a nearly identical title, and no work has the cited "
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
    work = ctx.work
    assert work is not None and work.authors is not None
    why, how = _identified(ctx, work, need_authors=False)
    if why:
        return _withhold(why)
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
    trouble = _raw_trouble(ctx)
    if trouble:
        return _withhold(trouble)
    if work_kind(ctx.reference)[0] == "book" and not record_is_book(work.candidate):
        return _withhold("the cited work is a book and the record is not: journals print reviews under a book's title")
    if _names_in_raw(ctx, work):
        return _withhold("the record's authors missing from the parsed list are named in the reference's text")
    cmp = work.authors
    fact = author_fact(ctx, work)
    if fact is not None and not fact.complete and not _head_contradicted(ctx, work):
        return _withhold(f"the record's author list may not be whole: {fact.why}")
    if cmp.matched + cmp.variants == cmp.cited and cmp.uncited and _ET_AL.search(ctx.reference.raw or ""):
        return _withhold("the reference's text ends its author list with 'et al.'")
    if cmp.cited >= LONG_LIST and (cmp.matched + cmp.variants + cmp.given_conflicts) / cmp.cited >= LONG_LIST_MATCHED:
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
    """A record that may have cut its author list still knows its first authors: when no cited author,
    the first included, is among a record's three or more, the cut cannot explain it."""
    cmp = work.authors
    return (
        cmp is not None and len(work.candidate.authors) >= 3 and cmp.matched + cmp.variants + cmp.given_conflicts == 0
    )


def _h4(ctx: JudgeContext, f: Finding) -> Decision:
    if f.fields == ["year"] and "future" in f.reason:
        year = ctx.reference.year or 0
        if year > ctx.today_year + IMPLAUSIBLE_FUTURE:
            return _withhold(f"{year} is not a plausible year (a number read as one)")
        shape = _ref_looks_cited(ctx)
        return _withhold(shape) if shape else _admit(f"the cited year {year} has not come yet")
    work = ctx.work
    assert work is not None
    why, how = _identified(ctx, work, need_authors=True)
    if why:
        return _withhold(why)
    trouble = _raw_trouble(ctx)
    if trouble:
        return _withhold(trouble)
    if "venue" in f.fields and _spelled(ctx, work):
        return _withhold(f"'{ctx.reference.venue}' can be a spelling of the work's venue")
    if "venue" in f.fields and any(_phrase_in_raw(ctx, n) for n in _venue_names(ctx, work)):
        return _withhold("the work's venue is named in the reference's text (the field parser read another part)")
    other = _version_at_cited_venue(ctx, work) if "venue" in f.fields else None
    if other is not None:
        return _withhold(
            f"the cited authors' {_label(other)} '{other.candidate.title}' ({other.candidate.venue}, "
            f"{other.candidate.year}) is at the cited venue: a conference version and its journal extension often "
            "carry different titles, and citations mix them"
        )
    if "year" in f.fields and "venue" not in f.fields:
        written = _year_in_raw(ctx, work)
        if written is not None:
            return _withhold(
                f"the work's year {written} is written in the reference's text (the cited year is another number "
                "read as one, such as an arXiv identifier's month)"
            )
        if is_book(ctx.reference) or record_is_book(work.candidate):
            return _withhold("books have editions, reprints and translations in other years")
        if _years_before_first(ctx, work):
            return _admit(f"identified by {how}; the cited year is before every version of the work")
        same_venue = bool(ctx.reference.venue) and (work.status("venue") == M or _spelled(ctx, work))
        if same_venue and venue_kind(work.candidate.venue or ctx.reference.venue, work.candidate.type) in _ONCE:
            return _admit(f"identified by {how}; the work appeared at the cited conference in another year")
        return _withhold(
            "a citation dated after the work may cite a later version, or a review, erratum or reply of that title"
        )
    return _admit(f"identified by {how}")


def _version_at_cited_venue(ctx: JudgeContext, work: Assessment) -> Assessment | None:
    """Another work of the cited authors, at the cited venue within two years of the identified work,
    whose title reads like another version's (at least half alike): the citation may mean that one."""
    year = work.candidate.year
    for a in ctx.assessments:
        cmp = a.authors
        if a.candidate.work == work.candidate.work or cmp is None or a.same_title:
            continue
        if cmp.overlap < SAME_PEOPLE_OVERLAP or cmp.matched < min(2, cmp.cited):
            continue
        if a.status("venue") != M or (year and a.candidate.year and abs(a.candidate.year - year) > 2):
            continue
        if title_similarity(a.candidate.title or "", work.candidate.title or "") >= VERSION_TITLE_SIMILARITY:
            return a
    return None


def _year_in_raw(ctx: JudgeContext, work: Assessment) -> int | None:
    """A year of the work (any version's) written in the reference's own text, when the parsed year is not
    it: the text states the right year, so the wrong one is a reading or export slip ('(1909)' from the arXiv id
    1909.09436 beside '(2019)'), not a claim that the work is from another year."""
    raw = ctx.reference.raw or ""
    for v in ctx.versions_of(work):
        year = v.candidate.year
        if year and year != ctx.reference.year and re.search(rf"(?<![\d.]){year}(?![\d.])", raw):
            return year
    return None


def _years_before_first(ctx: JudgeContext, work: Assessment) -> bool:
    """The cited year is before every version of the work: it could not have been cited then."""
    years = [v.candidate.year for v in ctx.versions_of(work) if v.candidate.year]
    return bool(years) and ctx.reference.year is not None and ctx.reference.year < min(years)


def _h5(ctx: JudgeContext, f: Finding) -> Decision:
    if "does not resolve" in f.reason:
        return _admit("the DOI resolver answered that the DOI does not exist")
    if f.reason.startswith(("the DOI", "arXiv:")) and ("different work" in f.reason):
        if len(content_words(ctx.reference.title)) < 2:
            return _withhold("the citation has no title to compare with the identifier's record")
        holder = f.evidence[0] if f.evidence else None
        if holder is not None and holder.title and _title_in_raw(ctx, holder.title):
            return _withhold("the identifier's record is named in the reference's text (two references run together)")
        return _admit("the identifier's record has another title")
    if "arXiv id is" in f.reason and ctx.work is not None:
        why, how = _identified(ctx, ctx.work, need_authors=True)
        if why:
            return _withhold(why)
        return _admit(f"identified by {how}; an arXiv id names one work")
    if ctx.bundle.closed_world:
        return _admit("the local store is declared complete, and it knows the identifier as no work's")
    return _withhold("the identifier may belong to a version the sources searched do not hold")


def _garbled_copy(ctx: JudgeContext, title: str) -> bool:
    """Whether the cited title is `title` with only numbers or one- and two-letter bits added (a
    review copy's line number, a page number or a broken ligature inside a title the PDF broke),
    every word of `title` kept in order. Added words are a near-miss; added digits are the layout."""
    cited, found = list(title_words(ctx.reference.title or "")), list(title_words(title))
    if len(found) < 3:
        return False
    extra = [w for w in cited if w not in set(found)]
    it = iter(cited)
    in_order = all(any(w == c for c in it) for w in found)
    return in_order and bool(extra) and all(w.isdigit() or len(w) <= 2 for w in extra)


def _phrase_in_raw(ctx: JudgeContext, name: str) -> bool:
    """Whether a venue name (its acronym, or its name without years and ordinals) is in the reference's text."""
    raw = _raw_names(ctx)
    if not raw.strip():
        return False
    words = [w for w in title_words(name) if not w.isdigit()]
    if len(words) == 1:
        return len(words[0]) >= 3 and f" {words[0]} " in raw
    return 2 <= len(words) <= 8 and f" {' '.join(words)} " in raw


def _title_in_raw(ctx: JudgeContext, title: str) -> bool:
    raw = _raw_names(ctx)
    needle = " ".join(title_words(title))
    return bool(raw.strip()) and len(needle) >= 8 and f" {needle} " in raw


def _h6(ctx: JudgeContext, f: Finding) -> Decision:
    work = ctx.work
    assert work is not None
    why, how = _identified(ctx, work, need_authors=False)
    if why:
        return _withhold(why)
    if "doi" in f.fields:
        return _admit(f"identified by {how}; the DOI's record is another work")
    other = f.evidence[1] if len(f.evidence) > 1 else None
    others = [a for a in ctx.assessments if other is not None and a.candidate is other]
    if not others or others[0].authors is None:
        return _withhold("the other work is not established")
    cmp = others[0].authors
    if cmp.matched < min(2, cmp.cited) or cmp.given_conflicts:
        return _withhold("the authors' other work is not established by more than one shared surname")
    trouble = _raw_trouble(ctx)
    if trouble:
        return _withhold(trouble)
    if _names_in_raw(ctx, work):
        return _withhold("every author of the titled work is named in the reference's text")
    if work.authors is not None and work.authors.overlap >= SAME_AUTHORS_OVERLAP:
        return _withhold("the titled work shares authors with the citation")
    return _admit(f"identified by {how}; the cited authors are those of {_label(others[0])}")


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
    work = ctx.work
    code = "P3" if work is not None else "P1"
    text = f"{finding.observed or finding.reason}, but this is not proof ({reason})"
    evidence = finding.evidence or ([work.candidate] if work is not None else [])
    return replace(finding, code=code, reason=f"not accused of {finding.code}: {text}", evidence=evidence)
