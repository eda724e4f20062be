"""The CLI in a subprocess, as a person runs it: its own home, store and (empty) config file, no HTTP cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

#: This checkout's sources, first on the child's path: an installed (editable) citetracer may be another checkout.
SRC = Path(__file__).resolve().parents[1] / "src"


def run_cli(
    tmp_path: Path,
    *args: str,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    config: str | None = None,
    memory_cap: int | None = None,
    timeout: float = 600,
) -> subprocess.CompletedProcess[str]:
    """`python -m citetracer ARGS` with `tmp_path` as home, `tmp_path/store.sqlite` as the store and
    `tmp_path/config.toml` as the config file (`config` its text; empty when it does not exist yet).

    `memory_cap`: the process's address space in bytes (RLIMIT_AS), so that a test of a memory bound
    fails quickly if the bound is gone, instead of taking the machine's memory."""
    settings = tmp_path / "config.toml"
    if config is not None or not settings.exists():
        settings.write_text(config or "")
    base = {
        "HOME": str(tmp_path),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(SRC),
        "CITETRACER_STORE": str(tmp_path / "store.sqlite"),
        "CITETRACER_CONFIG": str(settings),
        "CITETRACER_HTTP_CACHE": "",
        "CITETRACER_SEARXNG_URL": "",
        "COLUMNS": "200",
        # the sources under test, as the test process imports them (a worktree's `PYTHONPATH=src`, made
        # absolute: the command runs elsewhere), not the ones the virtualenv has installed
        **({"PYTHONPATH": _absolute(os.environ["PYTHONPATH"])} if os.environ.get("PYTHONPATH") else {}),
    }
    return subprocess.run(
        [sys.executable, "-m", "citetracer", *args],
        cwd=cwd or tmp_path,
        env={**base, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=None if memory_cap is None else lambda: _cap(memory_cap),
    )


def _absolute(path_list: str) -> str:
    return os.pathsep.join(str(Path(p).resolve()) for p in path_list.split(os.pathsep) if p)


def _cap(limit: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def one_clear_error(proc: subprocess.CompletedProcess[str]) -> str:
    """The run's error line (asserting it is one line, with no traceback and no internal error)."""
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, proc.stderr
    return errors[0]
