"""What the CLI's commands share: exit codes, the flags every command takes (`--store`, `--config`), the flags
that choose how citations are checked, the settings they make, the report's output file and the store's warnings.

Part of the CLI front end; each command's module (check.py, scan.py, serve.py, ...) registers its own subparser.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

from rich.console import Console

from citetracer.cli.argparser import SuggestingParser
from citetracer.cli.extras import require
from citetracer.config import SEGMENTERS, Settings, is_store_url, load_settings
from citetracer.report.views import SHOW_CHOICES
from citetracer.store.api import display_location

if TYPE_CHECKING:  # every command imports this module, `mirror` too, which neither reads papers nor checks them
    from citetracer.extract import PageRange
    from citetracer.pipeline import Checker, Paper

EXIT_OK, EXIT_HALLUCINATED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_CODES = """exit codes:
  0  nothing Hallucinated (or --exit-zero)
  1  at least one citation is Hallucinated
  2  usage or input error: nothing at all could be read, a PDF in which no reference list was
     found included (other inputs are still checked, each problem reported on one line), or the
     store was kept busy by another process
  3  internal failure (a bug): one line on stderr, the traceback with CITETRACER_DEBUG=1
"""
#: How the commands with long help texts lay them out (the exit codes kept as written).
FORMATTER = argparse.RawDescriptionHelpFormatter


def common_arguments() -> SuggestingParser:
    """`--store` and `--config`, which every command takes."""
    common = SuggestingParser(add_help=False)
    common.add_argument(
        "--store",
        type=_store_arg,
        metavar="FILE|URL",
        help="local store file, or a shared store postgresql://USER@HOST:PORT/DB "
        "(default: $CITETRACER_STORE or user data dir)",
    )
    common.add_argument(
        "--config", type=Path, metavar="FILE", help="TOML config file (default: $CITETRACER_CONFIG or user config dir)"
    )
    return common


def settings_arguments(reports: bool = True) -> SuggestingParser:
    """The flags that choose how citations are checked; `check`, `scan` and `serve` take the same ones
    (`serve` without those about the command's own report and exit code: `reports=False`)."""
    p = SuggestingParser(add_help=False)
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--offline",
        action="store_const",
        const=True,
        default=None,
        help="use only the local store, no network (default: online, unless the config file or "
        "$CITETRACER_OFFLINE says offline; the Python API follows the same rule)",
    )
    where.add_argument(
        "--online",
        dest="offline",
        action="store_const",
        const=False,
        help="ask the online sources even when the config file or $CITETRACER_OFFLINE says offline",
    )
    p.add_argument(
        "--read-only",
        action="store_true",
        default=None,
        help="never write to the store: no verified links, evidence memo or records learned from online "
        "answers (a shared or mirrored store; config read_only, $CITETRACER_READ_ONLY)",
    )
    p.add_argument(
        "--closed-world",
        action="store_true",
        default=None,
        help="treat the local store as complete: absent citations are Hallucinated (H1), not Potential (P1)",
    )
    p.add_argument("--today-year", type=int, metavar="YEAR", help="the year taken as 'now' for future-date checks")
    p.add_argument(
        "--llm",
        metavar="URL",
        help="base URL of an OpenAI-compatible endpoint for the optional LLM agents (e.g. http://127.0.0.1:8080/v1); "
        "the API key comes from $CITETRACER_LLM_API_KEY or the config file, never from a flag",
    )
    p.add_argument("--llm-model", metavar="NAME", help="model the agents use")
    p.add_argument(
        "--llm-vision-model", metavar="NAME", help="model the Parser Agent uses with block images (default: model)"
    )
    p.add_argument("--no-llm", action="store_true", help="no LLM agents, even if the config file names an endpoint")
    p.add_argument("--mailto", metavar="EMAIL", help="contact e-mail sent to online services ($CITETRACER_MAILTO)")
    p.add_argument(
        "--connectors", metavar="LIST", help="comma-separated Scholar Connectors to ask (default: chosen per citation)"
    )
    p.add_argument("--no-http-cache", action="store_true", help="do not read or write the on-disk HTTP cache")
    add_segmenter(p)
    if not reports:
        return p
    p.add_argument(
        "--show",
        choices=SHOW_CHOICES,
        default=None,
        help="which citations the table, markdown, html and csv list: all, flagged (Hallucinated plus P2/P3: "
        "the ones to act on; P1 means 'not found where no source covers it'), or hallucinated (default: all; "
        "markdown, a review comment, lists H and P3 and counts the rest). The table, markdown and html list H "
        "first, then P3, P2, P1, Real, as csv does with flagged. JSON, JSONL, SARIF and a scan's papers/*.json "
        "keep every citation, in input order",
    )
    p.add_argument(
        "--only-flagged",
        dest="show",
        action="store_const",
        const="flagged",
        help="the same as --show flagged (kept for scripts written before --show)",
    )
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when citations are Hallucinated")
    return p


def add_ref_pages(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ref-pages",
        type=_page_range,
        metavar="FIRST-LAST",
        help="the PDF's bibliography is on these pages (e.g. 12-14): overrides the region found",
    )


def add_segmenter(parser: argparse.ArgumentParser) -> None:
    """`--segmenter`, which `check`, `scan` and `serve` take through `settings_arguments`, and `extract` itself."""
    parser.add_argument(
        "--segmenter",
        choices=SEGMENTERS,
        default=None,
        help="which segmenter cuts a PDF's bibliography into references: auto (the learned one unless the "
        "plausibility checks prefer the rules'), rules-first, model or rules (default: auto; config segmenter, "
        "$CITETRACER_SEGMENTER)",
    )


def _page_range(text: str) -> PageRange:
    from citetracer.extract import parse_page_range  # the readers, only for a command line giving --ref-pages

    try:
        return parse_page_range(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def _store_arg(value: str) -> Path | str:
    """`--store`: a PostgreSQL URL stays as written, anything else is a file path."""
    return value if is_store_url(value) else Path(value)


def settings_of(args: argparse.Namespace, **flags: object) -> Settings:
    """The settings of a command: its `--config` and `--store`, then `flags`."""
    settings = load_settings(getattr(args, "config", None), store=getattr(args, "store", None), **flags)
    if is_store_url(settings.store):
        require("postgres", "a PostgreSQL store")
    return settings


def check_settings(args: argparse.Namespace) -> Settings:
    """The settings of a command that checks citations (the flags of `settings_arguments`)."""
    llm = {"base_url": "" if args.no_llm else args.llm, "model": args.llm_model, "vision_model": args.llm_vision_model}
    online = {
        "connectors": [c.strip() for c in args.connectors.split(",") if c.strip()] if args.connectors else None,
        "http_cache": "" if args.no_http_cache else None,
    }
    return settings_of(
        args,
        offline=args.offline,
        read_only=args.read_only,
        today_year=args.today_year,
        closed_world=args.closed_world,
        segmenter=args.segmenter,
        llm=llm,
        mailto=args.mailto,
        online=online,
    )


def context(settings: Settings) -> str:
    """What a report's reader needs to know about how it was checked."""
    mode = "offline (local store only)" if settings.offline else "online sources allowed"
    return f"{mode} · store {display_location(settings.store)}" + (" · closed world" if settings.closed_world else "")


def open_out(stack: ExitStack, path: Path | None) -> IO[str]:
    """Where a report goes: stdout, or `path` (written whole or not at all, closed with `stack`)."""
    if path is None:
        return sys.stdout
    if path.exists() and not path.is_file():  # /dev/null, a pipe: written to, never replaced by a file
        return stack.enter_context(path.open("w", encoding="utf-8"))
    return stack.enter_context(_replacing(path))


@contextmanager
def _replacing(path: Path) -> Iterator[IO[str]]:
    """`path` written whole or not at all: a temporary file beside it, renamed into place when the
    writing ends without an error (a check that failed half-way left a truncated report)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as fh:
            yield fh
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def say_store_note(checker: Checker, err: Console, said: set[str]) -> None:
    """Say once, when there is something to check, what the store cannot do offline (empty, no complete
    source); every report carries it too, once, as the store's (pipeline.store_note, report/storenotes.py)."""
    say_store_warnings([checker.store_note] if checker.store_note else [], err, said)


def say_store_warnings(warnings: list[str], err: Console, said: set[str]) -> None:
    """The store's warnings not said yet in this run, one line each: `store warning: ...` (the store's, not the
    paper's: a newest snapshot older than the cited years is said for the paper whose citations it touches)."""
    for note in warnings:
        if note not in said:
            err.print(f"store warning: {note}", style="yellow", highlight=False)
            said.add(note)


def notify(err: Console) -> Callable[[str], None]:
    """How a command tells the user, once, that it waits for another writer of the store."""

    def say(message: str) -> None:
        err.print(message, style="yellow", highlight=False)

    return say


def say_reading(paper: Paper, err: Console) -> None:
    """One line on a PDF's reading, after its warnings: the list's pages, how many references, how many read with
    low confidence ("read: paper.pdf: 42 references from pages 9-11 (2 read with low confidence)")."""
    reading = paper.read.reading()
    if reading is not None:
        err.print(f"read: {paper.name}: {reading.summary}", style="red" if reading.no_list else None, highlight=False)
