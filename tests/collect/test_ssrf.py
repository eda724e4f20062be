"""URLs found in papers never reach private, loopback or link-local addresses."""

from __future__ import annotations

import asyncio
import time
from urllib.parse import quote

import pytest

from citetracer.collect.http import HttpClient, SourceFailure
from citetracer.collect.ssrf import UnsafeURL, check_url
from citetracer.config import OnlineSettings
from tests.fakeweb.server import FakeWeb


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/admin",
        "http://localhost:8080/",
        "http://10.0.0.5/",
        "http://192.168.1.1/",
        "http://172.16.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[fe80::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0/",
        "http://100.64.0.1/",
        "file:///etc/passwd",
        "ftp://example.org/x",
        "gopher://example.org/",
        "http://user:pw@93.184.216.34/",
        "http:///nohost",
    ],
)
def test_unsafe_urls_are_refused(url: str) -> None:
    with pytest.raises(UnsafeURL):
        asyncio.run(check_url(url))


def test_public_address_passes() -> None:
    asyncio.run(check_url("https://93.184.216.34/paper"))


def test_allow_list_admits_a_named_network() -> None:
    asyncio.run(check_url("http://10.1.2.3/x", allow=["10.0.0.0/8"]))
    with pytest.raises(UnsafeURL):
        asyncio.run(check_url("http://10.1.2.3/x", allow=["192.168.0.0/16"]))


def test_untrusted_fetch_to_loopback_is_refused_without_a_request(web: FakeWeb) -> None:
    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}))
    before = web.hits["pages"]

    async def go() -> None:
        call = http.call("web", "untrusted:", time.monotonic() + 5)
        try:
            await call.get(f"{web.root}/pages/t01", trusted=False)
        finally:
            await http.aclose()

    with pytest.raises(SourceFailure, match="refused"):
        asyncio.run(go())
    assert web.hits["pages"] == before


def test_redirects_are_checked_again(web: FakeWeb) -> None:
    # The first hop is allowed (the user listed 127.0.0.1); its redirect to the
    # cloud metadata address is not, and is refused before any connection.
    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}, allow_private=["127.0.0.1"]))
    target = quote("http://169.254.169.254/latest/meta-data/", safe="")

    async def go() -> None:
        call = http.call("web", "untrusted:", time.monotonic() + 5)
        try:
            await call.get(f"{web.root}/pages/_redirect?to={target}", trusted=False)
        finally:
            await http.aclose()

    with pytest.raises(SourceFailure, match=r"169\.254\.169\.254"):
        asyncio.run(go())
