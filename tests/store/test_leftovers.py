"""Half-built stores of killed ingests are removed by the next one, an index folder left alone included (a kill
between the half-built file's removal and its index folder's left `s.sqlite.building-PID.index` forever)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from citetracer.store.bulk import clean_leftovers


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_leftovers_of_dead_ingests_are_removed_and_a_live_ones_kept(tmp_path: Path) -> None:
    target = tmp_path / "s.sqlite"
    dead, other = _dead_pid(), _dead_pid()
    (tmp_path / f"s.sqlite.building-{dead}.index").mkdir()  # the folder alone
    (tmp_path / f"s.sqlite.building-{other}").write_bytes(b"x")  # file, journal and folder
    (tmp_path / f"s.sqlite.building-{other}-wal").write_bytes(b"x")
    (tmp_path / f"s.sqlite.building-{other}.index").mkdir()
    live = tmp_path / f"s.sqlite.building-{os.getpid()}.index"
    live.mkdir()
    clean_leftovers(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == [live.name]
