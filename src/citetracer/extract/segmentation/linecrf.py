"""Learned reference segmentation: a CRF labels each line from the bibliography heading on.

Hand-written rules (segment.py, region.py) decide where a reference starts by
the strongest signal a list offers, and where the list ends by what a heading
says; each new template meets them with a layout they were not tuned on (flush
references with no gap, a full-page figure inside the list, an appendix heading
that reads like a reference). GROBID's answer is a sequence labeller over layout
tokens; this is one over lines: each line from the region's start to the
document's end is the begin of a reference (B), inside one (I), or other (O:
heading, figure, table, page furniture, appendix), from its layout against the
list's own habits:

- x-offset against its column's left edge and against the list's common offsets;
- type size and face against the list's and the page's body text;
- vertical pitch to the previous line against the list's common pitch; column
  and page breaks; where the line sits in its column;
- how the previous line ends (period, year, page range, hyphen, comma, short; a
  word a phrase runs on after, such as "of"), also as seen by the list's habits:
  an author-year list (where a line ending in a year is inside an entry) or a
  numbered one, a flush list (no hanging indent: only words tell the entries
  apart) or a hanging one;
- how the line opens (a list label, and whether it continues the count; a year
  is no label; a "Surname, X." or "X. Surname" name; an upper-case author run; a
  year; how many of its first words are capitalised, as names are);
- the rules' readings as features, never as the decision: reference-like, a
  bibliography or back-matter heading, an item that reads as an equation or
  table row, and whether the rule segmenter starts a reference here.

Page furniture (a page number, a running head set apart at the top or foot of a
page) is labelled O without the model and left out of the sequence it labels.

Rules stand over the model's reading: a back-matter heading after the list ends
it (`close_at_back_matter`, here), and the repairs of repairs.py mend the cuts
the entries themselves show to be wrong (a piece of an entry read as a
reference, two entries read as one, a reference's rest after a float, a foot
read into a reference). The line shapes both read live in shapes.py.

The model (data/segmenter.crfsuite) is trained by scripts/train_segmenter.py on
papers typeset by bench/latexpapers.py, labelled from positions the PDF itself
saved. pdf.py keeps the rule path as a fallback (see `choose`).
"""

from __future__ import annotations

import itertools
import os
import re
import statistics
import threading
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from citetracer.extract.layout.markers import Markers
from citetracer.extract.layout.page import Line, body_size
from citetracer.extract.layout.region import _END, _SECTION, ends_bibliography, is_heading, reference_like, region_end
from citetracer.extract.segmentation.plausibility import kind_of_item
from citetracer.extract.segmentation.repairs import (
    drop_stray_feet,
    join_split_entries,
    rejoin_after_floats,
    split_run_together,
)
from citetracer.extract.segmentation.segment import Block, split_blocks
from citetracer.extract.segmentation.shapes import (
    _ALPHA_LABEL,
    _FULL_NAME,
    _INITIALS_SURNAME,
    _LABEL,
    _OPENS_YEAR,
    _RUN_ON,
    _SURNAME_INITIALS,
    _UPPER_RUN,
    _YEAR,
    _bin,
    _list_habits,
)

LABELS = ("B", "I", "O")
MODEL_NAME = "segmenter.crfsuite"
#: A list of fewer lines than this (as the rules read it) shows no habits of its own to weigh a line against.
SHORT_LIST = 12
#: Most lines labelled after the region's start (a 150-page document's tail is far fewer).
MAX_LINES = 20_000

_PAGE_RANGE = re.compile(r"\d+\s*[-–—]\s*\d+\.?$")
#: A bare page number (or "Page 3 of 9") left among the lines: the previous line of the next line is the one before it.
_FURNITURE = re.compile(r"^(?:page\s+)?\d{1,4}(?:\s*(?:/|of)\s*\d{1,4})?$", re.IGNORECASE)
_URL = re.compile(r"https?://|doi\.org|\bdoi\b|arxiv", re.IGNORECASE)


#: A review copy's line number left at the end of a line ("Learning Representations. 123"); a year is no
#: line number ("December 3, 2026", a preprint's date at a page's foot, ends in a year, not a comma).
_TRAILING_NUMBER = re.compile(r"(?<=[.,;:)])\s+(?!(?:19|20)\d\d$)\d{1,4}$")


def _ending(text: str) -> str:
    t = _TRAILING_NUMBER.sub("", text.rstrip())
    if not t:
        return "empty"
    if _PAGE_RANGE.search(t):
        return "pages"
    if re.search(r"(?:19|20)\d\d[a-z]?[.)]*$", t):
        return "year"
    if t.endswith(("-", "\u00ad")):
        return "hyphen"
    return {".": "period", ",": "comma", ":": "colon", ";": "semicolon", ")": "paren"}.get(t[-1], "other")


def _label_number(text: str) -> int | None:
    """The number a line opens with as a list label ("[12]", "12.", "(12)", "12 Surname"), or None; a year
    ("2021. Are Neural Rankers ...", an author-year reference's title line) is no label."""
    m = _LABEL.match(text)
    if not m:
        return None
    digits = next(g for g in m.groups() if g)
    n = int(digits)
    if len(digits) == 4 and 1900 <= n < 2100:
        return None
    return n


def _opening(text: str) -> list[str]:
    t = text.strip()
    out = []
    if _label_number(t) is not None:
        out.append("label")
    if _ALPHA_LABEL.match(t):
        out.append("alabel")
    if _SURNAME_INITIALS.match(t):
        out.append("sur_init")
    if _INITIALS_SURNAME.match(t):
        out.append("init_sur")
    if _FULL_NAME.match(t):
        out.append("full_name")
    if _UPPER_RUN.match(t):
        out.append("upper")
    if _OPENS_YEAR.match(t):
        out.append("year")
    first = t[:1]
    out.append("lower" if first.islower() else "digit" if first.isdigit() else "upper1" if first.isupper() else "sym")
    word = t.split(" ", 1)[0].lower().strip(".,")
    if word in ("in", "and", "of", "the", "pp", "vol", "doi", "url", "arxiv", "proceedings", "journal"):
        out.append("w=" + word)
    return out


def _edges(lines: Sequence[Line], size: float) -> dict[tuple[int, int], float]:
    """Each page column's left edge: the leftmost x that several of its lines share."""
    groups: dict[tuple[int, int], list[float]] = defaultdict(list)
    for ln in lines:
        groups[(ln.page, ln.column)].append(ln.x0)
    out = {}
    for key, xs in groups.items():
        bins = Counter(round(x / 2) for x in xs)
        shared = [b * 2 for b, n in bins.items() if n >= 2]
        out[key] = min(shared) if shared else min(xs)
    return out


def rule_reading(lines: Sequence[Line], markers: Markers | None = None) -> tuple[int, set[int], set[int]]:
    """The rule path's reading of the window: where its region ends, the lines it starts references
    at, and the lines it keeps (it leaves out footnotes under the list, runs set larger than the list
    and lines far left of their column)."""
    rule_end = region_end(list(lines), 0)
    try:
        blocks, _how = split_blocks(list(lines[:rule_end]), markers)
    except (ValueError, statistics.StatisticsError):
        blocks = []
    index = {id(ln): k for k, ln in enumerate(lines)}
    starts = {index.get(id(b.lines[0]), -1) for b in blocks if b.lines}
    kept = {index.get(id(ln), -1) for b in blocks for ln in b.lines}
    return rule_end, starts, kept


def features(lines: Sequence[Line], markers: Markers | None = None) -> list[dict[str, Any]]:
    """One feature dict per line of the window (the region's start to the document's end)."""
    if not lines:
        return []
    head = lines[: min(len(lines), 80)]
    size = body_size(head) or 10.0
    by_page: dict[int, list[Line]] = defaultdict(list)
    for ln in lines:
        by_page[ln.page].append(ln)
    page_size = {p: body_size(group) or size for p, group in by_page.items()}
    edges = _edges(lines, size)
    right: dict[tuple[int, int], float] = defaultdict(float)
    for ln in lines:
        key = (ln.page, ln.column)
        right[key] = max(right[key], ln.x1)
    offsets = [round((ln.x0 - edges[(ln.page, ln.column)]) / size * 2) for ln in head]
    common = [o for o, _ in Counter(offsets).most_common(2)]
    pitches = [
        b.y0 - a.y0 for a, b in itertools.pairwise(head) if a.page == b.page and a.column == b.column and b.y0 > a.y0
    ]
    usual = sorted(pitches)[len(pitches) // 5] if pitches else 1.2 * size
    rule_starts: set[int] = set()
    kept: set[int] = set()
    rule_end, rule_starts, kept = rule_reading(lines, markers)
    # The list's habits from the rules' region when it holds a list (the window runs on to the document's
    # end: a short list's first 80 lines hold an appendix too), else from the window's head.
    listed = lines[:rule_end] if rule_end >= SHORT_LIST else head
    style, indent = _list_habits(listed, [round((ln.x0 - edges[(ln.page, ln.column)]) / size * 2) for ln in listed])
    if rule_end < SHORT_LIST:
        indent = "short"  # a list of a few lines shows no habit of indentation (one-line entries are all flush)
    column_top: dict[tuple[int, int], int] = {}
    column_end: dict[tuple[int, int], int] = {}
    for k, ln in enumerate(lines):
        column_top.setdefault((ln.page, ln.column), k)
        column_end[(ln.page, ln.column)] = k
    out: list[dict[str, Any]] = []
    last_label = 0
    prev: Line | None = None
    for k, ln in enumerate(lines):
        text = ln.text.strip()
        key = (ln.page, ln.column)
        f: dict[str, Any] = {"bias": 1.0}
        apart = _apart(lines, k, usual)
        number = _FURNITURE.match(text) is not None
        # A bare number at the top or foot of its page is its page number; inside a column it may be a
        # DOI's or a page range's tail that ran onto a line of its own.
        edge = (k == 0 or lines[k - 1].page != ln.page) or (k + 1 == len(lines) or lines[k + 1].page != ln.page)
        if (number and edge) or (apart and not reference_like(text)):
            f["furniture"] = 1.0
        elif number:
            f["bare_number"] = 1.0
        elif apart:
            f["apart"] = 1.0
        furniture = number or "furniture" in f
        nxt = lines[k + 1] if k + 1 < len(lines) else None
        if nxt is not None and nxt.page == ln.page and nxt.column == ln.column and usual > 0:
            f["ngap=" + _bin((nxt.y0 - ln.y0) / usual, (1.15, 1.6, 3.0), ("tight", "gap", "big", "huge"))] = 1.0
            f["nxgap=" + _extra(nxt.y0 - ln.y0, usual, size)] = 1.0
        off = (ln.x0 - edges[key]) / size
        f["dx=" + _bin(off, (-1.0, 0.5, 1.5, 3.0), ("left", "flush", "ind1", "ind2", "far"))] = 1.0
        rounded = round(off * 2)
        if common and rounded == common[0]:
            f["at_common1"] = 1.0
        elif len(common) > 1 and rounded == common[1]:
            f["at_common2"] = 1.0
        ratio = ln.size / size
        f["size=" + _bin(ratio, (0.85, 0.95, 1.06, 1.2), ("small", "smaller", "same", "larger", "large"))] = 1.0
        page_ratio = ln.size / page_size[ln.page]
        f["psize=" + _bin(page_ratio, (0.92, 1.06), ("small", "same", "large"))] = 1.0
        if ln.bold:
            f["bold"] = 1.0
        fill = (right[key] - ln.x1) / size
        f["fill=" + _bin(fill, (1.0, 4.0, 10.0), ("full", "near", "short", "stub"))] = 1.0
        f["len=" + _bin(len(text), (8, 25, 60), ("tiny", "short", "mid", "long"))] = 1.0
        if prev is None:
            f["first"] = 1.0
        elif prev.page != ln.page:
            f["newpage"] = 1.0
        elif prev.column != ln.column:
            f["newcol"] = 1.0
        else:
            pitch = (ln.y0 - prev.y0) / usual if usual > 0 else 1.0
            f["gap=" + _bin(pitch, (0.5, 1.15, 1.6, 3.0), ("back", "tight", "gap", "big", "huge"))] = 1.0
            f["xgap=" + _extra(ln.y0 - prev.y0, usual, size)] = 1.0
        if prev is not None:
            ending = _ending(prev.text)
            f["prev_end=" + ending] = 1.0
            f[f"prev_end={ending}|{style}"] = 1.0
            f[f"prev_end={ending}|{indent}"] = 1.0
            f["prev_word=" + _last_word(prev.text)] = 1.0
            prev_fill = (right[(prev.page, prev.column)] - prev.x1) / size
            f["prev_fill=" + _bin(prev_fill, (1.0, 4.0, 10.0), ("full", "near", "short", "stub"))] = 1.0
            prev_off = (prev.x0 - edges[(prev.page, prev.column)]) / size
            f["dx_vs_prev=" + _bin(off - prev_off, (-0.5, 0.5), ("left", "same", "right"))] = 1.0
        for o in _opening(text):
            f["open=" + o] = 1.0
            f[f"open={o}|{indent}"] = 1.0
        f["caps=" + _caps(text)] = 1.0
        n = _label_number(text)
        if n is not None:
            if n == last_label + 1 or (last_label == 0 and n in (1, 2)):
                f["label_next"] = 1.0
                last_label = n
        if k == column_top[key]:
            f["col_top"] = 1.0
        if k == column_end[key]:
            f["col_end"] = 1.0
        f[f"column={min(ln.column, 2)}"] = 1.0
        if _YEAR.search(text):
            f["has_year"] = 1.0
        if "et al" in text:
            f["has_etal"] = 1.0
        if _URL.search(text):
            f["has_url"] = 1.0
        if reference_like(text):
            f["rule_reflike"] = 1.0
        if is_heading(text):
            f["rule_bibheading"] = 1.0
        if k and ends_bibliography(list(lines), k, size):
            f["rule_ends"] = 1.0
        if _END.match(text):
            f["rule_backmatter"] = 1.0
        if _SECTION.match(text) and len(text) < 70:
            f["rule_section"] = 1.0
        kind = kind_of_item(text)
        if kind:
            f["rule_kind=" + kind.split()[0]] = 1.0
        if k in rule_starts:
            f["rule_start"] = 1.0
        if k < rule_end:
            f["rule_region"] = 1.0
            if k not in kept:
                f["rule_dropped"] = 1.0
        elif k == rule_end:
            f["rule_region_end"] = 1.0
        out.append(f)
        if not furniture:
            prev = ln  # a page number left on the page is not what the next line follows
    _add_neighbours(out)
    return out


def _last_word(text: str) -> str:
    """What the line's last word is: a word a phrase runs on after ("of", "and": the entry goes on), a
    lower-case or capitalised word, a number, or punctuation's end (then `_ending` says which)."""
    words = text.split()
    word = words[-1] if words else ""
    if word.lower() in _RUN_ON:
        return "runon"
    if word[-1:].isalpha():
        return "lower" if word[-1].islower() and word[:1].islower() else "upper"
    return "digit" if word[-1:].isdigit() else "punct"


def _extra(pitch: float, usual: float, size: float) -> str:
    """The space a line's pitch adds to the list's usual pitch, against the type size: a list set with a
    little space between entries (a point or so) shows it here where the ratio bins see none."""
    return _bin((pitch - usual) / size, (-0.3, 0.05, 0.2, 0.6), ("back", "none", "small", "some", "big"))


def _caps(text: str) -> str:
    """How name-like the line's first words are: the share of its first four words that are capitalised
    (an author list: all; a sentence-case title or a venue's tail: few)."""
    words = [w for w in text.split()[:4] if w[:1].isalpha()]
    if not words:
        return "none"
    share = sum(1 for w in words if w[0].isupper()) / len(words)
    return _bin(share, (0.5, 0.99), ("few", "most", "all"))


def _apart(lines: Sequence[Line], k: int, usual: float) -> bool:
    """A short line alone at the top or foot of its page, set apart from the text by more than two
    lines' pitch: a running head or foot that the layout's repetition rule left (they differ page by page)."""
    ln = lines[k]
    if len(ln.text) > 60 or usual <= 0:
        return False
    before = lines[k - 1] if k else None
    after = lines[k + 1] if k + 1 < len(lines) else None
    if (before is None or before.page != ln.page) and after is not None and after.page == ln.page:
        return after.y0 - ln.y0 > 2.2 * usual
    if (after is None or after.page != ln.page) and before is not None and before.page == ln.page:
        return ln.y0 - before.y0 > 2.2 * usual
    return False


#: Features of the lines before and after that a line sees as its own.
_NEIGHBOUR = (
    "dx=",
    "open=",
    "gap=",
    "fill=",
    "size=",
    "rule_start",
    "rule_ends",
    "newpage",
    "newcol",
    "bold",
    "rule_region",
)


def _add_neighbours(feats: list[dict[str, Any]]) -> None:
    """Each tagged line sees its tagged neighbours' features (page furniture between them is skipped)."""
    order = [k for k, f in enumerate(feats) if "furniture" not in f]
    own = {k: {name: v for name, v in feats[k].items() if name.startswith(_NEIGHBOUR)} for k in order}
    for j, k in enumerate(order):
        if j:
            feats[k].update({"-1:" + name: v for name, v in own[order[j - 1]].items()})
        if j + 1 < len(order):
            feats[k].update({"+1:" + name: v for name, v in own[order[j + 1]].items()})


def sequence(lines: Sequence[Line], markers: Markers | None = None) -> tuple[list[int], list[dict[str, Any]]]:
    """The lines the model labels (their indices) and their features: every line of the window but page
    furniture (a page number, a running head set apart at the top or foot of its page), which is never
    part of a reference and is labelled O without the model, so that the lines around it follow each
    other for the model as they do for the reader."""
    feats = features(lines, markers)
    order = [k for k, f in enumerate(feats) if "furniture" not in f]
    return order, [feats[k] for k in order]


#: The marginals of a line the model does not label.
CERTAIN_O = {"B": 0.0, "I": 0.0, "O": 1.0}


@dataclass
class Reading:
    """The segmenter's reading of a window: a label per line, and the model's probability of each label per
    line (its marginals: what `confidence` weighs a reading against)."""

    labels: list[str]
    marginals: list[dict[str, float]]


class Segmenter:
    """The shipped model, loaded once per process; one tagger per thread (a Tagger is not thread-safe)."""

    def __init__(self, path: str) -> None:
        import pycrfsuite

        self._path = path
        self._tagger_cls = pycrfsuite.Tagger
        self._local = threading.local()

    def _tagger(self) -> Any:
        tagger = getattr(self._local, "tagger", None)
        if tagger is None:
            tagger = self._tagger_cls()
            tagger.open(self._path)
            self._local.tagger = tagger
        return tagger

    def label(self, lines: Sequence[Line], markers: Markers | None = None) -> list[str]:
        """B / I / O for each line (see `close_at_back_matter` and repairs.py for the rules that override the
        model)."""
        return self.read(lines, markers).labels

    def read(self, lines: Sequence[Line], markers: Markers | None = None) -> Reading:
        """The labels (as `label` gives them) and the model's probability of each label on each line."""
        if not lines:
            return Reading([], [])
        window = lines[:MAX_LINES]
        order, feats = sequence(window, markers)
        labels = ["O"] * len(lines)
        # Page furniture and lines past MAX_LINES are O outside the model: certain as far as it can tell.
        marginals = [dict(CERTAIN_O) for _ in lines]
        tagger = self._tagger()
        for j, (k, label) in enumerate(zip(order, tagger.tag(feats), strict=True)):
            labels[k] = label
            marginals[k] = {name: tagger.marginal(name, j) for name in LABELS}
        labels, left_out = _overrule(lines, window, markers, labels)
        # A line the rules' filters leave out is O by the rules, as page furniture is: the model's doubt about
        # it (it would have read a footnote under the list, or a journal's citation line at the foot of the
        # page, into the reference above) is no doubt about the reading taken.
        for k in left_out:
            marginals[k] = dict(CERTAIN_O)
        return Reading(labels, marginals)


def _overrule(
    lines: Sequence[Line], window: Sequence[Line], markers: Markers | None, labels: list[str]
) -> tuple[list[str], list[int]]:
    """The model's labels with the rules that stand over it applied, and the lines the rules' filters left out."""
    # What the rules leave out inside their region (a footnote under the list, a float set in the
    # body's larger type) stays out: those filters are the rule path's most precise part.
    rule_end, _starts, kept = rule_reading(window, markers)
    left_out = [k for k, label in enumerate(labels) if kept and k < rule_end and k not in kept and label != "O"]
    labels = ["O" if k in left_out else label for k, label in enumerate(labels)]
    labels = drop_stray_feet(lines, close_at_back_matter(lines, labels))
    labels = split_run_together(lines, join_split_entries(lines, labels))
    return rejoin_after_floats(lines, labels), left_out


def close_at_back_matter(lines: Sequence[Line], labels: list[str]) -> list[str]:
    """The labels with everything from the first back-matter heading after the list's first reference set
    to O: a heading that names back matter ("Appendix", "Checklist") or a lettered section heading set
    larger or bolder than the list ("A Linear Algebra and Probability Theory"). The model weighs these
    headings as features and still, on a page it has not seen, may read an appendix that follows on the
    same page as more references; a figure's caption or axis text is no such heading, so a float page
    inside the list does not end it."""
    first = next((k for k, label in enumerate(labels) if label == "B"), None)
    if first is None:
        return labels
    window = list(lines)
    size = body_size(window[first : first + 40])
    for k in range(first + 1, len(window)):
        if ends_bibliography(window, k, size, named_only=True) and not _heads_columns(window, k):
            return labels[:k] + ["O"] * (len(labels) - k)
    return labels


def _heads_columns(lines: Sequence[Line], k: int) -> bool:
    """The line is the first of its page, set across the page above text set in columns: a running head
    (ICML's paper title, "A Study of Things 13", bold, reads like a lettered heading), not a heading of the
    columns' text (an appendix heading in a two-column paper sits in its column)."""
    ln = lines[k]
    first = k == 0 or lines[k - 1].page != ln.page
    below = lines[k + 1] if k + 1 < len(lines) else None
    return first and ln.column == 0 and below is not None and below.page == ln.page and below.column >= 1


#: A model file to use instead of the packaged one (benchmarks compare models trained on other data with it).
MODEL_ENV = "CITETRACER_SEGMENTER_MODEL"


@lru_cache(maxsize=1)
def default_segmenter() -> Segmenter | None:
    """The packaged model (or the file CITETRACER_SEGMENTER_MODEL names), or None when it is absent (the rule
    path is used then)."""
    chosen = os.environ.get(MODEL_ENV, "").strip()
    if chosen:
        return Segmenter(chosen) if os.path.isfile(chosen) else None
    try:
        path = resources.files("citetracer.data") / MODEL_NAME
        if not path.is_file():
            return None
        with resources.as_file(path) as real:
            return Segmenter(str(real))
    except (ImportError, OSError):
        return None


def blocks_from_labels(lines: Sequence[Line], labels: Sequence[str]) -> list[Block]:
    """References from labelled lines: each B opens one, I lines join it, O lines are left out (a figure
    inside the list does not end it); an I with no reference open opens one."""
    blocks: list[Block] = []
    current: list[Line] | None = None
    for ln, label in zip(lines, labels, strict=True):
        if label == "B" or (label == "I" and current is None):
            current = [ln]
            blocks.append(Block(current))
        elif label == "I" and current is not None:
            current.append(ln)
    for block in blocks:
        m = _LABEL.match(block.lines[0].text) or _ALPHA_LABEL.match(block.lines[0].text)
        if m:
            block.label = m.group(0).strip().strip("[]().").strip()
    return blocks
