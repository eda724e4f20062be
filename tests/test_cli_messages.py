"""What a person reads on the terminal, through the CLI in a subprocess: messages are plain text
(never Rich markup), the store's state is said, and the table explains its own vocabulary."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m citetracer ARGS` with a store of its own, no config file, no HTTP cache."""
    base = {
        "HOME": str(tmp_path),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "CITETRACER_STORE": str(tmp_path / "store.sqlite"),
        "CITETRACER_HTTP_CACHE": "",
        "CITETRACER_CONFIG": str(tmp_path / "no-config.toml"),
        "COLUMNS": "200",
    }
    (tmp_path / "no-config.toml").touch()
    return subprocess.run(
        [sys.executable, "-m", "citetracer", *args],
        cwd=cwd or tmp_path,
        env={**base, **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
    )


def seed(tmp_path: Path) -> None:
    assert cli(tmp_path, "mirror", "add", str(EXAMPLES / "records.jsonl"), "--source", "example").returncode == 0


def test_file_names_with_brackets_are_printed_as_they_are(tmp_path: Path) -> None:
    odd = tmp_path / "refs [v2].txt"
    odd.write_text("\n")
    proc = cli(tmp_path, "check", "--offline", str(odd))
    assert proc.returncode == 2
    assert "refs [v2].txt" in proc.stderr, proc.stderr


def test_the_pdf_extra_hint_keeps_its_brackets(tmp_path: Path) -> None:
    """Without pypdfium2 the hint must read pip install 'citetracer[pdf]', not 'citetracer'."""
    fake = tmp_path / "nopdf"
    fake.mkdir()
    (fake / "pypdfium2.py").write_text("raise ImportError('not installed')\n")
    pdf = tmp_path / "paper [draft].pdf"
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    proc = cli(tmp_path, "check", "--offline", str(pdf), env={"PYTHONPATH": f"{fake}{os.pathsep}{ROOT / 'src'}"})
    assert proc.returncode == 2
    assert "pip install 'citetracer[pdf]'" in proc.stderr, proc.stderr
    assert "paper [draft].pdf" in proc.stderr


def test_extract_prints_titles_with_brackets(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{a, title={Learning [bold]to[/bold] Rank}, author={Doe, Jane}, year={2020}}\n")
    proc = cli(tmp_path, "extract", str(bib))
    assert proc.returncode == 0, proc.stderr
    assert "Learning [bold]to[/bold] Rank" in proc.stdout
