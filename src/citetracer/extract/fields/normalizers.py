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

Not to be confused with normalize/text.py, which folds values of any source
for comparison; these produce the value the record shows. `clean_reference`
is the last step of every reader: the damage of PDF extraction undone in each
field (normalize/text.py's `clean_text`).
"""

from __future__ import annotations

import re

from citetracer.data.lexicon import words
from citetracer.normalize.text import clean_text, clean_title
from citetracer.records import Person, Reference

_GENRES = words("genre")
_ROLES = words("role")
_EDITIONS = words("edition")

_PAIRS = {"“": "”", '"': '"', "‘": "’", "«": "»", "„": "“", "'": "'"}


def title(span: str, text: str) -> str | None:
    """The title from its labelled run: made whole when it is quoted (whatever periods or colons the quotation
    holds, and no further than its closing quote), cut where the run went on into what follows the title
    (`cut_run`), quotes and trailing punctuation removed, LaTeX rendered."""
    value = clean_title(_unquote(whole_quote(cut_run(span), text)))
    return value or None


def _unquote(value: str) -> str:
    """Surrounding punctuation and quotes off, but a quote inside the title kept with its pair ("“‘Elles sont
    partout’: les femmes”" -> "‘Elles sont partout’: les femmes")."""
    value = value.strip(" ,;:")
    while value[:1] in _PAIRS and value.rstrip(" .,;:")[-1:] == _PAIRS[value[0]] and len(value) > 2:
        value = value[1:].rstrip(" .,;:")[:-1].strip(" ,;:")
    while value[:1] in _PAIRS and _PAIRS[value[0]] not in value[1:]:
        value = value[1:].lstrip()
    while value[-1:] in _PAIRS.values() and not any(o in value[:-1] for o, c in _PAIRS.items() if c == value[-1]):
        value = value[:-1].rstrip(" ,;:")
    return value.strip(" ,;:")


#: Words that open what follows a title when punctuation precedes them ("..., in Novels", ". Dir. X", ", trans.
#: J. Gledson", ". Retrieved from", ", Technical Report 12"): the lexicon's role, access and genre words and "in".
_AFTER_TITLE = _ROLES | words("access") | _GENRES | {"in"}
_CUE = re.compile(r"[.,;]\s+([^\W\d_][\w'’]*)(\.?:?)(?=\s|$)|\s(?=https?\s*:|www\.\w|doi\s*:)", re.IGNORECASE)
#: An edition statement ending a run: ", 2nd ed.", "(3rd edn", ",1st", ". Revised and expanded".
_EDITION = re.compile(r"(?:,\s*|\s*\(\s*|\.\s+)(?:\d+\s*(?:st|nd|rd|th|e|\.)?|[^\W\d_]+)(?:\s+[^\W\d_]+\.?){0,2}$")


def cut_run(span: str) -> str:
    """A title run cut where it went on past the title (the model's run carried on into what follows it): at a
    cue word after punctuation (_AFTER_TITLE; "In" only before a capital, a role word only abbreviated or as
    "edited by", other cue words only capitalised, as styles write them there), at a URL, at a parenthesis it
    opens and never closes ("Molecular Quantum Electrodynamics (Dover"), and at an edition statement ending it
    ("..., 3rd edn"). Only past the first few characters: "In Memoriam" opening a title stays. Measured on
    held-out folds: these cuts add to what the model learns from its features (README)."""
    for m in _CUE.finditer(span):
        word, low = m.group(1) or "", (m.group(1) or "").lower()
        rest = span[m.end() :].lstrip()
        if m.start() <= 3 or (word and low not in _AFTER_TITLE):
            continue
        if low == "in" and not (rest[:1].isupper() or rest[:1].isdigit() or rest[:1] in '“"«'):
            continue
        if low in _ROLES and not (m.group(2) or rest.lower().startswith("by")):
            continue
        if low not in _ROLES and low != "in" and word and not word[0].isupper():
            continue
        return span[: m.start()]
    opened: list[int] = []
    for i, ch in enumerate(span):
        if ch in "([":
            opened.append(i)
        elif ch in ")]" and opened:
            opened.pop()
    if opened and opened[0] > 3:
        span = span[: opened[0]]
    edition = _EDITION.search(span.rstrip(" .,;:)"))
    if edition and edition.start() > 3 and _is_edition(edition.group(0)):
        span = span[: edition.start()]
    return span


def _is_edition(statement: str) -> bool:
    """ "3rd edn", "second edition", "1st", "Revised and expanded": ordinal numbers and edition words only."""
    tokens = re.findall(r"[^\W_]+", statement.lower())
    ordinal = re.compile(r"\d+(?:st|nd|rd|th|e)?|first|second|third|fourth|fifth|sixth|new|and")
    return (
        bool(tokens)
        and all(t in _EDITIONS or ordinal.fullmatch(t) for t in tokens)
        and (any(t in _EDITIONS for t in tokens) or bool(re.fullmatch(r"\d+(?:st|nd|rd|th)", tokens[0])))
    )


def whole_quote(span: str, text: str) -> str:
    """The run made to match the quotation it opens or closes: "“Le Droit à la ville. Cheminements
    géographiques.”" is one title; a run carried on into the venue, '"No simple dual?," JHEP', is cut at its
    closing quote; a run that closes a quotation starts where it opens."""
    at = text.find(span) if span else -1
    if at < 0:
        return span
    lead = span[: len(span) - len(span.lstrip(" “\"‘«„'"))]
    start = at + len(lead)
    first = next((k for k, ch in enumerate(lead) if ch != " "), None)
    quote_at = at + first if first is not None else start - 1  # the outer quote of “‘Elles sont partout’: ...”
    if first is not None:
        start = quote_at + 1
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


def publisher(span: str) -> str | None:
    """The publisher from its labelled span ("Elsevier,", "MIT Press, Cambridge, MA."): surrounding punctuation
    removed; None unless two characters and a letter are left, or when it runs past a publisher's length."""
    value = span.strip(" .,;:")
    return value if 2 <= len(value) <= 200 and re.search(r"[^\W\d_]", value) else None


_PAGE_RANGE = re.compile(r"([A-Za-z]?\d+[A-Za-z]?)(?:\s*(?:[-–—]+|to|bis)\s*([A-Za-z]?\d+[A-Za-z]?))?")


#: An issue in parentheses that a span labelled pages opens with ("(3):1–36" after "6 "): the issue, not a page.
_LEADING_ISSUE = re.compile(r"^\s*\(\s*\d{1,5}(?:\s*[-–/]\s*\d{1,5})?\s*\)\s*:\s*(?=\S)")


def pages(span: str) -> str | None:
    """First and last page from a labelled span ("pp. 113–140.", "S. 3-9", "p. A62", "e1003118"): "113-140"; an
    issue the span opens with ("(3):1–36") is not a page."""
    m = _PAGE_RANGE.search(_LEADING_ISSUE.sub("", span))
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


_YEAR = re.compile(r"(?<![\d/.\-–:])((?:1[5-9]|20)\d\d)[a-z]?(?![\d/\-–]|\.\d)")


def date(span: str) -> int | None:
    """The year of a labelled date ("(2009, June 29).", "1989 [1972].", "2015a", "Jul. 1977"): the first
    plausible year that is not part of a page range or a volume ("9(8):1735-1780, 1997." gives 1997); None for
    "n.d." or no year."""
    m = _YEAR.search(span)
    return int(m.group(1)) if m else None


#: The Reference fields that hold text as written (identifiers are canonical forms of their own).
_TEXT_FIELDS = ("raw", "title", "venue", "pages", "volume", "issue", "publisher", "location")


def clean_reference(ref: Reference) -> Reference:
    """The reference with `clean_text` applied to each text field and each name: every reader's records leave the
    extractor through here, so search, matching and name comparison never see a ligature, a split accent, a soft
    hyphen or a zero-width space, whatever the input (BibTeX and JSON fields, the Parser Agent's answers)."""
    update: dict[str, object] = {}
    for name in _TEXT_FIELDS:
        value = getattr(ref, name)
        if value and (cleaned := clean_text(value)) != value:
            update[name] = cleaned
    people = [_clean_person(p) for p in ref.authors]
    if people != ref.authors:
        update["authors"] = people
    return ref.model_copy(update=update) if update else ref


def _clean_person(person: Person) -> Person:
    given = clean_text(person.given).strip() or None if person.given else None
    family = clean_text(person.family).strip() or person.family
    return person if (given, family) == (person.given, person.family) else Person(given=given, family=family)
