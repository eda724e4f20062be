"""In-text citation markers: what the body of a paper says its bibliography holds.

A paper cites its references in the text, as numbers (`[12]`, `[3, 5-7]`) or
as authors and years (`(Smith et al., 2020; Lee and Kim, 2019a)`, `Smith et
al. (2020)`). Counting the distinct markers gives an expectation that the
reference list extracted from the PDF can be held against: 103 distinct
numbers cited and 7 references extracted means the bibliography collapsed;
70 author-year works cited and 175 references extracted means the appendix
was read as references. Segmentation also reads which numbering the body uses,
so that a table of contents or equation numbers cannot pass for the labels.

The counts are estimates (an interval "[0, 1]" looks like a citation, a
reference may be cited only in a figure), so they feed warnings and
preferences, never a hard cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

#: A bracketed list of numbers: "[12]", "[3, 5]", "[7-9]", "[2–4, 10]".
_BRACKETS = re.compile(r"\[\s*(\d{1,3}(?:\s*[,;–\-]\s*\d{1,3}){0,30})\s*\]")
_PARENS = re.compile(r"\(\s*(\d{1,3}(?:\s*[,;–\-]\s*\d{1,3}){0,30})\s*\)")
_EQUATION = re.compile(r"(?:eqs?|equations?|formulas?|steps?|conditions?|lines?)\.?\s*$", re.IGNORECASE)
#: Shortest run of parenthesised numbers taken for citations (enumerations "(1) ... (2) ..." are short).
MIN_PAREN_RUN = 5
_RANGE = re.compile(r"(\d{1,3})\s*[–\-]\s*(\d{1,3})")
#: Widest gap between two cited numbers inside one bibliography's run (some references are cited only in
#: figures or tables).
MAX_GAP = 6
#: Longest range "[a-b]" expanded (a longer one is an interval in the text, not citations).
MAX_RANGE = 30
_NAME = r"[A-Z][A-Za-z'’\-]+(?:\s+(?:de|van|von|der|den|la|le|di|da|del)\s+[A-Z][A-Za-z'’\-]+)?"
#: "Smith (2020)", "Smith et al., 2020a", "Smith and Lee 2019", "Smith & Lee, 2019".
_AUTHOR_YEAR = re.compile(
    rf"\b({_NAME})(?:\s+et\s+al\.?|\s+(?:and|&)\s+{_NAME})?,?\s+[(\[]?((?:19|20)\d\d[a-z]?)\b(?![\-–/.]\d)"
)
_MORE_YEARS = re.compile(r"[,;]\s*((?:19|20)\d\d[a-z]?|[a-z])\b(?!\.)")
#: Capitalised words that precede a year without being an author: "In 2020", "Table 2020", "May 2021".
_NOT_NAMES = frozenset(
    """in on at by of for from since until till before after during around about the a an and or as to
    since than this that these those with within between through figure fig table section sec eq equation
    appendix algorithm theorem lemma step version release january february march april may june july
    august september october november december jan feb mar apr jun jul aug sep sept oct nov dec summer
    winter spring fall autumn spring year years up over under also copyright arxiv cvpr iccv eccv neurips
    nips icml iclr acl emnlp naacl aaai ijcai kdd sigir www interspeech icassp proceedings conference
    workshop journal vol volume no number pp page pages isbn issn doi""".split()
)


@dataclass
class Markers:
    """The distinct citation markers of a paper's body."""

    #: Numbers cited in brackets.
    numbers: set[int] = field(default_factory=set)
    #: Numbers in parentheses not after "Eq." (a few papers cite so; enumerations and equations look alike).
    paren_numbers: set[int] = field(default_factory=set)
    #: (first author's surname, year with its letter) pairs cited in author-year form.
    author_year: set[tuple[str, str]] = field(default_factory=set)

    @property
    def numbered_count(self) -> int | None:
        """The bibliography's length the bracketed numbers imply (see `_run_end`); failing those, the
        parenthesised ones when nothing is cited by author and year."""
        bracketed = _run_end(self.numbers)
        if bracketed is not None or len(self.author_year) >= 3:
            return bracketed
        paren = _run_end(self.paren_numbers)
        return paren if paren is not None and paren >= MIN_PAREN_RUN else None

    @property
    def style(self) -> str | None:
        """'numbered' or 'author-year' when the body says so clearly, else None."""
        numbered = self.numbered_count or 0
        if numbered >= 3 and numbered >= 0.5 * len(self.author_year):
            return "numbered"
        if len(self.author_year) >= 3:
            return "author-year"
        return None

    def expected(self) -> int | None:
        """How many references the body's markers point to (an estimate); None when it cannot tell."""
        if self.style == "numbered":
            return self.numbered_count
        if self.style == "author-year":
            return len(self.author_year)
        return None

    def describe(self) -> str:
        """What the body's citation markers say about the list, for a plausibility warning."""
        if self.style == "numbered":
            return f"the text cites reference numbers up to {self.numbered_count}"
        return f"the text cites about {len(self.author_year)} distinct works by author and year"


def _run_end(numbers: set[int]) -> int | None:
    """The end of the run of cited numbers from 1 with no wide gap ("[2019]", "[32, 64, 128]" in the text
    lie past one); None when there is no such run."""
    run: list[int] = []
    for n in sorted(numbers):
        if run and n - run[-1] > max(MAX_GAP, 0.25 * run[-1]):
            break
        run.append(n)
    if len(run) < 3 or run[0] > MAX_GAP or len(run) < 0.5 * run[-1]:
        return None
    return run[-1]


def find_markers(texts: Iterable[str]) -> Markers:
    """The markers in the body's lines (hyphenation at line ends undone first)."""
    text = _joined(texts)
    markers = Markers()
    for m in _BRACKETS.finditer(text):
        markers.numbers.update(_numbers(m.group(1)))
    for m in _PARENS.finditer(text):
        if not _EQUATION.search(text, max(0, m.start() - 12), m.start()):
            markers.paren_numbers.update(_numbers(m.group(1)))
    for m in _AUTHOR_YEAR.finditer(text):
        name = m.group(1)
        if name.casefold() in _NOT_NAMES or name.isupper():
            continue
        markers.author_year.add((name.casefold(), m.group(2)))
        # "Smith et al., 2020a, b" and "Smith (2019, 2021)": later years of the same authors.
        at = m.end()
        while more := _MORE_YEARS.match(text, at):
            extra = more.group(1)
            year = extra if extra[0].isdigit() else m.group(2)[:4] + extra
            markers.author_year.add((name.casefold(), year))
            at = more.end()
    return markers


def _numbers(group: str) -> set[int]:
    """The numbers a marker's list names, ranges expanded."""
    parts = re.split(r"\s*[,;]\s*", group.strip())
    if len(set(parts)) < len(parts):
        return set()  # "[32, 64, 64, 128]": a list of values, not of citations
    out: set[int] = set()
    for part in parts:
        r = _RANGE.fullmatch(part)
        if r:
            lo, hi = int(r.group(1)), int(r.group(2))
            if 0 < lo <= hi and hi - lo <= MAX_RANGE:
                out.update(range(lo, hi + 1))
        elif part.isdigit() and 0 < int(part) < 1000:
            out.add(int(part))
    return out


def _joined(texts: Iterable[str]) -> str:
    out: list[str] = []
    for t in texts:
        t = t.strip()
        if out and out[-1].endswith(("-", "\u00ad")) and t[:1].islower():
            out[-1] = out[-1][:-1] + t
        else:
            out.append(t)
    return " ".join(out).replace("\u00ad", "")
