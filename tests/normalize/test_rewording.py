"""A title rewritten word for word in place is no renamed version of the title it was made from."""

from __future__ import annotations

import pytest

from citetracer.normalize.rewording import swapped_in_place

REAL = "Tyche: A Hybrid Computation Framework of Illumination Pattern for Satellite Beam Hopping"


def test_content_words_swapped_one_for_one_in_place_are_a_rewrite() -> None:
    cited = "Tyche: A Unidirectional Computation Framework of Illumination Features for Ground Beam Hopping"
    assert swapped_in_place(cited, REAL) == (
        ("unidirectional", "hybrid"),
        ("features", "pattern"),
        ("ground", "satellite"),
    )


@pytest.mark.parametrize(
    "cited",
    [
        # one content word traded: a version may call its "pattern" "patterns" or its "framework" "system"
        "Tyche: A Hybrid Computation System of Illumination Pattern for Satellite Beam Hopping",
        # spellings and function words are no swaps
        "Tyche: An Hybrid Computation Framework of Illumination Patterns in Satellite Beam Hopping",
        # words added or dropped, a subtitle recast to another length: what a renaming does
        "Tyche: Hybrid Computation of Illumination Patterns for Beam Hopping in Satellite Networks",
        "A Hybrid Computation Framework of Illumination Pattern for Satellite Beam Hopping",
        "Tyche: Computing Beam Hopping Illumination Patterns for Satellites with a Hybrid Framework",
        REAL,
    ],
)
def test_what_a_renamed_version_does_is_no_rewrite(cited: str) -> None:
    assert swapped_in_place(cited, REAL) == ()


def test_a_rewrite_keeps_a_frame_of_content_words() -> None:
    """Two titles of two words each, both swapped, share nothing that shows one was made from the other."""
    assert swapped_in_place("Fuzzy Multiplex", "Crisp Uniplex") == ()


@pytest.mark.parametrize(
    ("cited", "found", "swapped"),
    [
        # a phrase put in place of a phrase of another length, the rest kept where it stood
        (
            "Magneton: Enhancing Performance of ML Systems via Differential Energy Analysis",
            "Magneton: Optimizing Energy Efficiency of ML Systems via Differential Energy Debugging",
            ("enhancing", "performance", "analysis"),
        ),
        # words moved within the title are no new words; the ones put in their place are
        (
            "CoolServe: Enabling Many-for-One CPU Prewarming for Single-LLM Serving",
            "WarmServe: Enabling One-for-Many GPU Prewarming for Multi-LLM Serving",
            ("coolserve", "cpu", "single"),
        ),
    ],
)
def test_phrases_swapped_in_place_are_a_rewrite(cited: str, found: str, swapped: tuple[str, ...]) -> None:
    assert tuple(c for c, _ in swapped_in_place(cited, found)) == swapped


@pytest.mark.parametrize(
    "cited",
    [
        # the same words reordered: a renaming
        "Tyche: Illumination Patterns for Satellite Beam Hopping, Computed by a Hybrid Framework",
        # a long phrase recast
        "Tyche: A Hybrid Framework that Computes the Illumination of Beams Hopping Between Satellites",
    ],
)
def test_a_title_reordered_or_recast_at_length_is_no_rewrite(cited: str) -> None:
    assert swapped_in_place(cited, REAL) == ()
