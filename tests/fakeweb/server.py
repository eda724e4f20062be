"""A fake scholarly web on 127.0.0.1: every service of DESIGN.md behind one loopback server.

`FakeWeb(records.jsonl)` runs the server in its own process (so it neither
competes with the client for the GIL nor leaves threads in the test process)
and controls it over `/_control/` endpoints.

Each service lives under its own path prefix (`/crossref`, `/openalex`,
`/semanticscholar/graph/v1`, `/dblp`, `/arxiv`, `/pubmed`, `/europepmc`, `/acl`,
`/openreview`, `/datacite`, `/doi`, `/searxng`, `/pages`), which is the base URL
the client is configured with; below it, paths, parameters and reply shapes are
those of the real service. Faults are switchable per service at run time
(`web.faults["dblp"] = Fault(mode="status", status=500)`; `"*"` for all): latency, hanging
(timeouts), status codes with Retry-After, truncated and malformed bodies,
connection resets, huge bodies, redirect loops, slow drip, wrong content type.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from tests.fakeweb import shapes
from tests.fakeweb.corpus import Corpus, Record

PREFIXES = {
    "crossref": "/crossref",
    "openalex": "/openalex",
    "semanticscholar": "/semanticscholar/graph/v1",
    "dblp": "/dblp",
    "arxiv": "/arxiv",
    "pubmed": "/pubmed/entrez/eutils",
    "europepmc": "/europepmc/webservices/rest",
    "acl": "/acl",
    "openreview": "/openreview",
    "datacite": "/datacite",
    "doi": "/doi",
    "searxng": "/searxng",
    "pages": "/pages",
}


@dataclass
class Fault:
    """What a service does wrong: `every` = one request in N (1 = all); `times` = only the next N requests."""

    #: status | hang | truncate | malformed | empty | body | reset | huge | redirect_loop | drip | html
    mode: str | None = None
    status: int = 500
    #: mode "body": this exact reply body (with `status` and `content_type`), e.g. 200 and "null".
    body: str = ""
    content_type: str = "application/json"
    retry_after: str | None = None
    every: int = 1
    latency: float = 0.0
    hang: float = 30.0
    times: int | None = None
    #: Rate-limit headers on every reply, as Crossref sends them: (x-rate-limit-limit, x-rate-limit-interval).
    rate_headers: tuple[str, str] | None = None
    #: mode "rate": requests per second the service accepts; faster ones get 429 (DBLP: 1, with Retry-After).
    rate: float = 1.0


class Server:
    """The server itself (runs in the process `FakeWeb` starts)."""

    def __init__(self, corpus: Corpus, port: int = 0) -> None:
        self.corpus = corpus
        self.faults: dict[str, Fault] = {}
        self.hits: Counter[str] = Counter()
        #: When each rate-limited service last accepted a request (mode "rate").
        self.accepted: dict[str, float] = {}
        #: Headers of the last request each service received.
        self.last_headers: dict[str, dict[str, str]] = {}
        #: OpenReview venues (`FakeWeb.add_venue`): venue id -> its submissions' notes, each with its PDF's path.
        self.venues: dict[str, list[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        handler = type("Handler", (_Handler,), {"web": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.server.daemon_threads = True
        self.server.request_queue_size = 256
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def root(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def sources(self) -> dict[str, str]:
        """Base URLs to configure the client with (Settings.sources)."""
        return {name: self.root + prefix for name, prefix in PREFIXES.items() if name != "pages"}

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        self.server.shutdown()
        self.server.server_close()

    def count(self, source: str) -> int:
        with self._lock:
            self.hits[source] += 1
            return self.hits[source]


def closed_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens: a service that takes no connection, as without a network."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/"


def _json(obj: Any) -> bytes:
    return json.dumps(obj).encode()


class _Handler(BaseHTTPRequestHandler):
    web: Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # ----------------------------------------------------------- plumbing

    def send(
        self, status: int, body: bytes | str, ctype: str = "application/json", headers: dict[str, str] | None = None
    ) -> None:
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in {**getattr(self, "extra_headers", {}), **(headers or {})}.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        if self.path not in ("/_control/faults", "/_control/venue"):
            self.send(404, "not found", "text/plain")
            return
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))) or b"{}")
        if self.path == "/_control/venue":
            self.web.venues[body["venueid"]] = body["submissions"]
        else:
            self.web.faults = {k: Fault(**v) for k, v in body.items()}
        self.send(200, _json({"ok": True}))

    def do_GET(self) -> None:
        if self.path == "/_control/state":
            with self.web._lock:
                self.send(200, _json({"hits": dict(self.web.hits), "headers": self.web.last_headers}))
            return
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        params = {k: v[0] for k, v in parse_qs(parts.query).items()}
        for source, prefix in PREFIXES.items():
            if path == prefix or path.startswith(prefix + "/"):
                n = self.web.count(source)
                self.web.last_headers[source] = {k.lower(): v for k, v in self.headers.items()}
                fault = self.web.faults.get(source) or self.web.faults.get("*")
                self.extra_headers = {}
                if fault is not None and fault.rate_headers:
                    limit, interval = fault.rate_headers
                    self.extra_headers = {"X-Rate-Limit-Limit": limit, "X-Rate-Limit-Interval": interval}
                if fault is not None:
                    if fault.latency:
                        time.sleep(fault.latency)
                    hit = n % fault.every == 0
                    if fault.times is not None:
                        with self.web._lock:
                            hit, fault.times = fault.times > 0, fault.times - 1
                    if fault.mode == "rate":
                        if self.rate_limited(source, fault):
                            return
                    elif fault.mode and hit and self.fault(fault):
                        return
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    getattr(self, f"r_{source}")(path[len(prefix) :] or "/", params)
                return
        self.send(404, "not found", "text/plain")

    def rate_limited(self, source: str, f: Fault) -> bool:
        """The service's own rate limit, as DBLP enforces it: a request sooner than 1/rate seconds after the
        last accepted one gets 429 with Retry-After (whole seconds); True when it was refused."""
        now = time.monotonic()
        gap = 1.0 / max(f.rate, 1e-6)
        with self.web._lock:
            last = self.web.accepted.get(source)
            if last is None or now - last >= gap:
                self.web.accepted[source] = now
                return False
            wait = gap - (now - last)
        self.send(429, _json({"error": "Too Many Requests"}), headers={"Retry-After": str(max(1, round(wait + 0.5)))})
        return True

    def fault(self, f: Fault) -> bool:
        """Misbehave; True when the request has been dealt with."""
        mode = f.mode
        if mode == "status":
            self.send(
                f.status, _json({"error": "fault"}), headers={"Retry-After": f.retry_after} if f.retry_after else {}
            )
        elif mode == "hang":
            self.web._stop.wait(f.hang)
            self.close_connection = True
        elif mode == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
        elif mode == "truncate":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "5000")
            self.end_headers()
            self.wfile.write(b'{"status":"ok","message":{"items":[{"title":')
            self.close_connection = True
        elif mode == "malformed":
            self.send(200, b'{"status":"ok","message":{"items":[{"title": ["x"]}, <<<', "application/json")
        elif mode == "empty":
            self.send(200, b"{}", "application/json")
        elif mode == "body":
            self.send(f.status, f.body, f.content_type)
        elif mode == "html":
            self.send(200, "<html><body>Service temporarily unavailable</body></html>", "text/html")
        elif mode == "huge":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            chunk = b" " * 65536
            try:
                for _ in range(50 * 1024 * 1024 // len(chunk)):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif mode == "redirect_loop":
            self.send(302, "", "text/html", headers={"Location": self.path})
        elif mode == "drip":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.close_connection = True
            try:
                for _ in range(600):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    if self.web._stop.wait(0.2):
                        break
            except (BrokenPipeError, ConnectionResetError):
                pass
        else:
            return False
        return True

    # ------------------------------------------------------------ services

    def r_crossref(self, path: str, p: dict[str, str]) -> None:
        if path.startswith("/works/") or path.startswith("/v1/works/"):
            doi = path.split("/works/", 1)[1].removesuffix("/transform")
            rec = self.web.corpus.doi(doi, "crossref")
            if rec is None:
                self.send(404, "Resource not found.", "text/plain")
            elif path.endswith("/transform"):
                self.send(200, _json(shapes.csl_json(rec)), "application/vnd.citationstyles.csl+json")
            else:
                msg = {
                    "status": "ok",
                    "message-type": "work",
                    "message-version": "1.0.0",
                    "message": shapes.crossref_work(rec),
                }
                self.send(200, _json(msg))
        elif path == "/works":
            query = p.get("query.bibliographic") or p.get("query") or ""
            rows = min(int(p.get("rows", "20")), 1000)
            offset = int(p.get("offset", "0"))
            total, hits = self.web.corpus.page(query, "crossref", offset, rows)
            items = [{**shapes.crossref_work(r), "score": round(50 * s, 3)} for s, r in hits]
            msg = {
                "facets": {},
                "total-results": total,
                "items": items,
                "items-per-page": rows,
                "query": {"start-index": offset, "search-terms": query},
            }
            self.send(
                200, _json({"status": "ok", "message-type": "work-list", "message-version": "1.0.0", "message": msg})
            )
        else:
            self.send(404, "Resource not found.", "text/plain")

    def r_doi(self, path: str, p: dict[str, str]) -> None:
        doi = path.lstrip("/")
        if doi.startswith("_transform/"):
            rec = self.web.corpus.doi(doi.removeprefix("_transform/"), "doi")
            if rec is not None:
                self.send(200, _json(shapes.csl_json(rec)), "application/vnd.citationstyles.csl+json")
                return
        elif self.web.corpus.doi(doi, "doi") is not None:
            self.send(
                302,
                "<html><head><title>Handle Redirect</title></head></html>",
                "text/html;charset=utf-8",
                headers={"Location": f"{PREFIXES['doi']}/_transform/{quote(doi)}"},
            )
            return
        self.send(404, "<html><body>DOI Not Found</body></html>", "text/html;charset=utf-8")

    def r_openalex(self, path: str, p: dict[str, str]) -> None:
        if path.startswith("/works/doi:"):
            rec = self.web.corpus.doi(path.removeprefix("/works/doi:"), "openalex")
            if rec is None:
                self.send(404, _json({"error": "Not Found", "message": "The requested resource could not be found."}))
            else:
                self.send(200, _json(shapes.openalex_work(rec)))
        elif path == "/works":
            per_page = min(int(p.get("per-page", "25")), 200)
            page = max(1, int(p.get("page", "1")))
            total, hits = self.web.corpus.page(p.get("search", ""), "openalex", (page - 1) * per_page, per_page)
            meta = {"count": total, "db_response_time_ms": 12, "page": page, "per_page": per_page}
            self.send(200, _json({"meta": meta, "results": [shapes.openalex_work(r) for _, r in hits], "group_by": []}))
        elif path == "/sources":
            names = self.web.corpus.venues(p.get("search", ""), min(int(p.get("per-page", "25")), 200))
            meta = {"count": len(names), "db_response_time_ms": 9, "page": 1, "per_page": len(names)}
            self.send(200, _json({"meta": meta, "results": [shapes.openalex_source(n) for n in names], "group_by": []}))
        else:
            self.send(404, _json({"error": "Not Found"}))

    def r_semanticscholar(self, path: str, p: dict[str, str]) -> None:
        if path == "/paper/search":
            limit = min(int(p.get("limit", "10")), 100)
            offset = int(p.get("offset", "0"))
            total, hits = self.web.corpus.page(p.get("query", ""), "semanticscholar", offset, limit)
            body: dict[str, Any] = {"total": total, "offset": offset, "data": [shapes.s2_paper(r) for _, r in hits]}
            if offset + limit < total:
                body["next"] = offset + limit
            self.send(200, _json(body))
            return
        ident = path.removeprefix("/paper/")
        rec: Record | None = None
        if ident.upper().startswith("DOI:"):
            rec = self.web.corpus.doi(ident[4:], "semanticscholar")
        elif ident.upper().startswith("ARXIV:"):
            rec = self.web.corpus.arxiv(ident[6:], "semanticscholar")
        if rec is None:
            self.send(404, _json({"error": f"Paper with id {ident} not found"}))
        else:
            self.send(200, _json(shapes.s2_paper(rec)))

    def r_dblp(self, path: str, p: dict[str, str]) -> None:
        if path == "/search/publ/api":
            q = p.get("q", "")
            h = min(int(p.get("h", "30")), 1000)
            first = int(p.get("f", "0"))
            total, found = self.web.corpus.page(q, "dblp", first, h, all_words=True)
            hits: dict[str, Any] = {
                "@total": str(total),
                "@computed": str(total),
                "@sent": str(len(found)),
                "@first": str(first),
            }
            if found:
                hits["hit"] = [
                    {"@score": str(int(10 * s)), "@id": r.rid, "info": shapes.dblp_info(r), "url": f"URL#{r.rid}"}
                    for s, r in found
                ]
            result = {
                "query": q,
                "status": {"@code": "200", "text": "OK"},
                "time": {"@unit": "msecs", "text": "3"},
                "completions": {"@total": "0", "@computed": "0", "@sent": "0"},
                "hits": hits,
            }
            self.send(200, _json({"result": result}))
        elif path == "/search/venue/api":
            q = p.get("q", "")
            names = self.web.corpus.venues(q, service="dblp")
            hits: dict[str, Any] = {"@total": str(len(names)), "@computed": str(len(names)), "@sent": str(len(names))}
            if names:
                hits["hit"] = [{"@score": "1", "info": {"venue": n, "type": "Conference or Workshop"}} for n in names]
            self.send(200, _json({"result": {"query": q, "status": {"@code": "200", "text": "OK"}, "hits": hits}}))
        elif path.startswith("/rec/") and path.endswith(".xml"):
            key = path[5:-4]
            rec = self.web.corpus.by_key.get(key)
            volume = self.web.corpus.by_crossref.get(key)
            if rec is not None:
                self.send(200, '<?xml version="1.0" encoding="US-ASCII"?>\n' + shapes.dblp_xml(rec), "application/xml")
            elif volume:
                body = shapes.dblp_proceedings_xml(key, volume[0])
                self.send(200, '<?xml version="1.0" encoding="US-ASCII"?>\n' + body, "application/xml")
            else:
                self.send(404, "<html>Error 404: Not Found</html>", "text/html")
        else:
            self.send(404, "<html>Error 404</html>", "text/html")

    def r_arxiv(self, path: str, p: dict[str, str]) -> None:
        if path != "/api/query":
            self.send(404, "not found", "text/plain")
            return
        corpus = self.web.corpus
        if p.get("id_list"):
            out = []
            for ident in p["id_list"].split(","):
                base = ident.split("v")[0] if "/" not in ident else ident.rsplit("v", 1)[0]
                if not any(c.isdigit() for c in ident):
                    self.send(400, shapes.arxiv_error(ident), "application/atom+xml")
                    return
                rec = corpus.arxiv(base, "arxiv")
                if rec is not None:
                    out.append(rec)
            self.send(200, shapes.arxiv_feed(out, p["id_list"], len(out)), "application/atom+xml")
            return
        query = p.get("search_query", "").replace("ti:", " ").replace('"', " ")
        hits = corpus.search(query, "arxiv", int(p.get("max_results", "10")))
        self.send(200, shapes.arxiv_feed([r for _, r in hits], query, len(hits)), "application/atom+xml")

    def r_pubmed(self, path: str, p: dict[str, str]) -> None:
        corpus = self.web.corpus
        if path == "/esearch.fcgi":
            term = p.get("term", "").replace("[Title]", " ")
            hits = corpus.search(term, "pubmed", int(p.get("retmax", "20")))
            ids = [r.pmid for _, r in hits]
            self.send(
                200,
                _json(
                    {
                        "header": {"type": "esearch", "version": "0.3"},
                        "esearchresult": {
                            "count": str(len(ids)),
                            "retmax": str(len(ids)),
                            "retstart": "0",
                            "idlist": ids,
                        },
                    }
                ),
            )
        elif path == "/esummary.fcgi":
            uids = [
                u for u in p.get("id", "").split(",") if u in corpus.by_pmid and "pubmed" in corpus.by_pmid[u].services
            ]
            result: dict[str, Any] = {"uids": uids}
            for u in uids:
                result[u] = shapes.pubmed_summary(corpus.by_pmid[u])
            self.send(200, _json({"header": {"type": "esummary", "version": "0.3"}, "result": result}))
        else:
            self.send(404, "not found", "text/plain")

    def r_europepmc(self, path: str, p: dict[str, str]) -> None:
        if path != "/search":
            self.send(404, _json({"error": "not found"}))
            return
        query = p.get("query", "")
        corpus = self.web.corpus
        if query.startswith(("EXT_ID:", "PMCID:")):
            rec = corpus.by_pmid.get(query.split(":", 1)[1].removeprefix("PMC"))
            recs = [rec] if rec is not None and "europepmc" in rec.services else []
        else:
            recs = [
                r for _, r in corpus.search(query.replace("TITLE:", " "), "europepmc", int(p.get("pageSize", "25")))
            ]
        body = {
            "version": "6.9",
            "hitCount": len(recs),
            "request": {"queryString": query},
            "resultList": {"result": [shapes.europepmc_result(r) for r in recs]},
        }
        self.send(200, _json(body))

    def r_acl(self, path: str, p: dict[str, str]) -> None:
        ident = path.strip("/").removesuffix(".bib")
        rec = next(
            (r for r in self.web.corpus.by_doi.get(f"10.18653/v1/{ident.lower()}", []) if "acl" in r.services), None
        )
        if rec is None or not path.endswith(".bib"):
            self.send(404, "<html>Not found</html>", "text/html")
        else:
            self.send(200, shapes.bibtex(rec, ident), "application/x-bibtex")

    def r_openreview(self, path: str, p: dict[str, str]) -> None:
        corpus = self.web.corpus
        venue = p.get("content.venueid") or p.get("invitation")
        if path == "/notes" and venue is not None:  # a venue's submissions, a page at a time (API v2)
            subs = [
                s
                for s in self.web.venues.get(venue.removesuffix("/-/Submission"), [])
                if p.get("invitation") or s.get("venueid", venue) == venue
            ]
            offset, limit = int(p.get("offset", "0")), min(int(p.get("limit", "1000")), 1000)
            page = [shapes.openreview_submission(s, venue) for s in subs[offset : offset + limit]]
            self.send(200, _json({"notes": page, "count": len(subs)}))
        elif path == "/pdf":
            sub = next((s for subs in self.web.venues.values() for s in subs if s["id"] == p.get("id")), None)
            if sub is None or not sub.get("pdf_path"):
                self.send(404, _json({"name": "NotFoundError", "message": "Note not found", "status": 404}))
            else:
                self.send(200, Path(sub["pdf_path"]).read_bytes(), "application/pdf")
        elif path == "/notes":
            recs = [
                r
                for r in corpus.records
                if "openreview" in r.services and (r.url or "").endswith("=" + p.get("id", "-"))
            ]
            self.send(200, _json({"notes": [shapes.openreview_note(r) for r in recs[:1]], "count": len(recs[:1])}))
        elif path == "/notes/search":
            hits = corpus.search(p.get("term", ""), "openreview", int(p.get("limit", "10")))
            self.send(200, _json({"notes": [shapes.openreview_note(r) for _, r in hits], "count": len(hits)}))
        else:
            self.send(404, _json({"name": "NotFoundError", "message": "not found", "status": 404}))

    def r_datacite(self, path: str, p: dict[str, str]) -> None:
        if path.startswith("/dois/"):
            rec = self.web.corpus.doi(path.removeprefix("/dois/"), "datacite")
            if rec is None:
                self.send(
                    404,
                    _json({"errors": [{"status": "404", "title": "The resource you are looking for doesn't exist."}]}),
                )
            else:
                self.send(200, _json({"data": shapes.datacite_record(rec)}), "application/vnd.api+json")
        elif path == "/dois":
            query = p.get("query", "").replace("titles.title:", " ")
            hits = self.web.corpus.search(query, "datacite", int(p.get("page[size]", "25")))
            self.send(
                200,
                _json({"data": [shapes.datacite_record(r) for _, r in hits], "meta": {"total": len(hits)}}),
                "application/vnd.api+json",
            )
        else:
            self.send(404, _json({"errors": [{"status": "404"}]}))

    def r_searxng(self, path: str, p: dict[str, str]) -> None:
        if path != "/search" or p.get("format") != "json":
            self.send(403, "Forbidden", "text/html")
            return
        q = p.get("q", "")
        hits = self.web.corpus.search(q.replace('"', " "), "pages", 10)
        results = [
            {
                "url": f"{self.web.root}{PREFIXES['pages']}/{quote(r.rid)}",
                "title": r.title,
                "content": "",
                "engine": "fake",
                "engines": ["fake"],
                "score": round(s, 3),
                "category": "general",
            }
            for s, r in hits
        ]
        self.send(
            200,
            _json(
                {
                    "query": q,
                    "number_of_results": len(results),
                    "results": results,
                    "answers": [],
                    "corrections": [],
                    "infoboxes": [],
                    "suggestions": [],
                    "unresponsive_engines": [],
                }
            ),
        )

    def r_pages(self, path: str, p: dict[str, str]) -> None:
        if path == "/_redirect":
            self.send(302, "", "text/html", headers={"Location": p.get("to", "/")})
            return
        rec = self.web.corpus.by_rid.get(path.strip("/"))
        if rec is None:
            self.send(404, "<html>not found</html>", "text/html")
        else:
            self.send(200, shapes.landing_page(rec), "text/html; charset=utf-8")


class _RemoteFaults:
    """`web.faults[...] = Fault(...)`, `.clear()`, `.update({...})`, applied in the server process."""

    def __init__(self, web: FakeWeb) -> None:
        self.web = web
        self.current: dict[str, Fault] = {}

    def __setitem__(self, source: str, fault: Fault) -> None:
        self.current[source] = fault
        self._push()

    def update(self, faults: dict[str, Fault]) -> None:
        self.current.update(faults)
        self._push()

    def clear(self) -> None:
        self.current.clear()
        self._push()

    def _push(self) -> None:
        data = json.dumps({k: asdict(v) for k, v in self.current.items()}).encode()
        req = urllib.request.Request(f"{self.web.root}/_control/faults", data=data, method="POST")
        with urllib.request.urlopen(req, timeout=10) as resp:
            resp.read()


class FakeWeb:
    """Handle on a fake web server process serving a world.jsonl-style file on 127.0.0.1.

    `add_venue(venueid, submissions)` gives its OpenReview service a venue: submissions as dicts with
    `id`, `number`, `title`, `authors`, `pdf_path` (a PDF file served at `/pdf?id=`; none: a withdrawn
    paper without one) and optionally `venueid` (e.g. '.../Rejected_Submission', listed only under the
    invitation `VENUE/-/Submission`)."""

    def __init__(self, records: Path) -> None:
        root = Path(__file__).resolve().parents[2]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.fakeweb.server", str(records)],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        if not line.startswith("http://127.0.0.1:"):
            self.proc.kill()
            raise RuntimeError(f"fake web did not start: {line!r}")
        self.root = line
        self.faults = _RemoteFaults(self)

    def add_venue(self, venueid: str, submissions: list[dict[str, Any]]) -> None:
        data = json.dumps({"venueid": venueid, "submissions": submissions}).encode()
        req = urllib.request.Request(f"{self.root}/_control/venue", data=data, method="POST")
        with urllib.request.urlopen(req, timeout=10) as resp:
            resp.read()

    def _state(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.root}/_control/state", timeout=10) as resp:
            data: dict[str, Any] = json.loads(resp.read())
            return data

    @property
    def hits(self) -> Counter[str]:
        return Counter(self._state()["hits"])

    @property
    def last_headers(self) -> dict[str, dict[str, str]]:
        headers: dict[str, dict[str, str]] = self._state()["headers"]
        return headers

    def sources(self) -> dict[str, str]:
        """Base URLs to configure the client with (Settings.sources)."""
        return {name: self.root + prefix for name, prefix in PREFIXES.items() if name != "pages"}

    def __enter__(self) -> FakeWeb:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        if self.proc.stdout:
            self.proc.stdout.close()


def main() -> None:
    ap = argparse.ArgumentParser(description="Serve a fake scholarly web on 127.0.0.1.")
    ap.add_argument("records", type=Path)
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args()
    server = Server(Corpus.from_jsonl(args.records), args.port)
    print(server.root, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.server.serve_forever(poll_interval=0.05)


if __name__ == "__main__":
    main()
