"""Venue facts: what the cited venue string is, how it relates to the venues of the identified work,
and whether a source that lists the cited venue-year whole was searched (publication status).

A cited venue is recognised as a specific known venue or it is not; only a recognised venue can
contradict the venue of a work, and a name no list knows is fabricated only where a list complete
for its kind holds nothing close to it (DESIGN.md, "A list proves only what it holds whole").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from citetracer.collect.connectors.dblp import WORKS_ROWS
from citetracer.data import lexicon, lines
from citetracer.evidence import AUTHORS_YEAR, VENUE_YEAR
from citetracer.judge.context import JudgeContext
from citetracer.judge.facts.authors import MOST, by_cited_people
from citetracer.judge.facts.identity import record_is_book, versions_of
from citetracer.match.rules import Assessment
from citetracer.normalize.kinds import PUBLISHER_WORDS
from citetracer.normalize.text import title_similarity, tokens
from citetracer.normalize.venue_kb import LIST_NAMES, Venue, alike_venues, close_names, venue_keys
from citetracer.normalize.venues import acronyms_of, is_preprint, spells, spells_any, venue_id, venue_kind
from citetracer.records import Candidate, FieldStatus
from citetracer.sources import conference_year_listers, venue_year_lister
from citetracer.thresholds import LISTER_LAG_YEARS, VENUE_YEAR_LISTED, VERSION_TITLE_SIMILARITY

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

#: The source that lists whole venue-years of the computer-science venues it indexes (data/source_facts.tsv
#: "lists venue-years": DBLP). Semantic Scholar ingests DBLP but keeps one record per work, often without its
#: venue: its silence about a venue is no fact.
VENUE_LISTER = venue_year_lister()


@cache
def _lister_routes(rule: str) -> frozenset[str]:
    """The values of a data/connector_routes.tsv rule that send a citation to the venue-year lister: venue ids
    ("venue") or words of a computer-science venue name ("word")."""
    out: set[str] = set()
    for line in lines("connector_routes.tsv"):
        kind, values, connectors, _ = line.split("\t")
        if kind == rule and VENUE_LISTER in connectors.split("|"):
            out.update(values.split("|"))
    return frozenset(out)


def _listed_venues() -> frozenset[str]:
    """The venue table's ids of the computer-science venues the venue-year lister indexes."""
    return _lister_routes("venue")


@cache
def _doi_journals() -> tuple[tuple[re.Pattern[str], str, str], ...]:
    """(pattern, publisher, why) of data/doi_journals.tsv: journals whose every article has a Crossref DOI."""
    out = []
    for line in lines("doi_journals.tsv"):
        pattern, publisher, why = line.split("\t")
        out.append((re.compile(pattern), publisher, why))
    return tuple(out)


def doi_journal(name: str | None) -> tuple[str, str] | None:
    """(publisher, why) when `name` is a journal whose publisher registers a DOI for every article (held whole
    by Crossref and OpenAlex), else None."""
    folded = " ".join(tokens(name or ""))
    for pattern, publisher, why in _doi_journals():
        if pattern.search(folded):
            return publisher, why
    return None


def _asked(ctx: JudgeContext) -> str:
    """Who was asked, for a rationale: the sources that answered about this citation."""
    names = sorted({o.source for o in ctx.bundle.outcomes if o.status == "answered"})
    return ", ".join(names) or "no source"


def _venue_year_listed(ctx: JudgeContext) -> bool:
    """Whether the venue-year lister (DBLP) answered that it holds VENUE_YEAR_LISTED records or more at the
    cited venue in the cited year: a venue-year it has ingested, which its lists then hold whole."""
    return any(
        o.source == VENUE_LISTER
        and o.status == "answered"
        and o.question == VENUE_YEAR
        and (o.hits or 0) >= VENUE_YEAR_LISTED
        for o in ctx.bundle.outcomes
    )


def venue_witness(ctx: JudgeContext, renamed: bool = False) -> tuple[bool, str]:
    """Whether a source that lists the cited venue-year whole was asked a question that would have shown
    the work there (so that its absence there is a fact), and which; else why not.

    The store covering that venue-year (its author search finds a version under any title), a store
    declared complete, or DBLP online for a computer-science venue it lists whole: a title search
    shows a version of the same title at the cited venue; with `renamed` (the cited version may carry
    another title, as a proceedings version often does its preprint's) only DBLP's list of every work
    of the cited authors in the cited year, counted whole, does. One index's record typed "preprint"
    says nothing of where else the work appeared."""
    bundle = ctx.bundle
    if bundle.closed_world:
        return True, "the local store is declared complete"
    if bundle.store_covered:
        return True, "; ".join(bundle.coverage_notes)
    journal = doi_journal(ctx.reference.venue)
    if journal is not None and not renamed:
        indexes = sorted(
            {
                o.source
                for o in bundle.outcomes
                if o.source in ("crossref", "openalex")
                and o.status == "answered"
                and o.question is None
                and o.hits is not None
            }
        )
        if indexes:
            held = f"which hold every article of {journal[0]}'s journals ({journal[1]})"
            return True, f"{' and '.join(indexes)}, {held}, answered a title search"
    cited = venue_id(ctx.reference.venue)
    if cited is None or cited.removesuffix("-workshop") not in _listed_venues():
        return False, f"no source asked ({_asked(ctx)}) lists every paper of '{ctx.reference.venue}'"
    year = ctx.reference.year
    if year is not None and year >= ctx.today_year - LISTER_LAG_YEARS and not _venue_year_listed(ctx):
        return False, f"{VENUE_LISTER} may not list the proceedings of {year} yet"
    works = [
        o
        for o in bundle.outcomes
        if o.source == VENUE_LISTER and o.status == "answered" and o.question == AUTHORS_YEAR and o.hits is not None
    ]
    # The list is of these people only when it holds the work itself (its preprint, of the cited year), and
    # a list of their works only when it holds another of them too: an empty list of people DBLP knows under
    # other names, or an answer holding nothing but the records a title search finds, proves nothing.
    known = any(
        a.candidate.source == VENUE_LISTER and a.same_title and a.candidate.year == year for a in ctx.assessments
    )
    others = any(
        a.candidate.found_by == AUTHORS_YEAR and not a.same_title and a.title_similarity < VERSION_TITLE_SIMILARITY
        for a in ctx.assessments
    )
    if known and others and any(o.hits is not None and o.hits <= WORKS_ROWS for o in works):
        listed = "listed every work of the cited authors in that year"
        return True, f"{VENUE_LISTER}, which lists its venue-years whole, {listed}"
    if not renamed and any(
        o.source == VENUE_LISTER and o.status == "answered" and o.question is None and o.hits is not None
        for o in bundle.outcomes
    ):
        return True, f"{VENUE_LISTER}, which lists its venue-years whole, answered a title search"
    asked = f"{VENUE_LISTER}'s list of the cited authors' works in that year" if renamed else VENUE_LISTER
    return False, f"{asked} was not read whole (asked: {_asked(ctx)})"


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


def _comprehensive(ctx: JudgeContext, kind: str | None, cited: str) -> str | None:
    """The list that holds every venue of this kind (so that a name like none in it is no venue at all),
    or None when no list is complete for the kind. The journal list (JabRef) holds some 43,000 of well
    over 100,000 journals: it is complete for none. A DBLP or ACL mirror is complete for the computer
    science conferences of its snapshot: a name of that field, in a year the snapshot covers."""
    if ctx.bundle.closed_world:
        return "the local store, declared complete (closed world)"
    mirrors = ctx.complete_sources() & conference_year_listers()
    if kind != "conference" or not mirrors or not _computing_words(cited):
        return None
    names = " and ".join(sorted(mirrors))
    return f"the venue table and the proceedings names of the store's complete {names} mirror"


def _computing_words_list() -> frozenset[str]:
    """Words of a computer-science venue name (the DBLP 'word' rule), without the kind words any venue has."""
    return _lister_routes("word") - {"workshop", "symposium", "conference", "proceedings", "transactions", "data"}


def _computer_science(ctx: JudgeContext, work: Assessment) -> bool:
    """Whether the identified work is a computer-science paper (a version in a venue DBLP indexes, or a DBLP
    record of it): a conference it appeared at is then one DBLP lists."""
    for v in versions_of(ctx, work):
        vid = venue_id(v.candidate.venue or v.candidate.venue_full)
        listed = vid is not None and vid.removesuffix("-workshop") in _listed_venues()
        if v.candidate.source == VENUE_LISTER or listed:
            return True
    return False


def _computing_words(name: str) -> bool:
    return bool(set(tokens(name)) & _computing_words_list())


#: Words of a book's or a collection's title: a venue string holding them names a book, which no list
#: of venues holds.
_BOOK_TITLE = lexicon.words("book-title")


def book_like(cited: str) -> bool:
    """Whether a cited venue reads as the title of a book or a collection (a subtitle after a colon, or
    a collection's words: "Probabilistic and Causal Inference: The Works of Judea Pearl")."""
    head, colon, tail = cited.partition(":")
    words = set(tokens(cited))
    return bool(words & _BOOK_TITLE) or (bool(colon) and len(tokens(head)) >= 2 and len(tokens(tail)) >= 2)


@lru_cache(maxsize=65536)
def _relates(cited: str, found: str) -> bool:
    """Whether a cited venue name can be the record's venue written another way (pure in the two names:
    remembered, as a paper cites the same venues many times)."""
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
    versions = versions_of(ctx, work)
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
    if recognised is None and record_is_book(work.candidate):
        return None  # a book's "venue" is its series or collection, which no venue list holds: not in question
    if recognised is None:
        kind = venue_kind(cited, ctx.reference.type)
        near = kb.nearest(cited) if kb else None
        searched = "; ".join(kb.lists()) if kb else "no venue list"
        if near is not None:
            return fact(
                GAP,
                f"the venue '{cited}' is in none of the venue lists (close to '{near}'); the work appeared in {shown}",
            )
        if book_like(cited):
            return fact(
                GAP,
                f"'{cited}' reads as the title of a book or collection, which no venue list holds; the work "
                f"appeared in {shown}",
            )
        online = ctx.bundle.venue_answers.get(cited.strip())
        cs_list = ctx.bundle.computing_venues.get(cited.strip())
        close = next((n for n in [*(online or []), *(cs_list or [])] if alike_venues(cited, n)), None)
        if close is not None:
            return fact(GAP, f"the venue '{cited}' is in no local list; the online lists of venues have '{close}'")
        # DBLP lists every computer-science venue it indexes: a computer-science conference name like none of
        # them, nor of OpenAlex's sources, is no conference.
        computing = _computing_words(cited) or _computer_science(ctx, work)
        if cs_list is not None and online is not None and kind == "conference" and computing:
            return fact(
                FABRICATED,
                f"no conference named '{cited}' is in DBLP's list of computer-science venues nor OpenAlex's list of "
                f"sources, nor one like it (local lists searched: {searched}); the work appeared in {shown}",
            )
        # OpenAlex's sources hold journals whole (every ISSN), not conferences: many proceedings are in no
        # list of sources (CEUR-WS volumes, a society's meeting), so a conference name it lacks is a gap.
        if online is not None and kind == "journal":
            listed = f"; it answered {', '.join(repr(n) for n in online[:3])}" if online else ""
            return fact(
                FABRICATED,
                f"no {kind} named '{cited}' is in OpenAlex's list of sources, nor one like it{listed} (local "
                f"lists searched: {searched}, none like it); the work appeared in {shown}",
            )
        complete = _comprehensive(ctx, kind, cited)
        if complete is not None and len(venue_keys(cited)[0].split()) >= 2:
            return fact(
                FABRICATED,
                f"no {kind} named '{cited}' is in {complete}, nor one like it; the work appeared in {shown}",
            )
        return fact(
            GAP,
            f"the venue '{cited}' is in none of the venue lists (searched: {searched}); the work appeared in {shown}",
        )
    known = [(n, v) for n, v in work_venues if v is not None]
    if any(v.ids & recognised.ids for _, v in known):
        return fact(SAME, f"'{cited}' and {shown} are one venue in {', '.join(recognised.lists)}", recognised)
    shared = recognised.namespaces() & {ns for _, v in known for ns in v.namespaces()}
    if not shared and _journal_against_meetings(ctx, recognised, versions_of(ctx, work)):
        # A journal the lists know is no spelling of a conference: the lists need not know the conference.
        return fact(
            DIFFERENT,
            f"that are a journal ('{cited}' is {recognised.name}, {', '.join(recognised.lists)}) and a conference "
            f"or workshop ({shown})",
            recognised,
        )
    own = _another_meetings_acronym(ctx, versions_of(ctx, work)) if not shared else None
    if own is not None:
        # A conference names itself by its acronym: one the cited conference's names never use is another.
        return fact(
            DIFFERENT,
            f"that are two conferences ('{cited}' is {recognised.name}; the record's names itself {own})",
            recognised,
        )
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


_MEETINGS = frozenset({"conference", "workshop"})


def _journal_against_meetings(ctx: JudgeContext, cited: Venue, versions: list[Assessment]) -> bool:
    """Whether the cited venue is a journal of the journal list while every version of the work appeared at
    a conference or workshop (by its venue's name and record type): two kinds of venue, never one venue
    written two ways."""
    if "journal" not in cited.namespaces() or venue_kind(ctx.reference.venue, ctx.reference.type) != "journal":
        return False

    def meeting(c: Candidate) -> bool:
        # By the names first: an index types a proceedings paper "article" (OpenAlex) as often as not.
        kinds = {venue_kind(n) for n in (c.venue, c.venue_full) if n} - {None}
        return bool(kinds) and kinds <= _MEETINGS

    return bool(versions) and all(meeting(v.candidate) for v in versions)


#: An acronym as venue names print it: capitals (and digits), three or more characters ("APNOMS", "ECBS").
_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]{2,}\b")
#: Capitals in venue names that name a society or a part, not the meeting.
_NOT_MEETING_ACRONYMS = frozenset(
    "IEEE ACM USENIX SIAM AAAI IFIP IAPR ISCA ACL CVF ICST LNCS CEUR SPIE EURASIP IET WCCI II III IV VI VII VIII IX XI "
    "XII XIII XIV XV XVI XVII XVIII XIX XX XXI".lower().split()
)


def _another_meetings_acronym(ctx: JudgeContext, versions: list[Assessment]) -> str | None:
    """The acronym a conference no list knows names itself by, when the cited venue is a conference of the
    venue table and every version of the work appeared at such a conference whose names share no acronym with
    the cited conference's (neither holds the other: "CVPRW" is a CVPR workshop, "EMNLP-IJCNLP" an EMNLP)."""
    cited_id = venue_id(ctx.reference.venue)
    if cited_id is None or venue_kind(ctx.reference.venue) != "conference":
        return None
    theirs = set(acronyms_of(cited_id)) | {a.lower() for a in _ACRONYM.findall(ctx.reference.venue or "")}
    names = [n for v in versions for n in (v.candidate.venue, v.candidate.venue_full) if n]
    kinds = {venue_kind(n) for n in names} - {None}
    if not kinds or not kinds <= _MEETINGS or any(venue_id(n) is not None for n in names):
        return None
    own = {a.lower() for n in names for a in _ACRONYM.findall(n)} - _NOT_MEETING_ACRONYMS
    if not own or any(a in b or b in a for a in own for b in theirs):
        return None
    return sorted(own)[0].upper()


def venue_conflict(ctx: JudgeContext, work: Assessment) -> tuple[str, str] | None:
    """How the cited venue disagrees with every version of the work, as (kind, reason), from the
    venue fact.

    kinds: "preprint-version" (cited as its preprint: a version, not an error), "unconfirmable"
    (a version lacks a venue) and "unrecognised" (no list knows the cited venue, or the record's
    venue is in no list the cited one is in: a gap, never proof); "fabricated-venue" (a list
    complete for the kind holds nothing of that name) and "other-conference" (two conferences
    of the lists: errors wherever found); "preprint-as-published" and "other-venue" (errors where
    the searched sources cover the cited venue, since a journal extension may keep the title).
    """
    fact = venue_fact(ctx, work)
    if fact is None or fact.relation == SAME:
        return None
    kinds = {PREPRINT: "preprint-version", UNCONFIRMABLE: "unconfirmable", GAP: "unrecognised"}
    if fact.relation in kinds:
        return kinds[fact.relation], fact.sentence
    if fact.relation == FABRICATED:
        return "fabricated-venue", fact.sentence
    versions = versions_of(ctx, work)
    cited, found = fact.cited, fact.found
    if all(is_preprint(v.candidate.venue or v.candidate.venue_full) for v in versions):
        return "preprint-as-published", f"the work is a preprint ({found}) but is cited as published in '{cited}'"
    cited_kind = venue_kind(cited, ctx.reference.type)
    found_kinds = {venue_kind(v.candidate.venue or v.candidate.venue_full, v.candidate.type) for v in versions}
    if cited_kind == "conference" and found_kinds == {"conference"}:
        # Two conferences do not publish one paper (dual submission is barred); a journal
        # extension or a workshop version with the same title is common.
        return "other-conference", f"the work appeared in {found}, not '{cited}' (two conferences {fact.sentence})"
    return "other-venue", f"the work appeared in {found}, not '{cited}' (two venues {fact.sentence})"


def venue_names(ctx: JudgeContext, work: Assessment) -> list[str]:
    """Every name the work's venue goes by: each version's venue and proceedings title, and what the
    store's venue knowledge base holds for them."""
    names: list[str] = []
    for v in versions_of(ctx, work):
        for n in (v.candidate.venue, v.candidate.venue_full):
            if n and n not in names:
                names.append(n)
                names.extend(x for x in ctx.venue_names(n) if x not in names)
    return names


def spelled(ctx: JudgeContext, work: Assessment) -> bool:
    """Whether the cited venue is a known spelling of one of the work's venue names."""
    cited = ctx.reference.venue
    return bool(cited) and spells_any(cited or "", venue_names(ctx, work))


def version_at_cited_venue(ctx: JudgeContext, work: Assessment) -> Assessment | None:
    """Another work of the cited authors, at the cited venue within two years of the identified work,
    whose title reads like another version's (at least half alike): the citation may mean that one."""
    year = work.candidate.year
    for a in ctx.assessments:
        if a.candidate.work == work.candidate.work or a.same_title or not by_cited_people(a, MOST):
            continue
        if a.status("venue") != M or (year and a.candidate.year and abs(a.candidate.year - year) > 2):
            continue
        if title_similarity(a.candidate.title or "", work.candidate.title or "") >= VERSION_TITLE_SIMILARITY:
            return a
    return None
