"""Ingest bibliographic records from JSON lines into the local store.

The layout is that of HALLMARK's world.jsonl: `id`, `title`, `authors` (list of
"Given Family" strings, "others" marking a truncated list), `year`, `venue`,
`venue_full`, `doi`, `arxiv_id`, `url`, `type`, `dblp_key`,
`dblp_author_string` and `variants` (other renderings of the same work).
Bad lines are reported and skipped; nothing else is lost.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citetracer.match.names import parse_person
from citetracer.match.normalize import canonical_arxiv, canonical_doi, parse_year
from citetracer.records import Candidate, Person
from citetracer.store.db import Store, WorkRecord

MAX_LINE_BYTES = 1_000_000


@dataclass
class IngestReport:
    added: int = 0
    errors: list[str] = field(default_factory=list)


def _people(names: Any) -> tuple[list[Person], bool]:
    people: list[Person] = []
    truncated = False
    if not isinstance(names, list):
        return people, truncated
    for name in names:
        if not isinstance(name, str):
            continue
        if name.strip().lower() in ("others", "et al.", "et al"):
            truncated = True
            continue
        person = parse_person(name)
        if person is not None:
            people.append(person)
    return people, truncated


def _candidate_fields(obj: dict[str, Any]) -> dict[str, Any]:
    authors, truncated = _people(obj.get("authors"))
    doi = canonical_doi(obj.get("doi")) if isinstance(obj.get("doi"), str) else None
    arxiv = canonical_arxiv(obj.get("arxiv_id")) if isinstance(obj.get("arxiv_id"), str) else None
    return {
        "title": obj.get("title") if isinstance(obj.get("title"), str) else None,
        "authors": authors,
        "authors_truncated": truncated,
        "venue": obj.get("venue") if isinstance(obj.get("venue"), str) else None,
        "venue_full": obj.get("venue_full") if isinstance(obj.get("venue_full"), str) else None,
        "year": parse_year(obj.get("year")) if isinstance(obj.get("year"), int | str) else None,
        "doi": doi,
        "arxiv_id": arxiv,
    }


def record_from_json(obj: dict[str, Any], source: str) -> WorkRecord:
    if not isinstance(obj.get("title"), str) or not obj["title"].strip():
        raise ValueError("record has no title")
    rec_id = str(obj.get("id") or obj.get("dblp_key") or obj.get("doi") or obj["title"])[:300]
    base = _candidate_fields(obj)
    url = obj.get("url") if isinstance(obj.get("url"), str) else None
    if url is None and base["doi"]:
        url = f"https://doi.org/{base['doi']}"
    variants = []
    for v in obj.get("variants") or []:
        if isinstance(v, dict):
            fields = _candidate_fields(v)
            merged = {k: (fields[k] if fields[k] not in (None, []) else base[k]) for k in base}
            merged["authors_truncated"] = (
                fields["authors_truncated"] if fields["authors"] else base["authors_truncated"]
            )
            variants.append(Candidate(source=source, id=rec_id, url=url, type=obj.get("type"), **merged))
    return WorkRecord(
        source=source,
        id=rec_id,
        url=url,
        type=obj.get("type") if isinstance(obj.get("type"), str) else None,
        pages=str(obj["pages"]) if obj.get("pages") else None,
        volume=str(obj["volume"]) if obj.get("volume") else None,
        issue=str(obj.get("number") or obj.get("issue")) if obj.get("number") or obj.get("issue") else None,
        publisher=obj.get("publisher") if isinstance(obj.get("publisher"), str) else None,
        variants=variants,
        **base,
    )


def iter_records(path: Path, source: str, report: IngestReport) -> Iterator[WorkRecord]:
    with path.open("rb") as fh:
        for n, raw in enumerate(fh, 1):
            if len(raw) > MAX_LINE_BYTES:
                report.errors.append(f"{path}:{n}: line longer than {MAX_LINE_BYTES} bytes; skipped")
                continue
            line = raw.decode("utf-8", errors="replace").strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("not a JSON object")
                yield record_from_json(obj, source)
            except (json.JSONDecodeError, ValueError, TypeError) as exc:
                report.errors.append(f"{path}:{n}: {exc}; skipped")


def add_jsonl(store: Store, path: Path, source: str | None = None, complete: bool = False) -> IngestReport:
    """Upsert every record of a JSONL file; re-adding the same file changes nothing.

    `complete` declares that the file holds every paper of each venue-year it has any of,
    so that absence from those venue-years counts as evidence.
    """
    report = IngestReport()
    name = source or "local"
    report.added = store.upsert(iter_records(path, name, report))
    store.set_source_date(name)
    store.set_source_complete(name, complete)
    return report
