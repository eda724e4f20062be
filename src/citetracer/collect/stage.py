"""What a cascade stage is: something that adds candidates for a reference to a bundle.

A stage never judges. The bundle and its rules (evidence.py) are part of the data
model; this module holds the stage base class and the ledger of agent calls stages make.
The base class gives every stage the lifecycle the pipeline drives (prefetch before a
paper's citations, aclose after them on the event loop, close at the end) as no-ops, so
the pipeline calls them directly; `HttpStage` is a stage that holds the shared HTTP client
and closes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar

from citetracer.collect.http import HttpClient

# Re-exported for collect/urlfetch.py until its imports move with the connector registry.
from citetracer.evidence import EvidenceBundle, budget_end
from citetracer.records import AgentCall, Reference

__all__ = ["AGENT_CALLS", "EvidenceBundle", "HttpStage", "Stage", "budget_end"]

#: LLM agent calls made by stages for the citation being checked (the Web Agent's, when
#: configured); the cascade sets a fresh list per citation and adds it to the citation's cost.
AGENT_CALLS: ContextVar[list[AgentCall] | None] = ContextVar("citetracer_agent_calls", default=None)


class Stage:
    """One step of the cascade (Memory, URL Fetch, Scholar Connectors, Web Search)."""

    name: str
    #: Whether this stage reads a paper's proceedings volume (collect/scholar.py `volume_unread`): the
    #: cascade does not stop before it while a cited publisher or place is unread.
    witnesses_volumes: bool = False

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        """Add candidates and source outcomes for `reference` to `bundle`."""
        raise NotImplementedError

    async def prefetch(self, refs: Sequence[Reference]) -> None:
        """Ask ahead, in batches, what the citations of one paper will need (nothing by default)."""

    async def aclose(self) -> None:
        """Release what is bound to the event loop of a paper's check (nothing by default)."""

    def close(self) -> None:
        """Release what the stage holds when the checker closes (nothing by default)."""


class HttpStage(Stage):
    """A stage holding the shared HTTP client: the pipeline closes the client through it."""

    http: HttpClient

    async def aclose(self) -> None:
        await self.http.aclose()

    def close(self) -> None:
        self.http.close_cache()
