"""A paper named by an identifier instead of a file: fetched as a PDF, online only.

`citetracer check arXiv:1706.03762`, `doi:10.1145/...` and the URLs of arXiv,
OpenReview, ACL Anthology and DOI landing pages name a paper that the user has
not downloaded. The PDF is fetched through the one HTTP layer (collect/http/:
its time bound, retries and size cap, here `MAX_PDF_BYTES`) from the source's
configured base URL, which is trusted like every configured base URL: arXiv's
`/pdf/ID`, OpenReview's `/pdf?id=ID`, the Anthology's `/ID.pdf`. A DOI resolves
through the DOI base URL to the publisher's landing page, whose host is not
configured and so passes the SSRF guard (collect/ssrf.py) on every hop, like a
URL found in a paper; the page's `citation_pdf_url` (what Google Scholar reads)
names the PDF, fetched through the same guard. A reply that is not a PDF is an
error that says what came back, never a paper read from HTML.

Offline nothing is fetched: the error says so and how to go on.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, quote, unquote, urlsplit

from citetracer.config import Settings
from citetracer.extract import InputError
from citetracer.normalize.text import canonical_arxiv, canonical_doi

if TYPE_CHECKING:  # the HTTP layer is loaded only when a paper is fetched (an offline check never loads it)
    from citetracer.collect.http import HttpClient

#: Largest PDF fetched (the web app's upload bound): a reply past it is refused as it streams.
MAX_PDF_BYTES = 50 * 1024 * 1024
#: Seconds one fetch may take, redirects and retries included.
FETCH_SECONDS = 120.0
_ACL_ID = re.compile(r"^(?:\d{4}\.[a-z0-9-]+\.\d+|[A-Z]\d{2}-\d{4})$", re.IGNORECASE)


@dataclass(frozen=True)
class PaperId:
    """A paper named by `kind` (arxiv, openreview, acl, doi) and its id there; `given` as written."""

    kind: str
    value: str
    given: str


def looks_like_paper_id(text: str) -> bool:
    """Whether a command-line input names a paper by identifier or URL rather than a file."""
    return bool(re.match(r"(?i)^(arxiv:|doi:|https?://)", text.strip()))


def parse_paper_id(text: str) -> PaperId | None:
    """The paper an `arXiv:ID`, `doi:10.x/y` or a known landing-page URL names, else None."""
    given = text.strip()
    if m := re.match(r"(?i)^arxiv:\s*(\S+)$", given):
        arxiv = canonical_arxiv(m.group(1))
        return PaperId("arxiv", arxiv, given) if arxiv else None
    if m := re.match(r"(?i)^doi:\s*(\S+)$", given):
        return _doi(m.group(1), given)
    if not re.match(r"(?i)^https?://", given):
        return None
    parts = urlsplit(given)
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = unquote(parts.path)
    if host in ("arxiv.org", "export.arxiv.org"):
        m = re.match(r"^/(?:abs|pdf)/(.+?)(?:\.pdf)?/?$", path)
        arxiv = canonical_arxiv(m.group(1)) if m else None
        return PaperId("arxiv", arxiv, given) if arxiv else None
    if host in ("openreview.net", "api.openreview.net", "api2.openreview.net"):
        ids = parse_qs(parts.query).get("id")
        return PaperId("openreview", ids[0], given) if ids and path in ("/forum", "/pdf") else None
    if host == "aclanthology.org":
        name = path.strip("/").removesuffix(".pdf")
        return PaperId("acl", name, given) if _ACL_ID.match(name) else None
    if host in ("doi.org", "dx.doi.org"):
        return _doi(path.lstrip("/"), given)
    return None


def _doi(value: str, given: str) -> PaperId | None:
    """A DOI, or the arXiv / Anthology paper it is registered for (their PDFs are one request away)."""
    doi = canonical_doi(value)
    if doi is None:
        return None
    if m := re.match(r"^10\.48550/arxiv\.(.+)$", doi):
        arxiv = canonical_arxiv(m.group(1))
        if arxiv:
            return PaperId("arxiv", arxiv, given)
    if m := re.match(r"^10\.18653/v1/(.+)$", doi):
        if _ACL_ID.match(m.group(1)):
            return PaperId("acl", m.group(1), given)
    return PaperId("doi", doi, given)


def fetch_paper(text: str, settings: Settings, folder: Path) -> Path:
    """The PDF that `text` names, written into `folder`; InputError when it cannot be had (offline included)."""
    paper = parse_paper_id(text)
    if paper is None:
        raise InputError(
            f"{text}: not a file, and not an identifier citetracer can fetch (arXiv:ID, doi:10.x/y, or an arXiv, "
            "OpenReview, ACL Anthology or doi.org URL)"
        )
    if settings.offline:
        raise InputError(
            f"{text}: fetching the paper needs the network, and this check is offline: run it without --offline, "
            "or download the PDF and check the file"
        )
    body = asyncio.run(_fetch(paper, settings))
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{paper.kind}-{paper.value}")[:120] + ".pdf"
    path = folder / name
    path.write_bytes(body)
    return path


def fetch_to_temp(text: str, settings: Settings) -> tuple[Path, tempfile.TemporaryDirectory[str]]:
    """`fetch_paper` into a new temporary folder, returned with it (the caller cleans it up)."""
    folder = tempfile.TemporaryDirectory(prefix="citetracer-paper-")
    try:
        return fetch_paper(text, settings, Path(folder.name)), folder
    except BaseException:
        folder.cleanup()
        raise


async def _fetch(paper: PaperId, settings: Settings) -> bytes:
    from citetracer.collect.http import HttpClient, SourceFailure

    online = settings.online.model_copy(
        update={"http_cache": "", "max_response_bytes": MAX_PDF_BYTES, "timeout": max(settings.online.timeout, 60.0)}
    )
    http = HttpClient(online, settings.mailto)
    try:
        return await _pdf_of(http, paper, settings)
    except SourceFailure as exc:
        raise InputError(f"{paper.given}: the paper could not be fetched ({exc})") from exc
    finally:
        await http.aclose()


def pdf_client(settings: Settings) -> HttpClient:
    """The HTTP client a paper is fetched with: the settings' own, with no cache and the PDF's size bound."""
    from citetracer.collect.http import HttpClient

    online = settings.online.model_copy(
        update={"http_cache": "", "max_response_bytes": MAX_PDF_BYTES, "timeout": max(settings.online.timeout, 60.0)}
    )
    return HttpClient(online, settings.mailto)


async def pdf_of(http: HttpClient, paper: PaperId, settings: Settings) -> bytes:
    """The PDF's bytes of a paper named by identifier (InputError or SourceFailure when there is none): what
    `citetracer scan openreview:VENUE` and a CSV of paper URLs fetch each paper with (scan/venue.py)."""
    return await _pdf_of(http, paper, settings)


async def _pdf_of(http: HttpClient, paper: PaperId, settings: Settings) -> bytes:
    """The PDF's bytes from the source that holds it."""
    source, path = {
        "arxiv": ("arxiv", f"pdf/{paper.value}"),
        "openreview": ("openreview", f"pdf?id={quote(paper.value, safe='')}"),
        "acl": ("acl", f"{paper.value}.pdf"),
        "doi": ("doi", quote(paper.value, safe="/")),
    }[paper.kind]
    base = settings.sources.get(source) or ""
    if not base:
        raise InputError(f"{paper.given}: no base URL is configured for {source}")
    call = http.call(source, base, time.monotonic() + FETCH_SECONDS)
    resp = await call.get(path, accept="application/pdf" if paper.kind != "doi" else "text/html,application/pdf")
    if resp.status == 404:
        raise InputError(f"{paper.given}: {source} has no such paper (HTTP 404)")
    if _is_pdf(resp.body):
        return resp.body
    if paper.kind != "doi":
        raise InputError(f"{paper.given}: {source} did not answer with a PDF ({resp.content_type or 'no type'})")
    # A DOI's landing page (the publisher's, reached through the SSRF guard): its citation_pdf_url.
    from citetracer.collect.landing import meta_tags

    html = resp.body[:2_000_000].decode("utf-8", "replace")
    pdf_url = next((v for k, v in meta_tags(html) if k == "citation_pdf_url"), None)
    if not pdf_url or not re.match(r"(?i)^https?://", pdf_url):
        raise InputError(
            f"{paper.given}: the landing page names no PDF by its full URL (citation_pdf_url): download the paper "
            "and check the file"
        )
    pdf = await call.get(pdf_url, accept="application/pdf", trusted=False)
    if pdf.status == 404 or not _is_pdf(pdf.body):
        raise InputError(
            f"{paper.given}: the landing page's PDF link did not give a PDF (HTTP {pdf.status}, "
            f"{pdf.content_type or 'no type'}; often a paywall): download the paper and check the file"
        )
    return pdf.body


def _is_pdf(body: bytes) -> bool:
    return b"%PDF-" in body[:1024]
