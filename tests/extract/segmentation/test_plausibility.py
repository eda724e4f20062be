"""In-text markers, the numbering they make segmentation prefer, plausibility warnings and --ref-pages."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from citetracer.cli import main
from citetracer.extract import parse_page_range, read_references
from citetracer.extract.layout.markers import Markers, find_markers
from citetracer.extract.segmentation.plausibility import PREFIX, check, kind_of_item
from citetracer.records import Reference
from tests.extract.conftest import Item, column


def test_numbered_markers_give_the_list_length() -> None:
    markers = find_markers(
        [
            "as shown in [1] and [2-4], later [5, 7] and [6]; also [8] and [9],",
            "[10]. An interval [0, 1] and channel sizes [32, 64, 64, 128] are no citations, nor is [2019].",
        ]
    )
    assert markers.style == "numbered"
    assert markers.expected() == 10


def test_author_year_markers_count_distinct_works() -> None:
    markers = find_markers(
        [
            "Prior work (Smith et al., 2020; Lee and Kim, 2019a, b) and Jones (2018) showed this. In 2020",
            "the field moved; Table 2021 is no author. Smith et al. (2020) again, and Jones & Roe, 2017.",
        ]
    )
    assert markers.style == "author-year"
    assert markers.author_year == {
        ("smith", "2020"),
        ("lee", "2019a"),
        ("lee", "2019b"),
        ("jones", "2018"),
        ("jones", "2017"),
    }


def test_parenthesised_numbers_count_only_without_brackets_or_names() -> None:
    text = [f"tools ({n}) and ({n + 1})" for n in range(1, 12)] + ["by Eq. (40) and (41)"]
    assert find_markers(text).expected() == 12
    assert find_markers(["steps (1), (2) and (3) of the method"]).expected() is None


def test_kinds_of_items_that_are_not_references() -> None:
    assert kind_of_item("L(θ) = ∑ log p(x | θ) + λ ||θ||^2") == "equation"
    assert kind_of_item("GPT-4 0.81 0.77 0.93 12.5 41.0") == "table row"
    assert kind_of_item("B.2 Experimental Setup") == "section heading"
    assert kind_of_item("Smith, J. (2020). A = B: a study of equality. Journal of Math, 3(2), 1-9.") is None
    assert kind_of_item("Kerner Lab. Fields of the world: releases. https://source.coop/kerner-lab") is None
    run_on = " ".join(f"Author{n}, A. ({2010 + n}). Paper {n}. Journal, {n}." for n in range(4))
    assert kind_of_item(run_on) == "several references run together"
    accessed = "Lab, K. (2019). Tool. Version 2 (2020). https://x.org/tool. Accessed 2024."
    assert kind_of_item(accessed) is None


def _refs(pages: list[int]) -> list[Reference]:
    return [Reference(raw=f"Author{i}, A. (2020). Paper {i}. Journal, 1-2.", page=p) for i, p in enumerate(pages)]


def test_a_count_far_from_the_markers_is_a_warning_naming_the_pages() -> None:
    numbered = Markers(numbers=set(range(1, 104)))
    (warning,) = check(_refs([12, 12, 13, 13, 14, 14, 14]), numbered, [12, 13, 14])
    assert warning.startswith(PREFIX)
    assert "7 references" in warning and "pages 12-14" in warning and "up to 103" in warning
    assert "--ref-pages" in warning
    assert check(_refs([12] * 101), numbered, [12]) == []  # two off: within a list's honest variation
    author_year = Markers(author_year={(f"name{i}", "2020") for i in range(70)})
    assert check(_refs([9] * 175), author_year, [9, 10, 11]) != []
    assert check(_refs([9] * 64), author_year, [9, 10, 11]) == []
    assert check(_refs([9] * 3), Markers(), [9]) == []  # nothing cited: nothing to compare


def test_odd_items_and_a_spread_list_are_warnings() -> None:
    odd = [Reference(raw="x = y + z · w", page=15), Reference(raw="0.51 0.66 0.72 0.80", page=16)]
    refs = [*_refs([10, 10, 11]), *odd]
    warnings = check(refs, Markers(), list(range(10, 17)))
    assert any("equation" in w and "page(s) 15" in w for w in warnings)
    assert any("table row" in w and "page(s) 16" in w for w in warnings)
    assert any("spans 7 pages (10-16) for 5 references" in w for w in warnings)


BODY_CITING = [(72, 100 + 14 * i, f"Body line {i} builds on [{i + 1}] and on earlier work.", 10) for i in range(10)]


def test_the_numbering_the_body_cites_beats_a_longer_contents_list(make_pdf: Callable[..., Path]) -> None:
    """An appendix's table of contents set like the list (no heading the region ends at) gives a longer
    label sequence "1 ... 2 ..." than the references' [1]-[5]; it reads like no reference list."""
    refs = [f"[{n}] A. Author{n}. A paper on topic {n}. In Proc. of the Conference, 20{10 + n}." for n in range(1, 6)]
    contents = [f"{n} Section number {n} of the appendix material {n + 2}" for n in range(1, 9)]
    page: list[Item] = [
        (72, 80, "References", 12),
        *column(refs, 72, 100),
        *[(72, 180 + 12 * i, t, 10) for i, t in enumerate(contents)],
    ]
    body = [(72, 100 + 14 * i, f"Body line {i} builds on [{i % 5 + 1}] and on earlier work.", 10) for i in range(10)]
    result = read_references(make_pdf([body, page]))
    assert [r.label for r in result.references[:5]] == ["1", "2", "3", "4", "5"]
    assert [r.year for r in result.references[:5]] == [2011, 2012, 2013, 2014, 2015]


def test_a_collapsed_list_is_not_silent(make_pdf: Callable[..., Path]) -> None:
    """The text cites [1]-[10]; a list printed as one run-on paragraph reads as far fewer references."""
    run_on = " ".join(f"A. Author{n}. Paper {n}. Journal {n}, 20{10 + n}." for n in range(1, 11))
    lines = [run_on[i : i + 90] for i in range(0, len(run_on), 90)]
    page: list[Item] = [(72, 80, "References", 12), *[(72, 100 + 12 * i, t, 10) for i, t in enumerate(lines)]]
    result = read_references(make_pdf([BODY_CITING, page]))
    assert len(result.references) < 5
    assert any(w.startswith(PREFIX) and "page 2" in w and "up to 10" in w for w in result.warnings)


def test_parse_page_range() -> None:
    assert parse_page_range("12-14") == (12, 14)
    assert parse_page_range("12–14") == (12, 14)
    assert parse_page_range(" 7 ") == (7, 7)
    for bad in ("", "a-b", "14-12", "0-3", "1-2-3"):
        with pytest.raises(ValueError):
            parse_page_range(bad)


HANGING = [
    "Doe, J. (2001). A study of things. Journal of Things, 1(2), 3-4.",
    "Roe, R. (2002). Another study of things. Journal of Things, 2(3), 4-5.",
    "Poe, E. (2003). A third study of things. Journal of Things, 3(4), 5-6.",
]


def test_ref_pages_sets_the_region_by_hand(make_pdf: Callable[..., Path], tmp_path: Path) -> None:
    """The list has an unusual heading; an appendix with reference-like lines follows. By hand, the
    region is the pages named, and still ends at an appendix heading there."""
    refs: list[Item] = [(72, 80, "Works we read", 12), *column(HANGING, 72, 100)]
    refs += [(72, 200, "A Proofs", 12), (72, 220, "Lemma 1 of Smith et al. (2020) holds, see Jones (2019).", 10)]
    appendix = [(72, 100 + 14 * i, f"Moe, M. ({2004 + i}). Appendix line {i} set like one.", 10) for i in range(6)]
    body: list[Item] = [(72, 100 + 14 * i, f"Body line {i} of a paper that cites nothing.", 10) for i in range(10)]
    path = make_pdf([body, refs, appendix])
    out = tmp_path / "out.json"
    assert main(["extract", str(path), "--ref-pages", "2-2", "--format", "json", "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert [r["year"] for r in doc["references"]] == [2001, 2002, 2003]
    assert read_references(path, (2, 2)).warnings == []


def test_ref_pages_errors_are_clear(
    make_pdf: Callable[..., Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_pdf([BODY_CITING, [(72, 80, "References", 12), *column(HANGING, 72, 100)]])
    assert main(["extract", str(path), "--ref-pages", "5-9"]) == 2
    assert "past the PDF's 2 pages" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["extract", str(path), "--ref-pages", "nine"])
    assert exit_info.value.code == 2
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{a, title={A study}, author={Doe, J.}, year={2001}, journal={J}}\n")
    result = read_references(bib, (1, 2))
    assert len(result.references) == 1
    assert any("--ref-pages applies to PDF input only" in w for w in result.warnings)
