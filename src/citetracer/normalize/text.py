"""Per-field normalizers: pure functions encoding only reproducible transformations.

Each one removes a difference that an honest author, a BibTeX style or a PDF
renderer can introduce (LaTeX markup, Unicode forms, ligatures, case,
punctuation, hyphenation, DOI spelling, arXiv versions, page-range forms) and
nothing that changes what work is meant.
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache
from urllib.parse import unquote

from pylatexenc.latex2text import LatexNodes2Text
from rapidfuzz import fuzz

_LATEX = LatexNodes2Text(math_mode="text", strict_latex_spaces=False)
_LATEX_HINT = re.compile(r"[\\{}$~]")
_BARE_PERCENT = re.compile(r"(?<!\\)%")

#: Letters that Unicode does not decompose into a base letter plus a mark.
_SPECIAL_LETTERS = str.maketrans(
    {
        "ß": "ss",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ı": "i",
        "þ": "th",
        "ð": "d",
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2019": "'",
        "\u2018": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u00ad": "",
        # Greek letters by name: titles write one symbol as "$\\beta$", "β" or "beta" ("β-VAE", "beta-VAE").
        **{
            ch: name
            for ch, name in zip(
                "αβγδεϵζηθϑικλμνξοπρστυφϕχψως",
                "alpha beta gamma delta epsilon epsilon zeta eta theta theta iota kappa lambda mu nu xi omicron pi rho "
                "sigma tau upsilon phi phi chi psi omega sigma".split(),
                strict=True,
            )
        },
    }
)
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: Inline math ($...$) in a title: compared as its rendered text ("Kernel $k$-Means" is "Kernel k-Means").
_MATH = re.compile(r"\$[^$]{0,80}\$")
#: Greek letters and mathematical symbols: what a title's math becomes once one source renders it.
_SYMBOLS = re.compile(r"[\u0370-\u03ff\u2100-\u214f\u2200-\u22ff]")


@lru_cache(maxsize=65536)
def latex_to_text(value: str) -> str:
    """Render LaTeX markup (accents, braces, math, escapes) as plain Unicode text."""
    if not _LATEX_HINT.search(value):
        return value
    # In BibTeX a bare % is a literal percent sign, not a LaTeX comment.
    escaped = _BARE_PERCENT.sub(r"\\%", value)
    try:
        if value.count("{") > MAX_LATEX_DEPTH and _brace_depth(value) > MAX_LATEX_DEPTH:
            raise RecursionError("braces nested too deep")
        text = _LATEX.latex_to_text(escaped)
    except (ValueError, IndexError, RecursionError, TypeError):
        # pylatexenc recurses once per group and, deep enough, reports the RecursionError as a
        # TypeError ('unsupported callable'): a hostile reference of 300 nested groups crashed the reader.
        text = re.sub(r"[{}$\\]", "", value)
    return re.sub(r"\s+", " ", text).strip()


#: Brace nesting beyond which LaTeX is not rendered, only stripped (real titles nest 2 or 3 deep).
MAX_LATEX_DEPTH = 40


def _brace_depth(value: str) -> int:
    """The deepest nesting of braces in `value` (unbalanced closers ignored)."""
    depth = deepest = 0
    for ch in value:
        if ch == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == "}" and depth:
            depth -= 1
    return deepest


@lru_cache(maxsize=131072)
def fold(value: str) -> str:
    """LaTeX, Unicode compatibility forms, ligatures, diacritics and case folded away."""
    if value.isascii() and not _LATEX_HINT.search(value):
        return _CONTROL.sub(" ", value).lower()  # the same result: every other step leaves plain ASCII as it is
    return _fold_general(value)


def _fold_general(value: str) -> str:
    text = latex_to_text(_CONTROL.sub(" ", value))
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    # Special letters last: a letter with marks ("ἀ") is its base letter ("α") only once the marks are gone.
    return "".join(ch for ch in text if not unicodedata.combining(ch)).translate(_SPECIAL_LETTERS)


def tokens(value: str) -> list[str]:
    """Folded words: punctuation and hyphens become word breaks."""
    return [t for t in _NON_ALNUM.split(fold(value)) if t]


@lru_cache(maxsize=65536)
def title_words(value: str) -> tuple[str, ...]:
    """Folded title words, inline math rendered as text ("$k$" -> "k", "$\\beta$" -> "beta")."""
    text = _CONTROL.sub(" ", value)
    if "$" in text:
        text = _MATH.sub(lambda m: " " + latex_to_text(m.group(0)) + " ", text)
    return tuple(tokens(text))


@lru_cache(maxsize=65536)
def title_similarity(a: str, b: str) -> float:
    """How alike two titles read (0..1): edit-distance ratio of their folded words."""
    return fuzz.ratio(" ".join(title_words(a)), " ".join(title_words(b))) / 100.0


@lru_cache(maxsize=65536)
def title_key(value: str) -> str:
    """A key equal for two titles that differ only in case, punctuation, spacing, hyphenation or math markup."""
    return "".join(title_words(value))


@lru_cache(maxsize=65536)
def title_key_plain(value: str) -> str:
    """`title_key` with inline math left out: one side may render "$\\varepsilon$" in a way the other
    does not ("ε", "epsilon", a mangled escape), and the rest of the title still says which work it is."""
    text = _MATH.sub(" ", _CONTROL.sub(" ", value))
    return "".join(tokens(_SYMBOLS.sub(" ", text)))


_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_EDITION = re.compile(
    r"[(\[,;:.]?\s*\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|"
    r"revised|expanded|updated|international|new)\s+(?:ed\.?|edn\.?|edition)(?![a-z])\s*[)\]]?",
    re.IGNORECASE,
)
_TRAILING_YEAR = re.compile(r"[\s,.;:(\[]+(?:1[89]\d\d|20\d\d)[a-z]?[)\]]?\s*[.]?\s*$")
_BRACKETED = re.compile(r"\s*[(\[]([^()\[\]]{1,60})[)\]]")
#: A bracketed part that names which part of a work it is: never a mere qualifier.
_PART = re.compile(r"\d|\b(?:part|vol|volume|chapter|book|no|[ivx]+)\b", re.IGNORECASE)


@lru_cache(maxsize=65536)
def title_core(value: str) -> str:
    """A title's key without what versions and renderings of one work add or drop: HTML entities,
    a URL, an edition statement ("(second edition)", "2nd ed."), a trailing year, and a bracketed
    qualifier or acronym ("(SID)", "(GELUs)", "[Motion picture]"); a bracketed part number stays
    ("(Part II)" names another work), and so does a bracketed opening word ("(Leveled) fully homomorphic
    encryption without bootstrapping" is not "Fully homomorphic encryption without bootstrapping")."""
    text = _URL.sub(" ", html.unescape(value))
    text = _EDITION.sub(" ", text)
    text = _TRAILING_YEAR.sub("", text)
    text = _BRACKETED.sub(
        lambda m: m.group(0) if _PART.search(m.group(1)) or not text[: m.start()].strip() else " ", text
    )
    return title_key(text)


#: Content words a title's part before (or after) its colon needs to be searched or matched alone.
MAIN_TITLE_WORDS = 4


def main_title(title: str) -> str | None:
    """The title before its subtitle ("The seven sins of memory" of "The seven sins of memory: Insights
    from psychology ..."), when both parts are of two words or more; else None."""
    head, colon, rest = latex_to_text(title).partition(":")
    if not colon or len(tokens(head)) < 2 or len(tokens(rest)) < 2:
        return None
    return " ".join(head.split())


@lru_cache(maxsize=65536)
def title_form(cited: str, found: str) -> str | None:
    """'exact' when equal up to case, punctuation, spacing, hyphenation and markup; 'subtitle' when
    one is the other without its subtitle; 'qualifier' when equal up to an edition, a bracketed
    acronym or qualifier, a trailing year, a URL or HTML entities."""
    if title_key(cited) == title_key(found) or title_key_plain(cited) == title_key_plain(found):
        return "exact"
    for short, long_ in ((cited, found), (found, cited)):
        main, colon, rest = fold(long_).partition(":")
        if colon and len(tokens(main)) >= 2 and title_key(main) == title_key(short):
            return "subtitle"
        # the name before the colon lost ("SPIDER: Near-optimal ..." read as "Near-optimal ..."): the
        # title without its head, long enough to be specific
        if colon and len(tokens(rest)) >= MAIN_TITLE_WORDS and title_key(rest) == title_key(short):
            return "subtitle"
    core = title_core(cited)
    if len(core) >= 12 and core == title_core(found):
        return "qualifier"
    return None


#: Words a title may open or close with around the same work's other title ("An overview of ...").
_FRAMING = frozenset("a an the of on in to for and towards toward overview survey review study note".split())
#: Words that, put before a title, say the opposite of it ("Non-convex ..." around "Convex ...").
NEGATORS = frozenset({"non", "not", "no", "without", "anti", "un"})


def title_inside(cited: str, found: str, min_words: int = 4) -> bool:
    """Whether one title is the other with framing words added before or after it ("An overview of
    challenges, experiments, and computational solutions in peer review" around "Challenges, experiments,
    and computational solutions in peer review"): the shorter title's words, at least `min_words`, as
    one run inside the longer's. Only with the same authors, venue and year is this the same work
    (match/rules.py); alone, a short title inside a longer one is another work."""
    a, b = list(title_words(cited)), list(title_words(found))
    short, long_ = sorted((a, b), key=len)
    if len(short) < min_words or len(short) == len(long_):
        return False
    for i in range(len(long_) - len(short) + 1):
        if long_[i : i + len(short)] == short:
            extra = long_[:i] + long_[i + len(short) :]
            # a negator just before the title turns it into its opposite ("Non-convex ..."); one after it
            # qualifies it ("... with human feedback without tears")
            negated = i > 0 and long_[i - 1] in NEGATORS
            return len(extra) <= max(3, len(short) // 2) and not negated
    return False


def clean_title(value: str) -> str:
    """A display form of a cited title: LaTeX rendered, whitespace collapsed, trailing period dropped."""
    text = latex_to_text(value).strip()
    text = re.sub(r"\s+", " ", text)
    return text[:-1].rstrip() if text.endswith(".") and not text.endswith("..") else text


# ---------------------------------------------------------------- identifiers

_DOI_IN_TEXT = re.compile(r"10\.\d{4,9}/\S+", re.IGNORECASE)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+?)(v\d+)?$")


@lru_cache(maxsize=65536)
def canonical_doi(value: str | None) -> str | None:
    """Lower-case DOI without resolver prefix or trailing punctuation; arXiv DOIs lose their version.

    DOIs are case-insensitive by definition (DOI Handbook 2.4), so lower case is
    the canonical comparison form. Cached: the matcher asks it of a citation's DOI and of every
    candidate's (45,153 calls for 1,119 HALLMARK citations), mostly the same strings again.
    """
    if not value:
        return None
    match = _DOI_IN_TEXT.search(value.strip())
    if not match:
        return None
    # A DOI copied from a URL keeps its percent-escapes ("%5B" for "["): the DOI itself has the character.
    doi = unquote(match.group(0)).lower().rstrip(".,;)]}>\"'")
    arxiv = _ARXIV_DOI.match(doi)
    if arxiv:
        doi = f"10.48550/arxiv.{arxiv.group(1)}"
    return doi


def doi_prefix(doi: str) -> str:
    return doi.split("/", 1)[0]


#: Registrants whose DOIs end in a number they give each document once, across all their titles: IEEE's in its
#: Xplore article number ("10.1109/cvpr.2009.5206848"), ACM's in its article id ("10.1145/3292500.3330701").
#: The letters before it name a title and vary between deposits of one document ("cvpr" / "cvprw").
_DOCUMENT_NUMBERED = frozenset({"10.1109", "10.1145"})
_DOCUMENT_NUMBER = re.compile(r"[./](\d{7,})$")


def same_document_number(a: str, b: str) -> bool:
    """Whether two canonical DOIs of a registrant that numbers documents once (`_DOCUMENT_NUMBERED`) end in the
    same document number of seven digits or more: one document deposited under two spellings of its title."""
    if doi_prefix(a) != doi_prefix(b) or doi_prefix(a) not in _DOCUMENT_NUMBERED:
        return False
    x, y = _DOCUMENT_NUMBER.search(a), _DOCUMENT_NUMBER.search(b)
    return bool(x and y and x.group(1) == y.group(1))


_ARXIV_NEW = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(v\d+)?(?![\d])")
_ARXIV_OLD = re.compile(r"([a-z][a-z\-]+(?:\.[a-z]{2})?/\d{7})(v\d+)?", re.IGNORECASE)


def canonical_arxiv(value: str | None) -> str | None:
    """arXiv identifier without the 'arXiv:' prefix, URL or version suffix."""
    if not value:
        return None
    text = value.strip()
    new = _ARXIV_NEW.search(text)
    if new:
        return new.group(1)
    old = _ARXIV_OLD.search(text)
    if old:
        return old.group(1).lower()
    return None


def arxiv_from_doi(doi: str | None) -> str | None:
    if doi and doi.startswith("10.48550/arxiv."):
        return doi.removeprefix("10.48550/arxiv.")
    return None


_PAGE_RANGE = re.compile(r"^\s*([A-Za-z]?\d+)\s*(?:-+|–|—|to)\s*([A-Za-z]?\d+)\s*$")


def canonical_pages(value: str | None) -> tuple[str, str | None] | None:
    """First and last page, with abbreviated last pages expanded (123-9 -> 123, 129)."""
    if not value:
        return None
    text = fold(value).replace("pp.", "").replace("p.", "").strip()
    m = _PAGE_RANGE.match(text)
    if not m:
        single = re.match(r"^\s*([a-z]?\d+)\s*$", text)
        return (single.group(1), None) if single else (text, None)
    first, last = m.group(1), m.group(2)
    if first.isdigit() and last.isdigit() and len(last) < len(first):
        last = first[: len(first) - len(last)] + last
    return first, last


_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


def parse_year(value: str | int | None) -> int | None:
    """The four-digit year in a field ('2021', '2021a', 'March 2021', 2021)."""
    if value is None:
        return None
    if isinstance(value, int):
        return value
    m = _YEAR.search(value)
    return int(m.group(1)) if m else None


# ---------------------------------------------------------------- damaged text

#: Spacing accents that TeX's OT1 fonts (the default of most conference templates) set as glyphs of their own,
#: with the combining mark each stands for. Text pulled from such PDFs has them as characters of their own beside
#: their letter, before or after it, with or without a space ("Sch¨olkopf", "Jos´e", "K-R M ¨uller", "Franc¸ois",
#: "Richt ´ arik"). The ASCII "^" and "`" are also accents where a PDF draws them over a letter (the PDF reader
#: places them by position); in text "^" is mathematics and "`" an opening quote, so `clean_text` reads "`" as an
#: accent only between two letters and "^" never.
SPACING_ACCENTS = {
    "\u00b4": "\u0301",  # acute
    "\u02ca": "\u0301",  # modifier letter acute
    "`": "\u0300",  # grave (an opening quote `` sits beside a letter, never over one)
    "\u02cb": "\u0300",  # modifier letter grave
    "\u02c7": "\u030c",  # caron
    "\u00a8": "\u0308",  # diaeresis
    "\u02dc": "\u0303",  # tilde
    "\u02c6": "\u0302",  # circumflex
    "^": "\u0302",
    "\u00b8": "\u0327",  # cedilla
    "\u02db": "\u0328",  # ogonek
    "\u02d8": "\u0306",  # breve
    "\u02d9": "\u0307",  # dot above
    "\u02da": "\u030a",  # ring above
    "\u02dd": "\u030b",  # double acute
    "\u00af": "\u0304",  # macron
}
#: Accents TeX draws after their letter (the letter is set first, the mark hung below it).
_DRAWN_AFTER = frozenset("\u00b8\u02db")
#: Letters that carry a cedilla in the languages references are written in (French, Portuguese, Turkish,
#: Romanian, Albanian): "Gül¸sen" is Gülşen, not Güļsen; a cedilla beside no such letter is something else
#: ("caffeine¸acetaminophen": a comma mis-encoded) and stays.
_CEDILLA_LETTERS = frozenset("cCsStT")
_VOWELS = frozenset("aeiouAEIOU")
#: Letters TeX puts accents on in their dotless form (\'{\i}: "Garc´ıa").
_DOTLESS = {"\u0131": "i", "\u0237": "j"}
#: Characters that are never text: format and bidi controls, zero-width spaces, the byte-order mark, C0/C1
#: controls other than tab and line ends. (Soft hyphens, and the codes PDF libraries put for them, are read at
#: line ends first; zero-width joiners only between letters of scripts that write with them.)
_INVISIBLE = re.compile(
    "[\x00-\x01\x03-\x08\x0e-\x1f\x7f-\x9f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u061c\u180e\ufeff]"
)
_JOINER = re.compile("[\u200c\u200d]")
_SOFT = "\u00ad\ufffe\x02"  # the soft hyphen, and how pdfium reports one
_SOFT_INSIDE = re.compile(f"[{_SOFT}](?![ \\t]*(?:\\r\\n?|\\n))")
_SOFT_ANY = re.compile(f"[{_SOFT}]")
_ODD_SPACE = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_LINE_FEEDS = re.compile("[\x0b\x0c\u2028\u2029]")
_LIGATURE_TABLE = str.maketrans(
    {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st"}
)
#: A word broken at a line end: a hyphen (and soft hyphens) after a letter, the line break, a letter.
_BROKEN_WORD = re.compile(
    f"(?<=[^\\W\\d_])(?:[-\u2010][{_SOFT}]*|[{_SOFT}]+)[ \\t]*(?:\\r\\n?|\\n)[ \\t]*(?=[^\\W\\d_])"
)
#: Words after which a hyphen at a line end is a suspended one ("single-\nand double-blind"), kept.
_SUSPENDED = frozenset({"and", "or", "nor", "to", "und", "oder", "et", "ou", "y", "o"})
_URLISH = re.compile(r"://|www\.|doi|/", re.IGNORECASE)
#: What only damaged text holds: anything outside printable ASCII, "`", or a hyphen at a line end.
_DAMAGE_HINT = re.compile("[^\\x20-\\x5f\\x61-\\x7e\\t\\n\\r]|[-\u2010][ \\t]*[\\r\\n]")


def clean_text(text: str) -> str:
    """Reference text with the damage of PDF extraction and copy-paste undone, before anything reads it:
    ligatures expanded ("ﬁelds"), spacing accents put on their letter ("Sch¨olkopf" -> "Schölkopf", "K-R M ¨uller"
    -> "K-R Müller", "Franc¸ois" -> "François"; an accent over no letter dropped), soft hyphens, zero-width and
    bidi controls removed, odd spaces made spaces, a word broken by a hyphen at a line end joined ("compu-\\ntation"
    -> "computation"; "Self-\\nSimilarity" keeps its hyphen, a URL too), and the result in NFC.

    Pure and idempotent; text free of that damage comes back unchanged (except in NFC), and no letter is made
    up: an accent joins the letter beside it, or goes."""
    for _ in range(4):  # one repair can make another possible ("A¸\u00ad\nc": the soft hyphen, then the cedilla)
        if not _DAMAGE_HINT.search(text):
            return text
        cleaned = _clean_once(text)
        if cleaned == text:
            break
        text = cleaned
    return text


def _clean_once(text: str) -> str:
    text = _INVISIBLE.sub("", text)
    text = _LINE_FEEDS.sub("\n", text)
    text = _ODD_SPACE.sub(" ", text).translate(_LIGATURE_TABLE)
    text = _JOINER.sub(_joiner, text) if "\u200c" in text or "\u200d" in text else text
    text = _SOFT_INSIDE.sub("", text)
    if not text.isascii() or "`" in text:
        text = _place_accents(unicodedata.normalize("NFC", text))
    text = _BROKEN_WORD.sub(_join_broken, text)
    text = _SOFT_ANY.sub("", text)
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _joiner(m: re.Match[str]) -> str:
    """A zero-width joiner or non-joiner kept only between two letters of a script written with them (Persian,
    Indic); beside a Latin letter, a space or punctuation it is damage."""
    text, at = m.string, m.start()
    before = text[at - 1] if at else ""
    after = text[at + 1] if at + 1 < len(text) else ""
    return m.group(0) if before.isalpha() and after.isalpha() and ord(before) >= 0x370 and ord(after) >= 0x370 else ""


def _join_broken(m: re.Match[str]) -> str:
    """A line break inside a word: gone, with the hyphen unless the word goes on in lower case ("compu-tation"),
    the hyphen was soft, or the word is a link; a suspended hyphen ("single-\\nand") stays as it is."""
    text = m.string
    hyphen = m.group(0).lstrip()[:1] in "-\u2010"
    start = max(text.rfind(" ", 0, m.start()), text.rfind("\n", 0, m.start()), m.start() - 200)
    word_before = text[start + 1 : m.start()]
    word_after = re.match(r"[^\W\d_]+", text[m.end() : m.end() + 40])
    after = word_after.group(0) if word_after else ""
    if not hyphen:
        return ""
    if _URLISH.search(word_before):
        return m.group(0)[:1]
    if after[:1].islower():
        return m.group(0) if after in _SUSPENDED else ""
    return "-"


def _is_letter(ch: str) -> bool:
    return ch.isalpha() and ch not in SPACING_ACCENTS


def _accent_mark(ch: str) -> str:
    """The combining mark a standalone accent stands for, "" for any other character."""
    mark = SPACING_ACCENTS.get(ch, "")
    if not mark and len(ch) == 1 and "\u0300" <= ch <= "\u036f":
        return ch  # a combining mark with no letter before it (" \u0308uller")
    return mark


def _composed(base: str, mark: str) -> str | None:
    """The precomposed letter `base` with `mark`, None when Unicode has none (no letter is made up)."""
    out = unicodedata.normalize("NFC", _DOTLESS.get(base, base) + mark)
    return out if len(out) == 1 else None


def _place_accents(text: str) -> str:
    """Each standalone accent put on the letter it belongs to (`clean_text`); repeated until nothing moves, since
    one accent placed can decide where its neighbour goes."""
    for _ in range(4):
        placed = _place_accents_once(text)
        if placed == text:
            break
        text = placed
    return text


_ACCENT_CHARS = re.compile("[" + "".join(re.escape(c) for c in SPACING_ACCENTS if c != "^") + "\u0300-\u036f]")


def _place_accents_once(text: str) -> str:
    """One pass, left to right: what is left of an accent is already written out (`out`), what is right of it still
    to read (`chars`); an accent placed or dropped is not written, so the next one sees past it."""
    if not _ACCENT_CHARS.search(text):
        return text
    chars = list(text)
    out: list[str] = []
    i = 0
    while i < len(chars):
        ch = chars[i]
        mark = _accent_mark(ch) if ch != "^" else ""
        if mark and "\u0300" <= ch <= "\u036f" and out and not out[-1].isspace():
            mark = ""  # a combining mark after a letter (or anything but a space) is already on it
        if not mark:
            out.append(ch)
            i += 1
            continue
        i = _place(out, chars, i, ch, mark)
    return "".join(out)


#: How far (in whitespace characters) a letter is looked for on either side of an accent.
_REACH = 3


def _left(out: list[str], spaces: bool) -> int | None:
    """The index in `out` of the letter just written (None when none), or with `spaces` of the letter before up to
    `_REACH` whitespace characters (and only across at least one)."""
    j = len(out) - 1
    if spaces:
        while j >= 0 and len(out) - 1 - j < _REACH and out[j].isspace():
            j -= 1
        if j == len(out) - 1:
            return None
    return j if j >= 0 and _is_letter(out[j]) else None


def _right(chars: list[str], i: int, spaces: bool) -> int | None:
    """The index in `chars` of the letter after position `i`, as `_left` does on the other side."""
    j = i + 1
    if spaces:
        while j < len(chars) and j - i - 1 < _REACH and chars[j].isspace():
            j += 1
        if j == i + 1:
            return None
    return j if j < len(chars) and _is_letter(chars[j]) else None


def _lone_capital(out: list[str], at: int) -> bool:
    """Whether the letter at `at` is a word of one capital letter: the "M" of "K-R M ¨uller" is no initial before a
    word in lower case, but the start of the word ("Gedanken ¨uber" is two words, as written)."""
    before = out[at - 1] if at else " "
    return out[at].isupper() and not _is_letter(before) and before != "."


def _place(out: list[str], chars: list[str], i: int, ch: str, mark: str) -> int:
    """Put the accent at `chars[i]` on its letter (the rules of `clean_text`), or drop it when it stands alone;
    returns where reading goes on."""
    left, right = _left(out, spaces=False), _right(chars, i, spaces=False)
    far_left = _left(out, spaces=True) if left is None else None
    far_right = _right(chars, i, spaces=True) if right is None else None
    if far_right is not None and not chars[far_right].islower():
        far_right = None  # a word goes on after a space only in lower case ("M ¨uller"; not "Lawrence ´ Zitnick")
    keep = i + 1
    if ch == "`" and (left is None or right is None or (out[left] in _VOWELS and chars[right] in _VOWELS)):
        out.append(ch)  # an opening quote, "`2" for an ell, or the ʻokina of "Hawai`i", "O`ahu"
        return keep
    if right is not None and left is not None and out[left].islower() and chars[right].isupper():
        out.append(ch)  # "d´Alembert": an apostrophe, or an accent strayed from elsewhere
        return keep
    if (
        mark == "\u0301"
        and left is not None
        and right is not None
        and chars[right] in "st"
        and not (right + 1 < len(chars) and _is_letter(chars[right + 1]))
    ):
        out.append(ch)  # "Bishop´s", "don´t": an acute written for an apostrophe
        return keep
    # Candidates in order: ("out", index) for a letter written before the accent, ("in", index) for one after it.
    order: list[tuple[str, int | None]]
    if "\u0300" <= ch <= "\u036f":
        # A combining mark comes after its letter: one standing after a space was cut from the letter before it
        # ("supe \u0301rieur"), unless that letter takes no such mark.
        order = [("out", far_left), ("in", right), ("in", far_right)]
    elif ch in _DRAWN_AFTER:
        order = [("out", left), ("in", right), ("in", far_right), ("out", far_left if far_right is not None else None)]
        if ch == "\u00b8":
            order = [(side, j) for side, j in order if j is not None and _side(out, chars, side, j) in _CEDILLA_LETTERS]
    else:
        right_fails = right is not None and chars[right].islower() and _composed(chars[right], mark) is None
        order = [
            ("in", right),
            ("in", far_right),
            ("out", left if right is None or right_fails else None),
            ("out", far_left if far_right is not None else None),
        ]
    for side, j in order:
        letter = None if j is None else _composed(_side(out, chars, side, j), mark)
        if j is None or letter is None:
            continue
        (out if side == "out" else chars)[j] = letter
        # The word the accent split is one again: "M ¨uller", "Richt ´ arik", "Franc¸ ois"; the letters on both
        # sides are the one word's when the letter after is lower case.
        if far_right is not None:
            keep = far_right  # the whitespace before it is not read
        if far_left is not None and (
            (side == "out" and j == far_left)
            or (side == "in" and j == far_right)
            or (side == "in" and j == right and _lone_capital(out, far_left))
        ):
            del out[far_left + 1 :]
        return keep
    if left is None and right is None:
        # An accent over no letter ("Lawrence ´ Zitnick", "et al. ¨ , 2022"): it stands for nothing here, nor does
        # one of the spaces around it.
        if keep < len(chars) and chars[keep] == " " and (not out or out[-1] in (" ", "\n")):
            keep += 1
        return keep
    out.append(ch)
    return keep


def _side(out: list[str], chars: list[str], side: str, j: int) -> str:
    return out[j] if side == "out" else chars[j]
