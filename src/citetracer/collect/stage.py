"""What a cascade stage is: something that adds candidates for a reference to a bundle.

A stage never judges. It records, for every source it consulted, whether the
source answered, failed (timeout, 429, 5xx, malformed reply) or was skipped,
because a failed source lowers certainty and must never read as "not found".
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Protocol

from citetracer.records import AgentCall, Candidate, Reference, SourceOutcome

#: LLM agent calls made by stages for the citation being checked (the Web Agent's, when
#: configured); the cascade sets a fresh list per citation and adds it to the citation's cost.
AGENT_CALLS: ContextVar[list[AgentCall] | None] = ContextVar("citetracer_agent_calls", default=None)


@dataclass
class EvidenceBundle:
    """Everything gathered for one reference so far, across stages."""

    candidates: list[Candidate] = field(default_factory=list)
    outcomes: list[SourceOutcome] = field(default_factory=list)
    connector_calls: int = 0
    #: Whether what was searched covers the reference's field (see judge.coverage).
    covered: bool = False
    coverage_notes: list[str] = field(default_factory=list)
    _seen: set[tuple[str, str, str | None, str | None]] = field(default_factory=set)

    def add(self, candidate: Candidate) -> bool:
        key = (candidate.source, candidate.id, candidate.title, str(candidate.year))
        if key in self._seen:
            return False
        self._seen.add(key)
        self.candidates.append(candidate)
        return True

    @property
    def failed_sources(self) -> list[str]:
        return [o.source for o in self.outcomes if o.status == "failed"]


class Stage(Protocol):
    """One step of the cascade (Memory, URL Fetch, Scholar Connectors, Web Search)."""

    name: str

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        """Add candidates and source outcomes for `reference` to `bundle`."""
        ...
