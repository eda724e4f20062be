"""A chair sees a paper's citations in reading order (issue 39): Hallucinated, then P3 (a real work cited with
conflicts, such as a partial author list), then P2, P1 and Real, input order kept within each; the data formats
(JSON, JSONL, SARIF, the CSV of every citation) keep the input order."""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

from citetracer.cli.reports import write_reports
from citetracer.records import CitationResult, Reference, Report, Verdict
from citetracer.report.held import HeldText
from citetracer.report.html_report import HtmlReport
from citetracer.report.render import print_table, write_markdown
from citetracer.report.review import MAX_CITATION_ROWS, ReviewSummary
from citetracer.report.sarif import SarifWriter
from citetracer.report.stream import CsvStream, HtmlStream, JsonlStream, JsonStream
from citetracer.report.views import in_reading_order, paper_counts, reading_rank
from citetracer.scan.journal import Entry
from citetracer.scan.outputs import write_outputs
from tests.report.test_sarif import SCHEMA

#: Input order: every class interleaved, two of each Potential code, so a stable order is visible.
CODES = ["R1", "P1", "P2", "H3", "P3", "R2", "P1", "P3", "H1", "P2"]
#: The ids in reading order: H (c3, c8), P3 (c4, c7), P2 (c2, c9), P1 (c1, c6), Real (c0, c5).
READING = ["c3", "c8", "c4", "c7", "c2", "c9", "c1", "c6", "c0", "c5"]
FLAGGED = ["c3", "c8", "c4", "c7", "c2", "c9"]
INPUT = [f"c{i}" for i in range(len(CODES))]


def result(i: int, code: str) -> CitationResult:
    cls = {"R": "Real", "P": "Potential", "H": "Hallucinated"}[code[0]]
    return CitationResult(
        id=f"c{i}",
        reference=Reference(title=f"Work number {i}", year=2020, label=f"c{i}"),
        verdict=Verdict.model_validate({"class": cls, "code": code, "codes": [code], "rationale": f"{code}: why {i}"}),
    )


def report(name: str = "paper.bib") -> Report:
    return Report(version="t", input=name, citations=[result(i, code) for i, code in enumerate(CODES)])


def ids_in(text: str, pattern: str = r"\bc\d+\b") -> list[str]:
    """The citation ids in the order the text names them, each once."""
    seen: list[str] = []
    for m in re.findall(pattern, text):
        if m not in seen:
            seen.append(m)
    return seen


def csv_ids(text: str) -> list[str]:
    rows = list(csv.DictReader(line for line in text.splitlines() if not line.startswith("# ")))
    return [r["id"] for r in rows]


def test_reading_order_is_h_then_p3_p2_p1_then_real_and_stable() -> None:
    ordered = in_reading_order(report().citations)
    assert [c.id for c in ordered] == READING
    assert [reading_rank(c) for c in ordered] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]


def test_the_terminal_table_lists_p3_first_among_potential() -> None:
    for show, want in (("all", READING), ("flagged", FLAGGED), ("hallucinated", ["c3", "c8"])):
        console = Console(file=io.StringIO(), width=200, markup=False, color_system=None)
        print_table(report(), console, show=show)
        text = console.file.getvalue()  # type: ignore[attr-defined]
        assert ids_in(text.split("citations:")[0]) == want, show


def test_markdown_rows_come_h_then_p3_in_each_view() -> None:
    for show, want in ((None, ["c3", "c8", "c4", "c7"]), ("flagged", FLAGGED), ("all", READING)):
        out = io.StringIO()
        write_markdown(report(), out, show)
        rows = [line for line in out.getvalue().splitlines() if line.startswith("| c")]
        assert [r.split(" | ")[0].lstrip("| ") for r in rows] == want, show


def test_markdown_rows_held_on_disk_keep_the_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past HeldText.LIMIT the rows wait in temporary files, one per rank: the order must not depend on it."""
    monkeypatch.setattr(HeldText, "LIMIT", 10)
    out = io.StringIO()
    write_markdown(report(), out, "all")
    rows = [line for line in out.getvalue().splitlines() if line.startswith("| c")]
    assert [r.split(" | ")[0].lstrip("| ") for r in rows] == READING


def html_card_ids(page: str) -> list[str]:
    return re.findall(r'<span class="cid">\[(c\d+)\]</span>', page)


def test_html_cards_come_in_reading_order_per_paper() -> None:
    out = io.StringIO()
    html = HtmlReport(out)
    html.begin()
    for name in ("a.bib", "b.bib"):
        r = report(name)
        html.begin_paper(name)
        for c in r.citations:
            html.citation(c)
        html.end_paper(paper_counts(r))
    html.end()
    assert html_card_ids(out.getvalue()) == READING + READING  # each paper's cards, not mixed across papers


def test_html_streamed_and_flagged_keep_the_order() -> None:
    out = io.StringIO()
    stream = HtmlStream(out, "t", HtmlReport(out, show="flagged"))
    stream.begin("paper.bib")
    for c in report().citations:
        stream.citation(c)
    stream.end([])
    stream.close()
    assert html_card_ids(out.getvalue()) == FLAGGED


def streamed(writer: JsonlStream, papers: tuple[str, ...] = ("a.bib",)) -> str:
    for name in papers:
        writer.begin(name)
        for c in report(name).citations:
            writer.citation(c)
        writer.end([])
    writer.close()
    return writer.out.getvalue()  # type: ignore[attr-defined]


def test_streamed_csv_of_every_citation_keeps_input_order() -> None:
    assert csv_ids(streamed(CsvStream(io.StringIO(), "t", "all"))) == INPUT


def test_streamed_csv_of_flagged_lists_h_p3_p2_paper_by_paper() -> None:
    text = streamed(CsvStream(io.StringIO(), "t", "flagged"), ("a.bib", "b.bib"))
    assert text.startswith("file,id,class,")  # plain CSV: the header row first (issue 44)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["file"], r["id"]) for r in rows] == [("a.bib", i) for i in FLAGGED] + [("b.bib", i) for i in FLAGGED]
    assert [r["code"] for r in rows[:6]] == ["H3", "H1", "P3", "P3", "P2", "P2"]


def test_json_and_jsonl_keep_input_order() -> None:
    lines = streamed(JsonlStream(io.StringIO(), "t")).splitlines()
    assert [json.loads(line)["id"] for line in lines] == INPUT
    doc = json.loads(streamed(JsonStream(io.StringIO(), "t", many=False)))
    assert [c["id"] for c in doc["citations"]] == INPUT


def whole(fmt: str, show: str | None) -> str:
    """`check`'s reports from whole reports (the path `--fix` takes)."""
    out = io.StringIO()
    args = argparse.Namespace(format=fmt, show=show, output=None, verbose=False, files=["paper.bib"])
    write_reports([report()], args, out, "")
    return out.getvalue()


def test_check_csv_from_whole_reports_orders_only_the_flagged_list() -> None:
    assert csv_ids(whole("csv", "flagged")) == FLAGGED
    assert csv_ids(whole("csv", None)) == INPUT
    assert html_card_ids(whole("html", None)) == READING


def test_sarif_keeps_input_order_and_ranks_p3_above_the_other_warnings() -> None:
    out = io.StringIO()
    sarif = SarifWriter(out)
    sarif.begin()
    for c in report().citations:
        sarif.add("paper.bib", c)
    sarif.end()
    doc = json.loads(out.getvalue())
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    results = doc["runs"][0]["results"]
    assert [r["message"]["text"].split(":")[0] for r in results] == [i for i in INPUT if i not in ("c0", "c5")]
    rank = {r["ruleId"]: r["rank"] for r in results}
    assert rank == {"H1": 100.0, "H3": 100.0, "P3": 75.0, "P2": 50.0, "P1": 25.0}
    rules = {r["id"]: r["defaultConfiguration"]["rank"] for r in doc["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["H4"] == 100.0 and rules["P3"] > rules["P2"] > rules["P1"]


def test_the_review_comment_never_drops_an_h_behind_earlier_p3_rows() -> None:
    """A paper's P3 rows filled the comment's 60 rows before its H at the end of the list was seen."""
    many = [result(i, "P3") for i in range(MAX_CITATION_ROWS + 5)] + [result(999, "H2")]
    review = ReviewSummary()
    review.paper(paper_counts(Report(version="t", input="p.pdf", citations=many)), many)
    out = io.StringIO()
    review.write(out)
    rows = [line for line in out.getvalue().splitlines() if line.startswith("| p.pdf | c")]
    assert len(rows) == MAX_CITATION_ROWS
    assert [r.split(" | ")[1] for r in rows[:3]] == ["c999", "c0", "c1"]
    assert "… and 6 more in index.html." in out.getvalue()


def test_scan_reports_list_p3_first_among_potential(tmp_path: Path) -> None:
    r = report("paper.bib")
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "paper.json").write_text(json.dumps(r.to_json_dict()), encoding="utf-8")
    s = r.summary()
    entry = Entry(
        key="k",
        file="paper.bib",
        path=str(tmp_path / "paper.bib"),
        name="paper",
        status="done",
        references=s["total"],
        real=s["real"],
        potential=s["potential"],
        hallucinated=s["hallucinated"],
        codes={c.verdict.code: 1 for c in r.citations if c.verdict.class_ != "Real"},
    )
    write_outputs(tmp_path, [entry], show="flagged")
    assert csv_ids((tmp_path / "citations.csv").read_text()) == FLAGGED
    assert html_card_ids((tmp_path / "index.html").read_text()) == FLAGGED
    md = (tmp_path / "summary.md").read_text()
    assert [line.split(" | ")[1] for line in md.splitlines() if line.startswith("| paper.bib | c")] == [
        "c3",
        "c8",
        "c4",
        "c7",
    ]
    write_outputs(tmp_path, [entry], show="all")
    assert csv_ids((tmp_path / "citations.csv").read_text()) == INPUT  # every citation: data, input order
    assert html_card_ids((tmp_path / "index.html").read_text()) == READING
