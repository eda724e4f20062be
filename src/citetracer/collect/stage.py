"""What a cascade stage is: something that adds candidates for a reference to a bundle.

A stage never judges. The bundle and its rules (evidence.py) are part of the data
model; this module holds the stage protocol and the ledger of agent calls stages make.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Protocol

# Re-exported for collect/urlfetch.py until its imports move with the connector registry.
from citetracer.evidence import EvidenceBundle, budget_end
from citetracer.records import AgentCall, Reference

__all__ = ["AGENT_CALLS", "EvidenceBundle", "Stage", "budget_end"]

#: LLM agent calls made by stages for the citation being checked (the Web Agent's, when
#: configured); the cascade sets a fresh list per citation and adds it to the citation's cost.
AGENT_CALLS: ContextVar[list[AgentCall] | None] = ContextVar("citetracer_agent_calls", default=None)


class Stage(Protocol):
    """One step of the cascade (Memory, URL Fetch, Scholar Connectors, Web Search)."""

    name: str

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        """Add candidates and source outcomes for `reference` to `bundle`."""
        ...
