"""extract -> cascade(match, judge) -> report: the one pipeline every front end calls."""

from __future__ import annotations

import asyncio
import errno
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citetracer.cascade import CascadeOutcome, Review, run_cascade
from citetracer.collect.memo import EvidenceMemo
from citetracer.collect.memory import MemoryStage, fingerprint
from citetracer.collect.paperfetch import looks_like_paper_id
from citetracer.collect.stage import HttpStage, Stage
from citetracer.config import Settings, load_settings
from citetracer.evidence import EvidenceBundle
from citetracer.extract import InputError, PageRange, ReadResult, read_references, read_text
from citetracer.judge.context import JudgeContext
from citetracer.match.rules import Assessment
from citetracer.normalize.venue_kb import VenueKB
from citetracer.records import AgentCall, Candidate, CitationResult, Cost, FieldComparison, Reference, Report
from citetracer.store.api import StoreAPI, display_location, open_store
from citetracer.store.db import StoreBusy, StoreError
from citetracer.store.gaps import SETUP_COMMAND, StoreProfile
from citetracer.version import __version__

if TYPE_CHECKING:  # the HTTP layer is loaded only by a checker allowed online (see _online_stages)
    from citetracer.collect.http import HttpClient

#: Seconds a check waits at its end for another process writing the store (an ingest) before it
#: gives up saving its memo and verified links (store/lock.py); it never waits to read.
SAVE_WAIT = 10.0
#: Verified links a check holds before it saves them (a 40,000-citation job held one record each to the end).
SAVE_EVERY = 2000


@dataclass
class Paper:
    """One input read and not yet checked: its references and warnings (`read`) and the name its report gives
    it (the path as given, the identifier it was fetched by, `<text>`, or the name a front end chose)."""

    name: str
    read: ReadResult
    #: The file read, while it exists (None for a text, or a fetched paper whose temporary PDF is gone): what
    #: the Parser Agent rereads, whatever name the report gives the input.
    path: Path | None = None

    @property
    def references(self) -> list[Reference]:
        return self.read.references

    @property
    def warnings(self) -> list[str]:
        return self.read.warnings


class Reader:
    """Reads inputs into Papers, not yet checked: the one reading path of every front end. `Checker.read` is this
    `read`; `citetracer extract`, which checks nothing, reads through a Reader alone and so opens no store."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def read(
        self,
        source: str | Path | None = None,
        ref_pages: PageRange | None = None,
        *,
        text: str | None = None,
        name: str | None = None,
    ) -> Paper:
        """The references of a file (`source`: a path), of a paper named by `arXiv:ID`, `doi:10.x/y` or its landing
        page's URL (a string; fetched as a PDF, online only, and read like a file), or of `text` (BibTeX, .bbl, one
        reference per line), not yet checked. `ref_pages`: a PDF's bibliography pages, as `--ref-pages`; `name`:
        the report's name for the input (default: the path or identifier as given, `<text>` for a text).

        Raises InputError when nothing can be read, a missing file included (its message names the file).
        """
        if (source is None) == (text is None):
            raise TypeError("give either a path (source) or a text of references (text=...)")
        if text is not None:
            read = read_text(text)
            if not read.references:
                raise InputError("no references found in the given text")
            return Paper("<text>" if name is None else name, read)
        if isinstance(source, str) and not Path(source).exists() and looks_like_paper_id(source):
            from citetracer.collect.paperfetch import fetch_to_temp  # arXiv:ID, doi:..., a landing page URL

            pdf, folder = fetch_to_temp(source, self.settings)
            try:
                read = read_references(pdf, ref_pages, self.settings.segmenter)
                return Paper(source.strip() if name is None else name, read)
            finally:
                folder.cleanup()
        path = Path(source)  # type: ignore[arg-type]
        read = read_references(path, ref_pages, self.settings.segmenter)
        return Paper(str(path) if name is None else name, read, path)


class Checker(Reader):
    """Holds the store and the stages; reads inputs and checks their references through the cascade.

    The one entry point every front end uses (CLI, `citetracer.check()`, `citetracer scan`).
    Without explicit `settings` it reads them as the CLI does: defaults < config file
    (`config`, else `$CITETRACER_CONFIG`, else the user config file) < environment
    (`CITETRACER_STORE`, `CITETRACER_OFFLINE`, ...) < the keyword `flags` (the CLI's
    flag names: `offline`, `closed_world`, `today_year`, `mailto`, ...; `store` may be the
    store file's path or a PostgreSQL URL, or an open store)::

        with citetracer.Checker(offline=True) as checker:
            report = checker.check("paper.pdf")
            more = checker.check("other.bib")
            paper = checker.read("arXiv:1706.03762", ref_pages=(10, 12))   # read first, say its warnings,
            last = checker.check(paper, on_result=print)                  # then check it citation by citation

    Keeping one Checker for many inputs opens the store and the online clients once.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        store: StoreAPI | Path | str | None = None,
        stages: Sequence[Stage] | None = None,
        *,
        config: Path | str | None = None,
        **flags: Any,
    ) -> None:
        if isinstance(store, str | Path):  # a store file or URL is a setting like the CLI's --store
            flags["store"] = store
            store = None
        if settings is None:
            settings = load_settings(Path(config) if config is not None else None, **flags)
        elif flags or config is not None:
            raise TypeError("give either settings or config/flags, not both")
        super().__init__(settings)
        if store is None:
            if settings.read_only and isinstance(settings.store, Path) and not settings.store.exists():
                raise StoreError(f"{settings.store}: no such store (read-only: none is created)")
            store = open_store(settings.store, lock_wait=SAVE_WAIT, readonly=settings.read_only)
        self.store = store
        #: What an offline check cannot do with this store (empty, or no complete source), or None: the first of
        #: every report's `store_warnings` (which each report says once, apart from the paper's own warnings).
        self.store_note = store_note(self.store, settings.offline)
        #: The store's coverage, read on the first offline check (store/gaps.py).
        self._profile: StoreProfile | None = None
        #: Problems of this checker's own writes (the store busy with another writer), for the report.
        self.notes: list[str] = []
        #: What online sources answered before (collect/memo.py); offline it is only replayed.
        self.memo = EvidenceMemo(self.store, settings.online, network=not settings.offline)
        #: The venue knowledge base: the packaged lists and this store's venue names, read on first use.
        self.venue_kb = VenueKB(store_names=self.store.venue_catalog)
        self.stages: list[Stage] = list(stages) if stages is not None else self._default_stages()
        self.review: Review | None = _agent_review(settings)

    def _default_stages(self) -> list[Stage]:
        stages: list[Stage] = [MemoryStage(self.store, closed_world=self.settings.closed_world)]
        if not self.settings.offline:
            stages.extend(_online_stages(self.settings, self.memo, self.venue_kb))
        elif self.settings.online.memo and self.store.memo.counts().get("answered"):
            # Offline, the online stages only replay the memo's answers, never the network. Failure rows
            # (kept for diagnosis, never replayed) are no reason to run them: after one run without a
            # network they made every later offline citation list each source as skipped.
            stages.extend(_online_stages(self.settings, self.memo, self.venue_kb))
        return stages

    def close(self) -> None:
        """Close the stages' HTTP clients and the store."""
        for stage in self.stages:
            stage.close()
        self.store.close()

    def __enter__(self) -> Checker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _context(
        self, ref: Reference, assessments: list[Assessment], bundle: EvidenceBundle, stage: str
    ) -> JudgeContext:
        return JudgeContext(
            reference=ref,
            assessments=assessments,
            bundle=bundle,
            today_year=self.settings.today_year,
            knows_doi_prefix=self.store.knows_doi_prefix,
            knows_venue=self.store.knows_venue,
            venue_names=self.store.venue_names,
            titles_sharing=_remembered(self.store.titles_sharing),
            venue_kb=self.venue_kb,
            complete_sources=self.store.complete_sources,
            stage=stage,
        )

    async def check_one(self, ref: Reference) -> tuple[CascadeOutcome, float]:
        """The cascade's outcome for one reference and the seconds it took."""
        start = time.perf_counter()
        outcome = await run_cascade(ref, self.stages, self._context, self.review, self.memo)
        return outcome, time.perf_counter() - start

    async def check_references(
        self,
        refs: Sequence[Reference],
        on_done: Callable[[int], None] | None = None,
        on_result: Callable[[CitationResult], None] | None = None,
    ) -> list[CitationResult]:
        """Results in the order of `refs`; `on_done(i)` is called as citation i is judged.

        With `on_result`, each result is handed over in the order of `refs` as soon as it
        and those before it are judged, and not kept (the list returned is empty): a
        report written that way costs memory for the citations in flight, not for all.
        Without it the results are collected from that same stream into the list returned.
        """
        if on_result is None:
            collected: list[CitationResult] = []
            await self._stream_references(refs, on_done, collected.append)
            return collected
        await self._stream_references(refs, on_done, on_result)
        return []

    async def _stream_references(
        self,
        refs: Sequence[Reference],
        on_done: Callable[[int], None] | None,
        on_result: Callable[[CitationResult], None],
    ) -> None:
        """Each result handed to `on_result` in the order of `refs` as soon as it and those before it are judged."""
        links: list[tuple[str, Candidate, str]] = []
        ready: dict[int, CitationResult] = {}
        handed = 0
        todo = iter(enumerate(refs))

        async def worker() -> None:
            # `concurrency` workers take the references in turn: one task per reference (40,000 coroutines
            # waiting on a semaphore) cost ~3 KB each before any was checked.
            nonlocal handed
            for i, ref in todo:
                outcome, seconds = await self.check_one(ref)
                # The result is made at once and the outcome (its evidence bundle, every candidate and
                # assessment: ~100 KB a citation) dropped: 20,000 citations held them all until the end.
                ready[i] = self._result(i, ref, outcome, seconds, links)
                if on_done is not None:
                    on_done(i)
                while handed in ready:
                    on_result(ready.pop(handed))
                    handed += 1
                if len(links) >= SAVE_EVERY:  # the verified links of a long list saved as it goes, not held
                    self._save(links)
                    links.clear()

        http = self._http()
        before = http.network_count() if http is not None else (0, 0)
        try:
            for stage in self.stages:  # stages that batch lookups across a paper's citations (arXiv id_list)
                await stage.prefetch(refs)
            await asyncio.gather(*(worker() for _ in range(max(1, min(self.settings.concurrency, len(refs))))))
        finally:
            for stage in self.stages:  # online stages share an HTTP client bound to this event loop
                await stage.aclose()
        note = http.no_network_note(before) if http is not None else None
        if note is not None and note not in self.notes:
            self.notes.append(note)
        self._save(links)

    def _http(self) -> HttpClient | None:
        """The HTTP client the online stages share (None offline)."""
        return next((s.http for s in self.stages if isinstance(s, HttpStage)), None)

    def _result(
        self,
        i: int,
        ref: Reference,
        outcome: CascadeOutcome,
        seconds: float,
        links: list[tuple[str, Candidate, str]],
    ) -> CitationResult:
        result = CitationResult(
            id=ref.label or str(i + 1),
            reference=ref,
            verdict=outcome.verdict,
            cost=Cost(
                connector_calls=outcome.bundle.connector_calls,
                seconds=round(seconds, 6),
                sources=outcome.bundle.outcomes,
            ),
            comparisons=_comparisons(outcome),
        )
        result.cost.add_agent_calls(outcome.agent_calls)
        # Only the rules' Real verdicts become verified links: an agent's judgement is not stored as fact.
        if self.settings.remember_verified and outcome.verdict.class_ == "Real" and outcome.by_rules:
            self._remember(ref, outcome, links)
        return result

    def _save(self, links: list[tuple[str, Candidate, str]]) -> None:
        """Keep the run's evidence memo and verified links; a store busy with another writer beyond
        `SAVE_WAIT` costs only these (future calls and shortcuts), never the results. Nothing to keep,
        or a store opened read-only, takes no lock at all."""
        if (not links and not self.memo.pending) or self.store.readonly:
            self.memo.pending.clear()
            return
        try:
            with self.store.writing():
                self.memo.save()
                if links:
                    self.store.link_verified_many(links)
        except (StoreBusy, StoreError) as exc:
            self.memo.pending.clear()
            note = f"{exc}: this run's evidence memo and verified links were not saved"
            if note not in self.notes:
                self.notes.append(note)

    def _remember(self, ref: Reference, outcome: CascadeOutcome, links: list[tuple[str, Candidate, str]]) -> None:
        ids = {(e["source"], e["id"]) for e in outcome.verdict.evidence}
        evidence = next((c for c in outcome.bundle.candidates if (c.source, c.id) in ids), None)
        if evidence is not None:
            links.append((fingerprint(ref), evidence, outcome.verdict.code))

    def check_read(
        self,
        read: ReadResult,
        name: str,
        on_done: Callable[[int], None] | None = None,
        on_result: Callable[[CitationResult], None] | None = None,
        *,
        path: Path | None = None,
    ) -> Report:
        """The report of references already read from `name` (`on_done`, `on_result` as in check_references;
        with `on_result` the report's citations are left empty: they were handed over one by one). `path`: the
        file they were read from, for the Parser Agent (default: `name`, when it names the file)."""
        refs, warnings = read.references, list(read.warnings)
        parser_calls: list[list[AgentCall]] = []
        source = path if path is not None else Path(name)
        if self.settings.llm.enabled and source.suffix.lower() in (".pdf", ".txt") and source.is_file():
            from citetracer.extract.agent.parser_agent import repair_with_agent

            refs, more, parser_calls = repair_with_agent(self.settings.llm, source, refs)
            warnings += more
        if on_result is not None and parser_calls:
            delivered = on_result
            calls_of = dict(enumerate(parser_calls))
            position = iter(range(len(refs)))

            def on_result(result: CitationResult) -> None:  # the Parser Agent's calls join their citation
                result.cost.add_agent_calls(calls_of.get(next(position), []))
                delivered(result)

        results = asyncio.run(self.check_references(refs, on_done, on_result))
        for result, calls in zip(results, parser_calls, strict=False):
            result.cost.add_agent_calls(calls)
        notes, self.notes = self.notes, []
        mended = getattr(self.store, "problems", None)  # the store mended itself meanwhile (an index rebuilt)
        if mended:
            notes += mended
            mended.clear()
        first = [self.store_note] if self.store_note is not None else []
        gaps = self._paper_gaps(refs)  # offline: what the store cannot confirm of these citations, and why
        return Report(
            version=__version__,
            input=name,
            citations=results,
            warnings=warnings + notes,
            store_warnings=first + gaps,
            reading=read.reading(),
        )

    def _paper_gaps(self, refs: list[Reference]) -> list[str]:
        if not self.settings.offline or self.store_note is not None:  # an empty or claimless store says it already
            return []
        if self._profile is None:
            self._profile = StoreProfile.of(self.store)
        note = self._profile.paper_note(refs, self.store.knows_venue)
        return [note] if note else []

    def check(
        self,
        source: str | Path | Paper | None = None,
        on_done: Callable[[int], None] | None = None,
        *,
        text: str | None = None,
        ref_pages: PageRange | None = None,
        on_result: Callable[[CitationResult], None] | None = None,
    ) -> Report:
        """The report of a paper already read (`source`: a Paper from `read`), or of whatever `read` reads: a file,
        a paper named by `arXiv:ID`, `doi:10.x/y` or its landing page's URL, or references given as `text`.
        `on_done`, `on_result` as in check_references (with `on_result` the report's citations are left empty).

        Raises FileNotFoundError when `source` names no file (a text of references goes through
        `text=`: a misspelt path is never read as references), InputError when nothing can be read.
        """
        if isinstance(source, Paper):
            if text is not None:
                raise TypeError("give either a paper read (source) or a text of references (text=...)")
            return self.check_read(source.read, source.name, on_done, on_result, path=source.path)
        if source is not None and text is None and not Path(source).exists():
            if not (isinstance(source, str) and looks_like_paper_id(source)):
                hint = " (to check references given as a string, pass text=...)" if "\n" in str(source) else ""
                raise FileNotFoundError(errno.ENOENT, f"no such file{hint}", str(source))
        return self.check(self.read(source, ref_pages, text=text), on_done, on_result=on_result)


def store_note(store: StoreAPI, offline: bool) -> str | None:
    """What an offline check cannot do with this store, in one sentence; None when nothing is amiss.

    A fresh user's `check --offline` runs on an empty store and every citation comes out Potential;
    a store whose sources claim completeness for nothing (store/claims.py: whole venues, identifier
    registries, venue-years; the bundled examples and hand-made records claim none) can confirm
    works but never prove one absent, so fabrications stay Potential too. Either must be said, not left
    to be guessed from a column of P1s. Online, the sources cover what the store lacks.
    """
    if not offline:
        return None
    records = sum(n for kinds in store.record_counts().values() for n in kinds.values())
    where = display_location(store.path)
    if not records:
        return (
            f"checks offline against an empty store ({where}): nothing can be confirmed or disproved; "
            f"run `{SETUP_COMMAND}` (or `citetracer mirror dblp DUMP.xml.gz`, "
            "`citetracer mirror add FILE.jsonl`) first"
        )
    if not any(c.whole_venues or c.identifiers or c.venue_years for c in store.claims().values()):
        return (
            f"the store ({where}, {records:,} records) holds no complete source, so offline no work can be proven "
            f"absent and fabricated titles stay Potential (P1): run `{SETUP_COMMAND}` "
            "(or `citetracer mirror dblp DUMP.xml.gz`), or add records that hold whole venues with "
            "`citetracer mirror add FILE.jsonl --complete-venues`"
        )
    return None


def _comparisons(outcome: CascadeOutcome) -> list[FieldComparison]:
    """Field statuses against the record the verdict rests on (else the best-ranked one)."""
    if not outcome.assessments:
        return []
    cited = {(e.get("source"), e.get("id")) for e in outcome.verdict.evidence}
    best = next(
        (a for a in outcome.assessments if (a.candidate.source, a.candidate.id) in cited), outcome.assessments[0]
    )
    return [*best.fields.values(), *best.reference_missing.values()]


def _agent_review(settings: Settings) -> Review | None:
    """The LLM agents' review of unresolved citations, when an endpoint is configured."""
    if not settings.llm.enabled:
        return None
    from citetracer.judge.agent_review import AgentReviewer
    from citetracer.llm.client import LLMClient

    return AgentReviewer(LLMClient.shared(settings.llm)).review


def _online_stages(settings: Settings, memo: EvidenceMemo, venue_kb: VenueKB | None = None) -> list[Stage]:
    """Online stages (URL Fetch, Scholar Connectors, Web Search), for a checker allowed online.

    Imported here, not at the top, so an offline check never loads the HTTP layer; never
    guarded by `except ImportError`: a broken import must fail loudly, not make every run
    silently offline (httpx is a core dependency, so nothing optional is missing here).
    """
    from citetracer.collect.online import online_stages

    return list(online_stages(settings, memo=memo, venue_kb=venue_kb))


def check(
    source: str | Path | None = None,
    settings: Settings | None = None,
    *,
    text: str | None = None,
    config: Path | str | None = None,
    **flags: Any,
) -> Report:
    """Check every reference of a file (`source`, a path) or of `text` (BibTeX, .bbl, plain references).

    Settings come from `settings` when given, else as the CLI reads them: config file,
    environment, then `flags` named like the CLI's flags (see `Checker`); an unknown flag is a
    TypeError, a missing file a FileNotFoundError. Online sources are asked exactly when the CLI
    asks them: unless `offline=True`, or the config file or `CITETRACER_OFFLINE` says offline.

    >>> report = check("refs.bib", offline=True)     # doctest: +SKIP
    >>> report = check(text="[1] A. Author. A title. Venue, 2020.", offline=True)   # doctest: +SKIP
    >>> report.summary()                              # doctest: +SKIP
    """
    with Checker(settings, config=config, **flags) as checker:
        return checker.check(source, text=text)


def _remembered(count: Callable[[list[str]], int]) -> Callable[[list[str]], int]:
    """`count` asked once per list of words, for one citation's judging: the judge asks how generic a title is of
    every candidate holding it and again for each code that needs it (1,345 questions of 520 titles on HALLMARK
    dev, each a search of the store), and nothing is stored while a citation is judged."""
    answers: dict[tuple[str, ...], int] = {}

    def counted(words: list[str]) -> int:
        key = tuple(words)
        if key not in answers:
            answers[key] = count(words)
        return answers[key]

    return counted
