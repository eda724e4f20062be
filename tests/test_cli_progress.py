"""Progress bars: drawn on a terminal, absent from logs and pipes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from citetracer.cli import main
from citetracer.cli.progress import CheckProgress, ScanProgress
from citetracer.scan.journal import Entry
from tests.scan.conftest import make_pdf


def test_a_terminal_gets_a_bar_and_a_pipe_gets_none() -> None:
    tty = io.StringIO()
    from rich.console import Console

    with CheckProgress(Console(file=tty, force_terminal=True, width=100)) as bar:
        bar.reading(Path("paper.pdf"))
        bar.checking(3)
        for i in range(3):
            bar.citation_done(i)
        bar.paper_done()
    assert "citations" in tty.getvalue() and "\x1b[" in tty.getvalue()
    pipe = io.StringIO()
    with CheckProgress(Console(file=pipe, force_terminal=False)) as bar:
        bar.reading(Path("paper.pdf"))
        bar.checking(3)
        bar.citation_done(0)
        bar.paper_done()
    assert pipe.getvalue() == ""
    scan_tty = io.StringIO()
    with ScanProgress(Console(file=scan_tty, force_terminal=True, width=100)) as bar:
        bar.start(2, 1)
        bar.advance(Entry(key="k", file="f", path="f", name="f", status="done", hallucinated=2))
    assert "1 with Hallucinated" in scan_tty.getvalue()


def test_check_of_a_pdf_into_a_pipe_writes_no_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pdf = make_pdf(tmp_path / "paper.pdf", 1)
    main(["check", str(pdf), "--offline", "--store", str(tmp_path / "s.sqlite"), "--format", "csv"])
    captured = capsys.readouterr()
    assert "\x1b[" not in captured.err and "\r" not in captured.err
    assert captured.out.count("\n") == 4  # the header and three citations (no legend line: plain CSV)
