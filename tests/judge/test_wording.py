"""What a chair reads (issue 29): one finding per fact, no nested brackets, no strangers, no parse debris."""

from __future__ import annotations

from pathlib import Path

from citetracer.normalize.names import parse_person
from citetracer.store.db import Store
from tests.conftest import run_check

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_collective_author_is_one_author_named_whole() -> None:
    for name in ("R Core Team", "The Gene Ontology Consortium", "ATLAS Collaboration", "Torch Contributors"):
        person = parse_person(name)
        assert person is not None and (person.given, person.family) == (None, name)
    person = parse_person("Kaiming He")
    assert person is not None and (person.given, person.family) == ("Kaiming", "He")


def test_a_doi_of_another_work_is_said_once(tmp_path: Path) -> None:
    """The example bibliography's U-Net entry carries ResNet's DOI: a chimera (H6) and a wrong DOI (H5) of one fact."""
    from citetracer.mirror.jsonl import add_jsonl

    with Store(tmp_path / "s.sqlite") as store:
        add_jsonl(store, EXAMPLES / "records.jsonl", "example")
        bib = (EXAMPLES / "references.bib").read_text()
        v = run_check(store, bib)["ronneberger2015unet"].verdict
    assert {"H5", "H6"} <= set(v.codes), v.rationale
    assert v.rationale.count("10.1109/cvpr.2016.90") == 1, v.rationale
    assert "the same fact as H6" in v.rationale


def test_proofs_are_not_nested_brackets(store: Store) -> None:
    bib = """@inproceedings{k, title={Deep Residual Learning for Image Recognition},
        author={Smith, John and Doe, Jane}, booktitle={CVPR}, year=2016}"""
    v = next(iter(run_check(store, bib).values())).verdict
    assert v.code == "H3" and "(proof: identified by" in v.rationale
    assert "[identified" not in v.rationale


def test_a_single_cited_author_lists_no_works_of_a_namesake(store: Store) -> None:
    bib = """@inproceedings{k, title={A Study Nobody Wrote of Anything Whatsoever},
        author={He, Kaiming}, booktitle={CVPR}, year=2016}"""
    v = next(iter(run_check(store, bib).values())).verdict
    assert "works of the cited authors" not in v.rationale and "cited authors' works" not in v.rationale


def test_a_book_year_nine_years_off_is_not_said_to_differ_by_one(tmp_path: Path) -> None:
    """A real string ('Ian Jolliffe. Principal Component Analysis. Springer, 2 edition, 2002.') against the encyclopedia
    entry of that title (2011): the rationale said 'the year differs by one' (and elsewhere 'year differ from the
    record')."""
    import json

    from citetracer.mirror.jsonl import add_jsonl

    records = tmp_path / "r.jsonl"
    records.write_text(
        json.dumps(
            {
                "id": "jolliffe11",
                "title": "Principal Component Analysis",
                "authors": ["Ian T. Jolliffe"],
                "year": 2011,
                "venue": "International Encyclopedia of Statistical Science",
                "type": "incollection",
            }
        )
        + "\n"
    )
    with Store(tmp_path / "s.sqlite") as store:
        add_jsonl(store, records, "dblp")
        bib = "@book{j, title={Principal Component Analysis}, author={Jolliffe, Ian}, publisher={Springer}, year=2002}"
        v = run_check(store, bib)["j"].verdict
    assert v.class_ != "Hallucinated", v.rationale
    assert "differs by one" not in v.rationale and "year differ " not in v.rationale, v.rationale
    assert "(2011)" in v.rationale, v.rationale
