"""Author names: the written forms honest citations use compare equal; different people do not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citetracer.normalize.names import (
    NameMatch,
    compare_author_lists,
    compare_people,
    family_keys,
    parse_people,
    parse_person,
    surname_keys,
)
from citetracer.records import Person
from tests.conftest import people


def test_parse_bibtex_name_forms() -> None:
    assert parse_person("Vaswani, Ashish").family == "Vaswani"
    assert parse_person("Jan-Willem van de Meent").family == "van de Meent"  # type: ignore[union-attr]
    assert parse_person("Wei Wang 0001").family == "Wang"  # type: ignore[union-attr]
    assert parse_person("Martin Luther King Jr.").family == "King"  # type: ignore[union-attr]
    p = parse_person(r"R{\'e}, Christopher")
    assert p is not None and p.family == "Ré" and p.given == "Christopher"
    names, truncated = parse_people("Doe, Jane and {Barnes and Noble} and others")
    assert [n.family for n in names] == ["Doe", "Barnes and Noble"] and truncated


def test_same_person_written_differently() -> None:
    pairs = [
        ("Kaiming He", "K. He"),
        ("Jan-Willem van de Meent", "J.-W. Meent"),
        ("Daniel Y. Fu", "Dan Fu"),
        ("Łukasz Kaiser", "Lukasz Kaiser"),
        ("Wei Zhang", "Zhang Wei"),
        ("Matthew S. Brennan", "Matthew Brennan"),
    ]
    for a, b in pairs:
        (pa,), (pb,) = people(a), people(b)
        assert compare_people(pa, pb) == NameMatch.SAME, (a, b)


def test_different_people() -> None:
    (a,), (b,), (c,) = people("Jian Sun"), people("Jiang Sun"), people("Ross Girshick")
    assert compare_people(a, b) == NameMatch.GIVEN_CONFLICT
    assert compare_people(a, c) == NameMatch.DIFFERENT


def test_author_list_comparison_shapes() -> None:
    real = people("Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun")
    exact = compare_author_lists(real, real, False, False)
    assert (exact.matched, exact.uncited, exact.in_order) == (4, 0, True)
    truncated = compare_author_lists(real[:2], real, False, False)
    assert (truncated.matched, truncated.uncited) == (2, 2)
    with_et_al = compare_author_lists(real[:2], real, True, False)
    assert with_et_al.uncited == 0
    reordered = compare_author_lists(list(reversed(real)), real, False, False)
    assert reordered.matched == 4 and not reordered.in_order
    padded = compare_author_lists([*real, *people("Ross Girshick")], real, False, False)
    assert padded.unmatched_cited == ("Ross Girshick",)


def test_authors_beyond_a_truncated_record_are_not_counted_against_the_citation() -> None:
    real = people("Aakanksha Chowdhery", "Sharan Narang", "Jacob Devlin", "Maarten Bosma")
    record = real[:2]  # the record stops after two names and "others"
    cmp = compare_author_lists(real, record, False, True)
    assert cmp.hidden == 2 and cmp.complete and cmp.overlap == 1.0
    wrong = compare_author_lists(people("Ada Lovelace", "Sharan Narang", "Jacob Devlin"), record, False, True)
    assert not wrong.complete and wrong.unmatched_cited == ("Ada Lovelace",)


@pytest.mark.parametrize(
    ("given", "family"),
    [("Jan-Willem", "van de Meent"), ("A.", "Müller"), ("B", "García-López"), (None, "de la Cruz"), ("Wei", "Wang")],
)
def test_surname_keys_are_the_family_keys_without_the_given_name_work(given: str | None, family: str) -> None:
    assert surname_keys(family) == tuple(dict.fromkeys(k for k in family_keys(Person(given=given, family=family)) if k))


def test_a_record_list_ending_in_a_name_cut_short_was_cut_there() -> None:
    """A record of 'Adaptive federated optimization' lists "..., Keith Rush, Konec" for Konečný, Kumar, McMahan."""
    cited = people(
        "Sashank Reddi", "Zachary Charles", "Keith Rush", "Jakub Konečný", "Sanjiv Kumar", "H. Brendan McMahan"
    )
    found = people("Sashank Reddi", "Zachary Charles", "Keith Rush", "Konec")
    cmp = compare_author_lists(cited, found, False, False)
    assert cmp.complete and cmp.hidden == 2 and not cmp.unmatched_cited


def test_names_written_in_other_orders_and_forms_are_one_person() -> None:
    same = [
        ("Le Quoc", "Quoc V. Le"),  # family-first read as given-first, with a middle initial
        ("L. Fei-Fei", "Fei-Fei Li"),  # family-first with an initial
        ("C. Canton-Ferrer", "Cristian Canton Ferrer"),  # a compound family name split by one source
        ("Hal Daumé", "Hal Daumé III"),  # a generation suffix
    ]
    for cited, found in same:
        assert compare_author_lists(people(cited), people(found), False, False).complete, (cited, found)
    assert compare_author_lists(people("M. B. Strivastava"), people("Mani B. Srivastava"), False, False).variants == 1
    for cited, found in [("Wei Li", "Wei Lu"), ("J. Smith", "J. Smyth"), ("Yang Liu", "Yang Lin")]:
        assert not compare_author_lists(people(cited), people(found), False, False).complete, (cited, found)


_SURNAMES = ["Li", "Lu", "Liu", "Konec", "Konecny", "Srivastava", "Strivastava", "Sriv", "Wang", "Wan", "Ng"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_SURNAMES), min_size=1, max_size=4),
    st.lists(st.sampled_from(_SURNAMES), min_size=1, max_size=6),
)
def test_variant_pool_holds_every_spelling_variant(cited: list[str], found: list[str]) -> None:
    """The record authors a cited name is compared with for a spelling variant (those of a like length sharing
    an end) are all those `_spelling_variant` pairs it with, in list order: the pool only skips authors that
    cannot be."""
    _assert_pool_holds_variants(cited, found)


@settings(max_examples=500, deadline=None)
@given(st.text("abst", min_size=1, max_size=9), st.data())
def test_variant_pool_holds_every_one_edit_variant(name: str, data: st.DataObject) -> None:
    """Any one edit of a family name (a letter changed, added, dropped, two swapped, wherever it falls) or any
    cut of it stays in the pool: family keys that share no end are never spelling variants."""
    i = data.draw(st.integers(0, len(name)))
    c = data.draw(st.sampled_from("abstz"))
    edits = [name[:i] + c + name[i + 1 :], name[:i] + c + name[i:], name[:i] + name[i + 1 :], name[:i]]
    if i + 1 < len(name):
        edits.append(name[:i] + name[i + 1] + name[i] + name[i + 2 :])
    _assert_pool_holds_variants([name], [e for e in edits if e] + ["zzzz"])


def _assert_pool_holds_variants(cited: list[str], found: list[str]) -> None:
    from citetracer.normalize.names import _by_ends, _keys, _spelling_variant, _variant_pool

    found_keys = [_keys("A.", f) for f in found]
    by_ends = _by_ends(found_keys)
    for name in cited:
        k = _keys("A.", name)
        pool = _variant_pool(k, found_keys, by_ends)
        assert pool == sorted(pool)
        assert {j for j, f in enumerate(found_keys) if _spelling_variant(k, f)} <= set(pool)


def test_shown_names_writes_each_name_as_person_display() -> None:
    """A list shown from its (given, family) pairs reads as its people's `display`, joined as the matcher joins them."""
    from citetracer.normalize.names import name_pairs, shown_names

    people = [Person(given="Jan-Willem", family="van de Meent"), Person(family="Plato"), Person(given="", family="Li")]
    assert shown_names(name_pairs(people)) == "; ".join(p.display() for p in people)
