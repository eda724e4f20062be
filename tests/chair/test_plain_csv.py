"""Every CSV citetracer writes is plain RFC 4180 (issue 44): the header row first, no `# legend` line, read
alike by `csv.DictReader` and pandas; the legend is in the README, the HTML and the Markdown reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from citetracer.report.csv_report import CITATION_COLUMNS, PAPER_COLUMNS
from citetracer.report.views import LEGEND
from tests.chair.csvread import read_both
from tests.cliproc import run_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def seeded(tmp_path: Path) -> None:
    assert run_cli(tmp_path, "mirror", "add", str(EXAMPLES / "records.jsonl"), "--source", "example").returncode == 0


def test_check_csv_every_citation_and_flagged(tmp_path: Path) -> None:
    seeded(tmp_path)
    bib = str(EXAMPLES / "references.bib")
    every = run_cli(tmp_path, "check", "--offline", bib, "--format", "csv")
    rows = read_both(every.stdout, CITATION_COLUMNS)
    assert len(rows) == 16 and {r["class"] for r in rows} == {"Real", "Potential", "Hallucinated"}
    flagged = run_cli(tmp_path, "check", "--offline", bib, "--format", "csv", "--show", "flagged")
    rows = read_both(flagged.stdout, CITATION_COLUMNS)
    assert rows and all(r["class"] == "Hallucinated" or r["code"] in ("P2", "P3") for r in rows)
    out = tmp_path / "report.csv"
    assert run_cli(tmp_path, "check", "--offline", bib, "--format", "csv", "-o", str(out)).returncode == 1
    assert len(read_both(out, CITATION_COLUMNS)) == 16


def test_a_scans_csvs(tmp_path: Path) -> None:
    seeded(tmp_path)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.bib").write_text((EXAMPLES / "references.bib").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 nothing\n")
    proc = run_cli(tmp_path, "scan", str(folder), "-o", str(tmp_path / "out"), "--offline", "--workers", "1")
    assert proc.returncode == 1, proc.stderr
    papers = read_both(tmp_path / "out" / "summary.csv", PAPER_COLUMNS)
    assert sorted(r["status"] for r in papers) == ["checked", "not checked"]
    assert len(read_both(tmp_path / "out" / "citations.csv", CITATION_COLUMNS)) == 16


def test_pandas_reads_what_dictreader_reads(tmp_path: Path) -> None:
    """pandas itself, so that a missing dev dependency shows as a skip rather than passing unnoticed."""
    pytest.importorskip("pandas")
    seeded(tmp_path)
    proc = run_cli(tmp_path, "check", "--offline", str(EXAMPLES / "references.bib"), "--format", "csv")
    rows = read_both(proc.stdout, CITATION_COLUMNS)
    assert rows[0]["raw"].startswith("'@inproceedings{vaswani2017attention")  # a formula-safe cell, read as written


def test_the_legend_is_where_people_read() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "plain RFC 4180" in readme and "P1 not found where no source searched covers it" in LEGEND
