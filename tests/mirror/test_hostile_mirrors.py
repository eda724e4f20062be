"""Hostile mirror inputs through the CLI in its own process, and ingests killed at random points.

Found by these tests: `mirror add` held a line whole before measuring it (a 3 GB line without a
newline took 6.6 GB), ended with an internal error on JSON nested deeper than Python's stack, and read
a gzip'd file as thousands of bad lines; an OpenAlex part whose deflate data is damaged (zlib's own
error, not a short file) ended with an internal error.

After every failed or killed ingest the store must open, answer for the records it held before, and
the same command run again must finish with every record.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import hostile_files as H
from tests.cliproc import one_clear_error, run_cli
from tests.mirror.conftest import DTD, FIXTURES, fixture_lines, many_records, write_dump, write_openalex

CAP = 2 * 2**30
ROOT = Path(__file__).resolve().parents[2]


def stats(tmp_path: Path, store: Path) -> dict:
    proc = run_cli(tmp_path, "mirror", "stats", "--store", str(store))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    data: dict = json.loads(proc.stdout)
    return data


def clean(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr


def test_add_skips_lines_nested_past_the_stack_one_line_each(tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "mirror", "add", str(H.jsonl_deep_nesting(tmp_path / "deep.jsonl")), memory_cap=CAP)
    clean(proc)
    assert proc.returncode == 0 and "added 3 records" in proc.stdout
    assert proc.stderr.count("JSON nested too deep; skipped") == 2


def test_add_reads_past_a_3_gb_line_without_holding_it(tmp_path: Path) -> None:
    """The line is a sparse file's hole (no disk used); the process may not map 2 GB in all."""
    proc = run_cli(tmp_path, "mirror", "add", str(H.jsonl_giant_line(tmp_path / "giant.jsonl")), memory_cap=CAP)
    clean(proc)
    assert proc.returncode == 0 and "added 2 records" in proc.stdout, proc.stderr
    assert "giant.jsonl:2: line longer than 1000000 bytes; skipped" in proc.stderr


@pytest.mark.parametrize(("kind", "data"), [("gzip", b"\x1f\x8b\x08\x00"), ("xz", b"\xfd7zXZ\x00\x00")])
def test_add_refuses_a_compressed_file_in_one_line_and_makes_no_store(tmp_path: Path, kind: str, data: bytes) -> None:
    path = tmp_path / f"records.jsonl.{kind}"
    path.write_bytes(data + os.urandom(2000))
    proc = run_cli(tmp_path, "mirror", "add", str(path))
    assert proc.returncode == 2
    assert one_clear_error(proc) == (
        f"error: {path}: {kind}-compressed; `mirror add` reads plain JSON lines (decompress it first)"
    )
    assert not (tmp_path / "store.sqlite").exists()


def arxiv_lines() -> list[str]:
    return (FIXTURES / "arxiv-snapshot.jsonl").read_text(encoding="utf-8").splitlines()


def test_arxiv_snapshot_with_broken_records_keeps_the_good_ones(tmp_path: Path) -> None:
    good = arxiv_lines()
    snapshot = H.arxiv_broken_records(tmp_path / "arxiv.json", good)
    proc = run_cli(tmp_path, "mirror", "arxiv", str(snapshot), "--date", "2024-01-01", memory_cap=CAP)
    clean(proc)
    assert proc.returncode == 0, proc.stderr
    alone = tmp_path / "alone.sqlite"
    (tmp_path / "good.json").write_text("\n".join(good) + "\n", encoding="utf-8")
    assert run_cli(tmp_path, "mirror", "arxiv", str(tmp_path / "good.json"), "--store", str(alone)).returncode == 0
    # The broken records that have an id and a title are kept (their other fields as far as they read).
    expected = stats(tmp_path, alone)["by_source"]["arxiv"] + 5
    assert stats(tmp_path, tmp_path / "store.sqlite")["by_source"] == {"arxiv": expected}, proc.stderr
    assert "arxiv.json:9: maximum recursion depth exceeded" in proc.stderr


def test_openalex_part_with_broken_records_keeps_the_good_ones(tmp_path: Path) -> None:
    good = fixture_lines("works-part_000.jsonl")
    part = H.openalex_broken_records(tmp_path / "part.jsonl", good)
    proc = run_cli(tmp_path, "mirror", "openalex", str(part), memory_cap=CAP)
    clean(proc)
    assert proc.returncode == 0, proc.stderr
    held = stats(tmp_path, tmp_path / "store.sqlite")["by_source"]["openalex"]
    assert held >= len(good), proc.stderr


def _seeded(tmp_path: Path) -> Path:
    store = tmp_path / "store.sqlite"
    lines = "\n".join(H.jsonl_good(50, "seed")) + "\n"
    (tmp_path / "seed.jsonl").write_text(lines, encoding="utf-8")
    assert run_cli(tmp_path, "mirror", "add", str(tmp_path / "seed.jsonl"), "--source", "mine").returncode == 0
    return store


@pytest.mark.parametrize("damage", ["truncated", "corrupt"])
def test_a_damaged_arxiv_snapshot_is_one_error_and_the_store_is_unchanged(tmp_path: Path, damage: str) -> None:
    store = _seeded(tmp_path)
    before = stats(tmp_path, store)
    path = tmp_path / "arxiv.json.gz"
    lines = arxiv_lines() * 200
    (H.gzip_truncated if damage == "truncated" else H.gzip_corrupt)(path, lines)
    proc = run_cli(tmp_path, "mirror", "arxiv", str(path), "--date", "2024-01-01")
    assert proc.returncode == 2
    assert "cannot be read to its end" in one_clear_error(proc)
    after = stats(tmp_path, store)
    assert after["by_source"] == before["by_source"] == {"mine": 50}


def test_an_xz_snapshot_is_read_and_a_damaged_one_is_one_error(tmp_path: Path) -> None:
    store = _seeded(tmp_path)
    lines = arxiv_lines() * 200
    for damage in ("truncated", "corrupt"):
        proc = run_cli(tmp_path, "mirror", "arxiv", str(H.xz_file(tmp_path / f"{damage}.json.xz", lines, damage)),
                       "--date", "2024-01-01")  # fmt: skip
        assert proc.returncode == 2
        assert "cannot be read to its end" in one_clear_error(proc)
        assert stats(tmp_path, store)["by_source"] == {"mine": 50}
    proc = run_cli(tmp_path, "mirror", "arxiv", str(H.xz_file(tmp_path / "whole.json.xz", arxiv_lines())),
                   "--date", "2024-01-01")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert stats(tmp_path, store)["by_source"]["arxiv"] >= 5


def test_a_corrupt_openalex_part_is_one_error_and_what_was_read_is_kept(tmp_path: Path) -> None:
    store = _seeded(tmp_path)
    path = H.gzip_corrupt(tmp_path / "part_000.gz", fixture_lines("works-part_000.jsonl") * 50)
    proc = run_cli(tmp_path, "mirror", "openalex", str(path))
    assert proc.returncode == 2
    assert "cannot be read to its end" in one_clear_error(proc)
    assert stats(tmp_path, store)["by_source"]["mine"] == 50


# ------------------------------------------------------------------ kill -9 at random points


def arxiv_snapshot(path: Path, n: int) -> Path:
    template = json.loads(arxiv_lines()[0])
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            rec = dict(template, id=f"2101.{i:05d}", title=f"Synthetic arXiv work number {i}", doi=None)
            rec["authors_parsed"] = [["Writer", f"Ann{i % 97}", ""]]
            fh.write(json.dumps(rec) + "\n")
    return path


def openalex_snapshot(root: Path, n: int) -> Path:
    template = json.loads(fixture_lines("works-part_000.jsonl")[0])
    parts: dict[str, list[str]] = {}
    for p in range(4):
        parts[f"part_{p:03d}.gz"] = [
            json.dumps(dict(template, id=f"https://openalex.org/W8{p}{i:06d}", doi=None, display_name=f"OA {p} {i}"))
            for i in range(n // 4)
        ]
    return write_openalex(root, parts)


def _cli(store: Path, *args: str | Path) -> subprocess.Popen[str]:
    env = {**os.environ, "CITETRACER_STORE": str(store), "CITETRACER_OFFLINE": "1", "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "citetracer.cli", *map(str, args)]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(store: Path, *args: str | Path) -> float:
    start = time.monotonic()
    proc = _cli(store, *args)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return time.monotonic() - start


def kill_rounds(tmp_path: Path, rounds: int, seed: int, size: int) -> list[float]:
    """`rounds` ingests (add, dblp, arxiv, openalex in turn), each killed with SIGKILL at a random moment;
    after each, the store opens and still answers for the records of every ingest that finished before
    it; then each ingest run again finishes with every record. The seconds of each process after a kill
    and of each whole ingest (for bench/hostile_runs.py)."""
    seconds: list[float] = []
    rng = random.Random(seed)
    store = tmp_path / "s.sqlite"
    (tmp_path / "dblp.dtd").write_text(DTD, encoding="utf-8")
    jobs = {
        "add": ("mirror", "add", H.jsonl_path(tmp_path / "a.jsonl", size, "k"), "--source", "mine"),
        "dblp": ("mirror", "dblp", write_dump(tmp_path / "dblp.xml.gz", many_records(size))),
        "arxiv": ("mirror", "arxiv", arxiv_snapshot(tmp_path / "arxiv.json", size), "--date", "2024-01-01"),
        "openalex": ("mirror", "openalex", openalex_snapshot(tmp_path / "oa", size)),
    }
    # A first whole ingest: the records every later kill must leave answering.
    _finish(store, "mirror", "add", H.jsonl_path(tmp_path / "base.jsonl", 300, "base"), "--source", "base")
    order = list(jobs)
    for round_ in range(rounds):
        name = order[round_ % len(order)]
        proc = _cli(store, *jobs[name])
        time.sleep(rng.uniform(0.3, 3.0))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=120)
        start = time.monotonic()
        got = stats(tmp_path, store)
        assert got["by_source"].get("base") == 300, (round_, name, got)
        seconds.append(time.monotonic() - start)
        bib = _base_bib(tmp_path)
        start = time.monotonic()
        check = run_cli(tmp_path, "check", str(bib), "--offline", "--store", str(store), "--format", "json")
        assert check.returncode == 0 and json.loads(check.stdout)["summary"]["real"] == 1, (round_, name, check.stderr)
        seconds.append(time.monotonic() - start)
    seconds += [_finish(store, *jobs[name]) for name in order]
    got = stats(tmp_path, store)
    assert got["by_source"]["base"] == 300 and got["by_source"]["mine"] == size
    assert got["by_source"]["dblp"] == size and got["by_source"]["arxiv"] == size
    assert got["by_source"]["openalex"] == 4 * (size // 4)
    assert not list(tmp_path.glob("s.sqlite.building-*"))
    return seconds


def _base_bib(tmp_path: Path) -> Path:
    path = tmp_path / "base.bib"
    path.write_text("@article{b, title={A good record number 7}, author={Writer, Ann}, year={2019}}\n")
    return path


def test_ingests_killed_at_five_random_points_leave_the_store_whole(tmp_path: Path) -> None:
    kill_rounds(tmp_path, rounds=5, seed=41, size=6000)


@pytest.mark.slow
def test_ingests_killed_at_twenty_random_points_leave_the_store_whole(tmp_path: Path) -> None:
    kill_rounds(tmp_path, rounds=20, seed=4141, size=20_000)
