"""Places: parsing against the gazetteer, comparison, and the location of DBLP proceedings titles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citetracer.data import lines
from citetracer.normalize.places import (
    gazetteer,
    location_of_proceedings,
    parse_place,
    place_relation,
)

REAL = [
    "Miami, FL",
    "Miami, Florida, USA",
    "Miami Beach, FL",
    "Vancouver, BC, Canada",
    "Vancouver, Canada",
    "Vancouver, WA",
    "Vienna, Austria",
    "Austria",
    "Germany",
    "Online",
    "Virtual Event",
    "Virtual Event, Austria",
    "New York, NY",
    "NYC",
    "Hong Kong, China",
    "Snowbird, Utah, USA",
    "Salt Lake City, UT",
    "Paris, France",
    "Paris, TX",
    "Cambridge, MA",
    "Cambridge, UK",
    "Long Beach, CA, USA",
    "Montréal, Québec, Canada",
    "Kyoto, Japan",
    "no such place at all",
]


@pytest.mark.parametrize(
    ("cited", "found", "relation"),
    [
        ("Miami, FL", "Miami, Florida, USA", "same"),
        ("Miami, FL", "Orlando, FL", "different"),  # the same state, 300 km apart
        ("Miami, FL", "Miami Beach, FL", "same"),  # a suburb named by its city (CVPR 2009)
        ("Vancouver, BC, Canada", "Vancouver, Canada", "same"),
        ("Vancouver, WA", "Vancouver, BC", "different"),
        ("Vancouver", "Vancouver, WA", "same"),  # a bare name may be either Vancouver
        ("Austria", "Vienna, Austria", "same"),
        ("Germany", "Vienna, Austria", "different"),
        ("Online", "Virtual Event", "same"),
        ("Held online", "virtual", "same"),
        ("Online", "Paris, France", "different"),
        ("Virtual Event, Austria", "Vienna, Austria", "same"),  # ICLR 2021, planned for Vienna
        ("Virtual Event, Austria", "Lisbon, Portugal", "different"),
        ("New York, NY", "New York City", "same"),
        ("NYC", "New York, NY, USA", "same"),
        ("Hong Kong, China", "Hong Kong", "same"),
        ("Snowbird, Utah, USA", "Salt Lake City, UT", "unknown"),  # an unlisted town: a gap
        ("Snowbird, Utah, USA", "Denver, CO", "different"),  # but not in Colorado
        ("Paris, France", "Paris, TX", "different"),
        ("St. Louis, MO", "Saint Louis, Missouri", "same"),
        ("München, Germany", "Munich", "same"),
        ("no such place at all", "Paris", "unknown"),
        ("", "Paris", "unknown"),
    ],
)
def test_place_relation_on_real_strings(cited: str, found: str, relation: str) -> None:
    assert place_relation(cited, found) == relation


def test_a_place_is_parsed_into_its_parts() -> None:
    place = parse_place("Miami, Florida, USA")
    assert place is not None and (place.city, place.region, place.country, place.online) == ("Miami", "FL", "US", False)
    online = parse_place("Virtual Event, Austria")
    assert online is not None and online.online and online.country == "AT" and online.city is None
    assert parse_place("Proceedings of the workshop") is None
    assert parse_place("x" * 10_000) is None  # bad input: no place, no hang


def test_codes_match_only_in_capitals() -> None:
    """ "IN" is Indiana, "in" a word; "PEARL" an acronym, not Pearl, Mississippi."""
    assert parse_place("Bloomington, IN") is not None
    assert parse_place("in") is None
    assert parse_place("PEARL") is None and parse_place("Pearl, MS") is not None


def test_a_country_name_is_the_country_not_a_town_of_that_name() -> None:
    china = parse_place("China")
    assert china is not None and {r.country for r in china.readings} == {"CN"}


def test_every_region_has_cities_in_the_gazetteer() -> None:
    """The GeoNames admin1 codes of regions.tsv are those of cities.tsv.gz (a wrong code would make
    every city of the region contradict it)."""
    gaz = gazetteer()
    held = {(c.country, c.admin1) for c in gaz.cities}
    for line in lines("regions.tsv"):
        country, admin1 = line.split("\t")[:2]
        assert (country, admin1) in held, line


@pytest.mark.parametrize(
    ("title", "location"),
    [
        (
            "Proceedings of the 2009 IEEE Computer Society Conference on Computer Vision and Pattern Recognition "
            "(CVPR 2009), 20-25 June 2009, Miami, Florida, USA",
            "Miami, Florida, USA",
        ),
        (
            "9th International Conference on Learning Representations, ICLR 2021, Virtual Event, Austria, "
            "May 3-7, 2021",
            "Virtual Event, Austria",
        ),
        (
            "Advances in Neural Information Processing Systems 33: Annual Conference on Neural Information Processing "
            "Systems 2020, NeurIPS 2020, December 6-12, 2020, virtual",
            "virtual",
        ),
        (
            "2010 International Symposium on Visual Information Communication, VINCI '10, Beijing, China - "
            "September 28 - 29, 2010",
            "Beijing, China",
        ),
        (
            "Theory of Cryptography - 9th Theory of Cryptography Conference, TCC 2012, Taormina, Sicily, Italy, "
            "March 19-21, 2012. Proceedings",
            "Taormina, Sicily, Italy",
        ),
        ("Data Compression Conference, DCC 1998, Snowbird, Utah, USA, March 30 - April 1, 1998", "Snowbird, Utah, USA"),
        (
            "2015 IEEE International Conference on Mobile Services, MS 2015, New York City, NY, USA, June 27 - July 2, "
            "2015",
            "New York City, NY, USA",
        ),
        ("Journal on Data Semantics XII", None),
        ("Formal Hardware Verification - Methods and Systems in Comparison", None),
    ],
)
def test_location_of_proceedings(title: str, location: str | None) -> None:
    assert location_of_proceedings(title) == location


real = st.sampled_from(REAL)


def _variants(text: str) -> list[str]:
    return [text.upper(), text.lower(), f"  {text} ", text.replace(", ", " , ")]


@settings(max_examples=150, deadline=None)
@given(real, real)
def test_place_relation_is_symmetric(a: str, b: str) -> None:
    assert place_relation(a, b) == place_relation(b, a)


@settings(max_examples=60, deadline=None)
@given(real)
def test_a_place_is_the_same_as_itself_or_unknown(a: str) -> None:
    assert place_relation(a, a) in ("same", "unknown")
    assert place_relation(a, a) == "unknown" or parse_place(a) is not None


@settings(max_examples=60, deadline=None)
@given(real, real)
def test_spacing_and_lower_case_do_not_change_a_relation(a: str, b: str) -> None:
    """Case matters only for codes ("IN"): lower-casing may lose a code, which makes a place vaguer
    ("long beach, ca" may be Long Beach, NY), never more precise, so it never turns same into
    different; spacing changes nothing."""
    base = place_relation(a, b)
    assert place_relation(f"  {a} ", b.replace(", ", " , ")) == base
    assert not (base == "same" and place_relation(a.lower(), b.lower()) == "different")


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=80))
def test_any_text_parses_or_is_none(text: str) -> None:
    place = parse_place(text)
    assert place is None or place.readings or place.online
    location_of_proceedings(text)


def test_a_place_of_many_ambiguous_names_is_read() -> None:
    """Six Springfields (dozens of cities each) give readings without trying every combination."""
    place = parse_place(", ".join(["Springfield"] * 6))
    assert place is not None and all(r.city is not None for r in place.readings)
