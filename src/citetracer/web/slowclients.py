"""Bounds on slow and too many clients, for `citetracer serve` on uvicorn alone (no proxy in front).

uvicorn bounds an idle keep-alive connection (`timeout_keep_alive`) and, with `limit_concurrency`,
answers 503 beyond N connections; it has no timeout for a request's headers or body. A client
that trickles its headers a byte at a time (slowloris) held its socket forever: 1,100 such
sockets ran the server out of file descriptors, new clients timed out, and asyncio logged a
traceback for every refused accept (247,749 in 30 s). So:

- `HeaderTimeoutH11` closes a connection whose request headers are not complete within
  `header_timeout` seconds of its opening (or of the previous response);
- `BodyTimeout` answers 408 and closes when a request's body stalls for `body_timeout` seconds;
- `quiet_accept_errors` logs the loop's "out of system resource" accept errors once a minute
  with a count, not once per accept;
- `raise_fd_limit` lifts the soft limit on open files to the hard one, so `limit_concurrency`
  is reached before the descriptors run out.

A reverse proxy (nginx, Caddy) in front does all of this better and is still what a public
deployment needs (docs/deployment.md).
"""

from __future__ import annotations

import asyncio
import logging
import resource
import time
from typing import Any

import h11
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from citetracer.web.security import Refusal, json_refusal, send_refusal

log = logging.getLogger("citetracer.web")


class HeaderTimeoutH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request's headers (set `header_timeout`)."""

    header_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the request line and headers are in
            self._disarm_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm_header_timer()  # the next request on this connection has the same deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        self._disarm_header_timer()
        self._header_timer: asyncio.TimerHandle | None = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm_header_timer(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            SLOW_HEADERS.count()
            self.transport.close()


def header_timeout_protocol(seconds: float) -> type[H11Protocol]:
    """The protocol class uvicorn is given (`http=`): HeaderTimeoutH11 with this deadline."""
    return type("HeaderTimeoutH11", (HeaderTimeoutH11,), {"header_timeout": seconds})


class _SlowBody(Exception):
    pass


class BodyTimeout:
    """ASGI middleware: a request whose body stops arriving for `seconds` gets 408 and is closed.

    Only the body is timed: once its last part is in, `receive()` is the app's wait for a
    disconnect (event streams, downloads) and is passed through untouched."""

    def __init__(self, app: ASGIApp, seconds: float, refusal: Refusal = json_refusal) -> None:
        self.app = app
        self.seconds = seconds
        self.refusal = refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body_done = stalled = started = False

        async def timed() -> Message:
            nonlocal body_done, stalled
            if body_done:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), self.seconds)
            except TimeoutError:
                stalled = True
                raise _SlowBody from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_done = True
            return message

        async def tracked(message: Message) -> None:
            # a framework that turns the failed read into its own error (FastAPI: 400) still answers 408
            nonlocal started
            if stalled:
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await self._refuse(scope, send)
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, timed, tracked)
        except _SlowBody:
            if not started:
                await self._refuse(scope, send)
        if stalled:
            SLOW_BODIES.count()

    async def _refuse(self, scope: Scope, send: Send) -> None:
        message = "the request body stopped arriving"
        await send_refusal(send, self.refusal, scope, 408, message, [(b"connection", b"close")])


class _Tally:
    """Events counted and logged at most once a minute (a flood of them must not flood the log)."""

    def __init__(self, what: str, every: float = 60.0) -> None:
        self.what = what
        self.every = every
        self.n = 0
        self.logged = -float("inf")

    def count(self) -> None:
        self.n += 1
        now = time.monotonic()
        if now - self.logged >= self.every:
            log.warning("%s: %d in the last %.0f s", self.what, self.n, min(self.every, now - self.logged))
            self.n, self.logged = 0, now


SLOW_HEADERS = _Tally("connections closed for sending their headers too slowly")
SLOW_BODIES = _Tally("requests refused (408) for a body that stopped arriving")
ACCEPT_ERRORS = _Tally(
    "connections not accepted: out of file descriptors or memory (raise `ulimit -n`, lower "
    "--max-connections, or put a reverse proxy in front)"
)


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Count the loop's accept errors (EMFILE, ENFILE, ENOBUFS, ENOMEM) instead of logging each."""
    previous = loop.get_exception_handler()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if "out of system resource" in str(context.get("message", "")):
            ACCEPT_ERRORS.count()
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


def raise_fd_limit(wanted: int) -> int:
    """Lift the soft limit on open files towards `wanted` (at most the hard limit); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft
