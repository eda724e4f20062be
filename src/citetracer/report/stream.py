"""Reports written citation by citation, as they are judged: JSON, JSONL, CSV, SARIF and HTML.

Why: holding every judged citation until the end cost ~20 KB each (20,000
citations: 430 MB for JSON, 420-510 MB for CSV, SARIF and HTML), and the
document was then built whole once more. These writers take each citation as
the pipeline hands it over (`Checker.check(on_result=...)`), write it and
keep only the counts, so a report costs the memory of the citations in flight
(HTML holds one paper's cards, and CSV with `--show flagged` one paper's rows, to
write them in reading order, Hallucinated then P3 first, on disk when they are
many: report/held.py). JSON, JSONL, SARIF and CSV of every citation keep the
input order: they are data, read by id.
The JSON document is the contract's (DESIGN.md: `citetracer`, `input`,
`summary`, `warnings`, `store_warnings`, `citations`, `llm` when agents ran); its keys come in
another order (the summary follows the citations it counts), which JSON
readers ignore. Markdown (`MarkdownStream`) holds each paper's listed rows in
report/held.py until its counts are known; `--fix` (`FixCollector`) keeps what
the corrected BibTeX needs of each citation in a scratch SQLite file
(report/bibfix.py: ResultsOnDisk). Only the terminal table, read by a person on
a screen, still takes whole reports.

Each writer: `begin(name, warnings, reading)` per input (the reading's warnings, a PDF's ReadingSummary),
`citation(c)` per citation in order, `end(warnings, store_warnings)` with all of the
input's warnings (the reading's and the run's) and the store's (said once per
document: report/storenotes.py), `close()` once.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import IO, Any

from citetracer.records import CitationResult, ReadingSummary, Report
from citetracer.report.bibfix import BibFixer, ResultsOnDisk
from citetracer.report.csv_report import CitationCsv, citation_row
from citetracer.report.held import HeldRanks
from citetracer.report.html_report import HtmlReport
from citetracer.report.managedfix import ManagedFixer, managed_format
from citetracer.report.render import MarkdownReport, jsonl_record, no_list_record
from citetracer.report.sarif import SarifWriter
from citetracer.report.sources import bib_sources
from citetracer.report.views import READING_ORDER, PaperCounts, is_shown, reading_rank


class _Paper:
    """What is kept of one input's citations: counts, and the costs of those an agent reviewed."""

    def __init__(self, version: str, name: str) -> None:
        self.report = Report(version=version, input=name)
        self.counts = {"total": 0, "real": 0, "potential": 0, "hallucinated": 0}
        #: Citations an agent reviewed (a few per cent, only with an LLM): the `llm` totals read them.
        self.reviewed: list[CitationResult] = []
        #: The codes of the flagged citations (the HTML summary's top codes).
        self.codes: Counter[str] = Counter()

    def add(self, c: CitationResult) -> None:
        self.counts["total"] += 1
        self.counts[c.verdict.class_.lower()] += 1
        if c.verdict.class_ != "Real":
            self.codes[c.verdict.code] += 1
        if c.cost.agents:
            self.reviewed.append(c)

    def paper_counts(self, warnings: int) -> PaperCounts:
        c = self.counts
        return PaperCounts(
            file=self.report.input,
            references=c["total"],
            real=c["real"],
            potential=c["potential"],
            hallucinated=c["hallucinated"],
            warnings=warnings,
            codes=self.codes,
        )

    def llm(self) -> dict[str, Any] | None:
        if not self.reviewed:
            return None
        return self.report.model_copy(update={"citations": self.reviewed}).llm_totals()


class JsonlStream:
    """One CITATION per line (DESIGN.md), each written as soon as it is judged; a PDF's lines carry its reading
    too (`"reading"`, as the JSON document has it: a line is all a JSONL reader sees of its paper), and a PDF in
    which no list was found is one line of its own (`no_list_record`) instead of none."""

    def __init__(self, out: IO[str], version: str) -> None:
        self.out = out
        self.version = version
        self.paper: _Paper | None = None
        self.hallucinated = False
        #: Every input's counts together (the one-line summary `check -o` prints).
        self.totals: Counter[str] = Counter()
        #: The input's reading, a PDF's (None for other inputs).
        self.reading: ReadingSummary | None = None

    def begin(self, name: str, warnings: list[str] | None = None, reading: ReadingSummary | None = None) -> None:
        self.paper = _Paper(self.version, name)
        self.reading = reading

    def citation(self, c: CitationResult) -> None:
        assert self.paper is not None
        self.paper.add(c)
        self.totals["total"] += 1
        self.totals[c.verdict.class_.lower()] += 1
        self.hallucinated = self.hallucinated or c.verdict.class_ == "Hallucinated"
        self.write(c)

    def write(self, c: CitationResult) -> None:
        self.out.write(json.dumps(jsonl_record(c, self.reading), ensure_ascii=False) + "\n")

    def end(
        self, warnings: list[str], store_warnings: list[str] | None = None, reading: ReadingSummary | None = None
    ) -> None:
        reading = reading or self.reading
        if reading is not None and reading.no_list and self.paper is not None:
            record = no_list_record(self.paper.report.input, reading, warnings)
            self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.out.flush()

    def close(self) -> None:
        self.out.flush()


class JsonStream(JsonlStream):
    """The JSON document of one input, or a list of them for several inputs, written as it goes."""

    def __init__(self, out: IO[str], version: str, many: bool) -> None:
        super().__init__(out, version)
        self.many = many
        self.papers = 0
        self.first = True
        if many:
            out.write("[\n")

    def begin(self, name: str, warnings: list[str] | None = None, reading: ReadingSummary | None = None) -> None:
        super().begin(name, warnings, reading)
        if self.papers:
            self.out.write(",\n")
        self.papers += 1
        head = json.dumps({"citetracer": self.version, "input": name}, ensure_ascii=False, indent=2)
        self.out.write(head[:-2] + ',\n  "citations": [')
        self.first = True

    def write(self, c: CitationResult) -> None:
        text = json.dumps(c.to_json_dict(), ensure_ascii=False, indent=2).replace("\n", "\n    ")
        self.out.write(("\n    " if self.first else ",\n    ") + text)
        self.first = False

    def end(
        self, warnings: list[str], store_warnings: list[str] | None = None, reading: ReadingSummary | None = None
    ) -> None:
        assert self.paper is not None
        tail: dict[str, Any] = {
            "summary": self.paper.counts,
            "warnings": warnings,
            "store_warnings": list(store_warnings or []),
        }
        if reading is not None:
            tail["reading"] = reading.model_dump(mode="json")
        llm = self.paper.llm()
        if llm is not None:
            tail["llm"] = llm
        rest = json.dumps(tail, ensure_ascii=False, indent=2)
        self.out.write(("\n  ]" if not self.first else "]") + ",\n" + rest[2:])
        self.out.flush()

    def close(self) -> None:
        self.out.write("\n]\n" if self.many else "\n")
        self.out.flush()


class CsvStream(JsonlStream):
    """One CSV row per citation (report/csv_report.py): every citation written as judged, in input order
    (a table of data, like JSONL); with `--show flagged`, a list for a person to act on, each paper's rows
    held until it ends and written in reading order (H, P3, P2), so the P3 rows are not lost among P2."""

    def __init__(self, out: IO[str], version: str, show: str = "all", sort: str | None = None) -> None:
        super().__init__(out, version)
        self.rows = CitationCsv(out)
        self.show = show
        attention = sort == "attention" or (sort is None and show == "flagged")  # `--sort`, else by --show
        self.held = HeldRanks(len(READING_ORDER)) if attention else None
        self.writers = [csv.writer(h, lineterminator="\n") for h in self.held.ranks] if self.held else []

    def write(self, c: CitationResult) -> None:
        if not is_shown(c, self.show):
            return
        assert self.paper is not None
        if self.held is None:
            self.rows.add(self.paper.report.input, c, self.reading)
        else:
            self.writers[reading_rank(c)].writerow(citation_row(self.paper.report.input, c, self.reading))

    def end(
        self, warnings: list[str], store_warnings: list[str] | None = None, reading: ReadingSummary | None = None
    ) -> None:
        if self.held is not None:
            self.held.copy_to(self.out)
        reading = reading or self.reading
        if reading is not None and reading.no_list and self.paper is not None:
            self.rows.no_list(self.paper.report.input, reading)
        self.out.flush()


class SarifStream(JsonlStream):
    """One SARIF log for all inputs: results written as judged, the warnings as notifications at the end."""

    def __init__(self, out: IO[str], version: str) -> None:
        super().__init__(out, version)
        self.sarif = SarifWriter(out)
        self.sarif.begin()

    def write(self, c: CitationResult) -> None:
        assert self.paper is not None
        self.sarif.add(self.paper.report.input, c)

    def end(
        self, warnings: list[str], store_warnings: list[str] | None = None, reading: ReadingSummary | None = None
    ) -> None:
        assert self.paper is not None
        if (reading := reading or self.reading) is not None:
            self.sarif.reading(self.paper.report.input, reading)
        for w in warnings:
            self.sarif.note(w)
        for w in store_warnings or []:
            self.sarif.store_note(w)

    def close(self) -> None:
        self.sarif.end()
        self.out.flush()


class HtmlStream(JsonlStream):
    """The self-contained HTML report (report/html_report.py): each paper's cards as text until it ends."""

    def __init__(self, out: IO[str], version: str, html: HtmlReport) -> None:
        super().__init__(out, version)
        self.html = html
        self.html.begin()

    def begin(self, name: str, warnings: list[str] | None = None, reading: ReadingSummary | None = None) -> None:
        super().begin(name, warnings, reading)
        pdf = Path(name) if name.lower().endswith(".pdf") and Path(name).is_file() else None  # not a fetched URL
        self.html.begin_paper(name, pdf=pdf, warnings=warnings)

    def write(self, c: CitationResult) -> None:
        self.html.citation(c)

    def end(
        self, warnings: list[str], store_warnings: list[str] | None = None, reading: ReadingSummary | None = None
    ) -> None:
        assert self.paper is not None
        counts = self.paper.paper_counts(len(warnings))
        self.html.end_paper(counts, warnings=warnings, store_warnings=store_warnings, reading=reading)
        self.out.flush()

    def close(self) -> None:
        self.html.end()
        self.out.flush()


class MarkdownStream(JsonlStream):
    """The Markdown review comment of each input (report/render.py: MarkdownReport), one after another,
    as `write_markdown` writes whole reports: rows held on disk past 1 MB until the input's counts are known."""

    def __init__(self, out: IO[str], version: str, show: str | None = None, sort: str = "attention") -> None:
        super().__init__(out, version)
        self.markdown = MarkdownReport(out, show, sort)

    def begin(self, name: str, warnings: list[str] | None = None, reading: ReadingSummary | None = None) -> None:
        super().begin(name, warnings, reading)
        self.markdown.begin(name)

    def write(self, c: CitationResult) -> None:
        self.markdown.citation(c)

    def end(
        self, warnings: list[str], store_warnings: list[str] | None = None, reading: ReadingSummary | None = None
    ) -> None:
        self.markdown.end(warnings, store_warnings, reading=reading)
        self.out.flush()


class FixCollector:
    """What `check --fix` needs, gathered as citations are judged: each one's `fix_view` in a scratch
    SQLite file (`scratch`, deleted by `close`), and the .bib files behind each input (report/sources.py).
    A 20,000-citation check kept every whole result in memory for it."""

    def __init__(self, scratch: Path) -> None:
        self.results = ResultsOnDisk(scratch)
        self.fixer = BibFixer(self.results)
        self.sources: list[Path] = []
        #: RIS and CSL-JSON inputs (their kind each) and their fixes, written back in their own format; their
        #: size is bounded by the readers' reference cap, so their fix views stay in memory.
        self.managed = ManagedFixer()
        self.managed_kinds: dict[Path, str] = {}
        self._managed_input: Path | None = None

    def begin(self, name: str) -> None:
        kind = managed_format(Path(name))
        self._managed_input = Path(name) if kind else None
        if kind:
            self.managed_kinds[Path(name)] = kind
            return
        for bib in bib_sources(Path(name)):
            if bib not in self.sources:
                self.sources.append(bib)

    def citation(self, c: CitationResult) -> None:
        if self._managed_input is not None:
            self.managed.add(self._managed_input, c)
        else:
            self.fixer.add(c)

    def write(self, out: IO[str]) -> None:
        """The corrected BibTeX of every source, one after another."""
        self.fixer.write(self.sources, out)

    def close(self) -> None:
        self.results.close()
