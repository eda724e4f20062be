"""`citetracer mirror setup --field cs|ml|biomed|all`: a store that makes an offline check useful, guided.

Shows the plan (mirror/setup.py: what will be fetched from where, how it is verified, disk and time,
each figure marked measured, extrapolated or assumed), asks before fetching gigabytes (or takes
`--yes`; off a terminal without `--yes` it refuses rather than hang or assume), downloads each dump
resumably into the dumps folder (mirror/download.py: ranged HTTP, the MD5 or byte count the source
publishes, then the gzip/xz stream read to its end), runs the same ingest commands a user would
(`mirror dblp|arxiv|openalex`), and ends with what the store can and cannot confirm (store/gaps.py).
Running it again after a cut resumes the download and skips what is already whole.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from citetracer.cli.ingest import download, dumps_folder
from citetracer.config import Settings
from citetracer.mirror.download import Fetched, fetch, fetch_dblp, fetch_openalex, verify_stream
from citetracer.mirror.setup import Plan, Step, catalogue, measured_note, plan
from citetracer.store.api import display_location, open_store
from citetracer.store.gaps import StoreProfile

EXIT_OK, EXIT_USAGE = 0, 2

CHECKS = {
    "md5-beside": "the MD5 published beside it, then its gzip stream",
    "manifest-size": "each part's byte count from the manifest, then its gzip stream",
    "stream": "its gzip/xz stream read to the end, no checksum being published",
}


def describe(p: Plan, store: Path | str) -> list[str]:
    """The plan, as printed before anything is fetched."""
    cat = catalogue()
    lines = [f"mirror setup for {p.title}: store {display_location(store)}, dumps in {p.dumps}"]
    for i, s in enumerate(p.steps, 1):
        head = f"  {i}. {s.mirror}: {s.title}"
        if s.skipped:
            lines.append(f"{head}: SKIPPED, {s.skipped}")
            continue
        lines.append(
            f"{head}: download ~{s.download_gb:,.1f} GB from {s.url} (verified by {CHECKS[s.checksum]}), "
            f"store ~{s.store_gb:,.1f} GB, ~{s.hours:,.1f} h [{s.basis}]"
        )
        lines.append(f"     then: {s.command}")
    gb, store_gb, hours = p.totals()
    lines.append(
        f"total: ~{gb:,.1f} GB to download, ~{store_gb:,.1f} GB of store, ~{hours:,.1f} h "
        f"(download time at an assumed {cat['assumed_mbit_per_s']} Mbit/s)"
    )
    lines.append(f"offline, this store still cannot confirm: {p.stays_p1}")
    left = [s.title for s in p.steps if s.skipped]
    if left:
        lines.append(f"nor, while skipped, what these hold: {'; '.join(left)}")
    lines.append("where the figures come from:")
    lines += [f"  {s.mirror} [{s.basis}]: {s.note}" for s in p.runs]
    if any(s.mirror == "dblp" for s in p.runs) and measured_note():
        lines.append(f"  dblp [measured]: {measured_note()}")
    return lines


def _confirmed(p: Plan, err: Console) -> bool:
    gb, store_gb, _ = p.totals()
    if not sys.stdin.isatty():
        err.print(
            f"error: not fetching ~{gb:,.1f} GB without a confirmation and stdin is not a terminal: run again with "
            "--yes (or --dry-run to see the plan only)",
            style="red",
            highlight=False,
        )
        return False
    answer = input(f"fetch ~{gb:,.1f} GB and build ~{store_gb:,.1f} GB of store? [y/N] ")
    return answer.strip().lower() in ("y", "yes")


def _warn_disk(p: Plan, err: Console) -> None:
    gb, store_gb, _ = p.totals()
    p.dumps.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(p.dumps).free / 1e9
    if free < gb + store_gb:
        err.print(
            f"warning: {free:,.1f} GB free in {p.dumps}; the plan needs ~{gb + store_gb:,.1f} GB "
            "(a download that fills the disk stops and resumes when run again)",
            style="yellow",
            highlight=False,
        )


def _fetch(step: Step, tick: Callable[[int, int | None], None]) -> str:
    """Download one step's dump and verify it; one line saying what was fetched."""
    if step.mirror == "dblp":
        got, _ = fetch_dblp(step.url, step.dest, tick)
        files = [got]
    elif step.mirror == "openalex":
        files = fetch_openalex(step.url, step.dest, progress=tick)
    else:
        files = [fetch(step.url, step.dest, progress=tick)]
    streams = {verify_stream(f.path) for f in files if not f.cached or step.mirror != "openalex"}
    return _said(step, files, sorted(s for s in streams if s))


def _said(step: Step, files: list[Fetched], streams: list[str]) -> str:
    fresh = [f for f in files if not f.cached]
    resumed = sum(1 for f in fresh if f.resumed_from)
    checks = sorted({f.verified for f in files} - {"none"}) + [f"{s} stream" for s in streams]
    return (
        f"{step.mirror}: {len(files)} file(s) in {step.dest} ({len(fresh)} fetched now, "
        f"{sum(f.bytes for f in fresh):,} bytes"
        + (f", {resumed} resumed" if resumed else "")
        + f"; verified: {', '.join(checks) or 'nothing published to check'})"
    )


def summary(store: Path | str) -> list[str]:
    """What the store can and cannot confirm offline, whatever the paper."""
    with open_store(store) as s:
        profile = StoreProfile.of(s)
    lines = [f"the store at {display_location(store)} now holds:"]
    lines += [f"  {h}" for h in profile.holds()] or ["  nothing"]
    lines.append("offline it cannot confirm:")
    lines += [f"  {c}" for c in profile.cannot_confirm()]
    return lines


def run_setup(
    args: argparse.Namespace, settings: Settings, out: Console, err: Console, ingest: Callable[[list[str]], int]
) -> int:
    """`ingest(argv)` runs a `citetracer mirror ...` command line (the existing ingest commands, as typed)."""
    dumps: Path = args.dumps or dumps_folder(settings.store)
    p = plan(args.field, dumps, settings.mirrors, args.max_hours)
    for line in describe(p, settings.store):
        out.print(line, highlight=False)
    if args.dry_run:
        out.print("dry run: nothing fetched, the store unchanged", highlight=False)
        return EXIT_OK
    if not p.runs:
        err.print("error: nothing to fetch (every mirror of this plan is skipped, see above)", style="red")
        return EXIT_USAGE
    if not args.yes and not _confirmed(p, err):
        err.print("nothing fetched", highlight=False)
        return EXIT_USAGE
    _warn_disk(p, err)
    common = ["--store", str(settings.store)] + (["--config", str(args.config)] if args.config else [])
    for step in p.runs:

        def get(tick: Callable[[int, int | None], None], step: Step = step) -> str:
            return _fetch(step, tick)

        if not download(step.mirror, err, get):
            err.print("run the same command again to resume: what is whole is kept", highlight=False)
            return EXIT_USAGE
        code = ingest(["mirror", step.mirror, str(step.dest), *step.filters, *common])
        if code != EXIT_OK:
            err.print(f"error: `{step.command}` failed (above); the steps after it were not run", style="red")
            return code
    for line in summary(settings.store):
        out.print(line, highlight=False)
    return EXIT_OK
