"""`citetracer scan`: the contract's files and their content, resuming, settings, exit codes."""

from __future__ import annotations

import csv
import html
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from citetracer.cli import main
from citetracer.scan.journal import JOURNAL
from tests.conftest import empty_config

SCHEMA = json.loads((Path(__file__).parents[1] / "report" / "sarif-schema-2.1.0.json").read_text())


def scan(papers: Path, out: Path, store: Path, *extra: str) -> int:
    return main(["scan", str(papers), "-o", str(out), "--store", str(store), "--offline", "--workers", "2", *extra])


def err_text(capsys: pytest.CaptureFixture[str]) -> str:
    """stderr with its line wrapping undone."""
    return " ".join(capsys.readouterr().err.split())


def journal_lines(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / JOURNAL).read_text().splitlines()[1:]]


def verdicts(doc: dict) -> list[tuple[str, str, list[str]]]:
    return [(c["id"], c["verdict"]["class"], c["verdict"]["codes"]) for c in doc["citations"]]


def test_scan_writes_every_report_of_the_contract(
    papers: Path, seeded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report"
    assert scan(papers, out, seeded) == 1  # the example bibliography has Hallucinated citations
    err = err_text(capsys)
    assert "4 papers (4 checked now, 0 from the journal)" in err and "empty.bib: not checked" in err

    # one JSON per paper: the same document `check --format json` writes for that file
    for name, source in (("examples", "examples.bib"), ("clean", "clean.bib"), ("paper", "paper.pdf")):
        doc = json.loads((out / "papers" / f"{name}.json").read_text())
        main(["check", str(papers / source), "--store", str(seeded), "--offline", "--format", "json"])
        alone = json.loads(capsys.readouterr().out)
        assert verdicts(doc) == verdicts(alone) and doc["summary"] == alone["summary"]
        assert doc["input"].endswith(source) and doc.get("reading") == alone.get("reading")
    assert not (out / "papers" / "empty.json").exists()

    # summary.csv: one row per paper, riskiest first, the unreadable one last
    rows = list(csv.DictReader((out / "summary.csv").open()))
    assert next(Path(r["file"]).name for r in rows) == "examples.bib"
    assert [Path(r["file"]).name for r in rows][-1] == "empty.bib" and rows[-1]["status"] == "not checked"
    ex = json.loads((out / "papers" / "examples.json").read_text())["summary"]
    assert (rows[0]["references"], rows[0]["real"], rows[0]["potential"], rows[0]["hallucinated"]) == (
        str(ex["total"]),
        str(ex["real"]),
        str(ex["potential"]),
        str(ex["hallucinated"]),
    )
    # the PDF's row says which pages its list was read from and how many entries were doubtful; the .bib's is empty
    pdf_row = next(r for r in rows if Path(r["file"]).name == "paper.pdf")
    assert (pdf_row["pages_read"], pdf_row["low_confidence"]) == ("2", "0")
    assert (rows[0]["pages_read"], rows[0]["low_confidence"]) == ("", "")
    # citations.csv: one row per citation of every checked paper
    cites = list(csv.DictReader((out / "citations.csv").open()))
    assert len(cites) == sum(int(r["references"]) for r in rows)
    assert {c["class"] for c in cites} == {"Real", "Potential", "Hallucinated"}

    # index.html: the summary and every paper; the PDF linked so that moving the report keeps the link
    page = (out / "index.html").read_text()
    for r in rows:  # named without the folder they all share, the full name in the tooltip
        assert f'title="{r["file"]}">{Path(r["file"]).name}<' in page
    pdf = (papers / "paper.pdf").resolve().as_uri()  # outside the report folder: by its absolute URL
    assert f'href="{pdf}"' in page and "not checked: " in page
    assert page.count('class="paper card"') == 4
    assert page.count('<p class="reading">read: 3 references from page 2') == 1  # the PDF's reading, as `check`'s

    # summary.md for a review comment, results.sarif for the BibTeX inputs
    md = (out / "summary.md").read_text()
    assert md.startswith("## citetracer: 1 of 4 papers cite Hallucinated references")
    assert "he2016resnet_authors" in md
    sarif = json.loads((out / "results.sarif").read_text())
    jsonschema.Draft4Validator(SCHEMA).validate(sarif)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert len(uris) == 1 and next(iter(uris)).endswith("examples.bib")

    # the journal: one line per paper
    lines = journal_lines(out)
    assert sorted(Path(x["file"]).name for x in lines) == ["clean.bib", "empty.bib", "examples.bib", "paper.pdf"]
    assert {x["status"] for x in lines} == {"done", "unreadable"}
    assert all(x["worker_rss_mb"] > 0 for x in lines if x["status"] == "done")


def test_a_second_run_checks_only_what_is_new(
    papers: Path, seeded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report"
    scan(papers, out, seeded)
    first = journal_lines(out)
    capsys.readouterr()
    assert scan(papers, out, seeded) == 1
    assert "4 papers (0 checked now, 4 from the journal)" in err_text(capsys)
    assert journal_lines(out) == first
    (papers / "new.bib").write_text((papers / "clean.bib").read_text().replace("he2016deep", "another"))
    (papers / "clean.bib").write_text((papers / "clean.bib").read_text() + "\n% edited\n")  # changed: checked again
    scan(papers, out, seeded)
    assert "5 papers (2 checked now, 3 from the journal)" in err_text(capsys)
    names = [Path(x["file"]).name for x in journal_lines(out)[len(first) :]]
    assert sorted(names) == ["clean.bib", "new.bib"]
    assert len(list(csv.DictReader((out / "summary.csv").open()))) == 5


def test_other_settings_are_refused_unless_restarted(
    papers: Path, seeded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report"
    scan(papers, out, seeded)
    capsys.readouterr()
    assert scan(papers, out, seeded, "--closed-world") == 2
    err = err_text(capsys)
    assert "other settings" in err and "closed_world" in err and "--restart" in err
    assert scan(papers, out, seeded, "--closed-world", "--restart") == 1
    assert "4 papers (4 checked now, 0 from the journal)" in err_text(capsys)


def test_only_flagged_and_exit_codes(papers: Path, seeded: Path, tmp_path: Path) -> None:
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "clean.bib").write_text((papers / "clean.bib").read_text())
    assert scan(clean, tmp_path / "r0", seeded) == 0  # nothing Hallucinated
    out = tmp_path / "r1"
    assert scan(papers, out, seeded, "--only-flagged", "--exit-zero") == 0
    cites = list(csv.DictReader((out / "citations.csv").open()))
    assert cites and all(c["class"] != "Real" and c["code"] != "P1" for c in cites)  # --show flagged: H, P2, P3
    page = (out / "index.html").read_text()
    assert 'data-class="Real"' not in page and 'data-class="Hallucinated"' in page
    assert "papers with nothing flagged (H, P2, P3) are not listed" in page
    assert main(["scan", str(tmp_path / "nothing-here"), "-o", str(tmp_path / "r2"), "--store", str(seeded)]) == 2


def test_archives_and_list_files_are_scanned(papers: Path, seeded: Path, tmp_path: Path) -> None:
    import zipfile

    archive = tmp_path / "submissions.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(papers / "paper.pdf", "track-a/paper.pdf")
        zf.write(papers / "clean.bib", "track-b/clean.bib")
    listing = tmp_path / "more.list"
    listing.write_text(f"{papers / 'examples.bib'}\n")
    out = tmp_path / "report"
    assert scan(archive, out, seeded) == 0
    assert main(["scan", str(archive), str(listing), "-o", str(out), "--store", str(seeded), "--offline"]) == 1
    files = sorted(r["file"] for r in csv.DictReader((out / "summary.csv").open()))
    assert len(files) == 3
    for member in ("submissions.zip:track-a/paper.pdf", "submissions.zip:track-b/clean.bib"):
        assert sum(f.endswith(member) for f in files) == 1, files
    page = (out / "index.html").read_text()
    assert "inputs/submissions.zip-" in page  # the unpacked PDF is linked, inside the report folder


def test_workers_are_replaced_after_their_share_of_papers(papers: Path, seeded: Path, tmp_path: Path) -> None:
    """A fresh process takes over after `recycle_after` papers (bounds a long scan's memory); nothing is lost."""
    from citetracer.config import Settings
    from citetracer.scan import ScanOptions, run_scan

    settings = Settings(store=seeded, offline=True)
    options = ScanOptions(out_dir=tmp_path / "report", workers=1, recycle_after=1)
    outcome = run_scan([papers], settings, options)
    done = [e for e in outcome.entries if e.status in ("done", "unreadable")]
    assert len(done) == 4 and outcome.checked_now == 4
    workers = [e.worker for e in outcome.entries if e.status == "done"]
    assert len(set(workers)) == len(workers) == 3  # one process per paper


def test_a_scan_with_failed_papers_exits_non_zero_and_says_how_many(seeded: Path, tmp_path: Path) -> None:
    from tests.scan.conftest import REAL_BIB

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "clean.bib").write_text(REAL_BIB)
    (folder / "huge.bib").write_text(
        "".join(
            f"@misc{{k{i}, title={{A Synthetic Title Number {i} About Things}}, year={{2020}}}}\n"
            for i in range(30_000)
        )
    )
    done = subprocess.run(  # the huge one outlives its 5 s: failed, like a paper whose store went away
        [
            sys.executable,
            "-m",
            "citetracer",
            "scan",
            str(folder),
            "-o",
            str(tmp_path / "out"),
            "--offline",
            "--store",
            str(seeded),
            "--workers",
            "2",
            "--paper-timeout",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CITETRACER_CONFIG": str(empty_config(tmp_path))},
    )
    err = " ".join(done.stderr.split())
    assert done.returncode == 2, done.stderr  # not 0: a paper was not checked
    assert "2 papers (2 checked now, 0 from the journal, 1 failed)" in err
    assert "1 of 2 papers could not be checked" in err


def test_a_journal_line_that_is_json_but_not_an_entry_is_skipped(seeded: Path, tmp_path: Path) -> None:
    from tests.scan.conftest import REAL_BIB

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "clean.bib").write_text(REAL_BIB)
    command = [
        sys.executable,
        "-m",
        "citetracer",
        "scan",
        str(folder),
        "-o",
        str(tmp_path / "out"),
        "--offline",
        "--store",
        str(seeded),
        "--workers",
        "1",
    ]
    env = {**os.environ, "CITETRACER_CONFIG": str(empty_config(tmp_path))}
    assert subprocess.run(command, capture_output=True, text=True, timeout=300, env=env).returncode == 0
    with (tmp_path / "out" / JOURNAL).open("a") as fh:
        fh.write('123\n[1, 2]\n{"key": 5}\n')
    again = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
    err = " ".join(again.stderr.split())
    assert again.returncode == 0, again.stderr  # it crashed (exit 3) on the first of them
    assert err.count("is not a journal entry; skipped") == 3 and "1 from the journal" in err


def test_a_pdf_without_a_reference_list_is_said_so_by_every_report_of_the_scan(
    seeded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A chair screening many papers must find the PDFs nothing of which was checked: in summary.csv their own status
    and the pages searched (not `checked` with 0 references), one row in citations.csv, a line among the papers to
    look at in index.html and summary.md, the count in the terminal's summary; a scan of nothing else exits 2, as
    `check` does, and a paper with a list still decides the code beside it."""
    from tests.scan.conftest import make_pdf, make_pdf_without_list

    folder = tmp_path / "in"
    folder.mkdir()
    make_pdf(folder / "paper.pdf", 1)
    slides = make_pdf_without_list(folder / "slides.pdf")
    said = "no reference list found in the PDF (pages 1-2 searched)"
    out = tmp_path / "report"
    assert scan(folder, out, seeded, "--workers", "1") == 0  # paper.pdf's references are all Real
    err = err_text(capsys)
    assert f"warning: {slides}: {said}: nothing was checked" in err
    assert "3 references, 0 papers with Hallucinated citations, 1 paper with no reference list found;" in err

    paper, none = csv.DictReader((out / "summary.csv").open())
    assert (Path(paper["file"]).name, paper["status"], paper["pages_read"]) == ("paper.pdf", "checked", "2")
    assert (none["file"], none["status"], none["references"], none["pages_read"]) == (
        str(slides),
        "no reference list",
        "0",
        "",
    )
    assert none["note"].startswith(f"{said} | ") and "only 0 references" not in none["note"]
    [row] = [r for r in csv.DictReader((out / "citations.csv").open()) if r["file"] == str(slides)]
    assert row["id"] == row["class"] == "" and row["reason"] == said
    journaled = {Path(e["file"]).name: e for e in journal_lines(out)}
    assert journaled["slides.pdf"]["no_list"] == said and journaled["paper.pdf"]["no_list"] == ""

    page = html.unescape((out / "index.html").read_text())
    look = page[page.index('<div id="no-list">') :]
    look = look[: look.index("</div>")]
    assert "No reference list found in 1 paper" in look and f">slides.pdf</a>: {said}</li>" in look
    assert "<b>1</b>paper with no reference list found" in page
    assert f"{said[:1].upper()}{said[1:]}: nothing was checked" in page  # its table row, not four zeros
    assert '<p class="counts nolist">' in page  # kept shown by the filters, though it has no citation card
    review = (out / "summary.md").read_text()
    assert f"**1 paper with no reference list found** (nothing checked):\n\n- {slides}: {said}\n" in review
    assert f"| {slides} |" not in review  # not a row of zeros in the papers' table

    alone = tmp_path / "alone"
    alone.mkdir()
    make_pdf_without_list(alone / "slides.pdf")
    out = tmp_path / "report-alone"
    assert scan(alone, out, seeded, "--workers", "1", "--show", "hallucinated") == 2  # nothing at all was checked
    assert "1 paper with no reference list found" in err_text(capsys)
    assert '<p class="counts nolist">' in (out / "index.html").read_text()  # listed whatever --show keeps
