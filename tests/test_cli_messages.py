"""What a person reads on the terminal, through the CLI in a subprocess: messages are plain text
(never Rich markup), the store's state is said, and the table explains its own vocabulary."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.cliproc import run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(tmp_path, *args, env=env)


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


def test_the_table_explains_its_vocabulary_and_shows_what_is_asked(tmp_path: Path) -> None:
    seed(tmp_path)
    bib = str(EXAMPLES / "references.bib")
    table = cli(tmp_path, "check", "--offline", bib)
    assert table.returncode == 1, table.stderr
    # the example store cannot prove absence: said once, under the table (wrapped to the terminal's width)
    said = (table.stdout + table.stderr).replace("\n", " ")
    assert said.count("holds no complete source") == 1 and "citetracer mirror dblp" in said
    assert "P1 not found where no source searched covers it" in table.stdout  # the legend, one line
    assert "H Hallucinated: proof that the citation is wrong" in table.stdout
    only_h = cli(tmp_path, "check", "--offline", bib, "--show", "hallucinated")
    assert "goodfellow2014gan" in only_h.stdout and "pytorch" not in only_h.stdout
    assert "hochreiter1998lstm" not in only_h.stdout
    assert "Not listed: 5 Real, 3 P1 (not found where no source covers it), 1 P2" in only_h.stdout
    assert "16 citations: 5 Real, 5 Potential, 6 Hallucinated" in only_h.stdout  # totals count them all
    flagged = cli(tmp_path, "check", "--offline", bib, "--show", "flagged")
    alias = cli(tmp_path, "check", "--offline", bib, "--only-flagged")
    assert flagged.stdout == alias.stdout
    assert "pytorch" in flagged.stdout and "hochreiter1998lstm" in flagged.stdout  # P2, P3
    assert "doe2019thesis" not in flagged.stdout and "vaswani2017attention" not in flagged.stdout  # P1, Real


def test_the_markdown_review_lists_h_and_p3_and_counts_the_rest(tmp_path: Path) -> None:
    seed(tmp_path)
    proc = cli(tmp_path, "check", "--offline", str(EXAMPLES / "references.bib"), "--format", "markdown")
    assert proc.returncode == 1, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| ") and not line.startswith("| id ")]
    assert len(rows) == 7  # 6 Hallucinated + the P3
    assert all("**Hallucinated**" in r or "P3" in r for r in rows)
    assert "Not listed: 5 Real, 3 P1 (not found where no source covers it), 1 P2 (software, data or web pages)." in (
        proc.stdout
    )
    assert "P1 not found where no source searched covers it" in proc.stdout
    everything = cli(
        tmp_path, "check", "--offline", str(EXAMPLES / "references.bib"), "--format", "markdown", "--show", "all"
    )
    assert sum(line.startswith("| ") for line in everything.stdout.splitlines()) == 17
    assert "Not listed" not in everything.stdout


def test_the_csv_is_plain_with_its_header_first(tmp_path: Path) -> None:
    """Issue 44: a `# legend` first line made csv.DictReader and pandas take it for the header."""
    import csv
    import io

    seed(tmp_path)
    proc = cli(tmp_path, "check", "--offline", str(EXAMPLES / "references.bib"), "--format", "csv", "--show", "flagged")
    assert proc.stdout.startswith("file,id,class,code,")
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert sorted({r["code"] for r in rows}) == ["H2", "H3", "H4", "H6", "P2", "P3"]
