"""The command line: output contract, exit codes, bad input, configuration precedence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citetracer.cli import main
from citetracer.config import load_settings
from citetracer.pipeline import Checker, Reader
from tests.conftest import empty_config

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    store = tmp_path / "store.sqlite"
    assert main(["mirror", "add", str(EXAMPLES / "records.jsonl"), "--source", "example", "--store", str(store)]) == 0
    return store


def run_json(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, dict]:
    code = main(args)
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_check_json_contract_and_exit_code(seeded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(
        capsys, ["check", str(EXAMPLES / "references.bib"), "--store", str(seeded), "--offline", "--format", "json"]
    )
    assert code == 1  # the example contains fabricated citations
    assert set(doc) >= {"citetracer", "input", "summary", "citations"}
    assert doc["summary"]["total"] == len(doc["citations"]) == 16
    assert doc["summary"]["real"] and doc["summary"]["potential"] and doc["summary"]["hallucinated"]
    first = doc["citations"][0]
    assert first["id"] == "vaswani2017attention"
    assert set(first["verdict"]) >= {"class", "code", "codes", "fields", "evidence", "stage", "rationale"}
    assert set(first["reference"]) >= {
        "raw",
        "title",
        "authors",
        "venue",
        "year",
        "doi",
        "arxiv_id",
        "pages",
        "volume",
        "issue",
        "publisher",
        "location",
        "url",
        "type",
        "page",
        "boxes",
    }
    assert first["verdict"]["evidence"][0]["source"] == "example"
    by_id = {c["id"]: c["verdict"] for c in doc["citations"]}
    assert by_id["he2016resnet_authors"]["code"] == "H3"
    assert by_id["vaswani2031future"]["code"] == "H4"


def test_check_exit_zero_when_all_real(seeded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bib = tmp_path / "ok.bib"
    bib.write_text(
        "@article{ok, title={Long Short-Term Memory}, author={Hochreiter, Sepp and Schmidhuber, "
        'J{\\"u}rgen}, journal={Neural Computation}, year=1997}'
    )
    assert main(["check", str(bib), "--store", str(seeded), "--offline"]) == 0


def test_jsonl_markdown_and_output_file(seeded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.jsonl"
    main(
        [
            "check",
            str(EXAMPLES / "references.bib"),
            "--store",
            str(seeded),
            "--offline",
            "--format",
            "jsonl",
            "-o",
            str(out),
        ]
    )
    lines = out.read_text().splitlines()
    assert len(lines) == 16 and all(json.loads(x)["verdict"]["class"] for x in lines)
    main(["check", str(EXAMPLES / "references.bib"), "--store", str(seeded), "--offline", "--format", "markdown"])
    md = capsys.readouterr().out
    assert md.startswith("# citetracer report") and "| he2016resnet_authors | **Hallucinated** |" in md


def test_bad_inputs_exit_2_only_when_nothing_was_read(
    seeded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.bib"
    empty.write_text("")
    assert main(["check", str(empty), "--store", str(seeded), "--offline"]) == 2
    assert "empty" in capsys.readouterr().err
    good = EXAMPLES / "references.bib"
    assert main(["check", str(empty), str(good), "--store", str(seeded), "--offline", "--format", "jsonl"]) == 1
    with pytest.raises(SystemExit) as exc:
        main(["check", "--bogus"])
    assert exc.value.code == 2


def test_extract_json(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`extract` reads as `check` does (one reading path: `Checker.read` is the pipeline's `Reader.read`) and
    opens no store: nothing is checked."""
    store = tmp_path / "store.sqlite"
    monkeypatch.setenv("CITETRACER_STORE", str(store))
    code, doc = run_json(capsys, ["extract", str(EXAMPLES / "references.bib"), "--format", "json"])
    assert code == 0
    assert doc["input"].endswith("references.bib") and len(doc["references"]) == 16
    assert not store.exists()
    assert Checker.read is Reader.read


def test_mirror_stats(seeded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, stats = run_json(capsys, ["mirror", "stats", "--store", str(seeded)])
    assert code == 0 and stats["records"] == 12 and stats["by_source"] == {"example": 12}


def test_settings_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "c.toml"
    config.write_text('store = "/from/file.sqlite"\nclosed_world = true\n[sources]\ncrossref = "http://127.0.0.1:1"\n')
    s = load_settings(config)
    assert str(s.store) == "/from/file.sqlite" and s.closed_world and s.sources["crossref"] == "http://127.0.0.1:1"
    monkeypatch.setenv("CITETRACER_STORE", "/from/env.sqlite")
    monkeypatch.setenv("CITETRACER_CROSSREF_URL", "http://127.0.0.1:2")
    s = load_settings(config)
    assert str(s.store) == "/from/env.sqlite" and s.sources["crossref"] == "http://127.0.0.1:2"
    s = load_settings(config, store=Path("/from/flag.sqlite"))
    assert str(s.store) == "/from/flag.sqlite"


def test_bad_config_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("store = [unclosed")
    assert main(["mirror", "stats", "--config", str(config)]) == 2
    assert "config file" in capsys.readouterr().err


def test_error_lines_are_not_wrapped_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    import subprocess
    import sys

    missing = tmp_path / ("a-long-folder-name-" * 6) / "refs.bib"
    proc = subprocess.run(
        [sys.executable, "-m", "citetracer.cli", "check", str(missing), "--offline", "--store", str(tmp_path / "s")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 2 and len(lines) == 1 and str(missing) in lines[0], proc.stderr


def _without_timing(doc: dict[str, object]) -> dict[str, object]:
    for c in doc["citations"]:  # type: ignore[attr-defined]
        c["cost"].pop("seconds", None)
    return doc


def test_the_streamed_json_report_is_the_whole_report(seeded: Path, tmp_path: Path) -> None:
    """JSON and JSONL are written citation by citation as judged; they say what the whole report says."""
    import shutil

    from citetracer.config import Settings
    from citetracer.pipeline import Checker

    bib = EXAMPLES / "references.bib"
    twin = tmp_path / "twin" / "store.sqlite"  # the same store, as each run leaves verified links behind
    shutil.copytree(seeded.parent, twin.parent, ignore=shutil.ignore_patterns("twin"))
    out = tmp_path / "r.json"
    assert main(["check", str(bib), "--store", str(seeded), "--offline", "--format", "json", "-o", str(out)]) == 1
    streamed = json.loads(out.read_text(encoding="utf-8"))
    with Checker(Settings(store=twin, offline=True)) as checker:
        whole = checker.check(bib).to_json_dict()
        whole["input"] = str(bib)
        whole["warnings"] = [w.replace(str(twin), str(seeded)) for w in whole["warnings"]]  # type: ignore[union-attr]
        whole["store_warnings"] = [w.replace(str(twin), str(seeded)) for w in whole["store_warnings"]]  # type: ignore[union-attr]
    assert _without_timing(streamed) == _without_timing(whole)
    lines = tmp_path / "r.jsonl"
    assert main(["check", str(bib), "--store", str(seeded), "--offline", "--format", "jsonl", "-o", str(lines)]) == 1
    rows = [json.loads(line) for line in lines.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [c["id"] for c in whole["citations"]]  # type: ignore[index]


def test_streamed_results_come_in_order_and_are_not_kept(seeded: Path) -> None:
    from citetracer.config import Settings
    from citetracer.extract import read_references
    from citetracer.pipeline import Checker

    read = read_references(EXAMPLES / "references.bib")
    got: list[str] = []
    with Checker(Settings(store=seeded, offline=True, concurrency=8)) as checker:
        report = checker.check_read(read, "refs", on_result=lambda c: got.append(c.id))
    assert got == [r.label for r in read.references] and report.citations == []


def test_output_into_a_missing_directory_fails_before_the_work(seeded: Path, tmp_path: Path, capsys) -> None:
    target = tmp_path / "no" / "such" / "dir" / "r.json"
    for fmt in ("json", "table", "markdown"):
        args = ["check", str(EXAMPLES / "references.bib"), "--store", str(seeded), "--format", fmt, "-o", str(target)]
        code = main(args)
        assert code == 2
        assert "no such directory" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["csv", "sarif", "html", "markdown"])
@pytest.mark.parametrize("only_flagged", [False, True])
def test_streamed_csv_sarif_and_html_are_the_whole_reports(
    seeded: Path, tmp_path: Path, fmt: str, only_flagged: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CSV, SARIF, HTML and Markdown are written citation by citation too (no citation kept in the reports
    the CLI gets back): the same document as from whole reports."""
    import argparse
    import io
    import re
    import shutil

    from citetracer.cli.reports import write_reports
    from citetracer.config import Settings
    from citetracer.pipeline import Checker

    kept: list[int] = []
    check_read = Checker.check_read

    def counting(self: Checker, *a: object, **kw: object) -> object:
        report = check_read(self, *a, **kw)  # type: ignore[arg-type]
        kept.append(len(report.citations))
        return report

    monkeypatch.setattr(Checker, "check_read", counting)

    files = [EXAMPLES / "references.bib", EXAMPLES / "references.bib"]
    twin = tmp_path / "twin" / "store.sqlite"
    shutil.copytree(seeded.parent, twin.parent, ignore=shutil.ignore_patterns("twin"))
    out = tmp_path / f"r.{fmt}"
    flag = ["--only-flagged"] if only_flagged else []
    args = ["check", *map(str, files), "--store", str(seeded), "--offline", "--format", fmt, *flag, "-o", str(out)]
    assert main(args) == 1
    assert kept == [0, 0]  # handed over one by one, none held
    monkeypatch.setattr(Checker, "check_read", check_read)
    settings = Settings(store=twin, offline=True)
    with Checker(settings) as checker:
        reports = [checker.check(path) for path in files]
    for r in reports:
        r.input = str(files[0])
    whole = io.StringIO()
    ns = argparse.Namespace(format=fmt, show="flagged" if only_flagged else None, output=out, verbose=False)
    write_reports(reports, ns, whole, f"offline (local store only) · store {seeded}")

    def comparable(text: str) -> str:
        text = re.sub(r'<td class="warns">.*?</td>', "", text)  # the stores' paths differ, cut to a length
        return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "WHEN", text).replace(str(twin), str(seeded))

    streamed = out.read_text(encoding="utf-8")
    if fmt == "sarif":
        assert json.loads(comparable(streamed)) == json.loads(comparable(whole.getvalue()))
    else:
        assert comparable(streamed) == comparable(whole.getvalue())


def test_fix_is_written_from_citations_handed_over_one_by_one(
    seeded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--fix` no longer needs whole reports: each citation's fix view goes to a scratch file as it is
    judged, and the corrected BibTeX is the one whole reports give."""
    import io
    import shutil

    from rich.console import Console

    from citetracer.cli.reports import write_fixed_bibtex
    from citetracer.config import Settings
    from citetracer.pipeline import Checker

    kept: list[int] = []
    check_read = Checker.check_read

    def counting(self: Checker, *a: object, **kw: object) -> object:
        report = check_read(self, *a, **kw)  # type: ignore[arg-type]
        kept.append(len(report.citations))
        return report

    monkeypatch.setattr(Checker, "check_read", counting)
    twin = tmp_path / "twin" / "store.sqlite"
    shutil.copytree(seeded.parent, twin.parent, ignore=shutil.ignore_patterns("twin"))
    bib = EXAMPLES / "references.bib"
    fixed = tmp_path / "fixed.bib"
    args = ["check", str(bib), "--store", str(seeded), "--offline", "--format", "json", "-o", str(tmp_path / "r.json")]
    assert main([*args, "--fix", str(fixed)]) == 1
    assert kept == [0]
    assert f"corrected BibTeX written to {fixed}" in capsys.readouterr().err
    monkeypatch.setattr(Checker, "check_read", check_read)
    with Checker(Settings(store=twin, offline=True)) as checker:
        report = checker.check(bib)
    whole = tmp_path / "whole.bib"
    write_fixed_bibtex([report], whole, Console(file=io.StringIO()))
    assert fixed.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    assert "% citetracer: HALLUCINATED" in fixed.read_text(encoding="utf-8")


def test_a_check_that_dies_half_way_leaves_the_old_report(seeded: Path, tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    bib = tmp_path / "many.bib"
    bib.write_text(
        "".join(f"@misc{{k{i}, title={{Some Synthetic Title Number {i}}}, year={{2020}}}}\n" for i in range(20_000))
    )
    out = tmp_path / "r.json"
    out.write_text('{"old": "report"}\n')
    cmd = [
        sys.executable,
        "-m",
        "citetracer",
        "check",
        str(bib),
        "--offline",
        "--store",
        str(seeded),
        "--format",
        "json",
        "-o",
        str(out),
    ]
    err = (tmp_path / "stderr.txt").open("w")
    proc = subprocess.Popen(cmd, env={**os.environ, "CITETRACER_CONFIG": str(empty_config(tmp_path))}, stderr=err)
    deadline = time.monotonic() + 300
    while not any(p.name.startswith(".r.json.") and p.stat().st_size > 10_000 for p in tmp_path.iterdir()):
        assert proc.poll() is None, (tmp_path / "stderr.txt").read_text()
        assert time.monotonic() < deadline
        time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)  # mid-report, as when its store died under it
    proc.wait(30)
    err.close()
    assert out.read_text() == '{"old": "report"}\n'  # not a truncated report


def test_output_to_a_pipe_or_device_is_written_not_replaced(seeded: Path, tmp_path: Path) -> None:
    import os
    import threading

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    code = main(
        [
            "check",
            str(EXAMPLES / "references.bib"),
            "--offline",
            "--store",
            str(seeded),
            "--format",
            "json",
            "-o",
            str(fifo),
        ]
    )
    reader.join(60)
    assert code == 1 and b'"citations"' in got[0]
    assert fifo.is_fifo()  # a report renamed over it once made /dev/null a regular file


def test_a_pdf_read_reports_its_pages_count_and_a_confidence_per_reference(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Every PDF read says where its list was read, how many references, and how sure it is of each: `extract` and
    `check` print the reading's line after the warnings, their JSON carries it ("reading") with each
    reference's confidence (null for inputs read without layout), and the HTML and Markdown reports show it."""
    from tests.scan.conftest import make_pdf

    pdf = make_pdf(tmp_path / "paper.pdf", 1)
    code, doc = run_json(capsys, ["extract", str(pdf), "--format", "json"])
    assert code == 0 and doc["reading"]["pages"] == [2] and doc["reading"]["references"] == 3
    assert doc["reading"]["summary"].startswith("3 references from page 2")
    assert all(0.0 <= r["confidence"] <= 1.0 for r in doc["references"])
    main(["extract", str(pdf)])
    assert "read: " in capsys.readouterr().err
    store = str(tmp_path / "s.sqlite")
    main(["check", str(pdf), "--offline", "--store", store, "--format", "json"])
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["reading"]["references"] == 3 and "3 references from page 2" in captured.err
    assert all(0.0 <= c["reference"]["confidence"] <= 1.0 for c in report["citations"])
    shown = {"html": '<p class="reading">read: 3 references from page 2', "markdown": "Read: 3 references from page 2"}
    for fmt, line in shown.items():
        main(["check", str(pdf), "--offline", "--store", store, "--format", fmt])
        assert line in capsys.readouterr().out, fmt
    code, doc = run_json(capsys, ["extract", str(EXAMPLES / "references.bib"), "--format", "json"])
    assert "reading" not in doc and doc["references"][0]["confidence"] is None


def test_check_jsonl_csv_and_sarif_of_a_pdf_say_where_its_list_was_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`--format jsonl|csv|sarif` carry the reading too: each JSONL line its paper's `reading`, each CSV row
    `confidence`, `pages_read` and `low_confidence`, the SARIF run its `properties.readings` and a notification."""
    import csv
    import io

    from tests.scan.conftest import make_pdf

    pdf = make_pdf(tmp_path / "paper.pdf", 1)
    check = ["check", str(pdf), "--offline", "--store", str(tmp_path / "s.sqlite"), "--format"]
    main([*check, "jsonl"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3 and all(x["reading"]["pages"] == [2] and x["reading"]["references"] == 3 for x in lines)
    assert all("verdict" in x for x in lines)  # the CITATION's keys as they were
    main([*check, "csv"])
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["pages_read"], r["low_confidence"]) for r in rows] == [("2", "0")] * 3
    assert all(0.0 <= float(r["confidence"]) <= 1.0 for r in rows)
    main([*check, "sarif"])
    run = json.loads(capsys.readouterr().out)["runs"][0]
    assert run["properties"]["readings"][0]["summary"] == "3 references from page 2"
    notes = run["invocations"][0]["toolExecutionNotifications"]
    (note,) = [n for n in notes if n.get("descriptor", {}).get("id") == "citetracer/reading"]
    assert note["level"] == "note" and note["message"]["text"] == f"{pdf}: 3 references from page 2"


def test_a_pdf_without_a_reference_list_says_so_in_every_report_and_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seeded: Path
) -> None:
    """A PDF with text but no reference list is not a paper citing nothing: the terminal and every report say no list
    was found and which pages were searched, and `check` exits 2 as for an input nothing could be read from (the
    other inputs still decide the code)."""
    from tests.extract.conftest import build_pdf, column

    body = ["A study of things", "We measure how things behave under load and write it down.", "Conclusion"]
    pdf = build_pdf(
        tmp_path / "slides.pdf", [column(body, 72, 90), column(["Appendix", "More of the method."], 72, 90)]
    )
    said = "no reference list found in the PDF (pages 1-2 searched)"
    check = ["check", str(pdf), "--offline", "--store", str(seeded)]
    assert main(check) == 2
    captured = capsys.readouterr()
    assert f"read: {pdf}: {said}" in captured.err and "0 references" not in captured.err
    shown = " ".join(captured.out.split())  # as the terminal wraps it
    assert "No reference list found in the PDF (pages 1-2 searched): nothing was checked" in shown
    code, doc = run_json(capsys, [*check, "--format", "json"])
    assert code == 2 and doc["reading"]["summary"] == said and doc["reading"]["searched"] == [1, 2]
    assert main([*check, "--format", "jsonl"]) == 2
    (line,) = map(json.loads, capsys.readouterr().out.splitlines())
    assert line["input"] == str(pdf) and line["reading"]["references"] == 0 and "id" not in line
    assert main([*check, "--format", "csv"]) == 2
    assert f"{pdf},,,,,,,,,,,,,{said}," in capsys.readouterr().out
    assert main([*check, "--format", "sarif"]) == 2
    notes = json.loads(capsys.readouterr().out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert {"level": "error", "text": f"{pdf}: {said}"} in [{"level": n["level"], **n["message"]} for n in notes]
    assert main([*check, "--format", "markdown"]) == 2
    assert "0 citations" not in capsys.readouterr().out
    assert main([*check, "--format", "html"]) == 2
    assert "No reference list found in the PDF (pages 1-2 searched)" in capsys.readouterr().out
    both = ["check", str(pdf), str(EXAMPLES / "references.bib"), "--offline", "--store", str(seeded)]
    assert main([*both, "--format", "jsonl"]) == 1  # the other input decides: the .bib's Hallucinated citations
    assert main(["extract", str(pdf)]) == 2
    assert said in capsys.readouterr().err
