"""`--read-only`: a check against a shared or mirrored store never writes to it (verified links,
evidence memo, records learned from online answers), through the CLI in a subprocess against the
fake web on 127.0.0.1."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.cliproc import run_cli
from tests.fakeweb.server import FakeWeb

ROOT = Path(__file__).resolve().parents[2]
BIB = """@inproceedings{near, title={Sequence to sequence learning with recurrent networks},
  author={Sutskever, Ilya}, booktitle={NeurIPS}, year={2014}}
@article{lstm, title={Long Short-Term Memory}, author={Hochreiter, Sepp and Schmidhuber, J{\\"u}rgen},
  journal={Neural Computation}, year={1997}}
"""


def snapshot(store: Path) -> tuple[object, ...]:
    """What a check could change: record, memo and verified-link counts and the file's bytes."""
    db = sqlite3.connect(store)
    try:
        counts = tuple(
            db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in ("records", "memo", "verified")
        )
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    return (*counts, hashlib.sha256(store.read_bytes()).hexdigest())


def run(
    tmp_path: Path, web: FakeWeb, *flags: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    sources = {f"CITETRACER_{name.upper()}_URL": url for name, url in web.sources().items()}
    return run_cli(tmp_path, "check", str(bib), "--format", "json", *flags, env={**sources, **(env or {})})


def seeded(tmp_path: Path) -> Path:
    (tmp_path / "config.toml").write_text("")
    store = tmp_path / "store.sqlite"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "citetracer",
            "mirror",
            "add",
            str(ROOT / "examples" / "records.jsonl"),
            "--store",
            str(store),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    return store


#: No polite-rate waits against the fake web: a source skipped for the rate budget on a loaded machine
#: would leave nothing to learn, and the control run below would prove nothing.
ONLINE = '[online]\nrate_limits = { "*" = 0 }\n'


def online_answers(proc: subprocess.CompletedProcess[str]) -> set[str]:
    """The online sources that answered for the check's citations (the memory stage left out)."""
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    return {
        s["source"]
        for c in doc["citations"]
        for s in c["cost"]["sources"]
        if s["status"] == "answered" and s["source"] != "memory"
    }


def test_a_read_only_check_leaves_the_store_as_it_was(tmp_path: Path, web: FakeWeb) -> None:
    store = seeded(tmp_path)
    (tmp_path / "config.toml").write_text(ONLINE)
    before = snapshot(store)
    for flags, env in ((["--read-only"], None), ([], {"CITETRACER_READ_ONLY": "1"})):
        assert online_answers(run(tmp_path, web, *flags, env=env))  # online sources answered: things to keep
        assert snapshot(store) == before
    (tmp_path / "config.toml").write_text("read_only = true\n" + ONLINE)
    assert online_answers(run(tmp_path, web))
    assert snapshot(store) == before
    (tmp_path / "config.toml").write_text(ONLINE)
    assert online_answers(run(tmp_path, web))  # the same check without it writes: memo, links, records
    records, memo, verified, _ = snapshot(store)
    assert memo > before[1] and verified > before[2] and records > before[0]


def test_a_read_only_check_never_creates_a_store(tmp_path: Path, web: FakeWeb) -> None:
    (tmp_path / "config.toml").write_text("")
    proc = run(tmp_path, web, "--read-only", "--offline")
    assert proc.returncode == 2 and "no such store" in proc.stderr, proc.stderr
    assert not (tmp_path / "store.sqlite").exists()
