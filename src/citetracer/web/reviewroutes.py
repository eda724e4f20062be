"""The routes of the review buttons (web/reviews.py): a job's `decisions`, and a scan folder served at /reports/.

Kept apart from web/app.py's routes so that the app gains them in one line. Answers are JSON (the
buttons' script reads them), never the app's HTML error pages; the scan folder's files are served
read-only from inside the folder (no '..', no hidden file such as its lock or journal's scratch),
its index with the HTML report's own Content-Security-Policy.
"""

from __future__ import annotations

import json
import mimetypes
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, RedirectResponse, Response

from citetracer.report.html_report import content_security_policy
from citetracer.web.reviews import FolderReviews, JobReviews, answer_get, answer_post

#: What the folder's files are served as (others: their guessed type, else a download).
MEDIA = {
    ".html": "text/html; charset=utf-8",
    ".csv": "text/csv; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".json": "application/json",
    ".jsonl": "application/x-ndjson",
    ".sarif": "application/sarif+json",
    ".pdf": "application/pdf",
}


def _json(status: int, body: str, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status_code=status, media_type="application/json", headers=headers)


def add_review_routes(app: FastAPI, get_job: Callable[[str], Any], reports_dir: Path | None) -> None:
    """Add the job's decisions routes, and the scan folder's when `reports_dir` is given."""

    @app.get("/jobs/{job_id}/decisions", include_in_schema=False)
    async def job_decisions(job_id: str, fmt: Annotated[str, Query(alias="format")] = "json") -> Response:
        job = get_job(job_id)
        return await _listing(JobReviews(job.folder), fmt)

    @app.post("/jobs/{job_id}/decisions", include_in_schema=False)
    async def job_decide(job_id: str, request: Request) -> Response:
        job = get_job(job_id)
        if job.status != "done":
            return _json(409, json.dumps({"error": f"the job is {job.status}; decide once it is done"}))
        status, body = await answer_post(JobReviews(job.folder), await request.body())
        return _json(status, body, {"Cache-Control": "no-store"})

    if reports_dir is None:
        return
    folder = reports_dir.resolve()
    reviews = FolderReviews(folder)
    app.state.folder_reviews = reviews

    @app.get("/reports", include_in_schema=False)
    async def reports_root() -> Response:
        return RedirectResponse("/reports/index.html", status_code=307)

    @app.get("/reports/decisions", include_in_schema=False)
    async def folder_decisions(fmt: Annotated[str, Query(alias="format")] = "json") -> Response:
        return await _listing(reviews, fmt)

    @app.post("/reports/decisions", include_in_schema=False)
    async def folder_decide(request: Request) -> Response:
        status, body = await answer_post(reviews, await request.body())
        return _json(status, body, {"Cache-Control": "no-store"})

    @app.get("/reports/{path:path}", include_in_schema=False)
    async def folder_file(path: str) -> Response:
        parts = [p for p in path.split("/") if p]
        target = folder.joinpath(*parts).resolve() if parts else folder / "index.html"
        if any(p.startswith(".") for p in parts) or not target.is_relative_to(folder) or not target.is_file():
            return _json(404, json.dumps({"error": "there is nothing at this address"}))
        suffix = target.suffix.lower()
        media = MEDIA.get(suffix) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        headers = {"Cache-Control": "no-store"}
        if suffix == ".html":  # the report's own policy: its hashed style and script, its server's decisions
            headers["Content-Security-Policy"] = content_security_policy() + "; frame-ancestors 'none'"
        elif suffix == ".pdf":
            headers["Content-Security-Policy"] = "frame-ancestors 'none'"
        return FileResponse(target, media_type=media, headers=headers)


async def _listing(reviews: JobReviews | FolderReviews, fmt: str) -> Response:
    status, media, body = await answer_get(reviews, fmt == "csv")
    headers = {"Cache-Control": "no-store"}
    if fmt == "csv" and status == 200:
        headers["Content-Disposition"] = 'attachment; filename="citetracer-decisions.csv"'
    return Response(body, status_code=status, media_type=media, headers=headers)
