"""Ingest the official DBLP dump (dblp.xml.gz + dblp.dtd) into the local store.

The dump is streamed and cut into chunks of whole records (`safexml.iter_chunks`,
about 2 MB each); each chunk is parsed with lxml under the security settings of
`safexml` and dropped once its rows are made, so memory stays bounded whatever
the dump's size. For a large dump the chunks are parsed by one worker process per
core while the main process reads the dump and writes the store, rows coming
back in dump order (the last of two records with one key wins). Every record type is kept but
`www` (person pages): article, inproceedings, proceedings, book,
incollection, phdthesis, mastersthesis, data. Record key `dblp:<dblp key>`,
URL https://dblp.org/rec/<key>. Authors keep DBLP's spelling minus the
homonym number ("Wei Wang 0001" -> Wei Wang). `ee` links give the DOI and the
arXiv id (CoRR's `abs/NNNN.NNNNN` volume too). The venue is DBLP's own short
form (journal or booktitle, e.g. "NeurIPS", "J. Mach. Learn. Res."); the
crossref'd proceedings title becomes `venue_full`, resolved at read time so
proceedings that come after their papers in the dump still count.

Re-running on a newer dump replaces the DBLP records without duplicating them and
keeps every other source and the verified links (mirror/rebuild.py: a SQLite store is
rebuilt beside the old one and swapped in, so a failure at any point leaves it untouched).
"""

from __future__ import annotations

import gc
import json
import marshal
import os
import re
import time
import zlib
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from lxml import etree

from citetracer.mirror.people import PLAIN_NAME as _PLAIN_NAME
from citetracer.mirror.people import person_fields
from citetracer.mirror.rebuild import rebuild_source
from citetracer.mirror.safexml import (
    PROLOG_BYTES,
    Chunk,
    DumpError,
    check_dtd,
    check_prolog,
    describe_failure,
    iter_chunks,
    open_dump,
    parse_chunk,
    parser_for,
)
from citetracer.mirror.workers import WorkerError, ordered_map
from citetracer.normalize.names import surname_keys
from citetracer.normalize.text import canonical_arxiv, canonical_doi, parse_year
from citetracer.store.codec import pack
from citetracer.store.common import venue_key
from citetracer.store.ranking import index_text
from citetracer.store.rows import Row

#: Record fields copied as they are: (JSON name, DBLP element).
_OPTIONAL = (("pages", "pages"), ("volume", "volume"), ("issue", "number"), ("publisher", "publisher"))
#: The child elements a record's row is made of (`url`, `cite`, `note`, `isbn`, ... are not read).
_FIELDS = frozenset(
    ("title", "booktitle", "journal", "volume", "number", "pages", "year", "publisher", "school", "series", "crossref")
)

SOURCE = "dblp"
RECORD_TAGS = (
    "article",
    "inproceedings",
    "proceedings",
    "book",
    "incollection",
    "phdthesis",
    "mastersthesis",
    "data",
)
#: Bounds on one record: a field longer than this is cut, more people than this are dropped.
MAX_FIELD_CHARS = 4_000
MAX_PEOPLE = 1_000

_DOI_LINK = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\..+)$", re.IGNORECASE)
_ARXIV_LINK = re.compile(r"^https?://(?:www\.)?arxiv\.org/(?:abs|pdf)/(.+?)(?:\.pdf)?$", re.IGNORECASE)
_CORR_VOLUME = re.compile(r"^abs/(.+)$")
#: One encoder for all records (json.dumps with options builds a new one per call).
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@dataclass
class DblpReport:
    """What an ingest did: counts by type, skipped records and why, the dump's date."""

    added: int = 0
    by_type: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)
    carried_over: int = 0
    bytes_read: int = 0
    #: The newest record modification date seen: the dump's date when its file name has none.
    max_mdate: str | None = None
    dump_date: str | None = None
    seconds: float = 0.0
    #: Of `seconds`, the time spent finishing the store after the last record (indexes, swap).
    finish_seconds: float = 0.0


_HOMONYM = re.compile(r"\s+\d{4}$")


def person(name: str) -> dict[str, str] | None:
    """A DBLP author string as a Person's JSON fields (homonym number dropped: "Wei Wang 0001")."""
    name = name.strip()
    if name[-1:].isdigit():  # what `_HOMONYM` can match ends in a digit (`\d` is a subset of `str.isdigit`)
        name = _HOMONYM.sub("", name)
    return person_fields(name)


def author(name: str) -> tuple[dict[str, str], tuple[str, ...]] | None:
    """A DBLP author string as (Person JSON fields, surname index keys)."""
    fields = person(name)
    if fields is None:
        return None
    family = fields["family"]
    # A family name of ASCII letters alone has one key, itself lower-cased (what `surname_keys` gives it).
    return fields, (family.lower(),) if family.isascii() and family.isalpha() else surname_keys(family)


@lru_cache(maxsize=200_000)  # per parser process; DBLP names are Zipf-distributed
def _author_json(text: str | None) -> tuple[str, tuple[str, ...]] | None:
    """`author` of an author element's text as it is in the dump (`_clean` not yet applied; None for an
    empty element) as (the Person's JSON, as `_JSON` writes it in the record, surname keys); cached.

    A plain name ("Given Family", the fast path of `person_fields`) is read here in one go, its JSON
    written directly: the same fields, without the calls and the dict (most names of a dump are
    seen once, so this is what a parser process mostly does with them).
    """
    name = _clean(text).strip() if text else ""
    if name[-1:].isdigit():
        name = _HOMONYM.sub("", name).strip()
    if name and _PLAIN_NAME.match(name):
        words = name.split()
        last = len(words) - 1
        if not last:
            family = words[0]
            js = '{"family":' + _QUOTE(family) + "}"
        else:
            cut = next((i for i in range(1, last) if words[i][0].islower()), last)
            family = " ".join(words[cut:])
            js = '{"given":' + _QUOTE(" ".join(words[:cut])) + ',"family":' + _QUOTE(family) + "}"
        return js, (family.lower(),) if family.isascii() and family.isalpha() else surname_keys(family)
    got = author(name)
    if got is None:
        return None
    fields, keys = got
    if all(type(v) is str for v in fields.values()):
        return "{" + ",".join([f"{_QUOTE(k)}:{_QUOTE(v)}" for k, v in fields.items()]) + "}", keys
    return _JSON(fields), keys


_year = lru_cache(maxsize=4096)(parse_year)
_venue_key = lru_cache(maxsize=200_000)(venue_key)
_KINDS = frozenset(RECORD_TAGS)
#: A JSON string literal, escaped exactly as `_JSON` escapes strings (the same C function).
_QUOTE = json.encoder.encode_basestring
#: The JSON of the fields written after the title, in the order a record's JSON has them.
_OPTIONAL_JSON = tuple((tag, f',"{name}":') for name, tag in _OPTIONAL)
_TYPE_JSON = {kind: f',"type":{_QUOTE(kind)}}}' for kind in RECORD_TAGS}


def _inner(elem: Any) -> str:
    """The text of an element with child elements (<i>, <sub>, ...): its own and theirs."""
    return "".join(elem.itertext())


def _clean(text: str | None) -> str:
    """A field's text as the record keeps it: cut at `MAX_FIELD_CHARS`, white space collapsed ("" for none).

    Given the element's text rather than the element, so that `_author_json` can be cached by it."""
    if not text:
        return ""
    if len(text) > MAX_FIELD_CHARS:
        text = text[:MAX_FIELD_CHARS]
    if "  " in text or "\n" in text or "\t" in text or text[0].isspace() or text[-1].isspace():
        return " ".join(text.split())
    return text


def _identifiers(links: list[str], volume: str | None) -> tuple[str | None, str | None]:
    doi = arxiv = None
    for link in links:
        if doi is None and (m := _DOI_LINK.match(link)):
            doi = canonical_doi(m.group(1))
        elif arxiv is None and (m := _ARXIV_LINK.match(link)):
            arxiv = canonical_arxiv(m.group(1))
    if arxiv is None and volume and (m := _CORR_VOLUME.match(volume)):
        arxiv = canonical_arxiv(m.group(1))
    return doi, arxiv


def parse_row(elem: Any, packed: bool = False) -> Row | None:
    """One record element as a store row; None when it has no key or no title."""
    fields = _row_fields(elem, packed)
    return None if fields is None else Row(*fields)


def _row_fields(elem: Any, packed: bool) -> tuple[Any, ...] | None:
    """`parse_row`'s row as the plain tuple of its fields (what the parser processes send).

    The record's JSON is written piece by piece, each value escaped by the encoder `_JSON` uses,
    in the order of `_JSON` over the dict {title, authors, venue, venue_full, year, doi, arxiv_id,
    pages, volume, issue, publisher, type} with only the present values: the same bytes, without
    building the dict, and each author's JSON made once per distinct name (`_author_json`).
    """
    key = elem.get("key")
    if not key:
        return None
    authors: list[tuple[str, tuple[str, ...]]] = []
    editors: list[tuple[str, tuple[str, ...]]] = []
    links: list[str] = []
    fields: dict[str, str] = {}
    for child in elem:
        tag = child.tag
        if tag == "author":  # most children: cached by the element's raw text, `_text` is only run once per name
            if len(authors) < MAX_PEOPLE and (p := _author_json(child.text if not len(child) else _inner(child))):
                authors.append(p)
        elif tag in _FIELDS:
            if tag not in fields:
                fields[tag] = _clean(child.text if not len(child) else _inner(child))
        elif tag == "ee":
            links.append(_clean(child.text if not len(child) else _inner(child)))
        elif tag == "editor":
            if len(editors) < MAX_PEOPLE and (p := _author_json(child.text if not len(child) else _inner(child))):
                editors.append(p)
    title = fields.get("title", "").rstrip(".").strip()
    if not title:
        return None
    kind = elem.tag
    if kind == "article":
        venue = fields.get("journal")
    elif kind in ("phdthesis", "mastersthesis"):
        venue = fields.get("school")
    elif kind == "book":
        venue = fields.get("series") or fields.get("publisher")
    else:
        venue = fields.get("booktitle") or fields.get("journal")
    volume = fields.get("volume")
    doi, arxiv = _identifiers(links, volume) if links or volume else (None, None)
    year_s = fields.get("year")
    year = _year(year_s) if year_s else None
    people = authors or editors
    # The row's key gives source, id and URL; only what is present is written.
    out = ['{"title":', _QUOTE(title)]
    surnames: tuple[str, ...] = ()
    if people:
        out.append(',"authors":[')
        out.append(",".join([p[0] for p in people]))
        out.append("]")
        for p in people:
            surnames += p[1]
    if venue:
        out += (',"venue":', _QUOTE(venue))
    proceedings = kind == "proceedings"
    if proceedings:
        out += (',"venue_full":', out[1])
    if year:
        out += (',"year":', str(year))
    if doi:
        out += (',"doi":', _QUOTE(doi))
    if arxiv:
        out += (',"arxiv_id":', _QUOTE(arxiv))
    for tag, name in _OPTIONAL_JSON:
        value = fields.get(tag)
        if value:
            out += (name, _QUOTE(value))
    out.append(_TYPE_JSON.get(kind) or f',"type":{_QUOTE(kind)}}}')
    json_bytes = "".join(out).encode()
    return (
        f"{SOURCE}:{key}",
        SOURCE,
        kind,
        doi,
        arxiv,
        year,
        _venue_key(venue) if venue else None,
        pack(json_bytes) if packed else json_bytes,
        fields.get("crossref") or None,
        (index_text(title),),
        surnames,
        title if proceedings else None,
        packed,
    )


@dataclass
class ChunkRows:
    """What one chunk gave: its rows (plain tuples, cheap to send between processes) and its counts."""

    rows: list[tuple[Any, ...]]
    by_type: Counter[str]
    skipped: Counter[str]
    max_mdate: str | None


def chunk_rows(chunk: Chunk, path: Path, parser: etree.XMLParser, packed: bool) -> ChunkRows:
    """Parse one chunk (safely, see `safexml`) and turn its records into rows.

    The cyclic garbage collector is paused meanwhile: a chunk's rows and the caches' entries are
    hundreds of thousands of new objects, none in a cycle, that it would otherwise scan again and again.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _chunk_rows(chunk, path, parser, packed)
    finally:
        if collecting:
            gc.enable()


def _chunk_rows(chunk: Chunk, path: Path, parser: etree.XMLParser, packed: bool) -> ChunkRows:
    root = parse_chunk(chunk, path, parser).getroot()
    out = ChunkRows([], Counter(), Counter(), None)
    max_mdate = ""
    for elem in root:
        kind = elem.tag
        mdate = elem.get("mdate")
        if mdate and mdate > max_mdate:
            max_mdate = mdate
        if kind == "www":
            out.skipped["www"] += 1
        elif kind in _KINDS:  # anything else is an element DBLP may add one day, not a record type we know
            row = _row_fields(elem, packed)
            if row is None:
                out.skipped["no key or title"] += 1
            else:
                out.by_type[kind] += 1
                out.rows.append(row)
    out.max_mdate = max_mdate or None
    return out


def _merge(report: DblpReport, part: ChunkRows) -> None:
    report.by_type.update(part.by_type)
    report.skipped.update(part.skipped)
    if part.max_mdate and (report.max_mdate is None or part.max_mdate > report.max_mdate):
        report.max_mdate = part.max_mdate


def _chunks(path: Path) -> Generator[tuple[Chunk, int], None, None]:
    """The dump's chunks, each with how far through the (compressed) file we are."""
    head, raw = open_dump(path)
    try:
        check_prolog(head.read(PROLOG_BYTES), path)
    except (OSError, EOFError, zlib.error) as exc:
        raise describe_failure(exc, path, None) from exc
    finally:
        head.close()
        raw.close()
    stream, raw = open_dump(path)
    try:
        for chunk in iter_chunks(stream, path, (*RECORD_TAGS, "www")):
            yield chunk, raw.tell()
    except (EOFError, OSError, zlib.error) as exc:
        raise describe_failure(exc, path, None) from exc
    finally:
        stream.close()
        raw.close()


def _batches(path: Path, dtd: Path | None, report: DblpReport, packed: bool) -> Iterator[list[tuple[Any, ...]]]:
    """Each chunk's rows (as plain tuples), parsed in this process."""
    if dtd is not None:
        check_dtd(dtd)
    parser = parser_for(dtd)
    for chunk, done in _chunks(path):
        part = chunk_rows(chunk, path, parser, packed)
        _merge(report, part)
        report.bytes_read = done
        yield part.rows


def iter_dblp(path: Path, dtd: Path | None, report: DblpReport, packed: bool = False) -> Iterator[Row]:
    """Stream store rows from a dump in this process; raises DumpError on any unusable input.

    With `packed` the rows carry their record already compressed for the store (`codec.pack`).
    """
    for rows in _batches(path, dtd, report, packed):
        for fields in rows:
            yield Row(*fields)


def dump_date(path: Path, max_mdate: str | None) -> str:
    """The dump's date: from its file name (dblp-2024-05-01.xml.gz), else its newest record, else the file's."""
    m = re.search(r"(\d{4})-?(\d{2})-?(\d{2})", path.name)
    if m:
        return f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    if max_mdate:
        return max_mdate
    return time.strftime("%Y-%m-%d", time.gmtime(path.stat().st_mtime))


def _chunk_parser(path: str, dtd: str | None) -> Callable[[tuple[Any, ...]], tuple[bytes, ChunkRows]]:
    """What a worker process does with a chunk: its packed rows (the parser is made once per worker).

    The rows go back as one `marshal` string beside the counts: plain tuples of str, bytes, int and None,
    which marshal writes and reads in half pickle's time (measured: 0.25 s against 0.51 s to write the
    sample dump's rows); the queue then pickles one bytes object. Both ends are this program's processes.
    """
    parsers: list[Any] = []

    def parse(chunk: tuple[Any, ...]) -> tuple[bytes, ChunkRows]:
        if not parsers:
            parsers.append(parser_for(Path(dtd) if dtd else None))
        part = chunk_rows(Chunk(*chunk), Path(path), parsers[0], packed=True)
        rows, part.rows = marshal.dumps(part.rows), []
        return rows, part

    return parse


def _batches_in_workers(
    path: Path, dtd: Path | None, report: DblpReport, workers: int
) -> Iterator[list[tuple[Any, ...]]]:
    """Parse chunks in worker processes while this one reads the dump and writes (mirror/workers.py);
    results in dump order. The workers are forked before the store's writer threads exist."""
    chunks = ((position, tuple(chunk)) for chunk, position in _chunks(path))
    parse = _chunk_parser(str(path), str(dtd) if dtd else None)
    try:
        for position, (rows, part) in ordered_map(parse, chunks, workers, passthrough=(DumpError,)):
            _merge(report, part)
            report.bytes_read = position
            yield marshal.loads(rows)
    except WorkerError as exc:
        raise DumpError(f"{path}: {exc}") from exc


def ingest_dblp(
    target: Path | str,
    dump: Path,
    dtd: Path | None,
    progress: Callable[[int, int, int], None] | None = None,
    parallel: bool | None = None,
    lock_wait: float | None = None,
    notify: Callable[[str], None] | None = None,
) -> DblpReport:
    """Rebuild the store at `target` with this dump's records; see the module docstring.

    `parallel` (default: for dumps over 1 MB) parses in worker processes, one per core.
    `lock_wait` / `notify`: how long the final copy-and-swap waits for another writer of the
    store (None: as long as it takes), and who hears whom it waits for (store/lock.py).
    """
    started = time.monotonic()
    report = DblpReport()
    size = dump.stat().st_size
    if parallel is None:
        parallel = size > 1_000_000
    if dtd is not None:
        check_dtd(dtd)
    workers = max(1, os.cpu_count() or 1)
    batches = _batches_in_workers(dump, dtd, report, workers) if parallel else _batches(dump, dtd, report, packed=True)

    def meta() -> dict[str, str]:
        report.dump_date = dump_date(dump, report.max_mdate)
        return {
            f"source_date:{SOURCE}": report.dump_date,
            f"complete:{SOURCE}": "1",  # DBLP indexes whole proceedings and volumes
            f"source_file:{SOURCE}": str(dump.resolve()),
        }

    def tick(written: int) -> None:
        if progress is not None:
            progress(written, report.bytes_read, size)

    done = rebuild_source(target, SOURCE, batches, meta, tick, lock_wait, notify)
    report.carried_over = done.carried_over
    report.finish_seconds = done.finish_seconds
    report.added = sum(report.by_type.values())
    report.seconds = time.monotonic() - started
    return report
