"""A title that swaps a word for its opposite claims the opposite of the work: it is no other title of it."""

from __future__ import annotations

import pytest

from citetracer.normalize.opposites import opposed_words, opposite
from citetracer.normalize.text import title_inside


@pytest.mark.parametrize(
    ("cited", "found", "words"),
    [
        # an antonym of the list, a negation prefix, a prefix pair, a number
        (
            "Learning Offline Policies for Robot Grasping",
            "Learning Online Policies for Robot Grasping",
            ("offline", "online"),
        ),
        (
            "Inefficient Bit-Flip Defenses on Unimodal LLMs",
            "Efficient Bit-Flip Attacks on Multimodal LLMs",
            ("inefficient", "efficient"),
        ),
        (
            "Unimodal sensing for gait phase estimation",
            "Multimodal sensing for gait phase estimation",
            ("unimodal", "multimodal"),
        ),
        (
            "Three-dimensional projections of reaction paths",
            "Two-dimensional projections of reaction paths",
            ("three", "two"),
        ),
        (
            "Convex relaxations of sparse regression",
            "Nonconvex relaxations of sparse regression",
            ("convex", "nonconvex"),
        ),
        # a negator added or dropped
        ("Non-convex relaxations of sparse regression", "Convex relaxations of sparse regression", ("non", "")),
        ("Attention is all you need", "Attention is not all you need", ("", "not")),
    ],
)
def test_a_swap_for_the_opposite_is_named(cited: str, found: str, words: tuple[str, str]) -> None:
    assert opposed_words(cited, found) == words


@pytest.mark.parametrize(
    ("cited", "found"),
    [
        # renamings between versions: words reordered, reworded, added, dropped
        ("Graph widgets learn sparse attention maps", "Sparse attention maps from graph widgets"),
        (
            "Learned recursive networks: A function learning perspective",
            "Learned iterative networks: An operator learning perspective",
        ),
        ("An overview of challenges in peer review", "Challenges in peer review"),
        # a prefix that negates nothing: these words are no adjectives
        ("Information retrieval with transformers", "Formation retrieval with transformers"),
        ("Inversion of seismic data", "Version of seismic data"),
        ("Dissolution kinetics of calcite", "Solution kinetics of calcite"),
    ],
)
def test_a_renaming_is_no_opposite(cited: str, found: str) -> None:
    assert opposed_words(cited, found) is None


def test_opposite_is_symmetric_and_never_a_word_with_itself() -> None:
    for a, b in [("high", "low"), ("supervised", "unsupervised"), ("overfitting", "underfitting"), ("3", "4")]:
        assert opposite(a, b) and opposite(b, a)
    assert not opposite("high", "high")
    assert not opposite("bit", "unit")  # a prefix swap needs a stem of some letters


def test_a_negator_before_a_title_makes_no_variant_of_it() -> None:
    assert title_inside(
        "An overview of convex relaxations of sparse regression", "Convex relaxations of sparse regression"
    )
    assert not title_inside("Non convex relaxations of sparse regression", "Convex relaxations of sparse regression")
    # after the title, "without" qualifies it (RRHF's arXiv title against its NeurIPS one, online a false H2)
    assert title_inside(
        "RRHF: Rank responses to align language models with human feedback",
        "RRHF: Rank Responses to Align Language Models with Human Feedback without tears",
    )
