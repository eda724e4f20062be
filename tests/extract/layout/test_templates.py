"""Today's conference templates (NeurIPS, ICLR, ICML, ACL, CVPR): review line numbers, appendices and
checklists after the bibliography, full-name author lists. Each test lays out one such case."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from citetracer.extract import read_references
from citetracer.extract.layout.page import Fragment, page_lines
from tests.extract.conftest import Item, column

BODY: list[Item] = [
    (72, 100 + 14 * i, f"Body text line {i} of the paper, which talks about many things.", 10) for i in range(20)
]

AUTHOR_YEAR = [
    "Aslan, B., Platt, D., and Sheard, D. (2023). Group invariant machine learning by",
    ">fundamental domain projections. In NeurIPS Workshop on Symmetry, pp. 181-218.",
    "Bishop, C. M. (2006). Pattern Recognition and Machine Learning. Information Science",
    ">and Statistics. Springer.",
    "Blundell, C., Cornebise, J., and Wierstra, D. (2015). Weight uncertainty in neural",
    ">networks. In Proceedings of the 32nd International Conference on Machine Learning.",
]

#: What an appendix after the bibliography says: lines that a reference list would happily absorb.
APPENDIX_TEXT = [
    "Theorem 1 of Smith et al. (2020) holds for compact groups, see also Jones (2019).",
    "Roe, R. (2018). This sentence quotes a reference but is appendix text, set like one.",
    "Table 3: Results of Doe et al. (2021) and Roe (2022) on the benchmark, 2023 runs.",
]


def _digits_width(text: str, size: float) -> float:
    return 0.556 * size * len(text)  # Helvetica's digits are 0.556 em wide


def numbered_lines(items: list[Item], first: int, x_right: float = 62.0, size: float = 6.0) -> list[Item]:
    """The items with a review copy's line number set small, flush right, just left of each line."""
    out: list[Item] = []
    for k, (_x, y, *_rest) in enumerate(items):
        label = str(first + k)
        out.append((x_right - _digits_width(label, size), y, label, size))
    return out + items


def test_review_line_numbers_are_dropped_from_the_page() -> None:
    """A stack of bare integers at one x that counts up by one goes; a table column that does not, stays."""
    frags = []
    for i in range(20):
        y = 100 + 12 * i
        frags.append(Fragment(text=str(200 + i), x0=40, y0=y, x1=52, y1=y + 6, size=6))
        frags.append(Fragment(text=f"Text of line {i} in the body.", x0=70, y0=y, x1=300, y1=y + 10, size=10))
    for i, value in enumerate((3, 17, 4, 12, 9, 30, 2, 8, 15, 11)):
        y = 400 + 12 * i
        frags.append(Fragment(text=str(value), x0=380, y0=y, x1=392, y1=y + 10, size=10))
    page = page_lines(frags, 0, 595, 842)
    texts = [ln.text for ln in page.lines]
    assert not any(re.match(r"2\d\d\b", t) for t in texts)
    assert "Text of line 0 in the body." in texts
    assert sum(1 for t in texts if t.isdigit()) == 10


def test_review_copy_with_line_numbers_close_to_the_text(make_pdf: Callable[..., Path]) -> None:
    """ICLR/ACL review copies number every line in small type a few points left of the text: the number
    must not become part of the heading ("499 REFERENCES") or of a reference ("601 Yuyang Wang, ...")."""
    body = numbered_lines(BODY, 1)
    refs: list[Item] = [(72, 80, "REFERENCES", 10), *column(AUTHOR_YEAR, 72, 100, indent=12)]
    page = numbered_lines(refs, 21)
    result = read_references(make_pdf([body, page]))
    assert [r.year for r in result.references] == [2023, 2006, 2015]
    assert all(not (r.raw or "")[:1].isdigit() for r in result.references)
    assert not any("no bibliography heading" in w for w in result.warnings)


def test_full_names_in_continuation_lines_do_not_invert_the_hanging_indent(make_pdf: Callable[..., Path]) -> None:
    """ACL and NeurIPS write names in full, so continuation lines of long author lists open with a name
    ("Moontae Lee, Lajanugen ...") more often than first lines do; the indent still decides."""
    refs = [
        "Joel Jang, Dongkeun Yoon, Sohee Yang, Sungmin Cha,",
        ">Moontae Lee, Lajanugen Logeswaran, Minjoon Seo,",
        ">Kyle Richardson, Andrew Ng, and Percy Liang. 2022.",
        ">Knowledge unlearning for mitigating privacy risks.",
        "Ronen Eldan and Mark Russinovich. 2023. Who is",
        ">Harry Potter? Approximate unlearning in LLMs.",
        "Anmol Mekala, Vineeth Dorna, Shreya Dubey, Abhishek",
        ">Lalwani, David Koleczek, Mukund Rungta, Sadid Hasan,",
        ">Elita Lobo, Tom Brown, and Ann Lee. 2024. Alternate",
        ">preference optimization for unlearning.",
        "Minseok Choi and Jaegul Choo. 2024. Snap: Unlearning",
        ">selective knowledge in large language models.",
    ]
    page: list[Item] = [(72, 80, "References", 12), *column(refs, 72, 100, indent=11)]
    result = read_references(make_pdf([BODY, page]))
    assert [r.year for r in result.references] == [2022, 2023, 2024, 2024]


def test_a_page_of_one_reference_s_continuation_lines_keeps_its_edge(make_pdf: Callable[..., Path]) -> None:
    """A consortium reference with hundreds of authors fills a whole page with continuation lines: none
    of them is at the page's left edge, which the same column on the other pages shows."""
    longest = ">Zhang, Zhao, Zhou, Zhu, Zou, Abbott, Baker, Carter, Dalton, Ellis, Foster, Grant, Hayes,"
    names = ">Adams, Brown, Clark, Davis, Evans, Green, Harris, Jones, King, Lewis, Moore, Nelson,"
    first = [
        "Bloom, B. H. (1970). Space/time trade-offs in hash coding with allowable errors.",
        ">Communications of the ACM, 13(7):422-426.",
        "Zeman, D., Nivre, J., Abrams, M., Ackermann, E., Aepli, N., Aghaei, H., Agic, Z.,",
        longest,
        *[names] * 5,
    ]
    middle = [longest, *[names] * 8]
    last = [
        ">and Zhu, H. (2023). Universal dependencies 2.13. LINDAT/CLARIAH-CZ repository.",
        "Vaswani, A., Shazeer, N., and Parmar, N. (2017). Attention is all you need.",
        ">In Advances in Neural Information Processing Systems, volume 30.",
        longest.replace(">", ">In ") + " 2018.",
        "Wolf, T., Debut, L., and Sanh, V. (2020). Transformers: State-of-the-art natural",
        ">language processing. In Proceedings of EMNLP: System Demonstrations.",
    ]
    pages = [
        BODY,
        [(72, 80, "References", 12), *column(first, 72, 100, indent=11)],
        column(middle, 72, 100, indent=11),
        column(last, 72, 100, indent=11),
    ]
    refs = read_references(make_pdf(pages)).references
    assert [r.year for r in refs] == [1970, 2023, 2017, 2020]
    assert [b.page for b in refs[1].boxes] == [2, 3, 4]


APPENDIX_HEADINGS: list[list[Item]] = [
    [(72, 240, "A Proofs", 12)],
    [(72, 240, "A. Access pipeline and operational lessons", 12)],
    [(72, 240, "C PROOF OF THEOREM 1", 12)],
    [(72, 240, "Appendix", 10, "B")],
    [(72, 240, "Supplementary Material", 14)],
    [(72, 240, "Contents", 12), (72, 256, "1 Introduction 1", 10), (72, 268, "2 Related Work 3", 10)],
    [(72, 240, "NeurIPS Paper Checklist", 10)],
    [(72, 240, "LLM Usage Statement", 10, "B")],
    [(72, 240, "Broader Impact", 10, "B")],
    [(72, 240, "A.1 Experimental setup", 10, "B")],
]


@pytest.mark.parametrize("heading", APPENDIX_HEADINGS, ids=lambda h: str(h[0][2]))
@pytest.mark.parametrize("new_page", [False, True], ids=["same page", "new page"])
def test_the_bibliography_ends_at_an_appendix_or_back_matter_heading(
    make_pdf: Callable[..., Path], heading: list[Item], new_page: bool
) -> None:
    refs: list[Item] = [(72, 80, "References", 12), *column(AUTHOR_YEAR, 72, 100, indent=12)]
    after = heading + [(72, 290 + 14 * i, t, 10) for i, t in enumerate(APPENDIX_TEXT)]
    if new_page:
        after = [(x, y - 160, t, s, *rest) for x, y, t, s, *rest in after]  # type: ignore[misc]
        pages = [BODY, refs, after]
    else:
        pages = [BODY, refs + after]
    result = read_references(make_pdf(pages))
    assert [r.year for r in result.references] == [2023, 2006, 2015]


def test_lines_that_merely_open_like_headings_do_not_end_the_bibliography(make_pdf: Callable[..., Path]) -> None:
    """A continuation opening with an initial ("M. QSGD: ...") or a title opening with "A" is set like
    the other references: the list goes on."""
    refs = [
        "Alistarh, D., Grubic, D., Li, J., Tomioka, R., and Vojnovic,",
        ">M. QSGD: Communication-efficient SGD via gradient quantization",
        ">and encoding. In Advances in Neural Information Processing Systems, 2017.",
        "Kumar, R. and Lee, S. (2021).",
        ">A Neurosymbolic Approach for Logical Reasoning",
        ">by Large Language Models. In Proceedings of ACL.",
        "Poggio, T., Mhaskar, H., Rosasco, L., Miranda, B., and Liao,",
        ">Q. Why and when can deep but not shallow networks avoid the curse",
        ">of dimensionality. International Journal of Automation, 2017.",
    ]
    page: list[Item] = [(72, 80, "References", 12), *column(refs, 72, 100, indent=12)]
    result = read_references(make_pdf([BODY, page]))
    assert [r.year for r in result.references] == [2017, 2021, 2017]


def test_the_heading_with_references_under_it_wins(make_pdf: Callable[..., Path]) -> None:
    """A later "References" that heads a table column in the appendix has no references under it."""
    refs: list[Item] = [(72, 80, "References", 12), *column(AUTHOR_YEAR, 72, 100, indent=12)]
    appendix: list[Item] = [
        (72, 80, "A Data sources", 12),
        (72, 110, "Table 4: Where each benchmark comes from.", 10),
        (72, 130, "References", 10),
        *[(72, 145 + 12 * i, f"Benchmark{i} accuracy 0.{50 + i} 0.{60 + i} model v{i}", 10) for i in range(8)],
    ]
    result = read_references(make_pdf([BODY, refs, appendix]))
    assert [r.year for r in result.references] == [2023, 2006, 2015]


def test_a_float_and_a_footnote_among_the_references_are_left_out(make_pdf: Callable[..., Path]) -> None:
    """NeurIPS sets references in \\small: a footnote in the same size at the page's foot ("7There are
    ...", mark glued to its word) and a figure's caption in the body's larger type on the next page are
    no part of the reference around them."""
    first: list[Item] = [
        (72, 80, "References", 12),
        *column(AUTHOR_YEAR[:4], 72, 100, size=9, indent=10, leading=10),
        (80, 160, "7There are other explanations possible. Perhaps better optimization methods exist", 9),
        (72, 170, "for open reward models; or their reward models have heavy-tailed error.", 9),
    ]
    second: list[Item] = [
        (72, 80, "Figure A.1: As t grows, the mean of X grows without bound while the divergence", 10),
        (72, 92, "goes to 0. The base distribution Q is a Student t-distribution with df = 3.", 10),
        *column(AUTHOR_YEAR[4:], 72, 120, size=9, indent=10, leading=10),
    ]
    refs = read_references(make_pdf([BODY, first, second])).references
    assert [r.year for r in refs] == [2023, 2006, 2015]
    assert not any("explanations" in (r.raw or "") or "Figure" in (r.raw or "") for r in refs)


def test_the_last_lines_of_a_list_in_a_column_of_their_own_stay_continuations(
    make_pdf: Callable[..., Path],
) -> None:
    """A figure set in two columns under the list's last line makes that page two-column: the one
    continuation line there sits in a column no other page has, indented from the list's edge."""
    refs: list[Item] = [(72, 80, "References", 12), *column(AUTHOR_YEAR, 72, 100, indent=12)]
    refs += [(72, 180, "Zhou, B. and Khosla, A. Object detectors emerge in deep scene", 10)]
    last: list[Item] = [(84, 80, "CNNs, Apr. 2015.", 10), (72, 100, "A Extra", 12)]
    # Two columns of figure labels below it.
    last += [(72, 130 + 12 * i, f"panel {i} of the figure on the left", 10) for i in range(12)]
    last += [(330, 130 + 12 * i, f"panel {i} of the figure on the right", 10) for i in range(12)]
    refs_read = read_references(make_pdf([BODY, refs, last])).references
    assert [r.year for r in refs_read] == [2023, 2006, 2015, 2015]
    assert (refs_read[-1].raw or "").endswith("deep scene CNNs, Apr. 2015.")


def test_a_flush_list_without_spacing_splits_where_its_own_start_pattern_recurs(
    make_pdf: Callable[..., Path],
) -> None:
    """No hanging indent, no space between references, names written given name first: a reference
    starts after a sentence's end where a line opens the way the list's first line does."""
    refs = [
        "Lukas Balles and Philipp Hennig. Dissecting adam: The sign, magnitude and variance of",
        "stochastic gradients. In International Conference on Machine Learning, 2018.",
        "Jeremy Bernstein and Laker Newhouse. Old optimizer, new norm: An anthology. arXiv",
        "preprint arXiv:2409.20325, 2024.",
        "Tri Dao, Daniel Y. Fu, and Stefano Ermon. FlashAttention: Fast and memory-efficient",
        "exact attention with IO-awareness. In Advances in Neural Information Processing Systems.",
        "Kaiming He and Jian Sun. Deep residual learning for image recognition, 2016.",
    ]
    page: list[Item] = [(72, 80, "References", 12), *column(refs, 72, 100)]
    result = read_references(make_pdf([BODY, page]))
    assert [(r.raw or "").split(" ", 1)[0] for r in result.references] == ["Lukas", "Jeremy", "Tri", "Kaiming"]


def test_an_ocr_page_estimated_larger_does_not_end_the_list() -> None:
    """OCR gives each page one size: a next page estimated 20% larger is not a heading on every short line."""
    from citetracer.extract.layout.page import Line
    from citetracer.extract.layout.region import region_end

    def line(text: str, page: int, y: float, size: float) -> Line:
        return Line(text=text, page=page, column=0, x0=72, y0=y, x1=400, y1=y + size, size=size)

    first = [line(t.lstrip(">"), 0, 100 + 12 * i, 10.0) for i, t in enumerate(AUTHOR_YEAR)]
    second = [
        line("Lang, J. M. (2016). Small teaching: Everyday lessons from the science of learning. John", 1, 80, 12.0),
        line("Wiley & Sons.", 1, 94, 12.0),
        line("Roe, R. (2018). A study of teaching. Journal of Education, 3, 1-9.", 1, 108, 12.0),
        line("A Proofs", 1, 140, 14.5),
    ]
    lines = first + second
    assert region_end(lines, 0) == len(lines) - 1


def _bibliography_page(first: int, left: int, right: int) -> list[Item]:
    """A two-column page of author-year references (hanging indents): `left` of them in the left column,
    then `right` at the top of the right column."""
    items: list[Item] = []
    words = ["graphs", "kernels", "agents", "proteins", "speech", "robots", "tables", "music", "sensors"]
    for k in range(left + right):
        n = first + k
        ref = [
            f"Author{n}, A., and Writer{n}, B. (20{10 + n % 15}).",
            f">A study of {words[n % 9]} and {words[(n * 7) % 9]}, part {n}. In",
            f">Proc. Conference on {words[(n * 5) % 9].title()}, pp. {n}-{n + 9}.",
        ]
        x, row = (50, k) if k < left else (310, k - left)
        items += column(ref, x, 110 + 38 * row, size=9, indent=10, leading=11)
    return items


def test_last_page_with_a_short_right_column_is_read_column_by_column(make_pdf: Callable[..., Path]) -> None:
    """The bibliography's last page: a full left column and two references at the top of the right one.
    The page alone shows too little text on the right to find its gutter; the document's other pages do."""
    body = [(x, 100 + 14 * i, f"Body text {i} of the paper, in two columns.", 9) for i in range(40) for x in (50, 310)]
    heading: list[Item] = [(50, 96, "References", 11, "B")]
    path = make_pdf([body, heading + _bibliography_page(1, 17, 17), _bibliography_page(35, 17, 2)])
    refs = read_references(path).references
    assert [r.raw.split(",")[0] for r in refs] == [f"Author{n}" for n in range(1, 54)]


def test_last_page_with_one_reference_in_its_left_column(make_pdf: Callable[..., Path]) -> None:
    """A page holding a single reference (five lines, four of them indented): its lines are one reference
    whose first line is flush with the edge the other pages show, not five references."""
    heading: list[Item] = [(50, 96, "References", 11, "B")]
    last = [
        "Author35, A., Writer35, B., Third, C., Fourth, D.,",
        ">and Fifth, E. (2019). A study of tables that",
        ">goes on over several lines of its column. In",
        ">Proc. Conference on Long Titles and Many",
        ">Authors, pages 35-44.",
    ]
    path = make_pdf(
        [BODY, heading + _bibliography_page(1, 17, 17), column(last, 50, 110, size=9, indent=10, leading=11)]
    )
    refs = read_references(path).references
    assert [r.raw.split(",")[0] for r in refs] == [f"Author{n}" for n in range(1, 36)]
