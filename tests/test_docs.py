"""The README is a newcomer's path and docs/ holds the rest (issue 47): the README stays short, and every
relative link of the README and of docs/ names a file that exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_readme_is_short() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 220


def test_every_relative_link_resolves() -> None:
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            if not (page.parent / target).exists() and not target.startswith("../../shared"):
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert len(PAGES) > 5 and not broken, broken


def test_the_benchmark_tables_and_the_mirror_figures_are_kept() -> None:
    bench = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert "| benchmark | result |" in bench and bench.count("\n| ") > 25
    mirrors = (ROOT / "docs" / "mirrors.md").read_text(encoding="utf-8")
    assert "mirror setup --field" in mirrors and "845,763 records" in mirrors
