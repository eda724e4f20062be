"""`citetracer check FILE ...`: every input read and checked by the pipeline (`Checker.read`, `Checker.check`),
in one loop whatever the format; reports.py writes them (citation by citation, or the table at the end).

Part of the CLI front end: no pipeline logic here, only the flags, the terminal's messages and the exit code.
"""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from rich.console import Console

from citetracer.cli.common import (
    EXIT_CODES,
    EXIT_HALLUCINATED,
    EXIT_OK,
    EXIT_USAGE,
    FORMATTER,
    add_ref_pages,
    check_settings,
    say_reading,
    say_store_note,
    say_store_warnings,
)
from citetracer.cli.progress import CheckProgress
from citetracer.cli.reports import FORMATS, STREAMED, StreamedReports, WholeReports
from citetracer.collect.paperfetch import looks_like_paper_id
from citetracer.extract import InputError
from citetracer.pipeline import Checker

SORTS = ("attention", "id")


def add_parser(sub: Any, common: argparse.ArgumentParser, checking: argparse.ArgumentParser) -> None:
    """The `check` command's arguments (`checking`: the flags that choose how citations are checked)."""
    check = sub.add_parser(
        "check",
        parents=[common, checking],
        help="verify every citation of one or more files",
        description="Verify every citation of one or more files (PDF, .bib, .bbl, .tex, text, JSONL, and "
        "reference managers' RIS and CSL-JSON exports).",
        epilog=EXIT_CODES,
        formatter_class=FORMATTER,
    )
    check.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="papers or bibliographies to check; or a paper to fetch (online): arXiv:ID, doi:10.x/y, or the URL "
        "of its arXiv, OpenReview, ACL Anthology or doi.org page",
    )
    check.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="report format: table (terminal), json, jsonl, markdown (review comment), html (self-contained "
        "page), csv (one row per citation), sarif (code scanning; .bib/.tex entries with their line)",
    )
    check.add_argument("-o", "--output", type=Path, metavar="OUT", help="write the report here instead of stdout")
    check.add_argument(
        "--fix",
        type=Path,
        metavar="OUT.bib",
        help="also write the BibTeX inputs corrected from the records that proved them Real (keys kept; "
        "Potential and Hallucinated entries kept and marked with a comment); RIS and CSL-JSON inputs are "
        "written back in their own format (a note on each record instead of a comment)",
    )
    check.add_argument(
        "--sort",
        choices=SORTS,
        default=None,
        help="the order of the table, markdown, html and csv: attention (Hallucinated, then Potential by code: "
        "P3, P2, P1, then Real) or id (as the paper has them); default: attention for the table, markdown and "
        "html, id for csv (attention with --show flagged). JSON, JSONL and SARIF keep the paper's order",
    )
    check.add_argument("-v", "--verbose", action="store_true", help="full rationale per citation")
    add_ref_pages(check)
    check.set_defaults(handler=cmd_check)


def cmd_check(args: argparse.Namespace, err: Console) -> int:
    settings = check_settings(args)
    if settings.llm.base_url and not settings.llm.model:
        err.print("warning: an LLM endpoint is set but no model (--llm-model): agents are off", style="yellow")
    if args.output is not None and not args.output.parent.is_dir():  # say so now, not after all the work
        err.print(f"error: {args.output}: no such directory {args.output.parent}", style="red", highlight=False)
        return EXIT_USAGE
    checker = Checker(settings)
    try:
        with ExitStack() as stack:
            reports = (
                StreamedReports(args, settings, stack) if args.format in STREAMED else WholeReports(args, settings)
            )
            with CheckProgress(err, enabled=_any_pdf(args.files)) as progress:
                read_any, listed_any = _check_inputs(args, checker, reports, progress)
            reports.close(read_any, err)
    finally:
        checker.close()
    if not read_any:
        return EXIT_USAGE
    reports.write(err)
    if not listed_any:  # only PDFs without a reference list: nothing was checked, as for an unreadable input
        return EXIT_USAGE
    if args.exit_zero:
        return EXIT_OK
    return EXIT_HALLUCINATED if reports.hallucinated else EXIT_OK


def _check_inputs(
    args: argparse.Namespace, checker: Checker, reports: StreamedReports | WholeReports, progress: CheckProgress
) -> tuple[bool, bool]:
    """Read and check each input in turn, its problems and warnings said as they come; whether any was read, and
    whether any had references. An input that cannot be read is one line, and the others are still checked; a PDF
    in which no reference list was found is read (its reports say so) but has nothing to check."""
    read_any = listed_any = False
    said: set[str] = set()
    # A table printed here says the store's warnings under itself: said before it too, they came twice.
    table_here = args.format == "table" and args.output is None
    for given in args.files:
        progress.reading(Path(given))
        try:
            paper = checker.read(given, args.ref_pages)
        except InputError as exc:
            progress.console.print(f"error: {exc}", style="red", highlight=False)
            continue
        if not table_here:
            say_store_note(checker, progress.console, said)
        for warning in paper.warnings:
            progress.console.print(f"warning: {warning}", style="yellow", highlight=False)
        say_reading(paper, progress.console)
        read_any = True
        listed_any = listed_any or bool(paper.references)
        progress.checking(len(paper.references))
        reports.begin(paper)
        report = checker.check(paper, on_done=progress.citation_done, on_result=reports.on_result)
        reports.end(paper, report, progress.console, said)
        if not table_here:
            say_store_warnings(report.store_warnings, progress.console, said)
        progress.paper_done()
    return read_any, listed_any


def _any_pdf(inputs: list[str]) -> bool:
    """Whether a progress bar is worth it: a PDF, or a paper fetched by its identifier (a PDF too)."""
    return any(x.lower().endswith(".pdf") or looks_like_paper_id(x) for x in inputs)
