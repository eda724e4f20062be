"""A job's reports, written into its folder by the report writers `check` uses, as it is checked.

`report.json` is what `citetracer check --format json` writes (one document for one input,
a list for several), `report.csv`, `report.md` and `report.sarif` likewise; `report.bib` is
`check --fix` of the job's one BibTeX file, `report.bib.zip` one corrected file per BibTeX
file when there were several (each named as it was uploaded); `report.html` is the HTML
report with the web app's download links and its PDFs served by the app, `download.html`
the same report as `check --format html` writes it (a file that stands alone). Nothing here
judges or re-words a verdict. Reports name inputs as the user named them, never by their
place on the server.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path
from typing import IO

from citetracer.records import CitationResult, ReadingSummary
from citetracer.report.bibfix import BibFixer, ResultsOnDisk
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
    "bib.zip": ("report.bib.zip", "application/zip"),
    "sarif": ("report.sarif", "application/sarif+json"),
    "html": ("download.html", "text/html; charset=utf-8"),
}
#: What each download is called on the job's page.
LABELS = {"bib.zip": "download BIBs (zip)"}
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
        self.bibs = bibtex_files(papers)
        self.has_bib = bool(self.bibs)
        bib = "bib" if len(self.bibs) == 1 else "bib.zip" if self.bibs else None
        actions = [("new check", "/"), ("download decisions (CSV)", f"{job_url}/decisions?format=csv")]
        actions += [
            (LABELS.get(ext, f"download {ext.upper()}"), f"{job_url}/report.{ext}")
            for ext in DOWNLOADS
            if ext not in ("bib", "bib.zip") or ext == bib
        ]
        title = f"citetracer: {papers[0].display}" if len(papers) == 1 else f"citetracer: {len(papers)} inputs"
        self.html = HtmlReport(
            self._open(PAGE),
            title=title,
            context=context,
            actions=actions,
            notes=list(notes or []),
            review_url=f"{job_url}/decisions",  # the result page's review buttons (web/reviews.py)
        )
        # the download: `check --format html`'s file (no links back to this server, no PDF it would miss)
        self.file_html = HtmlReport(
            self._open(DOWNLOADS["html"][0]), title=title, context=context, notes=list(notes or [])
        )
        self.html.begin()
        self.file_html.begin()
        self.fixes = ResultsOnDisk(folder / FIXES) if self.has_bib else None
        self.fixer = BibFixer(self.fixes)
        self.pdfs: list[str] = []
        self.paper: Input | None = None
        self.reading: ReadingSummary | None = None

    def _open(self, name: str) -> IO[str]:
        fh = (self.folder / f".{name}.tmp").open("w", encoding="utf-8", newline="")
        self._files.append((self.folder / name, fh))
        return fh

    def begin(self, paper: Input, warnings: list[str], reading: ReadingSummary | None = None) -> None:
        """A paper's citations follow; `warnings` are its reading's, `reading` a PDF's (its CSV rows carry it)."""
        self.paper = paper
        self.reading = reading
        self.json.begin(paper.display)
        self.md.begin(paper.display)
        pdf = None
        if paper.path.suffix.lower() == ".pdf":
            self.pdfs.append(_kept_pdf(self.folder, paper.path, len(self.pdfs) + 1))
            pdf = f"{self.job_url}/pdf/{len(self.pdfs)}"
        self.html.begin_paper(paper.display, warnings=warnings, pdf_href=pdf, review_key=paper.display)
        self.file_html.begin_paper(paper.display, warnings=warnings)

    def citation(self, c: CitationResult) -> None:
        assert self.paper is not None
        self.json.citation(c)
        self.csv.add(self.paper.display, c, self.reading)
        self.sarif.add(str(self.paper.path), c)
        self.html.citation(c)
        self.file_html.citation(c)
        self.md.citation(c)
        if self.has_bib:
            self.fixer.add(c)

    def end(
        self, warnings: list[str], store_warnings: list[str] | None = None, reading: ReadingSummary | None = None
    ) -> None:
        """The paper's last citation was given; `warnings` are all of its warnings, `store_warnings` what the
        store cannot confirm of it (said once per report, as the store's: report/storenotes.py); `reading`, a
        PDF's: its list's pages, how many references, how many read with low confidence."""
        assert self.paper is not None and self.json.paper is not None
        store = list(store_warnings or [])
        self.json.end(warnings, store, reading=reading)
        if reading is not None:
            self.sarif.reading(str(self.paper.path), reading)
            if reading.no_list:
                self.csv.no_list(self.paper.display, reading)
        for w in warnings:
            self.sarif.note(w)
        for w in store:
            self.sarif.store_note(w)
        counts = self.json.paper.paper_counts(len(warnings))
        self.html.end_paper(counts, warnings=warnings, store_warnings=store, reading=reading)
        self.file_html.end_paper(counts, warnings=warnings, store_warnings=store, reading=reading)
        self.md.end(warnings, store, reading=reading)
        self.paper = None

    def unreadable(self, name: str, why: str) -> None:
        """A paper nothing could be read from, shown on the page."""
        self.html.unreadable_paper(name, why)
        self.file_html.unreadable_paper(name, why)

    def close(self) -> None:
        """Finish every report and rename it into place; then the corrected BibTeX and the PDFs' list."""
        self.json.close()
        self.sarif.end()
        self.html.end()
        self.file_html.end()
        for path, fh in self._files:
            fh.close()
            path.with_name(f".{path.name}.tmp").replace(path)
        self._files = []
        if self.bibs:
            _write_bibtex(self.folder, self.bibs, self.fixer)
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


def bibtex_files(papers: list[Input]) -> list[tuple[str, Path]]:
    """The BibTeX files a job corrects, each once, with the name the user knows it by: a `.bib` input as it
    was uploaded ('refs.bib', 'papers.zip:sub/refs.bib'), a `.tex` input's by its own file name."""
    sources: list[tuple[str, Path]] = []
    for paper in papers:
        for bib in bib_sources(paper.path):
            if all(bib != known for _, known in sources):
                sources.append((bib.name if bib != paper.path else paper.display, bib))
    return sources


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


def _write_bibtex(folder: Path, sources: list[tuple[str, Path]], fixer: BibFixer) -> None:
    """The corrected BibTeX (as `check --fix` writes it for each file): `report.bib` for one file, else
    `report.bib.zip` with one corrected file per BibTeX file, named after it (not one merged file)."""
    fixed = [(name, fixer.fixed_text(text)) for name, bib in sources if (text := read_text_file(bib)) is not None]
    if len(sources) == 1:
        tmp = folder / ".report.bib.tmp"
        tmp.write_text("".join(text for _, text in fixed), encoding="utf-8", newline="")
        tmp.replace(folder / "report.bib")
        return
    tmp = folder / ".report.bib.zip.tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for member, (_, text) in zip(member_names([name for name, _ in fixed]), fixed, strict=True):
            zf.writestr(member, text)
    tmp.replace(folder / "report.bib.zip")


def member_names(names: list[str]) -> list[str]:
    """Names inside the zip of corrected files: each upload's name ('papers.zip:sub/refs.bib' ->
    'papers.zip/sub/refs.bib'), relative and without '..', made unique ('refs-2.bib')."""
    out: list[str] = []
    for i, name in enumerate(names, 1):
        parts = [p for p in re.split(r"[\\/:]+", name) if p not in ("", ".", "..")]
        base = "/".join(parts) or f"references-{i}.bib"
        stem, dot, suffix = base.rpartition(".")
        member, n = base, 2
        while member in out:
            member = f"{stem}-{n}.{suffix}" if dot and "/" not in suffix else f"{base}-{n}"
            n += 1
        out.append(member)
    return out
