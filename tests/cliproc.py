"""The CLI in a subprocess, as a person runs it: its own home, store and (empty) config file, no HTTP cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_cli(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None, config: str | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m citetracer ARGS` with `tmp_path` as home, `tmp_path/store.sqlite` as the store and
    `tmp_path/config.toml` as the config file (`config` its text; empty when it does not exist yet)."""
    settings = tmp_path / "config.toml"
    if config is not None or not settings.exists():
        settings.write_text(config or "")
    base = {
        "HOME": str(tmp_path),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
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
        timeout=600,
    )


def _absolute(path_list: str) -> str:
    return os.pathsep.join(str(Path(p).resolve()) for p in path_list.split(os.pathsep) if p)
