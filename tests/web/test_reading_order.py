"""The web app's result page lists a paper's citations as a chair should read them (issue 39): Hallucinated,
then P3 (a real work cited with conflicts), P2, P1, Real; its JSON and CSV downloads keep the input's order."""

from __future__ import annotations

import csv
import io
import re

from fastapi.testclient import TestClient

from tests.web.conftest import EXAMPLE_BIB, wait_done

#: examples/references.bib's entries, in the file's order.
INPUT = [
    "vaswani2017attention",
    "he2016deep",
    "devlin2019bert",
    "kingma2014adam",
    "srivastava2014dropout",
    "hochreiter1998lstm",
    "sutskever2014seq",
    "goodfellow2014gan",
    "he2016resnet_authors",
    "ronneberger2015unet",
    "krizhevsky2012chimera",
    "bahdanau2015fake",
    "vaswani2031future",
    "quantum2021fake",
    "pytorch",
    "doe2019thesis",
]

#: Reading order: any H code, then P3, P2, P1, then any R code.
RANK = {"H": 0, "P3": 1, "P2": 2, "P1": 3, "R": 4}


def test_the_result_page_shows_h_then_p3_then_p2_p1_real(client: TestClient) -> None:
    response = client.post("/api/jobs", files=[("file", ("references.bib", EXAMPLE_BIB.read_bytes(), "text/x-bibtex"))])
    job_id = str(response.json()["id"])
    assert wait_done(client, job_id)["status"] == "done"
    doc = client.get(f"/api/jobs/{job_id}/report.json").json()
    assert [c["id"] for c in doc["citations"]] == INPUT  # data: the input's order
    code = {c["id"]: c["verdict"]["code"] for c in doc["citations"]}
    assert code["hochreiter1998lstm"] == "P3" and code["pytorch"] == "P2" and code["bahdanau2015fake"] == "P1"

    page = client.get(f"/jobs/{job_id}").text
    cards = re.findall(r'<span class="codes" title="[^"]*">(\w\d)[^<]*</span> <span class="cid">\[([^\]]+)\]', page)
    ranks = [RANK.get(k, RANK.get(k[0])) for k, _ in cards]
    assert len(cards) == len(INPUT) and ranks == sorted(ranks)
    ids = [i for _, i in cards]
    assert ids.index("hochreiter1998lstm") < ids.index("pytorch") < ids.index("bahdanau2015fake")
    assert ids[-5:] == INPUT[:5]  # Real last, in input order
    assert ids[:6] == [i for i in INPUT if code[i].startswith("H")]  # H first, in input order

    md = client.get(f"/api/jobs/{job_id}/report.md").text
    rows = [line.split(" | ")[0].lstrip("| ") for line in md.splitlines() if line.startswith("| ") and "**" in line]
    assert rows == ids[:7]  # the review comment: H, then the P3

    table = client.get(f"/api/jobs/{job_id}/report.csv").text
    assert [r["id"] for r in csv.DictReader(io.StringIO(table))] == INPUT
