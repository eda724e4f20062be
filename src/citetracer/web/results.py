"""A job's reports, written into its folder by the report writers `check` uses, as it is checked.

`report.json` is what `citetracer check --format json` writes (one document for one input,
a list for several), `report.csv`, `report.md` and `report.sarif` likewise; `report.bib` is
`check --fix` (only when BibTeX was given); `report.html` is the HTML report with the web
app's download links and its PDFs served by the app. Nothing here judges or re-words a
verdict. Reports name inputs as the user named them, never by their place on the server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO

from citetracer.records import CitationResult
from citetracer.report.bibfix import MARK, BibFixer, ResultsOnDisk
from citetracer.report.csv_report import CitationCsv
from citetracer.report.html_report import HtmlReport
from citetracer.report.render import MarkdownReport
from citetracer.report.sarif import SarifWriter
from citetracer.report.sources import bib_sources, read_text_file
from citetracer.report.stream import JsonStream
from citetracer.scan.inputs import STAGING
from citetracer.version import __version__
from citetracer.web.uploads import Input

#: Download formats: suffix -> (file in the job's folder, media type).
DOWNLOADS: dict[str, tuple[str, str]] = {
    "json": ("report.json", "application/json"),
    "csv": ("report.csv", "text/csv; charset=utf-8"),
    "md": ("report.md", "text/markdown; charset=utf-8"),
    "bib": ("report.bib", "application/x-bibtex; charset=utf-8"),
    "sarif": ("report.sarif", "application/sarif+json"),
}
PAGE = "report.html"
#: The job's PDFs in the order the result page links them (paths inside the job's folder).
PDFS = "pdfs.json"
#: The corrected BibTeX's scratch file while the job runs (deleted when its reports are written).
FIXES = ".fixes.sqlite"


class JobReports:
    """A job's reports, written citation by citation as they are judged (the writers `check --format
    json|csv|sarif|html` streams with), each into a temporary file renamed into place by `close()`:
    a 20,000-citation job holds the citations in flight, not all of them. Markdown writes its rows to a
    temporary file until the paper's counts are known (render.MarkdownReport); the corrected BibTeX,
    written once every citation is judged, reads what it needs of each from a scratch SQLite file in the
    job's folder (bibfix.ResultsOnDisk), not from memory."""

    def __init__(
        self,
        folder: Path,
        job_url: str,
        context: str,
        papers: list[Input],
        has_bib: bool,
        notes: list[str] | None = None,
    ) -> None:
        self.folder = folder
        self.job_url = job_url
        self._files: list[tuple[Path, IO[str]]] = []
        self.json = JsonStream(self._open("report.json"), __version__, many=len(papers) > 1)
        self.csv = CitationCsv(self._open("report.csv"))
        self.sarif = SarifWriter(self._open("report.sarif"), base_dir=folder / "input", publish_base=False)
        self.sarif.begin()
        self.md = MarkdownReport(self._open("report.md"))
        self.has_bib = has_bib
        actions = [("new check", "/")]
        actions += [
            (f"download {ext.upper()}", f"{job_url}/report.{ext}") for ext in DOWNLOADS if ext != "bib" or has_bib
        ]
        title = f"citetracer: {papers[0].display}" if len(papers) == 1 else f"citetracer: {len(papers)} inputs"
        self.html = HtmlReport(self._open(PAGE), title=title, context=context, actions=actions, notes=list(notes or []))
        self.html.begin()
        self.fixes = ResultsOnDisk(folder / FIXES) if has_bib else None
        self.fixer = BibFixer(self.fixes)
        self.pdfs: list[str] = []
        self.paper: Input | None = None

    def _open(self, name: str) -> IO[str]:
        fh = (self.folder / f".{name}.tmp").open("w", encoding="utf-8", newline="")
        self._files.append((self.folder / name, fh))
        return fh

    def begin(self, paper: Input, warnings: list[str]) -> None:
        """A paper's citations follow; `warnings` are its reading's."""
        self.paper = paper
        self.json.begin(paper.display)
        self.md.begin(paper.display)
        pdf = None
        if paper.path.suffix.lower() == ".pdf":
            self.pdfs.append(_kept_pdf(self.folder, paper.path, len(self.pdfs) + 1))
            pdf = f"{self.job_url}/pdf/{len(self.pdfs)}"
        self.html.begin_paper(paper.display, warnings=warnings, pdf_href=pdf)

    def citation(self, c: CitationResult) -> None:
        assert self.paper is not None
        self.json.citation(c)
        self.csv.add(self.paper.display, c)
        self.sarif.add(str(self.paper.path), c)
        self.html.citation(c)
        self.md.citation(c)
        if self.has_bib:
            self.fixer.add(c)

    def end(self, warnings: list[str]) -> None:
        """The paper's last citation was given; `warnings` are all of its warnings."""
        assert self.paper is not None and self.json.paper is not None
        self.json.end(warnings)
        for w in warnings:
            self.sarif.note(w)
        self.html.end_paper(self.json.paper.paper_counts(len(warnings)), warnings=warnings)
        self.md.end(warnings)
        self.paper = None

    def unreadable(self, name: str, why: str) -> None:
        """A paper nothing could be read from, shown on the page."""
        self.html.unreadable_paper(name, why)

    def close(self, bib_sources_of: list[Input]) -> None:
        """Finish every report and rename it into place; then the corrected BibTeX and the PDFs' list."""
        self.json.close()
        self.sarif.end()
        self.html.end()
        for path, fh in self._files:
            fh.close()
            path.with_name(f".{path.name}.tmp").replace(path)
        self._files = []
        if self.has_bib:
            _write_bibtex(self.folder, bib_sources_of, self.fixer)
        self._drop_fixes()
        (self.folder / PDFS).write_text(json.dumps(self.pdfs), encoding="utf-8")

    def abort(self) -> None:
        """The job failed: close and delete what was begun."""
        for path, fh in self._files:
            fh.close()
            path.with_name(f".{path.name}.tmp").unlink(missing_ok=True)
        self._files = []
        self._drop_fixes()

    def _drop_fixes(self) -> None:
        if self.fixes is not None:
            self.fixes.close()
            self.fixes = None


def has_bibtex(papers: list[Input]) -> bool:
    """Whether a job has BibTeX to correct (its `.bib` inputs, or those its `.tex` inputs read)."""
    return any(bib_sources(p.path) for p in papers)


def _kept_pdf(folder: Path, path: Path, n: int) -> str:
    """Where the job's n-th PDF is served from: an upload stays where it is; a PDF unpacked from an
    archive is moved out of the staging folder, which is deleted when the job ends."""
    if path.is_relative_to(folder / STAGING):
        kept = folder / "pdf" / f"{n}.pdf"
        kept.parent.mkdir(exist_ok=True)
        path.replace(kept)
        path = kept
    return path.relative_to(folder).as_posix()


def pdf_file(folder: Path, n: int) -> Path | None:
    """The job's n-th PDF (1-based, as the result page links it), or None."""
    try:
        names = json.loads((folder / PDFS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(names, list) or not 1 <= n <= len(names):
        return None
    path = (folder / str(names[n - 1])).resolve()
    return path if path.is_relative_to(folder.resolve()) and path.is_file() else None


def _write_bibtex(folder: Path, papers: list[Input], fixer: BibFixer) -> None:
    """The corrected BibTeX (as `check --fix` writes it) of the BibTeX the papers are or read."""
    sources: list[tuple[str, Path]] = []
    for paper in papers:
        for bib in bib_sources(paper.path):
            if all(bib != known for _, known in sources):
                sources.append((bib.name if bib != paper.path else paper.display, bib))
    tmp = folder / ".report.bib.tmp"
    with tmp.open("w", encoding="utf-8", newline="") as out:
        for i, (name, bib) in enumerate(sources):
            text = read_text_file(bib)
            if text is None:
                continue
            if len(sources) > 1:  # as `check --fix` separates files, naming each as the user did
                out.write(("\n" if i else "") + MARK + "from " + " ".join(name.replace("@", "(at)").split()) + "\n")
            out.write(fixer.fixed_text(text))
    tmp.replace(folder / "report.bib")
