"""The scan's reports, built from the journal and the per-paper JSON files.

Built after the workers finish (and again by every resumed run), one paper at a time,
so their size does not depend on memory: `index.html` (summary and every paper),
`summary.csv` (one row per paper), `citations.csv` (one row per citation), `summary.md`
(a review comment) and `results.sarif` when BibTeX or LaTeX inputs were scanned. Each is
written to a temporary name and renamed, so a killed run leaves the previous one whole.

A chair's decisions (`decisions.jsonl`, report/decisions.py) are applied to every paper's
citations as its report is read, so every report shows and counts them, and are exported
in `decisions.csv` and `decisions.json`; `papers/*.json` stay the run's own verdicts. The
options the reports were built with are kept in `.outputs.json`, for `citetracer review`
to build them again after a decision.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import IO

from citetracer.records import CitationResult, ReadingSummary, Report
from citetracer.report.csv_report import CitationCsv, PaperCsv, cell
from citetracer.report.decisions import EXPORT_COLUMNS, Call, DecisionBook, Decisions, export_row, reference_key
from citetracer.report.html_report import HtmlReport
from citetracer.report.review import ReviewSummary
from citetracer.report.sarif import SarifWriter
from citetracer.report.views import PaperCounts, in_reading_order, is_shown, paper_counts
from citetracer.scan.journal import Entry

SARIF_SUFFIXES = (".bib", ".tex", ".bbl")
#: The options the reports were last built with (show, context, copy_inputs), for a rebuild after a decision.
OPTIONS = ".outputs.json"
#: Where the index's review buttons send decisions, relative to it (`citetracer serve --reports DIR` answers).
REVIEW_URL = "decisions"


def entry_counts(e: Entry) -> PaperCounts:
    """A journal entry's counts in the reports' form."""
    return PaperCounts(
        file=e.file,
        references=e.references,
        real=e.real,
        potential=e.potential,
        hallucinated=e.hallucinated,
        warnings=len(e.warnings),
        codes=Counter(e.codes),
        no_list=e.no_list,
    )


def load_report(path: Path) -> Report:
    """A paper's report read back from its JSON file."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    return Report(
        version=str(doc.get("citetracer", "")),
        input=str(doc.get("input", "")),
        citations=[CitationResult.model_validate(c) for c in doc.get("citations", [])],
        warnings=list(doc.get("warnings", [])),
        store_warnings=list(doc.get("store_warnings", [])),
        reading=ReadingSummary.model_validate(doc["reading"]) if isinstance(doc.get("reading"), dict) else None,
    )


@contextmanager
def replacing(path: Path) -> Iterator[IO[str]]:
    """A file written in full beside `path`, then moved over it: readers never see half a report."""
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        yield fh
    os.replace(tmp, path)


def common_prefix(names: list[str]) -> str:
    """The folder part all names share ('../shared/pdfs/jose/'), or '' for fewer than two names."""
    if len(names) < 2:
        return ""
    # by characters on purpose: names may be archive members ('a.zip:dir/x.pdf'); cut at a '/'
    prefix = os.path.commonprefix(names)  # noqa: RUF071
    return prefix[: prefix.rfind("/") + 1]


def risk_order(entries: list[Entry], counts: dict[str, PaperCounts] | None = None) -> list[Entry]:
    """Checked papers most at risk first, then the PDFs in which no reference list was found (nothing of them was
    checked, but they were read), then those that could not be checked (`counts`: a paper's counts after the
    chair's decisions, when it has any)."""
    known = counts or {}
    listed = (e for e in entries if e.status == "done" and not e.no_list)
    checked = sorted(listed, key=lambda e: known.get(e.key, entry_counts(e)).risk_key())
    no_list = [e for e in entries if e.status == "done" and e.no_list]
    return checked + no_list + [e for e in entries if e.status != "done"]


def decided_counts(folder: Path, entries: list[Entry], decisions: Decisions) -> dict[str, PaperCounts]:
    """The counts of each checked paper some decision is about, with the decisions applied (the others keep
    their journal counts: only these few reports are read twice)."""
    out: dict[str, PaperCounts] = {}
    for e in entries:
        if e.status != "done" or not decisions.for_paper(e.file, e.key):
            continue
        try:
            report = decisions.apply(load_report(folder / "papers" / f"{e.name}.json"), e.file, e.key)
        except (OSError, ValueError):
            continue
        counts = paper_counts(report)
        counts.file, counts.warnings = e.file, len(e.warnings)
        out[e.key] = counts
    return out


def linked_pdf(e: Entry, folder: Path, copy: bool) -> Path | None:
    """The PDF a paper's report links to: the input itself, or with `copy` its copy in `folder/inputs/`
    (made once, again when the input changed), so that the report folder can be moved or shared whole."""
    path = Path(e.path)
    if path.suffix.lower() != ".pdf":
        return None
    if not copy or path.resolve().is_relative_to(folder.resolve()) or not path.is_file():
        return path
    target = folder / "inputs" / f"{e.name}.pdf"
    if not target.is_file() or target.stat().st_size != path.stat().st_size:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return target


def write_outputs(
    folder: Path,
    entries: list[Entry],
    *,
    show: str = "all",
    context: str = "",
    copy_inputs: bool = False,
    counts_out: dict[str, PaperCounts] | None = None,
) -> list[Path]:
    """Every report of the scan; returns the files written. `counts_out` is given each decided paper's counts
    (after the chair's decisions), for the scan's own summary and exit code."""
    book = DecisionBook(folder)
    decisions = book.current()
    counts_by_key = decided_counts(folder, entries, decisions)
    if counts_out is not None:
        counts_out.update(counts_by_key)
    ordered = risk_order(entries, counts_by_key)
    pdfs = {e.key: linked_pdf(e, folder, copy_inputs) for e in ordered if e.status == "done"}
    outside = any(p is not None and not p.resolve().is_relative_to(folder.resolve()) for p in pdfs.values())
    notes = (
        [
            "PDF links point to the papers where they were scanned (file:// URLs): they survive moving this folder "
            "on this machine; scan with --copy-inputs to keep copies inside it, to move or share it whole."
        ]
        if outside
        else []
    )
    notes += book.skipped
    names = ["index.html", "summary.csv", "citations.csv", "summary.md"]
    sarif_keys = {e.key for e in ordered if e.status == "done" and Path(e.path).suffix.lower() in SARIF_SUFFIXES}
    if sarif_keys:
        names.append("results.sarif")
    if decisions.calls:
        names += ["decisions.csv", "decisions.json"]
    found: dict[int, CitationResult] = {}  # id(call) -> the citation it applies to in this run
    with ExitStack() as stack:
        outs = {name: stack.enter_context(replacing(folder / name)) for name in names}
        html = HtmlReport(
            outs["index.html"],
            title=f"citetracer scan: {len(entries)} papers",
            context=context,
            report_dir=folder,
            show=show,
            common_prefix=common_prefix([e.file for e in entries]),
            notes=notes,
            review_url=REVIEW_URL,
        )
        papers_csv, citations_csv = PaperCsv(outs["summary.csv"]), CitationCsv(outs["citations.csv"])
        review = ReviewSummary(show=show)
        sarif = SarifWriter(outs["results.sarif"]) if sarif_keys else None
        if sarif:
            sarif.begin()
        html.begin()
        for e in ordered:
            if e.status != "done":
                why = e.error or e.status
                html.unreadable_paper(e.file, why)
                papers_csv.add_unchecked(e.file, why)
                review.unchecked_paper(e.file, why)
                if sarif:
                    sarif.note(f"{e.file}: not checked: {why}", level="error")
                continue
            counts = counts_by_key.get(e.key) or entry_counts(e)
            report_file = folder / "papers" / f"{e.name}.json"
            try:
                report = decisions.apply(load_report(report_file), e.file, e.key)
            except (OSError, ValueError) as exc:
                papers_csv.add(counts, e.warnings)
                html.unreadable_paper(e.file, f"its report {report_file.name} cannot be read ({exc})")
                continue
            if report.reading is not None and report.reading.no_list and not counts.no_list:  # journaled before
                counts = replace(counts, no_list=report.reading.summary)
            papers_csv.add(counts, e.warnings, report.reading)
            for c in report.citations:
                if c.decision is not None and (call := decisions.find(e.file, e.key, reference_key(c.reference))):
                    found.setdefault(id(call), c)
            review.paper(counts, report.citations, report.store_warnings)
            if sarif:
                for w in report.store_warnings:  # the store's, once for the log (a paper's own are its journal's)
                    sarif.store_note(w)
            if not counts.shows(show):
                html.skipped_paper(counts, e.warnings, report.store_warnings)
                continue
            html.begin_paper(e.file, pdf=pdfs.get(e.key), warnings=e.warnings, review_key=e.name)
            for c in report.citations:
                html.citation(c)  # cards written in reading order when the paper ends (H, P3, P2, P1, Real)
                if show != "flagged" and is_shown(c, show):
                    citations_csv.add(e.file, c, report.reading)  # data: input order, as papers/*.json
                if sarif and e.key in sarif_keys:
                    sarif.add(e.path, c)
            if show == "flagged":  # a list to act on: H, then P3, then P2, as `check --format csv --show flagged`
                for c in in_reading_order(x for x in report.citations if is_shown(x, show)):
                    citations_csv.add(e.file, c, report.reading)
            if report.reading is not None and report.reading.no_list:  # its one row, as `check --format csv` has
                citations_csv.no_list(e.file, report.reading)
            html.end_paper(counts, store_warnings=report.store_warnings, reading=report.reading)
        html.end()
        review.write(outs["summary.md"])
        if sarif:
            sarif.end()
        if decisions.calls:
            write_decisions(decisions.in_force(), found, outs["decisions.csv"], outs["decisions.json"])
    options = {"show": show, "context": context, "copy_inputs": copy_inputs}
    (folder / OPTIONS).write_text(json.dumps(options), encoding="utf-8")
    return [folder / name for name in names]


def write_decisions(calls: list[Call], found: dict[int, CitationResult], csv_out: IO[str], json_out: IO[str]) -> None:
    """The decisions in force, exported: `decisions.csv` (plain CSV) and `decisions.json` (a list, same keys)."""
    rows = [export_row(call, found.get(id(call))) for call in calls]
    writer = csv.writer(csv_out, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    for row in rows:
        writer.writerow([cell(row[k]) for k in EXPORT_COLUMNS])
    json.dump({"decisions": rows}, json_out, ensure_ascii=False, indent=2)
    json_out.write("\n")
