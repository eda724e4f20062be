"""Every text reader stays linear on inputs nobody wrote by hand: hypothesis builds a short
pattern from the characters and pieces that readers treat specially (braces, quotes, BibTeX and
.bbl openers, initials, years, URLs, newlines), repeats it to two sizes, and the reader's time
must grow about as its input does (tests/extract/readers/test_linear_time.py explains the measure).

A quadratic reader hides behind patterns its author never tried (a line number recounted per
entry, a regex backtracking over a long run); a generated pattern finds those. It found one: the
test whether a text is BibTeX rescanned every run of blank lines from each of its line starts."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from citetracer.extract import read_text
from tests.extract.readers.test_linear_time import MAX_GROWTH, best_of_three

PIECES = [
    *"aZé0 9{}\"'\\,.;:=()[]-&%@#~\n\t",
    "@article{k,",
    "title={",
    "author = ",
    "\\bibitem{x}",
    "\\newblock ",
    "[12] ",
    "J. ",
    "van der ",
    " and ",
    "et al. ",
    "In Proc. ",
    "2019. ",
    "pp. 1-10, ",
    "doi:10.1/x ",
    "https://e.org/",
    "arXiv:2101.00001 ",
]
PATTERN = st.lists(st.sampled_from(PIECES), min_size=1, max_size=12).map("".join)
#: Below this many CPU seconds for the large input, a growth ratio is noise, not a quadratic.
FLOOR = 0.05


@given(PATTERN, st.sampled_from(["", ".bib", ".bbl", ".txt", ".jsonl"]))
@example("\n", "")  # found by this test: blank lines were rescanned from every line start (54 s for 192 KB)
@example(" \n\n", ".bbl")
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
def test_time_per_byte_stays_flat_on_generated_inputs(pattern: str, suffix: str) -> None:
    reps = max(1, 3000 // len(pattern))
    small, large = pattern * reps, pattern * (4 * reps)
    t_large = best_of_three(lambda: read_text(large, suffix=suffix))
    if t_large < FLOOR:
        return
    t_small = best_of_three(lambda: read_text(small, suffix=suffix))
    assert t_large / max(t_small, 1e-6) < MAX_GROWTH, (pattern, suffix, t_small, t_large)


@given(PATTERN, st.integers(1, 400), st.sampled_from(["", ".bib", ".bbl", ".txt", ".jsonl"]))
@example("\\newblock %https://e.org/title={title={% and van der title={", 100, ".txt")  # found by this test
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_readers_never_raise_on_generated_inputs(pattern: str, reps: int, suffix: str) -> None:
    """A reader gives references and warnings, never an exception: 300 nested groups made the LaTeX
    renderer (pylatexenc) report its RecursionError as a TypeError, which crashed the check."""
    read = read_text(pattern * reps, suffix=suffix)
    assert all(isinstance(w, str) for w in read.warnings)
