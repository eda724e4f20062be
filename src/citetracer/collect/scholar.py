"""Scholar Connectors stages: ask the chosen bibliographic services in parallel, one deadline.

The services are chosen per citation (collect/choice.py); every service not
asked is reported as skipped with the reason, every one asked as answered or
failed. When a broad service (OpenAlex, Semantic Scholar, Crossref) fails,
the next one in `BROAD_CHAIN` (the "fallback" column of data/source_facts.tsv)
is asked in its place while time remains.
Absence is evidence (bundle.covered) only when every broad service asked answered.

Latency: a citation has a rate budget (`online.rate_budget`, counted from the
start of its check). A request that our polite queue for its service (DBLP's
one request a second, arXiv's one per three) cannot start within it is not
sent, and the source is reported "skipped (rate budget)": never "not found",
and never a failure either (it was not asked). The broad indexes of the first
tier (fast services, the primary evidence) are exempt: they wait for their
turn. When the first broad index finds nothing close to the cited title, the
first tier asks a second one at once: absence is evidence only once two
independent broad indexes answered a title search (and none failed), so an H1
never waits on a specialist nor rests on one index alone.
"""

from __future__ import annotations

import asyncio
import importlib
import time
from collections.abc import Awaitable, Callable, Collection, Iterable
from typing import cast

from citetracer.collect.choice import Choice, choose
from citetracer.collect.connectors import Connector, VenueYearLister
from citetracer.collect.consult import consult
from citetracer.collect.http import Call, HttpClient
from citetracer.collect.replies import answers_search
from citetracer.collect.stage import HttpStage
from citetracer.config import Settings
from citetracer.evidence import (
    AUTHORS_YEAR,
    MAIN_TITLE,
    VENUE_YEAR,
    VOLUME,
    EvidenceBundle,
    budget_end,
    is_budget_skip,
)
from citetracer.normalize.kinds import SCHOLARLY_KINDS, work_kind
from citetracer.normalize.text import main_title, title_form
from citetracer.normalize.venues import is_preprint, venue_id, venue_kind
from citetracer.records import Candidate, Reference, SourceOutcome
from citetracer.sources import BROAD, SOURCES, Source, ranked, source_facts, venue_year_lister
from citetracer.thresholds import BROAD_QUORUM, LISTER_LAG_YEARS, VERSION_YEARS


def connector_of(source: Source) -> Connector:
    """The connector a registry line names ("module:Class"), made once."""
    module, _, name = (source.connector or "").partition(":")
    return cast(Connector, getattr(importlib.import_module(module), name)())


#: The Scholar Connectors: every source of the registry (sources.py) this stage asks.
REGISTRY: dict[str, Connector] = {s.name: connector_of(s) for s in SOURCES if s.scholar}
#: The broad indexes asked in place of one that failed, in order (data/source_facts.tsv "fallback").
BROAD_CHAIN = ranked("fallback")
#: The second broad index asked when no record has the cited title, in order ("second").
SECOND_ORDER = ranked("second")
_ANSWERED = " answered a title search"
_ONLINE_GAP = f"absence online needs {BROAD_QUORUM} broad indexes"
SECOND_BROAD = "a second broad index: the first found no record with the cited title"
VENUE_WITNESS = "a witness of the cited venue: the records found are preprints only"
DETAILS_WITNESS = (
    "a witness of what the citation states: the records found leave its publisher, place or authors unconfirmed"
)
MAIN_TITLE_WHY = "the cited title without its subtitle: no record found holds the whole cited title"
#: The source that lists venue-years whole (data/source_facts.tsv "lists venue-years": DBLP), asked for the
#: works of the cited authors in a year, and its connector.
VENUE_LISTER = venue_year_lister()
LISTER = cast(VenueYearLister, REGISTRY[VENUE_LISTER])
#: Broad indexes that list computer-science venue-years whole (Semantic Scholar ingests DBLP), in order ("witness").
VENUE_WITNESS_ORDER = ranked("witness")
#: Broad indexes that hold deposited publishers' records whole, in order ("details").
DETAILS_ORDER = ranked("details")


def same_title(reference: Reference, bundle: EvidenceBundle) -> list[Candidate]:
    """The records found with the cited title (whole, without its subtitle, or a qualifier apart)."""
    title = reference.title or ""
    return [c for c in bundle.candidates if c.title and title_form(title, c.title) is not None]


def only_preprints(reference: Reference, bundle: EvidenceBundle) -> bool:
    """Whether every record with the cited title is a preprint while the citation names a published
    venue: whether the work appeared there is for a source listing that venue whole to say."""
    if not reference.venue or is_preprint(reference.venue):
        return False
    same = same_title(reference, bundle)
    return bool(same) and all(is_preprint(c.venue or c.venue_full) or c.type == "preprint" for c in same)


def unasked_source(
    settings: Settings,
    http: HttpClient,
    reference: Reference,
    bundle: EvidenceBundle,
    order: tuple[str, ...],
    asked: Collection[str] = (),
    start_by: float | None = None,
) -> str | None:
    """The first of `order` not yet consulted, complete for the cited kind of work (Crossref holds no
    arXiv preprints), whose circuit is closed, preferring one with a turn free within the budget. Every
    stage that asks one more source (a second broad index, a venue's witness, a publisher's deposit)
    chooses it here."""
    consulted = {o.source for o in bundle.outcomes if o.status != "skipped"}
    kind, _ = work_kind(reference)
    # A service whose circuit is open would only add a failure (and a P1): never chosen.
    options = [
        n
        for n in order
        if settings.sources.get(n)
        and n not in consulted
        and n not in asked
        and (kind not in SCHOLARLY_KINDS or kind in source_facts(n).kinds)
        and http.breaker(n).allow()
    ]
    left = None if start_by is None else start_by - time.monotonic()
    free = [n for n in options if left is None or http.turn_within(n, left)]
    pick = free or options
    return pick[0] if pick else None


VOLUME_WHY = "the cited publisher, place or year, which no record found states or dates: the paper's proceedings volume"


def volume_unread(reference: Reference, bundle: EvidenceBundle) -> bool:
    """Whether the citation states a publisher, a conference place or a year that no record with its title
    states, while the volume lister's proceedings volume could and has not been read: a paper cited at a
    conference (a journal's publisher is Crossref's to state), not yet asked about its volume, and no record
    of the lister read with its volume (a mirror's record carries its volume's title and publisher). A year
    one off every record's is read there because the volume's title dates the meeting (judge/facts/dates.py
    `meeting_years`): a conference and its proceedings may be a year apart, or the same year."""
    if venue_kind(reference.venue, reference.type) == "journal":
        return False
    same = same_title(reference, bundle)
    if any(c.source == VENUE_LISTER and c.venue_full for c in same):
        return False
    if any(o.question == VOLUME for o in bundle.outcomes):
        return False
    return bool(same) and (details_unstated(reference, same) or _year_one_off(reference, same))


def _year_one_off(reference: Reference, same: list[Candidate]) -> bool:
    """Whether the cited year is one off the year of every record with the cited title."""
    years = {c.year for c in same if c.year is not None}
    return reference.year is not None and bool(years) and all(abs(reference.year - y) == 1 for y in years)


YEAR_WHY = "the cited year, years off every record found, which the lister's record dates by its proceedings or volume"


def year_undated(reference: Reference, bundle: EvidenceBundle) -> bool:
    """Whether the cited year is more than a version's years off every record with the cited title while no
    record of the venue-year lister is among them: an index's year may be a re-deposit or an online-first
    date (judge/facts/dates.py), while the lister dates a proceedings paper by its proceedings and a journal
    article by its volume, which makes the difference a fact or clears it."""
    same = same_title(reference, bundle)
    years = {c.year for c in same if c.year is not None}
    if reference.year is None or not years or any(c.source == VENUE_LISTER for c in same):
        return False
    return all(abs(reference.year - y) > VERSION_YEARS for y in years)


def details_unstated(reference: Reference, same: list[Candidate]) -> bool:
    """Whether the citation states a publisher or a conference place that none of these records states."""
    publisher = bool(reference.publisher) and not any(c.publisher for c in same)
    return publisher or (bool(reference.location) and not any(c.location for c in same))


async def search_title(
    http: HttpClient,
    settings: Settings,
    name: str,
    ref: Reference,
    bundle: EvidenceBundle,
    deadline: float,
    why: str,
    start_by: float | None = None,
    question: str | None = None,
) -> bool:
    """Ask one connector for the cited title (`ref.title`), its answer recorded in `bundle`; True when it answered
    (possibly with nothing). A broad index's answer to the citation's own title counts toward absence."""
    connector = REGISTRY[name]
    found = await consult(
        http,
        name,
        settings.sources[name],
        lambda call: connector.search(ref, call),
        bundle,
        deadline,
        why,
        start_by,
        subject=f"{question}:{ref.title}" if question else None,
        check=answers_search(ref.title),
        question=question,
    )
    if found is not None and name in BROAD and question is None:
        bundle.broad_answered.add(name)
    return found is not None


class ScholarStage(HttpStage):
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
        #: The specialists, with the lister configured, read a paper's proceedings volume (`_ask_volume`).
        self.witnesses_volumes = not broad and bool(settings.sources.get(VENUE_LISTER))

    def available(self) -> set[str]:
        """The configured connectors of this tier (broad indexes or specialists)."""
        return {n for n in REGISTRY if self.settings.sources.get(n) and (n in BROAD) == self.broad}

    async def _ask(
        self,
        name: str,
        ref: Reference,
        bundle: EvidenceBundle,
        deadline: float,
        why: str,
        start_by: float | None,
        question: str | None = None,
    ) -> bool:
        """True when the connector answered (possibly with nothing). `question` (with `ref` carrying the
        title asked) marks a search for another form of the cited title, remembered apart."""
        return await search_title(self.http, self.settings, name, ref, bundle, deadline, why, start_by, question)

    async def _ask_main_title(self, reference: Reference, bundle: EvidenceBundle, deadline: float) -> None:
        """Search the cited title without its subtitle when no record found holds the whole title: a
        service that matches every query word (OpenAlex) cannot find a record that holds only the main
        title, so an absence is not read before this search too was answered (a failure of it leaves the
        absence unproven: collect/scholar.py _coverage)."""
        head = main_title(reference.title or "")
        if head is None or same_title(reference, bundle):
            return
        name = next((n for n in BROAD_CHAIN if n in bundle.broad_answered and self.http.breaker(n).allow()), None)
        if name is None:
            return
        await self._ask(
            name, reference.model_copy(update={"title": head}), bundle, deadline, MAIN_TITLE_WHY, None, MAIN_TITLE
        )

    def _queues_full(self, names: Iterable[str], start_by: float | None) -> bool:
        """Whether some of `names` has no turn free before `start_by` (requests would be skipped)."""
        if start_by is None:
            return False
        left = start_by - time.monotonic()
        return any(not self.http.turn_within(n, left) for n in names)

    def _second_broad(
        self, reference: Reference, bundle: EvidenceBundle, asked: set[str], start_by: float | None
    ) -> str | None:
        """A second broad index to ask, when no record found so far has the cited title (the citation
        may end on an absence, H1 or a near-miss H2, which needs BROAD_QUORUM broad indexes): the one
        with a turn free within the rate budget (Semantic Scholar first: it also ingests DBLP and
        DOI-less proceedings), else the first available whose circuit is closed."""
        kind, _ = work_kind(reference)
        complete = [n for n in bundle.broad_answered if kind not in SCHOLARLY_KINDS or kind in source_facts(n).kinds]
        if len(complete) >= BROAD_QUORUM:
            return None
        if same_title(reference, bundle):
            return None
        return unasked_source(self.settings, self.http, reference, bundle, SECOND_ORDER, asked, start_by)

    @staticmethod
    def _drop_redundant(reference: Reference, bundle: EvidenceBundle, choice: Choice) -> set[str]:
        """Leave out a specialist whose records a broad index that already answered a title search ingests
        (Semantic Scholar takes in DBLP, arXiv and the ACL Anthology and merges a paper's versions;
        OpenAlex takes in arXiv, PubMed and Europe PMC): it could only repeat that index's answer."""
        dropped: set[str] = set()
        for name in list(choice.ask):
            covering = sorted(source_facts(name).ingested_by & bundle.broad_answered)
            if covering:
                del choice.ask[name]
                dropped.add(name)
                why = f"not asked: {', '.join(covering)}, which ingest {name}, answered a title search"
                bundle.outcomes.append(SourceOutcome(source=name, status="skipped", detail=why))
        return dropped

    @staticmethod
    def _unwitnessed(reference: Reference, bundle: EvidenceBundle) -> bool:
        """Whether the records with the cited title leave what the citation states unconfirmed where
        Crossref, which holds deposited publishers' records whole, would state it: a publisher or a
        conference city none of them records, or more cited authors than a list whose source may cut it."""
        same = same_title(reference, bundle)
        if not same or any(c.source in DETAILS_ORDER for c in same):
            return False
        if details_unstated(reference, same):
            return True
        return any(len(reference.authors) > len(c.authors) and source_facts(c.source).authors != "whole" for c in same)

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        """Ask this tier's chosen connectors in parallel for the citation's title, each recorded as answered, failed or
        skipped.
        """
        available = self.available()
        if not (reference.title or "").strip():
            for name in sorted(available):
                bundle.outcomes.append(SourceOutcome(source=name, status="skipped", detail="no title to search"))
            return
        choice = choose(reference, available, self.settings.online.connectors)
        if not self.broad and not self.settings.online.connectors:
            available = available - self._drop_redundant(reference, bundle, choice)
        deadline = time.monotonic() + self.settings.online.deadline
        start_by = budget_end(bundle, self.settings.online.rate_budget)
        substitutes = set(available)
        names = list(choice.ask)
        # The broad indexes chosen in the first tier are the citation's primary evidence, on
        # fast services: they wait their turn. Everything else must start within the budget.
        results = dict(
            zip(
                names,
                await asyncio.gather(
                    *(
                        self._ask(n, reference, bundle, deadline, choice.ask[n], None if self.broad else start_by)
                        for n in names
                    )
                ),
                strict=True,
            )
        )
        asked = set(names)
        for name in [n for n in names if n in BROAD_CHAIN and not results[n]]:
            for substitute in BROAD_CHAIN:
                if substitute in substitutes and substitute not in asked and time.monotonic() < deadline - 0.5:
                    asked.add(substitute)
                    why = f"in place of {name}, which failed or was skipped"
                    results[substitute] = await self._ask(substitute, reference, bundle, deadline, why, start_by)
                    if results[substitute]:
                        break
        if self.broad and not self.settings.online.connectors:
            # No record with the cited title: absence is in sight, and it needs two broad indexes. Or only
            # preprints of it, while the citation names a published venue: a witness of that venue.
            extra = self._second_broad(reference, bundle, asked, None)
            why = SECOND_BROAD
            if extra is None and only_preprints(reference, bundle):
                extra = unasked_source(self.settings, self.http, reference, bundle, VENUE_WITNESS_ORDER, asked, None)
                why = VENUE_WITNESS
            if extra is None and self._unwitnessed(reference, bundle):
                extra = unasked_source(self.settings, self.http, reference, bundle, DETAILS_ORDER, asked, None)
                why = DETAILS_WITNESS
            if extra is not None:
                asked.add(extra)
                available = available | {extra}
                results[extra] = await self._ask(extra, reference, bundle, deadline, why, None)
            await self._ask_main_title(reference, bundle, deadline)
        if not self.broad and self.settings.sources.get(VENUE_LISTER) and only_preprints(reference, bundle):
            await self._ask_works_of_authors(reference, bundle, deadline, start_by)
        if self.witnesses_volumes and VENUE_LISTER in available - asked and year_undated(reference, bundle):
            asked.add(VENUE_LISTER)
            await self._ask(VENUE_LISTER, reference, bundle, deadline, YEAR_WHY, start_by)
        if self.witnesses_volumes and volume_unread(reference, bundle):
            if VENUE_LISTER not in asked and VENUE_LISTER in available:  # its record of the title comes first
                asked.add(VENUE_LISTER)
                await self._ask(VENUE_LISTER, reference, bundle, deadline, VOLUME_WHY, start_by)
            await self._ask_volume(reference, bundle, deadline, start_by)
        for name in sorted(available - asked):
            bundle.outcomes.append(SourceOutcome(source=name, status="skipped", detail="not chosen for this citation"))
        self._coverage(bundle)

    async def _ask_works_of_authors(
        self, reference: Reference, bundle: EvidenceBundle, deadline: float, start_by: float | None
    ) -> None:
        """Ask the venue-year lister (DBLP) for every work of the cited authors in the cited year, when the
        records with the cited title are preprints while the citation names a computer-science venue it lists
        whole: a title search misses a proceedings version published under another title, this question does
        not. The judge reads an answer that counts no more works than it returned as a witness of the
        venue-year (judge/facts/venue.py)."""
        works = LISTER.works_query(reference)
        if works is None or venue_id(reference.venue) is None:
            return
        await self._ask_lister(
            LISTER.works_of_authors, reference, bundle, deadline, start_by, VENUE_WITNESS, AUTHORS_YEAR,
            f"authors-year:{works}",
        )  # fmt: skip
        probe = LISTER.venue_year_query(reference)
        recent = reference.year is not None and reference.year >= self.settings.today_year - LISTER_LAG_YEARS
        if probe is not None and recent:
            # A recent year's proceedings may not be in DBLP yet: its list of the authors' works is a witness
            # of the venue-year only once DBLP lists that venue-year (judge/facts/venue.py).
            why = f"whether {VENUE_LISTER} lists the cited venue-year yet"
            await self._ask_lister(
                LISTER.venue_year_count, reference, bundle, deadline, start_by, why, VENUE_YEAR,
                f"venue-year:{probe}",
            )  # fmt: skip

    async def _ask_volume(
        self, reference: Reference, bundle: EvidenceBundle, deadline: float, start_by: float | None
    ) -> None:
        """Read the lister's record with the cited title together with its proceedings volume (two requests):
        whether the cited publisher and place are the volume's is then a fact (judge/facts/details.py)."""
        same = [c for c in same_title(reference, bundle) if c.source == VENUE_LISTER]
        if not same:
            return
        key = same[0].id
        await self._ask_lister(
            lambda _ref, call: LISTER.with_volume(key, call), reference, bundle, deadline, start_by, VOLUME_WHY,
            VOLUME, f"volume:{key}",
        )  # fmt: skip

    async def _ask_lister(
        self,
        ask: Callable[[Reference, Call], Awaitable[list[Candidate]]],
        reference: Reference,
        bundle: EvidenceBundle,
        deadline: float,
        start_by: float | None,
        why: str,
        question: str,
        subject: str,
    ) -> None:
        """Ask the venue-year lister a question about the citation other than its title (`question`,
        remembered as `subject`)."""
        await consult(
            self.http,
            VENUE_LISTER,
            self.settings.sources[VENUE_LISTER],
            lambda call: ask(reference, call),
            bundle,
            deadline,
            why,
            start_by,
            subject=subject,
            question=question,
        )

    @staticmethod
    def _coverage(bundle: EvidenceBundle) -> None:
        """Absence is evidence (for the kinds of work they are complete for) once BROAD_QUORUM
        independent broad indexes answered a title search and none failed: a broad index that
        failed may hold the work, and one index alone may simply lack it."""
        for old in [n for n in bundle.coverage_notes if n.endswith(_ANSWERED)]:
            bundle.coverage_notes.remove(old)
        for old in [n for n in bundle.coverage_gaps if n.startswith(_ONLINE_GAP)]:
            bundle.coverage_gaps.remove(old)
        failed = sorted({o.source for o in bundle.outcomes if o.status == "failed" and o.source in BROAD})
        answered = sorted(bundle.broad_answered)
        if len(answered) >= BROAD_QUORUM and not failed:
            bundle.covered = True
            bundle.coverage_notes.append(f"{', '.join(answered)}{_ANSWERED}")
            return
        skipped = sorted({o.source for o in bundle.outcomes if is_budget_skip(o)})
        why = [f"only {', '.join(answered) or 'no broad index'} answered a title search"]
        if failed:
            why.append(f"{', '.join(failed)} failed")
        if skipped:
            why.append(f"{', '.join(skipped)} skipped for the rate budget")
        bundle.coverage_gaps.append(f"{_ONLINE_GAP}: {'; '.join(why)}")
