"""Every count the job's pages print takes its number ('1 warning', '1 of 1 citation'), and a job whose
total is not known yet says what it is doing instead of '0 of ? citations'."""

from __future__ import annotations

import io
import re
from collections import Counter

from fastapi.testclient import TestClient

from citetracer.report.html_report import HtmlReport
from citetracer.report.views import PaperCounts
from citetracer.web.pages import progress_text
from tests.web.conftest import wait_done

#: One entry read, one skipped with a warning: a job of one citation.
ONE_AND_A_BROKEN = (
    "@article{a, title={A Study of Things Nobody Wrote}, author={Doe, Jane}, journal={J}, year={2020}}\n"
    "@article{b, title={Unclosed\n"
)
WRONG = re.compile(
    r"\b1 (warnings|citations|references|papers)\b|\b(0|[2-9]|\d\d+) (warning|citation|reference|paper)\b"
)


def test_progress_says_what_it_does_until_the_total_is_known() -> None:
    assert progress_text("queued", 0, 0, "") == "waiting for a free worker"
    assert progress_text("running", 0, 0, "reading the PDF of paper.pdf") == "reading the PDF of paper.pdf"
    assert progress_text("running", 0, 1, "checking") == "0 of 1 citation"
    assert progress_text("running", 3, 16, "checking") == "3 of 16 citations"


def test_a_job_of_one_citation_and_one_warning(client: TestClient) -> None:
    files = {"file": ("refs.bib", ONE_AND_A_BROKEN.encode(), "text/x-bibtex")}
    job_id = client.post("/api/jobs", files=files).json()["id"]
    state = wait_done(client, job_id)
    assert state["progress"] == {"done": 1, "total": 1}, state
    page = client.get(f"/jobs/{job_id}").text
    text = re.sub(r"<[^>]+>", "", page)
    assert "1 reference:" in text and "1 warning" in text, text  # the skipped entry's: the store's is the store's
    assert 'id="store"' in page and "holds no complete source" in page  # said once, in its own section
    assert "<b>1</b>paper<" in page and "<b>1</b>reference<" in page
    assert not WRONG.search(text), WRONG.search(text)
    events = client.get(f"/api/jobs/{job_id}/events").text
    assert '"text": "1 of 1 citation"' in events and "?" not in events.split("event: progress", 1)[1][:200]


def test_the_report_counts_one_warning_and_one_paper() -> None:
    out = io.StringIO()
    report = HtmlReport(out)
    report.begin()
    report.begin_paper("a.bib", warnings=["entry 2 skipped"])
    report.end_paper(PaperCounts("a.bib", references=1, potential=1, warnings=1, codes=Counter({"P1": 1})))
    report.end()
    text = re.sub(r"<[^>]+>", " ", out.getvalue())
    assert "1 reference:" in text and "· 1 warning" in text and "1 paper with extraction warnings" in text
    assert not WRONG.search(text), WRONG.search(text)
