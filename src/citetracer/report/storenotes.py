"""The store's warnings in a report: said once, apart from the papers' own warnings.

What the store cannot confirm offline (it is empty, holds no complete source, or its newest
snapshot predates the cited years: pipeline.store_note, store/gaps.py) is a fact of the store,
not of a paper. Given as each paper's warning, a report of 98 papers repeated it 98 times, counted
every paper as one "with extraction warnings" and clipped it in the summary's cell. Each writer
gathers them here and says each distinct one once, in a section of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

#: Papers named before a warning that only some papers of a report have, beyond which they are counted.
NAMED = 3


@dataclass
class StoreNotes:
    """The distinct store warnings of a report's papers, and which papers have each."""

    _papers: dict[str, list[str]] = field(default_factory=dict)
    _all: set[str] = field(default_factory=set)

    def add(self, paper: str, warnings: Iterable[str]) -> list[str]:
        """Note a paper's store warnings; returns those not noted before (for writers that say them as they come)."""
        self._all.add(paper)
        new = []
        for w in warnings:
            if w not in self._papers:
                self._papers[w] = []
                new.append(w)
            if paper not in self._papers[w]:
                self._papers[w].append(paper)
        return new

    def __bool__(self) -> bool:
        return bool(self._papers)

    def lines(self) -> list[str]:
        """Each distinct warning once; one that only some of several papers have names them
        ('a.pdf, b.pdf: 12 of 18 citations are from 2015 or later; ...')."""
        out = []
        for w, papers in self._papers.items():
            if len(self._all) > 1 and len(papers) < len(self._all):
                names = ", ".join(papers[:NAMED]) + (f" and {len(papers) - NAMED} more" if len(papers) > NAMED else "")
                out.append(f"{names}: {w}")
            else:
                out.append(w)
        return out
