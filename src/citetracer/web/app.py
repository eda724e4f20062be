"""The web app's routes: the form and result pages, the JSON API under /api/, /healthz.

A thin adapter like the CLI: a submission is saved and screened (uploads.py) while the request
waits, then queued (workers.py): its worker unpacks its archives and checks it with the
pipeline's Checker; the pages and the API read the job's state and the
reports its worker wrote (results.py). Errors are said plainly, as JSON under /api/ and as
a page elsewhere, never with a server path or a traceback (those go to the log).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from typing import IO, Annotated, Any

from fastapi import FastAPI, File, Form, Query, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import Scope

from citetracer.config import Settings
from citetracer.extract import parse_page_range
from citetracer.report.html_report import content_security_policy
from citetracer.store.api import unreachable
from citetracer.version import __version__
from citetracer.web import pages
from citetracer.web.jobs import Job, JobStore
from citetracer.web.results import DOWNLOADS, PAGE, pdf_file
from citetracer.web.reviewroutes import add_review_routes
from citetracer.web.security import (
    CSRF_COOKIE,
    CSRF_FIELD,
    BodyLimit,
    CrossSiteRefusal,
    RateLimit,
    RateLimiter,
    SecurityHeaders,
    csrf_ok,
    json_refusal,
    new_csrf_token,
)
from citetracer.web.slowclients import BodyTimeout, quiet_accept_errors
from citetracer.web.storeinfo import StoreInfo
from citetracer.web.uploads import Limits, UploadError, accepted, safe_name, save_text, save_upload, screen
from citetracer.web.workers import Workers

log = logging.getLogger("citetracer.web")
#: Seconds a /healthz answer about the store is reused.
STORE_CHECK_SECONDS = 5.0
#: Multipart framing around the files; the body limit is the upload limit plus this.
FRAMING_BYTES = 256 * 1024


@dataclass
class WebOptions:
    """How the server runs: where jobs live, how long, how many at once, what a client may send."""

    jobs_dir: Path
    keep_hours: float = 24.0
    workers: int = 2
    queue_size: int = 16
    limits: Limits = field(default_factory=Limits)
    #: Submissions per minute per client (burst: `submit_burst`); other requests `reads_per_minute`.
    submits_per_minute: float = 10.0
    submit_burst: int = 10
    reads_per_minute: float = 600.0
    read_burst: int = 120
    #: Seconds between sweeps of expired jobs.
    sweep_seconds: float = 600.0
    #: Seconds an event stream waits after news of its job, to send what came meanwhile in one batch.
    poll_seconds: float = 0.25
    #: Event streams one client (address) may hold open at once; more get 429.
    streams_per_client: int = 8
    #: Seconds a request's body may stall before the request is refused (408).
    body_timeout: float = 30.0
    #: Bytes the jobs folder may hold; beyond them submissions get 507 until jobs expire.
    max_jobs_bytes: int = 10 * 1024**3
    #: A scan's report folder served at /reports/ with its review buttons (`serve --reports DIR`), or None.
    reports_dir: Path | None = None


def _for_tools(path: str) -> bool:
    """Whether a path is the API's (errors in JSON) rather than a page's (errors as a page)."""
    return path.startswith("/api/") or path in ("/healthz", "/openapi.json")


def _error(request: Request, status: int, message: str, headers: Mapping[str, str] | None = None) -> Response:
    """An error as the caller reads it: JSON for the API and /healthz, a page in the site's layout elsewhere."""
    if _for_tools(request.url.path):
        return JSONResponse({"error": message}, status_code=status, headers=headers)
    return HTMLResponse(pages.error_page(status, message), status_code=status, headers=headers)


def refusal(scope: Scope, status: int, message: str) -> tuple[bytes, bytes]:
    """A request refused by a middleware (too large, too many, cross-site, too slow), worded as `_error` words it."""
    if _for_tools(str(scope.get("path", ""))):
        return json_refusal(scope, status, message)
    return b"text/html; charset=utf-8", pages.error_page(status, message).encode()


#: A job's `online` field, as the API describes it.
ONLINE_FIELD = (
    "true: also ask online sources; false: the local store only. Default: the server's own mode; "
    "a server started offline checks every job offline"
)
#: The warning of a job that asked to go online on a server started offline.
OFFLINE_SERVER = "online checks are off on this server (it was started offline): checked against the local store only"

MESSAGES = {
    404: "there is nothing at this address",
    405: "method not allowed",
    409: "not ready",
    413: "too large",
    429: "too many requests",
    507: "no room",
}
#: What a submission with nothing in it is told, by the API and by the form.
NOTHING_API = "nothing to check: send a file (field 'file') or references (field 'text')"
NOTHING_FORM = "nothing to check: choose a file or paste references"


def create_app(settings: Settings, options: WebOptions) -> FastAPI:
    """The app for these check settings and server options (the workers start with it)."""
    jobs = JobStore(options.jobs_dir, options.keep_hours)
    workers = Workers(settings, jobs, options.workers, options.queue_size, options.limits)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        quiet_accept_errors(asyncio.get_running_loop())
        await asyncio.to_thread(workers.start)
        sweeper = asyncio.create_task(_sweep(jobs, options.sweep_seconds))
        try:
            yield
        finally:
            sweeper.cancel()
            await asyncio.to_thread(workers.close)

    app = FastAPI(
        title="citetracer",
        version=__version__,
        description="Find hallucinated references in scientific papers: submit a paper or a bibliography, "
        "get every citation judged Real, Potential or Hallucinated with its evidence "
        "(the report is the JSON of `citetracer check --format json`).",
        docs_url=None,  # the interactive docs load their script from a CDN; /openapi.json is the description
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.jobs, app.state.workers = jobs, workers
    static = resources.files("citetracer.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        message = exc.detail if isinstance(exc.detail, str) else ""
        if not message or message == HTTPStatus(exc.status_code).phrase:  # Starlette's own ('Not Found')
            message = MESSAGES.get(exc.status_code, "error")
        return _error(request, exc.status_code, message, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        where = ", ".join(".".join(str(p) for p in e.get("loc", ())) for e in exc.errors()[:5])
        return _error(request, 422, f"invalid request ({where})")

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> Response:
        log.exception("error serving %s %s", request.method, request.url.path)
        return _error(request, 500, "internal error (logged on the server)")

    def submit(
        uploads: list[UploadFile],
        text: str | None,
        ref_pages: str | None = None,
        online: bool | None = None,
        form: bool = False,
    ) -> Job:
        pages = None
        if ref_pages and ref_pages.strip():
            try:
                pages = parse_page_range(ref_pages)
            except ValueError as exc:
                raise HTTPException(400, f"bibliography pages: {exc}") from None
        files = [u for u in uploads if u.filename]
        if len(files) > options.limits.max_files:
            raise HTTPException(413, f"more than {options.limits.max_files} files; send fewer at once")
        if not files and not (text and text.strip()):
            raise HTTPException(400, NOTHING_FORM if form else NOTHING_API)
        if jobs.usage() >= options.max_jobs_bytes and (jobs.sweep() == 0 or jobs.usage(0) >= options.max_jobs_bytes):
            log.warning("the jobs folder holds its quota (%d bytes): submissions refused", options.max_jobs_bytes)
            raise HTTPException(507, "the server has no room for more jobs now; try again later")
        names = [safe_name(u.filename, i) for i, u in enumerate(files, 1)]
        for name in names:
            if not accepted(name):
                kinds = "PDF, .bib, .bbl, .tex, .ris, CSL .json, zip"
                raise HTTPException(415, f"{name}: not a kind of file citetracer reads ({kinds})")
        wanted = not settings.offline if online is None else online
        job = jobs.create(names or ["pasted text"], online=wanted and not settings.offline)
        try:
            budget = [options.limits.max_bytes]
            saved = [save_upload(u.file, job.input_dir, n, budget) for u, n in zip(files, names, strict=True)]
            if text and text.strip():
                saved.append(save_text(text, job.input_dir))
            kept, problems = screen(job.folder, saved)
        except UploadError as exc:
            jobs.discard(job)
            raise HTTPException(exc.status, str(exc)) from None
        except BaseException:  # an unexpected failure leaves no half-made job "queued" forever
            jobs.discard(job)
            raise
        if wanted and settings.offline:
            problems.insert(0, OFFLINE_SERVER)
        job.update(warnings=problems)
        job.save()
        if not workers.submit(job, kept, pages):
            jobs.discard(job)
            raise HTTPException(503, "the server is busy; try again shortly", headers={"Retry-After": "30"})
        return job

    def get_job(job_id: str) -> Job:
        job = jobs.get(job_id)
        if job is None:
            raise HTTPException(404, "no such job (it may have expired)")
        return job

    # ------------------------------------------------------------------ the API

    @app.post("/api/jobs", status_code=202, tags=["api"], summary="Submit files or pasted references")
    async def api_submit(
        file: Annotated[list[UploadFile] | None, File(description="PDF, .bib, .bbl, .tex, .txt or zip")] = None,
        text: Annotated[str | None, Form(description="references: BibTeX, .bbl or one per line")] = None,
        ref_pages: Annotated[str | None, Form(description="a PDF's bibliography pages, e.g. 12-14")] = None,
        online: Annotated[bool | None, Form(description=ONLINE_FIELD)] = None,
    ) -> dict[str, Any]:
        """Queue a check; answers the job's id at once (poll `GET /api/jobs/{id}`)."""
        job = await asyncio.to_thread(submit, file or [], text, ref_pages, online)
        return {"id": job.id, "status": job.status, "online": job.online, "url": f"/api/jobs/{job.id}"}

    @app.get("/api/jobs/{job_id}", tags=["api"], summary="A job's status, progress and report")
    async def api_job(job_id: str) -> Response:
        """`status` queued|running|done|failed, `progress` {done, total}; `report` (the check JSON) when done."""
        job = get_job(job_id)
        state = job.state()
        if state["status"] != "done":
            return JSONResponse(state)
        try:
            report = await asyncio.to_thread((job.folder / "report.json").open, "rb")
        except OSError:
            raise HTTPException(404, "no such job (it may have expired)") from None
        return StreamingResponse(_with_report(state, report), media_type="application/json")

    @app.get("/api/jobs/{job_id}/report.{ext}", tags=["api"], summary="A finished job's report as a file")
    async def api_report(job_id: str, ext: str) -> Response:
        """`ext`: json (the check JSON), csv, md (Markdown), sarif, html (`check --format html`'s file), bib (the
        corrected BibTeX of a job's one BibTeX file) or bib.zip (one corrected file per BibTeX file, when several)."""
        return report_file(job_id, ext)

    @app.get("/api/jobs/{job_id}/events", tags=["api"], summary="A job's progress as server-sent events")
    async def api_events(
        job_id: str, request: Request, start: Annotated[int, Query(alias="from", ge=0)] = 0
    ) -> StreamingResponse:
        """Events `progress` {done, total, status}, `citation` {n, paper, id, class, code, title}, then `end`."""
        job = get_job(job_id)
        client = request.client.host if request.client else "unknown"
        if streams.get(client, 0) >= options.streams_per_client:
            raise HTTPException(429, f"more than {options.streams_per_client} event streams from this address")
        streams[client] = streams.get(client, 0) + 1
        first = max(start, _last_event_id(request))
        stream = _counted(_events(job, first, options.poll_seconds), streams, client)
        return StreamingResponse(stream, media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    streams: dict[str, int] = {}

    @app.get("/healthz", tags=["api"], summary="200 when the server takes jobs and its store answers")
    async def healthz() -> Response:
        """`status` ok|down, `waiting` (jobs queued), `store` ok or why it does not answer (then 503)."""
        alive = bool(workers.threads) and all(t.is_alive() for t in workers.threads)
        store = await store_health()
        ok = alive and store is None
        body = {"status": "ok" if ok else "down", "waiting": workers.waiting(), "store": store or "ok"}
        return JSONResponse(body, status_code=200 if ok else 503)

    store_seen: list[tuple[float, str | None]] = []
    store_info = StoreInfo(settings.store)

    async def store_health() -> str | None:
        """Whether the store answers, asked at most every STORE_CHECK_SECONDS (healthz is not rate-limited)."""
        now = time.monotonic()
        if not store_seen or now - store_seen[-1][0] > STORE_CHECK_SECONDS:
            store_seen[:] = [(now, await asyncio.to_thread(unreachable, settings.store))]
        return store_seen[-1][1]

    # ------------------------------------------------------------------ the pages

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def index(request: Request) -> Response:
        token = request.cookies.get(CSRF_COOKIE) or ""
        if not 20 <= len(token) <= 200:
            token = new_csrf_token()
        limits = options.limits
        note = "the store is taken as complete (closed world)" if settings.closed_world else ""
        facts = await asyncio.to_thread(store_info.current)
        card = facts.card() if facts is not None else ""
        page = pages.index_page(
            token, limits.max_bytes // (1024 * 1024), limits.max_files, settings.offline, note, card
        )
        response = HTMLResponse(page, headers={"Cache-Control": "no-store"})
        response.set_cookie(
            CSRF_COOKIE, token, httponly=True, samesite="strict", secure=request.url.scheme == "https", path="/"
        )
        return response

    @app.post("/jobs", include_in_schema=False)
    async def form_submit(
        request: Request,
        file: Annotated[list[UploadFile] | None, File()] = None,
        text: Annotated[str | None, Form()] = None,
        csrf_token: Annotated[str | None, Form(alias=CSRF_FIELD)] = None,
        ref_pages: Annotated[str | None, Form()] = None,
        online: Annotated[bool | None, Form()] = None,
    ) -> Response:
        if not csrf_ok(request.cookies.get(CSRF_COOKIE), csrf_token):
            raise HTTPException(403, "the form has expired or did not come from this site: reload it and try again")
        job = await asyncio.to_thread(submit, file or [], text, ref_pages, online, True)
        return RedirectResponse(f"/jobs/{job.id}", status_code=303)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        # an SVG under the name browsers ask for unprompted (the result page, the HTML report, links none)
        return FileResponse(
            str(static / "favicon.svg"), media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    @app.get("/jobs/{job_id}", include_in_schema=False)
    async def job_page(job_id: str) -> Response:
        job = get_job(job_id)
        headers = {"Cache-Control": "no-store"}
        if job.status == "done":
            headers["Content-Security-Policy"] = content_security_policy() + "; frame-ancestors 'none'"
            return FileResponse(job.folder / PAGE, media_type="text/html", headers=headers)
        if job.status == "failed":
            return HTMLResponse(pages.failed_page(job), headers=headers)
        return HTMLResponse(pages.progress_page(job), headers=headers)

    @app.get("/jobs/{job_id}/report.{ext}", include_in_schema=False)
    async def page_report(job_id: str, ext: str) -> Response:
        return report_file(job_id, ext)

    @app.get("/jobs/{job_id}/pdf/{n}", include_in_schema=False)
    async def job_pdf(job_id: str, n: int) -> Response:
        job = get_job(job_id)
        path = pdf_file(job.folder, n)
        if path is None:
            raise HTTPException(404, "no such PDF in this job")
        # the browser's PDF viewer needs its own resources: only framing and plugins elsewhere are refused
        return FileResponse(
            path,
            media_type="application/pdf",
            headers={"Content-Security-Policy": "frame-ancestors 'none'", "Content-Disposition": "inline"},
        )

    add_review_routes(app, get_job, options.reports_dir)

    def report_file(job_id: str, ext: str) -> Response:
        job = get_job(job_id)
        if ext not in DOWNLOADS:
            raise HTTPException(404, f"no report of kind '{ext[:20]}': {', '.join(DOWNLOADS)}")
        if job.status != "done":
            raise HTTPException(409, f"the job is {job.status}; its reports exist once it is done")
        name, media = DOWNLOADS[ext]
        path = job.folder / name
        if not path.is_file():
            raise HTTPException(404, _missing(job, ext))
        disposition = f'attachment; filename="citetracer-report.{ext}"'
        return FileResponse(path, media_type=media, headers={"Content-Disposition": disposition})

    app.add_middleware(BodyTimeout, seconds=options.body_timeout, refusal=refusal)
    app.add_middleware(CrossSiteRefusal, refusal=refusal)
    app.add_middleware(BodyLimit, max_bytes=options.limits.max_bytes + FRAMING_BYTES, refusal=refusal)
    app.add_middleware(
        RateLimit,
        submit=RateLimiter(options.submits_per_minute, options.submit_burst),
        read=RateLimiter(options.reads_per_minute, options.read_burst),
        refusal=refusal,
    )
    app.add_middleware(SecurityHeaders)
    return app


def _missing(job: Job, ext: str) -> str:
    """Why a finished job has no download of this kind (only the corrected BibTeX may be absent)."""
    if ext == "bib" and (job.folder / DOWNLOADS["bib.zip"][0]).is_file():
        return "this job had several BibTeX files: their corrected copies are in report.bib.zip"
    if ext == "bib.zip" and (job.folder / DOWNLOADS["bib"][0]).is_file():
        return "this job had one BibTeX file: its corrected copy is report.bib"
    return "no corrected BibTeX: this job had no BibTeX input"


async def _with_report(state: dict[str, Any], report: IO[bytes]) -> AsyncIterator[bytes]:
    """The job's state with its report.json spliced in as the file's bytes, read in chunks off the event
    loop: a 20,000-citation report is never parsed nor re-serialised to answer a GET (16 such GETs at
    once took 1.9 GB and held /healthz for 60 s)."""
    head = json.dumps(state, ensure_ascii=False)
    try:
        yield (head[:-1] + ', "report": ').encode()
        while chunk := await asyncio.to_thread(report.read, 1 << 20):
            yield chunk
        yield b"}"
    finally:
        report.close()


def _last_event_id(request: Request) -> int:
    value = request.headers.get("last-event-id", "")
    return int(value) + 1 if value.isdigit() and len(value) < 10 else 0


async def _counted(stream: AsyncIterator[str], streams: dict[str, int], client: str) -> AsyncIterator[str]:
    """The stream, counted against its client's open streams until it ends or its client goes."""
    try:
        async for part in stream:
            yield part
    finally:
        streams[client] -= 1
        if not streams[client]:
            del streams[client]


async def _events(job: Job, first: int, pause: float) -> AsyncIterator[str]:
    """The job's news as server-sent events until it ends; a comment every 15 s keeps proxies from closing it.

    Pushed, not polled: the job wakes the stream when it changes; then the stream waits `pause` s
    so that a fast job's citations go out in batches (2,000 streams polling every 0.25 s cost
    18.6 CPU-s in 35 s; idle ones now cost nothing)."""
    sent = max(0, first)
    last: tuple[str, int, int, str] | None = None
    woken = job.watch()
    try:
        while True:
            woken.clear()
            with job.lock:  # the object its worker updates (or, for a job read back from disk, a finished one)
                status, done, total, stage = job.status, job.done, job.total, job.stage
                news = job.events[sent:]
            for i, event in enumerate(news, sent):
                yield f"id: {i}\nevent: citation\ndata: {json.dumps({'n': i, **event}, ensure_ascii=False)}\n\n"
            sent += len(news)
            if (status, done, total, stage) != last:
                last = (status, done, total, stage)
                text = pages.progress_text(status, done, total, stage)
                progress = {"done": done, "total": total, "status": status, "text": text}
                yield f"event: progress\ndata: {json.dumps(progress, ensure_ascii=False)}\n\n"
            if status in ("done", "failed"):
                yield f"event: end\ndata: {json.dumps({'status': status})}\n\n"
                return
            try:
                await asyncio.wait_for(woken.wait(), 15)
            except TimeoutError:
                yield ": still running\n\n"
                continue
            await asyncio.sleep(pause)
    finally:
        job.unwatch(woken)


async def _sweep(jobs: JobStore, every: float) -> None:
    """Delete expired jobs now and then, for as long as the server runs."""
    while True:
        with contextlib.suppress(OSError):
            gone = await asyncio.to_thread(jobs.sweep)
            if gone:
                log.info("deleted %d expired jobs", gone)
        await asyncio.sleep(every)
