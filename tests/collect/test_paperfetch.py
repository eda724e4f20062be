"""`citetracer check arXiv:ID | doi:10.x/y | URL`: the paper is fetched as a PDF from the configured
source (a fake one on 127.0.0.1), through the SSRF guard for hosts that are not configured, within a
size bound; offline it is not fetched and the error says so. The CLI runs in a subprocess."""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from citetracer.collect import paperfetch
from citetracer.collect.paperfetch import PaperId, fetch_paper, parse_paper_id
from citetracer.config import Settings
from citetracer.extract import InputError
from tests.cliproc import run_cli
from tests.scan.conftest import make_pdf

ROOT = Path(__file__).resolve().parents[2]


class Site:
    """One HTTP server on 127.0.0.1 answering `routes` (path with query -> (status, headers, body))."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, dict[str, str], bytes]] = {}
        self.hits: list[str] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                site.hits.append(self.path)
                status, headers, body = site.routes.get(self.path, (404, {}, b"not found"))
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def sites(tmp_path: Path) -> Iterator[tuple[Site, Site]]:
    """A scholarly source (arXiv, OpenReview, ACL, doi.org at once) and a publisher's site, both local."""
    pdf = make_pdf(tmp_path / "paper.pdf", 1).read_bytes()
    source, publisher = Site(), Site()
    as_pdf = {"Content-Type": "application/pdf"}
    source.routes.update(
        {
            "/pdf/1706.03762": (200, as_pdf, pdf),
            "/pdf?id=Hyg0vbWC-": (200, as_pdf, pdf),
            "/2020.acl-main.1.pdf": (200, as_pdf, pdf),
            "/10.1145/3292500": (302, {"Location": f"{publisher.url}/article/3292500"}, b""),
            "/pdf/2101.00001": (200, {"Content-Type": "text/html"}, b"<html>captcha</html>"),
        }
    )
    landing = f'<html><head><meta name="citation_pdf_url" content="{publisher.url}/pdf/3292500.pdf"></head></html>'
    publisher.routes.update(
        {
            "/article/3292500": (200, {"Content-Type": "text/html"}, landing.encode()),
            "/pdf/3292500.pdf": (200, as_pdf, pdf),
        }
    )
    yield source, publisher
    source.close()
    publisher.close()


def cli(tmp_path: Path, source: Site, *args: str, config: str = "") -> subprocess.CompletedProcess[str]:
    env = {  # every source on the fake one: the check of the fetched paper's references asks them too
        **{f"CITETRACER_{name}_URL": source.url for name in ("ARXIV", "OPENREVIEW", "ACL", "DOI")},
        **{
            f"CITETRACER_{name}_URL": ""
            for name in ("CROSSREF", "OPENALEX", "SEMANTICSCHOLAR", "DBLP", "PUBMED", "EUROPEPMC", "DATACITE")
        },
    }
    args = ("check", *args, "--format", "json", "--connectors", "arxiv")
    return run_cli(tmp_path, *args, env=env, config=config)


@pytest.mark.parametrize(
    ("given", "fetched"),
    [
        ("arXiv:1706.03762", "/pdf/1706.03762"),
        ("https://arxiv.org/abs/1706.03762v5", "/pdf/1706.03762"),
        ("https://openreview.net/forum?id=Hyg0vbWC-", "/pdf?id=Hyg0vbWC-"),
        ("https://aclanthology.org/2020.acl-main.1/", "/2020.acl-main.1.pdf"),
        ("doi:10.18653/v1/2020.acl-main.1", "/2020.acl-main.1.pdf"),
    ],
)
def test_a_paper_named_by_identifier_is_fetched_and_checked(
    tmp_path: Path, sites: tuple[Site, Site], given: str, fetched: str
) -> None:
    source, _ = sites
    proc = cli(tmp_path, source, given)
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["input"] == given and doc["summary"]["total"] == 3  # the PDF's three references
    assert fetched in source.hits
    assert "arxiv.org" not in " ".join(source.hits)  # the URL's own host is never asked: the configured base is


def test_a_doi_goes_through_the_publishers_page_only_past_the_ssrf_guard(
    tmp_path: Path, sites: tuple[Site, Site]
) -> None:
    source, publisher = sites
    refused = cli(tmp_path, source, "doi:10.1145/3292500")
    assert refused.returncode == 2 and "refused" in refused.stderr and "non-public address" in refused.stderr
    assert publisher.hits == []  # the publisher's host (not configured) resolves to loopback: never reached
    allowed = cli(tmp_path, source, "doi:10.1145/3292500", config='[online]\nallow_private = ["127.0.0.1"]\n')
    assert allowed.returncode in (0, 1), allowed.stderr
    assert json.loads(allowed.stdout)["summary"]["total"] == 3
    assert publisher.hits == ["/article/3292500", "/pdf/3292500.pdf"]


def test_offline_nothing_is_fetched_and_the_error_says_why(tmp_path: Path, sites: tuple[Site, Site]) -> None:
    source, _ = sites
    proc = cli(tmp_path, source, "arXiv:1706.03762", "--offline")
    assert proc.returncode == 2
    assert "needs the network" in proc.stderr and "--offline" in proc.stderr
    assert source.hits == []


def test_what_is_not_a_pdf_or_not_known_is_a_clear_error(tmp_path: Path, sites: tuple[Site, Site]) -> None:
    source, _ = sites
    html = cli(tmp_path, source, "arXiv:2101.00001")
    assert html.returncode == 2 and "did not answer with a PDF (text/html)" in html.stderr
    missing = cli(tmp_path, source, "https://arxiv.org/abs/2102.99999")
    assert missing.returncode == 2 and "no such paper" in missing.stderr
    unknown = cli(tmp_path, source, "https://example.org/paper")
    assert unknown.returncode == 2 and "not an identifier citetracer can fetch" in unknown.stderr


def test_a_pdf_past_the_size_bound_is_refused(
    tmp_path: Path, sites: tuple[Site, Site], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, _ = sites
    monkeypatch.setattr(paperfetch, "MAX_PDF_BYTES", 1000)
    settings = Settings(store=tmp_path / "s.sqlite", sources={**Settings().sources, "arxiv": source.url})
    with pytest.raises(InputError, match="exceeds the 1000-byte cap"):
        fetch_paper("arXiv:1706.03762", settings, tmp_path)


def test_identifiers_and_urls_are_read_as_papers() -> None:
    assert parse_paper_id("arXiv:1706.03762v2") == PaperId("arxiv", "1706.03762", "arXiv:1706.03762v2")
    assert parse_paper_id("https://arxiv.org/pdf/1706.03762.pdf") == PaperId(
        "arxiv", "1706.03762", "https://arxiv.org/pdf/1706.03762.pdf"
    )
    assert parse_paper_id("https://doi.org/10.1145/3292500.3330701").value == "10.1145/3292500.3330701"  # type: ignore[union-attr]
    assert parse_paper_id("doi:10.48550/arXiv.1706.03762").kind == "arxiv"  # type: ignore[union-attr]
    assert parse_paper_id("https://aclanthology.org/P19-1001.pdf").value == "P19-1001"  # type: ignore[union-attr]
    assert parse_paper_id("https://example.org/x") is None
    assert parse_paper_id("refs.bib") is None
