"""`citetracer mirror dblp|arxiv|openalex|acl`: fetch a dump when asked, run an ingest with a progress bar, report.

Part of the CLI front end (the ingesters in mirror/ know no terminal); exit codes follow
the CLI's (0 done, 2 unusable input, with the previous store left as it was).
"""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from citetracer.cli.common import notify
from citetracer.mirror import declare_doi_prefixes
from citetracer.mirror.download import DownloadError, Fetched, fetch, fetch_dblp, fetch_openalex
from citetracer.mirror.safexml import DumpError
from citetracer.store.api import display_location, open_store
from citetracer.store.claims import doi_prefix_kind

EXIT_OK, EXIT_USAGE = 0, 2
#: A new store takes about 3.2x the gzip'd dump (8M synthetic records: 0.84 GB dump -> 2.65 GB store, bench/mirror.py).
NEED_PER_DUMP_BYTE = 3.5


@contextmanager
def ingest_progress(label: str, size: int, err: Console) -> Iterator[Callable[[int, int, int], None]]:
    """A progress bar over a dump's bytes; yields the `progress(records, bytes_done, bytes_total)` callback."""
    progress = Progress(
        TextColumn(f"[bold]{label}[/bold]"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[records]:,} records, {task.fields[rate]:,.0f}/s"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not err.is_terminal,
    )
    with progress:
        task = progress.add_task("ingest", total=size, records=0, rate=0.0)

        def tick(records: int, done: int, total: int) -> None:
            elapsed = progress.tasks[task].elapsed or 1e-9
            progress.update(task, completed=done, total=total, records=records, rate=records / elapsed)

        yield tick


def warn_disk(store_path: Path | str, size: int, err: Console) -> None:
    """Say so when the disk beside a store file looks too small for a store built from a dump of `size` bytes."""
    if not isinstance(store_path, Path):
        return
    store_path.parent.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(store_path.parent).free
    if free < NEED_PER_DUMP_BYTE * size:
        err.print(
            f"warning: {free / 1e9:.1f} GB free beside {store_path}; a store built from this dump may need "
            f"about {NEED_PER_DUMP_BYTE * size / 1e9:.1f} GB (if the disk fills, the build stops and the "
            "previous store stays)",
            style="yellow",
            highlight=False,
        )


def dumps_folder(store_path: Path | str) -> Path:
    """Where downloaded dumps go by default: a `dumps` folder beside the store file (the user data folder for
    a PostgreSQL store)."""
    if isinstance(store_path, Path):
        return store_path.parent / "dumps"
    from platformdirs import user_data_dir

    return Path(user_data_dir("citetracer")) / "dumps"


def download(what: str, err: Console, fetch: Callable[[Callable[[int, int | None], None]], str]) -> bool:
    """Run a download with a progress bar; False (and the reason on stderr) when it failed."""
    progress = Progress(
        TextColumn(f"[bold]{what}[/bold] download"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.completed:,.0f} bytes"),
        TimeRemainingColumn(),
        console=err,
        disable=not err.is_terminal,
    )
    with progress:
        task = progress.add_task("download", total=None)

        def tick(done: int, total: int | None) -> None:
            progress.update(task, completed=done, total=total)

        try:
            said = fetch(tick)
        except DownloadError as exc:
            err.print(f"error: {exc}", style="red", highlight=False)
            return False
    err.print(said, highlight=False)
    return True


def _fetched(what: str, got: Fetched) -> str:
    if got.cached:
        return f"{what}: {got.path} is already there and verified ({got.verified}); not fetched again"
    resumed = f", resumed after {got.resumed_from:,} bytes" if got.resumed_from else ""
    return f"{what}: fetched {got.path} ({got.bytes:,} bytes{resumed}; verified: {got.verified})"


def _unchanged(exc: DumpError, store_path: Path | str, err: Console) -> int:
    """A rebuild that stopped on unusable input: the reason, and that the store is as it was."""
    err.print(f"error: {exc}", style="red", highlight=False)
    err.print(f"the store at {display_location(store_path)} was not changed", highlight=False)
    return EXIT_USAGE


def _timing(records: int, seconds: float, finishing: float) -> str:
    return f"in {seconds:.0f}s ({records / max(seconds, 1e-9):,.0f}/s; the last {finishing:.0f}s building indexes)"


def run_dblp(args: argparse.Namespace, store_path: Path | str, out: Console, err: Console) -> int:
    from citetracer.mirror.dblp import ingest_dblp  # each run_* imports its own ingester only: one runs at a time

    if args.dump is None and args.download is None:
        err.print("error: give the dump (DUMP) or --download it", style="red", highlight=False)
        return EXIT_USAGE
    dump: Path = args.dump or dumps_folder(store_path) / "dblp.xml.gz"
    if args.download is not None:

        def get(tick: Callable[[int, int | None], None]) -> str:
            got, _ = fetch_dblp(args.download, dump, tick)
            return _fetched("dblp", got)

        if not download("dblp", err, get):
            return EXIT_USAGE
    if not dump.is_file():
        err.print(f"error: {dump}: no such file", style="red", highlight=False)
        return EXIT_USAGE
    dtd: Path = args.dtd or dump.with_name("dblp.dtd")
    if not dtd.is_file():
        err.print(
            f"error: {dtd}: no such file; DBLP's character entities come from dblp.dtd "
            "(download it beside the dump, or pass --dtd)",
            style="red",
            highlight=False,
        )
        return EXIT_USAGE
    size = dump.stat().st_size
    warn_disk(store_path, size, err)
    with ingest_progress("dblp", size, err) as tick:
        try:
            report = ingest_dblp(store_path, dump, dtd, progress=tick, notify=notify(err))
        except DumpError as exc:
            return _unchanged(exc, store_path, err)
    kinds = ", ".join(f"{n:,} {k}" for k, n in report.by_type.most_common())
    out.print(
        f"dblp: {report.added:,} records ({kinds}) {_timing(report.added, report.seconds, report.finish_seconds)}; "
        f"kept {report.carried_over:,} records of other sources; "
        f"skipped {report.skipped.get('www', 0):,} person pages; "
        f"store {display_location(store_path)}",
        highlight=False,
    )
    return EXIT_OK


def run_acl(args: argparse.Namespace, store_path: Path | str, out: Console, err: Console) -> int:
    from citetracer.mirror.acl import ingest_acl

    missing = [p for p in args.paths if not p.exists()]
    for p in missing:
        err.print(f"error: {p}: no such file or directory", style="red", highlight=False)
    try:
        [doi_prefix_kind(p) for p in args.complete_dois]
    except ValueError as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return EXIT_USAGE
    with open_store(store_path, lock_wait=None, notify=notify(err)) as store:
        report = ingest_acl(store, [p for p in args.paths if p.exists()])
        if report.files:
            declare_doi_prefixes(store, "acl", args.complete_dois)
    for e in report.errors:
        err.print(f"warning: {e}; file skipped", style="yellow", highlight=False)
    where = display_location(store_path)
    out.print(f"acl: {report.added:,} records from {report.files} files into {where}", highlight=False)
    return EXIT_OK if report.files and not missing else EXIT_USAGE


def run_arxiv(args: argparse.Namespace, store_path: Path | str, out: Console, err: Console) -> int:
    from citetracer.mirror.arxiv import ingest_arxiv

    if args.snapshot is None and args.download is None:
        err.print("error: give the snapshot (SNAPSHOT) or --download it", style="red", highlight=False)
        return EXIT_USAGE
    snapshot: Path = args.snapshot or dumps_folder(store_path) / "arxiv-metadata-oai-snapshot.json"
    if args.download is not None:

        def get(tick: Callable[[int, int | None], None]) -> str:
            return _fetched("arxiv", fetch(args.download, snapshot, md5=args.md5, progress=tick))

        if not download("arxiv", err, get):
            return EXIT_USAGE
    if not snapshot.is_file():
        err.print(f"error: {snapshot}: no such file", style="red", highlight=False)
        return EXIT_USAGE
    size = snapshot.stat().st_size
    warn_disk(store_path, size, err)
    with ingest_progress("arxiv", size, err) as tick:
        try:
            report = ingest_arxiv(
                store_path, snapshot, date=args.date, complete=not args.partial, progress=tick, notify=notify(err)
            )
        except DumpError as exc:
            return _unchanged(exc, store_path, err)
    for problem in report.errors[:20]:
        err.print(f"warning: {problem}", style="yellow", highlight=False)
    if report.skipped > 20:
        err.print(f"warning: {report.skipped - 20:,} more lines skipped", style="yellow", highlight=False)
    claim = (
        f"complete for arXiv ids issued before {report.snapshot_date}"
        if not args.partial
        else "declared partial: absence from it is no evidence"
    )
    out.print(
        f"arxiv: {report.added:,} records (snapshot of {report.snapshot_date}; {claim}) "
        f"{_timing(report.added, report.seconds, report.finish_seconds)}; skipped {report.skipped:,} lines; "
        f"kept {report.carried_over:,} records of other sources; "
        f"store {display_location(store_path)}",
        highlight=False,
    )
    return EXIT_OK


def run_openalex(args: argparse.Namespace, store_path: Path | str, out: Console, err: Console) -> int:
    from citetracer.mirror.openalex import Filters, ingest_openalex

    if args.path is None and args.download is None:
        err.print("error: give the snapshot (PATH) or --download it", style="red", highlight=False)
        return EXIT_USAGE
    path: Path = args.path or dumps_folder(store_path) / "openalex"
    if args.download is not None:

        def get(tick: Callable[[int, int | None], None]) -> str:
            got = fetch_openalex(args.download, path, progress=tick)
            fresh = [g for g in got if not g.cached]
            return (
                f"openalex: {len(got)} part files in {path} ({len(fresh)} fetched now, "
                f"{sum(g.bytes for g in fresh):,} bytes; each checked against its manifest's byte count)"
            )

        if not download("openalex", err, get):
            return EXIT_USAGE
    for given in (path, args.sources):
        if given is not None and not given.exists():
            err.print(f"error: {given}: no such file or directory", style="red", highlight=False)
            return EXIT_USAGE
    try:
        filters = Filters.of(args.since, args.types, args.issns, args.concepts)
    except ValueError as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return EXIT_USAGE
    progress = Progress(
        TextColumn("[bold]openalex[/bold]"),
        BarColumn(),
        TextColumn("part {task.completed:.0f} of {task.total:.0f}, {task.fields[records]:,} works kept"),
        TimeElapsedColumn(),
        console=err,
        disable=not err.is_terminal,
    )
    with progress, open_store(store_path, lock_wait=None, notify=notify(err)) as store:
        task = progress.add_task("ingest", total=1, records=0)

        def tick(records: int, part: int, parts: int) -> None:
            progress.update(task, completed=part, total=parts, records=records)

        try:
            report = ingest_openalex(store, path, filters, args.sources, args.date, progress=tick)
        except DumpError as exc:
            err.print(f"error: {exc}", style="red", highlight=False)
            err.print("run the same command again to resume after the works already written", highlight=False)
            return EXIT_USAGE
    for problem in report.errors[:20]:
        err.print(f"warning: {problem}", style="yellow", highlight=False)
    if report.skipped > 20:
        err.print(f"warning: {report.skipped - 20:,} more lines skipped", style="yellow", highlight=False)
    resumed = (
        f" (resumed at part {report.resumed_from[0] + 1}, line {report.resumed_from[1]:,}, after "
        f"{report.resumed_from[2]:,} works an interrupted run had written)"
        if report.resumed_from
        else ""
    )
    out.print(
        f"openalex: {report.added:,} works from {report.parts} part files ({report.scope or 'the whole snapshot'}; "
        f"{report.filtered_out:,} left out by the filters, {report.skipped:,} lines skipped){resumed}; "
        f"{report.venues:,} venues; snapshot of {report.snapshot_date}; complete for "
        f"{report.complete_venue_years:,} venue-years (works count matches the venue's own) in {report.seconds:.0f}s; "
        f"store {display_location(store_path)}",
        highlight=False,
    )
    return EXIT_OK
