"""Ingest ACL Anthology XML (one file per collection, e.g. P18.xml) into the local store.

Layout: `<collection id="P18"><volume id="1"><meta><booktitle>...<year>...</meta>
<paper id="1"><title>..</title><author><first/><last/></author><pages/><doi/>
<url>P18-1001</url></paper>...`. Titles keep their text with the
`<fixed-case>` markup dropped. The record id is the Anthology id (the paper's
`url`, else `<collection>-<volume><paper:03d>`), the URL
https://aclanthology.org/<id>, the venue the short name of the collection's
letter (`data/acl_venues.tsv`; new-style volumes name it in `<venue>`), and
`venue_full` the volume's booktitle.

The anthology is small (about 100k papers), so records go through
`Store.upsert`: each batch is one transaction, re-running updates records by
key without duplicates, and a failure leaves every committed batch and the
rest of the store intact. The XML has no DTD: DOCTYPEs, entities and network
access are refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from lxml import etree

from citetracer.mirror.safexml import PROLOG_BYTES, DumpError, describe_failure, open_dump
from citetracer.normalize.text import canonical_doi, parse_year
from citetracer.records import Person, WorkRecord
from citetracer.store.api import StoreAPI

SOURCE = "acl"
MAX_FILE_BYTES = 200_000_000
MAX_FIELD_CHARS = 4_000


@dataclass
class AclReport:
    added: int = 0
    files: int = 0
    errors: list[str] = field(default_factory=list)


@lru_cache(maxsize=1)
def venue_names() -> dict[str, str]:
    """Collection letter (or new-style venue id) -> short venue name."""
    table: dict[str, str] = {}
    text = resources.files("citetracer.data").joinpath("acl_venues.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            key, name = line.split("\t")[:2]
            table[key.strip()] = name.strip()
    return table


def _text(elem: Any) -> str:
    if elem is None:
        return ""
    text = "".join(elem.itertext())[:MAX_FIELD_CHARS]
    return " ".join(text.split())


def _person(elem: Any) -> Person | None:
    first, last = _text(elem.find("first")), _text(elem.find("last"))
    if not last:
        return None
    return Person(given=first or None, family=last)


def _venue(collection: str, meta: Any) -> str | None:
    names = venue_names()
    named = _text(meta.find("venue")) if meta is not None else ""
    if named:
        return names.get(named.lower(), named.upper())
    letter = re.match(r"^([A-Z])\d", collection)
    return names.get(letter.group(1)) if letter else None


def records_of(path: Path, report: AclReport) -> Iterator[WorkRecord]:
    """Every paper of one collection file."""
    if path.stat().st_size > MAX_FILE_BYTES:
        raise DumpError(f"{path}: larger than {MAX_FILE_BYTES} bytes; not an Anthology collection file")
    stream, raw = open_dump(path)
    try:
        head = stream.read(PROLOG_BYTES)
    except (EOFError, OSError) as exc:
        raise describe_failure(exc, path, None) from exc
    finally:
        stream.close()
        raw.close()
    if b"<!DOCTYPE" in head:
        raise DumpError(f"{path}: ACL Anthology XML has no DOCTYPE; a DOCTYPE (and its entities) is refused")
    stream, raw = open_dump(path)
    parser = etree.iterparse(
        stream,
        events=("start", "end"),
        load_dtd=False,
        resolve_entities=False,
        no_network=True,
        huge_tree=False,
        remove_comments=True,
    )
    collection = path.stem.split(".")[0]
    meta: Any = None
    try:
        for event, elem in parser:
            tag = elem.tag
            if event == "start":
                if tag == "collection":
                    collection = elem.get("id") or collection
                elif tag == "volume":
                    meta = None
                continue
            if tag == "meta":
                meta = elem
            elif tag == "paper":
                record = _paper(elem, collection, meta)
                if record is not None:
                    yield record
                elem.clear(keep_tail=False)
            elif tag == "volume":
                elem.clear(keep_tail=False)
    except (EOFError, OSError, etree.XMLSyntaxError) as exc:
        raise describe_failure(exc, path, None) from exc
    finally:
        stream.close()
        raw.close()


def _paper(elem: Any, collection: str, meta: Any) -> WorkRecord | None:
    title = _text(elem.find("title"))
    if not title:
        return None
    volume = elem.getparent()
    volume_id = volume.get("id", "") if volume is not None else ""
    anthology_id = _text(elem.find("url"))
    if not re.match(r"^[A-Za-z0-9.\-]+$", anthology_id):
        anthology_id = f"{collection}-{volume_id}{int(elem.get('id', '0') or 0):03d}"
    authors = [p for p in (_person(a) for a in elem.findall("author")) if p]
    year = parse_year(_text(elem.find("year")) or (_text(meta.find("year")) if meta is not None else None))
    booktitle = _text(meta.find("booktitle")) if meta is not None else ""
    return WorkRecord(
        source=SOURCE,
        id=anthology_id,
        url=f"https://aclanthology.org/{anthology_id}",
        title=title,
        authors=authors,
        venue=_venue(collection, meta) or booktitle or None,
        venue_full=booktitle or None,
        year=year,
        doi=canonical_doi(_text(elem.find("doi")) or None),
        pages=_text(elem.find("pages")).replace("–", "-") or None,
        publisher=(_text(meta.find("publisher")) if meta is not None else "") or None,
        type="article" if collection.startswith(("J", "Q")) else "inproceedings",
    )


def collection_files(paths: list[Path]) -> list[Path]:
    """The XML files named, or found (not recursively) in the directories named."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(x for x in p.iterdir() if x.suffix == ".xml" or x.name.endswith(".xml.gz")))
        else:
            out.append(p)
    return out


def ingest_acl(store: StoreAPI, paths: list[Path]) -> AclReport:
    """Upsert every paper of these collection files; a bad file is reported and skipped."""
    report = AclReport()
    for path in collection_files(paths):
        try:
            report.added += store.upsert(records_of(path, report))
            report.files += 1
        except DumpError as exc:
            store.sync_index()  # batches committed before the error stay, and are indexed
            report.errors.append(str(exc))
    if report.files:
        store.set_source_date(SOURCE)
        store.set_source_complete(SOURCE)  # an Anthology volume file lists every paper of the volume
    return report
