"""Readers stay linear in their input: time per byte is flat when the input grows.

The BibTeX reader recounted line numbers from the file's start for every entry (a 49.9 MB
.bib took 2,229 s), and the field parser's sentence-end test backtracked on long tokens
(a 100k-character token: 298 s). Time on a shared machine is noisy, so these tests compare
the best of three runs (CPU time, no garbage collection) at two sizes, with a wide margin: a linear reader
grows about 4x when its input grows 4x, a quadratic one about 16x; the test fails above 9x.
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from citetracer.extract.fields.crf import ABBREVIATIONS, _ends_sentence
from citetracer.extract.readers.bibtex import parse_bibtex

#: A quadratic cost grows 16x when the input grows 4x, a linear one 4x: fail well between the two.
MAX_GROWTH = 9.0


def best_of_three(work: Callable[[], object]) -> float:
    """CPU seconds of this process (other jobs on the machine do not count), garbage collection off
    (its passes grow with the heap, not with the reader's work), the best of three."""
    times = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(3):
            start = time.process_time()
            work()
            times.append(time.process_time() - start)
    finally:
        if enabled:
            gc.enable()
    return min(times)


def growth(make: Callable[[int], object], run: Callable[[object], object], n: int) -> float:
    small, large = make(n), make(4 * n)
    return best_of_three(lambda: run(large)) / max(best_of_three(lambda: run(small)), 1e-6)


ENTRY = "@article{{k{i},\n  title = {{A Title Number {i}}},\n  author = {{Doe, Jane}},\n  year = {{2020}}\n}}\n\n"


def test_bibtex_time_per_entry_stays_flat() -> None:
    def make(n: int) -> str:
        return "".join(ENTRY.format(i=i) for i in range(n))

    assert growth(make, lambda text: parse_bibtex(str(text)), 4000) < MAX_GROWTH


def test_bibtex_line_numbers_are_still_exact() -> None:
    text = "% a comment\n\n" + "".join(ENTRY.format(i=i) for i in range(50)) + "@article{bad, title={x\n"
    result = parse_bibtex(text)
    assert [e.line for e in result.entries[:3]] == [3, 9, 15]
    assert result.entries[-1].line == 3 + 6 * 49
    assert result.errors and "line 303" in result.errors[0]


def test_a_long_token_costs_linear_time_in_the_sentence_end_test() -> None:
    def make(n: int) -> list[str]:
        return ["a" * n + "1", '"' * n + "x", "(" * n + "x" * n]

    assert growth(make, lambda toks: [_ends_sentence(t) for t in toks], 4000) < MAX_GROWTH  # type: ignore[attr-defined]


def _reference(tok: str) -> bool:
    """The sentence-end test as it was written (quadratic on long tokens): the oracle for short ones."""
    if re.search(r"[”\"’]\W*$", tok) or re.fullmatch(r"\(\d{4}[a-z]?\)[.,:]?", tok):
        return True
    if tok.rstrip(".").lstrip("([").lower() in ABBREVIATIONS:
        return False
    return bool(re.fullmatch(r"\S*[^\W\d_]{4,}[)\]]?[.?!]", tok)) or bool(re.fullmatch(r"\S*\d{4}[a-z]?\)?\.", tok))


TOKEN_CHARS = st.sampled_from([*"abcXYZé0129.,:;!?()[]\"”’'-_ \u00a0\u2003", "Proc", "al", "2019", "Trans"])


@given(st.lists(TOKEN_CHARS, max_size=12).map("".join))
@settings(max_examples=2000, deadline=None)
def test_the_sentence_end_test_answers_as_before(tok: str) -> None:
    """The parser's model was trained on these features: the linear rewrite must not change one answer."""
    assert _ends_sentence(tok) == _reference(tok)


def test_a_reference_with_a_huge_unbroken_run_is_cut_with_a_warning_and_stays_cheap() -> None:
    from citetracer.extract import read_text

    def make(n: int) -> str:
        return "\n".join(f"[{i}] A. Writer. Title {'x' * n} and more. In Proc. X, 2019." for i in range(3))

    assert growth(make, lambda text: read_text(str(text), suffix=".txt"), 4000) < MAX_GROWTH
    read = read_text("[1] A. Writer. A title. 2019. https://e.org/" + "a" * 2_000_000, suffix=".txt")
    assert any("characters long; only its first" in w for w in read.warnings)
    assert [r.year for r in read.references] == [2019]


def test_more_entries_than_are_read_is_said_not_cut_silently() -> None:
    from citetracer.extract import MAX_REFERENCES, read_text

    n = MAX_REFERENCES + 5
    bib = "".join(f"@misc{{k{i}, title={{T {i}}}, year={{2020}}}}\n" for i in range(n))
    read = read_text(bib, suffix=".bib")
    assert len(read.references) == MAX_REFERENCES
    assert any(f"{n:,} entries; only the first {MAX_REFERENCES:,} were read" in w for w in read.warnings)
