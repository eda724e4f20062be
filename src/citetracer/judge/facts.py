"""The facts a verdict is decided from, each with the list or source that states it (DESIGN.md,
"Evidence model: facts, not gaps").

A code is Hallucinated only as a contradiction between a cited field and a fact that a
source positively holds and declares complete; a missing fact is a gap, and gives
Potential with the gap named. The facts are made here, once per citation, so that a
new kind of gap is fixed where the fact is made and not in every code:

- venue: what the cited venue string is (a venue the knowledge base recognises, or
  none), what each venue of the identified work is, and how they relate.
"""

from __future__ import annotations

from dataclasses import dataclass

from citetracer.data import lexicon
from citetracer.judge.context import JudgeContext
from citetracer.match.rules import Assessment
from citetracer.normalize.text import tokens
from citetracer.normalize.venue_kb import LIST_NAMES, Venue, close_names, venue_keys
from citetracer.normalize.venues import is_preprint, spells, venue_kind
from citetracer.records import FieldStatus

M, X, MISSING = FieldStatus.MATCH, FieldStatus.MISMATCH, FieldStatus.MISSING

#: Words of a "venue" that is really a publisher, a society or a place of publication.
_PUBLISHER_WORDS = lexicon.words("publisher") | frozenset(
    "acm ieee association for computing machinery inc ltd press publishing publishers society institute llc".split()
)
#: How the cited venue relates to the work's venues.
SAME, PREPRINT, UNCONFIRMABLE, GAP, FABRICATED, DIFFERENT = (
    "same",
    "preprint-version",
    "unconfirmable",
    "gap",
    "fabricated",
    "different",
)


@dataclass(frozen=True)
class VenueFact:
    """The cited venue against the venues of the identified work and its versions."""

    cited: str
    #: What the knowledge base recognises the cited venue as (None: no list knows it).
    recognised: Venue | None
    #: The work's venue names, each with what the knowledge base recognises it as.
    work: tuple[tuple[str, Venue | None], ...]
    relation: str
    #: The sentence the rationale shows: what is known, or which fact is missing.
    sentence: str

    @property
    def found(self) -> str:
        return ", ".join(sorted({name for name, _ in self.work})) or "?"


def not_a_venue(cited: str) -> str | None:
    """Why a cited venue string names no venue (a page range, a publisher, a society), or None."""
    if not venue_keys(cited):
        return f"'{cited}' is a number or a range, not a venue"
    words = set(tokens(cited))
    if words and words <= _PUBLISHER_WORDS | {"and", "of", "the"}:
        return f"'{cited}' names a publisher, not a venue"
    return None


def _comprehensive(ctx: JudgeContext, kind: str | None) -> str | None:
    """The list that holds every venue of this kind, so that a name absent from it and close to
    nothing in it is no venue at all; None when no list is complete for the kind."""
    if ctx.bundle.closed_world:
        return "the local store, declared complete (closed world)"
    if kind == "journal":
        return LIST_NAMES["journal"]
    if kind == "conference" and ctx.complete_sources() & {"dblp", "acl"}:
        names = " and ".join(sorted(ctx.complete_sources() & {"dblp", "acl"}))
        return f"the venue table and the proceedings names of the store's complete {names} mirror"
    return None  # workshops, and names of no known kind: no list holds them all


def _relates(a: str, b: str) -> bool:
    """Whether two venue names can be one venue written two ways (either way round)."""
    ka, kb = (venue_keys(a) or ("",))[0].split(), (venue_keys(b) or ("",))[0].split()
    return spells(a, b) or spells(b, a) or close_names(ka, kb) or close_names(kb, ka)


def venue_fact(ctx: JudgeContext, work: Assessment) -> VenueFact | None:
    """The venue fact of a citation that names a venue differing from its identified work's; None
    when the venue is not in question (not cited, or matching a version of the work)."""
    key = ("venue", id(work))
    if key not in ctx.facts:
        ctx.facts[key] = _venue_fact(ctx, work)
    return ctx.facts[key]  # type: ignore[return-value]


def _venue_fact(ctx: JudgeContext, work: Assessment) -> VenueFact | None:
    versions = ctx.versions_of(work)
    if work.fields.get("venue") is None or work.status("venue") != X or any(v.status("venue") == M for v in versions):
        return None
    cited = ctx.reference.venue or ""
    names = sorted({n for v in versions for n in (v.candidate.venue, v.candidate.venue_full) if n})
    kb = ctx.venue_kb
    work_venues = tuple((n, kb.recognise(n) if kb else None) for n in names)
    shown = ", ".join(sorted({v.candidate.venue or v.candidate.venue_full or "?" for v in versions}))

    def fact(relation: str, sentence: str, recognised: Venue | None = None) -> VenueFact:
        return VenueFact(cited, recognised, work_venues, relation, sentence)

    if any(v.status("venue") == MISSING for v in versions):
        return fact(UNCONFIRMABLE, f"the venue '{cited}' could not be confirmed (a version records no venue)")
    if is_preprint(cited):
        return fact(PREPRINT, f"cited as its preprint ('{cited}'); the work appeared in {shown}")
    junk = not_a_venue(cited)
    if junk:
        return fact(GAP, f"{junk}; the work appeared in {shown}")
    if any(_relates(cited, n) for n in names):
        return fact(SAME, f"'{cited}' can be a way of writing {shown}")
    recognised = kb.recognise(cited) if kb else None
    if recognised is None:
        kind = venue_kind(cited, ctx.reference.type)
        near = kb.nearest(cited) if kb else None
        complete = _comprehensive(ctx, kind)
        searched = "; ".join(kb.lists()) if kb else "no venue list"
        if near is None and complete is not None and len([w for w in venue_keys(cited)[0].split()]) >= 2:
            return fact(
                FABRICATED,
                f"no {kind} named '{cited}' is in {complete}, nor one close to it; the work appeared in {shown}",
            )
        why = f"close to '{near}'" if near else f"searched: {searched}"
        return fact(GAP, f"the venue '{cited}' is in none of the venue lists ({why}); the work appeared in {shown}")
    known = [(n, v) for n, v in work_venues if v is not None]
    if any(v.ids & recognised.ids for _, v in known):
        return fact(SAME, f"'{cited}' and {shown} are one venue in {', '.join(recognised.lists)}", recognised)
    shared = recognised.namespaces() & {ns for _, v in known for ns in v.namespaces()}
    if not shared:
        unknown = ", ".join(n for n, v in work_venues if v is None) or shown
        return fact(
            GAP,
            f"'{cited}' is {recognised.name} ({', '.join(recognised.lists)}), but the record's venue '{unknown}' "
            "is not in that list, so the two cannot be compared",
            recognised,
        )
    lists = ", ".join(LIST_NAMES[ns] for ns in sorted(shared, key=list(LIST_NAMES).index))
    return fact(DIFFERENT, f"'{cited}' and {shown} are different venues in {lists}", recognised)
