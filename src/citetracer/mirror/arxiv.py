"""Ingest arXiv's metadata snapshot: one JSON object per line, as arXiv's OAI snapshot is distributed on Kaggle.

Each line is one work at its latest version, e.g.

    {"id": "0704.0001", "submitter": "Pavel Nadolsky", "authors": "C. Bal\\'azs, E. L. Berger, ...",
     "title": "Calculation of prompt diphoton production cross sections at Tevatron and\\n  LHC energies",
     "comments": "37 pages, 15 figures", "journal-ref": "Phys.Rev.D76:013009,2007",
     "doi": "10.1103/PhysRevD.76.013009", "report-no": "ANL-HEP-PR-07-12", "categories": "hep-ph",
     "license": null, "abstract": "...",
     "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}, ...],
     "update_date": "2008-11-13", "authors_parsed": [["Balázs", "C.", ""], ["Berger", "E. L.", ""], ...]}

A record keeps the title (whitespace folded), the authors (`authors_parsed`: family, given,
suffix; the `authors` string when that is missing), the year of its first version, every
version with its date (`WorkRecord.versions`), the DOI and the journal reference (as
`venue_full`, as the online arXiv connector gives it); the venue is "arXiv", the type
"preprint", the key `arxiv:<id>` (versionless), the URL https://arxiv.org/abs/<id>. The
abstract and the categories are not kept.

The snapshot holds every arXiv id issued up to its date (withdrawn works keep their
record), so the source is declared complete for arXiv identifiers up to the snapshot
date (store/claims.py): a cited id of an earlier month that the snapshot lacks does not
exist. The snapshot date is the newest `update_date` or version date in the file, unless
given. The file is streamed (gzip'd or not), lines longer than `MAX_LINE_BYTES` and lines
that are not a record are counted and skipped, and the store is rebuilt like DBLP's
(mirror/rebuild.py), so memory stays bounded whatever the snapshot's size.
"""

from __future__ import annotations

import gzip
import json
import lzma
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from citetracer.mirror.rebuild import rebuild_source
from citetracer.mirror.safexml import DumpError
from citetracer.normalize.names import parse_person, surname_keys
from citetracer.normalize.text import canonical_arxiv, canonical_doi, latex_to_text
from citetracer.store.claims import ARXIV_IDS
from citetracer.store.codec import pack
from citetracer.store.common import venue_key
from citetracer.store.ranking import index_tokens
from citetracer.store.rows import Row

SOURCE = "arxiv"
VENUE = "arXiv"
#: A line longer than this is not a record we can use (the longest real ones, with thousands of authors, are ~1 MB).
MAX_LINE_BYTES = 8_000_000
#: Authors kept per record (large collaborations list thousands).
MAX_PEOPLE = 1_000
#: Rows per batch handed to the store.
BATCH = 5_000
#: Problems remembered word for word (the rest are only counted: memory stays bounded).
MAX_ERRORS = 50

_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_VENUE_KEY = venue_key(VENUE)


@dataclass
class ArxivReport:
    """What an ingest did."""

    added: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)
    bytes_read: int = 0
    #: The newest date seen in the file (update or version date): the snapshot's date unless given.
    newest: str | None = None
    snapshot_date: str | None = None
    carried_over: int = 0
    seconds: float = 0.0
    finish_seconds: float = 0.0

    def skip(self, where: str, why: str) -> None:
        self.skipped += 1
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(f"{where}: {why}; skipped")


@lru_cache(maxsize=4096)
def version_date(created: str) -> str | None:
    """'Mon, 2 Apr 2007 19:18:42 GMT' -> '2007-04-02' (None when unreadable)."""
    try:
        return parsedate_to_datetime(created).date().isoformat()
    except (TypeError, ValueError, IndexError):
        return None


def _clean(text: str) -> str:
    text = " ".join(text.split())
    return latex_to_text(text) if "\\" in text or "{" in text else text


@lru_cache(maxsize=200_000)
def _person(family: str, given: str) -> tuple[dict[str, str], tuple[str, ...]] | None:
    family, given = _clean(family), _clean(given)
    if not family:
        return None
    fields = {"given": given, "family": family} if given else {"family": family}
    return fields, surname_keys(family)


#: A last "author" that says the list goes on: arXiv's own lists never end so, but a snapshot made
#: from citations (bench/realpapers.py) may, and its list must then not pass for a whole one.
_ET_AL = frozenset(("others", "et al.", "et al", "and others"))


def _people(obj: dict[str, Any]) -> tuple[list[tuple[dict[str, str], tuple[str, ...]]], bool]:
    """The authors (Person fields, surname keys) and whether the list says it goes on ("others")."""
    out = []
    truncated = False
    parsed = obj.get("authors_parsed")
    if isinstance(parsed, list) and parsed:
        for entry in parsed[:MAX_PEOPLE]:
            if isinstance(entry, list) and entry and all(isinstance(x, str) for x in entry):
                if entry[0].strip().lower() in _ET_AL:
                    truncated = True
                    continue
                person = _person(entry[0], entry[1] if len(entry) > 1 else "")
                if person is not None:
                    out.append(person)
        return out, truncated
    names = obj.get("authors")
    if isinstance(names, str):
        for name in _clean(names).replace(" and ", ", ").split(",")[:MAX_PEOPLE]:
            if name.strip().lower() in _ET_AL:
                truncated = True
                continue
            p = parse_person(name.strip()) if name.strip() else None
            if p is not None:
                out.append((p.model_dump(exclude_none=True), surname_keys(p.family)))
    return out, truncated


def parse_record(obj: dict[str, Any]) -> tuple[Row, str | None]:
    """One snapshot object as a store row, and the newest date it carries; ValueError when it is no record."""
    arxiv = canonical_arxiv(obj.get("id")) if isinstance(obj.get("id"), str) else None
    if not arxiv:
        raise ValueError("no arXiv id")
    title = _clean(obj["title"]) if isinstance(obj.get("title"), str) else ""
    if not title:
        raise ValueError(f"{arxiv}: no title")
    versions = []
    for v in obj.get("versions") or ():
        if isinstance(v, dict) and isinstance(v.get("version"), str):
            date = version_date(v["created"]) if isinstance(v.get("created"), str) else None
            versions.append({"version": v["version"], "date": date} if date else {"version": v["version"]})
    dates = [v["date"] for v in versions if "date" in v]
    updated = obj.get("update_date") if isinstance(obj.get("update_date"), str) else None
    newest = max([*dates, *([updated[:10]] if updated else [])], default=None)
    year = int(dates[0][:4]) if dates else None
    people, truncated = _people(obj)
    data: dict[str, Any] = {"title": title}
    if people:
        data["authors"] = [p[0] for p in people]
    if truncated or len(obj.get("authors_parsed") or ()) > MAX_PEOPLE:
        data["authors_truncated"] = True
    data["venue"] = VENUE
    journal = obj.get("journal-ref")
    if isinstance(journal, str) and journal.strip():
        data["venue_full"] = " ".join(journal.split())
    if year:
        data["year"] = year
    raw_doi = obj.get("doi")
    doi = canonical_doi(raw_doi.split()[0]) if isinstance(raw_doi, str) and raw_doi.strip() else None
    if doi:
        data["doi"] = doi
    data["arxiv_id"] = arxiv
    data["type"] = "preprint"
    if versions:
        data["versions"] = versions
    surnames: tuple[str, ...] = ()
    for p in people:
        surnames += p[1]
    row = Row(
        f"{SOURCE}:{arxiv}",
        SOURCE,
        "preprint",
        doi,
        arxiv,
        year,
        _VENUE_KEY,
        pack(_JSON(data).encode()),
        None,
        (" ".join(index_tokens(title)),),
        surnames,
        None,
        True,
    )
    return row, newest


def open_snapshot(path: Path) -> tuple[IO[bytes], IO[bytes]]:
    """(the text stream, the raw file whose position tells progress): gzip'd, xz'd or plain, by its first bytes
    (an xz copy was read as binary lines, each one a warning)."""
    raw = path.open("rb")
    head = raw.read(6)
    raw.seek(0)
    if head.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(fileobj=raw), raw  # type: ignore[return-value]
    if head == b"\xfd7zXZ\x00":
        return lzma.LZMAFile(raw), raw
    return raw, raw


#: What a damaged compressed snapshot raises as it is read (a cut file, bad data, a wrong checksum).
DAMAGED = (OSError, EOFError, gzip.BadGzipFile, zlib.error, lzma.LZMAError)


def bounded_lines(stream: IO[bytes], limit: int) -> Iterator[bytes | None]:
    """The stream's lines; None for a line longer than `limit` (read past, never held whole)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while True:  # drop the rest of the line
                rest = stream.readline(1 << 20)
                if not rest or rest.endswith(b"\n"):
                    break
            yield None
            continue
        yield line


def iter_arxiv(path: Path, report: ArxivReport) -> Iterator[list[tuple[Any, ...]]]:
    """Batches of rows from a snapshot file (see the module docstring); DumpError if it cannot be read."""
    stream, raw = open_snapshot(path)
    batch: list[tuple[Any, ...]] = []
    try:
        for n, line in enumerate(bounded_lines(stream, MAX_LINE_BYTES), 1):
            if line is None:
                report.skip(f"{path.name}:{n}", f"line longer than {MAX_LINE_BYTES:,} bytes")
                continue
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("not a JSON object")
                row, newest = parse_record(obj)
            except (ValueError, TypeError, KeyError, RecursionError) as exc:
                report.skip(f"{path.name}:{n}", str(exc)[:200] or type(exc).__name__)
                continue
            if newest and (report.newest is None or newest > report.newest):
                report.newest = newest
            batch.append(tuple(row))
            if len(batch) >= BATCH:
                report.bytes_read = raw.tell()
                yield batch
                batch = []
        report.bytes_read = raw.tell()
        if batch:
            yield batch
    except DAMAGED as exc:
        raise DumpError(f"{path}: cannot be read to its end ({exc}); the store was not changed") from exc
    finally:
        stream.close()
        raw.close()


def ingest_arxiv(
    target: Path | str,
    snapshot: Path,
    date: str | None = None,
    complete: bool = True,
    progress: Callable[[int, int, int], None] | None = None,
    lock_wait: float | None = None,
    notify: Callable[[str], None] | None = None,
) -> ArxivReport:
    """Replace the store's arXiv records with this snapshot's (see the module docstring).

    `date`: the snapshot's date (default: the newest date in it). `complete`: declare the source
    complete for arXiv ids up to that date (a hand-made or partial file must say False).
    """
    started = time.monotonic()
    report = ArxivReport()
    size = snapshot.stat().st_size

    def meta() -> dict[str, str]:
        if not report.added and not report.skipped:
            raise DumpError(f"{snapshot}: no arXiv record in it; the store was not changed")
        report.snapshot_date = date or report.newest or time.strftime("%Y-%m-%d")
        return {
            f"source_date:{SOURCE}": report.snapshot_date,
            f"source_file:{SOURCE}": str(snapshot.resolve()),
            f"complete_ids:{SOURCE}": ARXIV_IDS if complete else "",
            f"complete:{SOURCE}": "0",  # no venue: arXiv is not a venue whose every paper a citation names
        }

    def tick(written: int) -> None:
        report.added = written
        if progress is not None:
            progress(written, report.bytes_read, size)

    done = rebuild_source(target, SOURCE, iter_arxiv(snapshot, report), meta, tick, lock_wait, notify)
    report.added = done.written
    report.carried_over = done.carried_over
    report.finish_seconds = done.finish_seconds
    report.seconds = time.monotonic() - started
    return report
