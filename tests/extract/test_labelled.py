"""Labelled reference sets (anystyle XML, GROBID TEI) read into one shape: parts with CRF labels."""

from __future__ import annotations

from pathlib import Path

import pytest

from citetracer.extract.labelled import read_anystyle, read_tei
from tests.extract import refsets


@pytest.fixture
def sets(tmp_path: Path) -> Path:
    return refsets.write(tmp_path)


def test_anystyle_parts_labels_and_text(sets: Path) -> None:
    items = read_anystyle(sets / "anystyle-core.xml")
    assert len(items) == 7
    first = items[0]
    # The leading citation number is dropped, as the parser strips list labels.
    assert first.text.startswith("Garcia, M., & Okafor, T. (2019). Sparse attention")
    assert first.first("title") == "Sparse attention for long documents."
    assert first.first("container") == "Journal of Machine Learning Research,"
    assert first.first("year") == "(2019)."
    assert len(first.char_labels()) == len(first.text)
    book = items[5]
    assert book.first("publisher") == "Beacon Press,"
    assert book.first("location") == "Boston:"
    assert book.first("container") is None


def test_tei_title_levels_and_scopes(sets: Path) -> None:
    items = read_tei(sets / "grobid-citations.tei.xml")
    assert len(items) == 4
    article, _, journal_only, chapter = items
    assert article.text == ("J. P. Collman, Oxygen binding by iron porphyrins, J. Am. Chem. Soc. 10, 265 (1977).")
    assert article.first("title") == "Oxygen binding by iron porphyrins"
    assert article.first("container") == "J. Am. Chem. Soc."
    assert article.first("volume") == "10" and article.first("pages") == "265"
    assert items[1].first("volume") == "54" and items[1].first("pages") == "8812"  # unit= instead of type=
    assert journal_only.first("title") is None and journal_only.first("container") == "Nucl. Phys. A"
    # A monograph title is the container when the entry has an article title.
    assert chapter.first("title") == "Notes on chapters"
    assert chapter.first("container") == "in A Book of Essays"  # its introducer inside, as anystyle tags it
    assert chapter.first("location") == "Berlin"


def test_external_entities_are_not_expanded(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    path = tmp_path / "evil.xml"
    path.write_text(
        f'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file://{secret}">]>'
        "<dataset><sequence><title>&x; title</title></sequence></dataset>"
    )
    items = read_anystyle(path)
    assert all("SECRET" not in it.text for it in items)


def test_oversized_file_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from citetracer.extract import labelled

    path = refsets.write(tmp_path) / "anystyle-core.xml"
    monkeypatch.setattr(labelled, "MAX_BYTES", 100)
    with pytest.raises(ValueError, match="larger than"):
        read_anystyle(path)


def test_tei_introducing_words_join_their_field_as_anystyle_tags_them(tmp_path: Path) -> None:
    path = tmp_path / "t.tei.xml"
    path.write_text(
        '<listBibl xmlns="http://www.tei-c.org/ns/1.0"><bibl><author>A. Smith</author>, '
        '<title level="a">A title</title>. In <title level="m">A Book</title>, '
        'vol. <biblScope unit="volume">3</biblScope>, pp. <biblScope unit="page">12-15</biblScope>. '
        "Snapp. <date>1999</date>.</bibl></listBibl>"
    )
    (item,) = read_tei(path)
    assert item.text == "A. Smith, A title. In A Book, vol. 3, pp. 12-15. Snapp. 1999."
    assert item.first("container") == "In A Book"
    assert item.first("volume") == "vol. 3"
    assert item.first("pages") == "pp. 12-15"
    assert item.first("title") == "A title"
    # "Snapp." ends in "p." but is a word of its own, not an introducer: it stays other.
    assert item.first("year") == "1999"
    assert len(item.char_labels()) == len(item.text)
