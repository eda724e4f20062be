"""scripts/demo.sh as a newcomer runs it: it prints the example's verdict counts and never touches the user's
default store (issue 47: the demo seeded it, and the example records then appeared as evidence in later checks).

The script runs for real, in a copy of the repository's layout whose `.venv` is a stand-in: its `python`
skips the pip install (no network, and the package is already importable) and its `citetracer` runs this
worktree's sources; HOME and the XDG folders point into the test's own folder, so any write to the default
store would land there and be seen.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _stand_in_venv(repo: Path) -> None:
    bin_dir = repo / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.write_text('#!/bin/sh\nif [ "$1 $2 $3" = "-m pip install" ]; then exit 0; fi\nexec "$REAL_PYTHON" "$@"\n')
    cli = bin_dir / "citetracer"
    cli.write_text('#!/bin/sh\nexec "$REAL_PYTHON" -m citetracer "$@"\n')
    for f in (python, cli):
        f.chmod(0o755)


def test_the_demo_uses_a_store_of_its_own_and_prints_the_verdict_counts(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "demo.sh", repo / "scripts" / "demo.sh")
    shutil.copytree(ROOT / "examples", repo / "examples")
    _stand_in_venv(repo)
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "TMPDIR": str(tmp),
        "REAL_PYTHON": sys.executable,
        "PYTHONPATH": str(ROOT / "src"),
        "COLUMNS": "200",
    }
    proc = subprocess.run(
        ["bash", str(repo / "scripts" / "demo.sh")], env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    counts = re.search(r"(\d+) citations: (\d+) Real, (\d+) Potential, (\d+) Hallucinated", proc.stdout)
    assert counts is not None, proc.stdout[-2000:]
    total, real, potential, hallucinated = map(int, counts.groups())
    assert total == real + potential + hallucinated and real and potential and hallucinated
    assert "citetracer exit status: 1" in proc.stdout  # the bundled fabrications are found
    assert "mirror setup --field" in proc.stdout  # the next step of the first hour
    assert not [p for p in home.rglob("*") if p.is_file()], "the demo wrote into the user's folders"
    assert not list(tmp.iterdir()), "the demo's own store was left behind"
    said = re.search(r"added \d+ records from examples/records.jsonl to (\S+)", proc.stdout)
    assert said is not None and said.group(1).startswith(str(tmp))
