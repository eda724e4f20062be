"""Reading facts: what the reference's own text says about how far its parsed fields can be trusted.

A reference read from free text (a PDF, a .bbl, a plain list) was cut into fields by our own
parser, which can misread it: two references run together, a reference that starts mid-sentence
after a page break, a line number inside a title, a venue or a year the parser took from another
part of the string. A field the author wrote as a field (BibTeX, JSON) is what the author wrote:
the excuses made here for text we parsed ourselves never apply to it (DESIGN.md, "Every stated
field is compared").
"""

from __future__ import annotations

import re

from citetracer.data import lexicon
from citetracer.normalize.names import particles, surname_keys
from citetracer.normalize.text import title_words
from citetracer.records import Candidate, Reference

_LABEL = re.compile(r"(?:^|\s)\[\d{1,4}\](?=\s)")
ET_AL = re.compile(r"\bet\.?\s*al\b|\band\s+others\b", re.IGNORECASE)
#: Words that do not make a title specific to one work (data/lexicon/title-stop.txt).
_TITLE_STOP = lexicon.words("title-stop")


def content_words(title: str | None) -> list[str]:
    """A title's words without the stop words that make no title specific."""
    return [w for w in title_words(title or "") if w not in _TITLE_STOP]


def structured(ref: Reference) -> bool:
    """Whether the reference's fields are the author's own (a BibTeX entry, a JSON record), not cut
    from free text by our parser."""
    raw = ref.raw
    return raw is None or raw.lstrip().startswith("@")


def raw_words(ref: Reference) -> str:
    """The reference's own text, folded to words with a space at each end, when it was read from free
    text; "" for structured input."""
    return "" if structured(ref) else f" {' '.join(title_words(ref.raw or ''))} "


#: What follows a DOI cut by a line break in a PDF's text: one space, then more of its suffix (letters
#: and digits or an underscore together: "10.1207/s15516709c og2703_8"), not a year, a page or a word.
_DOI_TAIL = re.compile(r"\s(?=[\w./;()-]*[a-z])(?=[\w./;()-]*[\d_])[\w./;()-]+", re.IGNORECASE)


def doi_cut(ref: Reference, doi: str) -> bool:
    """Whether the reference's own text shows its DOI may be cut short: the text runs on after it, past a
    space, with more characters of a DOI's suffix (a line break inside the DOI). A lookup of the cut DOI
    then says nothing of the cited one."""
    if structured(ref):
        return False
    raw = ref.raw or ""
    at = raw.lower().find(doi.lower())
    return at >= 0 and bool(_DOI_TAIL.match(raw, at + len(doi)))


def not_a_citation(ref: Reference) -> str | None:
    """Why the reference does not look like a citation at all (a table row, an equation), or None."""
    if len(content_words(ref.title)) < 2:
        return "the reference has no title of two or more words to check"
    if not ref.authors and not ref.venue and not ref.doi and not ref.arxiv_id:
        return "the reference names neither authors nor a venue"
    return None


def text_trouble(ref: Reference) -> str | None:
    """Why the reference's own text shows that its parsed author list cannot be trusted, or None."""
    if structured(ref):
        return None
    raw = ref.raw or ""
    if len(_LABEL.findall(f" {raw} ")) >= 2:
        return "the reference's text holds two numbered references run together"
    head = raw.lstrip()
    first = head.split(" ", 1)[0].lower()
    if (head[:1].islower() and first not in particles()) or first in ("and", "&"):
        return "the reference's text starts mid-sentence (its beginning is elsewhere, e.g. before a page break)"
    return None


#: A label that opens a note, not a title ("Comment: A previous version ...", "URL https://...").
_NOTE_LABEL = re.compile(r"^\s*(comment|note|notes|url|available|accessed|retrieved|see|in)\b[:\s]", re.I)
#: Two fields run together inside a parsed title: a sentence ends ("... Mark van der Wilk. Learning ...").
_SENTENCE_BREAK = re.compile(r"\b[^\W\d_]{3,}\.\s+[A-Z]")
#: Words a title may hold that are not capitalised name parts.
_LOWER_OK = lexicon.words("name-lower")
#: A word no person is named: an English abstract noun's ending after four letters or more
#: ("Aggregation", "Robustness", "Complexity", "Methodology", "Analysis"). Endings that names share are left
#: out: "-ence" (Lawrence, Florence), "-ance" (Constance), "-ing" (Manning, Fleming), "-ment" under eight (Clement).
#: Participles and adjectives are of the same kind ("Motivated", "Regularized", "Theoretical"): no name ends so.
_NOMINAL = re.compile(r"^[^\W\d_]{4,}(?:tion|sion|ness|ity|ology|ysis|ism|ment|ated|ized|ised|ical)s?$", re.I)
#: Capitalised words that open titles and are never names ("Towards", "Using", "On": data/lexicon/title-opener.txt).
_TITLE_OPENERS = lexicon.words("title-opener")
#: A person's name with a generational suffix ("Jan Hajič jr", "Martin Luther King Jr."): a name cut from a long
#: author list, not a title.
_SUFFIXED_NAME = re.compile(r"^(?:[^\W\d_][\w'.-]*\s+){1,3}(?:jr|sr|Jr|Sr|JR|SR|II|III|IV)\.?$")
#: A title's head and its subtitle: words (no initials, no commas) before a colon, words after it. A list of
#: names is joined by commas and "and", never by a colon, so "Supporting Static Agentic Workloads: How Features
#: and Agents" is a title and its subtitle in title case ("Smith, J., Jones, K.: ..." is names, and not this).
_SUBTITLED = re.compile(r"^[^\W\d_][^,:]*?[^\W\d_]{2,}:\s+[^\W\d_]+\s+[^\W\d_]")


def title_doubt(ref: Reference) -> str | None:
    """Why the title our parser cut from free text may not be the cited work's title, or None: it reads as
    people's names ("Maximilian Probst Gutenberg, and Sushant Sachdeva"), as a note ("Comment: A previous
    version ..."), or as two fields run together ("van der Ouderaa and Mark van der Wilk. Learning invariant
    weights ..."). Absence of such a "title" proves nothing about the work. A title the author wrote as a
    field is theirs, and one holding a word no person is named ("Motivated Reasoning and Information
    Aggregation", "Towards Theoretical and Unusable In-network Clustering") or a subtitle after a colon is a
    title in title case, not names."""
    if structured(ref):
        return None
    title = (ref.title or "").strip()
    if not title:
        return None
    if _NOTE_LABEL.match(title):
        return f"the parsed title '{title[:60]}' reads as a note (the field parser may have cut the text wrongly)"
    if _SUFFIXED_NAME.match(title):
        return (
            f"the parsed title '{title[:60]}' reads as a person's name (the field parser may have cut the text wrongly)"
        )
    if _SENTENCE_BREAK.search(title):
        return f"the parsed title '{title[:60]}' holds two sentences (fields run together by the field parser)"
    words = re.findall(r"[^\W\d_][\w'.-]*", title)
    lowered = [w for w in words if w[:1].islower() and w.lower() not in _LOWER_OK]
    joined = re.search(r",\s+(and|&)\s+[A-Z]|\b[A-Z][a-z]+\s+(and|&)\s+[A-Z][a-z]+\s+[A-Z]", title)
    nominal = (
        any(_NOMINAL.match(w) for w in words)
        or _SUBTITLED.match(title) is not None
        or (bool(words) and words[0].lower() in _TITLE_OPENERS)
    )
    if words and not lowered and joined and not nominal and len(words) <= 12:
        return (
            f"the parsed title '{title[:60]}' reads as people's names (the field parser may have cut the text wrongly)"
        )
    return None


def names_in_text(ref: Reference, record: Candidate) -> bool:
    """Whether the record's authors that the parsed list lacks are all in the reference's text:
    then the field parser, not the citation, lost them. A record author the parsed list holds with given and
    family names swapped ("Gokhman Ruslan" for Ruslan Gokhman) was read, not lost."""
    raw = raw_words(ref)
    if not raw.strip() or not record.authors:
        return False
    cited = {k for p in ref.authors for part in (p.family, p.given or "") for k in surname_keys(part)}
    lacking = [p for p in record.authors if not set(surname_keys(p.family)) & cited]
    families = [" ".join(title_words(p.family)) for p in lacking]
    families = [f for f in families if f]
    return bool(families) and all(f" {f} " in raw for f in families)


def garbled_copy(ref: Reference, title: str) -> bool:
    """Whether the cited title is `title` with only numbers or one- and two-letter bits added (a
    review copy's line number, a page number or a broken ligature inside a title the PDF broke),
    every word of `title` kept in order. Added words are a near-miss; added digits are the layout."""
    cited, found = list(title_words(ref.title or "")), list(title_words(title))
    if len(found) < 3:
        return False
    extra = [w for w in cited if w not in set(found)]
    it = iter(cited)
    in_order = all(any(w == c for c in it) for w in found)
    return in_order and bool(extra) and all(w.isdigit() or len(w) <= 2 for w in extra)


def phrase_in_text(ref: Reference, name: str) -> bool:
    """Whether a venue name (its acronym, or its name without years and ordinals) is in the reference's
    own free text (the field parser may have read another part of it as the venue)."""
    raw = raw_words(ref)
    if not raw.strip():
        return False
    words = [w for w in title_words(name) if not w.isdigit()]
    if len(words) == 1:
        return len(words[0]) >= 3 and f" {words[0]} " in raw
    return 2 <= len(words) <= 8 and f" {' '.join(words)} " in raw


def title_in_text(ref: Reference, title: str) -> bool:
    """Whether a record's whole title is a phrase of the reference's own free text."""
    raw = raw_words(ref)
    needle = " ".join(title_words(title))
    return bool(raw.strip()) and len(needle) >= 8 and f" {needle} " in raw


def year_in_text(ref: Reference, years: list[int]) -> int | None:
    """One of a work's `years` written in the reference's own free text when the parsed year is not
    it: the text states the right year, so the parsed one is a reading slip ('(1909)' from the arXiv
    id 1909.09436 beside '(2019)'), not a claim that the work is from another year. Never for a
    structured reference: a year field is what the author wrote."""
    if structured(ref):
        return None
    raw = ref.raw or ""
    for year in years:
        if year and year != ref.year and re.search(rf"(?<![\d.]){year}(?![\d.])", raw):
            return year
    return None
