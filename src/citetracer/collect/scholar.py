"""Scholar Connectors stages: ask the chosen bibliographic services in parallel, one deadline.

The services are chosen per citation (collect/choice.py); every service not
asked is reported as skipped with the reason, every one asked as answered or
failed. When a broad service (OpenAlex, Semantic Scholar, Crossref) fails,
the next one in `BROAD_CHAIN` is asked in its place while time remains.
Absence is evidence (bundle.covered) only when every broad service asked answered.
"""

from __future__ import annotations

import asyncio
import time

from citetracer.collect.choice import choose
from citetracer.collect.connectors import Connector
from citetracer.collect.connectors.arxiv import Arxiv
from citetracer.collect.connectors.crossref import Crossref
from citetracer.collect.connectors.datacite import DataCite
from citetracer.collect.connectors.dblp import Dblp
from citetracer.collect.connectors.europepmc import EuropePmc
from citetracer.collect.connectors.openalex import OpenAlex
from citetracer.collect.connectors.openreview import OpenReview
from citetracer.collect.connectors.pubmed import PubMed
from citetracer.collect.connectors.semanticscholar import SemanticScholar
from citetracer.collect.consult import consult
from citetracer.collect.http import HttpClient, UsesHttp
from citetracer.collect.stage import EvidenceBundle
from citetracer.config import Settings
from citetracer.records import Reference, SourceOutcome

REGISTRY: dict[str, Connector] = {
    c.name: c
    for c in (
        OpenAlex(),
        SemanticScholar(),
        Crossref(),
        Dblp(),
        Arxiv(),
        PubMed(),
        EuropePmc(),
        OpenReview(),
        DataCite(),
    )
}
BROAD_CHAIN = ("openalex", "semanticscholar", "crossref")


class ScholarStage(UsesHttp):
    """One tier of Scholar Connectors: the broad services, or the specialists (DBLP, PubMed, ...).

    Two tiers because the specialists' polite limits are tight (DBLP asks for a
    second or two between requests, arXiv for three): they are asked only for
    citations the broad services did not settle as Real, which the cascade
    decides between the two stages.
    """

    def __init__(self, settings: Settings, http: HttpClient, broad: bool = True) -> None:
        self.settings = settings
        self.http = http
        self.broad = broad
        self.name = "connectors" if broad else "specialists"

    def available(self) -> set[str]:
        return {n for n, c in REGISTRY.items() if self.settings.sources.get(n) and c.broad == self.broad}

    async def _ask(self, name: str, ref: Reference, bundle: EvidenceBundle, deadline: float, why: str) -> bool:
        """True when the connector answered (possibly with nothing)."""
        connector = REGISTRY[name]
        found = await consult(
            self.http,
            name,
            self.settings.sources[name],
            lambda call: connector.search(ref, call),
            bundle,
            deadline,
            why,
        )
        return found is not None

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        available = self.available()
        if not (reference.title or "").strip():
            for name in sorted(available):
                bundle.outcomes.append(SourceOutcome(source=name, status="skipped", detail="no title to search"))
            return
        choice = choose(reference, available, self.settings.online.connectors)
        deadline = time.monotonic() + self.settings.online.deadline
        names = list(choice.ask)
        results = dict(
            zip(
                names,
                await asyncio.gather(*(self._ask(n, reference, bundle, deadline, choice.ask[n]) for n in names)),
                strict=True,
            )
        )
        asked = set(names)
        for name in [n for n in names if n in BROAD_CHAIN and not results[n]]:
            for substitute in BROAD_CHAIN:
                if substitute in available and substitute not in asked and time.monotonic() < deadline - 0.5:
                    asked.add(substitute)
                    results[substitute] = await self._ask(
                        substitute, reference, bundle, deadline, f"in place of {name}, which failed"
                    )
                    if results[substitute]:
                        break
        for name in sorted(available - asked):
            bundle.outcomes.append(SourceOutcome(source=name, status="skipped", detail="not chosen for this citation"))
        # Absence is evidence only when every broad service asked answered: a substitute
        # standing in for a failed one may lack the versions the failed one holds.
        broad = [n for n in asked if REGISTRY[n].broad]
        if broad and all(results.get(n) for n in broad):
            bundle.covered = True
            bundle.coverage_notes.append(f"{', '.join(sorted(broad))} answered a title search")
