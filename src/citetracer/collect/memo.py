"""The evidence memo: what the online sources said about a citation, replayed instead of asking again.

Why: the cascade stops only when evidence supports Real, and only Real citations
become verified links in the store (collect/memory.py). Every other citation
(fabricated, unverifiable, ambiguous) went online again on every re-check,
asking the same services the same questions. The memo remembers each source's
*answer* to each question, in the store, with the time it was given, and the
online stages replay a fresh answer instead of calling the source.

What is remembered, per (source, subject):
- the subject is what was asked: `ref:<fingerprint>` for a search about a citation
  (`citation_subject`: every bibliographic field the services could be asked with,
  lightly normalized), or the identifier itself for a lookup (`doi:10.1000/x`,
  `arxiv:2101.00001`, `url:https://...`), which any citation carrying it shares;
- an answer: the candidate records the source returned (possibly none, which is
  "not found"), exactly as returned, so a replay gives the judgers the bundle the
  call gave them and the verdict cannot drift;
- never a failure as an answer: a timeout, 429, 5xx or malformed reply is written
  only as a failure row (for diagnosis) that is never replayed, so the source is
  asked again next time and a failure still only lowers certainty (P1).

Freshness is per source and per kind of answer (`online.memo_days` for answers with
records, `online.memo_empty_days` for "not found", which goes stale sooner because
new works get indexed), decided at read time. A replayed outcome says so in the
report: its detail names the memo and the date of the answer, and `fetched_at`
carries the timestamp.

Offline (`--offline`): no network, ever. The memo is local evidence, so offline runs
replay fresh memo answers (labelled with their date) and report every other source
as skipped; an expired answer is not used offline either, because "not found a
month ago" is not evidence. Failures and sources without a fresh answer never
reach the network in that mode (collect/consult.py is the one place that calls it).

Records returned by trusted services (configured base URLs, not pages found in
papers) are also written to the store as ordinary records when their key is new,
whatever the verdict of the citation that brought them: see `records_to_keep`.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
import unicodedata
from collections.abc import Iterable

from citetracer.config import OnlineSettings
from citetracer.evidence import MemoAnswer
from citetracer.normalize.text import canonical_arxiv, canonical_doi
from citetracer.records import Candidate, Reference, WorkRecord
from citetracer.store.api import StoreAPI
from citetracer.store.db import StoreError
from citetracer.store.lock import StoreBusy
from citetracer.store.memo import MemoEntry

DAY = 86400.0
#: Sources whose candidates never become ordinary store records: pages found in papers or in
#: web results are untrusted (any site can publish citation_* tags for a work that does not exist).
UNTRUSTED_SOURCES = frozenset({"web"})


def _norm(text: str | None) -> str:
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


def citation_subject(reference: Reference) -> str:
    """The memo subject of a search about this citation: `ref:` + a hash of its bibliographic fields.

    Every field a service could be asked with goes in (title, authors, year, venue,
    type, identifiers, pages, volume, issue, publisher), after case, whitespace and
    Unicode-form folding only: the same citation re-extracted (other line breaks,
    other capitalization) finds its memo, while any difference that could change
    what a service answers makes another subject. The raw string, label and page
    position are left out: they are never sent.
    """
    parts = [
        _norm(reference.title),
        ";".join(f"{_norm(p.family)},{_norm(p.given)}" for p in reference.authors),
        str(reference.year or ""),
        _norm(reference.venue),
        _norm(reference.type),
        canonical_doi(reference.doi) or _norm(reference.doi),
        canonical_arxiv(reference.arxiv_id) or _norm(reference.arxiv_id),
        (reference.url or "").strip(),
        _norm(reference.pages),
        _norm(reference.volume),
        _norm(reference.issue),
        _norm(reference.publisher),
    ]
    return "ref:" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def records_to_keep(candidates: Iterable[Candidate]) -> list[WorkRecord]:
    """The candidates worth keeping as ordinary store records: every one from a trusted service.

    Kept even when the citation that brought them was judged Hallucinated or Potential.
    A candidate is a record a bibliographic service holds, not a claim of the paper being
    checked: the real work behind a near-miss fabrication (H2), the correct authors of
    a work cited with substituted ones (H3), the published version of a preprint. Once
    stored, the Memory stage finds them at zero cost for any later citation, and the
    correct citation of that work is settled without going online. What is kept is
    only what the service said (never the citation's fields), so the store cannot
    learn a fabrication; pages found in papers or web results are left out, because
    their metadata is whatever their author wrote. Stored records do not make a venue
    "covered" (only complete sources do, see Store.venue_year_count), so extra records
    never turn an absence into evidence. The cost is store growth (about ten search
    hits per question), bounded by the questions actually asked.
    """
    out: dict[str, WorkRecord] = {}
    for c in candidates:
        if c.source in UNTRUSTED_SOURCES or c.source.startswith("memory") or not c.title:
            continue
        out.setdefault(f"{c.source}:{c.id}", WorkRecord(**c.model_dump(exclude={"work", "found_by"})))
    return list(out.values())


class EvidenceMemo:
    """The memo of one checker: fresh answers from the store, new answers kept until `save()`.

    `network` is False for offline runs: then consult() replays and never calls.
    New entries are kept in memory and visible at once (a DOI cited twice in one run is
    asked once), and written to the store in one transaction by `save()` at the end
    of a run, like the verified links.
    """

    def __init__(self, store: StoreAPI, settings: OnlineSettings, network: bool = True) -> None:
        self.store = store
        self.settings = settings
        self.network = network
        self.pending: dict[tuple[str, str], MemoEntry] = {}

    def _days(self, source: str, found: bool) -> float:
        table = self.settings.memo_days if found else self.settings.memo_empty_days
        return float(table.get(source, table.get("*", 0.0)))

    def fresh(self, source: str, subject: str, now: float | None = None) -> MemoEntry | None:
        """The source's answer to this subject while it is fresh, else None."""
        if not self.settings.memo:
            return None
        entry = self.pending.get((source, subject)) or self.store.memo.get(source, subject)
        if entry is None or entry.status != "answered":
            return None
        age = (now if now is not None else time.time()) - entry.fetched_at
        return entry if 0 <= age < DAY * self._days(source, bool(entry.candidates)) else None

    def answered(self, source: str, subject: str, candidates: list[Candidate], detail: str | None = None) -> None:
        """Keep a source's answer (possibly no candidates: 'not found') to replay while fresh."""
        if self.settings.memo:
            self.pending[(source, subject)] = MemoEntry(source, subject, "answered", time.time(), candidates, detail)

    def failed(self, source: str, subject: str, detail: str) -> None:
        """Note a failure for diagnosis; it is never replayed, so the source is asked again next time."""
        if self.settings.memo and (source, subject) not in self.pending:
            self.pending[(source, subject)] = MemoEntry(source, subject, "failed", time.time(), [], detail)

    def save(self) -> int:
        """Write the new entries and the records they brought; forget rows stale for every source.

        A store that cannot be written now (locked by another process past the timeout, disk
        full) loses only these entries, i.e. future calls; never the run's results.
        """
        entries = list(self.pending.values())
        self.pending.clear()
        if not entries:
            return 0
        try:
            with self.store.writing():
                return self._write(entries)
        except (sqlite3.OperationalError, StoreBusy, StoreError):
            return 0

    def _write(self, entries: list[MemoEntry]) -> int:
        records = [
            r
            for r in records_to_keep(c for e in entries for c in e.candidates)
            if self.store.rid_of_key(f"{r.source}:{r.id}") is None
        ]
        if records:
            self.store.upsert(records)
        self.store.memo.put_many(entries)
        longest = max([0.0, *self.settings.memo_days.values(), *self.settings.memo_empty_days.values()])
        self.store.memo.prune(time.time() - DAY * max(longest, 1.0))
        return len(entries)


def memo_note(entry: MemoAnswer) -> str:
    """What the report says about a replayed answer."""
    return f"answer of {entry.fetched_iso} replayed from the store's evidence memo (not asked again)"
