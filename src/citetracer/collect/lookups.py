"""What the registries answered about the identifiers a citation carries: typed facts, not text.

A cited DOI, arXiv id, PMID or URL is looked up in registries (doi.org, Crossref,
DataCite, arXiv, the indexes, the local store's mirrors). Each lookup leaves an
`IdentifierLookup` on its source's outcome (records.py): the registry holds a work
with it, answered that there is no such identifier, or failed to answer; and
whether the registry is complete for that identifier, so that its "none" is a fact
about the identifier rather than a gap in the registry. Online lookups get theirs
from `answered` (collect/consult.py, one place for every source), the store's from
the memory stage (collect/memory.py, from the mirrors' own claims).

The judge reads them through `identifier_answers` and `proven_absent`, never through
an outcome's `detail` (which is for people and may change wording at any time).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import get_args

from citetracer.data import lines
from citetracer.evidence import EvidenceBundle
from citetracer.normalize.text import arxiv_from_doi, canonical_arxiv, canonical_doi, doi_prefix
from citetracer.records import Candidate, IdentifierKind, IdentifierLookup, Reference
from citetracer.sources import url_routes

#: The DOI resolver (complete for every DOI) and the registration agencies whose "no record" it needs
#: beside its own before a DOI counts as unregistered (one source's "not found" is no proof).
RESOLVER = "doi"
DOI_AGENCIES = frozenset({"crossref", "datacite"})
#: The registry prefix of answers from the local store (`memory:<source>`).
STORE = "memory:"
_AGENCY_NAMES = {"crossref": "Crossref", "datacite": "DataCite"}
KINDS: tuple[IdentifierKind, ...] = get_args(IdentifierKind)
#: Cited URLs of these sources (sources.py url_patterns) name an identifier of this kind; any other
#: URL is looked up, and recorded, as the URL itself.
ROUTED_KINDS: dict[str, IdentifierKind] = {"doi": "doi", "arxiv": "arxiv", "pubmed": "pmid"}


@dataclass(frozen=True)
class Registry:
    """One line of data/identifier_registries.tsv: what a registry is complete for."""

    name: str
    kind: str
    #: "*" every identifier of the kind, "agency:NAME" the DOIs registered with NAME, "-" none.
    scope: str
    why: str


@cache
def _registries() -> dict[tuple[str, str], Registry]:
    out = {}
    for line in lines("identifier_registries.tsv"):
        name, kind, scope, why = line.split("\t")
        out[(name, kind)] = Registry(name, kind, scope, why)
    return out


@cache
def _agencies() -> dict[str, tuple[str, str]]:
    """DOI registrant prefix -> (registration agency, registrant name), from data/doi_registrants.tsv."""
    out: dict[str, tuple[str, str]] = {}
    for line in lines("doi_registrants.tsv"):
        parts = line.split("\t")
        if len(parts) >= 3:
            out.setdefault(parts[0], (parts[2], parts[1]))
    return out


def doi_agency(doi: str) -> str | None:
    """The registration agency data/doi_registrants.tsv names for the DOI's prefix (crossref, datacite,
    none for identifiers never registered), or None when the table does not say."""
    agency = _agencies().get(doi_prefix(doi), ("?", ""))[0]
    return None if agency == "?" else agency


def canonical_identifier(kind: str, value: str | None) -> str | None:
    """The form lookups are recorded under: canonical DOI or arXiv id, a PMID's digits, a URL as cited
    (None for what is no identifier of that kind, or an unknown kind)."""
    if not value or kind not in KINDS:
        return None
    if kind == "doi":
        return canonical_doi(value)
    if kind == "arxiv":
        return canonical_arxiv(value)
    if kind == "pmid":
        digits = value.strip()
        return digits if digits.isdigit() else None
    return value.strip() or None


def coverage(registry: str, kind: IdentifierKind, value: str) -> tuple[bool, str]:
    """Whether `registry` holds every identifier of `kind` that `value` could be, and why (one clause)."""
    entry = _registries().get((registry, kind))
    if entry is None:
        return False, f"{registry} declares no {kind} identifiers complete"
    if kind == "doi" and doi_agency(value) == "none":
        # Identifiers publishers print as DOIs but never register (ACM's 10.5555): every registry lacks
        # them, for real works too, so no registry's "no such DOI" tells a real one from a made-up one.
        registrant = _agencies()[doi_prefix(value)][1]
        return False, f"{doi_prefix(value)} ({registrant}) identifiers look like DOIs but are never registered"
    if entry.scope == "*":
        return True, entry.why
    if not entry.scope.startswith("agency:"):
        return False, entry.why
    agency = entry.scope.removeprefix("agency:")
    prefix = doi_prefix(value)
    holder, registrant = _agencies().get(prefix, ("?", ""))
    if holder == agency:
        return True, f"{entry.why}, and {prefix} ({registrant}) registers its DOIs there"
    if holder in _AGENCY_NAMES:
        return False, f"{entry.why}, but {prefix} ({registrant}) registers its DOIs with {_AGENCY_NAMES[holder]}"
    return False, f"{entry.why}, but {prefix} is not known to register its DOIs there"


def answered(registry: str, kind: IdentifierKind, value: str, found: Sequence[Candidate] | None) -> IdentifierLookup:
    """The typed answer of one lookup: `found` None when the registry failed, [] for its "no such
    identifier", else the records it holds for it (the first one is named)."""
    complete, why = coverage(registry, kind, value)
    if found is None:
        return IdentifierLookup(kind=kind, value=value, registry=registry, answer="failed", complete=complete, why=why)
    if not found:
        return IdentifierLookup(kind=kind, value=value, registry=registry, answer="none", complete=complete, why=why)
    first = found[0]
    return IdentifierLookup(
        kind=kind,
        value=value,
        registry=registry,
        answer="work",
        record=first.work or f"{first.source}:{first.id}",
        complete=complete,
        why=why,
    )


def _same_identifier(kind: str, value: str) -> set[tuple[str, str]]:
    """The identifier and its other spelling: an arXiv id is also the arXiv DOI 10.48550/arxiv.<id>."""
    out = {(kind, value)}
    if kind == "arxiv":
        out.add(("doi", f"10.48550/arxiv.{value}"))
    elif kind == "doi" and arxiv_from_doi(value):
        out.add(("arxiv", arxiv_from_doi(value) or ""))
    return out


def identifier_answers(bundle: EvidenceBundle, kind: str, value: str) -> list[IdentifierLookup]:
    """Every registry's answer about this identifier (any spelling: the value is canonicalized, and an
    arXiv id and its arXiv DOI are one identifier), in the order they were given."""
    canonical = canonical_identifier(kind, value)
    if canonical is None:
        return []
    asked = _same_identifier(kind, canonical)
    return [lk for o in bundle.outcomes for lk in o.lookups if (lk.kind, lk.value) in asked]


def _held(candidates: Iterable[Candidate], asked: set[tuple[str, str]]) -> bool:
    """Whether a record found by any means (a title search too) carries the identifier."""
    for c in candidates:
        if ("doi", canonical_doi(c.doi) or "") in asked or ("arxiv", canonical_arxiv(c.arxiv_id) or "") in asked:
            return True
    return False


def proven_absent(bundle: EvidenceBundle, kind: str, value: str) -> IdentifierLookup | None:
    """The answer that proves this identifier does not exist, or None (then its absence is a doubt).

    Proof is a "none" from a registry complete for the identifier, while no registry answered
    "work" and no record in the bundle carries it. For a DOI online, doi.org's "none" counts only
    beside a registration agency's (Crossref's or DataCite's) "none": the resolver's word alone, or
    with the agency failed, stays a doubt; an agency's "none" alone is never proof. A local
    mirror's "none" (memory:<source>) counts only where its claim covers the identifier, which the
    memory stage has checked before recording it.
    """
    answers = identifier_answers(bundle, kind, value)
    canonical = canonical_identifier(kind, value)
    if not answers or canonical is None:
        return None
    if any(a.answer == "work" for a in answers) or _held(bundle.candidates, _same_identifier(kind, canonical)):
        return None
    for a in answers:
        if a.answer != "none" or not a.complete:
            continue
        if a.kind == "doi" and a.registry in DOI_AGENCIES:
            continue
        if a.kind == "doi" and a.registry == RESOLVER:
            agency = any(
                b.kind == "doi" and b.value == a.value and b.registry in DOI_AGENCIES and b.answer == "none"
                for b in answers
            )
            if not agency:
                continue
        return a
    return None


def cited_identifiers(reference: Reference) -> list[tuple[IdentifierKind, str]]:
    """The identifiers a citation carries, canonical, as lookups record them: its DOI, its arXiv id, and
    its URL (a doi.org or arxiv.org URL as that DOI or arXiv id, a PubMed URL as its PMID)."""
    out: list[tuple[IdentifierKind, str]] = []

    def add(kind: IdentifierKind, value: str | None) -> None:
        canonical = canonical_identifier(kind, value)
        if canonical and (kind, canonical) not in out:
            out.append((kind, canonical))

    add("doi", reference.doi)
    add("arxiv", reference.arxiv_id)
    url = (reference.url or "").strip()
    if url:
        for source, pattern in url_routes():
            m = pattern.search(url)
            if not m:
                continue
            if source in ROUTED_KINDS:
                add(ROUTED_KINDS[source], m.group(1))
            else:
                add("url", url)
            break
        else:
            add("url", url)
    return out
