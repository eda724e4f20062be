"""Replies checked for what was asked: an answer about something else is a failed source, not evidence.

A faulty service (a misconfigured mirror, a proxy serving one cached page, a test double
gone wrong) can answer every request with the same record. Read as evidence, that record
makes every real citation's work "absent" (H1) or its DOI "another work's" (H5). So a reply
is checked against the question before it counts:

- a DOI lookup must answer with a record of that DOI (or none);
- an arXiv lookup with a record of that arXiv id (or none);
- a title search, when it returns records, with at least one that shares a word with the
  title asked (every scholarly search engine ranks by the query's words; a page of records
  sharing none of them answers some other question).

A check returns why the reply does not answer, or None (collect/consult.py records the
source as failed with that reason: P1, never H).
"""

from __future__ import annotations

from collections.abc import Callable

from citetracer.normalize.text import arxiv_from_doi, canonical_arxiv, canonical_doi, title_words
from citetracer.records import Candidate

#: Why a reply does not answer what was asked, or None.
Check = Callable[[list[Candidate]], str | None]
#: Words too common in titles to show that a record answers a title search.
_COMMON = frozenset("a an the of for and in on to with by from at via using towards toward".split())


def answers_doi(doi: str) -> Check:
    """A DOI lookup's records must carry that DOI (or name its arXiv id, for an arXiv DOI)."""
    asked = canonical_doi(doi)

    def check(found: list[Candidate]) -> str | None:
        for c in found:
            got = canonical_doi(c.doi)
            if (
                got
                and got != asked
                and not (arxiv_from_doi(asked) and arxiv_from_doi(asked) == canonical_arxiv(c.arxiv_id))
            ):
                return f"asked for DOI {asked}, answered with a record of {got}"
        return None

    return check


def answers_arxiv(arxiv: str) -> Check:
    """An arXiv lookup's records must carry that arXiv id."""
    asked = canonical_arxiv(arxiv)

    def check(found: list[Candidate]) -> str | None:
        for c in found:
            got = canonical_arxiv(c.arxiv_id) or arxiv_from_doi(canonical_doi(c.doi))
            if got and got != asked:
                return f"asked for arXiv:{asked}, answered with a record of arXiv:{got}"
        return None

    return check


def answers_search(title: str | None) -> Check:
    """A title search's records, when there are any, must include one sharing a word with the title."""
    words = {w for w in title_words(title or "") if w not in _COMMON and len(w) >= 3}

    def check(found: list[Candidate]) -> str | None:
        if len(words) < 3 or not found:
            return None
        for c in found:
            if words & set(title_words(c.title or "")):
                return None
        return f"the reply to a title search holds {len(found)} record(s), none sharing a word with the title asked"

    return check
