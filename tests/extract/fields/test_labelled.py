"""Labelled reference sets (anystyle XML, GROBID TEI) read into one shape: parts with CRF labels."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.extract.fields import refsets

# The training reader lives beside its trainer (scripts/labelled.py, scripts/train_parser.py), outside the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
import labelled
from labelled import read_anystyle, read_tei


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
    assert chapter.first("container") == "A Book of Essays"
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
    path = refsets.write(tmp_path) / "anystyle-core.xml"
    monkeypatch.setattr(labelled, "MAX_BYTES", 100)
    with pytest.raises(ValueError, match="larger than"):
        read_anystyle(path)
