"""Authorship facts: whether a record holds the work's author list whole, and how the cited names
relate to it (which match no record author under any variant, which record authors are omitted).

A record's author list is a fact only where its source holds lists whole (data/source_facts.tsv)
and the list shows no sign of having been cut; a cited name no record author explains is a
contradiction only inside such a list.
"""

from __future__ import annotations

from dataclasses import dataclass

from citetracer.judge.context import JudgeContext
from citetracer.match.rules import Assessment
from citetracer.normalize.names import AuthorListComparison, compare_author_lists, name_keys
from citetracer.records import Candidate, Person
from citetracer.sources import source_facts
from citetracer.thresholds import SAME_AUTHORS_OVERLAP, SAME_PEOPLE_OVERLAP

#: How far the cited people are a record's people (`cited_people`), weakest first.
FEW, SOME, MOST, ALL = "few", "some", "most", "all"
_LEVELS = (FEW, SOME, MOST, ALL)


def cited_people(cmp: AuthorListComparison | None) -> str:
    """The one answer to "are these the cited people?": ALL (every cited name is a record author and
    none is left out), MOST (at least SAME_PEOPLE_OVERLAP of the checkable cited names, and two of
    them unless only one is cited), SOME (at least SAME_AUTHORS_OVERLAP of them), else FEW. A citation
    naming no authors is ALL: nothing it says about people disagrees."""
    if cmp is None or cmp.cited == 0:
        return ALL
    names = cmp.matched + cmp.variants
    if cmp.complete:
        return ALL
    if cmp.overlap >= SAME_PEOPLE_OVERLAP and names >= min(2, cmp.cited):
        return MOST
    if cmp.overlap >= SAME_AUTHORS_OVERLAP:
        return SOME
    return FEW


def by_cited_people(a: Assessment, at_least: str = MOST, names: int | None = None) -> bool:
    """Whether record `a` is by the cited people at `at_least` that level, with at least `names` cited
    names its own (default: two, or one when only one is cited). One shared surname never tells a
    namesake apart, so a record is "their other work" only with `names=2`."""
    cmp = a.authors
    level = cited_people(cmp)
    if cmp is None or _LEVELS.index(level) < _LEVELS.index(at_least):
        return False
    if level == ALL and names is None:
        return True
    need = min(2, cmp.cited) if names is None else names
    return cmp.matched + cmp.variants >= need


def same_people(a: Candidate, b: Candidate) -> bool:
    """Whether two records name (nearly) the same people: versions of one work."""
    if not a.authors or not b.authors:
        return True
    cmp = compare_author_lists(a.authors, b.authors, a.authors_truncated, b.authors_truncated)
    return cmp.overlap >= SAME_PEOPLE_OVERLAP or cmp.coverage >= SAME_PEOPLE_OVERLAP


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


#: Lengths at which services and deposits cut author lists (round numbers, page sizes; 8: a record seen
#: holding the first 8 of a work's 51 authors, with no marker).
CUT_LENGTHS = frozenset({8, 10, 15, 20, 25, 30, 40, 50, 100})
#: Cited names beyond a record's list from which the list reads as cut, not padded (a fabrication pads
#: a list with a name or two; a service that cut a long list leaves many out).
CUT_BEYOND = 3


def continues(cited: list[Person], cand: Candidate) -> bool:
    """Whether the cited list continues the record's: the record's authors are the cited list's first, in
    order, and the cited list names more."""
    n = len(cand.authors)
    return len(cited) > n > 0 and compare_author_lists(cited[:n], cand.authors, False, False).complete


def cut_short(cited: list[Person], cand: Candidate) -> bool:
    """Whether the record's list is a long list cut short: the cited list continues it past a length at which
    services cut lists (at least the shortest of CUT_LENGTHS). Then the record's names identify the work and
    say nothing of the names beyond its end, which a long list carries and a padded short one does not."""
    return len(cand.authors) >= min(CUT_LENGTHS) and continues(cited, cand)


def record_authors_complete(cand: Candidate, cited: list[Person], closed_world: bool = False) -> tuple[bool, str]:
    """Whether a record's author list is the work's whole list, and why: by what its source declares
    (data/source_facts.tsv), unless the list shows it was cut: it ends with "and others", or the cited
    list continues it (the record's authors are the cited list's first, in order) past a length at
    which services cut lists, or by CUT_BEYOND names or more. A short list continued by a name or two is
    not cut: that is how a fabrication pads a list. A store declared complete holds lists whole."""
    n = len(cand.authors)
    if cand.authors_truncated:
        return False, f"the {cand.source} record ends its author list with 'and others'"
    if continues(cited, cand) and (n in CUT_LENGTHS or len(cited) - n >= CUT_BEYOND):
        return False, (
            f"the {cand.source} record's {n} authors are the cited list's first {n} of {len(cited)} (a list cut short)"
        )
    if closed_world:
        return True, "the local store is declared complete"
    facts = source_facts(cand.source)
    if facts.authors == "whole":
        return True, facts.why
    if facts.authors == "partial":
        return False, f"{cand.source} does not hold author lists whole"
    if n >= LONG_AUTHOR_LIST or n in CUT_LENGTHS:
        return False, f"the {cand.source} record lists {n} authors, and {cand.source} may cut long lists"
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


def _shares_a_token(person: Person, record: list[Person]) -> bool:
    """A cited name whose family name (three letters or more) is a word of some record author's name: the
    record's names regrouped by extraction ("Adi" from "Dag Arne Osvik Shamir and Adi and Eran Tromer").
    Such a name is no contradiction: H3 needs cited names that share nothing with the record (damaged
    letters, "M ¨uller", are repaired where the text is read: extract/)."""
    words = {w for other in record for w in (*name_keys(other).family, *name_keys(other).given) if w}
    return any(len(w) >= 3 and w in words for w in name_keys(person).family)


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
    complete, why = record_authors_complete(cand, cited, ctx.bundle.closed_world)
    by_name = {p.display(): p for p in cited}
    unmatched = tuple(
        n
        for n in work.authors.unmatched_cited
        if not (n in by_name and (_loose_match(by_name[n], cand.authors) or _shares_a_token(by_name[n], cand.authors)))
    )
    back = compare_author_lists(cand.authors, cited, False, ctx.reference.et_al)
    strays = [by_name[n] for n in work.authors.unmatched_cited if n in by_name]
    by_record = {p.display(): p for p in cand.authors}
    omitted = tuple(
        n
        for n in (back.unmatched_cited if not ctx.reference.et_al else ())
        # a record author some garbled cited name stands for is not omitted ("Xiaowe, X." for Xiaowei Xu)
        if not (
            n in by_record
            and any(_loose_match(p, [by_record[n]]) or _shares_a_token(p, [by_record[n]]) for p in strays)
        )
    )
    k = len(cand.authors) - len(omitted)
    prefix = bool(omitted) and not unmatched and tuple(p.display() for p in cand.authors[k:]) == omitted
    if not complete and unmatched:
        why = _whole_list_witness(ctx, work, unmatched) or why
        complete = why.startswith(_WITNESSED)
    return AuthorFact(complete, why, unmatched, omitted, prefix)


_WITNESSED = "another record of the work holds its list whole"


def _whole_list_witness(ctx: JudgeContext, work: Assessment, unmatched: tuple[str, ...]) -> str | None:
    """Why the work's author list is known whole although its own record's may be cut: another record of
    the work (the whole cited title, the same people) from a source holding lists whole lacks the same
    cited names. One index's cut list is a gap; a whole list beside it is the fact."""
    for a in ctx.assessments:
        c = a.candidate
        if a is work or not a.same_title or not c.authors or not same_people(c, work.candidate):
            continue
        if not record_authors_complete(c, ctx.reference.authors, ctx.bundle.closed_world)[0]:
            continue
        other = author_fact(ctx, a)  # complete, so it looks for no witness of its own
        if other is not None and other.complete and set(unmatched) <= set(other.unmatched):
            return f"{_WITNESSED} ({other.why}: [{c.source}:{c.id}] lacks them too)"
    return None
