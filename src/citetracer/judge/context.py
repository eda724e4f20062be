"""What the judgers look at: the reference, the assessed candidates, and the search's reach."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property

from citetracer.data import lines
from citetracer.evidence import EvidenceBundle
from citetracer.match.rules import Assessment
from citetracer.normalize.venue_kb import VenueKB
from citetracer.records import Candidate, FieldStatus, Reference
from citetracer.thresholds import SAME_AUTHORS_OVERLAP, SAME_PEOPLE_OVERLAP, VERSION_TITLE_SIMILARITY

M = FieldStatus.MATCH

#: Entry kinds the bibliographic indexes do not cover well: absence is not evidence for them.
UNINDEXED_TYPES = frozenset(
    {"phdthesis", "mastersthesis", "thesis", "techreport", "report", "unpublished", "manual", "booklet"}
)
#: Entry kinds that name non-scholarly things (software, data, web pages, standards).
NON_SCHOLARLY_TYPES = frozenset({"misc", "online", "software", "dataset", "electronic", "www", "webpage", "standard"})


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
    _versions: dict[int, list[Assessment]] = field(default_factory=dict, repr=False)
    #: Facts made once per citation (judge/facts.py), by name and work.
    facts: dict[tuple[str, int], object] = field(default_factory=dict, repr=False)

    @cached_property
    def title_matches(self) -> list[Assessment]:
        """Candidates whose title is the cited title (up to formatting), best first."""
        return [a for a in self.assessments if a.same_title]

    @cached_property
    def work(self) -> Assessment | None:
        """The real work this citation most plausibly means: identified by its title, or else by the cited
        identifier on a record of the cited authors under another of its titles (`renamed`)."""
        if self.title_matches:
            return max(self.title_matches, key=lambda a: (a.authors.overlap if a.authors else 0.0, a.identity))
        renamed = [a for a in self.assessments if self.renamed(a)]
        return max(renamed, key=lambda a: a.identity) if renamed else None

    def renamed(self, a: Assessment) -> bool:
        """Whether `a` is the cited work under another title: the record the cited arXiv id names, by the
        cited authors, with a title at least half alike (papers are renamed between arXiv versions,
        "MACE-OFF23: ..." becoming "MACE-OFF: ...", and an arXiv id names one work). A DOI names one
        published version whose title is fixed: a title one word off it is a near miss (H2)."""
        arxiv_doi = a.fields.get("doi") is not None and a.status("doi") == M and a.fields["doi"].note == "arXiv DOI"
        if a.same_title or (a.status("arxiv_id") != M and not arxiv_doi):
            return False
        return self.version_by_identifier(a)

    def version_by_identifier(self, a: Assessment) -> bool:
        """Whether the record a cited identifier names is by the cited authors with a title at least half
        alike: another version of the cited work (renamed, or a conference paper and its journal
        extension), not a different work."""
        cmp = a.authors
        if cmp is None or cmp.overlap < SAME_AUTHORS_OVERLAP or cmp.matched + cmp.variants < min(2, cmp.cited):
            return False
        return a.title_similarity >= VERSION_TITLE_SIMILARITY

    def versions_of(self, work: Assessment) -> list[Assessment]:
        """Renderings of the same work: same record, or same title and (nearly) the same authors.

        Several code functions ask for the versions of the same work; they are computed once.
        """
        cached = self._versions.get(id(work))
        if cached is not None:
            return cached
        out = self._versions[id(work)] = self._find_versions(work)
        return out

    def _find_versions(self, work: Assessment) -> list[Assessment]:
        out = []
        for a in self.assessments:
            same_record = bool(a.candidate.work) and a.candidate.work == work.candidate.work
            if same_record or (a.same_title and same_people(a.candidate, work.candidate)):
                out.append(a)
        return out

    @property
    def failed_sources(self) -> list[str]:
        """Sources whose silence is not evidence for this citation (see EvidenceBundle.failed_sources)."""
        return self.bundle.failed_sources


def same_people(a: Candidate, b: Candidate) -> bool:
    """Whether two records name (nearly) the same people: versions of one work."""
    from citetracer.normalize.names import compare_author_lists

    if not a.authors or not b.authors:
        return True
    cmp = compare_author_lists(a.authors, b.authors, a.authors_truncated, b.authors_truncated)
    return cmp.overlap >= SAME_PEOPLE_OVERLAP or cmp.coverage >= SAME_PEOPLE_OVERLAP
