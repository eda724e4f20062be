"""What a chair sees of a scan: plain progress lines off a terminal, report links that survive moving
the report folder (and --copy-inputs to move it whole), through the CLI in a subprocess."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tests.cliproc import run_cli
from tests.scan.conftest import REAL_BIB, make_pdf

ROOT = Path(__file__).resolve().parents[2]


def scan(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(tmp_path, "scan", *args, "--offline", "--workers", "1")


def test_off_a_terminal_a_scan_prints_plain_progress_lines(tmp_path: Path) -> None:
    papers = tmp_path / "papers"
    papers.mkdir()
    for i in range(11):
        (papers / f"p{i:02}.bib").write_text(REAL_BIB.replace("he2016deep", f"key{i}"))
    proc = scan(tmp_path, str(papers), "-o", str(tmp_path / "report"))
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith("scan: ")]
    assert lines[0] == "scan: 11 papers"
    assert [re.sub(r", \d+ s$", "", line) for line in lines[1:]] == [
        "scan: 10/11 papers, 0 with Hallucinated citations",
        "scan: 11/11 papers, 0 with Hallucinated citations",
    ]
    assert "\x1b" not in proc.stderr and "\r" not in proc.stderr  # no bar, no control characters


def pdf_links(page: str) -> list[str]:
    return re.findall(r'href="([^"]+)">open PDF', page)


def target_of(href: str, report: Path) -> Path:
    if href.startswith("file://"):
        return Path(unquote(urlsplit(href).path))
    return report.parent / unquote(href)


def test_pdf_links_survive_moving_the_report_folder(tmp_path: Path) -> None:
    papers = tmp_path / "papers"
    papers.mkdir()
    make_pdf(papers / "paper one.pdf", 1)
    assert scan(tmp_path, "papers", "-o", "report").returncode in (0, 1)
    shutil.move(tmp_path / "report", tmp_path / "moved")
    page = (tmp_path / "moved" / "index.html").read_text()
    [href] = pdf_links(page)
    assert href.startswith("file:///") and target_of(href, tmp_path / "moved" / "index.html").is_file()
    assert "--copy-inputs" in page  # the note says how to move the folder whole


def test_copy_inputs_makes_the_report_folder_whole(tmp_path: Path) -> None:
    papers = tmp_path / "papers"
    papers.mkdir()
    make_pdf(papers / "paper one.pdf", 1)
    assert scan(tmp_path, "papers", "-o", "report", "--copy-inputs").returncode in (0, 1)
    shutil.move(tmp_path / "report", tmp_path / "elsewhere")
    shutil.rmtree(papers)  # the originals are gone: the copies remain
    page = (tmp_path / "elsewhere" / "index.html").read_text()
    [href] = pdf_links(page)
    assert href.startswith("inputs/") and target_of(href, tmp_path / "elsewhere" / "index.html").is_file()
    assert "--copy-inputs" not in page
