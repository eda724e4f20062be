"""Command line: `citetracer check|scan|review|serve|extract|venues|mirror`. A thin adapter over the pipeline.

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
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO

from rich.console import Console
from rich.text import Text

from citetracer import __version__
from citetracer.cli.argparser import SuggestingParser
from citetracer.cli.extras import MissingExtra, missing_extra, require
from citetracer.cli.progress import CheckProgress, ScanProgress
from citetracer.collect.paperfetch import looks_like_paper_id
from citetracer.config import SEGMENTERS, ConfigError, Settings, is_store_url, load_settings
from citetracer.extract import InputError, PageRange, ReadResult, parse_page_range, read_references
from citetracer.mirror.download import DBLP_URL, OPENALEX_URL
from citetracer.mirror.setup import FIELDS
from citetracer.pipeline import Checker
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
from citetracer.report.views import SHOW_CHOICES, in_reading_order, paper_counts, visible
from citetracer.store.api import display_location, open_store
from citetracer.store.db import StoreBusy, StoreError
from citetracer.store.index import PANICS

EXIT_OK, EXIT_HALLUCINATED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
#: What is a bug when it reaches `main`: any exception, and a Rust library's panic (pyo3 makes it a
#: BaseException, which went past `except Exception` as a traceback and exit code 1, "Hallucinated found").
BUGS: tuple[type[BaseException], ...] = (Exception, *PANICS)
EXIT_CODES = """exit codes:
  0  nothing Hallucinated (or --exit-zero)
  1  at least one citation is Hallucinated
  2  usage or input error: nothing at all could be read (other inputs are still checked,
     each problem reported on one line), or the store was kept busy by another process
  3  internal failure (a bug): one line on stderr, the traceback with CITETRACER_DEBUG=1
"""
FORMATS = ["table", "json", "jsonl", "markdown", "html", "csv", "sarif"]
#: Formats written citation by citation as judged (report/stream.py); the terminal table takes whole reports.
STREAMED = ("json", "jsonl", "csv", "sarif", "html", "markdown")
#: Each format's name in the line `check -o FILE` ends with ("... ; HTML report written to FILE").
FORMAT_NAMES = {"table": "table", "json": "JSON", "jsonl": "JSONL", "markdown": "Markdown", "html": "HTML",
                "csv": "CSV", "sarif": "SARIF"}  # fmt: skip
SORTS = ("attention", "id")


def _settings_arguments(reports: bool = True) -> SuggestingParser:
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
    _add_segmenter(p)
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


def _page_range(text: str) -> PageRange:
    try:
        return parse_page_range(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def _add_ref_pages(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ref-pages",
        type=_page_range,
        metavar="FIRST-LAST",
        help="the PDF's bibliography is on these pages (e.g. 12-14): overrides the region found",
    )


def _add_segmenter(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--segmenter",
        choices=SEGMENTERS,
        default=None,
        help="which segmenter cuts a PDF's bibliography into references: auto (the learned one unless the "
        "plausibility checks prefer the rules'), rules-first, model or rules (default: auto; config segmenter, "
        "$CITETRACER_SEGMENTER)",
    )


def _store_arg(value: str) -> Path | str:
    """`--store`: a PostgreSQL URL stays as written, anything else is a file path."""
    return value if is_store_url(value) else Path(value)


def _parser() -> argparse.ArgumentParser:
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
    checking = _settings_arguments()
    fmt = argparse.RawDescriptionHelpFormatter

    p = SuggestingParser(
        prog="citetracer", description="Find hallucinated references in papers.", epilog=EXIT_CODES, formatter_class=fmt
    )
    p.add_argument("--version", action="version", version=f"citetracer {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = sub.add_parser(
        "check",
        parents=[common, checking],
        help="verify every citation of one or more files",
        description="Verify every citation of one or more files (PDF, .bib, .bbl, .tex, text, JSONL, and "
        "reference managers' RIS and CSL-JSON exports).",
        epilog=EXIT_CODES,
        formatter_class=fmt,
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
    _add_ref_pages(check)

    scan = sub.add_parser(
        "scan",
        parents=[common, checking],
        help="check many papers (folders, list files, zip/tar archives) into one report folder",
        description="Check many papers into DIR: index.html (summary and every paper), summary.csv, "
        "citations.csv, summary.md, papers/NAME.json (the check JSON of each paper), results.sarif "
        "(BibTeX/LaTeX inputs) and journal.jsonl. A killed scan continues where it stopped when run "
        "again with the same -o DIR.",
        epilog=EXIT_CODES,
        formatter_class=fmt,
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

    serve = sub.add_parser(
        "serve",
        parents=[common, _settings_arguments(reports=False)],
        help="run the web app: upload papers in a browser, or call its JSON API",
        description="Run the web app (needs the web extra: pip install 'citetracer[web]'): a page to upload a "
        "PDF, .bib, .bbl, .tex or zip, or paste references, with live progress and the HTML report; a JSON API "
        "under /api/ (described at /openapi.json); /healthz. Jobs and their reports are kept in web-jobs/ beside "
        "the store for --keep-hours.",
        formatter_class=fmt,
    )
    serve.add_argument(
        "--reports",
        type=Path,
        metavar="DIR",
        help="also serve a scan's report folder at /reports/, its index with the buttons to dismiss or confirm "
        "citations (kept in DIR/decisions.jsonl, as `citetracer review DIR` keeps them)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    serve.add_argument(
        "--jobs-dir",
        type=Path,
        metavar="DIR",
        help="where jobs and their reports are kept (default: web-jobs/ beside the store)",
    )
    serve.add_argument(
        "--keep-hours", type=float, default=24.0, metavar="H", help="delete jobs this long after they end (default: 24)"
    )
    serve.add_argument("--workers", type=int, default=2, metavar="N", help="jobs checked at once (default: 2)")
    serve.add_argument(
        "--queue", type=int, default=16, metavar="N", help="jobs that may wait; more are refused with 503 (default: 16)"
    )
    serve.add_argument(
        "--max-upload-mb", type=int, default=50, metavar="MB", help="largest submission, files together (default: 50)"
    )
    serve.add_argument(
        "--max-files", type=int, default=20, metavar="N", help="most files in one submission (default: 20)"
    )
    serve.add_argument(
        "--max-jobs-mb",
        type=int,
        default=10240,
        metavar="MB",
        help="disk the jobs folder may use; beyond it submissions get 507 until jobs expire (default: 10240)",
    )
    serve.add_argument(
        "--max-connections",
        type=int,
        default=512,
        metavar="N",
        help="connections at once; requests beyond them get 503 (default: 512; raises ulimit -n to fit)",
    )
    serve.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds a client has to send a request's headers; slower ones are closed (default: 10)",
    )
    serve.add_argument(
        "--body-timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds a request's body may stall; then 408 (default: 30)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="addresses of your reverse proxies (comma-separated, or '*'): only their X-Forwarded-For is "
        "believed, for the per-client rate limit (default: nobody's)",
    )
    serve.add_argument(
        "--submits-per-minute",
        type=float,
        default=10.0,
        metavar="N",
        help="submissions a client (address) may make per minute, in bursts of up to 10; more get 429 (default: 10)",
    )

    extract = sub.add_parser(
        "extract",
        parents=[common],
        help="print the references found in a file",
        description="Print the references found in a file, without checking them.",
    )
    extract.add_argument("file", type=Path, metavar="FILE", help="paper or bibliography to read")
    extract.add_argument("--format", choices=["table", "json"], default="table", help="output format")
    extract.add_argument("-o", "--output", type=Path, metavar="OUT", help="write here instead of stdout")
    _add_ref_pages(extract)
    _add_segmenter(extract)

    from citetracer.cli.review import add_parser as add_review

    add_review(sub, common)

    venues = sub.add_parser(
        "venues",
        parents=[common],
        help="say what a venue string is (a known venue, close to one, or in no list)",
        description="Say what the venue knowledge base makes of venue strings: the known venue and the list "
        "that knows it, the nearest listed name, or none (what a venue verdict rests on).",
    )
    venues.add_argument("names", nargs="+", metavar="NAME", help="venue strings as cited")
    venues.add_argument("--format", choices=["table", "json"], default="table", help="output format")
    venues.add_argument("--no-store", action="store_true", help="the packaged lists only, not the store's names")

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
    return p


def _add_complete_dois(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--complete-doi-prefix", dest="complete_dois", action="append", default=[], metavar="PREFIX",
        help="the records hold every DOI under PREFIX registered before today (e.g. 10.18653/v1 for all of the "
        "ACL Anthology): a cited DOI under it that they lack is then no DOI at all",
    )  # fmt: skip


def _settings(args: argparse.Namespace, **flags: object) -> Settings:
    settings = load_settings(getattr(args, "config", None), store=getattr(args, "store", None), **flags)
    if is_store_url(settings.store):
        require("postgres", "a PostgreSQL store")
    return settings


def _open_out(stack: ExitStack, path: Path | None) -> IO[str]:
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


def _check_settings(args: argparse.Namespace) -> Settings:
    llm = {"base_url": "" if args.no_llm else args.llm, "model": args.llm_model, "vision_model": args.llm_vision_model}
    online = {
        "connectors": [c.strip() for c in args.connectors.split(",") if c.strip()] if args.connectors else None,
        "http_cache": "" if args.no_http_cache else None,
    }
    return _settings(
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


def _context(settings: Settings) -> str:
    """What a report's reader needs to know about how it was checked."""
    mode = "offline (local store only)" if settings.offline else "online sources allowed"
    return f"{mode} · store {display_location(settings.store)}" + (" · closed world" if settings.closed_world else "")


def cmd_check(args: argparse.Namespace, err: Console) -> int:
    settings = _check_settings(args)
    if settings.llm.base_url and not settings.llm.model:
        err.print("warning: an LLM endpoint is set but no model (--llm-model): agents are off", style="yellow")
    if args.output is not None and not args.output.parent.is_dir():  # say so now, not after all the work
        err.print(f"error: {args.output}: no such directory {args.output.parent}", style="red", highlight=False)
        return EXIT_USAGE
    if args.format in STREAMED:
        return _check_streaming(args, settings, err)
    reports: list[Report] = []
    said: set[str] = set()
    checker = Checker(settings)
    try:
        with CheckProgress(err, enabled=_any_pdf(args.files)) as progress:
            for given in args.files:
                progress.reading(Path(given))
                try:
                    read, name = _read_input(given, args, settings)
                except InputError as exc:
                    progress.console.print(f"error: {exc}", style="red", highlight=False)
                    continue
                _say_store_note(checker, progress.console, said)
                for warning in read.warnings:
                    progress.console.print(f"warning: {warning}", style="yellow", highlight=False)
                progress.checking(len(read.references))
                report = checker.check_read(read, name, on_done=progress.citation_done)
                reports.append(report)
                _say_store_warnings(report.store_warnings, progress.console, said)
                progress.paper_done()
    finally:
        checker.close()
    if not reports:
        return EXIT_USAGE
    with ExitStack() as stack:
        out = _open_out(stack, args.output)
        write_reports(reports, args, out, _context(settings))
    if args.output is not None:
        totals = {k: sum(r.summary()[k] for r in reports) for k in ("total", "real", "potential", "hallucinated")}
        _say_written(totals, args, err)
    if args.fix is not None:
        write_fixed_bibtex(reports, args.fix, err)
    if args.exit_zero:
        return EXIT_OK
    return EXIT_HALLUCINATED if any(r.has_hallucinated for r in reports) else EXIT_OK


def _any_pdf(inputs: list[str]) -> bool:
    """Whether a progress bar is worth it: a PDF, or a paper fetched by its identifier (a PDF too)."""
    return any(x.lower().endswith(".pdf") or looks_like_paper_id(x) for x in inputs)


def _read_input(given: str, args: argparse.Namespace, settings: Settings) -> tuple[ReadResult, str]:
    """The references of one `check` input and the name its report gets: a file, or a paper named by an
    identifier or URL, fetched as a PDF (collect/paperfetch.py; online only) and read like a file."""
    path = Path(given)
    if path.exists() or not looks_like_paper_id(given):
        return read_references(path, args.ref_pages, settings.segmenter), str(path)
    from citetracer.collect.paperfetch import fetch_to_temp

    pdf, folder = fetch_to_temp(given, settings)
    try:
        return read_references(pdf, args.ref_pages, settings.segmenter), given.strip()
    finally:
        folder.cleanup()


def _say_store_note(checker: Checker, err: Console, said: set[str]) -> None:
    """Say once, when there is something to check, what the store cannot do offline (empty, no complete
    source); every report carries it too, once, as the store's (pipeline.store_note, report/storenotes.py)."""
    _say_store_warnings([checker.store_note] if checker.store_note else [], err, said)


def _say_store_warnings(warnings: list[str], err: Console, said: set[str]) -> None:
    """The store's warnings not said yet in this run, one line each: `store warning: ...` (the store's, not the
    paper's: a newest snapshot older than the cited years is said for the paper whose citations it touches)."""
    for note in warnings:
        if note not in said:
            err.print(f"store warning: {note}", style="yellow", highlight=False)
            said.add(note)


def _say_written(totals: dict[str, int], args: argparse.Namespace, err: Console) -> None:
    """`check -o FILE`: the one line a terminal gets (the report went to the file): the counts and where."""
    err.print(
        f"{totals['total']} citations: {totals['real']} Real, {totals['potential']} Potential, "
        f"{totals['hallucinated']} Hallucinated; {FORMAT_NAMES[args.format]} report written to {args.output}",
        highlight=False,
    )


def _stream_writer(args: argparse.Namespace, settings: Settings, out: IO[str]) -> JsonlStream:
    """The report/stream.py writer of `args.format`."""
    if args.format == "json":
        return JsonStream(out, __version__, len(args.files) > 1)
    if args.format == "csv":
        return CsvStream(out, __version__, args.show or "all", args.sort)
    if args.format == "sarif":
        return SarifStream(out, __version__)
    if args.format == "html":
        return HtmlStream(out, __version__, _html_report(args, out, [str(p) for p in args.files], _context(settings)))
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


def _check_streaming(args: argparse.Namespace, settings: Settings, err: Console) -> int:
    """`check` with a report written citation by citation (STREAMED formats): none is kept
    (report/stream.py), so memory stays that of the citations in flight however many there are;
    `--fix` keeps what the corrected BibTeX needs of each in a scratch file, not in memory."""
    read_any = False
    said: set[str] = set()
    checker = Checker(settings)
    try:
        with ExitStack() as stack:
            out = _open_out(stack, args.output)
            writer = _stream_writer(args, settings, out)
            fixes = _fix_collector(stack) if args.fix is not None else None
            on_result: Callable[[CitationResult], None] = writer.citation
            if fixes is not None:
                on_result = _both(writer.citation, fixes.citation)
            with CheckProgress(err, enabled=_any_pdf(args.files)) as progress:
                for given in args.files:
                    progress.reading(Path(given))
                    try:
                        read, name = _read_input(given, args, settings)
                    except InputError as exc:
                        progress.console.print(f"error: {exc}", style="red", highlight=False)
                        continue
                    _say_store_note(checker, progress.console, said)
                    for warning in read.warnings:
                        progress.console.print(f"warning: {warning}", style="yellow", highlight=False)
                    read_any = True
                    progress.checking(len(read.references))
                    writer.begin(name, read.warnings)
                    if fixes is not None:
                        fixes.begin(name)
                    report = checker.check_read(read, name, on_done=progress.citation_done, on_result=on_result)
                    writer.end(report.warnings, report.store_warnings)
                    for note in [w for w in report.warnings if w not in read.warnings and w not in said]:
                        progress.console.print(f"warning: {note}", style="yellow", highlight=False)
                    _say_store_warnings(report.store_warnings, progress.console, said)
                    progress.paper_done()
            writer.close()
            if fixes is not None and read_any:
                _write_fixes(fixes, args.fix, err)
    finally:
        checker.close()
    if not read_any:
        return EXIT_USAGE
    if args.output is not None:
        _say_written({k: writer.totals[k] for k in ("total", "real", "potential", "hallucinated")}, args, err)
    if args.exit_zero:
        return EXIT_OK
    return EXIT_HALLUCINATED if writer.hallucinated else EXIT_OK


def _fix_collector(stack: ExitStack) -> FixCollector:
    """A FixCollector whose scratch file lives (and goes) with `stack`."""
    import tempfile

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
        fixes.write(_open_out(stack, target))
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
            markdown.end(r.warnings, r.store_warnings)
    elif args.format == "html":
        html = _html_report(args, out, [r.input for r in reports], context)
        html.begin()
        for r in reports:
            html.begin_paper(r.input, pdf=_local_pdf(r.input), warnings=r.warnings)
            for c in r.citations:
                html.citation(c)
            html.end_paper(paper_counts(r), store_warnings=r.store_warnings)
        html.end()
    elif args.format == "csv":
        rows = CitationCsv(out)
        for r in reports:
            shown = visible(r.citations, show)  # every citation: data in input order; flagged: H, P3, P2 first
            for c in in_reading_order(shown) if sort == "attention" or (sort is None and show == "flagged") else shown:
                rows.add(r.input, c)
    elif args.format == "sarif":
        sarif = SarifWriter(out)
        sarif.begin()
        for r in reports:
            for w in r.warnings:
                sarif.note(w)
            for w in r.store_warnings:
                sarif.store_note(w)
            for c in r.citations:
                sarif.add(r.input, c)
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


def cmd_scan(args: argparse.Namespace, err: Console) -> int:
    from citetracer.scan import ScanError, ScanOptions, run_scan
    from citetracer.scan.journal import JournalError
    from citetracer.scan.pool import PoolError, default_workers

    if args.cluster:  # before the store and the scan's journal are made
        require("cluster", "--cluster")
    settings = _check_settings(args)
    if args.workers is not None and args.workers < 1:
        err.print("error: --workers must be at least 1", style="red")
        return EXIT_USAGE
    checker = Checker(settings)  # opens (or creates) the store as the workers will, and says what it lacks
    _say_store_note(checker, err, set())
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
        with ScanProgress(err) as progress:
            outcome = run_scan(paths, settings, options, progress=progress, context=_context(settings))
    except (ScanError, JournalError, PoolError) as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return EXIT_USAGE
    for problem in outcome.problems:
        err.print(f"warning: {problem}", style="yellow", highlight=False)
    for e in outcome.unchecked:
        err.print(f"warning: {e.file}: not checked: {e.error}", style="yellow", highlight=False)
    done = [e for e in outcome.entries if e.status == "done"]
    failed = [e for e in outcome.entries if e.status == "failed"]  # the check failed: store, worker, time
    summary = (
        f"{len(outcome.entries)} papers ({outcome.checked_now} checked now, {outcome.resumed} from the journal"
        + (f", {len(failed)} failed" if failed else "")
        + f"): {sum(e.references for e in done)} references, {outcome.hallucinated_papers} papers with "
        f"Hallucinated citations"
        + (f" ({outcome.decisions})" if outcome.decisions else "")
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
    if not done:
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


def cmd_serve(args: argparse.Namespace, err: Console) -> int:
    """`citetracer serve`: check that the store opens, then serve until interrupted."""
    require("web", "the web app")
    from citetracer.web.app import WebOptions
    from citetracer.web.server import Listen, serve
    from citetracer.web.uploads import Limits

    if (
        min(args.workers, args.queue, args.max_upload_mb, args.max_files, args.max_connections, args.max_jobs_mb) < 1
        or min(args.keep_hours, args.header_timeout, args.body_timeout) <= 0
    ):
        err.print(
            "error: --workers, --queue, --max-upload-mb, --max-files, --max-connections, --max-jobs-mb, --keep-hours, "
            "--header-timeout, --body-timeout must be positive",
            style="red",
        )
        return EXIT_USAGE
    if args.reports is not None:
        from citetracer.scan.decide import Folder, FolderError

        try:
            Folder(args.reports)
        except FolderError as exc:
            err.print(f"error: --reports: {exc}", style="red", highlight=False)
            return EXIT_USAGE
    settings = _check_settings(args)
    Checker(settings).close()  # a store that cannot be opened is a clear error now, not a failed startup
    options = WebOptions(
        jobs_dir=args.jobs_dir or _jobs_dir(settings),
        keep_hours=args.keep_hours,
        workers=args.workers,
        queue_size=args.queue,
        limits=Limits(max_bytes=args.max_upload_mb * 1024 * 1024, max_files=args.max_files),
        submits_per_minute=args.submits_per_minute,
        body_timeout=args.body_timeout,
        max_jobs_bytes=args.max_jobs_mb * 1024 * 1024,
        reports_dir=args.reports,
    )
    listen = Listen(
        host=args.host,
        port=args.port,
        max_connections=args.max_connections,
        header_timeout=args.header_timeout,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    serve(settings, options, listen)
    return EXIT_OK


def cmd_extract(args: argparse.Namespace, err: Console) -> int:
    segmenter = load_settings(args.config, segmenter=args.segmenter).segmenter
    try:
        read = read_references(args.file, args.ref_pages, segmenter)
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
            console = Console(file=out, markup=False) if args.output else Console(markup=False)
            for i, r in enumerate(read.references, 1):
                authors = "; ".join(p.display() for p in r.authors) + (" et al." if r.et_al else "")
                line = Text.assemble(
                    (str(r.label or i), "bold"),
                    f" {authors} ({r.year}) ",
                    (r.title or "", "italic"),
                    f" {r.venue or ''} {r.doi or ''} {r.arxiv_id or ''}",
                )
                console.print(line, highlight=False)
    return EXIT_OK


def cmd_mirror(args: argparse.Namespace, err: Console) -> int:
    settings = _settings(args)
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
        with open_store(settings.store, lock_wait=None, notify=_notify(err)) as store:
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
        with open_store(settings.store, lock_wait=None, notify=_notify(err)) as store:
            n = store.reindex()
        out.print(f"reindexed {n} records of {display_location(settings.store)}", highlight=False)
        return EXIT_OK
    if args.mirror_command == "setup":
        from citetracer.cli.setup import run_setup

        return run_setup(args, settings, out, err, lambda argv: cmd_mirror(_parser().parse_args(argv), err))
    if args.mirror_command in ("dblp", "arxiv", "openalex", "acl"):
        from citetracer.cli.mirror import run_acl, run_arxiv, run_dblp, run_openalex

        run = {"dblp": run_dblp, "arxiv": run_arxiv, "openalex": run_openalex, "acl": run_acl}[args.mirror_command]
        return run(args, settings.store, out, err)
    from citetracer.store.gaps import StoreProfile

    with open_store(settings.store) as store:
        stats = store.stats()
        stats["cannot_confirm"] = StoreProfile.of(store).cannot_confirm()  # offline, whatever the paper
    out.print_json(json.dumps(stats))
    return EXIT_OK


def _jobs_dir(settings: Settings) -> Path:
    """The web app's job folders: beside a store file, or in the user data dir for a shared (PostgreSQL) store."""
    if isinstance(settings.store, Path):
        return settings.store.parent / "web-jobs"
    from platformdirs import user_data_dir

    return Path(user_data_dir("citetracer")) / "web-jobs"


def _notify(err: Console) -> Callable[[str], None]:
    """How a command tells the user, once, that it waits for another writer of the store."""

    def say(message: str) -> None:
        err.print(message, style="yellow", highlight=False)

    return say


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # soft_wrap: one line per problem whatever the width (rich wraps at 80 columns off a terminal,
    # which breaks log parsers that read one message per line).
    # markup=False: messages carry file names, titles and install hints ("citetracer[pdf]") that Rich
    # would read as markup tags and drop; styles are given with style=, never inside the text.
    err = Console(stderr=True, soft_wrap=True, markup=False)
    try:
        if args.command == "check":
            return cmd_check(args, err)
        if args.command == "scan":
            return cmd_scan(args, err)
        if args.command == "extract":
            return cmd_extract(args, err)
        if args.command == "serve":
            return cmd_serve(args, err)
        if args.command == "review":
            from citetracer.cli.review import cmd_review

            return cmd_review(args, err)
        if args.command == "venues":
            from citetracer.cli.venues import cmd_venues

            return cmd_venues(args, _settings(args), Console(soft_wrap=True), err)
        return cmd_mirror(args, err)
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
