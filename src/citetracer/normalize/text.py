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


def title_form(cited: str, found: str) -> str | None:
    """'exact' when equal up to case, punctuation, spacing, hyphenation and markup; 'subtitle' when
    one is the other without its subtitle; 'qualifier' when equal up to an edition, a bracketed
    acronym or qualifier, a trailing year, a URL or HTML entities."""
    if title_key(cited) == title_key(found) or title_key_plain(cited) == title_key_plain(found):
        return "exact"
    for short, long_ in ((cited, found), (found, cited)):
        main = fold(long_).split(":")[0]
        if ":" in fold(long_) and len(tokens(main)) >= 2 and title_key(main) == title_key(short):
            return "subtitle"
    core = title_core(cited)
    if len(core) >= 12 and core == title_core(found):
        return "qualifier"
    return None


#: Words a title may open or close with around the same work's other title ("An overview of ...").
_FRAMING = frozenset("a an the of on in to for and towards toward overview survey review study note".split())


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
            return len(extra) <= max(3, len(short) // 2)
    return False


def clean_title(value: str) -> str:
    """A display form of a cited title: LaTeX rendered, whitespace collapsed, trailing period dropped."""
    text = latex_to_text(value).strip()
    text = re.sub(r"\s+", " ", text)
    return text[:-1].rstrip() if text.endswith(".") and not text.endswith("..") else text


# ---------------------------------------------------------------- identifiers

_DOI_IN_TEXT = re.compile(r"10\.\d{4,9}/\S+", re.IGNORECASE)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+?)(v\d+)?$")


def canonical_doi(value: str | None) -> str | None:
    """Lower-case DOI without resolver prefix or trailing punctuation; arXiv DOIs lose their version.

    DOIs are case-insensitive by definition (DOI Handbook 2.4), so lower case is
    the canonical comparison form.
    """
    if not value:
        return None
    match = _DOI_IN_TEXT.search(value.strip())
    if not match:
        return None
    doi = match.group(0).lower().rstrip(".,;)]}>\"'")
    arxiv = _ARXIV_DOI.match(doi)
    if arxiv:
        doi = f"10.48550/arxiv.{arxiv.group(1)}"
    return doi


def doi_prefix(doi: str) -> str:
    return doi.split("/", 1)[0]


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
