"""Memory stage: candidates from the local store, at near-zero cost.

Looks up, in order: a verified link for this exact citation, the cited DOI,
the cited arXiv id, the title (fuzzy, tolerant to wrong, missing or extra
words, ranked together with the cited surnames and year) and the authors'
surnames within a year of the cited year, so that a citation with a
corrupted or fabricated title still retrieves the real work. Each stored
record yields one candidate per rendering (preprint, proceedings, ...).

The cited DOI and arXiv id also get typed answers on the stage's outcome
(`SourceOutcome.lookups`, collect/lookups.py): "work" when a stored record
carries the identifier; "none" only when a mirror declared complete for it
(store/claims.py: an arXiv snapshot for ids issued before its date, a DOI prefix
for works of years before its date) lacks it; nothing otherwise, because a store
that is not complete for an identifier says nothing by lacking it.
"""

from __future__ import annotations

import hashlib

from citetracer.collect.stage import Stage
from citetracer.evidence import EvidenceBundle
from citetracer.normalize.names import compare_author_lists, family_keys
from citetracer.normalize.text import canonical_arxiv, canonical_doi, title_key, tokens
from citetracer.normalize.venues import is_preprint
from citetracer.records import (
    Candidate,
    IdentifierKind,
    IdentifierLookup,
    Reference,
    SourceOutcome,
    WorkRecord,
    construct,
)
from citetracer.store.api import StoreAPI
from citetracer.store.claims import ARXIV_IDS, doi_claim_kinds, issued_before, registered_before
from citetracer.store.db import venue_key
from citetracer.thresholds import MIN_VENUE_RECORDS


def fingerprint(reference: Reference) -> str:
    """A key for 'this exact citation', from its normalized fields."""
    parts = [
        title_key(reference.title or ""),
        "|".join(family_keys(p)[1] for p in reference.authors),
        str(reference.year or ""),
        " ".join(tokens(reference.venue or "")),
        canonical_doi(reference.doi) or "",
        canonical_arxiv(reference.arxiv_id) or "",
    ]
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()


def candidates_of(record: WorkRecord, found_by: str) -> list[Candidate]:
    """One candidate per rendering of the stored work (records are validated when stored)."""
    key = f"{record.source}:{record.id}"
    base = {name: getattr(record, name) for name in _CANDIDATE_FIELDS}
    out = [construct(Candidate, {**base, "work": key, "found_by": found_by})]
    for variant in record.variants:
        data = {name: getattr(variant, name) for name in _CANDIDATE_FIELDS}
        data.update(work=key, found_by=found_by, id=f"{record.id}#v{len(out)}")
        out.append(construct(Candidate, data))
    return out


_CANDIDATE_FIELDS = tuple(Candidate.model_fields)


#: How the memory stage's outcome (its `detail`) says that a complete arXiv snapshot lacks the cited id.
NO_SUCH_ARXIV_ID = "no such arXiv id"


def arxiv_registry(store: StoreAPI, arxiv: str) -> tuple[str, str] | None:
    """The mirror complete for this arXiv id (declared complete for arXiv ids, and the id issued in a
    month before its snapshot's) and why, or None."""
    for source, date in sorted(store.identifier_registries(ARXIV_IDS).items()):
        if issued_before(arxiv, date):
            return source, f"the {source} mirror holds every arXiv id issued before {date}"
    return None


def doi_registry(store: StoreAPI, doi: str, year: int | None) -> tuple[str, str] | None:
    """The mirror complete for this DOI (declared complete for a prefix of it, and the cited year wholly
    before its snapshot's: a DOI does not carry its registration date) and why, or None."""
    for kind in doi_claim_kinds(doi):
        for source, date in sorted(store.identifier_registries(kind).items()):
            if registered_before(year, date):
                prefix = kind.split(":", 1)[1]
                return source, f"the {source} mirror holds every DOI under {prefix}/ registered before {date}"
    return None


def absent_arxiv_id(store: StoreAPI, arxiv: str) -> str | None:
    """The fact that a cited arXiv id does not exist, in words, from a mirror complete for arXiv ids, or None.

    An arXiv metadata snapshot holds every id issued before its date (store/claims.py), so an id
    of an earlier month that no stored record carries is, by that snapshot, no id at all: what
    arXiv's API answers online with an empty reply. The caller has checked that no record carries
    the id; the typed fact is the stage's `lookups` (see `store_lookup`).
    """
    registry = arxiv_registry(store, arxiv)
    return f"{NO_SUCH_ARXIV_ID} {arxiv}: {registry[1]}" if registry else None


def store_lookup(
    kind: IdentifierKind, value: str, holders: list[WorkRecord], registry: tuple[str, str] | None
) -> IdentifierLookup | None:
    """The store's typed answer about a cited identifier: "work" when a record carries it, "none" when a
    mirror complete for it (`registry`: its source and why) lacks it, else None (a gap says nothing)."""
    complete = registry is not None
    why = registry[1] if registry else "the local store declares no mirror complete for this identifier"
    if holders:
        rec = holders[0]
        return IdentifierLookup(
            kind=kind,
            value=value,
            registry=f"memory:{rec.source}",
            answer="work",
            record=f"{rec.source}:{rec.id}",
            complete=complete,
            why=why,
        )
    if registry is None:
        return None
    return IdentifierLookup(
        kind=kind, value=value, registry=f"memory:{registry[0]}", answer="none", complete=True, why=registry[1]
    )


class MemoryStage(Stage):
    name = "memory"

    def __init__(
        self, store: StoreAPI, title_hits: int = 10, author_hits: int = 10, closed_world: bool = False
    ) -> None:
        self.store = store
        self.closed_world = closed_world
        self.title_hits = title_hits
        self.author_hits = author_hits

    def _settled(self, reference: Reference, found: dict[int, str]) -> bool:
        """True when a record already has the cited title and exactly the cited authors.

        Then neighbours by author and year cannot change the verdict (they only matter when
        the title or the authors disagree), so that query is skipped.
        """
        if not reference.title:
            return False
        key = title_key(reference.title)
        for record in self.store.records(found).values():
            if record.title and title_key(record.title) == key and record.authors:
                cmp = compare_author_lists(reference.authors, record.authors, reference.et_al, record.authors_truncated)
                if cmp.complete and not cmp.hidden:
                    return True
        return False

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        """The Memory stage of the cascade (the store is local, so the lookup runs synchronously)."""
        self.collect_sync(reference, bundle)

    def collect_sync(self, reference: Reference, bundle: EvidenceBundle) -> None:
        """Candidates from the local store (verified link, DOI, arXiv id, title and author searches) and whether the
        store covers the cited venue-year.
        """
        found: dict[int, str] = {}
        link = self.store.verified_link(fingerprint(reference))
        if link:
            found[link[0]] = "verified-link"
        doi = canonical_doi(reference.doi)
        doi_rids = self.store.rids_by_doi(doi) if doi else []
        for rid in doi_rids:
            found.setdefault(rid, "doi")
        arxiv = canonical_arxiv(reference.arxiv_id)
        arxiv_rids = self.store.rids_by_arxiv(arxiv) if arxiv else []
        for rid in arxiv_rids:
            found.setdefault(rid, "arxiv")
        absent_id = absent_arxiv_id(self.store, arxiv) if arxiv and not arxiv_rids else None
        surnames = [k for p in reference.authors for k in family_keys(p) if k]
        if reference.title:
            for rid in self.store.index.search(reference.title, surnames, reference.year, self.title_hits):
                found.setdefault(rid, "title")
        if surnames and not self._settled(reference, found):
            for rid in self.store.index.by_authors(surnames, reference.year, self.author_hits, reference.title):
                found.setdefault(rid, "author-year")
        records = self.store.records(found)
        n = 0
        for rid, how in found.items():
            record = records.get(rid)
            if record is None:
                continue
            for cand in candidates_of(record, how):
                n += bundle.add(cand)
        lookups = []
        if doi:
            holders = [records[r] for r in doi_rids if r in records]
            lookups.append(store_lookup("doi", doi, holders, doi_registry(self.store, doi, reference.year)))
        if arxiv:
            holders = [records[r] for r in arxiv_rids if r in records]
            lookups.append(store_lookup("arxiv", arxiv, holders, arxiv_registry(self.store, arxiv)))
        bundle.outcomes.append(
            SourceOutcome(
                source="memory",
                status="answered",
                candidates=n,
                detail=absent_id,
                lookups=[lk for lk in lookups if lk is not None],
            )
        )
        if self.closed_world:
            bundle.covered = bundle.closed_world = True
            bundle.coverage_notes.append("the local store is declared complete (closed world)")
            return
        key = venue_key(reference.venue)
        # Preprint servers are never covered: no mirror holds all of arXiv or bioRxiv.
        if not key:
            bundle.coverage_gaps.append("no venue was read from the reference")
        elif is_preprint(reference.venue):
            bundle.coverage_gaps.append(f"no mirror holds all of '{reference.venue}'")
        else:
            count, note = self.store.venue_year_coverage(key, reference.year)
            if count >= MIN_VENUE_RECORDS:
                bundle.covered = bundle.store_covered = True
                bundle.coverage_notes.append(note)
            else:
                bundle.coverage_gaps.append(f"'{reference.venue}' {reference.year or ''}: {note}".replace(" :", ":"))
