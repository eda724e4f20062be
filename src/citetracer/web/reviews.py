"""The review buttons' server side (issue 44): a chair's calls from the result page and from a scan's report.

Two report folders take decisions: a web job's folder (its result page, `/jobs/ID`) and, with
`citetracer serve --reports DIR`, a scan's report folder (its `index.html`, served at `/reports/`).
Both keep the calls in the folder's `decisions.jsonl` (report/decisions.py: appended under a lock,
so the page, a second chair's page and `citetracer review` never lose one another's), and answer
at `decisions` beside the page:

- `GET` -> `{"decisions": [{paper, id, action, reason, by, at, code}, ...]}`, the calls in force with
  each citation's id in this run (`?format=csv`: the export, as a scan's `decisions.csv`);
- `POST {paper, id, action: dismissed|confirmed|cleared, reason, code, by}` -> `{"decision": {...}}`
  (`null` once cleared), or `{"error"}` with 400 (a call that cannot be made) or 404 (no such citation).

A scan folder's reports are built again after each call, in the background, one rebuild at a time
(scan/decide.py); a job's page is static and its script shows the calls it reads from `GET`.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import threading
from pathlib import Path
from typing import Any

from citetracer.records import CitationResult, Report
from citetracer.report.csv_report import cell
from citetracer.report.decisions import (
    EXPORT_COLUMNS,
    Call,
    DecisionBook,
    DecisionError,
    export_row,
    make_call,
    reference_key,
)
from citetracer.scan.decide import Folder, FolderError

log = logging.getLogger("citetracer.web")
#: Largest decision a page may send (a reason is capped at 500 characters).
MAX_BODY = 16 * 1024


class ReviewError(Exception):
    """A call that cannot be made; `status` is the HTTP status that says why (400, 404)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def parse_body(body: bytes) -> dict[str, str]:
    """The fields of a POSTed decision, as strings; ReviewError when the body is not one."""
    if len(body) > MAX_BODY:
        raise ReviewError("a decision is a few fields, not this much")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ReviewError("send the decision as JSON: {paper, id, action, reason, code}") from None
    if not isinstance(data, dict):
        raise ReviewError("send the decision as a JSON object")
    fields = {k: data.get(k) for k in ("paper", "id", "action", "reason", "code", "by")}
    if not all(v is None or isinstance(v, str) for v in fields.values()):
        raise ReviewError("every field of a decision is a string")
    out = {k: v or "" for k, v in fields.items()}
    if not out["paper"] or not out["id"] or not out["action"]:
        raise ReviewError("a decision names its paper, its citation id and its action")
    return out


def as_json(call: Call | None, c: CitationResult | None, paper: str) -> dict[str, Any] | None:
    """A call as the page reads it (None: no call in force)."""
    if call is None or c is None:
        return None
    return {
        "paper": paper,
        "id": c.id,
        "action": call.action,
        "reason": call.reason,
        "by": call.by,
        "at": call.at,
        "code": call.code,
    }


def export_csv(rows: list[dict[str, Any]]) -> str:
    """The decisions export as plain CSV (the columns of a scan's decisions.csv)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EXPORT_COLUMNS)
    for row in rows:
        writer.writerow([cell(row[k]) for k in EXPORT_COLUMNS])
    return out.getvalue()


class JobReviews:
    """The calls on one web job's citations (its folder's decisions.jsonl; papers named as the page shows them)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.book = DecisionBook(folder)

    def _reports(self) -> list[Report]:
        try:
            doc = json.loads((self.folder / "report.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise ReviewError("this job has no report yet", 404) from None
        docs = doc if isinstance(doc, list) else [doc]
        out = []
        for d in docs:
            if isinstance(d, dict):
                citations = [CitationResult.model_validate(c) for c in d.get("citations", [])]
                out.append(
                    Report(version=str(d.get("citetracer", "")), input=str(d.get("input", "")), citations=citations)
                )
        return out

    def listing(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The calls in force as the page reads them, and as exported."""
        decisions = self.book.current()
        page: list[dict[str, Any]] = []
        found: dict[int, CitationResult] = {}
        for report in self._reports():
            for c in decisions.apply(report, report.input).citations:
                call = decisions.find(report.input, "", reference_key(c.reference)) if c.decision else None
                if call is not None:
                    found.setdefault(id(call), c)
                    page.append(as_json(call, c, report.input) or {})
        return page, [export_row(call, found.get(id(call))) for call in decisions.in_force()]

    def decide(self, fields: dict[str, str]) -> dict[str, Any] | None:
        decisions = self.book.current()
        for report in self._reports():
            if report.input != fields["paper"]:
                continue
            for c in decisions.apply(report, report.input).citations:
                if c.id == fields["id"]:
                    try:
                        call = make_call(
                            report.input,
                            "",
                            c,
                            fields["action"],
                            fields["reason"],
                            fields["by"],
                            fields["code"] or None,
                        )
                    except DecisionError as exc:
                        raise ReviewError(str(exc)) from None
                    self.book.record([call])
                    return as_json(call if call.action != "cleared" else None, c, report.input)
        raise ReviewError(f"no citation {fields['id']!r} in {fields['paper']!r}", 404)


class FolderReviews:
    """The calls on a scan's report folder (`serve --reports DIR`), its reports rebuilt after each one."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        Folder(folder)  # a folder that is not a scan's is a clear error at startup, not at the first click
        self._lock = threading.Lock()
        self._running = False
        self._again = False

    def listing(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        folder = Folder(self.folder)
        page: list[dict[str, Any]] = []
        found: dict[int, CitationResult] = {}
        for f in folder.citations():
            c = f.citation
            if c.decision is None:
                continue
            call = folder.decisions.find(f.entry.file, f.entry.key, reference_key(c.reference))
            if call is not None:
                found.setdefault(id(call), c)
                page.append(as_json(call, c, f.entry.name) or {})
        return page, [export_row(call, found.get(id(call))) for call in folder.decisions.in_force()]

    def decide(self, fields: dict[str, str]) -> dict[str, Any] | None:
        folder = Folder(self.folder)
        try:
            found = folder.find(fields["paper"], fields["id"])
        except FolderError as exc:
            raise ReviewError(str(exc), 404) from None
        try:
            call, now = folder.call(found, fields["action"], fields["reason"], fields["by"], fields["code"] or None)
        except DecisionError as exc:
            raise ReviewError(str(exc)) from None
        self.rebuild()
        return as_json(call if call.action != "cleared" else None, now, found.entry.name)

    def rebuild(self) -> None:
        """Build the folder's reports again in the background; calls made meanwhile are in the next build."""
        with self._lock:
            if self._running:
                self._again = True
                return
            self._running = True
        threading.Thread(target=self._rebuild, name="citetracer-rebuild", daemon=True).start()

    def _rebuild(self) -> None:
        while True:
            try:
                if not Folder(self.folder).rebuild():
                    log.info("%s is being written by a scan: it applies the decisions itself", self.folder)
            except (OSError, ValueError, FolderError):
                log.exception("rebuilding the reports of %s", self.folder)
            with self._lock:
                if not self._again:
                    self._running = False
                    return
                self._again = False

    def idle(self) -> bool:
        """Whether no rebuild is running or waiting (for tests and a clean shutdown)."""
        with self._lock:
            return not self._running


async def answer_get(reviews: JobReviews | FolderReviews, csv_format: bool) -> tuple[int, str, str]:
    """(status, media type, body) of a GET of `decisions`."""
    try:
        page, rows = await asyncio.to_thread(reviews.listing)
    except ReviewError as exc:
        return exc.status, "application/json", json.dumps({"error": str(exc)})
    if csv_format:
        return 200, "text/csv; charset=utf-8", export_csv(rows)
    return 200, "application/json", json.dumps({"decisions": page}, ensure_ascii=False)


async def answer_post(reviews: JobReviews | FolderReviews, body: bytes) -> tuple[int, str]:
    """(status, JSON body) of a POST of a decision."""
    try:
        fields = parse_body(body)
        decision = await asyncio.to_thread(reviews.decide, fields)
    except ReviewError as exc:
        return exc.status, json.dumps({"error": str(exc)})
    return 200, json.dumps({"decision": decision}, ensure_ascii=False)
