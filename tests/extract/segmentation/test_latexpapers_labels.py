"""bench/latexpapers.py's labels: the .bbl marks and how saved positions become line labels (no TeX needed)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from citetracer.extract.layout.page import Line

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
import latexpapers

BBL = r"""\begin{thebibliography}{2}
%Type = Article
\bibitem[{Abbas and Swoboda(2021)}]{ct000}
\bibinfo{author}{Abbas, A.}, \bibinfo{year}{2021}.
\newblock A title.
%Type = Inproceedings
\bibitem[{Bishop(2006)}]{ct001}
Bishop, C. 2006. Another title.

\end{thebibliography}
"""


def test_every_entry_gets_a_start_and_an_end_mark_outside_comments() -> None:
    marked = latexpapers.mark_bbl(BBL, ["ct000", "ct001"], None, random.Random(1))
    assert "{ct000}\\ctmark{B}{ct000}" in marked and "{ct001}\\ctmark{B}{ct001}" in marked
    assert "A title.\\ctmark{E}{ct000}\n%Type = Inproceedings" in marked
    assert "Another title.\\ctmark{E}{ct001}\n\\end{thebibliography}" in marked
    with_float = latexpapers.mark_bbl(BBL, ["ct000", "ct001"], "table", random.Random(1))
    assert "\\ctmark{F}{0}" in with_float and "\\ctmark{G}{0}" in with_float


def _line(text: str, y: float, page: int = 0) -> Line:
    return Line(text=text, page=page, column=0, x0=72, y0=y, x1=400, y1=y + 8, size=9.0)


def test_marks_become_begin_inside_other_and_a_float_inside_a_reference_is_other() -> None:
    lines = [
        _line("References", 80),
        _line("Abbas, A. 2021.", 100),
        _line("Table 1: Results of baselines from prior work.", 112),
        _line("A title.", 124),
        _line("Bishop, C. 2006. Another title.", 136),
        _line("A Proofs", 160),
    ]
    mark = latexpapers.Mark
    marks = [
        mark("B", "ct000", 0, 72, 107),
        mark("F", "0", 0, 72, 119),
        mark("G", "0", 0, 150, 119),
        mark("E", "ct000", 0, 120, 131),
        mark("B", "ct001", 0, 72, 143),
        mark("E", "ct001", 0, 300, 143),
    ]
    assert latexpapers.line_labels(lines, marks) == ["O", "B", "O", "I", "B", "O"]
    # A start that no line holds: no labels rather than wrong ones.
    assert latexpapers.line_labels(lines, [mark("B", "ct000", 0, 72, 400), mark("E", "ct000", 0, 72, 131)]) is None


def test_a_references_last_line_that_is_its_year_stays_inside_it_on_a_float_page() -> None:
    """A float's axis rows are several numbers; "2022." closing a reference is one, and stays I."""
    lines = [
        _line("Qian, Q. Unsupervised Visual Representation", 100),
        _line("Learning. In CVPR,", 112),
        _line("2022.", 124),
        _line("0.0 1.0 2.0 3.0", 140),
    ]
    mark = latexpapers.Mark
    marks = [
        mark("B", "ct000", 0, 72, 107),
        mark("E", "ct000", 0, 100, 131),
        mark("F", "0", 0, 72, 147),
        mark("G", "0", 0, 150, 147),
    ]
    assert latexpapers.line_labels(lines, marks) == ["B", "I", "I", "O"]
