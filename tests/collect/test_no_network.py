"""A run without a network: sources that take no connection are failures, and once several have
failed while none ever answered the run stops waiting for the rest and says so once."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citetracer.collect.http import HttpClient, SourceFailure
from citetracer.config import DEFAULT_SOURCE_URLS, OnlineSettings
from tests.fakeweb.server import FakeWeb, Fault, closed_url

ROOT = Path(__file__).resolve().parents[2]


def client() -> HttpClient:
    return HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}, retries=1), mailto="t@example.org")


async def ask(http: HttpClient, source: str, base: str) -> str:
    call = http.call(source, base, time.monotonic() + 10)
    try:
        await call.json("works/10.1/x")
        return "answered"
    except SourceFailure as exc:
        return exc.detail


def test_three_unreachable_sources_and_no_answer_mean_no_network(web: FakeWeb) -> None:
    http = client()
    before = http.network_count()
    before_hits = web.hits["crossref"]

    async def run() -> list[str]:
        out = [await ask(http, name, closed_url()) for name in ("openalex", "dblp", "arxiv")]
        out.append(await ask(http, "crossref", web.sources()["crossref"]))  # would answer: never asked
        await http.aclose()
        return out

    details = asyncio.run(run())
    assert all("ConnectError" in d for d in details[:3])
    assert details[3].startswith("no network")
    assert web.hits["crossref"] == before_hits  # failed at once, no request made
    note = http.no_network_note(before)
    assert note is not None and "--offline" in note and "7 request(s)" in note  # 3 x (1 + 1 retry) + 1
    assert "arxiv, dblp, openalex" in note and "not Hallucinated" in note


def test_one_answer_anywhere_means_the_network_works(web: FakeWeb) -> None:
    http = client()
    before = http.network_count()

    async def run() -> list[str]:
        out = [await ask(http, "crossref", web.sources()["crossref"])]
        out += [await ask(http, name, closed_url()) for name in ("openalex", "dblp", "arxiv", "datacite")]
        await http.aclose()
        return out

    details = asyncio.run(run())
    assert details[0] == "answered"
    assert all("ConnectError" in d for d in details[1:])  # each dead service tried: not "no network"
    assert http.no_network_note(before) is None


def test_a_probe_after_the_cooldown_finds_the_network_back(web: FakeWeb) -> None:
    http = client()

    async def run() -> list[str]:
        out = [await ask(http, name, closed_url()) for name in ("openalex", "dblp", "arxiv")]
        out.append(await ask(http, "crossref", web.sources()["crossref"]))
        http.network.cooldown = 0.0  # the cooldown is over: the next request probes
        out.append(await ask(http, "crossref", web.sources()["crossref"]))
        out.append(await ask(http, "crossref", web.sources()["crossref"]))
        await http.aclose()
        return out

    details = asyncio.run(run())
    assert details[3].startswith("no network")
    assert details[4:] == ["answered", "answered"]


def test_check_without_a_network_says_so_once_and_suggests_offline(tmp_path: Path) -> None:
    env = {
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
        "CITETRACER_STORE": str(tmp_path / "store.sqlite"),
        "CITETRACER_HTTP_CACHE": "",
        "CITETRACER_SEARXNG_URL": "",
    }
    for name in DEFAULT_SOURCE_URLS:
        if name != "searxng":
            env[f"CITETRACER_{name.upper()}_URL"] = closed_url()

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "citetracer.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True
        )

    assert cli("mirror", "add", "examples/records.jsonl", "--source", "example").returncode == 0
    out = tmp_path / "report.json"
    proc = cli("check", "examples/references.bib", "--format", "json", "-o", str(out))
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    said = [line for line in proc.stderr.splitlines() if "no online source answered" in line]
    assert len(said) == 1 and "--offline" in said[0]
    assert any("no online source answered" in w for w in json.loads(out.read_text())["warnings"])


@pytest.mark.parametrize("status", [500, 404])
def test_a_service_answering_errors_is_not_a_missing_network(web: FakeWeb, status: int) -> None:
    for name in ("crossref", "openalex", "dblp", "arxiv"):
        web.faults[name] = Fault(mode="status", status=status)
    http = client()
    before = http.network_count()

    async def run() -> list[str]:
        out = [await ask(http, name, web.sources()[name]) for name in ("crossref", "openalex", "dblp", "arxiv")]
        await http.aclose()
        return out

    asyncio.run(run())
    assert http.no_network_note(before) is None
    assert not http.network.is_down()
