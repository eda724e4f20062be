"""Hostile PDFs through every front end that reads them: `check`, `scan` and the web upload.

Each PDF is written by hand (tests/hostile_files.py): arrays and dictionaries nested 200,000 deep, a page
tree of 300,000 pages, a page count of 2**31 - 1, a page tree that loops, a scan whose image is a 1.6 GB
Flate bomb or a 450 MB JBIG2 bomb, damaged cross-reference tables, an encrypted file, and a web page
saved as .pdf. Every one ends in a result or one clear line (exit 2 when nothing could be read), never a
traceback, an internal error or a hang, and the CLI runs under a 4 GB address-space cap so that a bound
that is gone fails here rather than taking the machine's memory.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests import hostile_files as H
from tests.cliproc import one_clear_error, run_cli

CAP = 4 * 2**30

#: name -> (how the file is made, the error line's ending, or None when the PDF is read).
CASES: dict[str, tuple[Callable[[Path], Path], str | None]] = {
    "nested-arrays": (H.pdf_nested_arrays, None),
    "nested-dicts": (H.pdf_nested_dicts, None),
    "many-pages": (H.pdf_many_pages, None),
    "count-lie": (H.pdf_count_lie, None),
    "tree-loop": (H.pdf_page_tree_loop, None),
    "flate-bomb": (H.pdf_flate_bomb, None),
    "jbig2-bomb": (H.pdf_jbig2_bomb, None),
    "xref-garbage": (lambda p: H.pdf_bad_xref(p, "garbage"), None),
    "xref-past-eof": (lambda p: H.pdf_bad_xref(p, "past-eof"), None),
    "xref-loop": (lambda p: H.pdf_bad_xref(p, "loop"), None),
    "xref-huge-size": (lambda p: H.pdf_bad_xref(p, "huge-size"), None),
    "xref-none": (
        lambda p: H.pdf_bad_xref(p, "none"),
        "not a readable PDF (Failed to load document (PDFium: Data format error).)",
    ),
    "encrypted": (H.pdf_encrypted, "the PDF is encrypted (password required)"),
    "html": (H.html_as_pdf, "an HTML page, not a PDF (a download that returned a web page?)"),
    "html-marker": (lambda p: H.html_as_pdf(p, True), "an HTML page, not a PDF (a download that returned a web page?)"),
}
#: The PDFs whose one reference is read in spite of the damage (the others have no readable bibliography).
READ = {"nested-arrays", "tree-loop", "xref-garbage", "xref-past-eof", "xref-loop", "xref-huge-size", "count-lie"}


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("hostile-pdfs")
    for name, (make, _) in CASES.items():
        make(folder / f"{name}.pdf")
    yield folder


@pytest.mark.parametrize("name", list(CASES))
def test_check_reads_or_refuses_each_hostile_pdf_in_one_line(pdfs: Path, tmp_path: Path, name: str) -> None:
    _, error = CASES[name]
    pdf = pdfs / f"{name}.pdf"
    proc = run_cli(tmp_path, "check", str(pdf), "--offline", "--format", "jsonl", memory_cap=CAP, timeout=120)
    if error is not None:
        assert proc.returncode == 2
        assert one_clear_error(proc) == f"error: {pdf}: {error}"
        return
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    if name not in READ:  # read, but no list in it: nothing checked, as for an input nothing could be read from
        assert proc.returncode == 2, proc.stderr
        assert [x["reading"]["references"] for x in lines] == [0] and "id" not in lines[0], proc.stdout
        return
    assert proc.returncode == 0, proc.stderr
    assert [x["reference"]["title"] for x in lines] == ["A title of a paper"], proc.stderr


def test_a_page_that_cannot_be_loaded_is_skipped_with_a_warning(pdfs: Path, tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "check", str(pdfs / "tree-loop.pdf"), "--offline", "--format", "jsonl")
    assert "warning: 1 page(s) cannot be loaded and were skipped (first: page 2)" in proc.stderr


def test_a_long_page_tree_is_read_in_part_with_a_warning(pdfs: Path, tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "check", str(pdfs / "many-pages.pdf"), "--offline", "--format", "jsonl")
    assert "warning: the PDF has 300000 pages; only pages" in proc.stderr


def test_scan_checks_the_readable_and_names_each_refused_pdf(pdfs: Path, tmp_path: Path) -> None:
    good = tmp_path / "in" / "good.bib"
    good.parent.mkdir()
    good.write_text(H.ENTRY.format(key="good", title="A good title beside the bombs"), encoding="utf-8")
    for pdf in pdfs.glob("*.pdf"):
        (good.parent / pdf.name).write_bytes(pdf.read_bytes())
    proc = run_cli(tmp_path, "scan", str(good.parent), "-o", str(tmp_path / "out"), "--offline", memory_cap=CAP)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    refused = {name for name, (_, error) in CASES.items() if error is not None}
    for name in refused:
        assert f"warning: in/{name}.pdf: not checked:" in proc.stderr or f"{name}.pdf: not checked" in proc.stderr
    papers = {p.stem for p in (tmp_path / "out" / "papers").glob("*.json")}
    assert {"good", *(set(CASES) - refused)} <= papers, papers


def test_the_web_upload_checks_the_readable_and_names_each_refused_pdf(pdfs: Path, tmp_path: Path) -> None:
    from tests.web.live import served

    files = [(p.name, p.read_bytes()) for p in sorted(pdfs.glob("*.pdf"))]
    with served(tmp_path / "live") as live:
        status, body = live.post(files=files[:10])
        assert status == 202, body
        first = live.wait_job(body["id"], timeout=300)
        status, body = live.post(files=files[10:])
        assert status == 202, body
        second = live.wait_job(body["id"], timeout=300)
        log = live.log()
    assert "Traceback" not in log, log[-3000:]
    warnings = "\n".join(first.get("warnings", []) + second.get("warnings", []))
    for name, (_, error) in CASES.items():
        if error is not None:
            assert f"{name}.pdf: {error}" in warnings, warnings
    assert str(tmp_path) not in warnings  # no server path in what the user sees
