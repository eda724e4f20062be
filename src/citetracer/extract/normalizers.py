"""One small normalizer per field: the text the tagger labelled turned into the field's value.

The CRF labels spans of the reference string as they stand ("“Sparse attention,”",
"In Proc. of the 58th ACL,", "pp. 113–140.", "Vol. 20(4),", "(2019a)."). Each
function here cleans one field's span and nothing else, in the way anystyle's
normalizer classes do after tagging: punctuation and quotes around the value,
the words that introduce it ("In:", "pp.", "Vol."), the parts of the span that
belong to another field (the issue after a volume, the year before a
Vancouver volume). They are pure functions of the span (the title also looks
at the text around it for its quotation marks); errors of the labelling
itself are fixed with training data and features, not here.

Not to be confused with match/normalize.py, which folds values of any source
for comparison; these produce the value the record shows.
"""

from __future__ import annotations

import re

from citetracer.match.normalize import clean_title

_PAIRS = {"“": "”", '"': '"', "‘": "’", "«": "»", "„": "“", "'": "'"}
_STRIP = ' ,;:"“”‘’«»'


def title(span: str, text: str) -> str | None:
    """The title from its labelled run: made whole when it is quoted (whatever periods or colons the quotation
    holds, and no further than its closing quote), quotes and trailing punctuation removed, LaTeX rendered."""
    value = clean_title(whole_quote(span, text).strip(_STRIP))
    return value or None


def whole_quote(span: str, text: str) -> str:
    """The run made to match the quotation it opens or closes: "“Le Droit à la ville. Cheminements
    géographiques.”" is one title; a run carried on into the venue, '"No simple dual?," JHEP', is cut at its
    closing quote; a run that closes a quotation starts where it opens."""
    at = text.find(span) if span else -1
    if at < 0:
        return span
    start = at + len(span) - len(span.lstrip(" “\"‘«„'"))
    quote_at = start - 1
    if quote_at > 0 and text[quote_at] == " " and text[quote_at - 1] in "«„“":
        quote_at -= 1  # "« When Craft Gets Sloppy »": French quotes stand apart from their words
    opener = text[quote_at] if quote_at >= 0 else ""
    if opener == "'" and start > 1 and text[start - 2].isalnum():
        opener = ""  # "O'Hara", "l'objectivité": an apostrophe
    if opener in _PAIRS:
        m = _closer(_PAIRS[opener]).search(text, start + 1)
        if m is None or m.start() - start > 400 or opener in text[start : m.start()]:
            return span
        return text[at : m.end()]
    body = span.rstrip(" .,;:")
    close = body[-1:]
    openers = [o for o, c in _PAIRS.items() if c == close and o != "'" and o not in body[:-1]]
    if not openers or (close == "’" and not body[-2:-1].isalpha() and body[-2:-1] not in ".?!"):
        return span
    o = max(text.rfind(op, max(0, at - 400), at) for op in openers)
    if o < 0 or close in text[o + 1 : at] or (close == '"' and text[:o].count('"') % 2):
        return span
    return text[o : at + len(span)]


def _closer(close: str) -> re.Pattern[str]:
    """A closing quote; a single quote only when no letter follows (else it is an apostrophe)."""
    return re.compile(re.escape(close) + (r"(?![^\W\d_])" if close in "’'" else ""))


_IN = re.compile(r"^\s*(?:In(?::|\b)\s*|in:\s*)((?:the\s+)?Proceedings of\s+(?:the\s+)?)?", re.IGNORECASE)
_PROCEEDINGS_OF = re.compile(r"^(?:the\s+)?Proceedings of\s+(?:the\s+)?", re.IGNORECASE)


def venue(span: str, after_editors: bool = False) -> str | None:
    """The container from its labelled span: "In:" / "In Proceedings of the" dropped ("In Proceedings of the
    58th ACL" and "58th ACL" name one venue), and "Proceedings of the" when the span names a book after its
    editors ("In A. Editor (Ed.), Proceedings of ..."); surrounding punctuation removed; None unless two
    characters and a letter are left."""
    value = _IN.sub("", span.strip(" .,;:")).strip(" .,;:")
    if after_editors:
        value = _PROCEEDINGS_OF.sub("", value)
    return value if len(value) >= 2 and re.search(r"[^\W\d_]", value) else None


_PAGE_RANGE = re.compile(r"([A-Za-z]?\d+[A-Za-z]?)(?:\s*(?:[-–—]+|to|bis)\s*([A-Za-z]?\d+[A-Za-z]?))?")


def pages(span: str) -> str | None:
    """First and last page from a labelled span ("pp. 113–140.", "S. 3-9", "p. A62", "e1003118"): "113-140"."""
    m = _PAGE_RANGE.search(span)
    if m is None:
        return None
    return f"{m.group(1)}-{m.group(2)}" if m.group(2) else m.group(1)


_LEADING_YEAR = re.compile(r"^\s*(?:1[5-9]|20)\d\d[a-z]?\s*[;:,]\s*(?=\d)")
_ROMAN = re.compile(r"\b[IVXLC]+\b")


def volume(span: str) -> str | None:
    """The volume number from a labelled span ("Vol. 20(4),", "37(7):", "2000;355(9222):" in Vancouver, whose
    span starts with the year; "Bd. XII")."""
    rest = _LEADING_YEAR.sub("", span)
    m = re.search(r"\d+", rest) or _ROMAN.search(rest)
    return m.group(0) if m else None


def issue(span: str) -> str | None:
    """The issue a volume span carries in parentheses ("20(4)," -> "4", "355(9222):" -> "9222"), else None."""
    m = re.search(r"\d\s*\((\d{1,5}(?:[-–/]\d{1,5})?)\)", _LEADING_YEAR.sub("", span))
    return m.group(1).replace("–", "-") if m else None


_YEAR = re.compile(r"(?<!\d)((?:1[5-9]|20)\d\d)(?!\d)")


def date(span: str) -> int | None:
    """The year of a labelled date ("(2009, June 29).", "1989 [1972].", "2015a", "Jul. 1977"): the first
    plausible year; None for "n.d." or no year."""
    m = _YEAR.search(span)
    return int(m.group(1)) if m else None
