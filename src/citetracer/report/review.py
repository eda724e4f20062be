"""A Markdown summary of many papers, sized for a review comment (a pull request, a ticket).

Totals, the papers riskiest first, and the Hallucinated citations with their reasons; the
full detail is in the HTML report. GitHub caps a comment at 65,536 characters, so rows
and cells are bounded and what is left out is counted.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import IO

from citetracer.records import CitationResult
from citetracer.report.views import PaperCounts, lead_reason, short_ref, top_codes
from citetracer.taxonomy import CODES

MAX_PAPER_ROWS = 50
MAX_CITATION_ROWS = 60
MAX_CELL = 240


def _cell(text: object) -> str:
    s = " ".join(str(text if text is not None else "").split()).replace("|", "\\|")
    s = s.replace("<", "&lt;").replace(">", "&gt;")
    return s if len(s) <= MAX_CELL else s[: MAX_CELL - 1] + "…"


@dataclass
class ReviewSummary:
    """Feed papers with `paper` (and `unchecked`), then `write` the comment."""

    only_flagged: bool = False
    papers: list[PaperCounts] = field(default_factory=list)
    unchecked: list[tuple[str, str]] = field(default_factory=list)
    hallucinated: list[tuple[str, CitationResult]] = field(default_factory=list)
    more_hallucinated: int = 0
    codes: Counter[str] = field(default_factory=Counter)

    def paper(self, counts: PaperCounts, citations: list[CitationResult]) -> None:
        """Count a checked paper and keep its flagged citations for the summary (a bounded number of rows)."""
        self.papers.append(counts)
        for c in citations:
            if c.verdict.class_ == "Real":
                continue
            self.codes[c.verdict.code] += 1
            if c.verdict.class_ == "Hallucinated":
                if len(self.hallucinated) < MAX_CITATION_ROWS:
                    self.hallucinated.append((counts.file, c))
                else:
                    self.more_hallucinated += 1

    def unchecked_paper(self, file: str, error: str) -> None:
        """Note a paper that could not be checked, with the reason."""
        self.unchecked.append((file, error))

    def write(self, out: IO[str], details: str = "index.html") -> None:
        """The review-comment summary in Markdown: papers with Hallucinated citations first, a link to the details."""
        papers = sorted(self.papers, key=PaperCounts.risk_key)
        h1 = sum(1 for p in papers if p.hallucinated)
        h3 = sum(1 for p in papers if p.hallucinated >= 3)
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
        if self.codes:
            top = ", ".join(f"{k} {CODES[k].name} ×{n}" for k, n in self.codes.most_common(6) if k in CODES)
            out.write(f"**Top codes:** {top}\n\n")
        shown = [p for p in papers if p.flagged or not self.only_flagged]
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
        if self.only_flagged and len(shown) < len(papers):
            out.write(f"{len(papers) - len(shown)} papers with nothing flagged are not listed.\n\n")
        for file, error in self.unchecked[:MAX_PAPER_ROWS]:
            out.write(f"> not checked: {_cell(file)}: {_cell(error)}\n")
        if self.unchecked:
            out.write("\n")
        if self.hallucinated:
            n = len(self.hallucinated) + self.more_hallucinated
            out.write(f"<details><summary>Hallucinated citations ({n})</summary>\n\n")
            out.write("| paper | id | codes | citation | why |\n|---|---|---|---|---|\n")
            for file, c in self.hallucinated:
                out.write(
                    f"| {_cell(file)} | {_cell(c.id)} | {_cell(', '.join(c.verdict.codes))} | "
                    f"{_cell(short_ref(c, 90))} | {_cell(lead_reason(c.verdict.rationale))} |\n"
                )
            if self.more_hallucinated:
                out.write(f"\n… and {self.more_hallucinated} more in {details}.\n")
            out.write("\n</details>\n")
