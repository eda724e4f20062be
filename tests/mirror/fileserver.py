"""A file server on 127.0.0.1 for the download tests: Range, If-Range and ETag as real servers answer them.

DBLP's and OpenAlex's servers (nginx, S3) answer a `Range: bytes=N-` request with 206 and a
`Content-Range`, send the whole file (200) when `If-Range` names an older version, and
give a 416 for a range past the end. Knobs let a test cut a reply short (a dropped
connection), ignore ranges (a server that cannot resume), or change a file between runs.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Files:
    """What the server holds and how it misbehaves."""

    files: dict[str, bytes] = field(default_factory=dict)
    #: Send only this many body bytes of the next reply for a path, then drop the connection.
    cut_after: dict[str, int] = field(default_factory=dict)
    ignore_range: bool = False
    #: Every request: (path, Range header, If-Range header).
    seen: list[tuple[str, str | None, str | None]] = field(default_factory=list)

    def etag(self, path: str) -> str:
        return '"' + hashlib.md5(self.files[path], usedforsecurity=False).hexdigest() + '"'


@contextmanager
def serve(files: Files) -> Iterator[str]:
    """Serve `files` on a free loopback port; yields the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            rng, if_range = self.headers.get("Range"), self.headers.get("If-Range")
            files.seen.append((self.path, rng, if_range))
            body = files.files.get(self.path)
            if body is None:
                self.send_response(404)
                self.send_header("Content-Length", "9")
                self.end_headers()
                self.wfile.write(b"not found")
                return
            etag = files.etag(self.path)
            start = 0
            m = re.fullmatch(r"bytes=(\d+)-", rng or "")
            if m and not files.ignore_range and (if_range is None or if_range == etag):
                start = int(m.group(1))
                if start >= len(body):
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{len(body)}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            part = body[start:]
            self.send_header("Content-Length", str(len(part)))
            self.send_header("ETag", etag)
            self.send_header("Accept-Ranges", "bytes")
            self.end_headers()
            cut = files.cut_after.pop(self.path, None)
            if cut is not None:
                self.wfile.write(part[:cut])
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(part)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
