"""Deterministic field parser for one reference string (any common style).

The string is read left to right the way a person reads it:

1. identifiers first (DOI, arXiv id, URL), found by pattern and removed;
2. the author list: the longest prefix that reads as a list of names and
   ends at a natural boundary (a period after a name or initial, a year,
   an opening quote, a colon, or a comma before a capitalised word).
   Names may be "Surname, I.", "I. Surname", "Given Surname", "Surname IJ"
   (Vancouver), with particles, "and" / "&" / "et", "et al." and editor
   marks. Only shapes are used, never lists of known names;
3. the year: in parentheses, right after the authors, or else the last
   plausible year in the string (the first is often part of a title or
   a proceedings name);
4. the title: a quoted span if there is one, otherwise the next sentence
   (periods after abbreviations and initials do not end it; in comma
   styles it ends at the comma before the venue);
5. the venue and the numbers (volume, issue, pages) in what follows;
6. the packaged CRF (extract/fields/crf.py) then labels every token, with the rules'
   reading of steps 2-5 among its features; each field it labelled is cleaned
   by that field's normalizer (extract/fields/normalizers.py) and replaces the rules'
   reading: title, venue, volume and pages, the year, and the author run (read
   into names by extract/fields/authors.py). Identifiers stay the rules'. Without the
   model the rules' reading stands.

Word classes (venue, publisher, role and genre words, abbreviations) are the
lexicon files under data/lexicon/, which the CRF's features read too. Errors
of the model are fixed with training data and features, not with regexes on
its output: the title-run trims that once sat here were measured and removed
(bench/parser.py figures in docs/benchmarks.md).
"""

from __future__ import annotations

import re
import unicodedata

from citetracer.data.lexicon import words
from citetracer.extract.fields import normalizers
from citetracer.extract.fields.authors import split_names
from citetracer.extract.fields.crf import ABBREVIATIONS, Labeller, default_labeller, spans
from citetracer.normalize.publishers import recognise_publisher
from citetracer.normalize.text import (
    arxiv_from_doi,
    canonical_arxiv,
    canonical_doi,
    clean_text,
    clean_title,
    latex_to_text,
)
from citetracer.records import Person, Reference

_DOI = re.compile(
    r"(?:https?://(?:dx\.)?doi\.org/|doi:\s*|DOI\s+)?(10\.\d{4,9}/(?:[^\s,;\"<>]|;(?=\d)|<[^\s<>]{1,40}>)+)",
    re.IGNORECASE,
)
#: A DOI as reference lists print it (bare, "doi:", or in a doi.org link); group 1 is the DOI.
DOI_PATTERN = _DOI
_ARXIV = re.compile(
    r"(?:arXiv(?:\s+preprint)?\s*:?\s*(?:abs/)?|arxiv\.org/(?:abs|pdf)/)"
    r"([a-z\-]+(?:\.[A-Z]{2})?/\d{7}|\d{4}\.\d{4,5})(v\d+)?",
    re.IGNORECASE,
)
_URL = re.compile(r"(?:https?://|www\.)[^\s<>\"]+")
_YEAR_PAREN = re.compile(r"\((?:[A-Za-z]+\.?\s+)?(?:\d{1,2},?\s+)?((?:1[5-9]|20)\d\d)[a-z]?(?:[,;][^)]{0,20})?\)")
_YEAR = re.compile(r"(?<![\d/.\-:])((?:1[89]|20)\d\d)[a-z]?(?![\d/\-]|\.\d)")
_LABEL = re.compile(r"^\s*(?:\[[^\]]{1,20}\]|\(\d{1,4}\)|\d{1,4}\.(?=\s)|\d{1,4}\s(?=\D))\s*")
_QUOTED = re.compile(r"(?:“|\"|``|‘‘|«|(?<!\w)[‘'](?=[\w“\"]))\s*(.{6,}?)\s*(?:”|\"|''|’’|»|[’'](?![^\W\d_]))")
_PAGES = re.compile(r"(?<![\w.])(?:pp?\.\s*|pages\s+)?([A-Za-z]?\d{1,6})\s*(?:-|–|—|--)\s*([A-Za-z]?\d{1,6})(?![\w])")
_VOLUME = re.compile(
    r"\b(?:vol(?:ume)?\.?\s*)(\d+)(?:\s*,?\s*(?:no|issue|nr)\.?\s*(\d+))?|(?<![\w.])(\d{1,4})\s*\((\d{1,4}(?:[-–/]\d{1,4})?)\)"
    r"|(?<![\w.(])(\d{1,4})\s*:\s*[A-Za-z]?\d",
    re.IGNORECASE,
)
_IN_VENUE = re.compile(r"^\s*(?:In:?\s+|in:\s*)(?:(?:the\s+)?Proceedings of\s+(?:the\s+)?)?", re.IGNORECASE)
#: A venue opens with one of these words after a comma in comma-separated styles: the lexicon's venue, genre,
#: publisher and institution words, and the words that introduce a container or its numbers.
_VENUE_CUE = words("venue") | words("genre") | words("publisher") | words("institution") | {"in", "vol", "pp", "volume"}


def prepare(raw: str) -> str:
    """The reference string as both readers see it: LaTeX rendered, spaces collapsed, the list label removed,
    identifiers broken by line joins repaired."""
    text = latex_to_text(raw) if "\\" in raw or "{" in raw else raw
    # Composed accents: "Le\u0301on" (a letter and a combining mark, as some PDFs and files store it) reads as "Léon".
    text = unicodedata.normalize("NFC", text)
    text = re.sub(r"\s+", " ", text).strip()
    text = _LABEL.sub("", text, count=1)
    text = text.replace("``", "“").replace("''", "”")
    text = _open_quote(text)
    # Identifiers broken by OCR or line joins: "https: //doi.org", "https:/ /", "10.1037 /edu0000018".
    text = re.sub(r"\b(https?):\s*/\s*/\s*", r"\1://", text)
    text = re.sub(r"\b(10\.\d{4,9})\s+/\s*(?=\S)", r"\1/", text)
    # A DOI that ends in "." "-" or "/" and is followed by digits or lower case after a space was cut by a line end.
    # (Repeated: "10.48550/arXiv. 2311. 01813" was cut twice.)
    for _ in range(4):
        text, n = re.subn(r"(\b10\.\d{4,9}/\S*[-./])\s+(?=[\da-z])(?!(?:19|20)\d\d\b)", r"\1", text)
        if not n:
            break
    for _ in range(8):  # "https://unccd.int /sites/default /files": a space before a slash inside a URL
        text, n = re.subn(r"(https?://\S+)\s+(/\S)", r"\1\2", text)
        if not n:
            break
    return text


def _open_quote(text: str) -> str:
    """A title quoted with two closing marks ("Maurer F.,”Requirements Engineering ...”," as word processors
    write an opening quote typed after a comma) opens at the first: with no opening mark anywhere, the first of two
    closing marks opens the quote, set off by a space so that the name before it is read whole. A closing mark after
    an opening one ("“Deep learning,” in Proc.") is left as it is."""
    if "“" in text or text.count("”") != 2:
        return text
    at = text.index("”")
    return f"{text[:at].rstrip()} “{text[at + 1 :].lstrip()}"


#: The labeller used when none is passed: the packaged model.
PACKAGED = "packaged"


def parse_reference_string(raw: str, labeller: Labeller | str | None = PACKAGED) -> Reference:
    """Fields of one reference string; unknown fields stay None.

    `labeller` is the CRF that reads titles, venues and numbers: the packaged model by default, another
    `Labeller` (the benchmark's cross-validation folds), or None for the rules alone. The string is read, and kept
    as `raw`, with the damage of PDF extraction undone (`clean_text`): ligatures, split accents, soft hyphens.
    """
    raw = clean_text(raw)
    ref, mtext, marks = _read_by_rules(raw, prepare(raw))
    model = default_labeller() if isinstance(labeller, str) else labeller
    if model is None:
        return normalizers.clean_reference(ref)
    return normalizers.clean_reference(_combine(ref, spans(model.label(mtext, marks), mtext), mtext))


def model_input(raw: str) -> tuple[str, list[str]]:
    """The text the CRF labels and the rules' reading of it, one mark per character (training uses this same
    function, so its tokens and features match the parser's)."""
    raw = clean_text(raw)
    _ref, mtext, marks = _read_by_rules(raw, prepare(raw))
    return mtext, marks


def _read_by_rules(raw: str, text: str) -> tuple[Reference, str, list[str]]:
    """The rules' fields, the model's text, and where the rules found their fields in it ("author", "title",
    "container", "year" or "other" per character): the CRF takes these marks as features and learns when to
    trust them."""
    work = text

    doi = url = arxiv = None
    m = _DOI.search(work)
    if m:
        doi = canonical_doi(m.group(1).rstrip(".,;"))
        work = _cut(work, m.start(), m.end())
    m = _ARXIV.search(work)
    if m:
        arxiv = canonical_arxiv(m.group(1))
    arxiv = arxiv or arxiv_from_doi(doi)
    m = _URL.search(work)
    if m:
        url = m.group(0).rstrip(".,;)")
        work = _cut(work, m.start(), m.end())
        work = re.sub(r"\b(?:URL|Retrieved from|Available (?:at|from)|Online)\s*:?\s*$", "", work.rstrip(" .,;"))

    work = _respace(work)
    same_authors = re.match(r"^(?:[-–—_]\s?){2,}\s*[.,]?\s*", work)  # "———. 1983." repeats the previous authors
    names: list[Person]
    if same_authors:
        names, et_al, rest_at = [], False, same_authors.end()
    else:
        names, et_al, rest_at = split_names(work)
        org = None if names else _ORG_AUTHOR.match(work)
        if org and not _reads_as_title(org.group(1)):
            # "U.S. Army Corps of Engineers (2009). Title.": an organisation as author, APA style.
            names, rest_at = [Person(given=None, family=org.group(1).strip(" .,"))], org.end(1)
    authors: list[Person] = names
    rest = work[rest_at:]

    year = None
    lead = (
        None
        if not (authors or same_authors)
        else re.match(
            r"^[\s.,:]*[(\[]?(?:[A-Z][a-z]+\.?\s+)?(?:\d{1,2},?\s+)?((?:1[5-9]|20)\d\d)[a-z]?(?:[-–/]\d{2,4})?"
            r"(?:,\s*[A-Z][a-z]+\.?(?:\s+\d{1,2}(?:[-–]\d{1,2})?)?)?[)\]]?(?:[.,:]|\s|$)",
            rest,
        )
    )
    if lead:
        year = int(lead.group(1))
        rest = rest[lead.end() :]
    else:
        ym = _YEAR_PAREN.search(work)
        if ym:
            year = int(ym.group(1))
        else:
            years = [y for y in _YEAR.finditer(work) if y.start() >= rest_at] or list(_YEAR.finditer(work))
            if years:
                year = int(years[-1].group(1))
    stripped = rest.lstrip(" .,:;")
    separator = rest[: len(rest) - len(stripped)]
    if lead and lead.group(0).rstrip().endswith(","):
        separator += ","
    comma_style = bool(authors) and (
        "," in separator or (not separator.strip() and work[:rest_at].rstrip().endswith(","))
    )
    rest = stripped

    if _JOURNAL_ONLY.match(rest):
        # "Acc. Chem. Res. 10, 265 (1977)": physics and chemistry styles often give no title at all.
        title, venue_part = None, rest
    else:
        title, venue_part = _title(rest, comma_style=comma_style)
    venue_part = re.sub(r"\((?:[A-Za-z]+\.?\s+)?(?:1[5-9]|20)\d\d[a-z]?\)", " ", venue_part)
    venue = _venue(venue_part)
    pages = volume = issue = None
    pm = _PAGES.search(venue_part)
    if pm and not re.fullmatch(r"(?:1[5-9]|20)\d\d", pm.group(1)):
        pages = f"{pm.group(1)}-{pm.group(2)}"
    vm = _VOLUME.search(venue_part)
    if vm:
        volume = vm.group(1) or vm.group(3) or vm.group(5)
        issue = vm.group(2) or vm.group(4)
    if title:
        # "Title (University of Chicago Press, 1999)": publication details in parentheses are not the title.
        paren = re.search(r"\s\((?![^)]*\)\s*\S)[^)]*(?:\)|$)", title)
        if paren and re.search(
            r"\d{4}|Press|:|\bed|\bedn|trans|dissertation|thesis|Series|^\s\([^)]*$", paren.group(0)
        ):
            title = title[: paren.start()]
        title = re.sub(r"\s*\((?:\d+\w*\s+)?(?:rev\w*\.?\s+)?(?:ed|edn|edition)\b[^)]*\)\s*$", "", title.strip())
        title = clean_title(title.strip(' ,;:"“”‘’'))
    mtext = _respace(text)
    marks = ["other"] * len(mtext)
    at = 0
    if rest_at and (authors or same_authors) and mtext.startswith(work[:rest_at]):
        marks[:rest_at] = ["author"] * rest_at
        at = rest_at
    for value, mark in ((title, "title"), (venue, "container"), (str(year) if year else None, "year")):
        hit = _locate(value, mtext, at)
        if hit:
            marks[hit[0] : hit[1]] = [mark] * (hit[1] - hit[0])
            if mark != "year":
                at = hit[1]
    return (
        Reference(
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
        ),
        mtext,
        marks,
    )


def _locate(value: str | None, text: str, start: int) -> tuple[int, int] | None:
    """Where `value` (a field the rules read, perhaps cleaned) sits in `text` at or after `start`."""
    words = re.findall(r"\w+", value or "")
    if not words:
        return None
    m = re.compile(r"\W{0,6}".join(re.escape(w) for w in words), re.IGNORECASE).search(text, start)
    return (m.start(), m.end()) if m else None


_AFTER_EDITORS = re.compile(r"(?:\((?:[Ee]ds?|[Ee]ditors?|Hrsg)\.?\)|\b[Ee]ds?\.|\beditors?)[,.:]?\s*$")


def _combine(ref: Reference, found: dict[str, str], text: str) -> Reference:
    """The rules' reading with the CRF's title and venue, and its volume and pages where it read them, each
    cleaned by its field's normalizer (extract/fields/normalizers.py).

    The CRF saw the rules' reading as features and learnt where that goes wrong, so its title and venue
    win outright, including when it found none (physics styles cite no title; falling back to the rules'
    guess there measured worse on both labelled sets). Its author run is read into names by the author
    reader, and its date gives the year; without them the rules' stand (held out on 2 folds of all five
    sets, 2026-12-02: surname F1 +0.003 to +0.031 per set, year F1 +0.004 to +0.018). Identifiers stay the
    rules'.
    """
    found = _notes_apart(found)
    run = found.get("title", "")
    container = found.get("container") or found.get("collection", "")  # a series cited in its place (NeurIPS)
    at = text.find(container) if container else -1
    # "In A. Editor (Ed.), Proceedings of ...": the book is named after the editors, as the rules read it.
    after_editors = at > 0 and bool(_AFTER_EDITORS.search(text[:at]))
    update: dict[str, object] = {
        "title": normalizers.title(run, text),
        "venue": normalizers.venue(container, after_editors),
    }
    if update["title"] is None and set(found) <= {"author", "note"} and _lone_title(ref):
        # "Authors. Title." and nothing else: the model, which learnt from whole references, may read a lone title
        # as a note; the rules' title stands when it reads as one (a physics style's journal without a title is a
        # container, not this; "J. Richardson, private communication" is a note).
        update["title"] = ref.title
    elif update["title"] is None:
        update["title"] = _title_alone(ref, found) or None
        if update["title"]:
            update["venue"] = None
    names, et_al, read_to = split_names(found.get("author", ""))
    if names:
        update["authors"], update["et_al"] = names, et_al or ref.et_al
    if update["title"] is None and names:
        update["title"] = _title_run_on(ref, found["author"][read_to:]) or None
    year = normalizers.date(found.get("year", ""))
    if year:
        update["year"] = year
    at = text.find(run) if run else -1
    if at > 0 and ref.authors and not names:
        # "Randall Packard, White Plague, Black Labour: ...": the rules read the title's first words as a name;
        # the model, which also weighs what follows, starts the title there. Names are read again before it.
        names, _, _ = split_names(text[:at])
        if 0 < len(names) < len(ref.authors):
            update["authors"] = names
    volume = normalizers.volume(found.get("volume", ""))
    if volume:
        update["volume"] = volume
        update["issue"] = ref.issue or normalizers.issue(found["volume"])
    pages = normalizers.pages(found.get("pages", ""))
    if pages:
        update["pages"] = pages
    publisher = normalizers.publisher(found.get("publisher", ""))
    if publisher and not ref.publisher and not update["venue"] and _a_house(publisher):
        # A book's house ("Doran. Bioprocess engineering principles. Elsevier, 1995."): it tells the work's kind.
        update["publisher"] = publisher
    return ref.model_copy(update=update)


def _a_house(span: str) -> bool:
    """Whether a run the model labelled publisher names a publishing house the publisher list knows (Elsevier,
    McGraw-Hill, an imprint): the model labels journals of a society ("IET Control Theory & Applications") and
    unknown runs ("MIT GenAI") so too, and those are no evidence that the work is a book."""
    found = recognise_publisher(span)
    return found is not None and found.role == "publisher"


#: A label that opens a note after the reference proper ("Comment: A previous version was titled ...").
_NOTE_OPENING = re.compile(r"^\s*(?:comment|note|notes|url|available|accessed|retrieved)\b\s*:", re.IGNORECASE)
#: A date that closes a run the rules read as the title ("..., April 2022", ", 2025").
_DATE_TAIL = re.compile(r"[,.]?\s*(?:\(?\s*(?:[A-Z][a-z]{2,8}\.?\s+)?(?:1[89]|20)\d\d[a-z]?\s*\)?)\s*[.,]?\s*$")
#: Fields that make a reference more than "Authors. Title, Date.": where they stand, a run is a venue.
_DETAIL_FIELDS = frozenset({"volume", "issue", "pages", "doi", "url", "edition", "editor", "title"})


def _notes_apart(found: dict[str, str]) -> dict[str, str]:
    """A run the model labelled title that opens with a note's label ("Comment: ...", "URL: ...") is a note:
    no style opens a title with one, and a reference manager's comment after the date is what it was."""
    title = found.get("title", "")
    if not title or not _NOTE_OPENING.match(title):
        return found
    moved = {k: v for k, v in found.items() if k != "title"}
    moved["note"] = f"{moved.get('note', '')} {title}".strip()
    return moved


def _title_alone(ref: Reference, found: dict[str, str]) -> str:
    """The title of a reference that is "Authors. Title, Date." and nothing else, where the model found no
    title ("..., and Sushant Sachdeva. Maximum Flow and Minimum-Cost Flow in Almost-Linear Time, April 2022.").
    Every style names the work before its venue, so a lone run between the names and the date, with no volume,
    pages, identifier or editor, is the work's title, not a venue or a publisher the model took it for (a
    physics style's journal without a title carries its volume and pages). The rules' title stands, its date
    cut, when every run the model read otherwise lies inside it."""
    if not ref.authors or not ref.title:
        return ""
    others = {k: v for k, v in found.items() if k not in ("author", "year", "note")}
    if _DETAIL_FIELDS & set(others):
        return ""
    title = _DATE_TAIL.sub("", ref.title).strip(" ,.;:")
    if len(title.split()) < 3 or not title[:1].isupper():
        return ""
    if not others and "note" not in found:
        return ""  # the model read nothing as title here, and nothing it took for a note either
    if all(v.strip(" ,.;:") in title for v in others.values()):
        return title
    return ""


def _title_run_on(ref: Reference, unread: str) -> str:
    """The rules' title where the model's author run ran on into it ("Andreas, J., ..., and Klein, D. Neural
    Module Networks, July 2017."): the author reader, reading that run, stops where the names end, so what it
    leaves unread is not a name. When that rest is the rules' title whole (its date cut), the title stands; a
    model that reads a short title-case title as more names must not leave the work without one."""
    title = _DATE_TAIL.sub("", ref.title or "").strip(" ,.;:")
    rest = _DATE_TAIL.sub("", unread).strip(" ,.;:")
    if len(title.split()) < 3 or not title[:1].isupper() or rest != title or _NAME_LIST_MARK.search(title):
        return ""
    return title


#: What a run of names the author reader could not read still shows: an initial, a word in capitals, a joining
#: "and"/"et"/"&" or "et al." ("C. BACQUET et D. LELANDAIS", "Riyasat Husain, Pradeep Kumar et al").
_NAME_LIST_MARK = re.compile(r"\b[A-Z]\.|\b[A-Z]{2,}\b|\b(?:and|et|und|y|e)\b|&|\betal\b|\bet\.? al\b")


def _lone_title(ref: Reference) -> bool:
    """Whether the rules' reading is "Authors. Title." whole: two or more people named with their given names or
    initials, and a title of three or more words that opens with a capital and holds no number."""
    title = ref.title or ""
    return (
        len(ref.authors) >= 2
        and all(p.given for p in ref.authors)
        and len(title.split()) >= 3
        and title[:1].isupper()
        and not re.search(r"\d", title)
    )


_ORG_AUTHOR = re.compile(
    r"^([A-Z][^()]{2,100}?)[.,]?\s*\((?:[A-Za-z]+\.?\s+)?(?:1[5-9]|20)\d\d[a-z]?(?:,[^)]{0,20})?\)"
)
#: Lower-case words an organisation's name holds ("Department of Health and Aged Care").
_NAME_GLUE = frozenset("of for and the on in at to de des du la le el del der für und et y da di".split())


def _reads_as_title(text: str) -> bool:
    """A lower-case content word marks a sentence ("Good chemistry. (1996)."): APA puts a title in the author's
    place when there is no author; an organisation's name capitalises its words."""
    return any(w[:1].islower() and w not in _NAME_GLUE for w in re.findall(r"[^\W\d_][\w'’-]*", text))


_JOURNAL_ONLY = re.compile(r"^(?:[A-Z][A-Za-z]{0,11}\.\s?){1,6}(?:[A-Z][a-z]+\.?\s)?(?:[A-Z]\s)?\(?\d")


def _respace(text: str) -> str:
    """Spacing repaired the way text pulled from PDFs breaks it ("Phys .Rev .D 54 ,8 ( 1996)", "title.Journal")."""
    text = re.sub(r"\s+(?!\.\.)([,.;:)\]])", r"\1", text)  # an ellipsis keeps its space: "Mou, C., ... & Vries"
    text = re.sub(r"([(\[])\s+", r"\1", text)
    text = re.sub(r"([,;])(?=[A-Za-z(])", r"\1 ", text)
    text = re.sub(r"(?<=[a-z)\]])\.(?=[A-Z][a-z])", ". ", text)
    text = re.sub(r"(?<=[.,;:?!])([\"”’])(?=[^\W\d_])", r"\1 ", text)  # a closing quote glued to the venue: ,"JHEP
    return text


def _cut(text: str, start: int, end: int) -> str:
    return (text[:start].rstrip() + " " + text[end:].lstrip()).strip()


def _title(rest: str, comma_style: bool) -> tuple[str | None, str]:
    """The title at the start of `rest` and what follows it."""
    q = _QUOTED.match(rest) or (_QUOTED.search(rest[:40]) if not re.match(r"^[A-Z]", rest) else None)
    if q:
        return q.group(1), rest[q.end() :]
    end = _sentence_end(rest)
    comma = _comma_before_venue(rest[: end if end is not None else len(rest)], fallback=comma_style)
    if comma is not None:
        return rest[:comma], rest[comma + 1 :]
    if end is None:
        return (rest or None), ""
    return rest[:end], rest[end + 1 :]


def _sentence_end(text: str) -> int | None:
    """Index of the period (or ? !) that ends the first sentence, skipping abbreviations and initials."""
    for m in re.finditer(r"[.?!](?=\s+[\w(\[“\"]|\s*$)", text):
        i = m.start()
        if text[i] in "?!":
            return i + 1 if i + 1 < len(text) else i
        word = re.search(r"([\w.]+)$", text[:i])
        token = word.group(1) if word else ""
        if (
            token.lower().rstrip(".") in ABBREVIATIONS
            or re.fullmatch(r"[A-Z]", token)
            or re.fullmatch(r"(?:[A-Z]\.)+[A-Z]", token)
        ):
            continue
        if re.fullmatch(r"\d{1,3}", token) and i < 12:
            continue  # "Chapter 29." keeps going
        return i
    return None


def _comma_before_venue(text: str, fallback: bool) -> int | None:
    """The comma after which a venue starts; in comma styles, else the first comma."""
    commas = [m.start() for m in re.finditer(r",\s", text)]
    for c in commas:
        first = text[c + 1 :].split(maxsplit=1)[:1]
        if first and re.sub(r"[^\w-]", "", first[0]).lower() in _VENUE_CUE:
            return c
    if fallback and commas:
        return commas[0]
    for c in commas:
        if re.match(r"\s*(?:\d|vol|pp|no\.)", text[c + 1 :]):
            return c
    return None


_EDITORS = re.compile(r"\((?:[Ee]ds?|[Ee]ditors?|Hrsg)\.?\)\s*,?\s*|,\s*editors?\s*,\s*|,\s*[Ee]ds?\.\s*,?\s*")


def _venue(part: str) -> str | None:
    part = _IN_VENUE.sub("", part.strip(" .,;:"))
    if not part:
        return None
    eds = _EDITORS.search(part[:200])
    if eds:
        # "In A. Editor (Ed.), Proceedings of ..." names the book, not the editors.
        part = re.sub(r"^(?:the\s+)?Proceedings of\s+(?:the\s+)?", "", _IN_VENUE.sub("", part[eds.end() :]), flags=re.I)
    end = _sentence_end(part)
    if end is not None:
        part = part[:end]
    venue = re.split(
        r",\s*(?:vol|pp|pages|no|\d)|\s\((?:vol|pp|\d)|\(\s*\d|\s(?:vol\.|pp\.)|\s\d{1,4}\s*[(:,]|,\s*(?:1[5-9]|20)\d\d",
        part,
        maxsplit=1,
        flags=re.IGNORECASE,
    )[0]
    venue = re.sub(r"\s\d{1,4}$", "", venue.strip(" .,;:")).strip(" .,;:")
    return venue if len(venue) >= 2 and re.search(r"[A-Za-z]", venue) else None
