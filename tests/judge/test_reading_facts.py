"""Reading facts: what the reference's own text says about how far its parsed fields can be trusted."""

from __future__ import annotations

from citetracer.judge.facts.reading import names_in_text, title_doubt
from citetracer.records import Candidate, Person, Reference

TITLE = "UrbanAI 2025 Challenge: Linear vs Transformer Models for Long-Horizon Exogenous Temperature Forecasting"


def _record(*names: tuple[str, str]) -> Candidate:
    return Candidate(
        source="openalex", id="W1", title=TITLE, year=2025, authors=[Person(given=g, family=f) for g, f in names]
    )


def test_a_record_author_read_with_given_and_family_swapped_was_read_not_lost() -> None:
    ref = Reference(
        raw=f"Gokhman Ruslan and Alex Smith. {TITLE}. 2025.",
        title=TITLE,
        year=2025,
        authors=[Person(given="Gokhman", family="Ruslan"), Person(given="Alex", family="Smith")],
    )
    assert not names_in_text(ref, _record(("Ruslan", "Gokhman")))


def test_a_record_author_the_parser_dropped_but_the_text_names_was_lost_by_the_parser() -> None:
    ref = Reference(
        raw=f"Ruslan Gokhman, Mara Lindqvist and Alex Smith. {TITLE}. 2025.",
        title=TITLE,
        year=2025,
        authors=[Person(given="Ruslan", family="Gokhman"), Person(given="Alex", family="Smith")],
    )
    assert names_in_text(ref, _record(("Ruslan", "Gokhman"), ("Mara", "Lindqvist")))


def test_a_title_case_title_with_a_word_no_person_is_named_is_a_title_not_names() -> None:
    """ "X and Y Z" in title case read as names ("Maximilian Probst Gutenberg, and Sushant Sachdeva"), but a word
    with an abstract noun's ending is no one's name: the title is the citation's, and its absence counts."""

    def doubt(title: str) -> str | None:
        return title_doubt(Reference(raw=f"A. Author. {title}. 2019.", title=title, year=2019))

    assert doubt("Motivated Reasoning and Information Aggregation") is None
    assert doubt("Adversarial Robustness and Model Complexity") is None
    assert doubt("Maximilian Probst Gutenberg, and Sushant Sachdeva") is not None
    assert doubt("Clement Delangue and Lawrence Manning") is not None
