"""CSL-JSON, as Zotero ("CSL JSON"), Mendeley and Better BibTeX export it: a JSON array of items.

An item is the Citation Style Language's record of a work (citationstyles.org, CSL-JSON
schema): `type` (article-journal, paper-conference, chapter, book, thesis, report,
webpage, software, dataset, ...), `title`, `author` and `editor` as lists of
`{family, given}` (with `non-dropping-particle`, `suffix`) or `{literal}`, `issued` as
`{"date-parts": [[2016, 6, 1]]}` (or `{"raw": "2016-06"}`, `{"literal": ...}`),
`container-title` (a journal, a proceedings or a book; Crossref's CSL gives a list),
`event-title` / `event` (a conference), `page`, `volume`, `issue`, `publisher`,
`publisher-place`, `event-place`, `DOI`, `URL` and an `id`, which labels the citation.
"""

from __future__ import annotations

import json
from typing import Any

from citetracer.extract.readers.managed import MAX_NAMES, ManagedRecord, bounded, labelled, to_reference
from citetracer.normalize.text import parse_year
from citetracer.records import Person, Reference

#: CSL types -> BibTeX entry types (what the judge reads a work's kind from: normalize/kinds.py).
TYPES = {
    **dict.fromkeys(("article-journal", "article-magazine", "article-newspaper", "review", "review-book"), "article"),
    "paper-conference": "inproceedings",
    **dict.fromkeys(("chapter", "entry-encyclopedia", "entry-dictionary", "entry"), "incollection"),
    **dict.fromkeys(("book", "classic"), "book"),
    "thesis": "phdthesis",
    "report": "techreport",
    **dict.fromkeys(("webpage", "post", "post-weblog"), "online"),
    "software": "software",
    "dataset": "dataset",
    "standard": "standard",
    "manuscript": "unpublished",
}
#: The keys an object must have some of to be taken for a CSL item (and a JSON array for a CSL library).
ITEM_KEYS = frozenset({"type", "title", "author", "issued", "container-title", "DOI", "URL"})


def looks_like_csl(text: str) -> bool:
    """Whether the text is a JSON array whose first element is an object (a CSL-JSON library's start)."""
    head = text.lstrip("\ufeff \t\r\n")
    return head.startswith("[") and head[1:].lstrip(" \t\r\n").startswith(("{", "]"))


def _text(value: Any) -> str | None:
    """A field's text: a string or number as it is, a list's first string (Crossref's container-title)."""
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str | int | float)), None)
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    return bounded(value)


def _person(name: Any) -> Person | None:
    if not isinstance(name, dict):
        return None
    literal = _text(name.get("literal"))
    family = _text(name.get("family"))
    particle = _text(name.get("non-dropping-particle"))
    if family and particle:
        family = f"{particle} {family}"
    if not family:
        return Person(family=literal) if literal else None
    given = _text(name.get("given"))
    dropping = _text(name.get("dropping-particle"))
    if given and dropping:
        given = f"{given} {dropping}"
    return Person(given=given, family=family)


def _people(value: Any) -> list[Person]:
    if not isinstance(value, list):
        return []
    return [p for name in value[:MAX_NAMES] if (p := _person(name)) is not None]


def _year(issued: Any) -> int | None:
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return parse_year(_text(parts[0][0]))
        return parse_year(_text(issued.get("raw")) or _text(issued.get("literal")))
    return parse_year(_text(issued))


def _event(item: dict[str, Any]) -> str | None:
    event = item.get("event")
    if isinstance(event, dict):  # CSL 1.0.2's event object
        event = event.get("name")
    return _text(item.get("event-title")) or _text(event)


def item_label(item: dict[str, Any], position: int) -> str:
    """The item's label in the report: its `id`, else its position (1-based)."""
    own = _text(item.get("id"))
    return own[:100] if own else str(position)


def csl_reference(item: dict[str, Any], label: str) -> Reference:
    """The Reference of one CSL item."""
    kind = TYPES.get(str(item.get("type") or "").strip(), "misc")
    authors = _people(item.get("author")) or _people(item.get("editor"))
    venue = _text(item.get("container-title"))
    if not venue and kind in ("inproceedings", "misc"):
        venue = _event(item)
    if not venue and kind == "incollection":
        venue = _text(item.get("collection-title"))
    place = _text(item.get("event-place")) if kind == "inproceedings" else None
    return to_reference(
        ManagedRecord(
            type=kind,
            label=label,
            title=_text(item.get("title")),
            authors=authors,
            et_al=isinstance(item.get("author"), list) and len(item["author"]) > MAX_NAMES,
            venue=venue,
            year=_year(item.get("issued")),
            doi=_text(item.get("DOI")),
            url=_text(item.get("URL")),
            pages=_text(item.get("page")),
            volume=_text(item.get("volume")),
            issue=_text(item.get("issue")),
            publisher=_text(item.get("publisher")),
            location=place or _text(item.get("publisher-place")) or _text(item.get("event-place")),
        )
    )


def load_items(text: str, limit: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The items of a CSL-JSON text (at most `limit`) and the warnings; ValueError when it is not CSL-JSON."""
    try:
        data = json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    return csl_items(data, limit)


def csl_items(data: Any, limit: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The items of a parsed CSL-JSON library (the array's own objects, at most `limit`) and the warnings."""
    if not isinstance(data, list):
        raise ValueError("not a CSL-JSON library (a JSON array of items)")
    warnings: list[str] = []
    items: list[dict[str, Any]] = []
    skipped = 0
    for value in data:
        if isinstance(value, dict) and ITEM_KEYS & value.keys():
            items.append(value)
        else:
            skipped += 1
    if skipped:
        warnings.append(f"{skipped} elements of the array are not CSL items (objects with a type, title, ...); skipped")
    if len(items) > limit:
        warnings.append(f"{len(items):,} CSL items; only the first {limit:,} were read")
        items = items[:limit]
    return items, warnings


def read_csl_references(text: str, limit: int) -> tuple[list[Reference], list[str]]:
    """References of a CSL-JSON library and the warnings; ValueError when it is not one."""
    items, warnings = load_items(text, limit)
    refs, more = labelled(items, item_label, csl_reference, "CSL items")
    return refs, warnings + more
