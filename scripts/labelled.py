"""Reference strings labelled by field: the anystyle XML and GROBID TEI training/evaluation layouts.

A training reader, beside the trainer that uses it (train_parser.py) and outside the installed package: nothing
that reads a paper imports it. bench/parser.py and the tests put scripts/ on sys.path to import it.

Both layouts are read into one shape, a `LabelledString`: the reference text as a
reader would see it and its parts in order, each part a field of the CRF's label
set (extract/fields/crf.py LABELS) or "other". The same reading serves the CRF training
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

Held-out splits (`held_out_folds`) follow the sets' own grouping so that a
test fold never shares a reference list with its training folds: the TEI file
names each source document in a comment before its references (`source`);
the anystyle files carry no grouping, so their folds are contiguous blocks in
file order (strings of one list sit together in core.xml: adjacent strings
share their sequence of field tags 5x more often than random pairs, 0.075 vs
0.015; in good, ugly and bad.xml adjacent and random pairs agree alike, 0.079
vs 0.067, 0.007 vs 0.007, 0.022 vs 0.022: those files look shuffled). The sets also
repeat one another (237 of bad.xml's 368 strings are in the TEI set, 252
core.xml strings are in good.xml): `dedupe_key` finds those copies so that a
held-out string's copy in another set is never trained on.

Files are parsed with lxml, network access and entity expansion off; a file is
read only up to `MAX_BYTES`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
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
    """One reference string as (label, text) parts in reading order; `text` is their concatenation. `source`
    names the reference list it comes from when the file says so (TEI), else it is empty."""

    parts: tuple[tuple[str, str], ...]
    source: str = ""

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
    """The <bibl> elements of a TEI file (or of a corpus of them); each carries the name of its source document:
    the comment GROBID's training corpus puts before each file's references, else the position of the
    top-level element it sits in."""
    out = []
    root = _parse(path)
    source = ""
    for k, top in enumerate(root):
        if isinstance(top, etree._Comment):
            source = (top.text or "").strip()
            continue
        group = source or f"#{k}"
        tops = [top] if top.tag in (f"{TEI}bibl", "bibl") else top.iter(f"{TEI}bibl", "bibl")
        for bibl in tops:
            if any(a.tag in (f"{TEI}bibl", "bibl") for a in bibl.iterancestors() if a is not root):
                continue  # a nested <bibl> is read as part of its parent
            has_article = any(t.get("level") == "a" for t in bibl.iter(f"{TEI}title", "title"))
            parts: list[tuple[str, str]] = []
            _walk(bibl, "other", has_article, parts)
            merged = _collapse(parts)
            if merged:
                out.append(LabelledString(merged, group))
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


#: The labelled sets under ../shared/data/refstrings: (name, file, reader). anystyle's "ugly" and "bad" sets are
#: messy on purpose: bad.xml holds strings anystyle mislabels (its own labels are often sloppy: "1998;71:" as the
#: volume, a list number inside the authors, a publisher inside the title).
SETS: tuple[tuple[str, str, Callable[[Path], list[LabelledString]]], ...] = (
    ("core", "anystyle-core.xml", read_anystyle),
    ("good", "anystyle-good.xml", read_anystyle),
    ("ugly", "anystyle-ugly.xml", read_anystyle),
    ("bad", "anystyle-bad.xml", read_anystyle),
    ("grobid", "grobid-citations.tei.xml", read_tei),
)


def read_sets(directory: Path) -> dict[str, list[LabelledString]]:
    """The labelled sets present in `directory`, by name, in SETS order."""
    return {name: reader(directory / file) for name, file, reader in SETS if (directory / file).is_file()}


def dedupe_key(item: LabelledString) -> str:
    """Letters and digits of the string, lower-cased: two sets' copies of one reference share it."""
    return re.sub(r"\W+", "", item.text.lower())


def title_key(item: LabelledString) -> str | None:
    """The gold title's letters and digits when it is long enough to name one work (30 characters)."""
    key = re.sub(r"\W+", "", (item.first("title") or "").lower())
    return key if len(key) >= 30 else None


def held_out_folds(items: list[LabelledString], k: int) -> list[list[int]]:
    """`k` disjoint test folds (item indices) that never split a source list: items that name their source are
    grouped by it and the groups dealt largest first to the smallest fold (file order breaks ties); items
    without one are cut into `k` contiguous blocks in file order. Deterministic."""
    folds: list[list[int]] = [[] for _ in range(k)]
    groups: dict[str, list[int]] = {}
    loose: list[int] = []
    for i, it in enumerate(items):
        if it.source:
            groups.setdefault(it.source, []).append(i)
        else:
            loose.append(i)
    for members in sorted(groups.values(), key=lambda g: (-len(g), g[0])):
        smallest = min(range(k), key=lambda f: (len(folds[f]), f))
        folds[smallest].extend(members)
    for f in range(k):
        folds[f].extend(loose[len(loose) * f // k : len(loose) * (f + 1) // k])
    return [sorted(f) for f in folds]


def copies_of(test: Iterable[LabelledString]) -> Callable[[LabelledString], bool]:
    """A test for "this string, or one citing the same long title, is among `test`": training drops those."""
    texts: set[str] = set()
    titles: set[str] = set()
    for it in test:
        texts.add(dedupe_key(it))
        t = title_key(it)
        if t:
            titles.add(t)

    def is_copy(item: LabelledString) -> bool:
        t = title_key(item)
        return dedupe_key(item) in texts or (t is not None and t in titles)

    return is_copy
