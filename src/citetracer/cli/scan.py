"""`citetracer scan PATH ... -o DIR`: many papers checked into one report folder (scan/ does the work).

Part of the CLI front end: the flags, the fetching of remote inputs' papers, the summary line and the exit code.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from citetracer.cli.common import (
    EXIT_CODES,
    EXIT_HALLUCINATED,
    EXIT_OK,
    EXIT_USAGE,
    FORMATTER,
    check_settings,
    context,
    say_store_note,
)
from citetracer.cli.extras import require
from citetracer.cli.progress import ScanProgress
from citetracer.config import Settings
from citetracer.pipeline import Checker
from citetracer.report.decisions import DECISIONS
from citetracer.report.views import plural


def add_parser(sub: Any, common: argparse.ArgumentParser, checking: argparse.ArgumentParser) -> None:
    """The `scan` command's arguments (`checking`: the flags that choose how citations are checked)."""
    scan = sub.add_parser(
        "scan",
        parents=[common, checking],
        help="check many papers (folders, list files, zip/tar archives) into one report folder",
        description="Check many papers into DIR: index.html (summary and every paper), summary.csv, "
        "citations.csv, summary.md, papers/NAME.json (the check JSON of each paper), results.sarif "
        "(BibTeX/LaTeX inputs) and journal.jsonl. A killed scan continues where it stopped when run "
        "again with the same -o DIR.",
        epilog=EXIT_CODES,
        formatter_class=FORMATTER,
    )
    scan.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="a paper, a folder (searched for PDFs, .bib, .bbl and archives), a list file (.list/.lst, or "
        ".txt of paths, one per line), a .zip/.tar[.gz|.bz2|.xz] of papers; or papers to fetch (online) into "
        "DIR/downloads/: openreview:VENUE_ID (a venue's submissions, e.g. openreview:ICLR.cc/2024/Conference) or "
        "a .csv of paper URLs or arXiv:ID / doi:10.x/y (a 'url' column, else the first)",
    )
    scan.add_argument("-o", "--output", type=Path, required=True, metavar="DIR", help="folder for the reports")
    scan.add_argument(
        "--workers", type=int, metavar="N", help="papers checked at once, one process each (default: the cores)"
    )
    scan.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="check the papers on a Dask cluster: a scheduler's tcp://HOST:PORT, or 'local' to start one of "
        "--workers processes here (needs citetracer[cluster]; machines share a --store postgresql://...)",
    )
    scan.add_argument("--restart", action="store_true", help="forget DIR's journal and check every paper again")
    scan.add_argument(
        "--copy-inputs",
        action="store_true",
        help="copy each PDF into DIR/inputs/ and link the copies, so DIR can be moved or shared whole (without it "
        "the report links to the PDFs where they are, by absolute file:// URLs)",
    )
    scan.add_argument(
        "--paper-timeout",
        type=float,
        default=1800.0,
        metavar="SECONDS",
        help="stop a paper that takes longer than this and report it as not checked (default: 1800; 0: no limit)",
    )
    scan.set_defaults(handler=cmd_scan)


def cmd_scan(args: argparse.Namespace, err: Console) -> int:
    from citetracer.scan import ScanError, ScanOptions, run_scan
    from citetracer.scan.journal import JournalError
    from citetracer.scan.pool import PoolError, default_workers

    if args.cluster:  # before the store and the scan's journal are made
        require("cluster", "--cluster")
    settings = check_settings(args)
    if args.workers is not None and args.workers < 1:
        err.print("error: --workers must be at least 1", style="red")
        return EXIT_USAGE
    checker = Checker(settings)  # opens (or creates) the store as the workers will, and says what it lacks
    say_store_note(checker, err, set())
    checker.close()
    paths = _fetched_inputs(args, settings, err)
    if paths is None:
        return EXIT_USAGE
    options = ScanOptions(
        out_dir=args.output,
        workers=args.workers or default_workers(),
        show=args.show or "all",
        copy_inputs=args.copy_inputs,
        restart=args.restart,
        paper_timeout=args.paper_timeout or None,
        cluster=args.cluster,
    )
    try:
        decided = (args.output / DECISIONS).is_file() and (args.output / DECISIONS).stat().st_size > 0
        with ScanProgress(err, decided) as progress:
            outcome = run_scan(paths, settings, options, progress=progress, context=context(settings))
    except (ScanError, JournalError, PoolError) as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return EXIT_USAGE
    for problem in outcome.problems:
        err.print(f"warning: {problem}", style="yellow", highlight=False)
    for e in outcome.unchecked:
        err.print(f"warning: {e.file}: not checked: {e.error}", style="yellow", highlight=False)
    for e in outcome.no_list:
        err.print(f"warning: {e.file}: {e.no_list}: nothing was checked", style="yellow", highlight=False)
    done = [e for e in outcome.entries if e.status == "done"]
    no_list = len(outcome.no_list)
    failed = [e for e in outcome.entries if e.status == "failed"]  # the check failed: store, worker, time
    summary = (
        f"{len(outcome.entries)} papers ({outcome.checked_now} checked now, {outcome.resumed} from the journal"
        + (f", {len(failed)} failed" if failed else "")
        + f"): {sum(e.references for e in done)} references, {outcome.hallucinated_papers} papers with "
        f"Hallucinated citations"
        + (f" ({outcome.decisions})" if outcome.decisions else "")
        + (f", {plural(no_list, 'paper')} with no reference list found" if no_list else "")
        + f"; report: {args.output / 'index.html'}"
    )
    err.print(summary, highlight=False)
    if outcome.interrupted:
        err.print("interrupted: run the same command again to continue", style="red")
        return 130
    if failed:
        err.print(
            f"{len(failed)} of {len(outcome.entries)} papers could not be checked (see the warnings); "
            "run the same command again to check them",
            style="red",
            highlight=False,
        )
    if len(done) == no_list:  # nothing checked: every paper unreadable, failed, or a PDF without a list (as `check`)
        return EXIT_USAGE
    if outcome.hallucinated_papers and not args.exit_zero:
        return EXIT_HALLUCINATED
    return EXIT_USAGE if failed else EXIT_OK


def _fetched_inputs(args: argparse.Namespace, settings: Settings, err: Console) -> list[Path] | None:
    """The scan's paths, with a venue's or a list's papers fetched into DIR/downloads/ (scan/venue.py) in place
    of `openreview:VENUE_ID` and `.csv` inputs; None when they cannot be had (the error said)."""
    from citetracer.scan.venue import VenueError, fetch_inputs, is_remote

    remote = [str(p) for p in args.paths if is_remote(str(p))]
    if not remote:
        return list(args.paths)

    def say(message: str) -> None:
        err.print(message, style="dim", highlight=False)

    try:
        fetched = fetch_inputs(remote, settings, args.output, say)
    except VenueError as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return None
    for problem in fetched.problems:
        err.print(f"warning: {problem}", style="yellow", highlight=False)
    say(f"{len(fetched.paths)} PDFs in {args.output / 'downloads'} ({fetched.now} fetched now, {fetched.kept} before)")
    paths = [p for p in args.paths if not is_remote(str(p))] + fetched.paths
    if not paths:
        err.print("error: no PDF could be fetched; run the scan again to retry", style="red")
        return None
    return paths
