"""The fake web's record corpus: world.jsonl-style records, who indexes which, and search.

Coverage follows the real services: Crossref holds the DOIs it registered
(not arXiv's 10.48550, which DataCite holds), doi.org resolves every DOI,
arXiv holds records with an arXiv id, DBLP the records with a DBLP key (and
their other versions, as separate entries like DBLP's CoRR copies), Europe PMC
bioRxiv preprints and biomedical journals, PubMed the biomedical journals,
OpenReview records whose URL is on openreview.net, ACL Anthology the records
with an ACL DOI, and OpenAlex and Semantic Scholar everything. A record may
name its services explicitly with a `services` list: one work then takes one
record per service that renders it differently (OpenAlex's arXiv version beside
DBLP's proceedings record), as the real services disagree.

Optional fields follow what a real service holds beyond the common ones:
`venue_type` (OpenAlex's source type: journal, conference, repository, book
series, ebook platform), `journal` (Semantic Scholar's `journal.name`, which
differs from its `venue`: "ArXiv" for a NeurIPS paper it knows from arXiv),
`publication_types` (Semantic Scholar's list), `published_print` and
`published_online` (Crossref's dates: [year] or [year, month, day]; `issued` is
the earlier), `authors_truncated` (OpenAlex's `is_authors_truncated`) and
`short_venue` (Crossref's `short-container-title`).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STOP = frozenset("a an and the of for in on to with by at from is are as its via".split())
BIOMED = re.compile(
    r"biorxiv|medrxiv|medicine|medical|clinical|health|biolog|genom|genet|cancer|cardio|f1000|wellcome|"
    r"plos|lancet|nature|cell|neuro|pharma|immun|epidem",
    re.I,
)
SERVICES = (
    "crossref",
    "doi",
    "datacite",
    "arxiv",
    "dblp",
    "openalex",
    "semanticscholar",
    "europepmc",
    "pubmed",
    "openreview",
    "acl",
    "pages",
)


#: The publication details a record may give, each its own version's (see Record).
DETAILS = ("pages", "volume", "issue", "publisher", "location", "crossref", "series_volume", "proceedings_title")


def words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP]


def digest(text: str, n: int = 10) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:n]


@dataclass
class Record:
    """One rendering of a work as the fake services serve it."""

    rid: str
    title: str
    authors: list[str]
    year: int | None
    venue: str | None
    venue_full: str | None
    doi: str | None
    arxiv_id: str | None
    url: str | None
    type: str | None
    dblp_key: str | None
    pmid: str | None
    services: set[str]
    #: Publication details, served in each service's own fields (Crossref `page`, OpenAlex `biblio`, ...)
    #: when the records file gives them: a page range or article number, volume, issue (DBLP `number`),
    #: the publisher as the services name it, the city the conference was held in (Crossref `event.location`).
    pages: str | None = None
    volume: str | None = None
    issue: str | None = None
    publisher: str | None = None
    location: str | None = None
    #: DBLP: the key of the proceedings volume the paper is in (`<crossref>`), whose own record
    #: (`/rec/{key}.xml`) has the proceedings title (`venue_full`, with its city), publisher and series volume.
    crossref: str | None = None
    series_volume: str | None = None
    #: DBLP's title of that volume, with the city and dates ("..., CVPR 2009, Miami, Florida, USA, June
    #: 20-25, 2009"); the other services name the venue as `venue_full` does.
    proceedings_title: str | None = None
    venue_type: str | None = None
    journal: str | None = None
    publication_types: list[str] | None = None
    published_print: list[int] | None = None
    published_online: list[int] | None = None
    authors_truncated: bool = False
    short_venue: str | None = None

    def field(self, name: str) -> Any:
        return getattr(self, name)


def _services(obj: dict[str, Any], variant: bool) -> set[str]:
    if obj.get("services"):
        return set(obj["services"])
    doi = (obj.get("doi") or "").lower()
    venue = f"{obj.get('venue') or ''} {obj.get('venue_full') or ''}"
    out = {"openalex", "pages"}
    if not variant:
        out.add("semanticscholar")
    if doi:
        out.add("doi")
        out.add("datacite" if doi.startswith("10.48550/") else "crossref")
        if doi.startswith("10.18653/v1/"):
            out.add("acl")
    if obj.get("arxiv_id"):
        out.add("arxiv")
    if obj.get("dblp_key") or variant:
        out.add("dblp")
    if BIOMED.search(venue):
        out.add("europepmc")
        if "rxiv" not in venue.lower():
            out.add("pubmed")
    if "openreview.net" in (obj.get("url") or ""):
        out.add("openreview")
    return out


def records_of(obj: dict[str, Any]) -> list[Record]:
    base_id = str(obj.get("id") or digest(obj["title"]))
    out = [_record(obj, base_id, variant=False)]
    for i, v in enumerate(obj.get("variants") or [], 1):
        merged = {**obj, **{k: val for k, val in v.items() if val not in (None, [])}, "variants": None}
        if "doi" not in v:
            merged["doi"] = None
        for detail in DETAILS:  # another version has its own pages, volume and publisher, or none known
            merged[detail] = v.get(detail)
        merged["dblp_key"] = None
        out.append(_record(merged, f"{base_id}v{i}", variant=True))
    return out


def _date(value: Any) -> list[int] | None:
    """A Crossref date's parts from a year or a [year, month, day] list."""
    if isinstance(value, int):
        return [value]
    if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
        return list(value)
    return None


def _record(obj: dict[str, Any], rid: str, variant: bool) -> Record:
    year = obj.get("year")
    types = obj.get("publication_types")
    return Record(
        rid=rid,
        title=str(obj["title"]),
        authors=[a for a in obj.get("authors") or [] if isinstance(a, str)],
        year=int(year) if isinstance(year, int | str) and str(year).isdigit() else None,
        venue=obj.get("venue"),
        venue_full=obj.get("venue_full"),
        doi=(obj.get("doi") or "").lower() or None,
        arxiv_id=obj.get("arxiv_id"),
        url=obj.get("url"),
        type=obj.get("type"),
        dblp_key=obj.get("dblp_key"),
        pmid=str(obj["pmid"]) if obj.get("pmid") else str(int(digest(rid, 7), 16) % 40_000_000),
        services=_services(obj, variant),
        pages=_text(obj.get("pages")),
        volume=_text(obj.get("volume")),
        issue=_text(obj.get("issue")),
        publisher=_text(obj.get("publisher")),
        location=_text(obj.get("location")),
        crossref=None if variant else _text(obj.get("crossref")),
        series_volume=_text(obj.get("series_volume")),
        proceedings_title=_text(obj.get("proceedings_title")),
        venue_type=obj.get("venue_type"),
        journal=obj.get("journal"),
        publication_types=[str(t) for t in types] if isinstance(types, list) else None,
        published_print=_date(obj.get("published_print")),
        published_online=_date(obj.get("published_online")),
        authors_truncated=obj.get("authors_truncated") is True,
        short_venue=obj.get("short_venue"),
    )


def _text(value: Any) -> str | None:
    """A field of the records file as the services serve it: a non-empty string (numbers written as text)."""
    if isinstance(value, int | str) and not isinstance(value, bool) and str(value).strip():
        return str(value).strip()
    return None


@dataclass
class Corpus:
    records: list[Record] = field(default_factory=list)
    by_doi: dict[str, list[Record]] = field(default_factory=lambda: defaultdict(list))
    by_arxiv: dict[str, list[Record]] = field(default_factory=lambda: defaultdict(list))
    by_key: dict[str, Record] = field(default_factory=dict)
    #: DBLP proceedings keys: the papers of each volume (the first one's details make the volume's record).
    by_crossref: dict[str, list[Record]] = field(default_factory=lambda: defaultdict(list))
    by_rid: dict[str, Record] = field(default_factory=dict)
    by_pmid: dict[str, Record] = field(default_factory=dict)
    index: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    all_words: list[set[str]] = field(default_factory=list)
    _venue_cache: dict[str, tuple[int, list[tuple[str, set[str]]]]] = field(default_factory=dict)

    @classmethod
    def from_objects(cls, objects: Iterable[dict[str, Any]]) -> Corpus:
        corpus = cls()
        for obj in objects:
            for rec in records_of(obj):
                corpus.add(rec)
        return corpus

    @classmethod
    def from_jsonl(cls, path: Path) -> Corpus:
        with path.open(encoding="utf-8") as fh:
            return cls.from_objects(json.loads(line) for line in fh if line.strip())

    def add(self, rec: Record) -> None:
        n = len(self.records)
        self.records.append(rec)
        if rec.doi:
            self.by_doi[rec.doi].append(rec)
        if rec.arxiv_id:
            self.by_arxiv[rec.arxiv_id].append(rec)
        if rec.dblp_key:
            self.by_key[rec.dblp_key] = rec
        if rec.crossref:
            self.by_crossref[rec.crossref].append(rec)
        self.by_rid[rec.rid] = rec
        if rec.pmid:
            self.by_pmid[rec.pmid] = rec
        title_words = set(words(rec.title))
        self.all_words.append(title_words | set(words(" ".join(rec.authors))) | set(words(rec.venue or "")))
        for w in title_words:
            self.index[w].add(n)

    def venues(self, query: str, rows: int = 25, service: str = "openalex") -> list[str]:
        """Venue names of the records `service` holds with every word of `query` (OpenAlex's /sources?search=
        ANDs the words over display names, alternate and abbreviated titles; DBLP's /search/venue/api over
        its venues' names, acronyms and proceedings titles)."""
        want = [w for w in words(query) if w not in ("of", "the", "on", "and", "in", "for")]
        if not want:
            return []
        cache = self._venue_cache.get(service)
        if cache is None or cache[0] != len(self.records):  # the distinct names with their words, once per corpus
            names: dict[str, set[str]] = {}
            for rec in self.records:
                if service not in rec.services:
                    continue
                extra = (rec.proceedings_title,) if service == "dblp" else ()
                for name in (rec.venue, rec.venue_full, *extra):
                    if name and name not in names:
                        names[name] = set(words(name))
            cache = self._venue_cache[service] = (len(self.records), sorted(names.items()))
        return [name for name, held in cache[1] if all(w in held for w in want)][:rows]

    def doi(self, doi: str, service: str) -> Record | None:
        return next((r for r in self.by_doi.get(doi.lower(), []) if service in r.services), None)

    def fielded(self, query: str, service: str) -> list[tuple[float, Record]] | None:
        """DBLP's field prefixes (`author:vaswani year:2017 venue:nips`): the records every prefixed term
        holds (an author name holding the word, the year, a venue word), with any plain words among the
        title, author and venue words; None when the query has no prefixed term."""
        terms = query.split()
        prefixed = [t.split(":", 1) for t in terms if re.match(r"^(author|year|venue):\S", t)]
        if not prefixed:
            return None
        plain = words(" ".join(t for t in terms if not re.match(r"^(author|year|venue):", t)))
        out = []
        for n, rec in enumerate(self.records):
            if service not in rec.services or not all(w in self.all_words[n] for w in plain):
                continue
            ok = True
            for field_name, value in prefixed:
                value = value.rstrip(":").lower()
                if field_name == "author":
                    ok = any(value in words(a) for a in rec.authors)
                elif field_name == "year":
                    ok = str(rec.year) == value
                else:
                    ok = value in words(rec.venue or "")
                if not ok:
                    break
            if ok:
                out.append((1.0, rec))
        out.sort(key=lambda x: x[1].rid)
        return out

    def arxiv(self, ident: str, service: str) -> Record | None:
        """The record `service` holds for an arXiv id (several services may hold different renderings)."""
        return next((r for r in self.by_arxiv.get(ident, []) if service in r.services), None)

    def search(self, query: str, service: str, rows: int = 10, all_words: bool = False) -> list[tuple[float, Record]]:
        """Title search ranked by idf-weighted word overlap; `all_words` = every word must occur (DBLP)."""
        if all_words:
            fielded = self.fielded(query, service)
            if fielded is not None:
                return fielded[:rows]
        q = list(dict.fromkeys(words(query)))
        if not q:
            return []
        total = len(self.records) or 1
        scores: dict[int, float] = defaultdict(float)
        weight = {w: math.log(1 + total / (1 + len(self.index.get(w, ())))) for w in q}
        for w in q:
            for n in self.index.get(w, ()):
                scores[n] += weight[w]
        need = sum(weight.values())
        out = []
        for n, s in scores.items():
            rec = self.records[n]
            if service not in rec.services:
                continue
            if all_words:
                if not all(w in self.all_words[n] for w in q):
                    continue
            elif s < 0.5 * need:
                continue
            out.append((s / need, rec))
        # ties go to the shorter title, as the services' relevance (BM25's length norm) ranks them: the
        # work titled just 'Deep learning' before the hundred longer titles holding both words
        out.sort(key=lambda x: (-x[0], len(words(x[1].title)), x[1].rid))
        return out[:rows]

    def page(
        self, query: str, service: str, start: int, rows: int, all_words: bool = False
    ) -> tuple[int, list[tuple[float, Record]]]:
        """One page of a search: (total hits, hits start..start+rows), as the services paginate."""
        hits = self.search(query, service, 1000, all_words)
        return len(hits), hits[max(0, start) : max(0, start) + rows]
