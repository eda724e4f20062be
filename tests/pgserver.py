"""A throwaway PostgreSQL server for the tests and benchmarks: initdb in a temp dir, a free port, 127.0.0.1 only.

PostgreSQL refuses to run as root, so under root (CI) the cluster belongs to the
`postgres` user that Debian's package creates; otherwise to the current user.
Nothing is left behind: `stop()` stops the server and deletes the directory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: Where Debian's postgresql package puts its programs (they are not on PATH there).
SEARCH = [f"/usr/lib/postgresql/{v}/bin" for v in (17, 16, 15, 14, 13)]


class NoServer(Exception):
    """No PostgreSQL programs here, or the server did not start."""


def find_bin(name: str) -> str:
    for folder in SEARCH:
        path = Path(folder) / name
        if path.exists():
            return str(path)
    found = shutil.which(name)
    if found:
        return found
    raise NoServer(f"{name} not found (install Debian's postgresql package)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    folder: Path
    port: int
    user: str | None
    #: The postmaster's options (`pg_ctl start -o`), to start it again after `pause()`.
    options: str = ""

    @property
    def url(self) -> str:
        return f"postgresql://citetracer@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=120)

    def pause(self) -> None:
        """Stop the server (fast shutdown: every connection is closed), keeping its data."""
        self._run(find_bin("pg_ctl"), "-D", str(self.folder / "data"), "-m", "fast", "-w", "-t", "60", "stop")

    def resume(self) -> None:
        """Start the server again after `pause()`, on the same port with the same data."""
        self._run(
            find_bin("pg_ctl"),
            "-D",
            str(self.folder / "data"),
            "-o",
            self.options,
            "-l",
            str(self.folder / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run(find_bin("pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "stop", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


def start(max_connections: int = 200) -> Server:
    """initdb + pg_ctl start on a free port; trust authentication on 127.0.0.1 only (a test cluster)."""
    initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
    user = None
    folder = Path(tempfile.mkdtemp(prefix="citetracer-pg-"))
    if os.geteuid() == 0:
        user = "postgres"
        try:
            shutil.chown(folder, user)
        except (LookupError, OSError) as exc:
            shutil.rmtree(folder, ignore_errors=True)
            raise NoServer(f"running as root and no '{user}' user to own the cluster: {exc}") from exc
    server = Server(folder, free_port(), user)
    try:
        server._run(
            initdb,
            "-D",
            str(folder / "data"),
            "-A",
            "trust",
            "-U",
            "citetracer",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = (
            f"-p {server.port} -c listen_addresses=127.0.0.1 -k {folder} -c fsync=off -c synchronous_commit=off "
            f"-c full_page_writes=off -c max_connections={max_connections} -c shared_buffers=256MB"
        )
        server.options = options
        server._run(
            pg_ctl, "-D", str(folder / "data"), "-o", options, "-l", str(folder / "log"), "-w", "-t", "60", "start"
        )
    except (subprocess.SubprocessError, OSError) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        log = folder / "log"
        if log.exists():
            detail += log.read_text(errors="replace")[-2000:]
        server.stop()
        raise NoServer(f"PostgreSQL did not start: {detail.strip()[:2000]}") from exc
    return server
