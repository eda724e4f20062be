"""Text a report writes now and copies out later: in memory while small, then in a temporary file.

Why: a paper's Markdown rows wait for its counts, which head the comment, and its HTML cards (and the
CSV rows of `--show flagged`) wait to be written in reading order, Hallucinated then P3 first; held as
Python strings, a 20,000-citation paper's cost tens of
megabytes (and as much again when joined). Held here, past `LIMIT` characters they are on disk.
"""

from __future__ import annotations

import shutil
import tempfile
from typing import IO


class HeldText:
    """Pieces of text, kept in order until `copy_to` writes them out (and forgets them)."""

    #: Characters kept in memory before the text spills into a temporary file.
    LIMIT = 1 << 20

    def __init__(self) -> None:
        self._file: IO[str] | None = None
        #: How many pieces were written since the last `copy_to`.
        self.pieces = 0

    def write(self, text: str) -> None:
        if self._file is None:  # closed by copy_to (one never copied out is left to the collector)
            self._file = tempfile.SpooledTemporaryFile(  # noqa: SIM115
                max_size=self.LIMIT, mode="w+", encoding="utf-8", newline=""
            )
        self._file.write(text)
        self.pieces += 1

    def copy_to(self, out: IO[str]) -> None:
        """Write the held text to `out` and start afresh."""
        if self._file is not None:
            self._file.seek(0)
            shutil.copyfileobj(self._file, out)
            self._file.close()
        self._file = None
        self.pieces = 0


class HeldRanks:
    """One `HeldText` per rank, copied out rank by rank: a paper's rows written as judged, read in another order.

    Why: the streamed HTML cards, Markdown rows and `--show flagged` CSV rows of a paper come out in the
    reports' reading order (views.READING_ORDER: Hallucinated, P3, P2, P1, Real), while the citations
    arrive in input order; each rank keeps its rows in the order given, so the sort is stable and no
    rank's rows stay in memory past `HeldText.LIMIT`.
    """

    def __init__(self, ranks: int) -> None:
        self.ranks = [HeldText() for _ in range(ranks)]

    def __getitem__(self, rank: int) -> HeldText:
        return self.ranks[rank]

    @property
    def pieces(self) -> int:
        """How many pieces wait, in every rank."""
        return sum(held.pieces for held in self.ranks)

    def copy_to(self, out: IO[str]) -> None:
        """Write every rank's text, first rank first, and start afresh."""
        for held in self.ranks:
            held.copy_to(out)
