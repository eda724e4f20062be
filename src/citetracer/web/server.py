"""Run the web app on uvicorn (`citetracer serve`), with bounds on slow and too many clients."""

from __future__ import annotations

import logging
from dataclasses import dataclass

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
    import uvicorn

    listen = listen or Listen()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    fds = raise_fd_limit(listen.max_connections + SPARE_FDS)
    connections = min(listen.max_connections, max(16, fds - min(SPARE_FDS, fds // 4)))
    if connections < listen.max_connections:
        log.warning("only %d open files allowed (ulimit -n): serving at most %d connections", fds, connections)
    app = create_app(settings, options)
    # an open event stream lasts as long as its job: shutdown waits for it 5 s at most
    uvicorn.run(
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
        timeout_graceful_shutdown=5,
    )
