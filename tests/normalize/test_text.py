"""Normalizers are pure functions: properties first, then the cases they exist for."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from citetracer.normalize.text import (
    _fold_general,
    canonical_arxiv,
    canonical_doi,
    canonical_pages,
    clean_title,
    fold,
    parse_year,
    title_key,
)

words = st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFG", min_size=1, max_size=8), min_size=1, max_size=8)


@given(st.text(max_size=60))
def test_fold_is_idempotent(text: str) -> None:
    once = fold(text)
    if not any(mark in text for mark in "\\{}$~%"):
        assert fold(once) == once


@given(words)
def test_title_key_ignores_case_punctuation_and_hyphenation(ws: list[str]) -> None:
    plain = " ".join(ws)
    assert title_key(plain) == title_key(plain.upper())
    assert title_key(plain) == title_key("-".join(ws) + ".")
    assert title_key(plain) == title_key("{" + plain + "}")


def test_fold_renders_latex_accents_and_ligatures() -> None:
    assert fold(r"Schr{\"o}dinger") == fold("Schrödinger") == "schrodinger"
    assert fold("ﬁne-tuning") == "fine-tuning"
    assert fold("Łukasz Kaiser") == "lukasz kaiser"


def test_clean_title_renders_markup_and_drops_final_period() -> None:
    assert clean_title(r"Flash{A}ttention: Fast {IO}-Awareness.") == "FlashAttention: Fast IO-Awareness"
    assert clean_title("100% \\emph{accurate}") == "100% accurate"


def test_canonical_doi_forms() -> None:
    expected = "10.1109/cvpr.2016.90"
    for form in ("10.1109/CVPR.2016.90", "https://doi.org/10.1109/CVPR.2016.90", "doi:10.1109/cvpr.2016.90."):
        assert canonical_doi(form) == expected
    assert canonical_doi("10.48550/arXiv.2602.12271v1") == "10.48550/arxiv.2602.12271"
    assert canonical_doi("not a doi") is None


def test_canonical_arxiv_forms() -> None:
    assert canonical_arxiv("arXiv:1706.03762v5") == "1706.03762"
    assert canonical_arxiv("https://arxiv.org/abs/1706.03762") == "1706.03762"
    assert canonical_arxiv("hep-th/9901001v2") == "hep-th/9901001"


def test_pages_expand_abbreviated_ranges() -> None:
    assert canonical_pages("1929--1958") == ("1929", "1958")
    assert canonical_pages("123-9") == ("123", "129")
    assert canonical_pages("e1001") == ("e1001", None)


def test_parse_year() -> None:
    assert parse_year("2021a") == 2021
    assert parse_year("March 2019") == 2019
    assert parse_year("n.d.") is None


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_fold_fast_path_for_plain_ascii_gives_the_general_result(text: str) -> None:
    assert fold(text) == _fold_general(text)


def test_latex_nested_too_deep_is_stripped_not_rendered() -> None:
    """pylatexenc recurses per group and, when the limit is hit inside its macro handling, reports
    the RecursionError as a TypeError: 300 nested groups crashed the reader (at most stack depths)."""
    from citetracer.normalize.text import latex_to_text

    deep = "\\newblock %https://e.org/title={title={% and van der title={" * 100

    def at_depth(extra: int) -> str:
        return at_depth(extra - 1) if extra else latex_to_text(deep)

    for extra in range(12):  # where the recursion limit falls within pylatexenc's frames
        latex_to_text.cache_clear()
        text = at_depth(extra)
        assert "title=" in text and "{" not in text
    assert latex_to_text("{" * 5000 + "x" + "}" * 5000) == "x"
    assert latex_to_text('Sch{\\"o}lkopf {{Deep}} nets') == "Schölkopf Deep nets"  # normal nesting still rendered
