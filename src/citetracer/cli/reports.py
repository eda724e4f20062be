"""`citetracer check`'s reports: the formats, and the two ways a check hands its citations to them.

`StreamedReports` (every format but the terminal table) writes each citation as it is judged and keeps
none (report/stream.py), so memory stays that of the citations in flight however many there are; `--fix`
keeps what the corrected BibTeX needs of each in a scratch file, not in memory. `WholeReports` (the terminal
table, read by a person on a screen) keeps whole reports and writes them at the end. Both take the same
calls from check.py's one loop over the inputs.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from rich.console import Console

from citetracer.cli.common import context, open_out
from citetracer.config import Settings
from citetracer.pipeline import Paper
from citetracer.records import CitationResult, Report
from citetracer.report.bibfix import BibFixer
from citetracer.report.csv_report import CitationCsv
from citetracer.report.html_report import HtmlReport
from citetracer.report.managedfix import ManagedFixer, managed_format
from citetracer.report.render import MarkdownReport, print_table, write_json, write_jsonl
from citetracer.report.sarif import SarifWriter
from citetracer.report.sources import bib_sources
from citetracer.report.stream import (
    CsvStream,
    FixCollector,
    HtmlStream,
    JsonlStream,
    JsonStream,
    MarkdownStream,
    SarifStream,
)
from citetracer.report.views import in_reading_order, paper_counts, visible
from citetracer.version import __version__

FORMATS = ["table", "json", "jsonl", "markdown", "html", "csv", "sarif"]
#: Formats written citation by citation as judged (report/stream.py); the terminal table takes whole reports.
STREAMED = ("json", "jsonl", "csv", "sarif", "html", "markdown")
#: Each format's name in the line `check -o FILE` ends with ("... ; HTML report written to FILE").
FORMAT_NAMES = {"table": "table", "json": "JSON", "jsonl": "JSONL", "markdown": "Markdown", "html": "HTML",
                "csv": "CSV", "sarif": "SARIF"}  # fmt: skip
COUNTS = ("total", "real", "potential", "hallucinated")


class WholeReports:
    """The terminal table: each input's whole report kept, all written once every input is checked."""

    #: No citation is handed over one by one: the reports come back whole.
    on_result: Callable[[CitationResult], None] | None = None

    def __init__(self, args: argparse.Namespace, settings: Settings) -> None:
        self.args, self.settings = args, settings
        self.reports: list[Report] = []

    def begin(self, paper: Paper) -> None:
        """An input read, about to be checked."""

    def end(self, paper: Paper, report: Report, console: Console, said: set[str]) -> None:
        """An input checked: its report (the table shows its warnings)."""
        self.reports.append(report)

    def close(self, read_any: bool, err: Console) -> None:
        """Every input checked (nothing is written before the store is closed)."""

    def write(self, err: Console) -> None:
        """The tables (or the file `-o`), the counts line when written to a file, the `--fix` output."""
        args = self.args
        with ExitStack() as stack:
            write_reports(self.reports, args, open_out(stack, args.output), context(self.settings))
        if args.output is not None:
            say_written({k: sum(r.summary()[k] for r in self.reports) for k in COUNTS}, args, err)
        if args.fix is not None:
            write_fixed_bibtex(self.reports, args.fix, err)

    @property
    def hallucinated(self) -> bool:
        return any(r.has_hallucinated for r in self.reports)


class StreamedReports:
    """A STREAMED format: each citation written as it is judged, none kept; `--fix` from a scratch file.
    The output (and the scratch file) live and go with `stack`."""

    def __init__(self, args: argparse.Namespace, settings: Settings, stack: ExitStack) -> None:
        self.args = args
        self.writer = stream_writer(args, settings, open_out(stack, args.output))
        self.fixes = _fix_collector(stack) if args.fix is not None else None
        self.on_result: Callable[[CitationResult], None] = self.writer.citation
        if self.fixes is not None:
            self.on_result = _both(self.writer.citation, self.fixes.citation)

    def begin(self, paper: Paper) -> None:
        self.writer.begin(paper.name, paper.warnings, paper.read.reading())
        if self.fixes is not None:
            self.fixes.begin(paper.name)

    def end(self, paper: Paper, report: Report, console: Console, said: set[str]) -> None:
        """An input checked: its warnings and the store's to the document; the run's own notes (the store
        busy, no network) said on the terminal too, as the document may be in a file."""
        self.writer.end(report.warnings, report.store_warnings, reading=report.reading)
        for note in [w for w in report.warnings if w not in paper.warnings and w not in said]:
            console.print(f"warning: {note}", style="yellow", highlight=False)

    def close(self, read_any: bool, err: Console) -> None:
        """The document's end; the corrected BibTeX when an input was read."""
        self.writer.close()
        if self.fixes is not None and read_any:
            _write_fixes(self.fixes, self.args.fix, err)

    def write(self, err: Console) -> None:
        """The counts line when the document went to a file (it is written already)."""
        if self.args.output is not None:
            say_written({k: self.writer.totals[k] for k in COUNTS}, self.args, err)

    @property
    def hallucinated(self) -> bool:
        return self.writer.hallucinated


def say_written(totals: dict[str, int], args: argparse.Namespace, err: Console) -> None:
    """`check -o FILE`: the one line a terminal gets (the report went to the file): the counts and where."""
    err.print(
        f"{totals['total']} citations: {totals['real']} Real, {totals['potential']} Potential, "
        f"{totals['hallucinated']} Hallucinated; {FORMAT_NAMES[args.format]} report written to {args.output}",
        highlight=False,
    )


def stream_writer(args: argparse.Namespace, settings: Settings, out: IO[str]) -> JsonlStream:
    """The report/stream.py writer of `args.format`."""
    if args.format == "json":
        return JsonStream(out, __version__, len(args.files) > 1)
    if args.format == "csv":
        return CsvStream(out, __version__, args.show or "all", args.sort)
    if args.format == "sarif":
        return SarifStream(out, __version__)
    if args.format == "html":
        return HtmlStream(out, __version__, _html_report(args, out, [str(p) for p in args.files], context(settings)))
    if args.format == "markdown":
        return MarkdownStream(out, __version__, args.show, args.sort or "attention")
    return JsonlStream(out, __version__)


def _html_report(args: argparse.Namespace, out: IO[str], inputs: list[str], context: str) -> HtmlReport:
    """The HTML report of `check` for `inputs` (streamed or from whole reports alike)."""
    return HtmlReport(
        out,
        title=f"citetracer: {inputs[0]}" if len(inputs) == 1 else f"citetracer: {len(inputs)} inputs",
        context=context,
        report_dir=args.output.parent if args.output else None,
        show=args.show or "all",
        sort=getattr(args, "sort", None) or "attention",
    )


def _fix_collector(stack: ExitStack) -> FixCollector:
    """A FixCollector whose scratch file lives (and goes) with `stack`."""
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="citetracer-fix-")))
    fixes = FixCollector(folder / "fixes.sqlite")
    stack.callback(fixes.close)
    return fixes


def _both(first: Callable[[CitationResult], None], second: Callable[[CitationResult], None]) -> Callable[..., None]:
    def call(c: CitationResult) -> None:
        first(c)
        second(c)

    return call


def _write_fixes(fixes: FixCollector, target: Path, err: Console) -> None:
    """`--fix`: the corrected BibTeX (or RIS / CSL-JSON) written whole or not at all, or a warning when no
    input is any of them."""
    if fixes.managed_kinds:
        write_managed_fix(fixes.managed, fixes.managed_kinds, target, err)
        return
    if not fixes.sources:
        err.print(
            "warning: --fix applies to BibTeX inputs (.bib, or a .tex naming .bib files); nothing written",
            style="yellow",
        )
        return
    with ExitStack() as stack:
        fixes.write(open_out(stack, target))
    err.print(f"corrected BibTeX written to {target}", style="dim", highlight=False)


def _local_pdf(name: str) -> Path | None:
    """The PDF file a report's input names, to link to (None for other inputs and for papers fetched by URL)."""
    path = Path(name)
    return path if name.lower().endswith(".pdf") and path.is_file() else None


def write_reports(reports: list[Report], args: argparse.Namespace, out: IO[str], context: str) -> None:
    """The reports of `check` in the chosen format (one document for all inputs)."""
    show = args.show or "all"
    sort = getattr(args, "sort", None)
    if args.format == "json":
        if len(reports) == 1:
            write_json(reports[0], out)
        else:
            json.dump([r.to_json_dict() for r in reports], out, ensure_ascii=False, indent=2)
            out.write("\n")
    elif args.format == "jsonl":
        for r in reports:
            write_jsonl(r, out)
    elif args.format == "markdown":
        markdown = MarkdownReport(out, args.show, sort or "attention")  # one document: the store said once
        for r in reports:
            markdown.begin(r.input)
            for c in r.citations:
                markdown.citation(c)
            markdown.end(r.warnings, r.store_warnings, reading=r.reading)
    elif args.format == "html":
        html = _html_report(args, out, [r.input for r in reports], context)
        html.begin()
        for r in reports:
            html.begin_paper(r.input, pdf=_local_pdf(r.input), warnings=r.warnings)
            for c in r.citations:
                html.citation(c)
            html.end_paper(paper_counts(r), store_warnings=r.store_warnings, reading=r.reading)
        html.end()
    elif args.format == "csv":
        rows = CitationCsv(out)
        for r in reports:
            shown = visible(r.citations, show)  # every citation: data in input order; flagged: H, P3, P2 first
            for c in in_reading_order(shown) if sort == "attention" or (sort is None and show == "flagged") else shown:
                rows.add(r.input, c, r.reading)
            if r.reading is not None and r.reading.no_list:
                rows.no_list(r.input, r.reading)
    elif args.format == "sarif":
        sarif = SarifWriter(out)
        sarif.begin()
        for r in reports:
            for c in r.citations:
                sarif.add(r.input, c)
            if r.reading is not None:
                sarif.reading(r.input, r.reading)
            for w in r.warnings:
                sarif.note(w)
            for w in r.store_warnings:
                sarif.store_note(w)
        sarif.end()
    else:
        console = Console(file=out, markup=False) if args.output else Console(markup=False)
        said: set[str] = set()  # the store's warnings, said once under the first table that has them
        for r in reports:
            print_table(r, console, verbose=args.verbose, show=show, sort=sort or "attention", said=said)


def write_fixed_bibtex(reports: list[Report], target: Path, err: Console) -> None:
    if write_fixed_managed(reports, target, err):
        return
    fixer = BibFixer()
    sources: list[Path] = []
    for r in reports:
        for bib in bib_sources(Path(r.input)):
            if bib not in sources:
                sources.append(bib)
        for c in r.citations:
            fixer.add(c)
    if not sources:
        err.print(
            "warning: --fix applies to BibTeX inputs (.bib, or a .tex naming .bib files); nothing written",
            style="yellow",
        )
        return
    with target.open("w", encoding="utf-8") as fh:
        fixer.write(sources, fh)
    err.print(f"corrected BibTeX written to {target}", style="dim", highlight=False)


def write_fixed_managed(reports: list[Report], target: Path, err: Console) -> bool:
    """`--fix` of RIS or CSL-JSON inputs, written back in their own format (report/managedfix.py); False when no
    input is either (BibTeX's turn)."""
    kinds = {Path(r.input): kind for r in reports if (kind := managed_format(Path(r.input)))}
    if not kinds:
        return False
    fixer = ManagedFixer()
    for r in reports:
        if Path(r.input) in kinds:
            for c in r.citations:
                fixer.add(Path(r.input), c)
    write_managed_fix(fixer, kinds, target, err)
    return True


def write_managed_fix(fixer: ManagedFixer, kinds: dict[Path, str], target: Path, err: Console) -> None:
    """The corrected RIS or CSL-JSON of inputs of one kind (`kinds`: each input's), or a warning when they mix."""
    if len(set(kinds.values())) > 1:
        err.print("warning: --fix writes one format: give RIS and CSL-JSON inputs in separate checks; nothing written",
                  style="yellow")  # fmt: skip
        return
    kind = next(iter(kinds.values()))
    with target.open("w", encoding="utf-8") as fh:
        fixer.write(list(kinds), kind, fh)
    name = "RIS" if kind == "ris" else "CSL-JSON"
    err.print(f"corrected {name} written to {target}", style="dim", highlight=False)
