"""What the judgers look at: the reference, the assessed candidates, and the search's reach."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property

from citetracer.data import lexicon, lines
from citetracer.evidence import EvidenceBundle
from citetracer.match.rules import Assessment
from citetracer.normalize.venue_kb import VenueKB
from citetracer.records import FieldStatus, Reference

M = FieldStatus.MATCH

#: Entry kinds the bibliographic indexes do not cover well: absence is not evidence for them.
UNINDEXED_TYPES = lexicon.words("unindexed-type")


@cache
def known_registrants() -> frozenset[str]:
    """DOI registrant prefixes of the knowledge table: a DOI under one of them is of a known publisher."""
    return frozenset(line.split("\t", 1)[0] for line in lines("doi_registrants.tsv"))


@dataclass
class JudgeContext:
    reference: Reference
    assessments: list[Assessment]
    bundle: EvidenceBundle
    today_year: int
    #: Whether some source of evidence knows DOIs under this registrant prefix.
    knows_doi_prefix: Callable[[str], bool] = field(default=lambda prefix: False)
    #: Whether some source of evidence holds records of this venue.
    knows_venue: Callable[[str], bool] = field(default=lambda venue: False)
    #: The venue knowledge base: other names of a venue the evidence records are published in
    #: (the store's proceedings titles of a DBLP booktitle; store/db.py venue_names).
    venue_names: Callable[[str], list[str]] = field(default=lambda venue: [])
    #: How many stored works have a title holding all these (content) words: how generic a title is.
    titles_sharing: Callable[[list[str]], int] = field(default=lambda words: 1)
    #: The venue knowledge base (normalize/venue_kb.py): the packaged lists and the store's names.
    venue_kb: VenueKB | None = None
    #: The store's sources that are complete for each venue-year they hold (DBLP, ACL Anthology, ...).
    complete_sources: Callable[[], set[str]] = field(default=lambda: set())
    stage: str | None = None
    #: Facts made once per citation (judge/facts.py), by name and work.
    facts: dict[tuple[str, int], object] = field(default_factory=dict, repr=False)

    @cached_property
    def title_matches(self) -> list[Assessment]:
        """Candidates whose title is the cited title (up to formatting), best first."""
        return [a for a in self.assessments if a.same_title]

    @property
    def failed_sources(self) -> list[str]:
        """Sources whose silence is not evidence for this citation (see EvidenceBundle.failed_sources)."""
        return self.bundle.failed_sources
