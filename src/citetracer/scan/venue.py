"""Papers named by a venue or a list instead of files: `citetracer scan openreview:VENUE_ID -o DIR`, and
`citetracer scan papers.csv -o DIR` (a CSV of paper URLs or identifiers).

A chair's input is a venue's submissions, not a folder. `openreview:ICLR.cc/2024/Conference` lists the
notes whose `content.venueid` is that id through OpenReview's API v2 (`/notes?content.venueid=...`, a
page of `offset`/`limit` at a time until `count`; an id with `/-/` is an invitation,
`/notes?invitation=...`: every submission, accepted or not), and fetches each one's PDF from
`/pdf?id=NOTE_ID`. A CSV names one paper a row: its `url` (or `pdf`, `link`, `paper`) column, else its
first cell: an arXiv, OpenReview, ACL Anthology or DOI URL or `arXiv:ID` / `doi:10.x/y` (fetched from
that source's configured base URL, as `check arXiv:ID` fetches), or the URL of a PDF anywhere.

Politely and safely, through the one HTTP layer (collect/http/): each source at its declared rate
and concurrency (sources.py), retries that honour Retry-After; every PDF bounded in size
(paperfetch.MAX_PDF_BYTES) and time; a URL that is not a configured source's passes the SSRF guard
on every hop (no private or loopback address, collect/ssrf.py); a reply that is not a PDF is a
problem named, never a paper read from HTML.

Resumable: each PDF is written to `DIR/downloads/` under a temporary name and renamed when whole,
so a run that was killed (or that could not fetch some papers) fetches only what is missing when run
again; the scan's journal then skips the papers already checked. `DIR/downloads/papers.csv` says
which file is which submission.
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from citetracer.collect.paperfetch import FETCH_SECONDS, PaperId, parse_paper_id, pdf_client, pdf_of
from citetracer.config import Settings
from citetracer.extract import InputError
from citetracer.report.csv_report import cell

if TYPE_CHECKING:
    from citetracer.collect.http import HttpClient

OPENREVIEW = "openreview:"
DOWNLOADS = "downloads"
#: Notes asked per listing request (OpenReview's largest page is 1000).
PAGE = 1000
#: Most papers one venue or list may name (a venue of 50,000 submissions is a mistake or an attack).
MAX_PAPERS = 50_000
#: Largest list file read.
MAX_LIST_BYTES = 10 * 1024 * 1024
#: PDFs fetched at once (each source's own rate and concurrency cap still apply).
AT_ONCE = 4
_VENUE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/@~+-]{0,300}$")
_URL_COLUMNS = ("url", "pdf", "pdf_url", "link", "paper", "id")
_NAME_COLUMNS = ("name", "title")


class VenueError(Exception):
    """The venue or list cannot be read at all (a malformed id, offline, a listing that failed)."""


@dataclass(frozen=True)
class Wanted:
    """One paper to fetch: its file name in `downloads/`, and either an identifier (fetched from its
    source's configured base URL) or a PDF's URL (untrusted: the SSRF guard)."""

    name: str
    paper: PaperId | None = None
    url: str | None = None
    title: str = ""
    given: str = ""


@dataclass
class Fetched:
    """What the remote inputs came to: the PDFs to scan, and one problem line per paper not had."""

    paths: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: PDFs fetched by this run, and those a previous run had fetched already.
    now: int = 0
    kept: int = 0


def is_remote(text: str) -> bool:
    """Whether a scan input names papers to fetch (a venue, or a .csv list) rather than files to read."""
    return text.lower().startswith(OPENREVIEW) or text.lower().endswith(".csv")


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")[:100] or "paper"


def _value(content: Any, key: str) -> Any:
    v = content.get(key) if isinstance(content, dict) else None
    return v.get("value") if isinstance(v, dict) else v


async def list_venue(http: HttpClient, settings: Settings, venue: str) -> tuple[list[Wanted], list[str]]:
    """The submissions of an OpenReview venue that have a PDF, and a problem line for those that have none."""
    base = settings.sources.get("openreview") or ""
    if not base:
        raise VenueError("no base URL is configured for openreview")
    param = "invitation" if "/-/" in venue else "content.venueid"
    wanted: list[Wanted] = []
    without_pdf = 0
    offset = 0
    while True:
        call = http.call("openreview", base, time.monotonic() + FETCH_SECONDS)
        data = await call.json("notes", {param: venue, "offset": offset, "limit": PAGE})
        notes = data.get("notes") if isinstance(data, dict) else None
        if not isinstance(notes, list):
            raise VenueError(f"openreview: the listing of {venue} is not a list of notes")
        for note in notes:
            if not isinstance(note, dict) or not isinstance(note.get("id"), str):
                continue
            content = note.get("content")
            if not _value(content, "pdf"):
                without_pdf += 1
                continue
            ident = note["id"]
            number = note.get("number")
            name = _safe(f"{number:05d}-{ident}" if isinstance(number, int) and number >= 0 else ident)
            title = _value(content, "title")
            wanted.append(
                Wanted(name, PaperId("openreview", ident, f"{OPENREVIEW}{ident}"), title=str(title or "")[:300])
            )
        offset += len(notes)
        count = data.get("count") if isinstance(data, dict) else None
        if not notes or len(notes) < PAGE or (isinstance(count, int) and offset >= count):
            break
        if offset >= MAX_PAPERS:
            break
    problems = [f"{OPENREVIEW}{venue}: {without_pdf} submissions have no PDF (withdrawn or not public); skipped"]
    if len(wanted) > MAX_PAPERS:
        problems.append(f"{OPENREVIEW}{venue}: {len(wanted):,} submissions; only the first {MAX_PAPERS:,} are scanned")
        wanted = wanted[:MAX_PAPERS]
    return wanted, problems if without_pdf else problems[1:]


def read_list(path: Path) -> tuple[list[Wanted], list[str]]:
    """The papers a CSV names, one a row (a header row naming a `url` column is read as one, else the first
    cell of each row), and a problem line per row that names none."""
    try:
        if path.stat().st_size > MAX_LIST_BYTES:
            raise VenueError(f"{path}: larger than {MAX_LIST_BYTES // 2**20} MB; not a list of papers")
        text = path.read_bytes().decode("utf-8-sig", errors="replace")
    except OSError as exc:
        raise VenueError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        raise VenueError(f"{path}: empty")
    header = [c.strip().lower() for c in rows[0]]
    column = next((header.index(c) for c in _URL_COLUMNS if c in header), None)
    named = next((header.index(c) for c in _NAME_COLUMNS if c in header), None)
    body = rows[1:] if column is not None else rows
    column = column or 0
    wanted: list[Wanted] = []
    problems: list[str] = []
    for n, row in enumerate(body, 2 if rows is not body else 1):
        value = row[column].strip() if len(row) > column else ""
        if not value:
            continue
        if len(wanted) >= MAX_PAPERS:
            problems.append(f"{path}: more than {MAX_PAPERS:,} papers; the rest are not scanned")
            break
        title = row[named].strip()[:300] if named is not None and len(row) > named else ""
        paper = parse_paper_id(value)
        if paper is not None:
            wanted.append(Wanted(_safe(f"{paper.kind}-{paper.value}"), paper=paper, title=title, given=value))
        elif re.match(r"(?i)^https?://", value):
            stem = Path(unquote(urlsplit(value).path)).stem
            wanted.append(Wanted(_safe(f"row{n}-{stem}"), url=value[:2000], title=title, given=value))
        else:
            problems.append(f"{path}: row {n}: {value[:80]!r} is neither a URL nor arXiv:ID / doi:10.x/y; skipped")
    return _unique(wanted), problems


def _unique(wanted: list[Wanted]) -> list[Wanted]:
    """The papers with unique file names, each named once (a list that names a paper twice fetches it once)."""
    out: list[Wanted] = []
    seen: dict[str, str] = {}
    for w in wanted:
        what = w.url or (f"{w.paper.kind}:{w.paper.value}" if w.paper else w.name)
        if seen.get(w.name) == what:
            continue
        name, n = w.name, 2
        while name in seen:
            name, n = f"{w.name}-{n}", n + 1
        seen[name] = what
        out.append(Wanted(name, w.paper, w.url, w.title, w.given))
    return out


def _is_pdf(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return b"%PDF-" in fh.read(1024)
    except OSError:
        return False


async def _fetch_one(http: HttpClient, settings: Settings, w: Wanted) -> bytes:
    from citetracer.collect.http import SourceFailure

    if w.paper is not None:
        return await pdf_of(http, w.paper, settings)
    assert w.url is not None
    call = http.call("web", "", time.monotonic() + FETCH_SECONDS)
    resp = await call.get(w.url, accept="application/pdf", trusted=False)  # the SSRF guard, every hop
    if resp.status >= 400:
        raise InputError(f"{w.given}: HTTP {resp.status}")
    if b"%PDF-" not in resp.body[:1024]:
        raise SourceFailure("web", f"not a PDF ({resp.content_type or 'no type'})", retry=False)
    return resp.body


async def _fetch_all(
    http: HttpClient, settings: Settings, wanted: list[Wanted], folder: Path, out: Fetched, say: Callable[[str], None]
) -> None:
    from citetracer.collect.http import SourceFailure

    gate = asyncio.Semaphore(AT_ONCE)
    todo = [w for w in wanted if not _is_pdf(folder / f"{w.name}.pdf")]
    out.kept = len(wanted) - len(todo)
    if todo:
        say(f"fetching {len(todo)} PDFs" + (f" ({out.kept} fetched before)" if out.kept else ""))

    async def one(w: Wanted) -> None:
        async with gate:
            try:
                body = await _fetch_one(http, settings, w)
            except (InputError, SourceFailure) as exc:
                what = w.given or (w.paper.given if w.paper else w.name)
                out.problems.append(f"{what}: the PDF could not be fetched ({exc}); run the scan again to retry")
                return
        target = folder / f"{w.name}.pdf"
        tmp = folder / f".{w.name}.pdf.{os.getpid()}.tmp"
        tmp.write_bytes(body)
        tmp.replace(target)  # whole or absent: a killed run leaves no half PDF to be taken for a paper
        out.now += 1
        if out.now % 10 == 0:
            say(f"fetched {out.now} of {len(todo)} PDFs")

    await asyncio.gather(*(one(w) for w in todo))


def fetch_inputs(given: list[str], settings: Settings, out_dir: Path, say: Callable[[str], None]) -> Fetched:
    """The PDFs of the remote inputs (venues and lists) in `out_dir/downloads/`, fetched now or before."""
    folder = out_dir / DOWNLOADS
    if settings.offline:
        raise VenueError(
            f"{', '.join(given)}: fetching the papers needs the network, and this scan is offline: run it without "
            "--offline, or download the PDFs and scan their folder"
        )
    folder.mkdir(parents=True, exist_ok=True)
    result = Fetched()
    wanted: list[Wanted] = []
    http = pdf_client(settings)

    async def run() -> None:
        try:
            for text in given:
                if text.lower().startswith(OPENREVIEW):
                    venue = text[len(OPENREVIEW) :].strip().strip("/")
                    if not _VENUE_ID.match(venue):
                        raise VenueError(
                            f"{text}: not an OpenReview venue id (like openreview:ICLR.cc/2024/Conference)"
                        )
                    found, problems = await _listing(http, settings, venue)
                else:
                    found, problems = read_list(Path(text))
                if not found:
                    raise VenueError(f"{text}: names no paper to fetch" + (f" ({problems[0]})" if problems else ""))
                say(f"{text}: {len(found)} papers")
                wanted.extend(found)
                result.problems.extend(problems)
            unique = _unique(wanted)
            await _fetch_all(http, settings, unique, folder, result, say)
            wanted[:] = unique
        finally:
            await http.aclose()

    asyncio.run(run())
    result.paths = [folder / f"{w.name}.pdf" for w in wanted if _is_pdf(folder / f"{w.name}.pdf")]
    _write_index(folder, wanted)
    return result


async def _listing(http: HttpClient, settings: Settings, venue: str) -> tuple[list[Wanted], list[str]]:
    from citetracer.collect.http import SourceFailure

    try:
        return await list_venue(http, settings, venue)
    except SourceFailure as exc:
        raise VenueError(f"{OPENREVIEW}{venue}: the listing failed ({exc}); run the scan again") from None


def _write_index(folder: Path, wanted: list[Wanted]) -> None:
    """`downloads/papers.csv`: which file is which paper (plain CSV)."""
    tmp = folder / f".papers.csv.{os.getpid()}.tmp"
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(("file", "source", "id", "url", "title", "fetched"))
        for w in wanted:
            kind, ident = (w.paper.kind, w.paper.value) if w.paper else ("web", "")
            url = f"https://openreview.net/forum?id={ident}" if kind == "openreview" else (w.url or w.given)
            fetched = "yes" if _is_pdf(folder / f"{w.name}.pdf") else "no"
            writer.writerow([cell(x) for x in (f"{w.name}.pdf", kind, ident, url, w.title, fetched)])
    tmp.replace(folder / "papers.csv")
