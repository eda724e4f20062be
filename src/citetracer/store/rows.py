"""A record ready to be written into either backend: its columns, its JSON, and what the index needs.

Mirror parsers produce rows directly (cheaper than building a WorkRecord per record at
DBLP scale, and picklable between processes); any WorkRecord becomes one with
`row_from_record`. The SQLite bulk builder (bulk.py) and the PostgreSQL store (pg.py)
both take rows, so a mirror is written the same way into either.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from citetracer.normalize.text import canonical_arxiv, canonical_doi
from citetracer.records import WorkRecord
from citetracer.store.codec import record_json
from citetracer.store.common import indexed_work, venue_key
from citetracer.store.ranking import index_text


class Row(NamedTuple):
    """One record as the store writes it (see the module docstring)."""

    key: str
    source: str
    type: str | None
    doi: str | None
    arxiv: str | None
    year: int | None
    venue_key: str | None
    json: bytes
    xref: str | None
    titles: tuple[str, ...]
    surnames: tuple[str, ...]
    #: Set when other records cross-reference this one (a proceedings volume): its title names their venue.
    xref_title: str | None = None
    #: `json` is already compressed for the store (`codec.pack`; done by the parser processes at DBLP scale).
    packed: bool = False


def row_from_record(record: WorkRecord, xref: str | None = None) -> Row:
    doi = canonical_doi(record.doi) if record.doi else None
    work = indexed_work(0, record)
    return Row(
        key=f"{record.source}:{record.id}",
        source=record.source,
        type=record.type,
        doi=doi,
        arxiv=canonical_arxiv(record.arxiv_id) if record.arxiv_id else None,
        year=record.year,
        venue_key=venue_key(record.venue) or venue_key(record.venue_full),
        json=record_json(record),
        xref=xref,
        titles=tuple(index_text(t) for t in work.titles),
        surnames=tuple(work.surnames),
    )


def present(**fields: Any) -> dict[str, Any]:
    """The fields that have a value: what a mirror writes into a row's JSON (absent fields take no bytes)."""
    return {name: value for name, value in fields.items() if value}
