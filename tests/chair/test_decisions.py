"""A chair's decisions (issue 44): kept in the report folder, keyed by paper and normalised reference, applied by
every later scan, shown and counted in every report, exported, never lost by concurrent writers; a confirmed
fabrication stays Hallucinated."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import jsonschema
import pytest

from citetracer.records import CitationResult, Person, Reference, Report, Verdict
from citetracer.report.csv_report import CITATION_COLUMNS, PAPER_COLUMNS
from citetracer.report.decisions import (
    EXPORT_COLUMNS,
    DecisionBook,
    DecisionError,
    Decisions,
    decided,
    make_call,
    reference_key,
)
from tests.chair.csvread import read_both
from tests.cliproc import run_cli
from tests.report.test_sarif import SCHEMA

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def citation(cid: str, cls: str, code: str, raw: str, title: str = "A Title") -> CitationResult:
    verdict = Verdict.model_validate({"class": cls, "code": code, "codes": [code], "rationale": f"{code}: why"})
    return CitationResult(id=cid, reference=Reference(raw=raw, title=title), verdict=verdict)


def test_the_reference_key_survives_spelling_not_another_reference() -> None:
    a = Reference(raw="[3] K. He, X. Zhang. Deep Residual Learning. In CVPR, 2016.")
    b = Reference(raw="[3]  k. he,  x. zhang — deep   residual learning. in cvpr 2016")
    c = Reference(raw="[3] K. He, X. Zhang. Deep Residual Learning. In CVPR, 2017.")
    assert reference_key(a) == reference_key(b) != reference_key(c)
    accents = Reference(raw="J. Schmidhuber and J. Müller. LSTM.")
    assert reference_key(accents) == reference_key(Reference(raw="J. Schmidhuber and J. Muller. LSTM."))
    fields = Reference(title="Deep Residual Learning", authors=[Person(given="Kaiming", family="He")], year=2016)
    assert len(reference_key(fields)) == 16


def test_a_confirmation_names_its_fabrication() -> None:
    p3 = citation("7", "Potential", "P3", "x")
    with pytest.raises(DecisionError, match="say which fabrication"):
        make_call("p.pdf", "", p3, "confirmed")
    with pytest.raises(DecisionError, match="not a Hallucinated code"):
        make_call("p.pdf", "", p3, "confirmed", code="P1")
    with pytest.raises(DecisionError, match="unknown action"):
        make_call("p.pdf", "", p3, "accepted")
    h3 = citation("8", "Hallucinated", "H3", "y")
    assert make_call("p.pdf", "", h3, "confirmed").code == "H3"
    assert make_call("p.pdf", "", p3, "confirmed", code="h4").code == "H4"
    long = make_call("p.pdf", "", p3, "dismissed", reason="x" * 5000 + "\n\nend")
    assert len(long.reason) == 500 and "\n" not in long.reason


def test_a_confirmed_fabrication_stays_hallucinated_and_a_dismissed_one_keeps_its_verdict() -> None:
    p3 = citation("7", "Potential", "P3", "x")
    call = make_call("p.pdf", "", p3, "confirmed", reason="year invented", by="Ana", code="H4")
    real_next_run = citation("7", "Real", "R2", "x")  # a later run that finds nothing wrong
    now = decided(real_next_run, call)
    assert (now.verdict.class_, now.verdict.code, now.verdict.codes) == ("Hallucinated", "H4", ["H4"])
    assert now.verdict.rationale.startswith("H4: confirmed by Ana (year invented)")
    assert "This run found Real R2: R2: why" in now.verdict.rationale
    assert now.decision is not None and now.decision.judged == "Real R2" and now.decision.action == "confirmed"
    h1 = citation("9", "Hallucinated", "H1", "z")
    assert decided(h1, make_call("p.pdf", "", h1, "confirmed")).verdict == h1.verdict  # the run's own H kept
    dismissed = decided(h1, make_call("p.pdf", "", h1, "dismissed", reason="known book"))
    assert dismissed.verdict == h1.verdict and dismissed.decision is not None
    assert dismissed.to_json_dict()["decision"]["reason"] == "known book"
    assert "decision" not in h1.to_json_dict()  # the contract's CITATION unchanged without a call


def test_the_book_keeps_the_latest_call_and_survives_damage(tmp_path: Path) -> None:
    book = DecisionBook(tmp_path)
    a, b = citation("1", "Hallucinated", "H1", "ref one"), citation("2", "Potential", "P3", "ref two")
    book.record([make_call("p.pdf", "k1", a, "dismissed", reason="checked")])
    with book.path.open("a", encoding="utf-8") as fh:
        fh.write('{"not": "a call"}\n{"paper": "p.pdf", "ref": "cut sho')  # a hand edit, then a killed writer
    book.record([make_call("p.pdf", "k1", b, "confirmed", code="H2")])
    calls = book.calls()
    assert [c.action for c in calls] == ["dismissed", "confirmed"]
    assert len(book.skipped) == 2 and "line 2" in book.skipped[0]
    report = Report(version="t", input="p.pdf", citations=[a, b])
    applied = book.current().apply(report, "p.pdf", "k1")
    assert [c.decision.action if c.decision else None for c in applied.citations] == ["dismissed", "confirmed"]
    assert applied.citations[1].verdict.class_ == "Hallucinated"
    book.record([make_call("p.pdf", "k1", a, "cleared")])
    again = book.current().apply(report, "p.pdf", "k1")
    assert again.citations[0].decision is None and len(book.current().in_force()) == 1
    # the same file under another name (the content key) and a file of the same name changed elsewhere
    assert book.current().apply(report, "renamed.pdf", "k1").citations[1].decision is not None
    assert book.current().apply(report, "p.pdf", "other").citations[1].decision is not None
    assert book.current().apply(report, "q.pdf", "k2").citations[1].decision is None


def _writer(folder: str, n: int, k: int) -> None:
    book = DecisionBook(Path(folder))
    for i in range(k):
        c = citation(f"{n}-{i}", "Hallucinated", "H1", f"reference {n} {i}")
        book.record([make_call(f"paper{n}.pdf", "", c, "dismissed", reason=f"writer {n}")])


def test_concurrent_writers_never_lose_a_call(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    writers = [ctx.Process(target=_writer, args=(str(tmp_path), n, 40)) for n in range(6)]
    for w in writers:
        w.start()
    for w in writers:
        w.join(60)
        assert w.exitcode == 0
    book = DecisionBook(tmp_path)
    calls = book.calls()
    assert len(calls) == 240 and not book.skipped
    assert len(Decisions(calls).in_force()) == 240
    assert sorted({c.reason for c in calls}) == [f"writer {n}" for n in range(6)]


# ---------------------------------------------------------------- a chair's session through the CLI


@pytest.fixture
def scanned(tmp_path: Path) -> Path:
    assert run_cli(tmp_path, "mirror", "add", str(EXAMPLES / "records.jsonl"), "--source", "example").returncode == 0
    papers = tmp_path / "in"
    papers.mkdir()
    (papers / "a.bib").write_text((EXAMPLES / "references.bib").read_text(encoding="utf-8"), encoding="utf-8")
    proc = run_cli(tmp_path, "scan", str(papers), "-o", str(tmp_path / "out"), "--offline", "--workers", "1")
    assert proc.returncode == 1, proc.stderr
    return tmp_path / "out"


def test_review_lists_dismisses_confirms_and_the_next_scan_keeps_the_calls(scanned: Path) -> None:
    home = scanned.parent
    listed = run_cli(home, "review", str(scanned))
    assert listed.returncode == 0, listed.stderr
    assert "a:goodfellow2014gan  Hallucinated H4" in listed.stdout and "a:pytorch  Potential P2" in listed.stdout
    assert "a:vaswani2017attention" not in listed.stdout  # Real: nothing to review
    assert "8 citations to review" in listed.stdout

    dismiss = run_cli(
        home, "review", str(scanned), "--dismiss", "a:goodfellow2014gan", "a:pytorch", "--reason", "checked by hand",
        "--by", "Ana",
    )  # fmt: skip
    assert dismiss.returncode == 0, dismiss.stderr
    assert "a:goodfellow2014gan: Hallucinated H4 · Dismissed by the chair (Ana, " in dismiss.stdout
    assert "reports updated: " in dismiss.stdout and "(2 dismissed by the chair)" in dismiss.stdout

    no_code = run_cli(home, "review", str(scanned), "--confirm", "a:hochreiter1998lstm")
    assert no_code.returncode == 2 and "is Potential P3: say which fabrication it is" in no_code.stderr
    confirm = run_cli(
        home, "review", str(scanned), "--confirm", "a:hochreiter1998lstm", "--code", "H4", "--reason", "year",
        "--by", "Ben",
    )  # fmt: skip
    assert confirm.returncode == 0 and "Hallucinated H4 · Confirmed by the chair (Ben, " in confirm.stdout
    unknown = run_cli(home, "review", str(scanned), "--dismiss", "a:nosuchkey", "zz:1")
    assert unknown.returncode == 2 and "has no citation 'nosuchkey'" in unknown.stderr

    _assert_reports_show_the_calls(scanned)

    rescan = run_cli(home, "scan", str(home / "in"), "-o", str(scanned), "--offline", "--workers", "1", "--restart")
    assert rescan.returncode == 1, rescan.stderr
    assert "(2 dismissed and 1 confirmed by the chair)" in rescan.stderr
    _assert_reports_show_the_calls(scanned)  # the papers checked again, the calls applied again

    listed = run_cli(home, "review", str(scanned), "--format", "json")
    rows = {r["handle"]: r for r in json.loads(listed.stdout)["citations"]}
    assert rows["a:hochreiter1998lstm"]["class"] == "Hallucinated" and rows["a:pytorch"]["decision"] == "dismissed"
    as_csv = run_cli(home, "review", str(scanned), "--format", "csv", "-o", str(home / "list.csv"))
    assert as_csv.returncode == 0 and len(read_both(home / "list.csv")) == len(rows)


def _assert_reports_show_the_calls(out: Path) -> None:
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'id="decided">2 dismissed and 1 confirmed by the chair<' in index
    assert "Dismissed by the chair (Ana, " in index and "Confirmed by the chair (Ben, " in index
    assert index.count('data-decision="dismissed"') == 2 and index.count('data-decision="confirmed"') == 1
    citations = {r["id"]: r for r in read_both(out / "citations.csv", CITATION_COLUMNS)}
    assert citations["goodfellow2014gan"]["decision"] == "dismissed"
    assert citations["goodfellow2014gan"]["decision_reason"] == "checked by hand"
    assert citations["goodfellow2014gan"]["class"] == "Hallucinated"  # a dismissal keeps the run's verdict
    assert (citations["hochreiter1998lstm"]["class"], citations["hochreiter1998lstm"]["code"]) == ("Hallucinated", "H4")
    (paper,) = read_both(out / "summary.csv", PAPER_COLUMNS)
    assert (paper["dismissed"], paper["confirmed"]) == ("2", "1")
    exported = read_both(out / "decisions.csv", EXPORT_COLUMNS)
    assert [(r["id"], r["action"], r["judged_then"], r["class_now"]) for r in exported] == [
        ("goodfellow2014gan", "dismissed", "Hallucinated H4", "Hallucinated"),
        ("pytorch", "dismissed", "Potential P2", "Potential"),
        ("hochreiter1998lstm", "confirmed", "Potential P3", "Hallucinated"),
    ]
    assert json.loads((out / "decisions.json").read_text(encoding="utf-8"))["decisions"] == exported
    sarif = json.loads((out / "results.sarif").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(SCHEMA).validate(sarif)
    results = {r["message"]["text"].split(":")[0]: r for r in sarif["runs"][0]["results"]}
    gan = results["goodfellow2014gan"]
    day = gan["properties"]["decision"]["at"][:10]
    assert gan["suppressions"] == [
        {"kind": "external", "justification": f"dismissed by the chair (Ana, {day}): checked by hand"}
    ]
    assert "suppressions" not in results["hochreiter1998lstm"] and results["hochreiter1998lstm"]["level"] == "error"
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "2 dismissed and 1 confirmed by the chair." in summary
    assert "Dismissed by the chair (Ana, " in summary  # the H row says so


def test_dismissing_every_accusation_clears_the_exit_code_and_a_confirmation_sets_it(scanned: Path) -> None:
    home = scanned.parent
    listed = json.loads(run_cli(home, "review", str(scanned), "--format", "json").stdout)["citations"]
    accused = [r["handle"] for r in listed if r["class"] == "Hallucinated"]
    assert len(accused) == 6
    assert run_cli(home, "review", str(scanned), "--dismiss", *accused, "--reason", "fine").returncode == 0
    rescan = run_cli(home, "scan", str(home / "in"), "-o", str(scanned), "--offline", "--workers", "1")
    assert rescan.returncode == 0, rescan.stderr
    assert "0 papers with Hallucinated citations (6 dismissed by the chair)" in rescan.stderr
    assert run_cli(home, "review", str(scanned), "--confirm", "a:pytorch", "--code", "H1").returncode == 0
    rescan = run_cli(home, "scan", str(home / "in"), "-o", str(scanned), "--offline", "--workers", "1")
    assert rescan.returncode == 1 and "1 papers with Hallucinated citations" in rescan.stderr


def test_the_progress_of_a_rescan_says_its_count_is_before_the_chairs_calls(scanned: Path) -> None:
    """The progress lines count papers with H as checked; the summary applies the calls. Once a folder holds
    calls, the progress says which count it gives, so the two lines do not seem to disagree."""
    home = scanned.parent
    assert run_cli(home, "review", str(scanned), "--dismiss", "a:goodfellow2014gan", "--reason", "ok").returncode == 0
    rescan = run_cli(home, "scan", str(home / "in"), "-o", str(scanned), "--offline", "--workers", "1", "--restart")
    progress = [line for line in rescan.stderr.splitlines() if line.startswith("scan: ") and "/" in line]
    assert progress and all("with Hallucinated citations as checked, before the chair's calls" in x for x in progress)
    assert "(1 dismissed by the chair)" in rescan.stderr


def test_a_folder_that_is_not_a_scan_is_a_clear_error(tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "review", str(tmp_path))
    assert proc.returncode == 2 and "is not a scan's report folder" in proc.stderr
