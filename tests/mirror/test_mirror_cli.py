"""`citetracer mirror dblp|acl|stats` as a user runs them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from citetracer.cli import main


def _flat(text: str) -> str:
    """The console wraps long lines; compare words."""
    return " ".join(text.split())


def test_dblp_then_stats(tmp_path: Path, dump: Path, dtd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "s.sqlite"
    assert main(["mirror", "dblp", str(dump), "--store", str(store)]) == 0  # dblp.dtd found beside the dump
    assert "5 records" in _flat(capsys.readouterr().out)
    assert main(["mirror", "stats", "--store", str(store)]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["by_source_and_type"]["dblp"] == {"article": 2, "inproceedings": 1, "phdthesis": 1, "proceedings": 1}
    assert stats["sources"]["dblp"] == "2020-05-02"
    assert stats["source_files"]["dblp"] == str(dump.resolve())
    assert stats["bytes"] > 0


def test_missing_dtd_and_bad_dump_exit_2_and_leave_store(
    tmp_path: Path, dump: Path, dtd: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "s.sqlite"
    assert main(["mirror", "dblp", str(dump), "--store", str(store)]) == 0
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    lone = shutil.copy(dump, elsewhere / "dblp.xml.gz")
    assert main(["mirror", "dblp", str(lone), "--store", str(store)]) == 2
    assert "dblp.dtd" in _flat(capsys.readouterr().err)
    broken = tmp_path / "broken.xml.gz"
    broken.write_bytes(dump.read_bytes()[:100])
    assert main(["mirror", "dblp", str(broken), "--dtd", str(dtd), "--store", str(store)]) == 2
    assert "was not changed" in _flat(capsys.readouterr().err)
    assert main(["mirror", "stats", "--store", str(store)]) == 0
    assert json.loads(capsys.readouterr().out)["records"] == 5


def test_acl_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    xml = tmp_path / "P99.xml"
    xml.write_text(
        '<?xml version="1.0"?><collection id="P99"><volume id="1"><meta><booktitle>Proc</booktitle>'
        '<year>2099</year></meta><paper id="1"><title>A Paper</title><author><first>A</first><last>B</last>'
        "</author><url>P99-1001</url></paper></volume></collection>",
        encoding="utf-8",
    )
    store = tmp_path / "s.sqlite"
    assert main(["mirror", "acl", str(xml), "--store", str(store)]) == 0
    assert "1 records from 1 files" in _flat(capsys.readouterr().out)
    assert main(["mirror", "acl", str(tmp_path / "missing.xml"), "--store", str(store)]) == 2
