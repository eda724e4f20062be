"""A large web job keeps the citations in flight, not every one, and still writes every report whole.

A 20,000-citation job peaked at 554 MB in the server where `check` streams it in ~200 MB: the
Markdown report and the corrected BibTeX kept a copy of each citation until the end. The job here
is run as a worker runs it (`run_job`, the Checker on the example store), and the CitationResult
objects alive when its paper ends are counted: a copy kept per citation shows as thousands.
"""

from __future__ import annotations

import gc
import io
import json
import re
from pathlib import Path

import pytest

from citetracer.config import Settings
from citetracer.extract import read_references
from citetracer.pipeline import Checker
from citetracer.records import CitationResult, ReadingSummary, Report
from citetracer.report.bibfix import BibFixer
from citetracer.report.render import write_markdown
from citetracer.web import jobs
from citetracer.web.jobs import JobStore
from citetracer.web.results import FIXES, JobReports
from citetracer.web.uploads import Limits
from citetracer.web.workers import run_job
from tests.web.conftest import EXAMPLE_BIB

COPIES = 177  # of the example's 16 references: 2,832 citations, Real, Potential and Hallucinated ones


def many_copies(copies: int) -> str:
    """The example bibliography `copies` times over, each copy's keys made its own ('he2016deep-7')."""
    text = EXAMPLE_BIB.read_text(encoding="utf-8")
    head, entries = text.split("% ---- real, written exactly", 1)
    body = "% ---- real, written exactly" + entries
    return head + "".join(re.sub(r"(?m)^(@\w+\{)([^,\s]+),", rf"\1\2-{i},", body) for i in range(copies))


def test_a_large_job_keeps_no_copy_of_each_citation_and_writes_whole_reports(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "MAX_EVENTS", 100)
    alive: list[int] = []
    end = JobReports.end

    def counted_end(
        self: JobReports,
        warnings: list[str],
        store_warnings: list[str] | None = None,
        reading: ReadingSummary | None = None,
    ) -> None:
        gc.collect()  # the paper's last citation is written
        alive.append(sum(isinstance(o, CitationResult) for o in gc.get_objects()))
        end(self, warnings, store_warnings, reading)

    monkeypatch.setattr(JobReports, "end", counted_end)
    bib_text = many_copies(COPIES)
    job = JobStore(tmp_path / "jobs", keep_hours=1).create(["many.bib"])
    (job.input_dir / "many.bib").write_text(bib_text, encoding="utf-8")
    checker = Checker(settings)
    try:
        run_job(checker, job, [job.input_dir / "many.bib"], "offline", Limits())
    finally:
        checker.close()

    citations = len(read_references(EXAMPLE_BIB).references) * COPIES
    assert job.status == "done", job.error
    assert job.done == job.total == citations
    assert len(job.events) == 100  # the live page's list is bounded; the report on disk has them all
    assert len(alive) == 1 and alive[0] < citations // 10, alive  # the citations in flight, not a copy of each

    doc = json.loads((job.folder / "report.json").read_text(encoding="utf-8"))
    results = [CitationResult.model_validate(c) for c in doc["citations"]]
    assert len(results) == citations and doc["summary"]["total"] == citations
    classes = {c.verdict.class_ for c in results}
    assert classes == {"Real", "Potential", "Hallucinated"}

    whole = Report(
        version=doc["citetracer"],
        input=doc["input"],
        citations=results,
        warnings=doc["warnings"],
        store_warnings=doc["store_warnings"],
    )
    markdown = io.StringIO()
    write_markdown(whole, markdown)
    md = (job.folder / "report.md").read_text(encoding="utf-8")
    assert md == markdown.getvalue()
    s = doc["summary"]
    assert (
        f"{citations} citations: {s['real']} Real, {s['potential']} Potential, {s['hallucinated']} Hallucinated" in md
    )
    assert md.count("| **Hallucinated** |") == s["hallucinated"] > 0

    fixer = BibFixer()
    for c in results:
        fixer.add(c)
    fixed = (job.folder / "report.bib").read_text(encoding="utf-8")
    assert fixed == fixer.fixed_text(bib_text)
    assert fixed.count("% citetracer: HALLUCINATED") == s["hallucinated"]
    assert not (job.folder / FIXES).exists()  # the scratch file of the fix is gone with the job's end
