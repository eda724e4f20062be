"""Command line: `citetracer check|extract|mirror`. A thin adapter over the pipeline.

Exit codes: 0 nothing Hallucinated, 1 something Hallucinated, 2 usage or input
error (only when nothing at all could be read; also a store that another process
kept busy beyond the wait), 3 internal failure (a bug: one line on stderr, the
traceback with CITETRACER_DEBUG=1), so that CI never mistakes a crash for a
finding.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from rich.console import Console

from citetracer import __version__
from citetracer.config import ConfigError, Settings, load_settings
from citetracer.extract import InputError, read_references
from citetracer.pipeline import Checker
from citetracer.records import Report
from citetracer.report.render import print_table, write_json, write_jsonl, write_markdown
from citetracer.store.db import Store, StoreBusy, StoreError

EXIT_OK, EXIT_HALLUCINATED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--store", type=Path, help="local store file (default: $CITETRACER_STORE or user data dir)")
    common.add_argument("--config", type=Path, help="TOML config file (default: $CITETRACER_CONFIG)")

    p = argparse.ArgumentParser(prog="citetracer", description="Find hallucinated references in papers.")
    p.add_argument("--version", action="version", version=f"citetracer {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", parents=[common], help="verify every citation of one or more files")
    check.add_argument("files", nargs="+", type=Path)
    check.add_argument("--format", choices=["table", "json", "jsonl", "markdown"], default="table")
    check.add_argument("-o", "--output", type=Path, help="write the report here instead of stdout")
    check.add_argument("--offline", action="store_true", default=None, help="use only the local store")
    check.add_argument(
        "--closed-world",
        action="store_true",
        default=None,
        help="treat the local store as complete: absent citations are Hallucinated (H1), not Potential (P1)",
    )
    check.add_argument("--today-year", type=int, help="the year taken as 'now' for future-date checks")
    check.add_argument(
        "--llm",
        metavar="URL",
        help="base URL of an OpenAI-compatible endpoint for the optional LLM agents (e.g. http://127.0.0.1:8080/v1); "
        "the API key comes from $CITETRACER_LLM_API_KEY or the config file, never from a flag",
    )
    check.add_argument("--llm-model", help="model the agents use")
    check.add_argument("--llm-vision-model", help="model the Parser Agent uses with block images (default: model)")
    check.add_argument("--no-llm", action="store_true", help="no LLM agents, even if the config file names an endpoint")
    check.add_argument("--mailto", help="contact e-mail sent to online services (default: $CITETRACER_MAILTO)")
    check.add_argument("--connectors", help="comma-separated Scholar Connectors to ask (default: chosen per citation)")
    check.add_argument("--no-http-cache", action="store_true", help="do not read or write the on-disk HTTP cache")
    check.add_argument("-v", "--verbose", action="store_true", help="full rationale per citation")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when citations are Hallucinated")

    extract = sub.add_parser("extract", parents=[common], help="print the references found in a file")
    extract.add_argument("file", type=Path)
    extract.add_argument("--format", choices=["table", "json"], default="table")
    extract.add_argument("-o", "--output", type=Path)

    mirror = sub.add_parser("mirror", help="manage the local store of bibliographic records")
    msub = mirror.add_subparsers(dest="mirror_command", required=True)
    add = msub.add_parser("add", parents=[common], help="add records from a JSONL file")
    add.add_argument("file", type=Path)
    add.add_argument("--source", help="name recorded as these records' source (default: local)")
    add.add_argument(
        "--complete-venues",
        action="store_true",
        help="the file holds every paper of each venue-year it has any of (absence there is evidence)",
    )
    dblp = msub.add_parser("dblp", parents=[common], help="(re)build the DBLP part of the store from dblp.xml.gz")
    dblp.add_argument("dump", type=Path)
    dblp.add_argument("--dtd", type=Path, help="the dump's DTD (default: dblp.dtd beside the dump)")
    acl = msub.add_parser("acl", parents=[common], help="add ACL Anthology XML files (or directories of them)")
    acl.add_argument("paths", nargs="+", type=Path)
    msub.add_parser("stats", parents=[common], help="show what the store holds")
    return p


def _settings(args: argparse.Namespace, **flags: object) -> Settings:
    return load_settings(getattr(args, "config", None), store=getattr(args, "store", None), **flags)


def _open_out(stack: ExitStack, path: Path | None) -> IO[str]:
    if path is None:
        return sys.stdout
    return stack.enter_context(path.open("w", encoding="utf-8"))


def cmd_check(args: argparse.Namespace, err: Console) -> int:
    llm = {"base_url": "" if args.no_llm else args.llm, "model": args.llm_model, "vision_model": args.llm_vision_model}
    online = {
        "connectors": [c.strip() for c in args.connectors.split(",") if c.strip()] if args.connectors else None,
        "http_cache": "" if args.no_http_cache else None,
    }
    settings = _settings(
        args,
        offline=args.offline,
        today_year=args.today_year,
        closed_world=args.closed_world,
        llm=llm,
        mailto=args.mailto,
        online=online,
    )
    if settings.llm.base_url and not settings.llm.model:
        err.print("warning: an LLM endpoint is set but no model (--llm-model): agents are off", style="yellow")
    reports: list[Report] = []
    checker = Checker(settings)
    try:
        for path in args.files:
            try:
                read = read_references(path)
            except InputError as exc:
                err.print(f"error: {exc}", style="red", highlight=False)
                continue
            for warning in read.warnings:
                err.print(f"warning: {warning}", style="yellow", highlight=False)
            reports.append(checker.check_read(read, str(path)))
    finally:
        checker.close()
    if not reports:
        return EXIT_USAGE
    with ExitStack() as stack:
        out = _open_out(stack, args.output)
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
            for r in reports:
                write_markdown(r, out)
        else:
            console = Console(file=out) if args.output else Console()
            for r in reports:
                print_table(r, console, verbose=args.verbose)
    if args.exit_zero:
        return EXIT_OK
    return EXIT_HALLUCINATED if any(r.has_hallucinated for r in reports) else EXIT_OK


def cmd_extract(args: argparse.Namespace, err: Console) -> int:
    try:
        read = read_references(args.file)
    except InputError as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return EXIT_USAGE
    for warning in read.warnings:
        err.print(f"warning: {warning}", style="yellow", highlight=False)
    with ExitStack() as stack:
        out = _open_out(stack, args.output)
        if args.format == "json":
            doc = {"input": str(args.file), "references": [r.model_dump(mode="json") for r in read.references]}
            json.dump(doc, out, ensure_ascii=False, indent=2)
            out.write("\n")
        else:
            console = Console(file=out) if args.output else Console()
            for i, r in enumerate(read.references, 1):
                authors = "; ".join(p.display() for p in r.authors) + (" et al." if r.et_al else "")
                console.print(
                    f"[bold]{r.label or i}[/bold] {authors} ({r.year}) [italic]{r.title}[/italic] "
                    f"{r.venue or ''} {r.doi or ''} {r.arxiv_id or ''}",
                    highlight=False,
                )
    return EXIT_OK


def cmd_mirror(args: argparse.Namespace, err: Console) -> int:
    settings = _settings(args)
    out = Console()
    if args.mirror_command == "add":
        from citetracer.mirror.jsonl import add_jsonl

        if not args.file.is_file():
            err.print(f"error: {args.file}: no such file", style="red", highlight=False)
            return EXIT_USAGE
        with Store(settings.store, lock_wait=None, notify=_notify(err)) as store:
            report = add_jsonl(store, args.file, args.source, complete=args.complete_venues)
        for e in report.errors[:20]:
            err.print(f"warning: {e}", style="yellow", highlight=False)
        if len(report.errors) > 20:
            err.print(f"warning: {len(report.errors) - 20} more bad lines", style="yellow")
        out.print(f"added {report.added} records from {args.file} to {settings.store}", highlight=False)
        return EXIT_OK if report.added or not report.errors else EXIT_USAGE
    if args.mirror_command in ("dblp", "acl"):
        from citetracer.mirror.commands import run_acl, run_dblp

        run = run_dblp if args.mirror_command == "dblp" else run_acl
        return run(args, settings.store, out, err)
    with Store(settings.store) as store:
        stats = store.stats()
    out.print_json(json.dumps(stats))
    return EXIT_OK


def _notify(err: Console) -> Callable[[str], None]:
    """How a command tells the user, once, that it waits for another writer of the store."""

    def say(message: str) -> None:
        err.print(message, style="yellow", highlight=False)

    return say


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    err = Console(stderr=True)
    try:
        if args.command == "check":
            return cmd_check(args, err)
        if args.command == "extract":
            return cmd_extract(args, err)
        return cmd_mirror(args, err)
    except (ConfigError, StoreError, StoreBusy) as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.print("interrupted", style="red")
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug: one clear line and its own exit code, never 1 ("Hallucinated found")
        if os.environ.get("CITETRACER_DEBUG"):
            traceback.print_exc()
        err.print(
            f"internal error: {type(exc).__name__}: {exc} (set CITETRACER_DEBUG=1 for the traceback)",
            style="red",
            highlight=False,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
