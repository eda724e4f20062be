"""Hostile text in titles, names and records: RTL overrides, zero-width characters, terminal escapes, markup,
and look-alike letters of another script (homoglyphs), through the readers, the store's search and every report.

Found by these tests: a mirror record whose title held "\\x1b]0;...\\x07" and "\\x1b[2J" retitled and cleared
the terminal of whoever ran `check` (the table printed them as they were), and U+202E reordered the HTML,
SARIF and terminal text; a title written in Cyrillic look-alikes found no record at all ("no record with
this title") although the work it imitates was in the store.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from citetracer.mirror.jsonl import add_jsonl
from citetracer.normalize.homoglyphs import latin_skeleton, mixed_script_words
from citetracer.normalize.text import title_key
from citetracer.store.db import Store
from tests.cliproc import run_cli

ROOT = Path(__file__).resolve().parents[2]
CYR_A, CYR_E, CYR_O = "\u0430", "\u0435", "\u043e"
RESNET = "Deep Residual Learning for Image Recognition"
#: Every a, e and o of the title in Cyrillic.
LOOKALIKE = RESNET.replace("a", CYR_A).replace("e", CYR_E).replace("o", CYR_O)
HE = "author={He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, booktitle={CVPR}, year={2016}"

#: What no report may carry through: terminal escapes (ESC, BEL), bidi overrides and zero-width characters.
UNSHOWN = {"ESC": "\x1b", "BEL": "\x07", "RLO": "\u202e", "LRI": "\u2066", "ZWSP": "\u200b"}


@pytest.fixture(scope="module")
def evil(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store whose records carry escapes, bidi controls and markup, and a .bib citing them and worse."""
    folder = tmp_path_factory.mktemp("evil")
    records = [
        {
            "id": "evil1",
            "title": "Deep Residual\u202e Learning for \x1b[2J\x1b]0;pwned\x07Image\u200b Recognition",
            "authors": ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"],
            "year": 2015,
            "venue": "CVPR\x1b[31m\u2066",
        },
        {
            "id": "evil2",
            "title": "Attention <img src=x onerror=alert(1)> is | all | you need\n| x | **Real** |",
            "authors": ["Ashish Vaswani"],
            "year": 2017,
            "venue": "NeurIPS",
        },
    ]
    (folder / "evil.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    with Store(folder / "store.sqlite") as store:
        add_jsonl(store, folder / "evil.jsonl", "evil")
    (folder / "evil.bib").write_text(
        f"@inproceedings{{he, title={{{RESNET}}}, {HE}}}\n"
        "@inproceedings{va, title={Attention img src x onerror alert 1 is all you need x Real}, "
        "author={Vaswani, Ashish}, booktitle={NeurIPS}, year={2017}}\n"
        "@article{inj, title={</td></tr><tr><td>fake</td><script>alert(1)</script> | Real | R1 |\n| z | **Real** |},"
        " author={Evil, Eve}, journal={J}, year={2020}}\n"
        "@article{esc, title={Escape \x1b[2J and \u202eoverride}, author={Evil, Eve}, journal={J}, year={2020}}\n",
        encoding="utf-8",
    )
    return folder


@pytest.mark.parametrize("fmt", ["table", "markdown", "html", "sarif", "csv"])
def test_no_report_carries_escapes_or_bidi_controls(evil: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"r.{fmt}"
    args = ["check", str(evil / "evil.bib"), "--offline", "--store", str(evil / "store.sqlite"), "--show", "all"]
    proc = run_cli(tmp_path, *args, "--format", fmt, *([] if fmt == "table" else ["-o", str(out)]))
    assert proc.returncode in (0, 1), proc.stderr
    text = proc.stdout if fmt == "table" else out.read_text(encoding="utf-8")
    found = {name: text.count(ch) for name, ch in UNSHOWN.items() if ch in text}
    assert found == {}, found
    assert "pwned" in text or fmt == "markdown"  # the text around the escapes is still shown


def test_markdown_rows_cannot_be_spoofed(evil: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.md"
    args = ["check", str(evil / "evil.bib"), "--offline", "--store", str(evil / "store.sqlite"), "--show", "all"]
    assert run_cli(tmp_path, *args, "--format", "markdown", "-o", str(out)).returncode in (0, 1)
    rows = [line for line in out.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    assert len(rows) == 2 + 4  # the header, its rule, one row per citation: no row made by a title
    assert all(len(re.findall(r"(?<!\\)\|", line)) == 7 for line in rows), rows  # six cells, however escaped
    assert "<script" not in out.read_text(encoding="utf-8") and "<img" not in out.read_text(encoding="utf-8")


def test_html_has_no_markup_from_titles(evil: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    args = ["check", str(evil / "evil.bib"), "--offline", "--store", str(evil / "store.sqlite"), "--show", "all"]
    assert run_cli(tmp_path, *args, "--format", "html", "-o", str(out)).returncode in (0, 1)
    html = out.read_text(encoding="utf-8")
    assert "<img" not in html and "<td>fake</td>" not in html and html.count("<script") == 1  # the report's own


def test_a_homoglyph_title_is_not_its_look_alike_but_finds_it(tmp_path: Path) -> None:
    """Decided: look-alike letters are compared as written (never the same work as the Latin title: not
    Real), but the store's search reads them as Latin, so the work they imitate is found and named."""
    assert title_key(LOOKALIKE) != title_key(RESNET)
    assert latin_skeleton(LOOKALIKE) == RESNET
    with Store(tmp_path / "s.sqlite") as store:
        add_jsonl(store, ROOT / "examples" / "records.jsonl", "example")
        rids = store.index.by_title(LOOKALIKE, limit=3)
        assert rids and store.records(rids[:1])[rids[0]].title == RESNET
    (tmp_path / "h.bib").write_text(f"@inproceedings{{homo, title={{{LOOKALIKE}}}, {HE}}}\n", encoding="utf-8")
    proc = run_cli(tmp_path, "check", str(tmp_path / "h.bib"), "--offline", "--store", str(tmp_path / "s.sqlite"),
                   "--format", "json")  # fmt: skip
    verdict = json.loads(proc.stdout)["citations"][0]["verdict"]
    assert verdict["class"] != "Real"
    assert "Deep Residual Learning for Image Recognition" in verdict["rationale"]  # found and named
    assert "U+0430 CYRILLIC SMALL LETTER A" in proc.stderr and "reference homo:" in proc.stderr


def test_one_cyrillic_letter_in_a_title_is_a_near_miss_not_the_work(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite") as store:
        add_jsonl(store, ROOT / "examples" / "records.jsonl", "example")
    one = RESNET.replace("Residual", f"Residu{CYR_A}l")
    (tmp_path / "h.bib").write_text(f"@inproceedings{{one, title={{{one}}}, {HE}}}\n", encoding="utf-8")
    proc = run_cli(tmp_path, "check", str(tmp_path / "h.bib"), "--offline", "--store", str(tmp_path / "s.sqlite"),
                   "--format", "json")  # fmt: skip
    verdict = json.loads(proc.stdout)["citations"][0]["verdict"]
    assert verdict["class"] != "Real" and RESNET in verdict["rationale"]
    assert "'Residuаl' has U+0430 CYRILLIC SMALL LETTER A" in proc.stderr


def test_invisible_characters_in_a_cited_title_are_removed_and_it_matches(tmp_path: Path) -> None:
    """Zero-width and bidi controls are damage, not letters (clean_text on input): the title is the work's."""
    with Store(tmp_path / "s.sqlite") as store:
        add_jsonl(store, ROOT / "examples" / "records.jsonl", "example")
    hidden = "Deep Resi\u200bdual \u202eLearning for Image\u2066 Recognition"
    (tmp_path / "h.bib").write_text(f"@inproceedings{{z, title={{{hidden}}}, {HE}}}\n", encoding="utf-8")
    proc = run_cli(tmp_path, "check", str(tmp_path / "h.bib"), "--offline", "--store", str(tmp_path / "s.sqlite"),
                   "--format", "json")  # fmt: skip
    citation = json.loads(proc.stdout)["citations"][0]
    assert citation["reference"]["title"] == RESNET and citation["verdict"]["code"] == "R1"


def test_mixed_script_words_and_the_skeleton_leave_other_scripts_alone() -> None:
    assert mixed_script_words("Анализ данных о ресурсах") == []
    assert latin_skeleton("Анализ данных о ресурсах") == "Анализ данных о ресурсах"
    assert latin_skeleton("Ο αλγόριθμος") == "Ο αλγόριθμος"
    assert mixed_script_words("ν-SVM and the ε-insensitive loss") == []
    assert mixed_script_words("Dеер pe Learning".replace("pe", f"р{CYR_E}")) == [
        ("Dеер", ["U+0435 CYRILLIC SMALL LETTER IE", "U+0440 CYRILLIC SMALL LETTER ER"]),
        ("ре", ["U+0440 CYRILLIC SMALL LETTER ER", "U+0435 CYRILLIC SMALL LETTER IE"]),
    ]
