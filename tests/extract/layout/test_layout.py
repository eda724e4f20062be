"""Columns, reading order and running heads from coordinates alone."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citetracer.extract.layout.page import (
    Fragment,
    Page,
    document_gutters,
    drop_running_text,
    find_gutter,
    find_gutters,
    page_lines,
    quietest_strip,
)
from citetracer.extract.segmentation.segment import join_lines


def frag(text: str, x0: float, y0: float, width: float = 200.0, size: float = 10.0) -> Fragment:
    return Fragment(text=text, x0=x0, y0=y0, x1=x0 + width, y1=y0 + size, size=size)


def two_columns() -> list[Fragment]:
    out = []
    for i in range(12):
        out.append(frag(f"left {i}", 50, 100 + 12 * i))
        out.append(frag(f"right {i}", 320, 100 + 12 * i))
    return out


def test_gutter_found_between_columns_and_not_in_single_column() -> None:
    gutter = find_gutter(two_columns(), 595)
    assert gutter is not None and 250 < gutter < 320
    single = [frag(f"line {i}", 50, 100 + 12 * i, width=480) for i in range(20)]
    assert find_gutter(single, 595) is None


def test_reading_order_left_column_then_right_and_full_width_bands() -> None:
    frags = [frag("Title across both columns", 50, 60, width=480), *two_columns()]
    page = page_lines(frags, 0, 595, 842)
    texts = [ln.text for ln in page.lines]
    assert texts[0] == "Title across both columns"
    assert texts[1:13] == [f"left {i}" for i in range(12)]
    assert texts[13:] == [f"right {i}" for i in range(12)]
    assert {ln.column for ln in page.lines[1:13]} == {1}


def test_running_heads_and_page_numbers_dropped() -> None:
    pages = []
    for n in range(3):
        lines = [
            frag("Journal of Tests, vol. 3", 50, 30),
            frag(f"Body of page {n} with real content", 50, 300),
            frag(str(n + 1), 290, 800, width=10),
        ]
        pages.append(Page(n, 595, 842, page_lines(lines, n, 595, 842).lines))
    assert drop_running_text(pages) == 6
    assert [ln.text for p in pages for ln in p.lines] == [f"Body of page {n} with real content" for n in range(3)]


def test_a_references_last_line_that_is_its_year_is_no_page_furniture() -> None:
    """A reference whose year runs onto a line of its own at the foot of a page ("2022." under "... In
    Machine Learning,") on two pages: the lines are alike once digits are ignored, as running feet are, but a
    year closing a reference is text (dropped, its reference ran into the next page's first one)."""
    pages = []
    for n in range(3):
        lines = [
            frag(f"Body of page {n} with real content, In Machine Learning,", 50, 740),
            frag(f"{2020 + n}.", 50, 752, width=30),
            frag(str(n + 1), 290, 800, width=10),
        ]
        pages.append(Page(n, 595, 842, page_lines(lines, n, 595, 842).lines))
    assert drop_running_text(pages) == 3
    assert [ln.text for p in pages for ln in p.lines][1::2] == ["2020.", "2021.", "2022."]


def test_join_lines_repairs_hyphenation_urls_and_ligatures() -> None:
    assert join_lines(["Statistical Self-", "Similarity and the ﬁnite Inter-", "national case"]) == (
        "Statistical Self-Similarity and the finite International case"
    )
    assert join_lines(["Metam\u00ad", "agical Themas"]) == "Metamagical Themas"
    assert (
        join_lines(["https://doi.org/10.1057/palgrave.ivs.", "9500082."])
        == "https://doi.org/10.1057/palgrave.ivs.9500082."
    )
    assert join_lines(["Nature 1 (2). https:", "//doi.org/10.1/x"]) == "Nature 1 (2). https://doi.org/10.1/x"
    assert join_lines(["Nature 1 (2). doi:10.", "1037/edu0000018"]) == "Nature 1 (2). doi:10.1037/edu0000018"


def test_join_lines_around_dois_that_a_template_breaks() -> None:
    """ICML/NeurIPS styles break a DOI inside its prefix, and set "URL" right after a DOI's period."""
    assert join_lines(["Surveys, 51(4):1-37, 2018. doi: 10.1", "145/3212695."]) == (
        "Surveys, 51(4):1-37, 2018. doi: 10.1145/3212695."
    )
    assert join_lines(["13:227-303, 2000. doi: 10.1613/jair.639.", "URL https://www.jair.org/10266."]) == (
        "13:227-303, 2000. doi: 10.1613/jair.639. URL https://www.jair.org/10266."
    )


def foot_columns(right_foot_y: float) -> list[Fragment]:
    """Two columns of 10 pt text over a block of 8 pt lines at the foot of each column."""
    out = []
    for i in range(10):
        out.append(frag(f"left text {i}", 50, 100 + 12 * i))
        out.append(frag(f"right text {i}", 320, 100 + 12 * i))
    for i in range(2):
        out.append(frag(f"left note {i}", 50, 300 + 9 * i, size=8))
        out.append(frag(f"right note {i}", 320, right_foot_y + 9 * i, size=8))
    return out


def test_notes_across_the_foot_of_both_columns_are_read_after_both_columns() -> None:
    texts = [ln.text for ln in page_lines(foot_columns(300), 0, 595, 842).lines]
    assert texts == (
        [f"left text {i}" for i in range(10)]
        + [f"right text {i}" for i in range(10)]
        + ["left note 0", "left note 1", "right note 0", "right note 1"]
    )


def test_small_text_at_the_foot_of_one_column_only_keeps_column_order() -> None:
    # The right column's small lines sit far lower: not one band of notes, plain column order.
    texts = [ln.text for ln in page_lines(foot_columns(500), 0, 595, 842).lines]
    assert texts == (
        [f"left text {i}" for i in range(10)]
        + ["left note 0", "left note 1"]
        + [f"right text {i}" for i in range(10)]
        + ["right note 0", "right note 1"]
    )


def test_three_columns_interleaved_are_read_column_by_column() -> None:
    frags = [frag("Title across all three columns", 50, 60, width=490)]
    for i in range(12):
        for k, x in enumerate((50, 220, 390)):
            frags.append(frag(f"col{k + 1} line {i}", x, 100 + 12 * i, width=150))
    page = page_lines(frags, 0, 595, 842)
    texts = [ln.text for ln in page.lines]
    assert texts[0] == "Title across all three columns"
    assert texts[1:] == [f"col{k} line {i}" for k in (1, 2, 3) for i in range(12)]
    assert [ln.column for ln in page.lines[1:]] == [k for k in (1, 2, 3) for _ in range(12)]
    assert len(page.gutters) == 2


def short_right_column() -> list[Fragment]:
    """The last page of a two-column bibliography: a full left column, three lines at the right's top."""
    out = [frag(f"left {i}", 50, 100 + 12 * i) for i in range(40)]
    out += [frag(f"right {i}", 320, 100 + 12 * i) for i in range(3)]
    return out


def test_a_short_column_is_read_as_a_column_where_the_document_has_that_gutter() -> None:
    page = short_right_column()
    assert find_gutters(page, 595) == []  # too little text on the right for the page alone
    texts = [ln.text for ln in page_lines(page, 0, 595, 842).lines]
    assert texts[:2] == ["left 0 right 0", "left 1 right 1"]  # what the page alone gives: lines read across

    others = [find_gutters(two_columns(), 595) for _ in range(3)]
    shared = document_gutters([*others, []])
    assert len(shared) == 1 and 250 < shared[0] < 320
    texts = [ln.text for ln in page_lines(page, 0, 595, 842, known_gutters=shared).lines]
    assert texts == [f"left {i}" for i in range(40)] + [f"right {i}" for i in range(3)]


def test_the_document_gutter_does_not_split_a_single_column_page() -> None:
    shared = document_gutters([find_gutters(two_columns(), 595) for _ in range(3)])
    single = [frag(f"line {i}", 50, 100 + 12 * i, width=480) for i in range(20)]
    page = page_lines(single, 0, 595, 842, known_gutters=shared)
    assert [ln.text for ln in page.lines] == [f"line {i}" for i in range(20)] and page.gutters == []


def test_a_gutter_on_one_page_only_is_not_the_documents() -> None:
    assert document_gutters([find_gutters(two_columns(), 595), [], [], []]) == []


def test_columns_under_many_lines_set_across_the_page_are_still_two_columns() -> None:
    """A review copy's first page: a title and warning lines across the top cross the gutter more often than
    the count of crossings allows; below them, the page's own whitespace still shows two columns."""
    across = [frag(f"WARNING LINE {i} SET ACROSS THE WHOLE PAGE", 60, 40 + 12 * i, width=470) for i in range(6)]
    left = [frag(f"left {i}", 50, 200 + 12 * i, width=220) for i in range(20)]
    right = [frag(f"right {i}", 320, 200 + 12 * i, width=220) for i in range(20)]
    frags = across + left + right
    assert len(across) > len(frags) // 12  # too many crossings for the count alone
    gutters = find_gutters(frags, 595)
    assert len(gutters) == 1 and 270 < gutters[0] < 320
    texts = [ln.text for ln in page_lines(frags, 0, 595, 842).lines]
    assert texts[6:26] == [f"left {i}" for i in range(20)] and texts[26:] == [f"right {i}" for i in range(20)]


def test_a_column_of_short_lines_is_no_gutter() -> None:
    """Lines that all end before the middle, with nothing starting after it, give no band with two sides."""
    short = [frag(f"short line {i}", 50, 100 + 12 * i, width=150) for i in range(30)]
    assert find_gutters(short, 595) == []


def test_lines_read_across_two_columns_show_their_gutter_by_the_gap_they_share() -> None:
    """Columns read as one (each line a left and a right fragment with white between them at one x) are
    found again from that gap; lines without such a gap show none."""
    from citetracer.extract.layout.page import Line, gap_gutter

    def line(k: int, gap: bool) -> Line:
        left = frag(f"left {k}", 50, 100 + 12 * k, width=220)
        right = frag(f"right {k}", 320 if gap else 272, 100 + 12 * k, width=220)
        return Line(f"left {k} right {k}", 0, 0, 50, left.y0, right.x1, left.y1, 10.0, [left, right])

    merged = [line(k, True) for k in range(12)]
    g = gap_gutter(merged, 595)
    assert g is not None and 270 < g < 320
    assert gap_gutter([line(k, False) for k in range(12)], 595) is None


def test_short_rulers_counting_up_at_one_x_on_several_pages_are_line_numbers() -> None:
    """A review copy's ruler beside the gutter shows six numbers a page (the rest hidden by a figure): too
    few for a stack on its own, but at the same x on several pages, counting up by one, it is a ruler."""
    from citetracer.extract.layout.page import drop_line_numbers, line_number_edges

    pages = []
    for p in range(3):
        ruler = [frag(str(100 * p + k), 274, 76 + 12 * k, width=13, size=8) for k in range(6)]
        text = [frag(f"text {p} {k}", 50, 76 + 12 * k) for k in range(6)]
        pages.append(ruler + text)
    edges = line_number_edges(pages)
    assert edges and abs(edges[0] - 287) <= 1
    assert all(f.text.startswith("text") for f in drop_line_numbers(pages[0], edges))
    # Numbers at one x on a single page, or not counting up by one, are not taken for a ruler.
    table = [[frag(str(v), 274, 76 + 12 * k, width=13) for k, v in enumerate([3, 9, 4, 12, 7, 1])]] * 3
    assert line_number_edges(table) == []


def test_a_loose_number_that_carries_the_rulers_count_on_is_a_line_number() -> None:
    """CVPR's review ruler numbers each column in its margin and sets a page's last number alone beside the
    gutter, where it was read into a reference's line ("... Masked Autoencoders that 274 Listen", held-out cvpr).
    A bare number outside any stack whose value carries on the count the rulers keep from page to page is one of
    them; the page number and a table's cell stay, and so does every loose number when the ruler starts again
    on each page (a label "51" in a list is then no continuation of it)."""
    from citetracer.extract.layout.page import drop_line_numbers, drop_loose_line_numbers, line_number_edges

    def page(p: int, first: int) -> list[Fragment]:
        left = [frag(f"{first + k:03d}", 16, 76 + 12 * k, width=13, size=8) for k in range(1, 51)]
        right = [frag(f"{first + 50 + k:03d}", 563, 76 + 12 * k, width=13, size=8) for k in range(1, 50)]
        text = [frag(f"Christoph Feichtenhofer. Masked Autoencoders {p} {k}", 50, 76 + 12 * k) for k in range(50)]
        text += [frag(f"{first + 100:03d}", 274, 688, width=13, size=8), frag(str(p + 1), 295, 734, width=5)]
        return left + right + text + [frag("512", 400, 300, width=13)]  # a table's cell

    pages = [page(p, 100 * p) for p in range(3)]
    edges = line_number_edges(pages)
    kept = [drop_line_numbers(frags, edges) for frags in drop_loose_line_numbers(pages, edges)]
    assert [[f.text for f in frags if f.text.isdigit()] for frags in kept] == [["1", "512"], ["2", "512"], ["3", "512"]]
    # a ruler that starts again on each page: the loose "100" of every page stays
    again = [page(p, 0) for p in range(3)]
    edges = line_number_edges(again)
    kept = [drop_line_numbers(frags, edges) for frags in drop_loose_line_numbers(again, edges)]
    assert all(
        [f.text for f in frags if f.text.isdigit()] == ["100", str(p + 1), "512"] for p, frags in enumerate(kept)
    )


def test_heads_that_differ_from_page_to_page_at_one_place_are_dropped() -> None:
    """Odd pages print the title, even pages the authors, each page its number: in three pages the title's head
    is on one page only, but the place repeats (set apart at the same height on three pages or more)."""
    pages = []
    for n in range(3):
        head = "A Study of Things 1 " + str(n + 1) if n % 2 else str(n + 1) + " Anonymous"
        lines = [frag(head, 50, 60, size=9)] + [frag(f"body {n} {k}", 50, 100 + 12 * k) for k in range(20)]
        pages.append(Page(n, 595, 842, page_lines(lines, n, 595, 842).lines))
    drop_running_text(pages)
    assert all(ln.text.startswith("body") for p in pages for ln in p.lines)


def test_a_foot_set_above_the_margin_band_and_repeated_on_pages_is_dropped() -> None:
    """ "Manuscript submitted to ACM" 130 points above the foot of every page; a full page sets it closer to the
    text, an emptier page far apart."""
    pages = []
    for n in range(3):
        rows = 45 if n == 0 else 10
        lines = [frag(f"body {n} {k}", 50, 100 + 12 * k, size=7) for k in range(rows)]
        lines.append(frag("Manuscript submitted to ACM", 50, 660, size=7))
        pages.append(Page(n, 595, 792, page_lines(lines, n, 595, 792).lines))
    drop_running_text(pages)
    assert not any("Manuscript" in ln.text for p in pages for ln in p.lines)
    assert sum(len(p.lines) for p in pages) == 65


def _gutter_by_passes(frags: list[Fragment], lo: float, hi: float) -> float | None:
    """`_gutter_in`'s counts as first written, a pass over the fragments for each x (no bands): the specification
    the bisecting count must keep (the strip is chosen from the counts as `_gutter_in` chooses it)."""
    body = [f for f in frags if f.x1 - f.x0 > 2]
    if len(body) < 10:
        return None
    limit = max(2, len(body) // 12)
    span = hi - lo
    scores = []
    for x in range(int(lo + span * 0.3), int(lo + span * 0.7), 2):
        cross = sum(1 for f in body if f.x0 < x - 1 and f.x1 > x + 1)
        left = sum(1 for f in body if f.x1 <= x)
        right = sum(1 for f in body if f.x0 >= x)
        ok = cross <= limit and left >= 5 and right >= 5 and min(left, right) >= 0.15 * len(body)
        scores.append((x, cross, ok))
    return quietest_strip(scores)


_EDGE = st.one_of(st.integers(0, 600).map(float), st.floats(0, 600, allow_nan=False), st.just(float("inf")))
_ANY_SPAN = st.tuples(_EDGE, st.one_of(st.floats(0, 300, allow_nan=False), st.sampled_from([1.0, 2.0, 3.0])))
#: Fragments of two columns (and some across them), edges on and off whole points.
_COLUMN_SPAN = st.tuples(
    st.sampled_from([40.0, 50.5, 60.0, 297.0, 299.0, 300.0, 301.5, 310.0]),
    st.sampled_from([2.0, 3.0, 180.0, 200.0, 200.0, 236.0, 239.0, 240.0, 249.0, 250.0, 400.0]),
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(_ANY_SPAN, max_size=80), st.lists(_COLUMN_SPAN, min_size=10, max_size=80)))
def test_gutter_counted_by_bisection_is_the_one_passes_find(spans: list[tuple[float, float]]) -> None:
    """Fragments at any edges (on whole points, where the counts' strict and loose bounds meet, 2 wide and less,
    running off the page): the gutter is the one counting fragments x by x finds."""
    from citetracer.extract.layout.page import _gutter_in

    frags = [
        Fragment(text="w", x0=x0, y0=10.0 * i, x1=x0 + w, y1=10.0 * i + 9, size=9.0) for i, (x0, w) in enumerate(spans)
    ]
    assert _gutter_in(frags, 0.0, 600.0, banded=False) == _gutter_by_passes(frags, 0.0, 600.0)
    assert _gutter_in(frags, 100.0, 400.0, banded=False) == _gutter_by_passes(frags, 100.0, 400.0)
