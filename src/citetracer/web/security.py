"""What makes the web app safe to run for a department: headers, body limits, rate limits, CSRF.

- Every response carries security headers; pages get a Content-Security-Policy that allows
  only the app's own script and style files (the result page: the HTML report's hashed
  inline ones), no framing, no referrer, no MIME sniffing.
- A request body larger than the upload limit is refused with 413 before it is read
  (Content-Length) or as soon as it grows past the limit (chunked bodies): the limit holds
  whatever the client announces.
- Each client (its address) has a token bucket per kind of request; an empty bucket is 429
  with Retry-After. Submissions, which cost a check, have a small bucket; reads a large one.
- The HTML form is CSRF-safe by a double-submit token: a random token in a SameSite=Strict
  cookie and the same token in the form; a POST without both, or with two that differ, is
  refused. The JSON API takes no cookie, but a page elsewhere could still make a visitor's
  browser post a form to it (a check costs the server): so every POST that a browser marks as
  coming from another site (Sec-Fetch-Site), or whose Origin is not this server, is refused
  (403). Scripts and curl send neither header and are unaffected.
"""

from __future__ import annotations

import hmac
import json
import math
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSRF_COOKIE = "citetracer_csrf"
CSRF_FIELD = "csrf_token"

#: The policy of the app's own pages: its script and style files, its event stream, nothing else.
PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)

HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


#: How a refusal reads for its request: (scope, status, message) -> (content type, body). JSON by default;
#: the app answers a page to whoever asked for one (web/app.py's `refusal`).
Refusal = Callable[[Scope, int, str], tuple[bytes, bytes]]


def json_refusal(scope: Scope, status: int, message: str) -> tuple[bytes, bytes]:
    """A refusal as the API gives it: {"error": message}."""
    return b"application/json", json.dumps({"error": message}).encode()


async def send_refusal(
    send: Send, refusal: Refusal, scope: Scope, status: int, message: str, headers: list[tuple[bytes, bytes]]
) -> None:
    """Answer a request refused before the app saw it (too large, too many, cross-site, too slow)."""
    content_type, body = refusal(scope, status, message)
    start = [(b"content-type", content_type), (b"content-length", str(len(body)).encode()), *headers]
    await send({"type": "http.response.start", "status": status, "headers": start})
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """ASGI middleware: the headers above on every response, and PAGE_CSP unless the route set its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in HEADERS if k not in names]
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", PAGE_CSP.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


class _TooLarge(Exception):
    pass


class BodyLimit:
    """ASGI middleware: 413 for a request body over `max_bytes`, announced or not."""

    def __init__(self, app: ASGIApp, max_bytes: int, refusal: Refusal = json_refusal) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.refusal = refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            await self._too_large(scope, send)
            return
        seen = 0
        started = exceeded = False

        async def counted() -> Message:
            nonlocal seen, exceeded
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    exceeded = True
                    raise _TooLarge
            return message

        async def tracked(message: Message) -> None:
            # a framework that turns the failed read into its own error (FastAPI: 400) still answers 413
            nonlocal started
            if exceeded:
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await self._too_large(scope, send)
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, tracked)
        except _TooLarge:
            if not started:
                await self._too_large(scope, send)

    async def _too_large(self, scope: Scope, send: Send) -> None:
        message = "the upload is larger than this server accepts"
        await send_refusal(send, self.refusal, scope, 413, message, [*HEADERS, (b"connection", b"close")])


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """Token buckets per client: `per_minute` requests a minute, bursts up to `burst`.

    The table of clients is bounded (the least recently seen are forgotten first), so a
    flood of addresses costs bounded memory.
    """

    def __init__(self, per_minute: float, burst: int, max_clients: int = 100_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(1, burst)
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, client: str, now: float | None = None) -> float:
        """Take one token for `client`: 0 when allowed, else the seconds until one is free."""
        now = time.monotonic() if now is None else now
        with self._lock:
            bucket = self._buckets.pop(client, None) or _Bucket(float(self.burst), now)
            bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.rate)
            bucket.stamp = now
            self._buckets[client] = bucket
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0.0
            return math.inf if self.rate <= 0 else (1.0 - bucket.tokens) / self.rate


def new_csrf_token() -> str:
    """A fresh token for the form's cookie and hidden field."""
    return secrets.token_urlsafe(32)


def csrf_ok(cookie: str | None, field: str | None) -> bool:
    """Whether the form's token matches its cookie (both present, compared in constant time)."""
    if not cookie or not field or len(cookie) > 200 or len(field) > 200:
        return False
    return hmac.compare_digest(cookie.encode(), field.encode())


#: Requests that start a check (and so are rate-limited hardest): (method, path).
SUBMISSIONS = {("POST", "/api/jobs"), ("POST", "/jobs")}


class RateLimit:
    """ASGI middleware: 429 with Retry-After once a client has used its bucket (submissions or reads).

    Checked before the body is read, so a client over its limit costs no upload. The client is
    the connection's address (behind a reverse proxy, run uvicorn with --forwarded-allow-ips so
    that it is the real client's)."""

    def __init__(self, app: ASGIApp, submit: RateLimiter, read: RateLimiter, refusal: Refusal = json_refusal) -> None:
        self.app = app
        self.submit = submit
        self.read = read
        self.refusal = refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") == "/healthz":
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("unknown", 0))[0]
        kind = self.submit if (scope.get("method"), scope.get("path")) in SUBMISSIONS else self.read
        wait = kind.take(client)
        if wait <= 0:
            await self.app(scope, receive, send)
            return
        retry = str(max(1, math.ceil(min(wait, 3600)))).encode()
        message = "too many requests from this address; try again later"
        await send_refusal(send, self.refusal, scope, 429, message, [(b"retry-after", retry), *HEADERS])


class CrossSiteRefusal:
    """ASGI middleware: 403 for a POST a browser sends on behalf of another site's page."""

    def __init__(self, app: ASGIApp, refusal: Refusal = json_refusal) -> None:
        self.app = app
        self.refusal = refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST" or not cross_site(scope):
            await self.app(scope, receive, send)
            return
        await send_refusal(send, self.refusal, scope, 403, "a page of another site cannot submit here", HEADERS)


def cross_site(scope: Scope) -> bool:
    """Whether the request's browser says it comes from another site, or names another origin.

    Sec-Fetch-Site decides when the browser sends it (every current one does); only without it is
    the Origin compared with the Host. (With `Referrer-Policy: no-referrer` a browser sends the
    app's own form with `Origin: null`, so Origin alone cannot tell.)"""
    headers = dict(scope.get("headers", []))
    fetch_site = headers.get(b"sec-fetch-site")
    if fetch_site is not None:
        return fetch_site.decode("latin-1").lower() in ("cross-site", "same-site")
    origin = headers.get(b"origin")
    if origin is None:
        return False
    host = headers.get(b"host", b"").decode("latin-1").lower()
    rest = origin.decode("latin-1").lower().partition("://")[2]
    return not rest or rest.rstrip("/") != host
