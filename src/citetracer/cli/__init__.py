"""Command line: `citetracer check|scan|review|serve|extract|venues|mirror`. A thin adapter over the pipeline.

Each command's module (check.py, scan.py, serve.py, extract.py, review.py, venues.py, mirror.py) registers its
own subparser and handler; this module puts them together and turns what escapes a command into an exit code.

Exit codes: 0 nothing Hallucinated, 1 something Hallucinated, 2 usage or input
error (only when nothing at all could be read; also a store that another process
kept busy beyond the wait), 3 internal failure (a bug: one line on stderr, the
traceback with CITETRACER_DEBUG=1), so that CI never mistakes a crash for a
finding.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
import traceback
from collections.abc import Sequence

from rich.console import Console

from citetracer import __version__, collector
from citetracer.cli.argparser import SuggestingParser
from citetracer.cli.common import (
    EXIT_CODES,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    FORMATTER,
    common_arguments,
    settings_arguments,
)
from citetracer.cli.extras import MissingExtra, missing_extra
from citetracer.config import ConfigError
from citetracer.store.db import StoreBusy, StoreError
from citetracer.store.index import PANICS

#: What is a bug when it reaches `main`: any exception, and a Rust library's panic (pyo3 makes it a
#: BaseException, which went past `except Exception` as a traceback and exit code 1, "Hallucinated found").
BUGS: tuple[type[BaseException], ...] = (Exception, *PANICS)


#: Each command's module, in the order `--help` lists them; the commands after `check` and `scan` take no
#: checking flags.
COMMANDS = {
    "check": "citetracer.cli.check",
    "scan": "citetracer.cli.scan",
    "serve": "citetracer.cli.serve",
    "extract": "citetracer.cli.extract",
    "review": "citetracer.cli.review",
    "venues": "citetracer.cli.venues",
    "mirror": "citetracer.cli.mirror",
}
_CHECKING = ("check", "scan")


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line: each command's subparser, in the order `--help` lists them; only `command`'s
    when one is given. A command's module imports what it runs with (`check` the checker and the readers), and
    `mirror dblp` spent most of its start importing the other commands' modules."""
    common = common_arguments()
    checking = settings_arguments()
    p = SuggestingParser(
        prog="citetracer",
        description="Find hallucinated references in papers.",
        epilog=EXIT_CODES,
        formatter_class=FORMATTER,
    )
    p.add_argument("--version", action="version", version=f"citetracer {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in COMMANDS.items():
        if command in (None, name):
            add_parser = importlib.import_module(module).add_parser
            if name in _CHECKING:
                add_parser(sub, common, checking)
            else:
                add_parser(sub, common)
    return p


def _command(argv: Sequence[str]) -> str | None:
    """The command `argv` names in its first word, or None (`--help`, `--version`, a typo: the whole parser
    answers, with every command to list or suggest). The top parser's own options take no value, so a command
    line that starts with a command's name is that command's."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    finally:
        if argv is None:  # the process's own command (`citetracer ...`, `python -m citetracer ...`), ending:
            # what is alive now lives until the process exits, and the collector need not scan it all once
            # more at exit (0.2-0.3 s for the modules a command imports). Callers passing argv keep theirs.
            gc.freeze()


def _main(argv: Sequence[str] | None) -> int:
    args = _parser(_command(sys.argv[1:] if argv is None else argv)).parse_args(argv)
    if argv is None and args.command in _CHECKING:
        # The process's own `check` or `scan`: a batch that ends with the command (collector.py); a caller
        # passing argv (a test, a program) keeps its own collector settings, and `serve` runs for months.
        collector.for_batch()
    # soft_wrap: one line per problem whatever the width (rich wraps at 80 columns off a terminal,
    # which breaks log parsers that read one message per line).
    # markup=False: messages carry file names, titles and install hints ("citetracer[pdf]") that Rich
    # would read as markup tags and drop; styles are given with style=, never inside the text.
    err = Console(stderr=True, soft_wrap=True, markup=False)
    try:
        code: int = args.handler(args, err)
        return code
    except (ConfigError, StoreError, StoreBusy, MissingExtra) as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.print("interrupted", style="red")
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except BUGS as exc:  # a bug (a Rust panic too): one clear line and its own exit code, never 1
        extra = missing_extra(exc)
        if extra is not None:  # an optional extra's module, imported deeper than a command's `require`
            err.print(f"error: {extra}", style="red", highlight=False)
            return EXIT_USAGE
        if os.environ.get("CITETRACER_DEBUG"):
            traceback.print_exc()
        err.print(
            f"internal error: {type(exc).__name__}: {exc} (set CITETRACER_DEBUG=1 for the traceback)",
            style="red",
            highlight=False,
        )
        return EXIT_INTERNAL
