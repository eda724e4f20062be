"""A reference manager's record (a RIS record, a CSL-JSON item) as a Reference.

Zotero, Mendeley and EndNote export RIS and CSL-JSON; both hold the author's own fields,
already split (a title, names as family and given, a year), so nothing is parsed out of
free text: the fields are cleaned (`clean_text`, `clean_title`) and the identifiers put
in canonical form, as the BibTeX reader does.

Why `raw` is written as a one-line BibTeX entry (`@article{key, title = {...}, ...}`):
the judge and the matcher tell structured input (the author's fields, to be compared as
written) from a string our parser cut up by a leading '@' (judge/facts/reading.py
`structured`, match/rules.py, normalize/kinds.py). A RIS or CSL record is structured
input in that sense, and its fields rendered as a BibTeX entry are also what a person
reads best under "reference as read"; the file's own text is kept by the `--fix` writers
(report/managedfix.py), which edit the file, not this rendering.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from citetracer.extract.fields.normalizers import clean_reference
from citetracer.normalize.text import arxiv_from_doi, canonical_arxiv, canonical_doi, clean_text, clean_title
from citetracer.records import Person, Reference

T = TypeVar("T")

#: Longest value kept of one field (as the BibTeX reader's cap): no real field needs more.
MAX_VALUE_CHARS = 20_000
#: Most names kept of one author list (a consortium paper lists a few thousand; hostile input, millions).
MAX_NAMES = 5_000


@dataclass
class ManagedRecord:
    """The fields of one record as its manager exported them, before cleaning."""

    #: BibTeX's entry type for the record's kind (article, inproceedings, book, phdthesis, misc, ...).
    type: str
    label: str
    title: str | None = None
    authors: list[Person] = field(default_factory=list)
    et_al: bool = False
    venue: str | None = None
    year: int | None = None
    doi: str | None = None
    url: str | None = None
    pages: str | None = None
    volume: str | None = None
    issue: str | None = None
    publisher: str | None = None
    location: str | None = None
    arxiv: str | None = None


def bounded(value: object) -> str | None:
    """A field's text, trimmed and capped, or None when empty."""
    if value is None:
        return None
    text = " ".join(str(value).split())[:MAX_VALUE_CHARS]
    return text or None


def unique_labels(labels: list[str]) -> list[str]:
    """Labels made unique by their position ('12', '12-2'): a report's ids, and what `--fix` finds records by."""
    seen: set[str] = set()
    out: list[str] = []
    for i, label in enumerate(labels, 1):
        unique = label if label not in seen else f"{label}-{i}"
        seen.add(unique)
        out.append(unique)
    return out


def labelled(
    items: list[T], label_of: Callable[[T, int], str], reference: Callable[[T, str], Reference], what: str
) -> tuple[list[Reference], list[str]]:
    """The references of a reference manager's records, each under a label unique in the file, and a warning
    naming the records without a title (they are still read: the judge says what they lack)."""
    labels = unique_labels([label_of(item, i) for i, item in enumerate(items, 1)])
    refs = [reference(item, label) for item, label in zip(items, labels, strict=True)]
    untitled = [label for label, ref in zip(labels, refs, strict=True) if not ref.title]
    warnings = [f"{len(untitled)} {what} have no title: {', '.join(untitled[:5])}"] if untitled else []
    return refs, warnings


def to_reference(r: ManagedRecord) -> Reference:
    """The Reference of a manager's record, with `raw` as a one-line BibTeX entry (the module docstring says why)."""
    doi = canonical_doi(r.doi) or (canonical_doi(r.url) if r.url and "doi.org/" in r.url else None)
    arxiv = (
        canonical_arxiv(r.arxiv)
        or arxiv_from_doi(doi)
        or (canonical_arxiv(r.url) if r.url and "arxiv.org" in r.url else None)
        or (canonical_arxiv(r.venue) if r.venue and "arxiv" in r.venue.lower() else None)
    )
    title = clean_title(clean_text(r.title)) if r.title else None
    pages = r.pages.replace("--", "-") if r.pages else None
    reference = Reference(
        raw=bibtex_line(r, title, pages),
        title=title or None,
        authors=r.authors[:MAX_NAMES],
        et_al=r.et_al or len(r.authors) > MAX_NAMES,
        venue=r.venue,
        year=r.year,
        doi=doi,
        arxiv_id=arxiv,
        pages=pages,
        volume=r.volume,
        issue=r.issue,
        publisher=r.publisher,
        location=r.location,
        url=r.url,
        type=r.type,
        label=r.label,
    )
    return clean_reference(reference)


_VENUE_FIELD = {"article": "journal", "inproceedings": "booktitle", "incollection": "booktitle"}


def bibtex_line(r: ManagedRecord, title: str | None, pages: str | None) -> str:
    """The record's fields as one BibTeX entry on one line, braces in values dropped (display only)."""
    names = [p.family + (f", {p.given}" if p.given else "") for p in r.authors[:50]]
    if r.et_al or len(r.authors) > 50:
        names.append("others")
    fields = [
        ("author", " and ".join(names)),
        ("title", title),
        (_VENUE_FIELD.get(r.type, "howpublished"), r.venue),
        ("year", str(r.year) if r.year else None),
        ("volume", r.volume),
        ("number", r.issue),
        ("pages", pages),
        ("publisher", r.publisher),
        ("address", r.location),
        ("doi", r.doi),
        ("eprint", r.arxiv),
        ("url", r.url),
    ]
    body = ", ".join(f"{k} = {{{v.replace('{', '').replace('}', '')}}}" for k, v in fields if v)
    key = "".join(ch for ch in r.label if ch not in "{}, \t\n")[:200]
    return f"@{r.type}{{{key}, {body}}}"[:4000]
