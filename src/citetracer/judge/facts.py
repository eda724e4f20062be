"""The facts a verdict is decided from, each with the list or source that states it (DESIGN.md,
"Evidence model: facts, not gaps").

A code is Hallucinated only as a contradiction between a cited field and a fact that a
source positively holds and declares complete; a missing fact is a gap, and gives
Potential with the gap named. The facts are made here, once per citation, so that a
new kind of gap is fixed where the fact is made and not in every code:

- venue: what the cited venue string is (a venue the knowledge base recognises, or
  none), what each venue of the identified work is, and how they relate;
- authors: whether the record holds its author list whole (its source says so, or the list
  is short and unmarked), which cited names match no record author under any variant,
  and which record authors the citation omits;
- kind: what kind of work the citation names (journal article, proceedings paper, preprint,
  book, thesis, report, software, dataset, model, web page, standard), since a source's
  silence is evidence only for the kinds it is complete for (data/source_facts.tsv);
- absence: whether the search proves the cited work absent: the store covers its venue-year,
  or enough broad indexes complete for its kind answered a title search;
- specificity: whether a title names one work, from what was searched: no other work of that
  title among the records the store and the services returned, and few titles holding all its
  words in a store with a complete source.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from citetracer.data import lines
from citetracer.judge.context import JudgeContext, same_people
from citetracer.match.rules import Assessment
from citetracer.normalize.kinds import KIND_NAMES, PUBLISHER_WORDS, SCHOLARLY_KINDS, work_kind
from citetracer.normalize.names import compare_author_lists, name_keys
from citetracer.normalize.text import title_words, tokens
from citetracer.normalize.venue_kb import LIST_NAMES, Venue, close_names, venue_keys
from citetracer.normalize.venues import is_preprint, spells, venue_id, venue_kind
from citetracer.records import Candidate, FieldStatus, Person
from citetracer.sources import BROAD, source_facts
from citetracer.thresholds import BROAD_QUORUM, SHARED_TITLES, SPECIFIC_TITLE_WORDS

M, X, MISSING = FieldStatus.MATCH, FieldStatus.MISMATCH, FieldStatus.MISSING

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
    complete = [s for s in sorted(bundle.broad_answered) if kind in source_facts(s).kinds]
    if kind not in SCHOLARLY_KINDS:
        return AbsenceFact(False, f"the cited work is a {kind} ({why}), which no index holds whole")
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


#: Words that do not make a title specific to one work.
_TITLE_STOP = frozenset("a an the of for and in on to with by from at via its is are as or into using".split())


def content_words(title: str | None) -> list[str]:
    """A title's words without the stop words that make no title specific."""
    return [w for w in title_words(title or "") if w not in _TITLE_STOP]


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


#: Sources that list whole venue-years of the computer-science venues DBLP indexes: DBLP itself, and
#: Semantic Scholar, which ingests DBLP and merges a paper's preprint and published versions.
VENUE_WITNESSES = ("dblp", "semanticscholar")


@cache
def _dblp_venues() -> frozenset[str]:
    """The venue table's ids of the computer-science venues DBLP indexes (data/connector_routes.tsv)."""
    out: set[str] = set()
    for line in lines("connector_routes.tsv"):
        rule, values, connectors, _ = line.split("\t")
        if rule == "venue" and "dblp" in connectors.split("|"):
            out.update(values.split("|"))
    return frozenset(out)


def venue_witness(ctx: JudgeContext) -> tuple[bool, str]:
    """Whether a source that lists the cited venue-year whole was searched (so that a work it does not
    place there did not appear there), and which: the store covering that venue-year, or online DBLP or
    Semantic Scholar answering a title search for a computer-science venue they index whole. One
    index's record typed "preprint" says nothing of where else the work appeared."""
    bundle = ctx.bundle
    if bundle.closed_world:
        return True, "the local store is declared complete"
    if bundle.store_covered:
        return True, "; ".join(bundle.coverage_notes)
    cited = venue_id(ctx.reference.venue)
    if cited is None or cited.removesuffix("-workshop") not in _dblp_venues():
        return False, f"no source searched lists every paper of '{ctx.reference.venue}'"
    if ctx.reference.year is not None and ctx.reference.year > ctx.today_year:
        return False, f"{ctx.reference.year} has not come yet"
    answered = [
        o.source
        for o in bundle.outcomes
        if o.status == "answered" and o.source in VENUE_WITNESSES and o.hits is not None
    ]
    if answered:
        return True, f"{', '.join(sorted(set(answered)))}, which list its venue-years whole, answered a title search"
    return False, "neither dblp nor semanticscholar, which list its venue-years whole, answered a title search"


#: An author list this long, from a source that does not hold lists whole, may have been cut.
LONG_AUTHOR_LIST = 10


@dataclass(frozen=True)
class AuthorFact:
    """The cited author list against the identified work's record."""

    #: Whether the record holds the work's author list whole, and why (or why not).
    complete: bool
    why: str
    #: Cited names that match no record author under any variant (typo, truncation, initials,
    #: given-name variant, transliteration, family and given names swapped).
    unmatched: tuple[str, ...]
    #: Record authors the citation does not name.
    omitted: tuple[str, ...]
    #: The cited list is the record's first authors in order (a list cut short, not a selection).
    prefix: bool


def record_authors_complete(cand: Candidate, cited: list[Person]) -> tuple[bool, str]:
    """Whether a record's author list is the work's whole list, by what its source declares
    (data/source_facts.tsv), and why."""
    n = len(cand.authors)
    if cand.authors_truncated:
        return False, f"the {cand.source} record ends its author list with 'and others'"
    facts = source_facts(cand.source)
    if facts.authors == "whole":
        return True, facts.why
    if facts.authors == "partial":
        return False, f"{cand.source} does not hold author lists whole"
    if n >= LONG_AUTHOR_LIST:
        return False, f"the {cand.source} record lists {n} authors, and {cand.source} may cut long lists"
    if len(cited) > n and n and compare_author_lists(cited[:n], cand.authors, False, False).complete:
        return False, f"the {cand.source} record's {n} authors are the cited list's first (a list cut short)"
    return True, f"the {cand.source} record's list of {n} is short and carries no 'et al.'"


def _loose_match(person: Person, record: list[Person]) -> bool:
    """A cited name a record author explains even beyond the comparer's variants: family and given
    names swapped and one cut short ("Xiaowe, X." for Xiaowei Xu)."""
    k = name_keys(person)
    for other in record:
        o = name_keys(other)
        given = "".join(o.given)
        if len(k.full) >= 4 and given.startswith(k.full) and (not k.given or k.given[0][:1] == o.full[:1]):
            return True
    return False


def author_fact(ctx: JudgeContext, work: Assessment) -> AuthorFact | None:
    """The author fact of a citation whose authors the work's record does not match as given; None
    when the citation names no authors or the record lists none."""
    key = ("authors", id(work))
    if key not in ctx.facts:
        ctx.facts[key] = _author_fact(ctx, work)
    return ctx.facts[key]  # type: ignore[return-value]


def _author_fact(ctx: JudgeContext, work: Assessment) -> AuthorFact | None:
    cand, cited = work.candidate, ctx.reference.authors
    if work.authors is None or not cited or not cand.authors:
        return None
    complete, why = record_authors_complete(cand, cited)
    by_name = {p.display(): p for p in cited}
    unmatched = tuple(
        n for n in work.authors.unmatched_cited if not (n in by_name and _loose_match(by_name[n], cand.authors))
    )
    back = compare_author_lists(cand.authors, cited, False, ctx.reference.et_al)
    omitted = back.unmatched_cited if not ctx.reference.et_al else ()
    k = len(cand.authors) - len(omitted)
    prefix = bool(omitted) and not unmatched and tuple(p.display() for p in cand.authors[k:]) == omitted
    return AuthorFact(complete, why, unmatched, omitted, prefix)


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
    if words and words <= PUBLISHER_WORDS | {"and", "of", "the"}:
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


def _relates(cited: str, found: str) -> bool:
    """Whether a cited venue name can be the record's venue written another way."""
    ka, kb = (venue_keys(cited) or ("",))[0].split(), (venue_keys(found) or ("",))[0].split()
    return spells(cited, found) or close_names(ka, kb) or close_names(kb, ka, cut=False)


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
        online = ctx.bundle.venue_answers.get(cited.strip())
        if near is None and online is not None and kind in ("journal", "conference"):
            close = next((n for n in online if _relates(cited, n) or _relates(n, cited)), None)
            if close is not None:
                return fact(GAP, f"the venue '{cited}' is in no local list; OpenAlex's sources have '{close}'")
            listed = f"; it answered {', '.join(repr(n) for n in online[:3])}" if online else ""
            return fact(
                FABRICATED,
                f"no {kind} named '{cited}' is in OpenAlex's list of sources, nor one close to it{listed} (local "
                f"lists searched: {searched}); the work appeared in {shown}",
            )
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
    return fact(DIFFERENT, f"that {lists} tell apart", recognised)
