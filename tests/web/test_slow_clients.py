"""Slow and many clients against a real `citetracer serve` on 127.0.0.1 (no proxy in front).

Once: 1,100 sockets trickling their headers held the server's descriptors forever, new clients
timed out and the log filled with one traceback per refused accept (247,749 in 30 s). Here the
server gets only 256 descriptors, so 300 trickling sockets reach that limit cheaply.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from pathlib import Path

import pytest

from tests.web.conftest import seed_store
from tests.web.live import LiveServer

ONE_REF = "[1] A. Nobody. A Study That Nobody Has Ever Written Down. In Nowhere, 2020.\n"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return seed_store(tmp_path / "store" / "store.sqlite")


class Slowloris:
    """`n` sockets that send a request's first line and then a header line a second, never the end."""

    def __init__(self, port: int, n: int) -> None:
        self.sockets: list[socket.socket] = []
        for _ in range(n):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            except OSError:
                break
            self.sockets.append(s)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._trickle)
        self.thread.start()

    def _trickle(self) -> None:
        while not self.stop.is_set():
            for s in self.sockets:
                with contextlib.suppress(OSError):
                    s.sendall(b"X-Slow: 1\r\n")
            self.stop.wait(1.0)

    def closed_by_server(self, s: socket.socket) -> bool:
        s.settimeout(10)
        try:
            return s.recv(4096) == b""  # closed without an answer
        except ConnectionResetError:  # closed with our unread header lines: a reset
            return True
        except TimeoutError:
            return False

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for s in self.sockets:
            s.close()


def test_clients_trickling_headers_are_closed_and_logged_once(store: Path, tmp_path: Path) -> None:
    args = ("--header-timeout", "2", "--workers", "1")
    with LiveServer(tmp_path, store, *args, nofile=1024) as live:
        attack = Slowloris(live.port, 300)  # within the server's connections: others are still served
        try:
            time.sleep(3)
            assert live.get("/healthz", timeout=20)[0] == 200
            assert attack.closed_by_server(attack.sockets[0])
        finally:
            attack.close()
        attack = Slowloris(live.port, 1100)  # past its descriptors: accepts fail until sockets are closed
        try:
            time.sleep(4)
        finally:
            attack.close()
        time.sleep(3)
        assert live.get("/healthz", timeout=20)[0] == 200  # and it recovers
        log = live.log()
    assert "Traceback" not in log and log.count("Too many open files") == 0
    assert len([line for line in log.splitlines() if "connections not accepted" in line]) <= 2
    assert "connections closed for sending their headers too slowly" in log


def test_a_stalled_body_gets_408_and_is_closed(store: Path, tmp_path: Path) -> None:
    with LiveServer(tmp_path, store, "--body-timeout", "2", "--workers", "1") as live:
        s = socket.create_connection(("127.0.0.1", live.port), timeout=30)
        head = "POST /api/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
        s.sendall((head + "Content-Length: 100000\r\n\r\n--b\r\n").encode())
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
        s.close()
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert live.get("/healthz")[0] == 200


def test_forwarded_headers_are_believed_only_from_named_proxies(store: Path, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "a", store, "--submits-per-minute", "1", "--workers", "1") as live:
        codes = [
            live.post(fields={"text": ONE_REF}, headers={"X-Forwarded-For": f"203.0.113.{i}"})[0] for i in range(14)
        ]
        assert codes.count(202) == 10 and codes[-1] == 429, codes  # one client (127.0.0.1): one bucket
    with LiveServer(
        tmp_path / "b", store, "--submits-per-minute", "1", "--forwarded-allow-ips", "127.0.0.1", "--workers", "1"
    ) as live:
        codes = [
            live.post(fields={"text": ONE_REF}, headers={"X-Forwarded-For": f"203.0.113.{i}"})[0] for i in range(12)
        ]
        assert codes == [202] * 12, codes  # behind a named proxy: each forwarded client has its own


def test_event_streams_are_pushed_and_capped_per_client(store: Path, tmp_path: Path) -> None:
    long_bib = "".join(
        f"@misc{{g{i}, title={{A Synthetic Study of Imaginary Topic {i}}}, author={{Person{i}, A.}}, year={{2019}}}}\n"
        for i in range(300)
    )
    with LiveServer(tmp_path, store, "--workers", "1", "--submits-per-minute", "600") as live:
        _, body = live.post(files=[("long.bib", long_bib.encode())])
        streams = []
        for _ in range(8):
            s = socket.create_connection(("127.0.0.1", live.port), timeout=60)
            s.sendall(f"GET /api/jobs/{body['id']}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            streams.append(s)
        for s in streams:
            assert s.recv(64).startswith(b"HTTP/1.1 200")
        status, refused = live.get(f"/api/jobs/{body['id']}/events")
        assert status == 429 and b"event streams" in refused
        received = b""
        while b"event: end" not in received:  # every citation pushed to a stream, then the end
            chunk = streams[0].recv(65536)
            assert chunk, received[-300:]
            received += chunk
        assert received.count(b"event: citation") == 300
        for s in streams:
            s.close()
        time.sleep(1)
        assert live.get(f"/api/jobs/{body['id']}/events", timeout=10)[0] == 200  # closed streams are uncounted
