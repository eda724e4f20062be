"""A real `citetracer serve` in its own process on 127.0.0.1, for tests and bench/hostile.py.

The server is started as `python -m citetracer serve` on a free port with a config file of its
own (the user's is never read), answers /healthz before `start()` returns, and is stopped by
its pid. Its log is a file in the folder given, read by the tests that check what it logged.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """`citetracer serve --store STORE [args]` on 127.0.0.1; `base` is its URL once started."""

    def __init__(
        self,
        folder: Path,
        store: str | Path,
        *args: str,
        offline: bool = True,
        env: dict[str, str] | None = None,
        nofile: int | None = None,
    ) -> None:
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "server.log"
        self.jobs_dir = folder / "web-jobs"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.toml").write_text("", encoding="utf-8")  # the user's own config is not read
        self.cmd = [sys.executable, "-m", "citetracer", "serve", "--store", str(store), "--port", str(self.port)]
        self.cmd += ["--jobs-dir", str(self.jobs_dir), *(["--offline"] if offline else []), *args]
        # This checkout's sources first (an installed citetracer may be another checkout's; a relative
        # PYTHONPATH means nothing in the server's own folder).
        path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH", "")) if p)
        self.env = {**os.environ, "PYTHONPATH": path, "CITETRACER_CONFIG": str(folder / "config.toml"), **(env or {})}
        self.nofile = nofile
        self.process: subprocess.Popen[bytes] | None = None

    def _limits(self) -> None:  # in the child, before exec: fewer descriptors, to reach the limit cheaply
        if self.nofile is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def start(self, timeout: float = 90.0) -> LiveServer:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                self.cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.folder,
                env=self.env,
                preexec_fn=self._limits if self.nofile else None,
            )
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(OSError):
                if self.get("/healthz", timeout=2)[0] == 200:
                    return self
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}): {self.log()[-3000:]}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not answer /healthz within {timeout} s: {self.log()[-3000:]}")
            time.sleep(0.2)

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self, sig: int | None = None, wait: float = 30.0) -> int | None:
        """Stop the server (SIGTERM, or `sig`), killing it if it does not end within `wait` s; its exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            if sig is None:
                self.process.terminate()
            else:
                self.process.send_signal(sig)
            try:
                self.process.wait(wait)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return self.process.returncode

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def rss(self) -> int:
        """The server process's resident memory now, in bytes (Linux /proc)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def peak_rss(self) -> int:
        """The server process's peak resident memory so far, in bytes (Linux /proc: VmHWM)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        return 0

    # ------------------------------------------------------------------ requests

    def get(self, path: str, timeout: float = 30.0, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        request = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def get_json(self, path: str, timeout: float = 30.0) -> Any:
        return json.loads(self.get(path, timeout)[1])

    def post(
        self,
        path: str = "/api/jobs",
        fields: dict[str, str] | None = None,
        files: list[tuple[str, bytes]] | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 60.0,
    ) -> tuple[int, Any]:
        """A multipart POST of form `fields` and `files` (name, bytes) as field 'file'; (status, JSON or text)."""
        boundary = "citetracerlivetestboundary"
        parts: list[bytes] = []
        for name, value in (fields or {}).items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode())
            parts.append(value.encode() + b"\r\n")
        for filename, data in files or []:
            head = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
            parts.append((head + "Content-Type: application/octet-stream\r\n\r\n").encode())
            parts.append(data + b"\r\n")
        parts.append(f"--{boundary}--\r\n".encode())
        request = urllib.request.Request(
            self.base + path,
            data=b"".join(parts),
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}", **(headers or {})},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                status, body = r.status, r.read()
        except urllib.error.HTTPError as exc:
            status, body = exc.code, exc.read()
        try:
            return status, json.loads(body)
        except ValueError:
            return status, body.decode("utf-8", errors="replace")

    def wait_job(self, job_id: str, timeout: float = 120.0) -> dict[str, Any]:
        """Poll the job until it ends; its final state (with the report when done)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.get_json(f"/api/jobs/{job_id}")
            if state.get("status") in ("done", "failed"):
                return dict(state)
            time.sleep(0.1)
        raise AssertionError(f"job {job_id} did not end within {timeout} s")


def served(folder: Path, *args: str) -> LiveServer:
    """A server (started by `with`) on a store seeded from examples/records.jsonl (as scripts/demo.sh seeds it)."""
    from tests.web.conftest import seed_store

    store = seed_store(folder / "store" / "store.sqlite")
    return LiveServer(folder, store, "--submits-per-minute", "600", *args)
