"""RIS and CSL-JSON input (issue 44): Zotero, Mendeley and EndNote exports read as structured input, checked
through the CLI, and `--fix` writing the corrected file back in the same format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citetracer.extract import InputError, read_references
from citetracer.judge.facts.reading import structured
from citetracer.records import Person
from tests.cliproc import run_cli

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
EXAMPLES = ROOT / "examples"

MENDELEY = (
    "TY  - JOUR\r\nAU  - Hochreiter, Sepp\r\nAU  - Schmidhuber, J\u00fcrgen\r\nPY  - 1997\r\n"
    "TI  - Long Short-Term Memory\r\nJF  - Neural Computation\r\nJO  - Neural Comput.\r\nSP  - 1735\r\n"
    "EP  - 1780\r\nVL  - 9\r\nIS  - 8\r\nDO  - 10.1162/neco.1997.9.8.1735\r\nER  - \r\n\r\n"
)


def test_zotero_ris_fields() -> None:
    read = read_references(FIXTURES / "zotero.ris")
    assert read.kind == "ris" and not read.warnings
    he, lstm, fake, wrong, torch = read.references
    assert he.title == "Deep Residual Learning for Image Recognition" and he.label == "1"
    assert he.authors[0] == Person(given="Kaiming", family="He") and len(he.authors) == 4
    assert he.venue == "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition"  # C3 over T2
    assert (he.year, he.doi, he.pages, he.publisher) == (2016, "10.1109/cvpr.2016.90", "770-778", "IEEE")
    assert he.location == "Las Vegas, NV, USA" and he.type == "inproceedings"
    assert (lstm.venue, lstm.volume, lstm.issue, lstm.type) == ("Neural Computation", "9", "8", "article")
    assert lstm.authors[1].family == "Schmidhuber"
    assert wrong.authors[2] == Person(given="Piotr", family="Dollár")
    assert torch.type == "software" and torch.url == "https://pytorch.org" and torch.year == 2024
    assert fake.label == "3"
    # the author's own fields: structured input, as a BibTeX entry is (judge/facts/reading.py)
    assert all(structured(r) and (r.raw or "").startswith("@") for r in read.references)
    assert "Las Vegas" in (he.raw or "") and "abstract" not in (he.raw or "").lower()


def test_endnote_ris_with_a_bom_record_numbers_and_page_ranges() -> None:
    read = read_references(FIXTURES / "endnote.ris")
    assert [r.label for r in read.references] == ["12", "13", "14"]
    vaswani, dropout, quantum = read.references
    assert len(vaswani.authors) == 8 and vaswani.venue == "Advances in Neural Information Processing Systems"
    assert vaswani.type == "inproceedings"
    assert dropout.pages == "1929-1958" and dropout.volume == "15"
    assert quantum.doi == "10.88412/jmlr.2021.0471"


def test_mendeley_ris_with_crlf_and_journal_tags(tmp_path: Path) -> None:
    path = tmp_path / "library.ris"
    path.write_bytes(MENDELEY.encode("utf-8"))
    (lstm,) = read_references(path).references
    assert lstm.venue == "Neural Computation" and lstm.pages == "1735-1780" and lstm.issue == "8"
    assert lstm.doi == "10.1162/neco.1997.9.8.1735"


def test_a_ris_file_is_known_by_its_content_too(tmp_path: Path) -> None:
    path = tmp_path / "export.txt"
    path.write_text(MENDELEY.replace("\r\n", "\n"), encoding="utf-8")
    assert read_references(path).kind == "ris"


def test_zotero_csl_json_fields() -> None:
    read = read_references(FIXTURES / "zotero-csl.json")
    assert read.kind == "csl-json" and not read.warnings
    he, vaswani, fake, tsne, who = read.references
    assert he.label == "http://zotero.org/users/1/items/HE2016AB"
    assert he.venue == "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR)"
    assert (he.year, he.pages, he.location, he.type) == (2016, "770-778", "Las Vegas, NV, USA", "inproceedings")
    assert vaswani.volume == "30" and vaswani.year == 2017
    assert fake.type == "article" and fake.doi == "10.88412/jmlr.2021.0471"
    assert tsne.authors[0] == Person(given="Laurens", family="van der Maaten")
    assert who.authors == [Person(family="World Health Organization")] and who.year == 2020
    assert who.type == "techreport" and who.publisher == "World Health Organization" and who.location == "Geneva"
    assert all(structured(r) for r in read.references)


@pytest.mark.parametrize(
    ("name", "text", "why"),
    [
        ("broken.json", '[{"title": "x",', "not valid JSON"),
        ("scalars.json", "[1, 2, 3]", "not CSL items"),
        ("empty.ris", "ER  - \nKW  - stray\n", "no RIS record"),
        ("deep.json", "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_bad_exports_are_clear_errors(tmp_path: Path, name: str, text: str, why: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=why):
        read_references(path)


def test_hostile_sizes_are_bounded(tmp_path: Path) -> None:
    path = tmp_path / "many.ris"
    path.write_text("TY  - JOUR\nTI  - A Title Here\n" + "AU  - Doe, Jane\n" * 20_000 + "ER  - \n", encoding="utf-8")
    (ref,) = read_references(path).references
    assert len(ref.authors) <= 5_000 and ref.et_al and len(ref.raw or "") <= 4000


def seeded(tmp_path: Path) -> None:
    assert run_cli(tmp_path, "mirror", "add", str(EXAMPLES / "records.jsonl"), "--source", "example").returncode == 0


def test_check_a_ris_export_and_fix_it_in_place(tmp_path: Path) -> None:
    seeded(tmp_path)
    out = tmp_path / "fixed.ris"
    proc = run_cli(tmp_path, "check", "--offline", str(FIXTURES / "zotero.ris"), "--format", "json", "--fix", str(out))
    assert proc.returncode == 1, proc.stderr  # the substituted authors are Hallucinated
    doc = json.loads(proc.stdout)
    verdicts = {c["id"]: (c["verdict"]["class"], c["verdict"]["code"]) for c in doc["citations"]}
    assert verdicts["1"][0] == "Real" and verdicts["2"] == ("Real", "R1") and verdicts["4"] == ("Hallucinated", "H3")
    assert "corrected RIS written to" in proc.stderr
    fixed = out.read_text(encoding="utf-8")
    original = (FIXTURES / "zotero.ris").read_text(encoding="utf-8")
    assert all(line in fixed.splitlines() for line in original.splitlines())  # every line kept
    lstm = fixed.split("TY  - ")[2]
    assert "DO  - 10.1162/neco.1997.9.8.1735" in lstm and "SP  - 1735" in lstm and "EP  - 1780" in lstm
    assert "N1  - citetracer: Real R1: added doi, pages from example:hochreiter1997." in lstm
    assert "N1  - citetracer: HALLUCINATED (H3)" in fixed.split("TY  - ")[4]
    reread = read_references(out).references
    assert reread[1].doi == "10.1162/neco.1997.9.8.1735" and len(reread) == 5
    again = tmp_path / "again.ris"
    assert run_cli(tmp_path, "check", "--offline", str(out), "--format", "json", "--fix", str(again)).returncode == 1
    records = again.read_text(encoding="utf-8").split("TY  - ")[1:]
    assert all(r.count("N1  - citetracer:") <= 1 for r in records)  # an earlier note replaced, never piled up
    assert "N1  - citetracer:" not in records[1]  # nothing left to add: no note
    assert records[1].count("DO  - ") == 1


def test_two_ris_files_labelled_by_position_are_fixed_each_from_its_own_results(tmp_path: Path) -> None:
    seeded(tmp_path)
    other = tmp_path / "mendeley.ris"
    other.write_bytes((MENDELEY * 4).encode("utf-8"))  # records '1' to '4', each complete and Real
    out = tmp_path / "fixed.ris"
    run_cli(tmp_path, "check", "--offline", str(FIXTURES / "zotero.ris"), str(other), "--fix", str(out))
    records = out.read_text(encoding="utf-8").split("TY  - ")[1:]
    assert len(records) == 9 and "HALLUCINATED (H3)" in records[3]  # zotero.ris's record '4'
    assert all("citetracer" not in r for r in records[5:])  # not the notes of zotero.ris's '1' to '4'
    assert b"\r\n" in out.read_bytes()  # the Mendeley file's line ends kept


def test_check_a_csl_json_library_and_fix_it(tmp_path: Path) -> None:
    seeded(tmp_path)
    out = tmp_path / "fixed.json"
    proc = run_cli(tmp_path, "check", "--offline", str(FIXTURES / "zotero-csl.json"), "--fix", str(out))
    assert proc.returncode == 0, proc.stderr
    items = json.loads(out.read_text(encoding="utf-8"))
    original = json.loads((FIXTURES / "zotero-csl.json").read_text(encoding="utf-8"))
    assert [i["id"] for i in items] == [i["id"] for i in original]
    vaswani = items[1]
    assert vaswani["page"] == "5998-6008" and list(vaswani)[: len(original[1])] == list(original[1])
    assert vaswani["note"].startswith("Citation Key: vaswani2017\nciteproc: keep\ncitetracer: Real R2: added pages")
    assert items[2]["note"].startswith("citetracer: Potential (P1)")
    assert "\n\t{" in out.read_text(encoding="utf-8")  # Zotero's tab indentation kept
    refs = read_references(out).references
    assert refs[1].pages == "5998-6008"
