"""Reference strings labelled by field: the anystyle XML and GROBID TEI training/evaluation layouts.

Both layouts are read into one shape, a `LabelledString`: the reference text as a
reader would see it and its parts in order, each part a field of the CRF's label
set (extract/crf.py LABELS) or "other". The same reading serves the CRF training
script (token labels) and bench/parser.py (gold field values), so the labels a
model learns and the values it is scored on follow one convention:

- anystyle: <author> author; <editor>, <translator>, <director>, <producer>
  editor; <title> title; <container-title>, <journal> container; <date> year;
  <volume>, <pages>, <publisher>, <location>, <doi>, <url>, <edition>,
  <genre>, <note> themselves; <medium> genre; <collection-title> collection;
  the leading <citation-number> is dropped (the parser strips list labels
  first); everything else other. Parts are joined with one space.
- TEI: <author> author; <editor> editor; <title level="a"> title,
  <title level="m"> title when there is no level="a" title (a book) and
  container when there is (a chapter's book); <title level="j"> container;
  <title level="s"> collection (a series); <date> year; <biblScope> volume /
  issue / pages by its type or unit; <publisher>, <pubPlace> location;
  <idno type="DOI"> doi; <ptr> url; <note> note; text between elements
  other. Whitespace is collapsed.

Edition statements, genres ("PhD thesis", "[Motion picture]"), notes and
series keep labels of their own rather than joining "other": each sits at a
typical place after the title, and one heterogeneous "other" class hid that
(anystyle venue F1 0.804 -> 0.814 over 5 held-out folds, title unchanged).

Files are parsed with lxml, network access and entity expansion off; a file is
read only up to `MAX_BYTES`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

MAX_BYTES = 50_000_000
TEI = "{http://www.tei-c.org/ns/1.0}"

_ANYSTYLE = {
    "author": "author",
    "editor": "editor",
    "translator": "editor",
    "director": "editor",
    "producer": "editor",
    "title": "title",
    "container-title": "container",
    "journal": "container",
    "date": "year",
    "volume": "volume",
    "pages": "pages",
    "publisher": "publisher",
    "location": "location",
    "doi": "doi",
    "url": "url",
    "edition": "edition",
    "genre": "genre",
    "medium": "genre",
    "note": "note",
    "collection-title": "collection",
}
_SCOPE = {"vol": "volume", "volume": "volume", "issue": "issue", "pp": "pages", "page": "pages", "pages": "pages"}


@dataclass(frozen=True)
class LabelledString:
    """One reference string as (label, text) parts in reading order; `text` is their concatenation."""

    parts: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        return "".join(t for _, t in self.parts)

    def char_labels(self) -> list[str]:
        return [label for label, t in self.parts for _ in t]

    def first(self, label: str) -> str | None:
        return next((t.strip() for lab, t in self.parts if lab == label and t.strip()), None)

    def all(self, label: str) -> list[str]:
        return [t.strip() for lab, t in self.parts if lab == label and t.strip()]


def _parse(path: Path) -> etree._Element:
    with path.open("rb") as fh:
        data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"{path}: larger than {MAX_BYTES} bytes")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, recover=True)
    return etree.fromstring(data, parser)


def read_anystyle(path: Path) -> list[LabelledString]:
    out = []
    for seq in _parse(path).iter("sequence"):
        parts: list[tuple[str, str]] = []
        for el in seq:
            text = re.sub(r"\s+", " ", el.text or "").strip()
            if not text or (el.tag == "citation-number" and not parts):
                continue
            if parts:
                parts.append(("other", " "))
            parts.append((_ANYSTYLE.get(str(el.tag), "other"), text))
        if parts:
            out.append(LabelledString(tuple(parts)))
    return out


def read_tei(path: Path) -> list[LabelledString]:
    out = []
    for bibl in _parse(path).iter(f"{TEI}bibl", "bibl"):
        if any(a.tag in (f"{TEI}bibl", "bibl") for a in bibl.iterancestors()):
            continue  # a nested <bibl> is read as part of its parent
        has_article = any(t.get("level") == "a" for t in bibl.iter(f"{TEI}title", "title"))
        parts: list[tuple[str, str]] = []
        _walk(bibl, "other", has_article, parts)
        merged = _collapse(parts)
        if merged:
            out.append(LabelledString(merged))
    return out


def _tei_label(el: etree._Element, inherited: str, has_article: bool) -> str:
    if not isinstance(el.tag, str):
        return inherited
    tag = el.tag.removeprefix(TEI)
    if tag == "author":
        return "author"
    if tag == "editor":
        return "editor"
    if tag == "title":
        level = el.get("level")
        if level == "a":
            return "title"
        if level == "m":
            return "container" if has_article else "title"
        if level == "j":
            return "container"
        if level == "s":
            return "collection"
        return "other"
    if tag == "date":
        return "year"
    if tag == "biblScope":
        return _SCOPE.get(el.get("type") or el.get("unit") or "", "other")
    if tag == "publisher":
        return "publisher"
    if tag == "pubPlace":
        return "location"
    if tag == "idno":
        return "doi" if (el.get("type") or "").lower() == "doi" else "other"
    if tag == "ptr":
        return "url"
    if tag == "note":
        return "note"
    return inherited


def _walk(el: etree._Element, inherited: str, has_article: bool, out: list[tuple[str, str]]) -> None:
    label = _tei_label(el, inherited, has_article)
    if el.text and isinstance(el.tag, str):
        out.append((label, el.text))
    for child in el:
        _walk(child, label, has_article, out)
        if child.tail:
            out.append((label, child.tail))


def _collapse(parts: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Whitespace collapsed across part boundaries; the string's ends trimmed; empty parts dropped."""
    out: list[tuple[str, str]] = []
    prev_space = True
    for label, text in parts:
        text = re.sub(r"\s+", " ", text)
        if prev_space:
            text = text.lstrip(" ")
        if not text:
            continue
        prev_space = text.endswith(" ")
        out.append((label, text))
    while out and out[-1][1].endswith(" "):
        label, text = out.pop()
        if text.rstrip():
            out.append((label, text.rstrip()))
            break
    return tuple(out)
