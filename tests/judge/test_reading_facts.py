"""Reading facts: what the reference's own text says about how far its parsed fields can be trusted."""

from __future__ import annotations

import pytest

from citetracer.judge.facts.reading import names_in_text, title_doubt
from citetracer.records import Candidate, Person, Reference

TITLE = "UrbanAI 2025 Challenge: Linear vs Transformer Models for Long-Horizon Exogenous Temperature Forecasting"


def _record(*names: tuple[str, str]) -> Candidate:
    return Candidate(
        source="openalex", id="W1", title=TITLE, year=2025, authors=[Person(given=g, family=f) for g, f in names]
    )


@pytest.mark.parametrize(
    ("raw", "cited", "record", "lost_by_parser"),
    [
        # 'Gokhman Ruslan' is the record's Ruslan Gokhman read with given and family names swapped: read, not lost.
        ("Gokhman Ruslan and Alex Smith", [("Gokhman", "Ruslan"), ("Alex", "Smith")], [("Ruslan", "Gokhman")], False),
        # The parser dropped Mara Lindqvist, whom the text names: the parser, not the citation, lost her.
        (
            "Ruslan Gokhman, Mara Lindqvist and Alex Smith",
            [("Ruslan", "Gokhman"), ("Alex", "Smith")],
            [("Ruslan", "Gokhman"), ("Mara", "Lindqvist")],
            True,
        ),
    ],
    ids=["swapped-names-read", "dropped-name-in-text"],
)
def test_record_authors_the_parsed_list_lacks_are_lost_by_the_parser_only_when_the_text_names_them(
    raw: str, cited: list[tuple[str, str]], record: list[tuple[str, str]], lost_by_parser: bool
) -> None:
    authors = [Person(given=g, family=f) for g, f in cited]
    ref = Reference(raw=f"{raw}. {TITLE}. 2025.", title=TITLE, year=2025, authors=authors)
    assert names_in_text(ref, _record(*record)) is lost_by_parser


def test_a_title_case_title_with_a_word_no_person_is_named_is_a_title_not_names() -> None:
    """ "X and Y Z" in title case read as names ("Maximilian Probst Gutenberg, and Sushant Sachdeva"), but a word
    with an abstract noun's ending is no one's name: the title is the citation's, and its absence counts."""

    def doubt(title: str) -> str | None:
        return title_doubt(Reference(raw=f"A. Author. {title}. 2019.", title=title, year=2019))

    assert doubt("Motivated Reasoning and Information Aggregation") is None
    assert doubt("Adversarial Robustness and Model Complexity") is None
    assert doubt("Maximilian Probst Gutenberg, and Sushant Sachdeva") is not None
    assert doubt("Clement Delangue and Lawrence Manning") is not None
    # A title's opening word and a participle or adjective are no one's name either (CiteAudit fabrications).
    assert doubt("Towards Theoretical and Unusable In-network Clustering") is None
    assert doubt("Motivated Beliefs and Data Dispersal") is None
    assert doubt("Ahmed Mohammed and Fred Reed") is not None
    # One name with a generational suffix, cut from a 553-author list (a real PDF's Universal Dependencies entry).
    assert doubt("Jan Hajič jr") is not None
    assert doubt("Learning to rank for information retrieval II") is None


def test_a_title_case_title_with_a_subtitle_is_a_title_not_names() -> None:
    """Names in a list are joined by commas and "and", never by a colon: a head and a subtitle in title case is a
    title (a CiteAudit fabrication: "Supporting Static Agentic Workloads: How Features and Agents Interact")."""

    def doubt(title: str) -> str | None:
        return title_doubt(Reference(raw=f"A. Author. {title}. 2025.", title=title, year=2025))

    assert doubt("Supporting Static Agentic Workloads: How Features and Agents") is None
    assert doubt("Kernel Methods: Bernhard Scholkopf and Alexander Smola") is None
    # Names cut into a title, with or without an initial before a colon, are still doubted.
    assert doubt("Maximilian Probst Gutenberg, and Sushant Sachdeva") is not None
    assert doubt("Gutenberg, Maximilian: Probst, and Sushant Sachdeva") is not None
