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
