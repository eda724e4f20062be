"""Run the web app on uvicorn (`citetracer serve`)."""

from __future__ import annotations

import logging

from citetracer.config import Settings
from citetracer.web.app import WebOptions, create_app


def serve(settings: Settings, options: WebOptions, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve until interrupted. Binds `host` as given: 127.0.0.1 by default, so nothing is exposed unasked."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(settings, options)
    # an open event stream lasts as long as its job: shutdown waits for it 5 s at most
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="info",
        proxy_headers=True,
        server_header=False,
        timeout_graceful_shutdown=5,
    )
