"""`citetracer mirror add|dblp|arxiv|openalex|acl|setup|stats|reindex`: the local store's records.

Part of the CLI front end: `add`, `reindex` and `stats` here; the dump ingests (with a download and a progress
bar) in ingest.py and `setup` in setup.py, imported when they run (lxml and the ingesters load only then).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console

from citetracer.cli.argparser import SuggestingParser
from citetracer.cli.common import EXIT_OK, EXIT_USAGE, common_arguments, notify, settings_of
from citetracer.mirror.download import DBLP_URL, OPENALEX_URL
from citetracer.mirror.setup import FIELDS
from citetracer.store.api import display_location, open_store


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """The `mirror` command's actions and their arguments."""
    mirror = sub.add_parser("mirror", help="manage the local store of bibliographic records")
    msub = mirror.add_subparsers(dest="mirror_command", required=True, metavar="ACTION")
    add = msub.add_parser("add", parents=[common], help="add records from a JSONL file")
    add.add_argument("file", type=Path, metavar="FILE.jsonl", help="records, one JSON object per line")
    add.add_argument("--source", help="name recorded as these records' source (default: local)")
    add.add_argument(
        "--complete-venues",
        action="store_true",
        help="the file holds every paper of each venue-year it has any of (absence there is evidence)",
    )
    _add_complete_dois(add)
    _add_dump_actions(msub, common)
    acl = msub.add_parser("acl", parents=[common], help="add ACL Anthology XML files (or directories of them)")
    acl.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="ACL Anthology XML files or folders")
    _add_complete_dois(acl)
    setup = msub.add_parser(
        "setup", parents=[common],
        help="fetch and build the mirrors that make an offline check useful for a field (asks first)",
    )  # fmt: skip
    setup.add_argument(
        "--field", required=True, choices=FIELDS,
        help="cs or ml: DBLP + arXiv; biomed: an OpenAlex subset; all: the three",
    )  # fmt: skip
    setup.add_argument("--yes", action="store_true", help="do not ask before fetching (needed off a terminal)")
    setup.add_argument("--dry-run", action="store_true", help="print the plan (sizes, times, commands) and stop")
    setup.add_argument(
        "--dumps", type=Path, metavar="DIR", help="where the dumps go (default: dumps/ beside the store)"
    )
    setup.add_argument(
        "--max-hours", type=float, metavar="H", help="leave out the mirrors that would take the plan past H hours"
    )
    msub.add_parser("stats", parents=[common], help="show what the store holds")
    msub.add_parser("reindex", parents=[common], help="rebuild the title index from the store's records")
    mirror.set_defaults(handler=cmd_mirror)


def _mirror_parser() -> argparse.ArgumentParser:
    """`citetracer mirror ...` alone: how `mirror setup` runs the ingest commands, as typed."""
    parser = SuggestingParser(prog="citetracer")
    add_parser(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"), common_arguments())
    return parser


def _add_dump_actions(msub: Any, common: argparse.ArgumentParser) -> None:
    """`mirror dblp`, `mirror arxiv` and `mirror openalex`: a whole dump or snapshot (fetched when asked) ingested."""
    dblp = msub.add_parser("dblp", parents=[common], help="(re)build the DBLP part of the store from dblp.xml.gz")
    dblp.add_argument(
        "dump", type=Path, nargs="?", metavar="DUMP", help="dblp.xml or dblp.xml.gz (where --download puts it)"
    )
    dblp.add_argument(
        "--download", nargs="?", const=DBLP_URL, metavar="URL",
        help=f"fetch the dump first (default {DBLP_URL}): resumed if interrupted, checked against DBLP's MD5",
    )  # fmt: skip
    dblp.add_argument("--dtd", type=Path, help="the dump's DTD (default: dblp.dtd beside the dump)")
    arxiv = msub.add_parser(
        "arxiv", parents=[common], help="(re)build the arXiv part of the store from arXiv's metadata snapshot"
    )
    arxiv.add_argument(
        "snapshot", type=Path, nargs="?", metavar="SNAPSHOT",
        help="arxiv-metadata-oai-snapshot.json (or .gz): one work a line (where --download puts it)",
    )  # fmt: skip
    arxiv.add_argument(
        "--download", metavar="URL",
        help="fetch the snapshot from URL first (arXiv publishes it on Kaggle, behind a login: give a copy's URL)",
    )  # fmt: skip
    arxiv.add_argument("--md5", metavar="HASH", help="the downloaded snapshot's MD5, to check it against")
    arxiv.add_argument("--date", metavar="YYYY-MM-DD", help="the snapshot's date (default: the newest date in it)")
    arxiv.add_argument(
        "--partial",
        action="store_true",
        help="the file is not all of arXiv (a hand-made or filtered file): do not declare it complete for arXiv ids",
    )
    openalex = msub.add_parser(
        "openalex", parents=[common], help="add a subset of an OpenAlex snapshot's works, and its sources as venues"
    )
    openalex.add_argument(
        "path", type=Path, nargs="?", metavar="PATH",
        help="the snapshot's folder, a works manifest, or one part file (.gz); where --download puts the snapshot",
    )  # fmt: skip
    openalex.add_argument(
        "--download", nargs="?", const=OPENALEX_URL, metavar="URL",
        help=f"fetch the snapshot's sources and works first (default {OPENALEX_URL}; ~330 GB of works): resumed "
        "part by part, each checked against its manifest",
    )  # fmt: skip
    openalex.add_argument("--since", type=int, metavar="YEAR", help="only works published in YEAR or later")
    openalex.add_argument(
        "--type", dest="types", action="extend", nargs="+", default=[], metavar="TYPE",
        help="only works of these types (OpenAlex's or Crossref's: article, journal-article, book-chapter, ...)",
    )  # fmt: skip
    only = openalex.add_mutually_exclusive_group()
    only.add_argument(
        "--source-issn", dest="issns", action="extend", nargs="+", default=[], metavar="ISSN",
        help="only works published in the sources with these ISSNs",
    )  # fmt: skip
    only.add_argument(
        "--concept", dest="concepts", action="extend", nargs="+", default=[], metavar="CONCEPT",
        help="only works tagged with these concepts (ids like C41008148, or names)",
    )  # fmt: skip
    openalex.add_argument(
        "--sources", type=Path, metavar="PATH", help="the sources snapshot (default: the snapshot folder's own)"
    )
    openalex.add_argument("--date", metavar="YYYY-MM-DD", help="the snapshot's date (default: its newest update)")


def _add_complete_dois(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--complete-doi-prefix", dest="complete_dois", action="append", default=[], metavar="PREFIX",
        help="the records hold every DOI under PREFIX registered before today (e.g. 10.18653/v1 for all of the "
        "ACL Anthology): a cited DOI under it that they lack is then no DOI at all",
    )  # fmt: skip


def cmd_mirror(args: argparse.Namespace, err: Console) -> int:
    settings = settings_of(args)
    out = Console(soft_wrap=True, markup=False)  # one line per message, whatever the width; text as written
    if args.mirror_command == "add":
        from citetracer.mirror.filekind import not_jsonl
        from citetracer.mirror.jsonl import add_jsonl

        if not args.file.is_file():
            err.print(f"error: {args.file}: no such file", style="red", highlight=False)
            return EXIT_USAGE
        if what := not_jsonl(args.file):  # said before the store is opened (or created): nothing written
            tail = "" if "`mirror add`" in what else "; `mirror add` reads JSON lines"
            err.print(f"error: {args.file}: {what}{tail}", style="red", highlight=False)
            return EXIT_USAGE
        from citetracer.mirror import declare_doi_prefixes
        from citetracer.store.claims import doi_prefix_kind

        try:
            [doi_prefix_kind(p) for p in args.complete_dois]
        except ValueError as exc:
            err.print(f"error: {exc}", style="red", highlight=False)
            return EXIT_USAGE
        with open_store(settings.store, lock_wait=None, notify=notify(err)) as store:
            report = add_jsonl(store, args.file, args.source, complete=args.complete_venues)
            if report.added:
                declare_doi_prefixes(store, args.source or "local", args.complete_dois)
        for e in report.errors[:20]:
            err.print(f"warning: {e}", style="yellow", highlight=False)
        if len(report.errors) > 20:
            err.print(f"warning: {len(report.errors) - 20} more bad lines", style="yellow")
        resumed = f" (resumed after {report.resumed_from} records an interrupted add had committed)"
        out.print(
            f"added {report.added} records from {args.file} to {display_location(settings.store)}"
            + (resumed if report.resumed_from else ""),
            highlight=False,
        )
        return EXIT_OK if report.added or not report.errors else EXIT_USAGE
    if args.mirror_command == "reindex":
        with open_store(settings.store, lock_wait=None, notify=notify(err)) as store:
            n = store.reindex()
        out.print(f"reindexed {n} records of {display_location(settings.store)}", highlight=False)
        return EXIT_OK
    if args.mirror_command == "setup":
        from citetracer.cli.setup import run_setup

        return run_setup(args, settings, out, err, lambda argv: cmd_mirror(_mirror_parser().parse_args(argv), err))
    if args.mirror_command in ("dblp", "arxiv", "openalex", "acl"):
        from citetracer.cli.ingest import run_acl, run_arxiv, run_dblp, run_openalex

        run = {"dblp": run_dblp, "arxiv": run_arxiv, "openalex": run_openalex, "acl": run_acl}[args.mirror_command]
        return run(args, settings.store, out, err)
    from citetracer.store.gaps import StoreProfile

    with open_store(settings.store) as store:
        stats = store.stats()
        stats["cannot_confirm"] = StoreProfile.of(store).cannot_confirm()  # offline, whatever the paper
    out.print_json(json.dumps(stats))
    return EXIT_OK
