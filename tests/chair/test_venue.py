"""Venue input (issue 44): `citetracer scan openreview:VENUE_ID` and a CSV of paper URLs, fetched from a fake
OpenReview API v2 on 127.0.0.1 (tests/fakeweb: `/notes?content.venueid=` a page at a time, `/pdf?id=`), politely
(the source's rate and Retry-After through collect/http/), resumably, within the SSRF and size rules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citetracer.collect import paperfetch
from citetracer.config import OnlineSettings, Settings
from citetracer.scan import venue
from citetracer.scan.venue import VenueError, fetch_inputs
from tests.chair.csvread import read_both
from tests.cliproc import run_cli
from tests.fakeweb.server import FakeWeb
from tests.scan.conftest import make_pdf

RECORDS = Path(__file__).resolve().parents[1] / "fakeweb" / "records.jsonl"
VENUE = "ICLR.cc/2024/Conference"


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FakeWeb]:
    pdfs = tmp_path_factory.mktemp("pdfs")
    subs = [
        {"id": f"Sub{i}xYz", "number": i, "title": f"Paper {i}", "authors": ["Ada Lovelace"],
         "pdf_path": str(make_pdf(pdfs / f"{i}.pdf", i))}
        for i in range(1, 6)
    ]  # fmt: skip
    subs.append({"id": "Withdrawn1", "number": 6, "title": "Withdrawn", "authors": []})  # no PDF
    rejected = {"id": "Rejected1", "number": 7, "title": "Rejected", "authors": ["B C"],
                "pdf_path": str(make_pdf(pdfs / "7.pdf", 7)), "venueid": f"{VENUE}/Rejected_Submission"}  # fmt: skip
    (pdfs / "not.pdf").write_text("<html>not a pdf</html>")
    broken = {"id": "Broken1", "number": 8, "title": "Broken", "pdf_path": str(pdfs / "not.pdf")}
    with FakeWeb(RECORDS) as server:
        server.add_venue(VENUE, [*subs, rejected])
        server.add_venue("Broken.cc/2024/Workshop", [subs[0], broken])
        yield server


def settings(web: FakeWeb, tmp_path: Path, **online: object) -> Settings:
    return Settings(
        store=tmp_path / "store.sqlite",
        sources={**Settings().sources, **web.sources(), "searxng": ""},
        online=OnlineSettings(http_cache="", retries=1, **online),  # type: ignore[arg-type]
    )


def test_a_venue_is_listed_a_page_at_a_time_and_fetched_once(
    web: FakeWeb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(venue, "PAGE", 2)
    said: list[str] = []
    before = web.hits["openreview"]
    got = fetch_inputs([f"openreview:{VENUE}"], settings(web, tmp_path), tmp_path / "out", said.append)
    assert [p.name for p in got.paths] == [f"0000{i}-Sub{i}xYz.pdf" for i in range(1, 6)]
    assert all(p.read_bytes().startswith(b"%PDF-") for p in got.paths)
    assert got.problems == [f"openreview:{VENUE}: 1 submissions have no PDF (withdrawn or not public); skipped"]
    assert (got.now, got.kept) == (5, 0)
    assert web.hits["openreview"] - before == 3 + 5  # 6 notes in pages of 2, then one request per PDF
    index = read_both(tmp_path / "out" / "downloads" / "papers.csv")
    assert index[0]["url"] == "https://openreview.net/forum?id=Sub1xYz" and index[0]["title"] == "Paper 1"

    # run again (a scan killed half-way, or just run twice): the listing again, no PDF fetched twice
    (tmp_path / "out" / "downloads" / "00002-Sub2xYz.pdf").unlink()
    (tmp_path / "out" / "downloads" / ".00003-Sub3xYz.pdf.99.tmp").write_bytes(b"%PDF-1.4 half")  # a killed write
    before = web.hits["openreview"]
    again = fetch_inputs([f"openreview:{VENUE}"], settings(web, tmp_path), tmp_path / "out", said.append)
    assert (again.now, again.kept, len(again.paths)) == (1, 4, 5)
    assert web.hits["openreview"] - before == 3 + 1
    assert "fetching 1 PDFs (4 fetched before)" in said


def test_an_invitation_lists_every_submission_and_a_bad_reply_is_a_problem(web: FakeWeb, tmp_path: Path) -> None:
    every = fetch_inputs([f"openreview:{VENUE}/-/Submission"], settings(web, tmp_path), tmp_path / "a", print)
    assert len(every.paths) == 6 and any(p.name == "00007-Rejected1.pdf" for p in every.paths)
    broken = fetch_inputs(["openreview:Broken.cc/2024/Workshop"], settings(web, tmp_path), tmp_path / "b", print)
    assert [p.name for p in broken.paths] == ["00001-Sub1xYz.pdf"]
    assert any("did not answer with a PDF" in p and "run the scan again" in p for p in broken.problems)


def test_a_list_of_urls_keeps_to_the_ssrf_and_size_rules(
    web: FakeWeb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listing = tmp_path / "papers.csv"
    listing.write_text(
        "title,url\n"
        "first,https://openreview.net/forum?id=Sub1xYz\n"  # a configured source: its base URL, trusted
        f"loopback,{web.root}/openreview/pdf?id=Sub2xYz\n"  # any other host: the SSRF guard refuses loopback
        "junk,not a url\n"
        "again,https://openreview.net/forum?id=Sub1xYz\n",
        encoding="utf-8",
    )
    got = fetch_inputs([str(listing)], settings(web, tmp_path), tmp_path / "out", print)
    assert [p.name for p in got.paths] == ["openreview-Sub1xYz.pdf"]
    assert any("row 4: 'not a url' is neither a URL" in p for p in got.problems)
    assert any("pdf?id=Sub2xYz" in p and "non-public address" in p for p in got.problems), got.problems

    monkeypatch.setattr(paperfetch, "MAX_PDF_BYTES", 500)
    small = fetch_inputs([str(listing)], settings(web, tmp_path), tmp_path / "small", print)
    assert small.paths == [] and any("Sub1xYz" in p for p in small.problems)


def test_clear_errors_offline_and_for_a_malformed_venue(web: FakeWeb, tmp_path: Path) -> None:
    offline = settings(web, tmp_path).model_copy(update={"offline": True})
    with pytest.raises(VenueError, match="needs the network"):
        fetch_inputs([f"openreview:{VENUE}"], offline, tmp_path / "out", print)
    with pytest.raises(VenueError, match="not an OpenReview venue id"):
        fetch_inputs(["openreview:../etc/passwd?x=1"], settings(web, tmp_path), tmp_path / "out", print)
    with pytest.raises(VenueError, match="names no paper to fetch"):
        fetch_inputs(["openreview:Nobody.cc/2024/Conference"], settings(web, tmp_path), tmp_path / "out", print)


def test_scan_a_venue_through_the_cli_and_resume(web: FakeWeb, tmp_path: Path) -> None:
    env = {
        **{f"CITETRACER_{name.upper()}_URL": url for name, url in web.sources().items()},
        "CITETRACER_SEARXNG_URL": "",
    }
    args = ("scan", f"openreview:{VENUE}", "-o", str(tmp_path / "out"), "--connectors", "openreview", "--workers", "1")
    first = run_cli(tmp_path, *args, env=env)
    assert first.returncode in (0, 1), first.stderr
    assert "5 PDFs in " in first.stderr and "(5 fetched now, 0 before)" in first.stderr
    assert "5 papers (5 checked now, 0 from the journal)" in first.stderr
    rows = read_both(tmp_path / "out" / "summary.csv")
    assert len(rows) == 5 and {r["status"] for r in rows} == {"checked"} and {r["references"] for r in rows} == {"3"}
    second = run_cli(tmp_path, *args, env=env)
    assert "(0 fetched now, 5 before)" in second.stderr
    assert "5 papers (0 checked now, 5 from the journal)" in second.stderr
    offline = run_cli(tmp_path, *args, "--offline", env=env)
    assert offline.returncode == 2 and "needs the network" in offline.stderr
