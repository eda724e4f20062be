"""Deterministic field parser for one reference string (any common style).

Identifiers (DOI, arXiv id, URL) and the year are found by pattern; the
remaining text is split into sentence-like segments, the author segment is
recognised by its name shapes, the title is the quoted segment or the one
after the authors, and the venue is what follows the title.
"""

from __future__ import annotations

import re

from citetracer.match.names import parse_person
from citetracer.match.normalize import arxiv_from_doi, canonical_arxiv, canonical_doi, clean_title, latex_to_text
from citetracer.records import Person, Reference

_DOI = re.compile(
    r"(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?(10\.\d{4,9}/(?:[^\s,;\"<>]|<[^\s<>]{1,40}>)+)", re.IGNORECASE
)
_ARXIV = re.compile(
    r"(?:arXiv(?:\s+preprint)?\s*:?\s*|arxiv\.org/(?:abs|pdf)/)([a-z\-]+(?:\.[A-Z]{2})?/\d{7}|\d{4}\.\d{4,5})(v\d+)?",
    re.IGNORECASE,
)
_URL = re.compile(r"https?://[^\s<>\"]+")
_YEAR_PAREN = re.compile(r"\((?:[A-Za-z]+\.?\s+)?((?:19|20)\d\d)[a-z]?\)")
_YEAR_BARE = re.compile(r"(?<![\d/.\-])((?:19|20)\d\d)[a-z]?(?![\d/\-])")
_LABEL = re.compile(r"^\s*(?:\[[^\]]{1,20}\]|\(\d{1,4}\)|\d{1,4}\.(?=\s)|\d{1,4}\s)\s*")
_QUOTED = re.compile(r"[\"“”„]([^\"“”„]{8,}?)[,.]?[\"“”]")
_ET_AL = re.compile(r"\bet\.?\s*al\.?", re.IGNORECASE)
_PAGES = re.compile(r"\b(?:pp?\.\s*)?(\d{1,6})\s*[-–—]{1,2}\s*(\d{1,6})\b")
_VOLUME = re.compile(r"\b(?:vol(?:ume)?\.?\s*)(\d+)|\b(\d{1,4})\s*\((\d{1,4}(?:[-–]\d{1,4})?)\)")
_IN_VENUE = re.compile(r"^\s*(?:In:?\s+)(?:Proceedings of\s+(?:the\s+)?)?", re.IGNORECASE)
_NAME_TOKEN = re.compile(r"^(?:[A-Z][A-Za-z'\-]*|[A-Z]\.(?:\s?-?[A-Z]\.)*|van|von|de|der|da|di|del|la|le)$")


def _split_authors(segment: str) -> tuple[list[Person], bool]:
    segment = segment.strip().rstrip(".,;:")
    et_al = bool(_ET_AL.search(segment))
    segment = _ET_AL.sub("", segment).strip().rstrip(",")
    segment = re.sub(r",?\s*(?:and|&)\s+", ", ", segment)
    pieces = [p.strip() for p in segment.split(",") if p.strip()]
    people: list[Person] = []
    i = 0
    while i < len(pieces):
        piece = pieces[i]
        nxt = pieces[i + 1] if i + 1 < len(pieces) else None
        # "Last, F." pairs: a single word followed by initials.
        if (
            nxt
            and " " not in piece
            and re.fullmatch(r"(?:[A-Z]\.?\s?-?)+|[A-Z][a-z]+(?:\s[A-Z]\.?)*", nxt)
            and re.fullmatch(r"[A-Z]", nxt[0])
        ):
            if re.fullmatch(r"(?:[A-Z]\.?\s?-?){1,4}", nxt):
                person = parse_person(f"{piece}, {nxt}")
                if person:
                    people.append(person)
                i += 2
                continue
        # "Last F" (Vancouver): family then initials without dots.
        m = re.fullmatch(r"([A-Z][\w'\-]+(?:\s[a-z]+\s[A-Z][\w'\-]+)?)\s([A-Z]{1,3})", piece)
        if m:
            people.append(Person(given=" ".join(m.group(2)), family=m.group(1)))
        else:
            person = parse_person(piece)
            if person:
                people.append(person)
        i += 1
    return people, et_al


def _looks_like_authors(segment: str) -> bool:
    words = re.sub(r"[,;&]|\band\b|\bet\.?\s*al\.?", " ", segment).split()
    if not words or len(words) > 60:
        return False
    namelike = sum(1 for w in words if _NAME_TOKEN.match(w.strip(".")) or re.fullmatch(r"[A-Z]\.", w))
    return namelike / len(words) >= 0.8


def parse_reference_string(raw: str) -> Reference:
    """Fields of one reference string; unknown fields stay None."""
    text = latex_to_text(raw) if "\\" in raw or "{" in raw else raw
    text = re.sub(r"\s+", " ", text).strip()
    text = _LABEL.sub("", text, count=1)
    work = text

    doi = None
    m = _DOI.search(work)
    if m:
        doi = canonical_doi(m.group(1))
        work = work[: m.start()] + work[m.end() :]
    arxiv = None
    m = _ARXIV.search(work)
    if m:
        arxiv = canonical_arxiv(m.group(1))
    arxiv = arxiv or arxiv_from_doi(doi)
    url = None
    m = _URL.search(work)
    if m:
        url = m.group(0).rstrip(".,;)")
        work = work[: m.start()] + work[m.end() :]

    year = None
    ym = _YEAR_PAREN.search(work) or _YEAR_BARE.search(work)
    if ym:
        year = int(ym.group(1))

    title = None
    authors: list[Person] = []
    et_al = False
    venue = None
    q = _QUOTED.search(work)
    if q:
        title = q.group(1)
        authors, et_al = _split_authors(
            work[: q.start()].replace(ym.group(0) if ym and ym.start() < q.start() else "", "")
        )
        venue_part = work[q.end() :]
    else:
        # Author-year styles: "Authors (2020). Title. Venue" or "Authors. 2020. Title. Venue."
        if ym and ym.start() < len(work) * 0.6 and _looks_like_authors(work[: ym.start()].strip(" .,(")):
            authors, et_al = _split_authors(work[: ym.start()].strip(" .,("))
            rest = work[ym.end() :].lstrip(" .,):")
        else:
            segments = re.split(r"(?<=[a-z0-9\)\]?!])\.\s+(?=[A-Z\"“])", work)
            if len(segments) >= 2 and _looks_like_authors(segments[0]):
                authors, et_al = _split_authors(segments[0])
                rest = work[len(segments[0]) :].lstrip(" .")
            else:
                rest = work
        parts = re.split(r"(?<=[a-z0-9\)\]?!])[.?!]\s+", rest, maxsplit=1)
        title = parts[0]
        venue_part = parts[1] if len(parts) > 1 else ""
    venue_part = _IN_VENUE.sub("", venue_part.strip(" .,"))
    if venue_part:
        venue = re.split(r",\s*(?:vol|pp|pages|\d)|\(\s*\d{4}|\.\s|,\s*(?:19|20)\d\d", venue_part, maxsplit=1)[0].strip(
            " .,"
        )
        venue = venue or None
    pages = None
    pm = _PAGES.search(venue_part) if venue_part else None
    if pm:
        pages = f"{pm.group(1)}-{pm.group(2)}"
    volume = issue = None
    vm = _VOLUME.search(venue_part) if venue_part else None
    if vm:
        volume = vm.group(1) or vm.group(2)
        issue = vm.group(3)
    if title:
        title = clean_title(title.strip(' ,."“”'))
    return Reference(
        raw=raw.strip(),
        title=title or None,
        authors=authors,
        et_al=et_al,
        venue=venue,
        year=year,
        doi=doi,
        arxiv_id=arxiv,
        pages=pages,
        volume=volume,
        issue=issue,
        url=url,
    )
