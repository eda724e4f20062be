"""`citetracer serve`: the web app (web/ does the work), started after its flags and the store are checked.

Part of the CLI front end.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from citetracer.cli.common import EXIT_OK, EXIT_USAGE, FORMATTER, check_settings, settings_arguments
from citetracer.cli.extras import require
from citetracer.config import Settings
from citetracer.pipeline import Checker


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """The `serve` command's arguments."""
    serve = sub.add_parser(
        "serve",
        parents=[common, settings_arguments(reports=False)],
        help="run the web app: upload papers in a browser, or call its JSON API",
        description="Run the web app (needs the web extra: pip install 'citetracer[web]'): a page to upload a "
        "PDF, .bib, .bbl, .tex or zip, or paste references, with live progress and the HTML report; a JSON API "
        "under /api/ (described at /openapi.json); /healthz. Jobs and their reports are kept in web-jobs/ beside "
        "the store for --keep-hours.",
        formatter_class=FORMATTER,
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
    _add_limits(serve)
    serve.set_defaults(handler=cmd_serve)


def _add_limits(serve: argparse.ArgumentParser) -> None:
    """How long jobs are kept, and the bounds on the work, disk and clients a server takes."""
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
    settings = check_settings(args)
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


def _jobs_dir(settings: Settings) -> Path:
    """The web app's job folders: beside a store file, or in the user data dir for a shared (PostgreSQL) store."""
    if isinstance(settings.store, Path):
        return settings.store.parent / "web-jobs"
    from platformdirs import user_data_dir

    return Path(user_data_dir("citetracer")) / "web-jobs"
