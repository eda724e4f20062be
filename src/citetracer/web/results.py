"""A finished job's reports, written once into its folder by the report writers `check` uses.

`report.json` is what `citetracer check --format json` writes (one document for one input,
a list for several), `report.csv`, `report.md` and `report.sarif` likewise; `report.bib` is
`check --fix` (only when BibTeX was given); `report.html` is the HTML report with the web
app's download links and its PDFs served by the app. Nothing here judges or re-words a
verdict. Reports name inputs as the user named them, never by their place on the server.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from citetracer.records import Report
from citetracer.report.bibfix import MARK, BibFixer
from citetracer.report.csv_report import CitationCsv
from citetracer.report.html_report import HtmlReport
from citetracer.report.render import write_markdown
from citetracer.report.sarif import SarifWriter
from citetracer.report.sources import bib_sources, read_text_file
from citetracer.report.views import paper_counts
from citetracer.scan.inputs import STAGING
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


@contextmanager
def _replacing(path: Path) -> Iterator[IO[str]]:
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        yield fh
    tmp.replace(path)


def check_json(reports: list[Report]) -> object:
    """The document `citetracer check --format json` writes for these inputs."""
    if len(reports) == 1:
        return reports[0].to_json_dict()
    return [r.to_json_dict() for r in reports]


def write_results(
    folder: Path,
    papers: list[tuple[Input, Report]],
    job_url: str,
    context: str,
    unread: list[tuple[str, str]] | None = None,
) -> None:
    """Every report of a finished job into its folder (each written whole, then renamed into place);
    `unread` lists the papers nothing could be read from, (name, why), shown on the page."""
    reports = [r for _, r in papers]
    with _replacing(folder / "report.json") as out:
        json.dump(check_json(reports), out, ensure_ascii=False, indent=2)
        out.write("\n")
    with _replacing(folder / "report.csv") as out:
        rows = CitationCsv(out)
        for r in reports:
            for c in r.citations:
                rows.add(r.input, c)
    with _replacing(folder / "report.md") as out:
        for r in reports:
            write_markdown(r, out)
    with _replacing(folder / "report.sarif") as out:
        sarif = SarifWriter(out, base_dir=folder / "input", publish_base=False)
        sarif.begin()
        for paper, r in papers:
            for w in r.warnings:
                sarif.note(w)
            for c in r.citations:
                sarif.add(str(paper.path), c)
        sarif.end()
    has_bib = _write_bibtex(folder, papers)
    actions = [("new check", "/")]
    actions += [(f"download {ext.upper()}", f"{job_url}/report.{ext}") for ext in DOWNLOADS if ext != "bib" or has_bib]
    with _replacing(folder / PAGE) as out:
        html = HtmlReport(
            out,
            title=f"citetracer: {reports[0].input}" if len(papers) == 1 else f"citetracer: {len(papers)} inputs",
            context=context,
            actions=actions,
        )
        html.begin()
        pdfs: list[str] = []
        for paper, r in papers:
            pdf = None
            if paper.path.suffix.lower() == ".pdf":
                pdfs.append(_kept_pdf(folder, paper.path, len(pdfs) + 1))
                pdf = f"{job_url}/pdf/{len(pdfs)}"
            html.begin_paper(r.input, warnings=r.warnings, pdf_href=pdf)
            for c in r.citations:
                html.citation(c)
            html.end_paper(paper_counts(r))
        for name, why in unread or []:
            html.unreadable_paper(name, why)
        html.end()
    (folder / PDFS).write_text(json.dumps(pdfs), encoding="utf-8")


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


def _write_bibtex(folder: Path, papers: list[tuple[Input, Report]]) -> bool:
    """The corrected BibTeX (as `check --fix` writes it) when BibTeX was given; whether it was."""
    fixer = BibFixer()
    sources: list[tuple[str, Path]] = []
    for paper, r in papers:
        for bib in bib_sources(paper.path):
            if all(bib != known for _, known in sources):
                sources.append((bib.name if bib != paper.path else paper.display, bib))
        for c in r.citations:
            fixer.add(c)
    if not sources:
        return False
    with _replacing(folder / "report.bib") as out:
        for i, (name, bib) in enumerate(sources):
            text = read_text_file(bib)
            if text is None:
                continue
            if len(sources) > 1:  # as `check --fix` separates files, naming each as the user did
                out.write(("\n" if i else "") + MARK + "from " + " ".join(name.replace("@", "(at)").split()) + "\n")
            out.write(fixer.fixed_text(text))
    return True
