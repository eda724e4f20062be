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


class RebindingResolver:
    """Answers the allowed address to the first lookup and a private one to every later lookup."""

    def __init__(self, first: str, later: str) -> None:
        self.first, self.later = first, later
        self.lookups: list[str] = []

    async def __call__(self, host: str, port: int) -> list[str]:
        self.lookups.append(host)
        return [self.first if len(self.lookups) == 1 else self.later]


def rebinding_client(resolver: RebindingResolver) -> HttpClient:
    # 127.0.0.1 (the fake web) stands in for a public address: the user allowed it.
    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}, allow_private=["127.0.0.1"]))
    http.resolver = resolver
    return http


def fetch(http: HttpClient, url: str) -> int:
    async def go() -> int:
        call = http.call("web", "untrusted:", time.monotonic() + 5)
        try:
            return (await call.get(url, trusted=False)).status
        finally:
            await http.aclose()

    return asyncio.run(go())


def test_the_connection_goes_to_the_checked_address_without_a_second_lookup(web: FakeWeb) -> None:
    """A rebinding host answers 127.0.0.1 (allowed) to the check and 10.0.0.5 to any later
    lookup. The fetch must connect to the checked address: one lookup, the name kept in the
    Host header. (`rebind.test` is not in any real DNS: a second, system lookup would fail.)"""
    resolver = RebindingResolver("127.0.0.1", "10.0.0.5")
    port = web.root.rsplit(":", 1)[1]
    assert fetch(rebinding_client(resolver), f"http://rebind.test:{port}/pages/t01") == 200
    assert resolver.lookups == ["rebind.test"]
    assert web.last_headers["pages"]["host"] == f"rebind.test:{port}"


def test_a_redirect_to_a_rebound_name_is_checked_again_and_refused(web: FakeWeb) -> None:
    resolver = RebindingResolver("127.0.0.1", "10.0.0.5")
    port = web.root.rsplit(":", 1)[1]
    before = web.hits["pages"]
    with pytest.raises(SourceFailure, match=r"10\.0\.0\.5"):
        fetch(rebinding_client(resolver), f"http://rebind.test:{port}/pages/_redirect?to=/pages/t01")
    assert resolver.lookups == ["rebind.test", "rebind.test"]
    assert web.hits["pages"] == before + 1  # the redirect was served; its target never was


def test_pinned_https_keeps_the_name_for_tls() -> None:
    import ipaddress

    from citetracer.collect.ssrf import pinned

    pin = pinned("https://papers.example.org/a?b=1", ipaddress.ip_address("93.184.216.34"))
    assert (pin.url, pin.host, pin.sni) == ("https://93.184.216.34/a?b=1", "papers.example.org", "papers.example.org")
    pin6 = pinned("http://papers.example.org:8080/a", ipaddress.ip_address("2606:2800:220:1::1"))
    assert (pin6.url, pin6.host, pin6.sni) == ("http://[2606:2800:220:1::1]:8080/a", "papers.example.org:8080", None)


@pytest.mark.parametrize(
    "url",
    [
        "http://[::7f00:1]/",  # IPv4-compatible ::127.0.0.1 (ipaddress calls it global on 3.11)
        "http://[::a00:5]/",  # ::10.0.0.5
        "http://[64:ff9b::7f00:1]/",  # NAT64 of 127.0.0.1
        "http://[64:ff9b::a9fe:a9fe]/",  # NAT64 of 169.254.169.254
        "http://[::ffff:0:7f00:1]/",  # IPv4-translated (::ffff:0:0/96)
        "http://[::ffff:a9fe:a9fe]/",  # IPv4-mapped metadata address
        "http://[fec0::1]/",  # site-local
        "http://[2002:7f00:1::1]/",  # 6to4 of 127.0.0.1
        "HTTP://127.0.0.1/",
    ],
)
def test_addresses_that_embed_a_private_one_are_refused(url: str) -> None:
    with pytest.raises(UnsafeURL):
        asyncio.run(check_url(url))


def test_a_nat64_or_6to4_address_of_a_public_one_passes() -> None:
    asyncio.run(check_url("http://[64:ff9b::5db8:d822]/"))  # 93.184.216.34
    asyncio.run(check_url("http://[2002:5db8:d822::1]/"))


def test_uppercase_scheme_is_fetched_like_lowercase(web: FakeWeb) -> None:
    http = HttpClient(OnlineSettings(http_cache="", rate_limits={"*": 0}, allow_private=["127.0.0.1"]))
    assert fetch(http, f"HTTP://127.0.0.1:{web.root.rsplit(':', 1)[1]}/pages/t01") == 200


def test_refused_urls_do_not_open_the_breaker_for_other_pages(web: FakeWeb) -> None:
    """Five refused URLs (file://, private addresses) in one paper said nothing about the web."""
    http = HttpClient(
        OnlineSettings(http_cache="", rate_limits={"*": 0}, allow_private=["127.0.0.1"], breaker_failures=3, retries=0)
    )

    async def go() -> int:
        try:
            for url in ["file:///etc/passwd", "http://10.0.0.1/", "http://[::1]/", "http://192.168.0.1/"] * 2:
                call = http.call("web", "untrusted:", time.monotonic() + 5)
                with pytest.raises(SourceFailure):
                    await call.get(url, trusted=False)
            call = http.call("web", "untrusted:", time.monotonic() + 5)
            return (await call.get(f"{web.root}/pages/t01", trusted=False)).status
        finally:
            await http.aclose()

    assert asyncio.run(go()) == 200
