"""Page layout from positioned text: columns, reading order, lines, margins.

Input is library-neutral: `Fragment`s (a run of text on one baseline with its
box, from the PDF text layer or from OCR). No PDF library restores reading
order when a PDF interleaves two columns line by line, so columns are found
here from coordinates alone: a *gutter* is a vertical strip near the middle
of the page that many fragments end before and start after and almost none
cross; each side is searched again, so three or four columns are found too.
Fragments that cross a gutter (titles, full-width figures, footers) cut the
page into bands; each band is read column by column, left to right. Text set
smaller across the foot of every column of a band (notes, or the references
of a short article) is read after all the columns' text, not in between.

Running headers, footers and page numbers are recognised by repetition: a
line in the top or bottom margin whose text (digits ignored) recurs on other
pages, or a bare number there, is dropped. The line numbers of review copies
(ICLR, ACL, CVPR submissions number every line in a margin or beside the
gutter) are dropped before anything else: a vertical stack of bare integers
at one x that count up by one from line to line, and a loose number that
carries on a count the rulers keep from page to page.
"""

from __future__ import annotations

import itertools
import re
import statistics
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol


@dataclass
class Fragment:
    """A run of characters on one baseline; points, origin at the page's top left."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    #: Set in a bold face (most of its characters); OCR cannot tell and leaves it False.
    bold: bool = False


@dataclass
class Line:
    """One visual line of one column, in reading order."""

    text: str
    page: int  # 0-based
    column: int  # 0 single column or full width; 1, 2, ... the columns from the left
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    fragments: list[Fragment] = field(default_factory=list, repr=False)

    @property
    def bold(self) -> bool:
        """Most of the line's characters are bold (a heading, not a reference)."""
        chars = sum(len(f.text) for f in self.fragments)
        return chars > 0 and sum(len(f.text) for f in self.fragments if f.bold) > 0.5 * chars


@dataclass
class Page:
    index: int
    width: float
    height: float
    lines: list[Line]
    #: The first gutter's x position when the page has columns; all of them, left to right.
    gutter: float | None = None
    gutters: list[float] = field(default_factory=list)
    ocr: bool = False
    #: The lines `drop_running_text` took for running heads, feet and page numbers (what the reading never sees:
    #: a DOI among them that no reference carries is an entry's end lost, confidence.doi_warnings).
    furniture: list[Line] = field(default_factory=list)


#: Share of the page height at the top and bottom where running heads and page numbers live.
MARGIN_SHARE = 0.1


def find_gutter(frags: list[Fragment], width: float) -> float | None:
    """x of the strip between two columns, or None for a single-column page."""
    return _gutter_in(frags, 0.0, width)


#: Most columns a page is split into (newspaper-like layouts have four; more is noise).
MAX_COLUMNS = 4


def find_gutters(frags: list[Fragment], width: float) -> list[float]:
    """x of every strip between columns, left to right; empty for a single-column page.

    The widest gutter near the middle splits the page; each side is then searched the same way
    (a three-column page has a gutter near the middle of one side), so two, three or four columns
    come out of one rule."""
    gutters: list[float] = []
    todo = [(frags, 0.0, width)]
    while todo and len(gutters) < MAX_COLUMNS - 1:
        part, lo, hi = todo.pop()
        # Only the page as a whole is searched by bands too: inside a column, a band with text on both sides
        # of a strip is a table's.
        g = _gutter_in(part, lo, hi, banded=not gutters)
        if g is None:
            continue
        gutters.append(g)
        todo.append(([f for f in part if f.x1 <= g + 1], lo, g))
        todo.append(([f for f in part if f.x0 >= g - 1], g, hi))
    return sorted(gutters)


def _gutter_in(frags: list[Fragment], lo: float, hi: float, banded: bool = True) -> float | None:
    """The gutter in the middle 40% of [lo, hi]: a strip that many fragments end before and start
    after and almost none cross (`banded`: or, failing that, one of `_banded_gutter`)."""
    body = [f for f in frags if f.x1 - f.x0 > 2]
    if len(body) < 10:
        return None
    limit = max(2, len(body) // 12)
    span = hi - lo
    # Counted by bisection in the sorted edges, not by a pass over the fragments for each x. A fragment that
    # ends by x + 1 starts before x - 1 (it is more than 2 wide, and its width has no NaN), so the fragments
    # crossing x are those starting before x - 1 less those ending by x + 1.
    starts, ends = sorted(f.x0 for f in body), sorted(f.x1 for f in body)
    scores = []
    for x in range(int(lo + span * 0.3), int(lo + span * 0.7), 2):
        cross = bisect_left(starts, x - 1) - bisect_right(ends, x + 1)
        left = bisect_right(ends, x)
        right = len(body) - bisect_left(starts, x)
        ok = cross <= limit and left >= 5 and right >= 5 and min(left, right) >= 0.15 * len(body)
        scores.append((x, cross, ok))
    found = quietest_strip(scores)
    if found is None:
        return _banded_gutter(body, lo, hi) if banded else None
    return found


def quietest_strip(scores: list[tuple[int, int, bool]]) -> float | None:
    """The middle of the widest run of neighbouring candidates (x two points apart) that are acceptable and
    crossed by the fewest fragments, from (x, fragments crossing x, acceptable) in order of x; None when no
    candidate is acceptable."""
    best: int | None = None
    run: list[int] = []
    runs: list[list[int]] = []
    for x, cross, ok in scores:
        if ok and (best is None or cross < best):
            best = cross
            runs = [[x]]
            run = runs[0]
        elif ok and cross == best:
            if run and run[-1] == x - 2:
                run.append(x)
            else:
                run = [x]
                runs.append(run)
        else:
            run = []
    if best is None:
        return None
    widest = max(runs, key=len)
    return (widest[0] + widest[-1]) / 2


#: A band of a page that no fragment crosses holds a gutter when it has at least this many fragments on
#: each side of it, this share of the page's fragments, and this share of the height its text spans.
BAND_SIDE, BAND_SHARE, BAND_HEIGHT = 8, 0.4, 0.3


def _banded_gutter(body: list[Fragment], lo: float, hi: float) -> float | None:
    """The gutter of a page whose columns lie under or over text set across the page (a title block, a
    review copy's warnings, a wide figure) that crosses it too often for `_gutter_in`'s count: the x in the
    middle 40% of [lo, hi] with a band of the page (between fragments that cross it, top to bottom) that
    holds BAND_SIDE fragments or more on each side and BAND_SHARE of the page's, none crossing. The page's
    own whitespace says where its columns are, whatever is set across them elsewhere."""
    span = hi - lo
    order = sorted(body, key=lambda f: (f.y0 + f.y1) / 2)
    tall = BAND_HEIGHT * (max(f.y1 for f in body) - min(f.y0 for f in body))
    scores: list[tuple[int, int]] = []
    for x in range(int(lo + span * 0.3), int(lo + span * 0.7), 2):
        best = left = right = 0
        top = order[0].y0
        for f in order:
            if f.x0 < x - 1 and f.x1 > x + 1:
                left = right = 0  # a crossing fragment closes the band
                top = f.y1
                continue
            if f.x1 <= x + 1:
                left += 1
            else:
                right += 1  # not crossing and not ending before x: starts after it
            if min(left, right) >= BAND_SIDE and left + right >= BAND_SHARE * len(body) and f.y1 - top >= tall:
                best = max(best, min(left, right))
        if best:
            scores.append((best, x))
    if not scores:
        return None
    top = max(score for score, _x in scores)
    xs = [x for score, x in scores if score == top]
    runs: list[list[int]] = [[xs[0]]]
    for x in xs[1:]:
        if x == runs[-1][-1] + 2:
            runs[-1].append(x)
        else:
            runs.append([x])
    widest = max(runs, key=len)
    return (widest[0] + widest[-1]) / 2


#: A gutter seen at the same x (within this many points: ragged-right text moves a gutter's middle)
#: on several pages is the document's.
GUTTER_TOLERANCE = 12.0
#: ... when it is on at least this many pages and this share of the pages read.
GUTTER_MIN_PAGES, GUTTER_MIN_SHARE = 2, 0.25


def document_gutters(per_page: Sequence[Sequence[float]]) -> list[float]:
    """The gutters the document's pages share: x of each gutter found (`find_gutters`) on several
    of its pages; `per_page` holds each page's own gutters, [] for a page without columns.

    A page's own evidence can be too thin: the last page of a two-column bibliography often has a
    short right column (a few references at its top), too few fragments for `find_gutters`'s share
    rule, and its lines would then be read across both columns. Other pages of the same document
    say where its columns are."""
    found = sorted(g for gutters in per_page for g in gutters)
    out: list[float] = []
    for g in found:
        near = [h for h in found if abs(h - g) <= GUTTER_TOLERANCE]
        if len(near) >= GUTTER_MIN_PAGES and len(near) >= GUTTER_MIN_SHARE * len(per_page):
            centre = statistics.median(near)
            if not any(abs(centre - o) <= GUTTER_TOLERANCE for o in out):
                out.append(centre)
    return out


def _gutter_near(frags: list[Fragment], near: float) -> float | None:
    """The document's gutter (at `near`) on this page, if it splits it too: the x within
    GUTTER_TOLERANCE of it with text on both sides (a short column counts) and almost nothing
    set across it."""
    body = [f for f in frags if f.x1 - f.x0 > 2]
    if len(body) < 10:
        return None
    limit = max(2, len(body) // 12)
    best: tuple[int, float] | None = None
    for step in range(-int(GUTTER_TOLERANCE), int(GUTTER_TOLERANCE) + 1, 2):
        x = near + step
        cross = sum(1 for f in body if f.x0 < x - 1 and f.x1 > x + 1)
        left = sum(1 for f in body if f.x1 <= x)
        right = sum(1 for f in body if f.x0 >= x)
        if (
            cross <= limit
            and left >= 3
            and right >= 3
            and (best is None or (cross, abs(step)) < (best[0], abs(best[1] - near)))
        ):
            best = (cross, x)
    return None if best is None else best[1]


def _same_line(a: Fragment, b: Fragment) -> bool:
    h = min(a.y1 - a.y0, b.y1 - b.y0)
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap > 0.5 * max(h, 1.0)


def _lines_of(frags: list[Fragment], page: int, column: int) -> list[Line]:
    """Fragments of one column grouped into visual lines, top to bottom."""
    rows: list[list[Fragment]] = []
    for f in sorted(frags, key=lambda f: (f.y0 + f.y1) / 2):
        for row in reversed(rows[-3:]):
            if any(_same_line(f, g) for g in row):
                row.append(f)
                break
        else:
            rows.append([f])
    out = []
    for row in rows:
        row.sort(key=lambda f: f.x0)
        text = " ".join(f.text for f in row)
        out.append(
            Line(
                text=text,
                page=page,
                column=column,
                x0=min(f.x0 for f in row),
                y0=min(f.y0 for f in row),
                x1=max(f.x1 for f in row),
                y1=max(f.y1 for f in row),
                # The size most of the line's characters have: a glyph from another font ("ą") or a
                # superscript is a short fragment of its own size.
                size=_weighted_size(row),
                fragments=row,
            )
        )
    out.sort(key=lambda ln: ln.y0)
    return out


#: Fewest numbers in one stack that make it a review copy's line numbering; on a page of a document
#: whose other pages show numbering at the same place, fewer do (a short last page).
MIN_LINE_NUMBERS = 8
MIN_KNOWN_LINE_NUMBERS = 3
_BARE_INTEGER = re.compile(r"^\d{1,4}$")


def line_number_stacks(frags: list[Fragment], known: Sequence[float] = ()) -> list[list[Fragment]]:
    """The stacks of a review copy's line numbers on one page.

    A stack is bare integers whose right edges line up (numbers are set flush right) and whose values
    count up by one, top to bottom, for most neighbours: a table column counts up by one only when it
    numbers rows, and dropping row numbers loses nothing a bibliography needs. `known` are right edges
    where other pages of the document have such stacks."""
    out = []
    for stack in _integer_stacks(frags):
        at_known = any(abs(stack[0].x1 - x) <= 2.0 for x in known)
        if len(stack) < (MIN_KNOWN_LINE_NUMBERS if at_known else MIN_LINE_NUMBERS):
            continue
        stack.sort(key=lambda f: f.y0)
        values = [int(f.text) for f in stack]
        steps = [b - a for a, b in itertools.pairwise(values)]
        if sum(1 for s in steps if s == 1) >= 0.7 * len(steps) and all(s > 0 for s in steps):
            out.append(stack)
    return out


def line_number_edges(pages: Sequence[list[Fragment]]) -> list[float]:
    """Right edges of the line-number stacks found anywhere in a document, and of the short stacks (a
    ruler half hidden by a figure, or set beside part of a column only) found at one x on several pages
    whose numbers count up by one at every step."""
    edges = {round(stack[0].x1, 1) for frags in pages for stack in line_number_stacks(frags)}
    short: Counter[float] = Counter()
    for frags in pages:
        seen: set[float] = set()
        for stack in _integer_stacks(frags):
            values = [int(f.text) for f in sorted(stack, key=lambda f: f.y0)]
            if len(values) >= MIN_KNOWN_LINE_NUMBERS and all(b - a == 1 for a, b in itertools.pairwise(values)):
                seen.add(round(stack[0].x1))
        short.update(seen)
    edges |= {float(x) for x, n in short.items() if n >= 2 and not any(abs(x - e) <= 2.0 for e in edges)}
    return sorted(edges)


def _integer_stacks(frags: list[Fragment]) -> list[list[Fragment]]:
    """Bare integers grouped by their right edge (within 2 points)."""
    stacks: list[list[Fragment]] = []
    for f in sorted((f for f in frags if _BARE_INTEGER.match(f.text)), key=lambda f: f.x1):
        if stacks and abs(stacks[-1][-1].x1 - f.x1) <= 2.0:
            stacks[-1].append(f)
        else:
            stacks.append([f])
    return stacks


def drop_loose_line_numbers(pages: Sequence[list[Fragment]], known: Sequence[float] = ()) -> list[list[Fragment]]:
    """Each page's fragments without the loose numbers that carry a review ruler's count on (`known`: the right
    edges `line_number_edges` found).

    CVPR's ruler sets a page's last number alone beside the gutter ("... Masked Autoencoders that 274"), and a
    short run of a few numbers where a column ends early: one number at one x is no stack (`line_number_stacks`),
    but its value says what it is. Where the rulers count on from page to page (each page's numbers all above
    the page's before), a bare number that no ruler printed, next to one it did (or to one taken so), and
    between the numbers of the pages before and after its own, is one more. A page number or a list's label is
    a value the ruler printed too; a ruler that starts again on each page shows no such count, and nothing
    more is taken."""
    values = [sorted(int(f.text) for stack in line_number_stacks(frags, known) for f in stack) for frags in pages]
    ruled = [v for v in values if v]
    if len(ruled) < 2 or any(a[-1] >= b[0] for a, b in itertools.pairwise(ruled)):
        return [list(frags) for frags in pages]
    seen = {v for page in values for v in page}
    out = []
    for p, frags in enumerate(pages):
        low = max((v for page in values[:p] for v in page), default=-1)
        high = min((v for page in values[p + 1 :] for v in page), default=10**6)
        loose = [
            f for f in frags if _BARE_INTEGER.match(f.text) and int(f.text) not in seen and low < int(f.text) < high
        ]
        taken: set[int] = set()
        grew = True
        while grew:
            grew = False
            for f in loose:
                v = int(f.text)
                if id(f) not in taken and v not in seen and (v - 1 in seen or v + 1 in seen):
                    seen.add(v)
                    taken.add(id(f))
                    grew = True
        out.append([f for f in frags if id(f) not in taken])
    return out


def drop_line_numbers(frags: list[Fragment], known: Sequence[float] = ()) -> list[Fragment]:
    """The fragments without a review copy's line numbers (see `line_number_stacks`)."""
    drop = {id(f) for stack in line_number_stacks(frags, known) for f in stack}
    return [f for f in frags if id(f) not in drop] if drop else frags


def _weighted_size(row: list[Fragment]) -> float:
    sizes: Counter[float] = Counter()
    for f in row:
        sizes[round(f.size, 1)] += len(f.text)
    return sizes.most_common(1)[0][0]


def page_lines(
    frags: list[Fragment],
    index: int,
    width: float,
    height: float,
    line_numbers: Sequence[float] = (),
    known_gutters: Sequence[float] = (),
    own_gutters: Sequence[float] | None = None,
) -> Page:
    """Lines of one page in reading order (bands; in each band the columns left to right).

    `line_numbers`: right edges of review line numbers found on the document's other pages;
    `known_gutters`: the document's gutters (`document_gutters`) and those of the pages beside this one,
    tried in order when this page alone shows none;
    `own_gutters`: this page's own, when already found (`find_gutters` on the page without line numbers)."""
    frags = drop_line_numbers(frags, line_numbers)
    gutters = list(own_gutters) if own_gutters is not None else find_gutters(frags, width)
    if not gutters:
        gutters = [x for x in (_gutter_near(frags, g) for g in known_gutters) if x is not None][:1]
    if not gutters:
        single = _lines_of(frags, index, 0)
        g = gap_gutter(single, width)
        if g is None:
            return Page(index, width, height, single)
        gutters = [g]
    lines: list[Line] = []
    band: list[list[Fragment]] = [[] for _ in range(len(gutters) + 1)]
    spanning: list[Fragment] = []

    def close_band() -> None:
        columns = [_lines_of(fr, index, k + 1) for k, fr in enumerate(band)]
        filled = [col for col in columns if col]
        cuts = [_foot_start(col) for col in filled]
        tops = [col[c].y0 for col, c in zip(filled, cuts, strict=True) if c is not None]
        if (
            len(filled) >= 2
            and len(tops) == len(filled)
            and max(tops) - min(tops) <= 0.6 * min(col[c].size for col, c in zip(filled, cuts, strict=True) if c)
        ):
            # Notes or a bibliography set across the foot of all columns: read after all columns' text.
            lines.extend(ln for col, c in zip(filled, cuts, strict=True) for ln in col[:c])
            lines.extend(ln for col, c in zip(filled, cuts, strict=True) for ln in col[c:])
        else:
            lines.extend(ln for col in columns for ln in col)
        for fr in band:
            fr.clear()

    for f in sorted(frags, key=lambda f: (f.y0, f.x0)):
        if any(f.x0 < g - 1 and f.x1 > g + 1 for g in gutters):
            spanning.append(f)
            continue
        if spanning:
            close_band()
            lines.extend(_lines_of(spanning, index, 0))
            spanning = []
        band[sum(1 for g in gutters if f.x1 > g + 1)].append(f)
    close_band()
    lines.extend(_lines_of(spanning, index, 0))
    return Page(index, width, height, lines, gutter=gutters[0], gutters=gutters)


#: Lines read across a page whose gaps (wider than this many times the type size) line up at one x near the
#: middle, in at least GAP_LINES of them and GAP_SHARE of the page's lines, are two columns read as one.
GAP_WIDTH, GAP_LINES, GAP_SHARE = 1.0, 5, 0.3


def gap_gutter(lines: Sequence[Line], width: float) -> float | None:
    """The x of a gutter that the page's lines show when its columns were read as one: the middle of the gap
    that many lines have at the same place (each line two fragments, one per column, with white between),
    in the middle 40% of the page; None when they show none."""
    gaps: list[float] = []
    for ln in lines:
        frags = sorted(ln.fragments, key=lambda f: f.x0)
        for a, b in itertools.pairwise(frags):
            if b.x0 - a.x1 >= GAP_WIDTH * max(ln.size, 1.0) and 0.3 * width <= (a.x1 + b.x0) / 2 <= 0.7 * width:
                gaps.append((a.x1 + b.x0) / 2)
    if len(gaps) < max(GAP_LINES, GAP_SHARE * len(lines)):
        return None
    centre = statistics.median(gaps)
    near = [x for x in gaps if abs(x - centre) <= GUTTER_TOLERANCE]
    if len(near) < max(GAP_LINES, GAP_SHARE * len(lines)):
        return None
    return statistics.median(near)


#: Text this much smaller than a column's body is set apart (notes, captions, a bibliography in small type).
SMALL_SHARE = 0.92


class SizedText(Protocol):
    """Anything set in one size: a Line, or a Fragment (an OCR line)."""

    @property
    def text(self) -> str: ...

    @property
    def size(self) -> float: ...


def body_size(lines: Sequence[SizedText]) -> float:
    """The size most of the text is set in: the character-weighted median of the lines' sizes.

    Weighted by characters so that many short pieces (a figure's axis ticks and legends) do not set it.
    """
    weighted = sorted((ln.size, len(ln.text)) for ln in lines)
    half = sum(n for _, n in weighted) / 2
    seen = 0
    for size, n in weighted:
        seen += n
        if seen >= half:
            return size
    return weighted[-1][0] if weighted else 0.0


def _foot_start(lines: list[Line]) -> int | None:
    """Index of the first line of a block at a column's foot set in smaller type than the text above it,
    after a vertical gap (footnotes, or references set at the bottom of a short article's last page)."""
    k = len(lines)
    while k > 1 and lines[k - 1].size <= SMALL_SHARE * body_size(lines[: k - 1]):
        k -= 1
    if k == len(lines) or k == 0:
        return None
    above = body_size(lines[:k])
    if lines[k].y0 - lines[k - 1].y1 < 0.5 * above:
        return None
    return k


def _margin_key(text: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"\s+", " ", text.strip().casefold()))


_PAGE_NUMBER = re.compile(r"^(?:page\s+)?[\divxlc]{1,6}(?:\s*(?:/|of)\s*\d{1,6})?$", re.IGNORECASE)


#: A year closing a reference on a line of its own ("2022.", "2023a."): text, though it looks like the running
#: feet once digits are ignored (the same "#." at the foot of several pages).
_YEAR_CLOSING = re.compile(r"^\(?(?:19|20)\d\d[a-z]?\)?\.$")


def drop_running_text(pages: list[Page]) -> int:
    """Remove running headers, footers and page numbers in place; returns how many lines went."""
    keys: Counter[str] = Counter()
    for page in pages:
        seen = set()
        for ln in page.lines:
            if _in_margin(ln, page):
                seen.add(_margin_key(ln.text))
        keys.update(seen)
    # A foot or head set deeper into the page ("Manuscript submitted to ACM" 130 points above the page's foot):
    # the same text set apart at the top or foot of several pages.
    apart_keys: Counter[str] = Counter()
    for page in pages:
        apart_keys.update({_margin_key(ln.text) for ln in page.lines if _edge_line(ln, page)})
    deep = {k for k, n in apart_keys.items() if n >= 2 and len(pages) >= 2}
    repeated = {k for k, n in keys.items() if n >= 2 and len(pages) >= 2}
    slots = _head_slots(pages)
    dropped = 0
    for page in pages:
        kept = []
        for ln in page.lines:
            text = ln.text.strip()
            if (
                _in_margin(ln, page)
                and (_margin_key(text) in repeated or _PAGE_NUMBER.match(text) or _in_slot(ln, page, slots))
                and not _YEAR_CLOSING.match(text)
            ) or (_margin_key(text) in deep and _edge_line(ln, page, apart=False) and not _YEAR_CLOSING.match(text)):
                dropped += 1
                page.furniture.append(ln)
                continue
            kept.append(ln)
        page.lines = kept
    return dropped


#: A head or foot sits apart from the text: more than this many times its own type size from the nearest line.
HEAD_APART = 1.8


def _set_apart(line: Line, page: Page) -> bool:
    """The line is alone in a margin band, the nearest line on the page farther than HEAD_APART type sizes."""
    others = [ln for ln in page.lines if ln is not line]
    if not others:
        return False
    nearest = min(max(ln.y0 - line.y1, line.y0 - ln.y1) for ln in others)
    return nearest > HEAD_APART * max(line.size, 1.0)


def _head_slots(pages: list[Page]) -> list[tuple[float, float]]:
    """(y, size) where at least three pages set a line apart in a margin band: the place of a running head or
    foot, whatever it says (odd and even pages print different heads: the title, the authors)."""
    found = [(ln.y0, ln.size) for page in pages for ln in page.lines if _in_margin(ln, page) and _set_apart(ln, page)]
    slots: list[tuple[float, float]] = []
    for y, size in found:
        same = sum(1 for y2, s2 in found if abs(y2 - y) <= 1.0 and abs(s2 - size) <= 0.3)
        if same >= 3 and not any(abs(y - y2) <= 1.0 and abs(size - s2) <= 0.3 for y2, s2 in slots):
            slots.append((y, size))
    return slots


def _in_slot(line: Line, page: Page, slots: list[tuple[float, float]]) -> bool:
    """A line set apart in a margin band at a running head's place (`_head_slots`)."""
    return any(abs(line.y0 - y) <= 1.0 and abs(line.size - s) <= 0.3 for y, s in slots) and _set_apart(line, page)


#: Share of the page height at the top and bottom where a head or foot set apart from the text may sit.
DEEP_MARGIN_SHARE = 0.2


def _edge_line(line: Line, page: Page, apart: bool = True) -> bool:
    """The first or last line of its page, within DEEP_MARGIN_SHARE of the page's top or foot (`apart`: and set
    apart from the text; a page whose text fills it sets its foot closer)."""
    if not page.lines or (line is not page.lines[0] and line is not page.lines[-1]):
        return False
    deep = line.y0 < page.height * DEEP_MARGIN_SHARE or line.y1 > page.height * (1 - DEEP_MARGIN_SHARE)
    return deep and (not apart or _set_apart(line, page))


def _in_margin(line: Line, page: Page) -> bool:
    return line.y0 < page.height * MARGIN_SHARE or line.y1 > page.height * (1 - MARGIN_SHARE)
