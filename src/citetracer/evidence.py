"""The evidence gathered for one citation: what the cascade's stages add and the judgers read.

Part of the data model: no stage owns it. A stage (collect/) adds candidates and,
for every source it consulted, whether the source answered, failed (timeout, 429,
5xx, malformed reply) or was skipped, because a failed source lowers certainty and
must never read as "not found". The judge (judge/context.py) reads the bundle.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from citetracer.records import Candidate, SourceOutcome
from citetracer.sources import BROAD
from citetracer.thresholds import BROAD_QUORUM

#: How a source not asked because of the citation's rate budget is recorded (SourceOutcome.detail prefix).
RATE_BUDGET = "skipped (rate budget)"
#: SourceOutcome.question of a search for every work of the cited authors in the cited year (a witness
#: of where the work appeared, whatever its title there).
AUTHORS_YEAR = "authors-year"
#: SourceOutcome.question of a count of the records DBLP holds at the cited venue in the cited year: whether
#: it lists that venue-year yet (its hits are the count).
VENUE_YEAR = "venue-year"
#: SourceOutcome.question of a search for the cited title without its subtitle: services that match every
#: query word (OpenAlex treats the words as AND) cannot find a record that holds only the main title.
MAIN_TITLE = "main-title"
#: The fields a second, fuller reading of one record may add to the first (see `EvidenceBundle.add`).
DETAIL_FIELDS = ("venue_full", "publisher", "location", "pages", "volume", "issue")
#: SourceOutcome.question of a record read with its proceedings volume (the volume lister's record by key,
#: then its volume's): the publisher and the conference place a citation states, which its volume holds.
VOLUME = "volume"


class MemoAnswer(Protocol):
    """A source's earlier answer to one question, as an evidence memo replays it."""

    @property
    def candidates(self) -> list[Candidate]: ...

    @property
    def fetched_iso(self) -> str: ...


class AnswerMemo(Protocol):
    """What the bundle needs of an evidence memo (collect/memo.py EvidenceMemo): fresh answers
    to replay, and where to record new ones. A protocol, so the data model holds no store."""

    network: bool

    def fresh(self, source: str, subject: str, now: float | None = None) -> MemoAnswer | None: ...

    def answered(self, source: str, subject: str, candidates: list[Candidate], detail: str | None = None) -> None: ...

    def failed(self, source: str, subject: str, detail: str) -> None: ...


@dataclass
class EvidenceBundle:
    """Everything gathered for one reference so far, across stages."""

    candidates: list[Candidate] = field(default_factory=list)
    outcomes: list[SourceOutcome] = field(default_factory=list)
    connector_calls: int = 0
    #: Whether what was searched covers the reference's venue in its year, so that absence is
    #: evidence (collect/memory.py for the store, collect/scholar.py online); the notes say how,
    #: the gaps why not (the venue-year the store lacks, a mirror's snapshot date).
    covered: bool = False
    #: The local store covers the cited venue-year (a complete source holds all of it): absence from
    #: the store is evidence for whatever the venue publishes.
    store_covered: bool = False
    coverage_notes: list[str] = field(default_factory=list)
    coverage_gaps: list[str] = field(default_factory=list)
    #: The local store is declared complete (--closed-world): what it does not know does not exist.
    closed_world: bool = False
    #: Broad indexes (OpenAlex, Semantic Scholar, Crossref) that answered a title search.
    broad_answered: set[str] = field(default_factory=set)
    #: A venue name no packaged or stored list knows, and the names a complete online list of venues
    #: (the "sources" venue list of data/source_facts.tsv: OpenAlex's sources) answered for it (collect/venuecheck.py).
    venue_answers: dict[str, list[str]] = field(default_factory=dict)
    #: ... and the names the "computing" venue list (DBLP's: every computer-science venue it indexes) answered for it.
    computing_venues: dict[str, list[str]] = field(default_factory=dict)
    #: When the citation's check began (monotonic): online stages' rate budgets count from here.
    opened: float = field(default_factory=time.monotonic)
    #: The evidence memo (collect/memo.py) the online stages replay from and record to, and the
    #: memo subject of a search about this citation; None outside a checker (then nothing is memoized).
    memo: AnswerMemo | None = None
    subject: str | None = None
    _seen: set[tuple[str, str, str | None, str | None]] = field(default_factory=set)

    def add(self, candidate: Candidate) -> bool:
        """Add a candidate unless the same record (source, id, title, year) is already here; a record read
        again in more detail (with its proceedings volume) fills in what the first reading lacked."""
        key = (candidate.source, candidate.id, candidate.title, str(candidate.year))
        if key in self._seen:
            first = next((c for c in self.candidates if (c.source, c.id, c.title, str(c.year)) == key), None)
            for name in DETAIL_FIELDS if first is not None else ():
                if getattr(first, name) is None and getattr(candidate, name) is not None:
                    setattr(first, name, getattr(candidate, name))
            return False
        self._seen.add(key)
        self.candidates.append(candidate)
        return True

    def memoized(self, source: str) -> bool:
        """Whether the evidence memo holds a fresh answer of `source` to this citation's search:
        asking it costs no request, so it never waits in a rate-limit queue."""
        return self.memo is not None and self.subject is not None and self.memo.fresh(source, self.subject) is not None

    @property
    def failed_sources(self) -> list[str]:
        """Sources whose silence is not evidence: a broad index that failed, always; another source
        that failed, only while fewer than BROAD_QUORUM broad indexes answered a title search.

        Failure is not evidence: a broad index that failed may hold the work, so it blocks every
        absence verdict. A specialist (DBLP, arXiv, PubMed, ...) indexes a subset of what the broad
        indexes ingest (OpenAlex and Semantic Scholar take in arXiv, PubMed and the publishers'
        Crossref records; Semantic Scholar also DBLP): once two independent broad indexes searched
        the title, its failure rarely changes the answer. A source skipped for the rate budget or
        not chosen was never asked: it is neither a failure nor an answer (DESIGN.md, "Online
        proof is proof from the answers given").
        """
        quorum = len(self.broad_answered) >= BROAD_QUORUM
        return [o.source for o in self.outcomes if o.status == "failed" and (o.source in BROAD or not quorum)]


def budget_end(bundle: EvidenceBundle, budget: float | None) -> float | None:
    """The time by which a citation's online requests must be able to start (None: no budget)."""
    return None if budget is None else bundle.opened + budget


def is_budget_skip(outcome: SourceOutcome) -> bool:
    """Whether the source was not asked because the citation's rate budget ran out."""
    return outcome.status == "skipped" and (outcome.detail or "").startswith(RATE_BUDGET)
