"""Split the bibliography's lines into one block per reference, and join each block's text.

Where a reference starts is decided by the strongest signal the list offers,
tried in this order:

1. labels: `[n]`, `n.`, `(n)` or `n` at the start of a line, counting up from
   1 without gaps (so a year or a page number at a line start is not taken
   for a label), or alphabetic labels such as `[Smi20]`;
2. hanging indents: continuation lines sit to the right of the column's left
   edge, so a line flush with the edge starts a reference (the edge is
   measured per page and column, so column and page breaks are harmless);
3. vertical space: a gap between lines clearly larger than the usual one;
4. sentence ends: a line ending with a period followed by a line that opens
   with a name in "Surname, X." form.

Joining repairs what line breaks did to the text: words hyphenated at a line
end are rejoined (the hyphen kept when the next part is capitalised, as in
"Self-Similarity"), URLs and DOIs broken over lines are glued back, and the
joined text goes through `clean_text` (ligatures, split accents, soft hyphens).
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass

from citetracer.extract.layout.markers import Markers
from citetracer.extract.layout.page import SMALL_SHARE, Line, body_size
from citetracer.extract.layout.region import reference_like
from citetracer.normalize.text import clean_text

_NUMBER_LABELS = (
    re.compile(r"^\s*\[(\d{1,4})\]"),
    re.compile(r"^\s*(\d{1,4})\.(?:\s|$)"),
    re.compile(r"^\s*\((\d{1,4})\)"),
    re.compile(r"^\s*(\d{1,4})\s+(?=\S)"),
)
_ALPHA_LABEL = re.compile(r"^\s*\[[A-Za-z][A-Za-z+\-.]{0,12}\s?\d{0,4}[a-z]?\]")
_AUTHOR_START = re.compile(
    r"^[A-Z][\w'’\-]+(?:\s[A-Z][\w'’\-]+)?,\s*(?:[A-Z]\.|[A-Z][a-z])|^[A-Z]\.\s?(?:[A-Z]\.\s?)*[A-Z]"
)


@dataclass
class Block:
    lines: list[Line]
    label: str | None = None

    @property
    def text(self) -> str:
        """The block's lines joined into one reference string (hyphenation and wrapped URLs repaired)."""
        return join_lines([ln.text for ln in self.lines])


def split_blocks(lines: list[Line], markers: Markers | None = None) -> tuple[list[Block], str]:
    """Blocks of a reference region and the name of the signal that cut them.

    `markers`, the body's in-text citations, say which numbering the list uses (see `_by_numbers`)."""
    lines = [ln for ln in lines if ln.text.strip()]
    if not lines:
        return [], "empty"
    # Footnotes that a page break puts inside the list are set smaller than the references, and smaller
    # than their own page's text: OCR estimates one size per page, and a page's estimate can be low.
    size = body_size(lines)
    on_page = {page: body_size(list(group)) for page, group in itertools.groupby(lines, key=lambda ln: ln.page)}
    lines = _drop_notes([ln for ln in lines if ln.size >= 0.82 * min(size, on_page[ln.page])], size)
    # A float that LaTeX put among the references (a figure's caption, a paragraph beside it) is set in the
    # body's type, larger than the list's on the same page. OCR gives a page one size: nothing is larger.
    lines = _drop_larger(lines, size, on_page)
    # Lines starting far left of their column's text (a journal footer under a narrow text block) are not references.
    edges = _left_edges(lines)
    lines = [ln for ln in lines if ln.x0 >= edges[(ln.page, ln.column)] - 4 * size]
    numbered = _by_numbers(lines, markers or Markers())
    if numbered is not None:
        return numbered
    for splitter in (_by_alpha_labels, _by_indent, _by_gaps, _by_sentences):
        result = splitter(lines)
        if result is not None:
            return result
    return [Block(lines)], "none"


_RULE = re.compile(r"^[\s_\-–—=·.]{8,}$")
#: A footnote's mark glued to its first word ("7There are", "*Equal contribution"): no reference opens so.
_NOTE_MARK = re.compile(r"^(?:\d{1,2}|[*†‡§¶])(?=[A-Z][a-z])")
_SMALL_NOTE_MARK = re.compile(r"^(?:\d{1,2}|[*†‡§¶])\s?\S")
#: Text this much larger than the list's, on the list's own page, is not part of it.
LARGER = 1.08
#: A footnote under the list is among this many last lines of its page column.
NOTE_LINES = 6


def _drop_larger(lines: list[Line], size: float, on_page: dict[int, float]) -> list[Line]:
    """The lines without runs of two or more set larger than the list, on its own page too (one larger
    line is more often a glyph from another font than a float)."""
    larger = [ln.size > LARGER * max(size, on_page[ln.page]) for ln in lines]
    keep = []
    for i, ln in enumerate(lines):
        run = larger[i] and ((i > 0 and larger[i - 1]) or (i + 1 < len(lines) and larger[i + 1]))
        if not run:
            keep.append(ln)
    return keep


def _drop_notes(lines: list[Line], size: float) -> list[Line]:
    """Lines at the foot of a page column, all set smaller than the references, under a clear
    vertical gap or a separator typed as a row of underscores (a footnote such as "* corresponding
    author" under the list), are not references; nor is such a separator itself."""
    out: list[Line] = []
    for _key, group in itertools.groupby(lines, key=lambda ln: (ln.page, ln.column)):
        run = list(group)
        # Small against this page column's own text too: OCR gives each page one size, which differs
        # from page to page, so a whole page of references can look small next to another page.
        small = SMALL_SHARE * min(size, body_size(run))
        k = len(run)
        while k > 1 and run[k - 1].size < small and not _RULE.match(run[k - 1].text):
            k -= 1
        above = run[k - 1]
        gap = run[k].y0 - above.y1 if k < len(run) else 0.0
        if k < len(run) and (
            _RULE.match(above.text)
            or (above.size >= small and gap > 1.5 * size)
            # Smaller lines opening with a note's mark ("2 https://...") need only a small gap.
            or (above.size >= small and gap > 0.3 * size and _SMALL_NOTE_MARK.match(run[k].text))
        ):
            run = run[:k]
        # A footnote set as large as the list (\small references, \footnotesize notes): its glued mark
        # after a gap, near the column's foot, and everything under it.
        for j in range(max(1, len(run) - NOTE_LINES), len(run)):
            if _NOTE_MARK.match(run[j].text) and run[j].y0 - run[j - 1].y1 > 0.3 * size:
                run = run[:j]
                break
        out.extend(ln for ln in run if not _RULE.match(ln.text))
    return out


def _cut(lines: list[Line], starts: list[int], labels: list[str | None] | None = None) -> list[Block]:
    blocks = []
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else len(lines)
        blocks.append(Block(lines[s:e], labels[k] if labels else None))
    return blocks


def _by_numbers(lines: list[Line], markers: Markers) -> tuple[list[Block], str] | None:
    """Blocks cut at labels counting up from 1, in the one label form (`[n]`, `n.`, `(n)`, `n`) that fits.

    Each form gives a sequence of labelled lines; a sequence whose blocks do not read like references
    (a table of contents, numbered equations or steps) is out. Of the rest, the one ending nearest the
    highest number the body cites wins when the body cites by number; when it cites by author and year,
    a sequence far shorter than the works it cites is out (a stray numbered list); else the longest."""
    candidates: list[tuple[list[int], list[str | None]]] = []
    for pattern in _NUMBER_LABELS:
        starts: list[int] = []
        labels: list[str | None] = []
        expected = None
        for i, ln in enumerate(lines):
            m = pattern.match(ln.text)
            if not m:
                continue
            n = int(m.group(1))
            if (expected is None and n in (1, 2)) or n == expected:
                starts.append(i)
                labels.append(str(n))
                expected = n + 1
        if len(starts) >= 2 and _reads_like_references(lines, starts):
            candidates.append((starts, labels))
    cited = markers.expected()
    if markers.style == "author-year" and cited:
        candidates = [c for c in candidates if len(c[0]) >= 0.5 * cited]
    if not candidates:
        return None
    if markers.style == "numbered" and cited:
        starts, labels = min(candidates, key=lambda c: (abs(len(c[0]) - cited), -len(c[0])))
    else:
        starts, labels = max(candidates, key=lambda c: len(c[0]))
    # A numbered list labels (nearly) every reference: the labels must not be rare among line starts.
    if len(starts) < 3 and len(lines) > 8:
        return None
    if starts[0] != 0:
        starts = [0, *starts]
        labels = [None, *labels]
    return _cut(lines, starts, labels), "numbers"


def _reads_like_references(lines: list[Line], starts: list[int]) -> bool:
    """Most blocks that the labels cut look like references (a year, an identifier, "et al.", ...)."""
    blocks = _cut(lines, starts)
    return sum(1 for b in blocks if reference_like(b.text)) >= 0.6 * len(blocks)


def _by_alpha_labels(lines: list[Line]) -> tuple[list[Block], str] | None:
    starts = [i for i, ln in enumerate(lines) if _ALPHA_LABEL.match(ln.text)]
    if len(starts) < 3:
        return None
    if starts[0] != 0:
        starts = [0, *starts]
    labels: list[str | None] = []
    for s in starts:
        m = _ALPHA_LABEL.match(lines[s].text)
        labels.append(m.group(0).strip()[1:-1] if m else None)
    return _cut(lines, starts, labels), "labels"


def _left_edges(lines: list[Line]) -> dict[tuple[int, int], float]:
    """Left edge of each (page, column) of the region; thin groups borrow their column's edge."""
    size = statistics.median(ln.size for ln in lines)
    groups: dict[tuple[int, int], list[float]] = defaultdict(list)
    listed: dict[tuple[int, int], list[float]] = defaultdict(list)
    for ln in lines:
        groups[(ln.page, ln.column)].append(ln.x0)
        if reference_like(ln.text):
            listed[(ln.page, ln.column)].append(ln.x0)
    edges: dict[tuple[int, int], float] = {}
    by_column: dict[int, list[float]] = defaultdict(list)
    for key, xs in groups.items():
        if len(xs) >= 4:
            # The commonest x among the lines that read like references where there are some: a table or a
            # figure's text inside the list (many short rows at one x) does not set the edge.
            edges[key] = _edge(xs, size, listed[key] if len(listed[key]) >= 2 else xs)
            by_column[key[1]].append(edges[key])
    for key, xs in groups.items():
        # A line flush with the edge the same column has on another page sits at this page's edge too.
        others = [e for k, e in edges.items() if k != key and k[1] == key[1]]
        at_other = [x for x in xs if key in edges and x < edges[key] - 2 and any(abs(x - e) <= 2.0 for e in others)]
        if at_other:
            edges[key] = min(at_other)
    measured = list(edges.values())
    for key, xs in groups.items():
        if key in edges and edges[key] - 3 * size < min(xs) < edges[key] - 2:
            # Mostly continuation lines (a page or column holding one or two references): their edge is
            # where a line sits flush with an edge measured elsewhere in the list, not their commonest x.
            if any(abs(e - min(xs)) <= 2.0 for k, e in edges.items() if k != key):
                edges[key] = min(xs)
        if key not in edges:
            known = by_column.get(key[1])
            if known:
                edges[key] = statistics.median(known)
            else:
                # A few lines in a column no other page has (a page split into columns by a figure below the
                # list's last lines): the nearest measured edge they can be flush with or indented from.
                near = [e for e in measured if e - 2 <= min(xs) <= e + 3 * size]
                edges[key] = max(near) if near else min(xs)
            if edges[key] - 3 * size < min(xs) < edges[key] - 2:
                edges[key] = min(xs)
    # A page column holding only continuation lines (one reference with hundreds of authors) has no
    # line at its edge: it borrows the edge of the same column on a page whose text ends at the same
    # right margin (two-sided layouts shift whole pages, and then the right margins differ too).
    right = {key: max(ln.x1 for ln in lines if (ln.page, ln.column) == key) for key in groups}
    for key in groups:
        for other in groups:
            if (
                other[1] == key[1]
                and other != key
                and abs(right[other] - right[key]) <= 2.0
                and edges[key] - 3 * size < edges[other] < edges[key] - 2
            ):
                edges[key] = edges[other]
    return edges


def _edge(xs: list[float], size: float, common_of: list[float] | None = None) -> float:
    """The column's left edge: the leftmost x shared by a real share of the lines, no further left of
    the commonest x (of `common_of`, default `xs`) than a hanging indent reaches (a journal footer far to
    the left is not it)."""
    bins = Counter(round(x / 2) for x in (common_of or xs))
    common = bins.most_common(1)[0][0] * 2
    # Two lines suffice: one long reference (a consortium's hundreds of authors) can fill a column with
    # continuation lines, leaving only a few reference starts at the edge.
    need = min(2, len(xs))
    candidates = [
        x for x in xs if common - 6 * size <= x <= common + 2 and sum(1 for v in xs if abs(v - x) <= 2.0) >= need
    ]
    return min(candidates) if candidates else float(common)


def _by_indent(lines: list[Line]) -> tuple[list[Block], str] | None:
    edges = _left_edges(lines)
    flush = [ln.x0 <= edges[(ln.page, ln.column)] + 2.0 for ln in lines]
    indented = len(lines) - sum(flush)
    if indented < max(2, 0.15 * len(lines)) or sum(flush) < 2:
        return None
    # Hanging indent: continuation lines are indented, each reference starts flush.
    # Paragraph indent (first line indented) is the mirror case: decide by which group opens with names
    # more often. Shares, not counts: where names are written in full ("Moontae Lee, Lajanugen ..."),
    # many continuation lines open with a name too, and continuations outnumber first lines.
    flush_names = sum(1 for ln, f in zip(lines, flush, strict=True) if f and _AUTHOR_START.match(ln.text))
    indent_names = sum(1 for ln, f in zip(lines, flush, strict=True) if not f and _AUTHOR_START.match(ln.text))
    # The region's first line opens a reference whatever the style: it breaks a tie, and outweighs a
    # small difference in name shares (name-like openings are a weak signal).
    vote = flush_names / sum(flush) - indent_names / indented + (0.3 if flush[0] else -0.3)
    starters = flush if vote >= 0 else [not f for f in flush]
    starts = [i for i, s in enumerate(starters) if s]
    if not starts or (starts[0] != 0):
        starts = [0, *starts]
    return _cut(lines, starts), "indent"


#: How references of a list open, by style: "Smith, J." / "Smith, John"; "J. Smith" / "J. A. Smith";
#: "John Smith," / "John A. Smith and" (ACL, NeurIPS and ICLR write names in full, given name first).
_START_SHAPES = (
    re.compile(r"^[A-Z][\w'’\-]+(?:\s[A-Z][\w'’\-]+)?,\s*(?:[A-Z]\.|[A-Z][a-z])"),
    re.compile(r"^[A-Z]\.\s?(?:[A-Z]\.\s?)*[A-Z][\w'’\-]+"),
    re.compile(r"^[A-Z][\w'’\-]+(?:\s[A-Z]\.)*(?:\s[A-Z][\w'’\-]+){1,2}(?:,|\s+and\s|\.\s)"),
)


def _list_start(lines: list[Line]) -> re.Pattern[str]:
    """The start pattern the list itself shows: the first shape its first line has (the region's first
    line opens a reference), else the general "Surname, X." / "X. Surname" one."""
    first = lines[0].text.strip() if lines else ""
    return next((shape for shape in _START_SHAPES if shape.match(first)), _AUTHOR_START)


def _opens_reference(text: str, shape: re.Pattern[str]) -> bool:
    return bool(shape.match(text) or _AUTHOR_START.match(text))


def _by_gaps(lines: list[Line]) -> tuple[list[Block], str] | None:
    shape = _list_start(lines)
    # Line pitch (top to top), not the white gap: OCR boxes grow and shrink with descenders, tops barely move.
    gaps = []
    for a, b in itertools.pairwise(lines):
        if a.page == b.page and a.column == b.column and b.y0 > a.y0:
            gaps.append(b.y0 - a.y0)
    if len(gaps) < 3:
        return None
    # The usual leading is the small-gap cluster; space between references sits clearly above it.
    usual = sorted(gaps)[len(gaps) // 10]
    size = statistics.median(ln.size for ln in lines)
    right: dict[tuple[int, int], float] = defaultdict(float)
    for ln in lines:
        right[(ln.page, ln.column)] = max(right[(ln.page, ln.column)], ln.x1)
    starts = [0]
    for i in range(1, len(lines)):
        a, b = lines[i - 1], lines[i]
        if a.page == b.page and a.column == b.column:
            if b.y0 - a.y0 > usual + 0.35 * size:
                starts.append(i)
        elif a.x1 < right[(a.page, a.column)] - 4 * size or (
            re.search(r"[.)\]]$|\d$", a.text.rstrip()) and _opens_reference(b.text, shape)
        ):
            # Across a column or page break the gap says nothing: a finished last line does.
            starts.append(i)
    if len(starts) < 2 or len(starts) > 0.8 * len(lines):
        return None
    return _cut(lines, starts), "gaps"


def _by_sentences(lines: list[Line]) -> tuple[list[Block], str] | None:
    shape = _list_start(lines)
    starts = [0]
    for i in range(1, len(lines)):
        if lines[i - 1].text.rstrip().endswith(".") and _opens_reference(lines[i].text, shape):
            starts.append(i)
    if len(starts) < 2:
        return None
    return _cut(lines, starts), "sentences"


_URLISH = re.compile(r"(?:https?:|www\.|doi\.org|doi:|\b10\.\d{4,9}/|arxiv\.org)\S*$", re.IGNORECASE)


_DOI_STEM = re.compile(r"(?:^|doi:?)10\.\d{0,8}$", re.IGNORECASE)


def join_lines(texts: list[str]) -> str:
    """One reference's text from its lines, undoing hyphenation and broken URLs."""
    out = ""
    for raw in texts:
        text = raw.strip()
        if not text:
            continue
        if not out:
            out = text
            continue
        last_token = out.rsplit(" ", 1)[-1]
        first_token = text.split(" ", 1)[0]
        if out.endswith("\u00ad") or (out.endswith("-") and re.search(r"[a-z\ufb00-\ufb06]-$", out)):
            stem = out[:-1]
            if _URLISH.search(last_token):
                out = (out if out.endswith("-") else stem + "-") + text
            elif first_token[:1].islower():
                out = stem + text
            else:
                out = stem + "-" + text
        elif (
            _URLISH.search(last_token)
            and (re.search(r"[/.\-_:=?&#~]$", last_token) or re.match(r"[/.\-_\d]", text))
            # A finished link followed by a capitalised word ("...853." then "URL https://", "In Proc."):
            # link paths are lower case; the word starts the next part of the reference.
            and not (last_token.endswith(".") and re.match(r"[A-Z][A-Za-z]*(?:\s|$)", text))
        ) or (_DOI_STEM.search(last_token) and re.match(r"\d+/", text)):
            # A DOI broken inside its prefix ("doi: 10.1" / "145/3212695") is glued back too.
            out = out + text
        else:
            out = out + " " + text
    return clean_text(out)
