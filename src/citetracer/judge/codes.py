"""One readable function per taxonomy code, each returning its finding and one-sentence reason.

A function looks at the JudgeContext and either returns None (the code does
not apply) or a Finding: the code, the offending fields, the reason shown in
the report, and the candidates that prove it. The router decides which of
the findings that fired make the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citetracer.judge.context import JudgeContext, known_registrants
from citetracer.judge.facts.authors import SOME, author_fact, by_cited_people, cut_short
from citetracer.judge.facts.dates import arxiv_year, doi_years, meeting_years, undated_by_meeting, venue_name_year
from citetracer.judge.facts.details import detail_contradictions
from citetracer.judge.facts.identifiers import absent_identifier
from citetracer.judge.facts.identity import (
    is_book,
    record_is_book,
    renamed,
    version_by_identifier,
    versions_of,
    work_of,
)
from citetracer.judge.facts.venue import SAME, venue_conflict, venue_fact, venue_witness, version_at_cited_venue
from citetracer.match.rules import MINOR_FIELDS, Assessment
from citetracer.normalize.kinds import NON_SCHOLARLY_KINDS, SCHOLARLY_KINDS, work_kind
from citetracer.normalize.text import canonical_arxiv, canonical_doi, doi_prefix
from citetracer.normalize.venues import is_preprint, venue_kind
from citetracer.records import Candidate, FieldComparison, FieldStatus
from citetracer.thresholds import (
    NEAR_MISS_CERTAIN,
    NEAR_MISS_SIMILARITY,
    ONLINE_FIRST_YEARS,
    SAME_AUTHORS_OVERLAP,
    SAME_PEOPLE_OVERLAP,
    VERSION_YEARS,
)

M, X = FieldStatus.MATCH, FieldStatus.MISMATCH


@dataclass
class Finding:
    code: str
    reason: str
    fields: list[str] = field(default_factory=list)
    evidence: list[Candidate] = field(default_factory=list)
    #: For an accusation the gate admitted: the positive evidence it rests on (judge/gate.py).
    basis: str = ""
    #: What was seen, in words that accuse no one: what a withheld accusation reports instead of
    #: `reason` (a record's author list may itself be incomplete or wrong).
    observed: str = ""
    #: A P3 finding's facts as (reason, field): one fact said once, where a withheld accusation
    #: of the same field says it already (judge/router.py).
    parts: list[tuple[str, str]] = field(default_factory=list)
    #: Which contradiction of its code the finding states (the accusation gate checks each kind's
    #: facts, never the reason's words): e.g. H5 "doi-absent", "doi-other-work", "arxiv-absent".
    kind: str = ""
    #: The accusation this Potential finding was before the gate withheld it (its code), or "".
    withheld_from: str = ""


def _cite(c: Candidate) -> str:
    year = f", {c.year}" if c.year else ""
    venue = f", {c.venue}" if c.venue else ""
    return f"'{c.title}'{venue}{year} [{c.source}:{c.id}]"


# ----------------------------------------------------------------------- Real


def r1_exact(ctx: JudgeContext) -> Finding | None:
    """R1: one candidate matches every cited field with no difference to explain."""
    for a in ctx.title_matches:
        if a.all_match and all(c.residual is None for c in a.fields.values()):
            return Finding("R1", f"every cited field matches {_cite(a.candidate)}", evidence=[a.candidate])
    return None


def r2_variant(ctx: JudgeContext) -> Finding | None:
    """Every difference is formatting, or is explained by another version of the same work."""
    for a in ctx.title_matches:
        if a.all_match:
            formatting = sorted({_difference(c) for c in a.fields.values() if c.residual})
            return Finding(
                "R2", f"matches {_cite(a.candidate)} up to formatting ({'; '.join(formatting)})", evidence=[a.candidate]
            )
    work = work_of(ctx)
    if work is None:
        return None
    versions = versions_of(ctx, work)
    notes: list[str] = []
    for name in work.fields:
        if name in MINOR_FIELDS or any(v.status(name) == M for v in versions):
            continue
        why = _version_difference(ctx, work, versions, name)
        if why is None:
            return None
        if why not in notes:
            notes.append(why)
    used = [v.candidate for v in versions if any(v.status(n) == M for n in v.fields)] or [work.candidate]
    if notes:
        return Finding("R2", f"matches {_cite(work.candidate)}: {'; '.join(notes)}", evidence=used[:3])
    if len(versions) < 2:
        return None
    return Finding(
        "R2", f"fields match different versions of one work: {'; '.join(_cite(c) for c in used[:3])}", evidence=used[:3]
    )


def _version_difference(ctx: JudgeContext, work: Assessment, versions: list[Assessment], name: str) -> str | None:
    """Why a field that matches no version of the work is still the same work's, or None.

    The venue: cited as the work's preprint, or a way of writing one of its venues (venue fact).
    The year, by one, where the venue agrees or is not cited: a preprint's year, a conference's
    against its proceedings' ("NIPS 18, 2006" for the 2005 conference), an online-first year
    against the issue's. Fields the record lacks, for a work cited as its preprint."""
    conflict = venue_conflict(ctx, work)
    as_preprint = conflict is not None and conflict[0] == "preprint-version" and _years_compatible(ctx, versions)
    fact = venue_fact(ctx, work)
    if name == "venue":
        if as_preprint and conflict is not None:
            return conflict[1]
        if fact is not None and fact.relation == SAME:
            return fact.sentence
        if fact is None and record_is_book(work.candidate):
            return f"'{ctx.reference.venue}' is a series or collection the book appears in"
        return None
    if name == "year":
        revision = _revision_year(ctx, versions)
        if revision is not None:
            return revision
        deltas = [abs(v.year_delta) for v in versions if v.year_delta is not None]
        if not deltas or is_book(ctx.reference):
            return None
        named = venue_name_year(ctx.reference.venue)
        if named is not None and named != ctx.reference.year and any(v.candidate.year == named for v in versions):
            return None  # the cited venue names the work's year and the year field another: no version explains it
        years = ", ".join(str(y) for y in sorted({v.candidate.year for v in versions if v.candidate.year}))
        deposited = doi_years(ctx.reference.doi).union(*(doi_years(v.candidate.doi) for v in versions))
        if ctx.reference.year in deposited and min(deltas) <= ONLINE_FIRST_YEARS:
            # A publisher that dates its DOIs wrote the year the work was deposited (online first); a record
            # dated a year or two after it carries the year (DESIGN.md: a record's date is the record's).
            return (
                f"the year {ctx.reference.year} is in the work's DOI (its deposit); the record's {years} is the issue's"
            )
        if min(deltas) > VERSION_YEARS:
            return None
        preprint = as_preprint or (
            "venue" not in work.fields
            and bool(canonical_arxiv(ctx.reference.arxiv_id))
            and ctx.reference.year is not None
            and all(ctx.reference.year <= (v.candidate.year or 0) for v in versions)
        )
        if preprint:
            return f"the year {ctx.reference.year} is that of its preprint; the published version is of {years}"
        later = [
            v
            for v in versions
            if (is_preprint(v.candidate.venue or v.candidate.venue_full) or v.candidate.type == "preprint")
            and v.candidate.year
            and 0 < (ctx.reference.year or 0) - v.candidate.year <= VERSION_YEARS
        ]
        if later and "venue" not in work.fields:
            # A preprint is revised and published after its first version: a citation a year later cites a
            # later version (its record's year is the first one's).
            return f"the year {ctx.reference.year} is a later version's: the preprint's first version is of {years}"
        venue_matches = any(v.status("venue") == M for v in versions) or (fact is not None and fact.relation == SAME)
        dated = meeting_years(versions)
        if dated and ctx.reference.year not in dated:
            return None  # a year before the meeting the proceedings' title names, or after their printing (P3)
        if venue_matches and venue_kind(ctx.reference.venue, ctx.reference.type) == "conference":
            return (
                f"the year {ctx.reference.year} is one off the record's ({years}): a conference and its "
                "proceedings are dated a year apart"
            )
        return None  # a journal's or an undated venue's year off by one, without version evidence: P3
    if name == "title" and renamed(work) and work.status("arxiv_id") == M:
        return (
            f"the cited arXiv id names {_cite(work.candidate)} under another title: arXiv papers are renamed "
            "between versions"
        )
    # An author list that stops short without "et al." is a partial list (P3), never formatting: the
    # names left out are named there. Names the record explains only loosely (swapped and cut short,
    # regrouped by extraction) with none left out are the record's, written garbled.
    if name == "authors" and work.authors is not None and not work.authors.given_conflicts:
        listed = author_fact(ctx, work)
        if listed is not None and not listed.unmatched and not listed.omitted:
            return "the cited names are the record's, some written garbled (swapped, cut short or regrouped)"
    if as_preprint and work.status(name) == FieldStatus.MISSING:
        return f"the record lacks the cited {name}"
    return None


def _revision_year(ctx: JudgeContext, versions: list[Assessment]) -> str | None:
    """The cited year as a later revision's, for a citation that names the work's arXiv identifier and no
    other venue, dated after the identifier was issued and not after today: arXiv keeps every revision of a
    work under one identifier (Adam's ninth version is of 2017, its first of 2014), and an author cites the
    version read. A year before the identifier was issued is no revision's (judge/facts/dates.py)."""
    ref = ctx.reference
    cited = canonical_arxiv(ref.arxiv_id)
    if not cited or ref.year is None or ref.year > ctx.today_year or (ref.venue and not is_preprint(ref.venue)):
        return None
    for v in versions:
        issued = arxiv_year(v)
        if canonical_arxiv(v.candidate.arxiv_id) == cited and issued is not None and issued < ref.year:
            return f"the year {ref.year} is a later revision's: arXiv:{cited} was first issued in {issued}"
    return None


def _authors_beyond_record(ctx: JudgeContext, a: Assessment) -> str:
    """Why the cited authors the record lacks are a gap in the record, not a contradiction: the
    record's list is not known whole, it names no author the citation omits, and it holds most of the
    cited names or is a long list the cited one continues in order (a service cut it: its names
    identify the work and say nothing of those past its end) ("" when that is not so)."""
    fact = author_fact(ctx, a) if a.authors is not None and a.status("authors") == X else None
    # Record authors the citation seems to omit, no more than its unmatched names, may be those names
    # written another way ("C. Canton-Ferrer" for "Cristian Canton Ferrer").
    if fact is None or fact.complete or len(fact.omitted) > len(fact.unmatched) or not fact.unmatched:
        return ""
    if a.authors is None:
        return ""
    cmp = a.authors
    if cmp.matched + cmp.variants + cmp.given_conflicts < max(2, 0.8 * cmp.cited) and not cut_short(
        ctx.reference.authors, a.candidate
    ):
        return ""  # a record naming few of the cited people identifies no work by them, unless it is a long list cut
    return f"the record lacks {len(fact.unmatched)} of the cited authors, and its list may not be whole ({fact.why})"


def _difference(c: FieldComparison) -> str:
    """How a field that does not contradict the work differs from the record, in a few words."""
    if c.status == X:  # a minor field (pages, volume, issue): versions and printings differ in them
        return f"{c.field} {c.cited} where the record has {c.found}"
    return c.note or f"{c.field} written differently"


def r3_incomplete(ctx: JudgeContext) -> Finding | None:
    """Strong identity, and the only gaps are fields the candidate does not record."""
    doi = canonical_doi(ctx.reference.doi)
    held = doi is not None and any(canonical_doi(a.candidate.doi) == doi for a in ctx.assessments)
    if doi and not held and (_unknown_registrant(ctx, doi) or absent_identifier(ctx, "doi") is not None):
        return None  # an identifier no source knows is a doubt, not a gap (P3 or H5); one a record holds is known
    for a in ctx.assessments:
        gap = _authors_beyond_record(ctx, a)
        # A year one off the record's that a version explains (a preprint's year) is no conflict here.
        year_note = (
            _version_difference(ctx, a, versions_of(ctx, a), "year") if a.same_title and a.status("year") == X else None
        )
        strong = a.status("doi") == M or (
            a.same_title
            and (a.status("authors") in (M, None) or gap)
            and (a.status("year") in (M, None) or year_note)
            and (ctx.reference.authors or ctx.reference.year)
        )
        conflicts = [n for n in a.mismatched() if not (n == "authors" and gap) and not (n == "year" and year_note)]
        if not strong or conflicts or (not a.same_title and a.status("title") == X):
            continue
        missing = a.missing_in_candidate()
        why = f"; the record lacks {', '.join(missing)}" if missing else ""
        if gap:
            why += f"; {gap}"
        if year_note:
            why += f"; {year_note}"
        return Finding("R3", f"identified as {_cite(a.candidate)}{why}", evidence=[a.candidate])
    return None


# ---------------------------------------------------------------- Hallucinated


def h4_future(ctx: JudgeContext) -> Finding | None:
    """H4: a cited year after this year cannot be a publication date."""
    year = ctx.reference.year
    if year is not None and year > ctx.today_year:
        return Finding("H4", f"the cited year {year} is in the future", fields=["year"], kind="future")
    return None


def h4_details(ctx: JudgeContext) -> Finding | None:
    """H4 (publication details): the cited pages, volume, publisher or conference location contradict
    what a record of the same version (same venue and year) states (facts/details.py)."""
    work = work_of(ctx)
    if work is None:
        return None
    found = detail_contradictions(ctx, work)
    if not found:
        return None
    return Finding(
        "H4",
        "; ".join(d.sentence() for d in found),
        fields=[d.field for d in found],
        evidence=list({id(d.record): d.record for d in found}.values()),
        kind="details",
    )


def h4_venue_or_year(ctx: JudgeContext) -> Finding | None:
    """The work exists, but not at the cited venue or in the cited year."""
    work = work_of(ctx)
    if work is None or not (work.authors_ok or by_cited_people(work, SOME, names=1)):
        return None
    if is_book(ctx.reference) or record_is_book(work.candidate):
        return None  # editions, reprints and reviews of a book carry its title in other years and venues (P3)
    versions = versions_of(ctx, work)
    reasons, fields = [], []
    conflict = venue_conflict(ctx, work)
    if conflict is not None:
        kind, reason = conflict
        # A venue the sources do not cover may hold a second version (a journal extension with
        # the same title): only an unknown venue, or a covered one, contradicts the citation.
        if kind in ("fabricated-venue", "other-conference") or (
            kind in ("other-venue", "preprint-as-published")
            and venue_witness(ctx, renamed=kind == "preprint-as-published")[0]
        ):
            reasons.append(reason)
            fields.append("venue")
    named = venue_name_year(ctx.reference.venue)
    self_contradicted = (
        named is not None
        and named != ctx.reference.year
        and any(v.candidate.year == named for v in versions)
        and not fields
    )
    if work.fields.get("year") and not any(v.status("year") == M for v in versions):
        deltas = [abs(v.year_delta) for v in versions if v.year_delta is not None]
        if (
            deltas
            and (min(deltas) > VERSION_YEARS or self_contradicted)
            and not (conflict and conflict[0] == "preprint-version" and min(deltas) <= VERSION_YEARS)
        ):
            years = sorted({v.candidate.year for v in versions if v.candidate.year})
            reasons.append(f"the work is from {', '.join(map(str, years))}, not {ctx.reference.year}")
            fields.append("year")
        elif deltas and fields:
            # Off by one, together with a wrong venue: the citation mixes versions.
            fields.append("year")
    if not reasons:
        return None
    return Finding("H4", "; ".join(reasons), fields=fields, evidence=[v.candidate for v in versions[:3]])


def _years_compatible(ctx: JudgeContext, versions: list[Assessment]) -> bool:
    deltas = [abs(v.year_delta) for v in versions if v.year_delta is not None]
    return not deltas or min(deltas) <= VERSION_YEARS


def _other_work_with_authors(ctx: JudgeContext, exclude: Assessment) -> Assessment | None:
    """A different real work whose authors are the cited authors."""
    best = None
    for a in ctx.assessments:
        if a.same_title or a.authors is None or a.candidate.work == exclude.candidate.work:
            continue
        if a.authors.overlap >= SAME_PEOPLE_OVERLAP and a.authors.coverage >= SAME_AUTHORS_OVERLAP:
            if best is None or a.authors.overlap > best.authors.overlap:  # type: ignore[union-attr]
                best = a
    return best


def h3_authors(ctx: JudgeContext) -> Finding | None:
    """The titled work exists, but cited authors are people no version of its record names.

    Only names that match no record author under any variant count (the author fact): an
    omitted author, a given-name variant or a list cut short is what honest citations do
    (P3, or R2 for a list cut after its first authors), never H3 alone."""
    work = work_of(ctx)
    if work is None or work.authors is None or work.status("authors") != X:
        return None
    versions = versions_of(ctx, work)
    if any(v.status("authors") == M for v in versions):
        return None
    fact = author_fact(ctx, work)
    if fact is None:
        return None
    unmatched = set(fact.unmatched)
    for v in versions:
        other = author_fact(ctx, v)
        if other is not None:
            unmatched &= set(other.unmatched)
    names = [n for n in fact.unmatched if n in unmatched]
    if not names:
        return None
    cited = work.authors.cited
    real = "; ".join(p.display() for p in work.candidate.authors[:8])
    shown = ", ".join(names[:4])
    if len(names) == cited:
        reason = f"none of the cited authors wrote this work (its authors: {real})"
        observed = f"none of the cited authors is in the record's author list (the record's authors: {real})"
    elif not fact.omitted:
        reason = f"the author list is padded with {shown} (authors: {real})"
        observed = f"the record's author list does not have {shown}"
    else:
        reason = f"{len(names)} of {cited} cited authors did not write this work ({shown}; its authors: {real})"
        observed = (
            f"{len(names)} of {cited} cited authors are not in the record's author list "
            f"({shown}; the record's authors: {real})"
        )
    return Finding("H3", reason, fields=["authors"], evidence=[work.candidate], observed=observed)


def h6_chimera(ctx: JudgeContext) -> Finding | None:
    """Title of one real work, authors (or DOI) of another."""
    work = work_of(ctx)
    if work is None:
        return None
    evidence = [work.candidate]
    reasons = []
    fields = []
    if work.authors is not None and work.status("authors") == X and not by_cited_people(work, SOME, names=1):
        other = _other_work_with_authors(ctx, work)
        if other is not None:
            reasons.append(
                f"the title is that of {_cite(work.candidate)} but the authors are those of {_cite(other.candidate)}"
            )
            evidence.append(other.candidate)
            fields.append("authors")
    doi = canonical_doi(ctx.reference.doi)
    if doi and work.status("doi") == X:
        holder = next((a for a in ctx.assessments if canonical_doi(a.candidate.doi) == doi and not a.same_title), None)
        if holder is not None and holder.candidate.work != work.candidate.work:
            reasons.append(f"the DOI {doi} belongs to {_cite(holder.candidate)}")
            evidence.append(holder.candidate)
            fields.append("doi")
    if not reasons:
        return None
    return Finding("H6", "; ".join(reasons), fields=["title", *fields], evidence=evidence)


def _unknown_registrant(ctx: JudgeContext, doi: str) -> bool:
    prefix = doi_prefix(doi)
    return not (ctx.knows_doi_prefix(prefix) or prefix in known_registrants())


def _other_doi(versions: list[Assessment]) -> list[str]:
    """The work's own DOIs when the cited DOI is none of them."""
    if not versions or any(v.status("doi") == M for v in versions) or not any(v.status("doi") == X for v in versions):
        return []
    return sorted({canonical_doi(v.candidate.doi) or "" for v in versions} - {""})


def h5_doi(ctx: JudgeContext) -> Finding | None:
    """The cited DOI does not exist, or names a different work."""
    doi = canonical_doi(ctx.reference.doi)
    if not doi:
        return None
    work = work_of(ctx)
    versions = versions_of(ctx, work) if work else []
    holders = [a for a in ctx.assessments if canonical_doi(a.candidate.doi) == doi]
    if holders and not any(h.same_title or h.title_similarity >= 0.9 or version_by_identifier(h) for h in holders):
        h = holders[0]
        reason = f"the DOI {doi} resolves to a different work, {_cite(h.candidate)}"
        return Finding("H5", reason, fields=["doi"], evidence=[h.candidate], kind="doi-other-work")
    if holders:
        return None
    absent = absent_identifier(ctx, "doi")
    if absent is not None:
        return Finding("H5", absent.sentence(), fields=["doi"], kind="doi-absent")
    if _unknown_registrant(ctx, doi) and ctx.bundle.covered:
        # Only where the sources cover the citation: a small store knows few registrants.
        reason = f"the DOI {doi} has a registrant prefix ({doi_prefix(doi)}) that no source knows"
        return Finding("H5", reason, fields=["doi"], kind="doi-unknown-registrant")
    if _other_doi(versions) and ctx.bundle.covered:
        # Uncovered, the cited DOI may belong to a version the sources lack (P3).
        reason = f"the work's DOI is {', '.join(_other_doi(versions))}, not {doi}"
        return Finding("H5", reason, fields=["doi"], evidence=[versions[0].candidate], kind="doi-not-the-works")
    return None


def h5_arxiv(ctx: JudgeContext) -> Finding | None:
    """The cited arXiv id does not exist, names a different work, or is not the work's."""
    ref = ctx.reference
    arxiv, doi = canonical_arxiv(ref.arxiv_id), canonical_doi(ref.doi)
    if not arxiv or (doi and doi.endswith(arxiv)):
        return None
    work = work_of(ctx)
    versions = versions_of(ctx, work) if work else []
    holders = [a for a in ctx.assessments if canonical_arxiv(a.candidate.arxiv_id) == arxiv]
    if holders and not any(h.same_title or h.title_similarity >= 0.9 or renamed(h) for h in holders):
        reason = f"arXiv:{arxiv} is a different work, {_cite(holders[0].candidate)}"
        return Finding("H5", reason, fields=["arxiv_id"], evidence=[holders[0].candidate], kind="arxiv-other-work")
    absent = absent_identifier(ctx, "arxiv") if not holders else None
    if absent is not None:
        return Finding("H5", absent.sentence(), fields=["arxiv_id"], kind="arxiv-absent")
    if not holders and versions and any(v.status("arxiv_id") == X for v in versions):
        reason = f"the work's arXiv id is {versions[0].candidate.arxiv_id}, not {arxiv}"
        return Finding("H5", reason, fields=["arxiv_id"], evidence=[versions[0].candidate], kind="arxiv-not-the-works")
    return None


def h2_near_miss(ctx: JudgeContext) -> Finding | None:
    """No work has this title, but the same authors wrote one with a nearly identical title."""
    if ctx.title_matches or not ctx.reference.title:
        return None
    if work_of(ctx) is not None:
        return None  # the cited identifier names this work under another title: a version, not a near miss
    for a in sorted(ctx.assessments, key=lambda x: x.title_similarity, reverse=True):
        if a.title_similarity < NEAR_MISS_SIMILARITY:
            break
        same_people = a.authors is None or by_cited_people(a, SOME, names=1)
        # A merely similar title is a near miss only where absence is evidence; a one-word
        # change (>= NEAR_MISS_CERTAIN) by the same authors is one anywhere.
        if same_people and (a.title_similarity >= NEAR_MISS_CERTAIN or ctx.bundle.covered):
            return Finding(
                "H2",
                f"no work has this title; the cited authors wrote {_cite(a.candidate)} "
                f"({a.title_similarity:.0%} similar)",
                fields=["title"],
                evidence=[a.candidate],
            )
    return None


def _by_the_cited_authors(a: Assessment) -> bool:
    """A record by the cited people, not by strangers who share a surname: at least half of the cited
    authors with compatible given names, and at least two of them (one name alone does not tell a
    namesake apart: "J. Smith" wrote thousands of works)."""
    return by_cited_people(a, SOME, names=2)


def h1_fabricated(ctx: JudgeContext) -> Finding | None:
    """No work with this title exists in sources that cover the citation."""
    if ctx.title_matches or ctx.failed_sources or not ctx.bundle.covered:
        # Uncovered: absence is not evidence (a real paper by known authors may sit in a
        # venue the store does not hold).
        return None
    by_authors = [a for a in ctx.assessments if _by_the_cited_authors(a)]
    if by_authors:
        works = "; ".join(_cite(a.candidate) for a in by_authors[:3])
        return Finding(
            "H1",
            f"no work has this title; the cited authors' works around that year are {works}",
            fields=["title"],
            evidence=[a.candidate for a in by_authors[:3]],
        )
    notes = "; ".join(ctx.bundle.coverage_notes)
    return Finding("H1", f"no work with this title in sources that cover it ({notes})", fields=["title"])


# ------------------------------------------------------------------- Potential


def p3_ambiguous(ctx: JudgeContext) -> Finding | None:
    """A real work matches, with conflicts an honest author could cause: one part per fact."""
    work = work_of(ctx)
    if work is None:
        return None
    parts: list[tuple[str, str]] = []
    cmp = work.authors
    fact = author_fact(ctx, work)
    if cmp is not None and fact is not None and work.status("authors") == X:
        if cmp.given_conflicts:
            parts.append((f"{cmp.given_conflicts} cited author(s)' given names differ from the record's", "authors"))
        if fact.omitted:
            omitted = ", ".join(fact.omitted[:4])
            parts.append(
                (
                    f"the cited list omits {len(fact.omitted)} of the record's {cmp.found} authors ({omitted}) without "
                    "'et al.'",
                    "authors",
                )
            )
        if fact.unmatched and not fact.complete:
            parts.append(
                (
                    f"{len(fact.unmatched)} cited author(s) are not in the record's list, which may not be whole "
                    f"({fact.why})",
                    "authors",
                )
            )
    versions = versions_of(ctx, work)
    if work.fields.get("year") and not any(v.status("year") == M for v in versions):
        deltas = [abs(v.year_delta) for v in versions if v.year_delta is not None]
        if deltas and min(deltas) == 1:
            dated = undated_by_meeting(versions, ctx.reference.year)
            why = f": {dated}" if dated else ""
            parts.append((f"the year differs by one from the record ({work.candidate.year}){why}", "year"))
        elif deltas and is_book(ctx.reference):
            parts.append(
                (
                    f"the year differs from the record's ({work.candidate.year}): a book's editions and printings "
                    "carry years of their own",
                    "year",
                )
            )
    doi = canonical_doi(ctx.reference.doi)
    own = _other_doi(versions)
    known_doi = doi is not None and any(canonical_doi(a.candidate.doi) == doi for a in ctx.assessments)
    if doi and not known_doi and not ctx.bundle.covered and _unknown_registrant(ctx, doi):
        parts.append((f"the DOI's registrant ({doi_prefix(doi)}) is unknown to the sources searched", "doi"))
    if doi and own and not ctx.bundle.covered and not known_doi:
        parts.append((f"the cited DOI {doi} is not the record's ({', '.join(own)}) and could not be resolved", "doi"))
    conflict = venue_conflict(ctx, work)
    if conflict is not None and conflict[0] in ("unconfirmable", "unrecognised"):
        parts.append((f"the venue is not confirmed: {conflict[1]}", "venue"))
    elif conflict is not None and conflict[0] == "preprint-as-published":
        witnessed, why = venue_witness(ctx, renamed=True)
        other = version_at_cited_venue(ctx, work)
        if other is not None:
            text = (
                f"the published version may be the cited authors' {_cite(other.candidate)} at the cited venue: a "
                "preprint and its proceedings version often carry different titles"
            )
        else:
            text = conflict[1] if witnessed else f"the published version is not confirmed: {conflict[1]}; {why}"
        parts.append((text, "venue"))
    elif conflict is not None and conflict[0] == "other-venue":
        witnessed, why = venue_witness(ctx)
        parts.append((f"{conflict[1]}{'' if witnessed else f'; {why}'}", "venue"))
    return ambiguous(work, parts)


def ambiguous(work: Assessment, parts: list[tuple[str, str]]) -> Finding | None:
    """The P3 finding of these (reason, field) parts of the work, or None when none is left."""
    if not parts:
        return None
    cmp = work.authors
    strangers = cmp is not None and cmp.matched + cmp.variants + cmp.given_conflicts == 0
    lead = (
        f"{_cite(work.candidate)}, by other authors, has the cited title"
        if strangers
        else f"matches {_cite(work.candidate)}"
    )
    reason = f"{lead}, but " + "; ".join(r for r, _ in parts)
    fields = list(dict.fromkeys(f for _, f in parts))
    return Finding("P3", reason, fields=fields, evidence=[work.candidate], parts=parts)


def p3_unsettled(ctx: JudgeContext) -> Finding:
    """The fallback of the Potential judger: no rule settled the citation either way."""
    work = work_of(ctx)
    if work is None:
        return Finding("P1", "no record settles this citation either way")
    conflicts = work.mismatched()
    if not conflicts:
        missing = work.missing_in_candidate()
        why = f"; the record lacks the cited {', '.join(missing)}, which no source confirmed" if missing else ""
    elif len(conflicts) == 1:
        why = f"; the cited {conflicts[0]} differs from the record's"
    else:
        why = f"; the cited {', '.join(conflicts[:-1])} and {conflicts[-1]} differ from the record's"
    return Finding("P3", f"matches {_cite(work.candidate)}{why}", fields=conflicts, evidence=[work.candidate])


def p2_non_scholarly(ctx: JudgeContext) -> Finding | None:
    """P2: software, data, a model, a web page or a standard, which bibliographic sources do not index
    whole (unless a record has its title): confirmed through its URL or the web, if at all."""
    if ctx.title_matches:
        return None
    kind, why = work_kind(ctx.reference)
    if kind in NON_SCHOLARLY_KINDS:
        return Finding("P2", f"a {kind} ({why}), which bibliographic sources do not index whole")
    return None


def p1_title_alone(ctx: JudgeContext) -> Finding | None:
    """P1: the only records with the cited title are other people's works of a short or common title, or
    of another kind (a review of the cited book): another work of that title, so this one is unverified."""
    if work_of(ctx) is not None or not ctx.title_matches:
        return None
    others = ctx.title_matches[:2]
    named = "; ".join(_cite(a.candidate) for a in others)
    book = work_kind(ctx.reference)[0] == "book" and not any(record_is_book(a.candidate) for a in others)
    if book:
        why = "the cited work is a book and they are not: talks, articles and reviews appear under a book's title"
    elif any(not a.candidate.authors for a in others):
        why = "they name none of its authors, and a title this short is shared by many works"
    else:
        why = "they are by other people, and a title this short is shared by many works"
    return Finding(
        "P1",
        f"no record of this work: the records with its title are other works ({named}); {why}",
        evidence=[a.candidate for a in others],
    )


def p1_unverified(ctx: JudgeContext) -> Finding | None:
    """P1: no record has the title, and the search could not show absence (a source failed, an unindexed kind of work,
    or a venue the sources do not cover).
    """
    if ctx.title_matches:
        return None
    if ctx.failed_sources:
        return Finding("P1", f"no record found, but {', '.join(sorted(set(ctx.failed_sources)))} failed to answer")
    kind, why = work_kind(ctx.reference)
    if kind not in SCHOLARLY_KINDS and kind != "unknown":
        return Finding("P1", f"no record found; a {kind} ({why}) is not held whole by any index searched")
    if ctx.bundle.covered:
        return None  # the search covers it: an absence the gate did not admit as proof says why itself
    gaps = f" ({'; '.join(ctx.bundle.coverage_gaps)})" if ctx.bundle.coverage_gaps else ""
    known = [a for a in ctx.assessments if _by_the_cited_authors(a)]
    if known:
        works = "; ".join(_cite(a.candidate) for a in known[:2])
        return Finding(
            "P1",
            f"no record with this title, and its absence is not proof here{gaps} "
            f"(works of the cited authors that were found: {works})",
            evidence=[a.candidate for a in known[:2]],
        )
    return Finding("P1", f"no record found, and its absence is not proof here{gaps}")
