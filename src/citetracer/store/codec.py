"""How a record is written into the store's `data` column: compact JSON, zlib with a preset dictionary.

Why: at DBLP scale (8M records) plain JSON rows (~350 bytes each) alone would
exceed the store's 3 GB budget. Short records compress poorly on their own,
so zlib is primed with a fixed dictionary of the field names and the words
that recur in bibliographic records; that roughly halves a typical row.
The dictionary is part of the on-disk format: never edit `_ZDICT_V1`; add a
new version byte and dictionary instead. Rows written as plain JSON text by
older stores are still read.
"""

from __future__ import annotations

import json
import zlib

from citetracer.normalize.names import surname_keys
from citetracer.records import WorkRecord
from citetracer.store.ranking import RankingFields

_V1 = b"\x01"
#: The first byte of a row's data written by `pack` (older rows are plain JSON text).
PACKED = _V1

_WORDS = (
    "Proceedings of the International Conference on Workshop Symposium Annual Meeting Journal Transactions "
    "IEEE ACM Computer Vision Pattern Recognition Neural Information Processing Systems Association for "
    "Computational Linguistics Artificial Intelligence Machine Learning Research Knowledge Data Mining "
    "Robust Efficient Automatic Dynamic Visual Human Estimation Structure Extraction Multiple Statistical "
    "Search Text Word Segmentation Tracking Object Classification Detection Semantic Information System "
    "Translation Language Models Model Image Analysis Recognition Approach Based Using Learning Networks "
    "Network Deep Graph Optimization Algorithm Algorithms Method Methods Framework Towards Toward Study "
    " for of and in the a A with to on from using by An via as through based "
)
_FIELDS = (
    '"variants":[{"source":"dblp","id":"journals/","url":"https://dblp.org/rec/journals/corr/abs-'
    '"publisher":"Springer","type":"article","venue":"CoRR","venue_full":"","arxiv_id":"'
    '"pages":"","volume":"","issue":"","doi":"10.1145/","doi":"10.1007/978-3-","doi":"10.1109/'
    '{"source":"dblp","id":"conf/","url":"https://dblp.org/rec/conf/","title":"","authors":[{"given":"'
    '","family":"'
    '"},{"given":"","family":""}],"type":"inproceedings","venue":"","year":20'
)
_ZDICT_V1 = (_WORDS + _FIELDS).encode()


#: Record URLs that follow from the source and id are not stored (a DBLP store saves ~20 bytes a row).
URL_TEMPLATES = {
    "dblp": "https://dblp.org/rec/{}",
    "acl": "https://aclanthology.org/{}",
    "arxiv": "https://arxiv.org/abs/{}",
    "openalex": "https://openalex.org/{}",
}


def record_json(record: WorkRecord) -> bytes:
    """The JSON kept for a record: source, id and a URL derived from them are not repeated (the key holds them)."""
    exclude = {"source", "id"}
    template = URL_TEMPLATES.get(record.source)
    if template and record.url == template.format(record.id):
        exclude.add("url")
    return record.model_dump_json(exclude=exclude, exclude_none=True, exclude_defaults=True).encode()


def encode(record: WorkRecord) -> bytes:
    return pack(record_json(record))


#: A compressor already primed with the dictionary; each record compresses with a copy of it
#: (same bytes as a fresh compressor, without re-hashing the dictionary every time).
_PRIMED = zlib.compressobj(6, zlib.DEFLATED, -12, 4, zdict=_ZDICT_V1)


def pack(json_bytes: bytes) -> bytes:
    """Compress one record's JSON (a 4 kB window and small hash tables: records are short, speed matters)."""
    packer = _PRIMED.copy()
    return _V1 + packer.compress(json_bytes) + packer.flush()


def decode(data: bytes | str, key: str) -> WorkRecord:
    """The record of a stored row (`key` is `source:id`; older rows also carry them in the JSON)."""
    obj = json.loads(decode_text(data))
    source, _, rec_id = key.partition(":")
    obj.setdefault("source", source)
    obj.setdefault("id", rec_id)
    if "url" not in obj and obj["source"] in URL_TEMPLATES:
        obj["url"] = URL_TEMPLATES[obj["source"]].format(obj["id"])
    return WorkRecord.model_validate(obj)


def with_volume(record: WorkRecord, volume_title: str | None, volume_data: bytes | str | None) -> WorkRecord:
    """`record` with what its crossref target (a proceedings volume) states for it: the volume's title as
    its venue's full name and the volume's publisher, where the record's own row names neither.

    Why: DBLP writes a proceedings paper's publisher only on the volume's record, and a publisher the
    citation states can be checked only against a record that holds one (judge/facts/details.py).
    """
    if volume_title and not record.venue_full:
        record.venue_full = volume_title
    if volume_data is not None and not record.publisher:
        volume = json.loads(decode_text(volume_data if isinstance(volume_data, str) else bytes(volume_data)))
        publisher = volume.get("publisher") if isinstance(volume, dict) else None
        if isinstance(publisher, str) and publisher.strip():
            record.publisher = publisher.strip()
    return record


def blob(data: bytes | memoryview | str) -> bytes:
    """A stored column's bytes as they come back: an older SQLite store's row may be plain JSON text, a
    newer one's compressed bytes (a memoryview from PostgreSQL)."""
    return data.encode() if isinstance(data, str) else bytes(data)


def decode_text(data: bytes | str) -> str | bytes:
    """The JSON of a stored row, whichever format wrote it."""
    if isinstance(data, str):
        return data
    if data[:1] == _V1:
        unpacker = zlib.decompressobj(wbits=-12, zdict=_ZDICT_V1)
        return unpacker.decompress(data[1:]) + unpacker.flush()
    return data


def ranking_fields_of(data: bytes | str, year: int | None) -> RankingFields:
    """Titles (first the record's, then its renderings'), surname keys and year of a stored row, for ranking.

    Read straight out of the row's JSON: much cheaper than building a record, and the
    same for every backend, so both rank the same candidates alike.
    """
    obj = json.loads(decode_text(data))
    titles = [obj.get("title")] + [v.get("title") for v in obj.get("variants") or ()]
    surnames: set[str] = set()
    for person in obj.get("authors") or ():
        if isinstance(person, dict) and isinstance(person.get("family"), str):
            surnames.update(surname_keys(person["family"]))
    return RankingFields(
        titles=[t for t in dict.fromkeys(titles) if isinstance(t, str) and t],
        surnames=frozenset(surnames),
        year=year if isinstance(year, int) else None,
    )
