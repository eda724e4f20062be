"""mirror/workers.py: chunks parsed in worker processes come back in order, and every failure is clear."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from citetracer.mirror.workers import WorkerError, ordered_map


class Bad(Exception):
    """The caller's own error type (passed through as it is)."""


def _square(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


def test_results_come_back_in_the_order_sent_and_are_parsed_in_other_processes() -> None:
    out = list(ordered_map(_square, ((f"k{i}", i) for i in range(200)), workers=2))
    assert [k for k, _ in out] == [f"k{i}" for i in range(200)]
    assert [r for _, (r, _) in out] == [i * i for i in range(200)]
    assert os.getpid() not in {pid for _, (_, pid) in out}
    assert list(ordered_map(_square, iter([("a", 3)]), workers=1)) == [("a", (9, os.getpid()))]


def test_a_reading_failure_comes_after_the_chunks_read_before_it() -> None:
    def chunks() -> Iterator[tuple[int, int]]:
        for i in range(20):
            yield i, i
        raise Bad("the dump is cut")

    got: list[int] = []
    with pytest.raises(Bad, match="cut"):
        for key, _ in ordered_map(_square, chunks(), workers=2):
            got.append(key)
    assert got == list(range(20))


def _fail_on_seven(x: int) -> int:
    if x == 7:
        raise Bad(f"chunk {x} is garbled")
    if x == 8:
        raise KeyError("odd")
    return x


def test_a_worker_failure_is_the_callers_error_or_a_worker_error() -> None:
    with pytest.raises(Bad, match="chunk 7 is garbled"):
        list(ordered_map(_fail_on_seven, ((i, i) for i in range(10)), workers=2, passthrough=(Bad,)))
    with pytest.raises(WorkerError, match="Bad: chunk 7"):
        list(ordered_map(_fail_on_seven, ((i, i) for i in range(10)), workers=2))
    with pytest.raises(WorkerError, match="KeyError"):
        list(ordered_map(_fail_on_seven, ((i, i + 8) for i in range(10)), workers=2, passthrough=(Bad,)))


def _die(x: int) -> int:
    if x == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def test_a_worker_that_dies_is_reported_not_waited_for() -> None:
    with pytest.raises(WorkerError, match="stopped unexpectedly"):
        list(ordered_map(_die, ((i, i) for i in range(50)), workers=2))
