"""A Markdown summary of many papers, sized for a review comment (a pull request, a ticket).

Totals, the legend, the papers riskiest first, and the citations to act on with their reasons
(Hallucinated, then P3: a real work cited with conflicts), the rest counted in one line; the
full detail is in the HTML report. GitHub caps a comment at 65,536 characters, so rows
and cells are bounded and what is left out is counted.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field
from typing import IO

from citetracer.records import CitationResult
from citetracer.report.render import markdown_text
from citetracer.report.storenotes import StoreNotes
from citetracer.report.views import (
    LEGEND,
    REVIEW_CODES,
    PaperCounts,
    decision_text,
    decisions_line,
    lead_reason,
    leading_codes,
    not_listed_line,
    plural,
    reading_rank,
    short_ref,
    top_codes,
)
from citetracer.taxonomy import CODES

MAX_PAPER_ROWS = 50
MAX_CITATION_ROWS = 60
MAX_CELL = 240


def _cell(text: object) -> str:
    s = " ".join(str(text if text is not None else "").split()).replace("|", "\\|")
    s = s.replace("<", "&lt;").replace(">", "&gt;")
    return s if len(s) <= MAX_CELL else s[: MAX_CELL - 1] + "…"


def _why(c: CitationResult) -> str:
    """The row's reason: the verdict's, after the chair's call when there is one."""
    decided = decision_text(c)
    return f"{decided} {lead_reason(c.verdict.rationale)}" if decided else lead_reason(c.verdict.rationale)


@dataclass
class ReviewSummary:
    """Feed papers with `paper` (and `unchecked`), then `write` the comment."""

    #: Which papers get a row (views.SHOW_CHOICES); every paper is counted in the totals.
    show: str = "all"
    papers: list[PaperCounts] = field(default_factory=list)
    unchecked: list[tuple[str, str]] = field(default_factory=list)
    #: The citations listed row by row: Hallucinated and P3 (REVIEW_CODES), a bounded number, kept in
    #: reading order (rank, then arrival) so the cap drops the last P3 rows, never an H behind them.
    listed: list[tuple[int, int, str, CitationResult]] = field(default_factory=list)
    more_listed: int = 0
    #: The citations not listed, by code ('R' for Real), for the one line that counts them.
    unlisted: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    store: StoreNotes = field(default_factory=StoreNotes)
    _seen: int = 0

    def paper(
        self, counts: PaperCounts, citations: list[CitationResult], store_warnings: list[str] | None = None
    ) -> None:
        """Count a checked paper and keep its flagged citations for the summary (a bounded number of rows);
        `store_warnings`, what the store cannot confirm of it, are said once for the summary (report/storenotes.py)."""
        self.papers.append(counts)
        self.store.add(counts.file, store_warnings or [])
        for c in citations:
            if c.verdict.class_ == "Real":
                self.unlisted["R"] += 1
                continue
            self.codes[c.verdict.code] += 1
            if c.verdict.class_ == "Hallucinated" or c.verdict.code in REVIEW_CODES:
                self._seen += 1
                bisect.insort(self.listed, (reading_rank(c), self._seen, counts.file, c), key=lambda x: x[:2])
                if len(self.listed) > MAX_CITATION_ROWS:
                    self.listed.pop()
                    self.more_listed += 1
            else:
                self.unlisted[c.verdict.code] += 1

    def unchecked_paper(self, file: str, error: str) -> None:
        """Note a paper that could not be checked, with the reason."""
        self.unchecked.append((file, error))

    def write(self, out: IO[str], details: str = "index.html") -> None:
        """The review-comment summary in Markdown: papers with Hallucinated citations first, a link to the details."""
        papers = sorted(self.papers, key=PaperCounts.risk_key)
        h1 = sum(1 for p in papers if p.open_hallucinated)  # what the chair dismissed is no longer an accusation
        h3 = sum(1 for p in papers if p.open_hallucinated >= 3)
        total = len(papers) + len(self.unchecked)
        out.write(f"## citetracer: {h1} of {total} papers cite Hallucinated references\n\n")
        out.write(
            "| papers | references | Real | Potential | Hallucinated | papers with ≥ 1 H | papers with ≥ 3 H "
            "| papers with warnings |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        )
        out.write(
            f"| {total} | {sum(p.references for p in papers)} | {sum(p.real for p in papers)} | "
            f"{sum(p.potential for p in papers)} | {sum(p.hallucinated for p in papers)} | {h1} | {h3} | "
            f"{sum(1 for p in papers if p.warnings)} |\n\n"
        )
        decided = decisions_line(sum(p.dismissed for p in papers), sum(p.confirmed for p in papers))
        if decided:
            out.write(f"{decided[0].upper()}{decided[1:]}.\n\n")
        out.write(f"<sub>{LEGEND}.</sub>\n\n")
        for w in self.store.lines()[:MAX_PAPER_ROWS]:
            out.write(f"> **store:** {markdown_text(w)}\n\n")  # whole: a cell's clip cut the advice off
        if self.codes:
            top = ", ".join(f"{k} {CODES[k].name} ×{n}" for k, n in leading_codes(self.codes, 6) if k in CODES)
            out.write(f"**Top codes:** {top}\n\n")
        shown = [p for p in papers if p.shows(self.show) and not p.no_list]  # no-list papers: their own lines
        if shown:
            out.write(
                "| paper (riskiest first) | references | Real | Potential | Hallucinated | top codes | warnings |\n"
                "|---|---:|---:|---:|---:|---|---:|\n"
            )
            for p in shown[:MAX_PAPER_ROWS]:
                out.write(
                    f"| {_cell(p.file)} | {p.references} | {p.real} | {p.potential} | {p.hallucinated} | "
                    f"{_cell(top_codes(p.codes))} | {p.warnings or ''} |\n"
                )
            if len(shown) > MAX_PAPER_ROWS:
                out.write(f"\n… and {len(shown) - MAX_PAPER_ROWS} more papers in {details}.\n")
            out.write("\n")
        no_list = [p for p in papers if p.no_list]
        if len(shown) + len(no_list) < len(papers):
            what = "Hallucinated" if self.show == "hallucinated" else "flagged (H, P2, P3)"
            out.write(f"{len(papers) - len(shown) - len(no_list)} papers with nothing {what} are not listed.\n\n")
        if no_list:  # nothing of them was checked: a chair must look, whatever is shown
            out.write(f"**{plural(len(no_list), 'paper')} with no reference list found** (nothing checked):\n\n")
            for p in no_list[:MAX_PAPER_ROWS]:
                out.write(f"- {_cell(p.file)}: {_cell(p.no_list)}\n")
            if len(no_list) > MAX_PAPER_ROWS:
                out.write(f"\n… and {len(no_list) - MAX_PAPER_ROWS} more in {details}.\n")
            out.write("\n")
        for file, error in self.unchecked[:MAX_PAPER_ROWS]:
            out.write(f"> not checked: {_cell(file)}: {_cell(error)}\n")
        if self.unchecked:
            out.write("\n")
        if self.listed:
            n = len(self.listed) + self.more_listed
            out.write(f"<details><summary>Citations to act on: Hallucinated and P3 ({n})</summary>\n\n")
            out.write("| paper | id | codes | citation | why |\n|---|---|---|---|---|\n")
            for _, _, file, c in self.listed:  # H first, then P3, each in the papers' order
                out.write(
                    f"| {_cell(file)} | {_cell(c.id)} | {_cell(', '.join(c.verdict.codes))} | "
                    f"{_cell(short_ref(c, 90))} | {_cell(_why(c))} |\n"
                )
            if self.more_listed:
                out.write(f"\n… and {self.more_listed} more in {details}.\n")
            out.write("\n</details>\n")
        rest = not_listed_line(self.unlisted)
        if rest:
            out.write(f"\n{rest}\n")
