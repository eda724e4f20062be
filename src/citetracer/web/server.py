"""Run the web app on uvicorn (`citetracer serve`), with bounds on slow and too many clients."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType

import uvicorn

from citetracer.config import Settings
from citetracer.web.app import WebOptions, create_app
from citetracer.web.slowclients import header_timeout_protocol, raise_fd_limit

log = logging.getLogger("citetracer.web")
#: Descriptors kept beyond the connections: the store, its index, the PDF readers' pipes, logs.
SPARE_FDS = 256


@dataclass(frozen=True)
class Listen:
    """Where and how the server listens."""

    host: str = "127.0.0.1"
    port: int = 8000
    #: Connections at once (uvicorn's `limit_concurrency`): beyond them requests get 503.
    max_connections: int = 512
    #: Seconds a client has to send a request's headers (from connecting, or from the last response).
    header_timeout: float = 10.0
    #: Seconds an idle keep-alive connection is kept.
    keep_alive: float = 5.0
    #: Addresses of the reverse proxies whose X-Forwarded-For/-Proto are believed (None: nobody's).
    forwarded_allow_ips: str | None = None


def serve(settings: Settings, options: WebOptions, listen: Listen | None = None) -> None:
    """Serve until interrupted. Binds `listen.host` as given: 127.0.0.1 by default, so nothing is exposed unasked."""
    listen = listen or Listen()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    fds = raise_fd_limit(listen.max_connections + SPARE_FDS)
    connections = min(listen.max_connections, max(16, fds - min(SPARE_FDS, fds // 4)))
    if connections < listen.max_connections:
        log.warning("only %d open files allowed (ulimit -n): serving at most %d connections", fds, connections)
    app = create_app(settings, options)
    config = uvicorn.Config(
        app,
        host=listen.host,
        port=listen.port,
        log_level="info",
        http=header_timeout_protocol(listen.header_timeout),
        limit_concurrency=connections,
        timeout_keep_alive=int(max(1, listen.keep_alive)),
        # forwarded headers only from proxies the operator names: otherwise any local client picks its address
        proxy_headers=listen.forwarded_allow_ips is not None,
        forwarded_allow_ips=listen.forwarded_allow_ips,
        server_header=False,
        # an open event stream lasts as long as its job: shutdown waits for it 5 s at most
        timeout_graceful_shutdown=5,
    )
    _Server(config, on_exit=app.state.workers.stop_taking).run()


class _Server(uvicorn.Server):
    """uvicorn's server, told at SIGTERM/SIGINT to stop taking queued jobs before it shuts down (else a
    worker that finished its job during the shutdown took the next, which the exit then killed)."""

    def __init__(self, config: uvicorn.Config, on_exit: Callable[[], None]) -> None:
        super().__init__(config)
        self.on_exit = on_exit

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.on_exit()
        super().handle_exit(sig, frame)
