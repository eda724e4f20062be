"""The absence fact: whether the search proves the cited work absent, and the specificity of a title.

A source's silence is evidence only for the kinds of work it is complete for
(data/source_facts.tsv): absence is proof where the store covers the cited venue-year, or where
enough broad indexes complete for the cited kind of work answered a title search and none failed.
Specificity says whether a title names one work, read from what was searched (the records the
store and the services returned, and the services' own hit counts).
"""

from __future__ import annotations

from dataclasses import dataclass

from citetracer.judge.context import JudgeContext
from citetracer.judge.facts.authors import same_people
from citetracer.judge.facts.reading import content_words
from citetracer.match.rules import Assessment
from citetracer.normalize.kinds import KIND_NAMES, SCHOLARLY_KINDS, work_kind
from citetracer.sources import BROAD, source_facts
from citetracer.thresholds import BROAD_QUORUM, SHARED_TITLES, SPECIFIC_TITLE_WORDS


@dataclass(frozen=True)
class AbsenceFact:
    """Whether the search proves the cited work absent, and on what; or the gap that keeps it from it."""

    proven: bool
    basis: str


def absence_fact(ctx: JudgeContext) -> AbsenceFact:
    """Absence is proof where the store covers the cited venue-year (a complete source for it), or
    where BROAD_QUORUM broad indexes complete for the cited kind of work answered a title search and
    none failed; a kind no index holds whole (software, data, reports, theses, books, web pages) is
    never proven absent (DESIGN.md, "Accuse on what a source knows")."""
    bundle = ctx.bundle
    if bundle.closed_world:
        return AbsenceFact(True, "; ".join(bundle.coverage_notes))
    if ctx.failed_sources:
        return AbsenceFact(False, f"{', '.join(sorted(set(ctx.failed_sources)))} failed to answer")
    if not bundle.covered:
        gaps = "; ".join(bundle.coverage_gaps) or "the sources searched do not cover this venue in that year"
        return AbsenceFact(False, gaps)
    kind, why = work_kind(ctx.reference)
    if bundle.store_covered:
        return AbsenceFact(True, "; ".join(bundle.coverage_notes))
    ref = ctx.reference
    if kind == "paper" and not ref.venue and ref.year is not None and ref.year >= ctx.today_year:
        return AbsenceFact(
            False, f"the cited work names no venue and is of {ref.year}: the indexes may not hold it yet"
        )
    complete = [s for s in sorted(bundle.broad_answered) if kind in source_facts(s).kinds]
    if kind not in SCHOLARLY_KINDS:
        what = "of no known kind" if kind == "unknown" else f"a {kind}"
        return AbsenceFact(False, f"the cited work is {what} ({why}), which no index holds whole")
    if len(complete) < BROAD_QUORUM:
        answered = ", ".join(sorted(bundle.broad_answered))
        return AbsenceFact(
            False, f"of the broad indexes that answered ({answered}), too few hold all {KIND_NAMES[kind]}"
        )
    crowded = _crowded_searches(ctx, complete)
    if len(complete) - len(crowded) < BROAD_QUORUM:
        return AbsenceFact(
            False,
            f"the title '{ctx.reference.title}' is short and the search found more works holding its words than it "
            f"returned ({'; '.join(crowded)}): the cited one may be among the rest",
        )
    return AbsenceFact(True, f"{', '.join(complete)} (complete for {KIND_NAMES[kind]}) answered a title search")


def _crowded_searches(ctx: JudgeContext, sources: list[str]) -> list[str]:
    """The title searches among `sources` that cannot show a short title absent: a title of one or two
    content words ('Deep learning') is shared by thousands of works, and a service returns only its
    first page of them, ranked by its own relevance, so the cited work may sit past it. A search is
    exhaustive only when the service counted no more works than it returned (its count unknown: not)."""
    if len(content_words(ctx.reference.title)) >= SPECIFIC_TITLE_WORDS:
        return []
    crowded = []
    for o in ctx.bundle.outcomes:
        if o.source in sources and o.status == "answered" and (o.hits is None or o.hits > o.candidates):
            crowded.append(f"{o.source}: {o.hits if o.hits is not None else 'an unknown number'} of works")
    return crowded


@dataclass(frozen=True)
class Specificity:
    """Whether a work's title names that one work, and what says so."""

    specific: bool
    basis: str


def title_specificity(
    ctx: JudgeContext, work: Assessment, words: int = SPECIFIC_TITLE_WORDS, shared: int = SHARED_TITLES
) -> Specificity:
    """Whether the work's title names one work (at least `words` content words, no other work of that
    title among the records found, and at most `shared` stored titles holding all its words where the
    store holds a complete source). Learned from what was searched: the services' top answers rank
    a work of the very same title first, so one not among them is not there to find."""
    content = content_words(work.candidate.title)
    if len(content) < words:
        return Specificity(False, f"the title '{work.candidate.title}' is short: many works may share it")
    others = [
        a
        for a in ctx.assessments
        if a.same_title and a.candidate.work != work.candidate.work and not same_people(a.candidate, work.candidate)
    ]
    if others:
        named = "; ".join(f"[{a.candidate.source}:{a.candidate.id}]" for a in others[:3])
        return Specificity(False, f"other works have this title ({named})")
    parts = []
    if ctx.bundle.closed_world or ctx.complete_sources():
        n = ctx.titles_sharing(content)
        if n > shared:
            return Specificity(False, f"the local store holds {n} titles with all of its {len(content)} content words")
        parts.append(f"the local store holds {n} title(s) with all of its {len(content)} content words")
    answered = [o for o in ctx.bundle.outcomes if o.status == "answered" and o.source in BROAD]
    for o in answered:
        hits = f" ({o.hits} hits)" if o.hits is not None else ""
        parts.append(f"{o.source}'s answer to a title search{hits} has no other work of this title")
    return Specificity(True, "; ".join(parts) or "no other work of this title is among the records found")
