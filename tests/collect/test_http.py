"""The shared HTTP layer against the fake web's switchable faults."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from citetracer.collect.http import HttpClient, RateLimiter, SourceFailure, advertised_rate, retry_after
from citetracer.config import OnlineSettings
from tests.fakeweb.server import FakeWeb, Fault


def client(**kw: Any) -> HttpClient:
    kw.setdefault("http_cache", "")
    kw.setdefault("rate_limits", {"*": 0})
    return HttpClient(OnlineSettings(**kw), mailto="tests@example.org")


async def get_json(
    http: HttpClient,
    web: FakeWeb,
    source: str = "crossref",
    path: str = "works/10.1109/cvpr.2016.90",
    deadline: float = 10.0,
) -> Any:
    call = http.call(source, web.sources()[source], time.monotonic() + deadline)
    try:
        return await call.json(path)
    finally:
        await http.aclose()


def test_user_agent_names_the_tool_and_the_contact(web: FakeWeb) -> None:
    data = asyncio.run(get_json(client(), web))
    assert data["message"]["DOI"] == "10.1109/cvpr.2016.90"
    ua = web.last_headers["crossref"]["user-agent"]
    assert ua.startswith("citetracer/") and "mailto:tests@example.org" in ua


def test_404_is_an_answer_not_a_failure(web: FakeWeb) -> None:
    assert asyncio.run(get_json(client(), web, path="works/10.1109/no.such.doi")) is None


def test_retry_after_is_honoured_then_the_request_succeeds(web: FakeWeb) -> None:
    web.faults["crossref"] = Fault(mode="status", status=429, retry_after="1", times=1)
    before = web.hits["crossref"]
    http = client()
    start = time.monotonic()
    data = asyncio.run(get_json(http, web))
    assert data["message"]["DOI"] == "10.1109/cvpr.2016.90"
    assert web.hits["crossref"] == before + 2
    assert time.monotonic() - start >= 0.9  # waited as told before asking again
    assert http.stats["crossref"].calls == 2


def test_retry_after_beyond_the_deadline_fails_at_once(web: FakeWeb) -> None:
    web.faults["crossref"] = Fault(mode="status", status=429, retry_after="60")
    before = web.hits["crossref"]
    with pytest.raises(SourceFailure, match="429"):
        asyncio.run(get_json(client(), web, deadline=5.0))
    assert web.hits["crossref"] == before + 1


def test_server_errors_are_retried_then_reported(web: FakeWeb) -> None:
    web.faults["crossref"] = Fault(mode="status", status=500)
    before = web.hits["crossref"]
    with pytest.raises(SourceFailure, match="HTTP 500 after 3 attempt"):
        asyncio.run(get_json(client(retries=2), web))
    assert web.hits["crossref"] == before + 3


def test_circuit_opens_after_repeated_failures(web: FakeWeb) -> None:
    web.faults["crossref"] = Fault(mode="status", status=500)
    http = client(retries=0, breaker_failures=3, breaker_seconds=60)

    async def many() -> list[str]:
        out = []
        for _ in range(6):
            try:
                await http.call("crossref", web.sources()["crossref"]).json("works/10.1109/cvpr.2016.90")
            except SourceFailure as exc:
                out.append(exc.detail)
        await http.aclose()
        return out

    before = web.hits["crossref"]
    details = asyncio.run(many())
    assert web.hits["crossref"] == before + 3
    assert details[-1] == "circuit open after repeated failures"


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("truncate", "without sending complete message body"),
        ("malformed", "invalid JSON"),
        ("html", "invalid JSON"),
        ("reset", "ReadError|RemoteProtocolError|ConnectError"),
        ("huge", "cap"),
        ("redirect_loop", "redirect loop"),
        ("drip", "no complete reply"),
        ("hang", "no complete reply"),
    ],
)
def test_hostile_replies_end_in_a_failure_within_the_deadline(web: FakeWeb, mode: str, message: str) -> None:
    web.faults["crossref"] = Fault(mode=mode)
    http = client(timeout=1.0, retries=1, max_response_bytes=1_000_000)
    start = time.monotonic()
    with pytest.raises(SourceFailure, match=message):
        asyncio.run(get_json(http, web, deadline=3.0))
    assert time.monotonic() - start < 3.5


def test_cache_answers_the_second_time(web: FakeWeb, tmp_path: Any) -> None:
    http = client(http_cache=str(tmp_path / "cache.sqlite"))
    first = asyncio.run(get_json(http, web))
    before = web.hits["crossref"]
    second = asyncio.run(get_json(http, web))
    assert first == second and web.hits["crossref"] == before
    assert http.stats["crossref"].cache_hits == 1
    http.close_cache()


def test_failures_are_not_cached(web: FakeWeb, tmp_path: Any) -> None:
    http = client(http_cache=str(tmp_path / "cache.sqlite"), retries=0)
    web.faults["crossref"] = Fault(mode="status", status=503)
    with pytest.raises(SourceFailure):
        asyncio.run(get_json(http, web))
    web.faults.clear()
    assert asyncio.run(get_json(http, web))["message"]["DOI"] == "10.1109/cvpr.2016.90"
    http.close_cache()


def test_rate_limiter_allows_a_burst_then_spaces_requests() -> None:
    limiter = RateLimiter(2.0)

    async def five() -> float:
        start = time.monotonic()
        for _ in range(5):
            await limiter.wait()
        return time.monotonic() - start

    # 2 at once (the burst), then one every 0.5 s: at least 1.5 s for five.
    assert asyncio.run(five()) >= 1.45


def test_retry_after_parses_seconds_and_dates() -> None:
    assert retry_after("7") == 7.0
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert retry_after("soon") is None
    assert retry_after(None) is None


def test_xml_with_entity_declarations_is_refused() -> None:
    from citetracer.collect.http import parse_xml

    bomb = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><x>&b;</x>'
    with pytest.raises(SourceFailure, match="entities"):
        parse_xml("arxiv", bomb)
    with pytest.raises(SourceFailure, match="invalid XML"):
        parse_xml("arxiv", b"<feed><entry>")


def test_one_client_serves_several_runs_with_rate_limits(web: FakeWeb) -> None:
    """The CLI checks each file in its own event loop with the same client and limits."""
    http = client(rate_limits={})
    for _ in range(2):

        async def burst() -> list[Any]:
            calls = [http.call("crossref", web.sources()["crossref"]) for _ in range(5)]
            try:
                return await asyncio.gather(*(c.json("works/10.1109/cvpr.2016.90") for c in calls))
            finally:
                await http.aclose()

        assert all(d["message"]["DOI"] == "10.1109/cvpr.2016.90" for d in asyncio.run(burst()))


def test_cache_freshness_is_per_source(web: FakeWeb, tmp_path: Any) -> None:
    http = client(http_cache=str(tmp_path / "cache.sqlite"), cache_days={"*": 7.0, "crossref": 0.0})
    asyncio.run(get_json(http, web))
    before = web.hits["crossref"]
    asyncio.run(get_json(http, web))  # crossref replies are never fresh with 0 days: asked again
    assert web.hits["crossref"] == before + 1
    http.close_cache()


def test_cache_file_holds_no_api_key(web: FakeWeb, tmp_path: Any) -> None:
    path = tmp_path / "cache.sqlite"
    http = client(http_cache=str(path), keys={"openalex": "SECRET-KEY"})

    async def go() -> Any:
        call = http.call("openalex", web.sources()["openalex"])
        try:
            return await call.json("works", {"search": "deep residual", "api_key": "SECRET-KEY", "mailto": "a@b.org"})
        finally:
            await http.aclose()

    assert asyncio.run(go())["results"]
    http.close_cache()
    assert b"SECRET-KEY" not in path.read_bytes()


def test_waiting_for_our_own_rate_limit_does_not_use_up_the_deadline(web: FakeWeb) -> None:
    """Six requests at 2/s take over 2 s; each call's 1 s deadline counts only time spent on the service."""
    http = client(rate_limits={"crossref": 2.0})

    async def six() -> list[Any]:
        calls = [http.call("crossref", web.sources()["crossref"], time.monotonic() + 1.0) for _ in range(6)]
        try:
            return await asyncio.gather(*(c.json("works/10.1109/cvpr.2016.90") for c in calls))
        finally:
            await http.aclose()

    assert all(d["message"]["DOI"] == "10.1109/cvpr.2016.90" for d in asyncio.run(six()))


def test_a_lower_advertised_rate_is_heeded_a_higher_one_never(web: FakeWeb) -> None:
    """Crossref advertises the rate of the pool a client is in (x-rate-limit-limit / -interval)."""
    web.faults["crossref"] = Fault(rate_headers=("4", "2s"))
    http = client(rate_limits={})  # the default polite rate: 10/s
    asyncio.run(get_json(http, web))
    assert http.limiter("crossref").rate == 2.0
    web.faults["crossref"] = Fault(rate_headers=("50", "1s"))
    asyncio.run(get_json(http, web))
    assert http.limiter("crossref").rate == 2.0


def test_advertised_rate_parsing() -> None:
    assert advertised_rate("50", "1s") == 50.0
    assert advertised_rate("3000", "60s") == 50.0
    assert advertised_rate(None, "1s") is None and advertised_rate("50", "soon") is None
    assert advertised_rate("5", "0s") is None
