"""The collector's batch policy: set by the entry points that own their process, and only by them."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from citetracer import collector
from citetracer.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def restored() -> Iterator[None]:
    """This test process's collector settings, put back afterwards."""
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    yield
    gc.set_threshold(*thresholds)
    if not frozen:
        gc.unfreeze()


def test_for_batch_freezes_what_is_alive_and_collects_young_objects_less_often(restored: None) -> None:
    gc.unfreeze()
    kept = object.__new__(type("Kept", (), {}))  # a tracked object, alive when the policy is set
    collector.for_batch()
    assert gc.get_threshold() == collector.BATCH_THRESHOLDS
    assert gc.get_freeze_count() > 0
    assert not any(o is kept for o in gc.get_objects())  # frozen: out of every generation the collector scans


def test_a_command_called_with_argv_keeps_its_callers_collector(restored: None, tmp_path: Path) -> None:
    """`main(argv)` (a test, a program embedding the CLI) leaves the caller's process policy alone: only the
    process's own `check` or `scan` (argv None) is a batch."""
    gc.set_threshold(700, 10, 10)
    bib = tmp_path / "ok.bib"
    bib.write_text("@article{ok, title={Long Short-Term Memory}, author={Hochreiter, Sepp}, year=1997}")
    main(["check", str(bib), "--store", str(tmp_path / "store.sqlite"), "--offline"])
    assert gc.get_threshold() == (700, 10, 10)
