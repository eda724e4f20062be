"""`citetracer venues`: what the tool thinks a venue string is, from the real CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def run(*args: str, store: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "citetracer", "venues", *args, "--store", str(store)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_venues_says_what_a_name_is(tmp_path: Path) -> None:
    names = [
        "Proceedings of the Twenty-First International Conference on Machine Learning",
        "Computers & OR",
        "Symposium on Neural Scaling Laws",
        "ACM; Association for Computing Machinery (ACM)",
    ]
    done = run(*names, "--format", "json", store=tmp_path / "none.sqlite")
    assert done.returncode == 0, done.stderr
    found = {v["name"]: v for v in json.loads(done.stdout)["venues"]}
    icml = found[names[0]]["recognised"]
    assert icml is not None and "table:icml" in icml["ids"]
    assert found["Computers & OR"]["recognised"] is None
    assert found["Computers & OR"]["close_to"] == "Computers & Operations Research"
    fake = found["Symposium on Neural Scaling Laws"]
    assert fake["recognised"] is None and fake["close_to"] is None
    assert "journal list" in " ".join(fake["lists_searched"])
    assert "publisher" in found[names[3]]["not_a_venue"]
    assert not (tmp_path / "none.sqlite").exists()  # asking never creates a store


def test_venues_table_names_the_list(tmp_path: Path) -> None:
    done = run("J. Mach. Learn. Res.", store=tmp_path / "none.sqlite")
    assert done.returncode == 0, done.stderr
    assert "recognised as" in done.stdout and "journal list" in done.stdout
