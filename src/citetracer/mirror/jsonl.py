"""Ingest bibliographic records from JSON lines into the local store.

The layout is that of HALLMARK's world.jsonl: `id`, `title`, `authors` (list of
"Given Family" strings, "others" marking a truncated list), `year`, `venue`,
`venue_full`, `doi`, `arxiv_id`, `url`, `type`, `dblp_key`,
`dblp_author_string` and `variants` (other renderings of the same work).
Bad lines are reported and skipped; nothing else is lost.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citetracer.normalize.names import parse_person
from citetracer.normalize.text import canonical_arxiv, canonical_doi, parse_year
from citetracer.records import Candidate, Person, WorkRecord
from citetracer.store.api import BatchMeta, StoreAPI

MAX_LINE_BYTES = 1_000_000


@dataclass
class IngestReport:
    added: int = 0
    errors: list[str] = field(default_factory=list)
    #: Bytes and lines of the file read so far (see iter_records).
    offset: int = 0
    line: int = 0
    #: Where an interrupted ingest of the same file was taken up (records it had committed), if it was.
    resumed_from: int = 0


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


#: The first bytes of the compressed files people hand `mirror add` (it reads plain JSON lines).
COMPRESSED = {b"\x1f\x8b": "gzip", b"\xfd7zXZ\x00": "xz", b"BZh": "bzip2", b"(\xb5/\xfd": "zstd"}


def compressed(path: Path) -> str | None:
    """The compression a file is in ("gzip", "xz", ...), by its first bytes; None for plain text."""
    with path.open("rb") as fh:
        head = fh.read(6)
    return next((name for magic, name in COMPRESSED.items() if head.startswith(magic)), None)


def _lines(fh: Any, report: IngestReport) -> Iterator[bytes | None]:
    """The file's lines from where it stands, each counted in `report.offset`; None for a line longer than
    MAX_LINE_BYTES, which is read past in pieces, never held whole (iterating the file held it: a 3 GB
    line without a newline took 6.6 GB)."""
    while True:
        raw = fh.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        report.offset += len(raw)
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while rest := fh.readline(1 << 20):
                report.offset += len(rest)
                if rest.endswith(b"\n"):
                    break
            yield None
            continue
        yield raw


def iter_records(path: Path, source: str, report: IngestReport, start: int = 0, line: int = 0) -> Iterator[WorkRecord]:
    """The file's records from byte `start` (line number `line` there); `report.offset` / `report.line`
    follow what has been read, so a batch written after a record knows where to resume."""
    with path.open("rb") as fh:
        fh.seek(start)
        report.offset, report.line = start, line
        for n, raw in enumerate(_lines(fh, report), line + 1):
            report.line = n
            if raw is None or len(raw) > MAX_LINE_BYTES:
                report.errors.append(f"{path}:{n}: line longer than {MAX_LINE_BYTES} bytes; skipped")
                continue
            text = raw.decode("utf-8", errors="replace").strip()
            if not text:
                continue
            try:
                obj = json.loads(text)
                if not isinstance(obj, dict):
                    raise ValueError("not a JSON object")
                yield record_from_json(obj, source)
            except RecursionError:  # JSON nested deeper than Python's stack: no record is
                report.errors.append(f"{path}:{n}: JSON nested too deep; skipped")
            except (json.JSONDecodeError, ValueError, TypeError) as exc:
                report.errors.append(f"{path}:{n}: {exc}; skipped")


def progress_key(source: str) -> str:
    return f"ingest:{source}"


def add_jsonl(store: StoreAPI, path: Path, source: str | None = None, complete: bool = False) -> IngestReport:
    """Upsert every record of a JSONL file; re-adding the same file changes nothing.

    `complete` declares that the file holds every paper of each venue-year it has any of,
    so that absence from those venue-years counts as evidence.

    Progress is kept in the store's meta (`ingest:<source>`), written in each batch's own
    transaction: an ingest that was killed shows in `mirror stats` with how far it got,
    and the same command run again resumes after its last committed batch.
    """
    report = IngestReport()
    name = source or "local"
    key = progress_key(name)
    st = path.stat()
    stamp = {"file": str(path.resolve()), "size": st.st_size, "mtime": st.st_mtime}
    start = line = done = 0
    previous = ingest_state(store, name)
    if previous and previous.get("status") != "done" and all(previous.get(k) == v for k, v in stamp.items()):
        start, line, done = int(previous["offset"]), int(previous["line"]), int(previous["records"])
        report.resumed_from = done

    def state(status: str) -> str:
        return json.dumps(
            {
                **stamp,
                "status": status,
                "pid": os.getpid(),
                "host": os.uname().nodename,
                "offset": report.offset,
                "line": report.line,
                "records": done + report.added,
                "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
            }
        )

    def on_batch(batch: BatchMeta) -> None:
        report.added += pending[0]
        batch.set_meta(key, state("running"))

    pending = [0]

    def counted() -> Iterator[WorkRecord]:
        for record in iter_records(path, name, report, start, line):
            pending[0] += 1
            yield record

    def batch_done(batch: BatchMeta) -> None:
        on_batch(batch)
        pending[0] = 0

    report.offset, report.line = start, line
    store.prepare_ingest()
    store.set_meta(key, state("running"))
    store.upsert(counted(), on_batch=batch_done)
    store.set_source_date(name)
    store.set_source_complete(name, complete)
    store.set_meta(key, state("done"))
    report.added += report.resumed_from
    return report


def ingest_state(store: StoreAPI, source: str) -> dict[str, Any] | None:
    """The recorded progress of the last ingest of `source`, if any."""
    raw = store.meta_value(progress_key(source))
    if not raw:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
