"""Publishers: recognised by the names references write, and compared as one house, a group, a
printer and its society, or two houses (an unlisted name is a gap, never a contradiction)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citetracer.data import lines
from citetracer.normalize.publishers import publisher_relation, recognise_publisher, recognise_publishers


@pytest.mark.parametrize(
    ("written", "publisher"),
    [
        ("Springer, Berlin, Heidelberg", "springer"),
        ("Springer-Verlag New York", "springer"),
        ("New York: Springer", "springer"),
        ("Springer Science and Business Media LLC", "springer"),
        ("ACM Press", "acm"),
        ("Association for Computing Machinery", "acm"),
        ("Assoc. for Computational Linguistics", "acl"),
        ("The Association for Computational Linguistics", "acl"),
        ("Institute of Electrical and Electronics Engineers (IEEE)", "ieee"),
        ("IEEE Computer Society Press", "ieee-cs"),
        ("Curran Associates, Inc., Red Hook, NY", "curran"),
        ("American Institue of Physics", "aip"),  # DBLP's typo
        ("MIT Pr.", "mitpress"),
        ("Cambridge UP", "cup"),
        ("Birkhäuser", "birkhauser"),
        ("BIRKHAUSER VERLAG", "birkhauser"),
        ("OpenReview.net", "openreview"),
        ("Proceedings of Machine Learning Research", "jmlr"),
    ],
)
def test_recognised(written: str, publisher: str) -> None:
    found = recognise_publisher(written)
    assert found is not None and found.id == publisher


@pytest.mark.parametrize(
    "written",
    ["Foo Bar Press", "University of Alberta", "cup", "Department of Computer Science", "", "New York", "x" * 2000],
)
def test_not_recognised(written: str) -> None:
    """An unlisted house, an institution, a lower-case word that is an acronym only in capitals, a place."""
    assert recognise_publisher(written) is None


def test_a_field_may_name_several_publishers_and_an_acronym_several_bodies() -> None:
    assert [p.id for p in recognise_publishers("AAAI Press / The MIT Press")] == ["aaai", "mitpress"]
    assert {p.id for p in recognise_publishers("AMS")} == {"ams-math", "ams-meteo"}


@pytest.mark.parametrize(
    ("cited", "found", "relation"),
    [
        ("ACL", "Association for Computational Linguistics", "same"),
        ("ACL", "Association for Computing Machinery", "different"),
        ("Birkhäuser", "Springer-Verlag", "same"),  # an imprint of the group
        ("Birkhäuser", "Elsevier", "different"),
        ("IEEE Computer Society", "IEEE", "same"),
        ("Routledge", "CRC Press", "same"),  # both Taylor & Francis
        ("North-Holland", "Elsevier Science Publishers", "same"),
        ("Curran Associates", "Neural Information Processing Systems Foundation", "related"),  # printer, society
        ("Curran Associates", "Springer", "different"),
        ("MIT Press", "NIPS Foundation", "related"),  # NIPS 8-19
        ("MIT Press", "Springer", "different"),
        ("OpenReview.net", "ICLR", "related"),
        ("PMLR", "International Machine Learning Society", "related"),
        ("AMS", "American Meteorological Society", "same"),  # the acronym may name it
        ("Springer", "Elsevier", "different"),
        ("Foo Press", "Springer", "unknown"),  # unlisted: a gap
        ("Foo Press / Springer", "Elsevier", "unknown"),  # an unlisted co-publisher could be the link
        ("Springer, Cham", "Springer Nature Switzerland", "same"),
        ("", "Springer", "unknown"),
    ],
)
def test_publisher_relation_on_real_strings(cited: str, found: str, relation: str) -> None:
    assert publisher_relation(cited, found) == relation


def test_the_tables_refer_to_listed_publishers() -> None:
    ids = {line.split("\t")[0] for line in lines("publishers.tsv")}
    groups = {line.split("\t")[1] for line in lines("publishers.tsv")}
    roles = {line.split("\t")[2] for line in lines("publishers.tsv")}
    assert roles <= {"publisher", "society", "printer", "service"}
    assert groups <= ids | {"springer-nature"}
    for line in lines("publisher_relations.tsv"):
        a, b, why = line.split("\t")
        assert {a, b} <= ids | groups and why.strip(), line


WRITTEN = [
    "Springer",
    "Springer-Verlag, Berlin",
    "Elsevier",
    "Academic Press",
    "IEEE",
    "IEEE Computer Society",
    "ACM",
    "ACL",
    "Curran Associates",
    "NeurIPS Foundation",
    "MIT Press",
    "Wiley",
    "Oxford University Press",
    "Foo Press",
    "AMS",
    "OpenReview",
    "ICLR",
]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(WRITTEN), st.sampled_from(WRITTEN))
def test_publisher_relation_is_symmetric(a: str, b: str) -> None:
    assert publisher_relation(a, b) == publisher_relation(b, a)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(WRITTEN), st.sampled_from(WRITTEN), st.sampled_from(["The {}", "{}, Inc.", "{} Ltd.", " {} "]))
def test_company_words_and_spacing_do_not_change_a_relation(a: str, b: str, form: str) -> None:
    assert publisher_relation(form.format(a), b) == publisher_relation(a, b)


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(WRITTEN))
def test_a_listed_publisher_is_the_same_as_itself(a: str) -> None:
    assert publisher_relation(a, a) == ("unknown" if recognise_publisher(a) is None else "same")
