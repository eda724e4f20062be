"""Ingest a subset of an OpenAlex snapshot: its works, and its sources as venue knowledge.

The snapshot is gzip'd JSON lines partitions, one entity a line, exactly as the API returns
them: `data/works/updated_date=YYYY-MM-DD/part_NNN.gz` listed by `data/works/manifest`
(Redshift manifest JSON: `{"entries": [{"url": "s3://openalex/data/works/...", "meta":
{"content_length": ..., "record_count": ...}}], ...}`), and likewise `data/sources/`.
PATH is the snapshot's folder, a manifest, or one part file. Newer snapshots put the same
folders under `data/jsonl/`; both layouts are read.

Works are filtered to a machine-sized subset (`Filters`: published since a year, of some
types, in sources with some ISSNs, or tagged with some concepts) and upserted in batches
(`StoreAPI.write_rows`), each batch one transaction that also records how far the ingest
got (part and line), so a killed ingest is resumed by running the same command again, like
`mirror add`; memory stays bounded. A work keeps its title, authors (`is_authors_truncated`
respected), venue (its primary location's source; legacy `host_venue`), year, DOI, arXiv id
(from an arXiv DOI or landing page), type (DBLP's words where Crossref's type says which:
journal-article -> article, proceedings-article -> inproceedings, ...), pages, volume,
issue and publisher; key `openalex:W...`, and a link to its venue (`openalex:S...`).

Sources become the store's venue knowledge (store/venues.py): names, alternate and
abbreviated titles, ISSNs and works per year. After the works, the venue-years the subset
holds whole (as many works as the venue's own count for that year) are declared complete
(store/claims.py); a snapshot read without filters is also declared complete for Crossref
DOIs (OpenAlex ingests all of Crossref), a filtered one is not.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from citetracer.mirror.arxiv import DAMAGED, bounded_lines, open_snapshot
from citetracer.mirror.people import person_fields
from citetracer.mirror.safexml import DumpError
from citetracer.mirror.workers import WorkerError, ordered_map
from citetracer.normalize.names import surname_keys
from citetracer.normalize.text import arxiv_from_doi, canonical_arxiv, canonical_doi
from citetracer.store.api import BatchMeta, StoreAPI
from citetracer.store.claims import CROSSREF_DOIS
from citetracer.store.codec import pack
from citetracer.store.common import venue_key
from citetracer.store.ranking import index_tokens
from citetracer.store.rows import Row, present
from citetracer.store.venues import VenueEntry, canonical_issn

SOURCE = "openalex"
#: Longest line read (OpenAlex works with thousands of authorships and references run to a few MB).
MAX_LINE_BYTES = 16_000_000
MAX_PEOPLE = 1_000
#: Works per batch (one transaction, one progress record).
BATCH = 5_000
#: Lines a parser worker takes at a time (mirror/workers.py), and the size of the parts above which
#: they are parsed in one worker process per core while this one reads and writes.
CHUNK_LINES = 1_000
PARALLEL_BYTES = 1_000_000
MAX_ERRORS = 50
#: Crossref's work types in DBLP's words (what the judge's venue kinds read); others are kept as OpenAlex says.
_CROSSREF_TYPES = {
    "journal-article": "article",
    "proceedings-article": "inproceedings",
    "book-chapter": "incollection",
    "book": "book",
    "edited-book": "book",
    "monograph": "book",
    "reference-book": "book",
    "proceedings": "proceedings",
    "dissertation": "phdthesis",
    "posted-content": "preprint",
    "report": "report",
    "dataset": "data",
}
_SOURCE_TYPES = {"journal": "article", "conference": "inproceedings", "repository": "preprint"}
_ARXIV_PAGE = re.compile(r"arxiv\.org/(?:abs|pdf)/(.+?)(?:\.pdf)?$", re.IGNORECASE)
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@dataclass(frozen=True)
class Filters:
    """Which works to keep (None / empty: no condition)."""

    since: int | None = None
    types: frozenset[str] = frozenset()
    issns: frozenset[str] = frozenset()
    concepts: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls,
        since: int | None = None,
        types: Iterable[str] = (),
        issns: Iterable[str] = (),
        concepts: Iterable[str] = (),
    ) -> Filters:
        bad = [i for i in issns if canonical_issn(i) is None]
        if bad:
            raise ValueError(f"not an ISSN: {', '.join(bad)}")
        return cls(
            since=since,
            types=frozenset(t.strip().lower() for t in types if t.strip()),
            issns=frozenset(canonical_issn(i) or "" for i in issns),
            concepts=frozenset(_concept_key(c) for c in concepts if c.strip()),
        )

    def describe(self) -> str | None:
        """The subset in words (None: the whole snapshot)."""
        parts = []
        if self.since is not None:
            parts.append(f"published since {self.since}")
        if self.types:
            parts.append("of type " + " or ".join(sorted(self.types)))
        if self.issns:
            parts.append("in the sources with ISSN " + ", ".join(sorted(self.issns)))
        if self.concepts:
            parts.append("tagged with concept " + ", ".join(sorted(self.concepts)))
        return "works " + ", ".join(parts) if parts else None

    def keep(self, work: dict[str, Any]) -> bool:
        if self.since is not None:
            year = work.get("publication_year")
            if not isinstance(year, int) or year < self.since:
                return False
        kinds = {str(work.get("type") or "").lower(), str(work.get("type_crossref") or "").lower()}
        if self.types and not kinds & self.types:
            return False
        if self.issns:
            source = _source_of(work)
            listed = [*(source.get("issn") or ()), source.get("issn_l")]
            held = {canonical_issn(i) for i in listed if isinstance(i, str)}
            if not held & self.issns:
                return False
        if self.concepts:
            tagged = {
                key
                for c in work.get("concepts") or ()
                if isinstance(c, dict)
                for key in (_concept_key(str(c.get("id") or "")), _concept_key(str(c.get("display_name") or "")))
            }
            if not tagged & self.concepts:
                return False
        return True


def _concept_key(text: str) -> str:
    """A concept's id ('C41008148', also as a URL) or its name, case-folded."""
    text = text.strip().rsplit("/", 1)[-1]
    return text.upper() if re.fullmatch(r"[Cc]\d+", text) else " ".join(text.casefold().split())


def _short_id(value: Any) -> str | None:
    """'https://openalex.org/W2741809807' -> 'W2741809807'."""
    if not isinstance(value, str) or not value.strip():
        return None
    return value.strip().rsplit("/", 1)[-1] or None


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _source_of(work: dict[str, Any]) -> dict[str, Any]:
    location = work.get("primary_location")
    source = location.get("source") if isinstance(location, dict) else None
    if not isinstance(source, dict):
        source = work.get("host_venue")  # snapshots before 2023
    return source if isinstance(source, dict) else {}


#: Author names parsed, remembered per parser process (one per core): 200,000 cost each worker ~50 MB more.
@lru_cache(maxsize=65_536)
def _person(name: str) -> tuple[dict[str, str], tuple[str, ...]] | None:
    fields = person_fields(" ".join(name.split()))
    if fields is None:
        return None
    return fields, surname_keys(fields["family"])


def _kind(work: dict[str, Any], source: dict[str, Any]) -> str | None:
    crossref = work.get("type_crossref")
    if isinstance(crossref, str) and crossref in _CROSSREF_TYPES:
        return _CROSSREF_TYPES[crossref]
    kind = work.get("type")
    if kind == "article" and isinstance(source.get("type"), str):
        return _SOURCE_TYPES.get(source["type"], "article")
    return kind if isinstance(kind, str) else None


def _arxiv_of(work: dict[str, Any], doi: str | None) -> str | None:
    found = arxiv_from_doi(doi)
    if found:
        return canonical_arxiv(found)
    for location in work.get("locations") or ():
        page = location.get("landing_page_url") if isinstance(location, dict) else None
        if isinstance(page, str) and (m := _ARXIV_PAGE.search(page)):
            return canonical_arxiv(m.group(1))
    return None


def work_row(work: dict[str, Any]) -> tuple[Row, str | None]:
    """One work as a store row, and its `updated_date`; ValueError when it is no usable record."""
    wid = _short_id(work.get("id"))
    if not wid:
        raise ValueError("no OpenAlex id")
    raw_title = work.get("display_name") or work.get("title")
    title = " ".join(raw_title.split()) if isinstance(raw_title, str) else ""
    if not title:
        raise ValueError(f"{wid}: no title")
    people = []
    for authorship in (work.get("authorships") or ())[:MAX_PEOPLE]:
        if not isinstance(authorship, dict):
            continue
        author = _mapping(authorship.get("author"))
        name = author.get("display_name") or authorship.get("raw_author_name")
        if isinstance(name, str) and name.strip() and (p := _person(name)) is not None:
            people.append(p)
    source = _source_of(work)
    venue = source.get("display_name") if isinstance(source.get("display_name"), str) else None
    year = work.get("publication_year") if isinstance(work.get("publication_year"), int) else None
    doi = canonical_doi(work["doi"]) if isinstance(work.get("doi"), str) else None
    arxiv = _arxiv_of(work, doi)
    kind = _kind(work, source)
    data: dict[str, Any] = {"title": title}
    if people:
        data["authors"] = [p[0] for p in people]
    if work.get("is_authors_truncated") is True or len(work.get("authorships") or ()) > MAX_PEOPLE:
        data["authors_truncated"] = True
    data.update(present(venue=venue, year=year, doi=doi, arxiv_id=arxiv))
    biblio = _mapping(work.get("biblio"))
    first, last = biblio.get("first_page"), biblio.get("last_page")
    if isinstance(first, str) and first:
        data["pages"] = f"{first}-{last}" if isinstance(last, str) and last and last != first else first
    for name in ("volume", "issue"):
        if isinstance(biblio.get(name), str) and biblio[name]:
            data[name] = biblio[name]
    publisher = source.get("host_organization_name")
    if isinstance(publisher, str) and publisher:
        data["publisher"] = publisher
    if kind:
        data["type"] = kind
    surnames: tuple[str, ...] = ()
    for p in people:
        surnames += p[1]
    row = Row(
        f"{SOURCE}:{wid}",
        SOURCE,
        kind,
        doi,
        arxiv,
        year,
        venue_key(venue) if venue else None,
        pack(_JSON(data).encode()),
        _short_id(source.get("id")),
        (" ".join(index_tokens(title)),),
        surnames,
        None,
        True,
    )
    updated = work.get("updated_date")
    return row, (updated[:10] if isinstance(updated, str) else None)


def venue_entry(obj: dict[str, Any]) -> VenueEntry:
    """One source of the sources snapshot as venue knowledge; ValueError when it has no id or name."""
    sid = _short_id(obj.get("id"))
    name = obj.get("display_name")
    if not sid or not isinstance(name, str) or not name.strip():
        raise ValueError("a source without id or name")
    issns = tuple(i for i in (canonical_issn(x) for x in obj.get("issn") or () if isinstance(x, str)) if i)
    years = {
        int(c["year"]): int(c["works_count"])
        for c in obj.get("counts_by_year") or ()
        if isinstance(c, dict) and isinstance(c.get("year"), int) and isinstance(c.get("works_count"), int)
    }
    alternates = tuple(a for a in obj.get("alternate_titles") or () if isinstance(a, str) and a.strip())
    abbreviated = obj.get("abbreviated_title")
    return VenueEntry(
        id=f"{SOURCE}:{sid}",
        source=SOURCE,
        name=" ".join(name.split()),
        kind=obj.get("type") if isinstance(obj.get("type"), str) else None,
        issn_l=canonical_issn(obj.get("issn_l")) if isinstance(obj.get("issn_l"), str) else None,
        issns=issns,
        alternate_titles=alternates,
        abbreviated_title=abbreviated if isinstance(abbreviated, str) and abbreviated.strip() else None,
        publisher=obj.get("host_organization_name") if isinstance(obj.get("host_organization_name"), str) else None,
        works_by_year=years,
    )


# ------------------------------------------------------------------ the snapshot's files


def _entity_dir(root: Path, entity: str) -> Path | None:
    for candidate in (root / "data" / entity, root / "data" / "jsonl" / entity, root / entity):
        if candidate.is_dir():
            return candidate
    return None


def manifest_parts(manifest: Path, entity: str) -> list[Path]:
    """The part files a Redshift manifest lists, found beside it (an `s3://.../<entity>/...` URL maps to
    the same path under the manifest's folder)."""
    try:
        obj = json.loads(manifest.read_text(encoding="utf-8"))
        urls = [str(e["url"]) for e in obj["entries"]]
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise DumpError(f"{manifest}: not a snapshot manifest ({exc})") from exc
    out = []
    for url in urls:
        tail = url.split(f"/{entity}/", 1)[-1] if f"/{entity}/" in url else url.rsplit("/", 1)[-1]
        part = (manifest.parent / tail).resolve()
        if manifest.parent.resolve() not in part.parents:
            raise DumpError(f"{manifest}: lists a file outside its folder ({url})")
        out.append(part)
    return out


def snapshot_parts(path: Path, entity: str = "works") -> list[Path]:
    """The part files of one entity in a snapshot folder, a manifest, or a single part file."""
    if path.is_file():
        if path.name.startswith("manifest"):
            return manifest_parts(path, entity)
        return [path]
    folder = _entity_dir(path, entity)
    if folder is None:
        if entity != "works" or not any(path.glob("*.gz")):
            return []
        folder = path
    for name in ("manifest", "manifest.json"):
        if (folder / name).is_file():
            return manifest_parts(folder / name, entity)
    return sorted(folder.rglob("*.gz"))


def _lines(part: Path, report: OpenAlexReport, skip: int = 0) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of a part file (gzip'd or not), from line `skip` + 1; overlong lines counted."""
    stream, raw = open_snapshot(part)
    try:
        for n, line in enumerate(bounded_lines(stream, MAX_LINE_BYTES), 1):
            if n <= skip:
                continue
            if line is None:
                report.skip(f"{part.name}:{n}", f"line longer than {MAX_LINE_BYTES:,} bytes")
                continue
            if line.strip():
                yield n, line
    except DAMAGED as exc:
        raise DumpError(f"{part}: cannot be read to its end ({exc}); what was read before is kept") from exc
    finally:
        stream.close()
        raw.close()


def _object(line: bytes) -> dict[str, Any] | str:
    """The JSON object of a line, or why it is none."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError) as exc:
        return str(exc)[:200]
    return obj if isinstance(obj, dict) else "not a JSON object"


def _objects(part: Path, report: OpenAlexReport, skip: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of a part file, from line `skip` + 1; bad lines counted."""
    for n, line in _lines(part, report, skip):
        obj = _object(line)
        if isinstance(obj, str):
            report.skip(f"{part.name}:{n}", obj)
            continue
        yield n, obj


@dataclass
class ParsedLines:
    """What a worker made of a chunk of a part's lines (see `_parse_lines`)."""

    rows: list[tuple[Any, ...]]
    filtered_out: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    newest: str | None = None


def _parse_lines(filters: Filters, name: str, lines: list[tuple[int, bytes]]) -> ParsedLines:
    """The rows of the works among these lines of part `name` that pass `filters` (a worker's job)."""
    out = ParsedLines(rows=[])
    for n, line in lines:
        obj = _object(line)
        if isinstance(obj, str):
            out.skipped.append((f"{name}:{n}", obj))
            continue
        if not filters.keep(obj):
            out.filtered_out += 1
            continue
        try:
            row, updated = work_row(obj)
        except (ValueError, TypeError, AttributeError) as exc:
            out.skipped.append((f"{name}:{n}", str(exc)[:200]))
            continue
        if updated and (out.newest is None or updated > out.newest):
            out.newest = updated
        out.rows.append(tuple(row))
    return out


# ------------------------------------------------------------------ ingest


@dataclass
class OpenAlexReport:
    added: int = 0
    filtered_out: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)
    venues: int = 0
    parts: int = 0
    #: Where an interrupted ingest was taken up: (part index, line, records committed then).
    resumed_from: tuple[int, int, int] | None = None
    newest: str | None = None
    snapshot_date: str | None = None
    complete_venue_years: int = 0
    scope: str | None = None
    seconds: float = 0.0

    def skip(self, where: str, why: str) -> None:
        self.skipped += 1
        if len(self.errors) < MAX_ERRORS:
            self.errors.append(f"{where}: {why}; skipped")


def progress_key() -> str:
    return f"ingest:{SOURCE}"


def _previous_state(store: StoreAPI) -> dict[str, Any] | None:
    raw = store.meta_value(progress_key())
    try:
        state = json.loads(raw) if raw else None
    except ValueError:
        return None
    return state if isinstance(state, dict) else None


def ingest_venues(store: StoreAPI, parts: list[Path], report: OpenAlexReport) -> int:
    """Every source of the sources snapshot into the store's venue knowledge (re-running replaces them)."""

    def entries() -> Iterator[VenueEntry]:
        for part in parts:
            for n, obj in _objects(part, report):
                try:
                    yield venue_entry(obj)
                except (ValueError, TypeError) as exc:
                    report.skip(f"{part.name}:{n}", str(exc))

    report.venues = store.put_venues(entries())
    return report.venues


def ingest_openalex(
    store: StoreAPI,
    path: Path,
    filters: Filters | None = None,
    sources: Path | None = None,
    date: str | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> OpenAlexReport:
    """Upsert the works of the snapshot at `path` that pass `filters`, and its sources as venue knowledge
    (from `sources`, or the snapshot's own `sources` folder); see the module docstring.

    Resumes an interrupted ingest of the same parts with the same filters. `date` is the snapshot's
    date (default: the newest `updated_date` of its works). `progress(records, part, parts)`.
    """
    started = time.monotonic()
    filters = filters or Filters()
    report = OpenAlexReport(scope=filters.describe())
    parts = snapshot_parts(path, "works")
    if sources is not None:
        venue_parts = snapshot_parts(sources, "sources")
    else:
        venue_parts = snapshot_parts(path, "sources") if path.is_dir() else []
    if not parts and not venue_parts:
        raise DumpError(f"{path}: no OpenAlex works or sources found (a snapshot folder, a manifest or a part file)")
    missing = [p for p in [*parts, *venue_parts] if not p.is_file()]
    if missing:
        raise DumpError(f"{missing[0]}: listed by the snapshot but not there ({len(missing)} part files missing)")
    report.parts = len(parts)
    store.prepare_ingest()
    if venue_parts:
        ingest_venues(store, venue_parts, report)
    if parts:
        _ingest_works(store, path, parts, filters, report, progress)
        store.sync_index()
    report.snapshot_date = date or report.newest or time.strftime("%Y-%m-%d")
    if parts:
        store.set_source_date(SOURCE, report.snapshot_date)
        store.set_meta(f"source_file:{SOURCE}", str(path.resolve()))
        store.set_meta(f"complete:{SOURCE}", "0")  # whole venues only where the counts say so (below)
        store.set_meta(f"complete_ids:{SOURCE}", "" if filters.describe() else CROSSREF_DOIS)
        store.set_meta(f"scope:{SOURCE}", filters.describe() or "")
    report.complete_venue_years = store.declare_complete_venue_years(SOURCE)
    if parts:
        state = _previous_state(store) or {}
        store.set_meta(progress_key(), json.dumps({**state, "status": "done"}))
    report.seconds = time.monotonic() - started
    return report


def _ingest_works(
    store: StoreAPI,
    path: Path,
    parts: list[Path],
    filters: Filters,
    report: OpenAlexReport,
    progress: Callable[[int, int, int], None] | None,
) -> None:
    stamp = {"file": str(path.resolve()), "parts": len(parts), "first": parts[0].name, "filters": filters.describe()}
    begun = time.strftime("%Y-%m-%dT%H:%M:%S")
    start_part = start_line = done = 0
    previous = _previous_state(store)
    if previous and previous.get("status") != "done" and all(previous.get(k) == v for k, v in stamp.items()):
        start_part, start_line, done = int(previous["part"]), int(previous["line"]), int(previous["records"])
        report.newest = previous.get("newest")
        report.resumed_from = (start_part, start_line, done)
    where = {"part": start_part, "line": start_line}
    pending = [0]

    def state(status: str) -> str:
        return json.dumps({**stamp, "status": status, "pid": os.getpid(), "host": os.uname().nodename,
                           "part": where["part"], "line": where["line"], "records": done + report.added,
                           "newest": report.newest, "started": begun})  # fmt: skip

    def on_batch(batch: BatchMeta) -> None:
        report.added += pending[0]
        pending[0] = 0
        batch.set_meta(progress_key(), state("running"))

    store.set_meta(progress_key(), state("running"))
    batch: list[tuple[Any, ...]] = []

    def chunks() -> Iterator[tuple[tuple[int, int], tuple[str, list[tuple[int, bytes]]]]]:
        """Chunks of `CHUNK_LINES` lines (at most a batch) from where the last run stopped, each keyed by where
        the part stands after it: (part, last line), or (next part, 0) once the part is read to its end."""
        size = min(CHUNK_LINES, BATCH)
        for index in range(start_part, len(parts)):
            part = parts[index]
            lines: list[tuple[int, bytes]] = []
            for n, line in _lines(part, report, start_line if index == start_part else 0):
                lines.append((n, line))
                if len(lines) >= size:
                    yield (index, n), (part.name, lines)
                    lines = []
            yield (index + 1, 0), (part.name, lines)

    def parse(chunk: tuple[str, list[tuple[int, bytes]]]) -> ParsedLines:
        return _parse_lines(filters, *chunk)

    size = sum(p.stat().st_size for p in parts[start_part:])
    workers = max(1, os.cpu_count() or 1) if size > PARALLEL_BYTES else 1
    try:
        for (index, line), got in ordered_map(parse, chunks(), workers, passthrough=(DumpError,)):
            report.filtered_out += got.filtered_out
            for where_, why in got.skipped:
                report.skip(where_, why)
            if got.newest and (report.newest is None or got.newest > report.newest):
                report.newest = got.newest
            batch.extend(got.rows)
            pending[0] += len(got.rows)
            where["part"], where["line"] = index, line
            if len(batch) >= BATCH:
                store.write_rows(batch, on_batch)
                batch.clear()
                if progress is not None:
                    progress(done + report.added, index, len(parts))
    except WorkerError as exc:
        raise DumpError(f"{path}: {exc}") from exc
    except DumpError:
        store.write_rows(batch, on_batch)  # what was read before the damage is kept; the rerun resumes after it
        raise
    store.write_rows(batch, on_batch)  # the last works, and the progress past the last part
    report.added += done
