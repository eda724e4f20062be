"""A fake service on 127.0.0.1 that notes when each request arrives (per path prefix), to count requests per second."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class CountingService:
    """Answers every GET with an empty result list (Crossref's shape) after `latency` seconds; keeps arrival times."""

    def __init__(self, latency: float = 0.0) -> None:
        self.times: dict[str, list[float]] = {}
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                with service.lock:
                    service.times.setdefault(self.path.split("/")[1], []).append(time.time())
                time.sleep(latency)
                body = json.dumps({"status": "ok", "message": {"items": [], "total-results": 0}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def per_second(self, prefix: str) -> Counter[int]:
        """Requests under `/prefix` in each whole second since the first one."""
        with self.lock:
            times = sorted(self.times.get(prefix, []))
        return Counter(int(t - times[0]) for t in times) if times else Counter()

    def busiest_window(self, prefix: str, seconds: float = 1.0) -> int:
        """The most requests under `/prefix` in any window of `seconds` (sliding)."""
        with self.lock:
            times = sorted(self.times.get(prefix, []))
        best, start = 0, 0
        for end, t in enumerate(times):
            while t - times[start] >= seconds:
                start += 1
            best = max(best, end - start + 1)
        return best

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
