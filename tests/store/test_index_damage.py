"""A damaged title index is detected when the store opens and rebuilt from the records (SQLite).

A missing, garbled or truncated segment file crashed every command with a traceback, every
time; a deleted meta.json left an empty index for good, and verdicts changed silently.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from citetracer.cli import main
from citetracer.records import WorkRecord
from citetracer.store.db import Store
from citetracer.store.swap import index_path

N = 300


def _seed(path: Path) -> None:
    with Store(path) as store:
        store.upsert(
            WorkRecord(source="t", id=str(i), title=f"paper {i} about graphs", year=2000 + i % 20) for i in range(N)
        )


def _files(index: Path, ext: str) -> list[Path]:
    found = list(index.glob(f"*.{ext}"))
    assert found, ext
    return found


def _missing(ext: str) -> Callable[[Path], None]:
    return lambda idx: [p.unlink() for p in _files(idx, ext)]  # type: ignore[func-returns-value]


def _truncate(p: Path) -> None:
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


DAMAGE: dict[str, Callable[[Path], None]] = {
    **{f"missing .{ext}": _missing(ext) for ext in ("term", "idx", "store", "fast")},
    "garbled .term": lambda idx: [p.write_bytes(os.urandom(p.stat().st_size)) for p in _files(idx, "term")],
    "truncated .store": lambda idx: [_truncate(p) for p in _files(idx, "store")],
    "deleted meta.json": lambda idx: (idx / "meta.json").unlink(),
    "garbled meta.json": lambda idx: (idx / "meta.json").write_text("{garbage"),
    "index directory emptied": lambda idx: [p.unlink() for p in idx.iterdir() if p.name != "BUILD"],
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_index_is_rebuilt_from_the_records(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "s.sqlite"
    _seed(path)
    DAMAGE[damage](index_path(path))
    said: list[str] = []
    with Store(path, notify=said.append) as store:
        assert store.index.count() == N
        hits = store.index.by_title("paper 7 about graphs", 1)
        assert store.records(hits)[hits[0]].title == "paper 7 about graphs"
    assert len(said) == 1 and "rebuilt" in said[0], said
    with Store(path, notify=said.append) as store:  # healed for good: nothing to say the next time
        assert store.index.count() == N
    assert len(said) == 1


def test_mirror_reindex_rebuilds_the_index_on_request(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite"
    _seed(path)
    shutil.rmtree(index_path(path))
    assert main(["mirror", "reindex", "--store", str(path)]) == 0
    assert f"{N} records" in capsys.readouterr().out
    assert main(["mirror", "stats", "--store", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["indexed_documents"] == N
