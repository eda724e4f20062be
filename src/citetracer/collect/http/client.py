"""The one shared HTTP client and one source consulted through it for one citation (`Call`: its base URL,
deadline and requests). The client gives per source a rate limit, retries with backoff, a time bound, a size cap,
the breaker, the on-disk cache and the counters (the package docstring says why), and the
watch that tells a machine without a network from a failing service."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

import httpx

from citetracer.collect.http.failures import OverBudget, Refused, SourceFailure
from citetracer.collect.http.rates import Breaker, RateLimiter, SharedRateLimiter, SharedTurns
from citetracer.collect.http.response import Response, SourceStats, advertised_rate, parse_xml, retry_after
from citetracer.collect.httpcache import HttpCache
from citetracer.collect.ssrf import Pinned, Resolver, UnsafeURL, check_url, pinned
from citetracer.config import OnlineSettings
from citetracer.sources import BY_NAME
from citetracer.version import __version__

MAX_REDIRECTS = 5
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_SECRET_PARAMS = re.compile(r"(?<=[?&])(?:api_key|mailto)=[^&]*&?")


@dataclass
class NetworkWatch:
    """Whether this run reaches the network at all, across every source.

    Without a network (a laptop on a train, a runner with no egress) every source failed on its
    own, each after its retries, and the report said only "failed" citation after citation. Once
    `limit` sources have failed to connect and no source has ever answered, the network is taken
    as down: later requests fail at once (still a failed source, so P1, never "not found") until
    a probe `cooldown` seconds later gets through. The pipeline says so once in the report and
    suggests --offline (`HttpClient.no_network_note`).
    """

    limit: int = 3
    cooldown: float = 60.0
    #: Replies of any HTTP status: the network works even when a service answers 500.
    answered: int = 0
    #: Requests to configured sources, made or (network down) failed at once.
    requests: int = 0
    #: Source -> its first failure to connect (DNS, refused, unreachable, connect timeout).
    unreachable: dict[str, str] = field(default_factory=dict)
    down_since: float | None = None

    def is_down(self) -> bool:
        if self.down_since is None:
            return False
        if time.monotonic() - self.down_since >= self.cooldown:
            self.down_since = time.monotonic()  # this one request probes; others keep failing fast
            return False
        return True

    def reply(self) -> None:
        self.answered += 1
        self.unreachable.clear()
        self.down_since = None

    def connect_failed(self, source: str, detail: str) -> None:
        self.unreachable.setdefault(source, detail)
        if self.answered == 0 and len(self.unreachable) >= self.limit and self.down_since is None:
            self.down_since = time.monotonic()


@dataclass
class Call:
    """One source consulted for one citation: its base URL, deadline and the network calls it made."""

    http: HttpClient
    source: str
    base: str
    deadline: float
    network_calls: int = 0
    cache_hits: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    #: Monotonic time by which each request must be able to start, politeness waits included;
    #: a request that cannot is not sent (OverBudget). None: wait as long as politeness needs.
    start_by: float | None = None
    #: For a search: how many works the service said match, when it says (recorded in the outcome).
    total: int | None = None

    def url(self, path: str, params: dict[str, Any] | None = None) -> str:
        url = self.base.rstrip("/") + "/" + path.lstrip("/") if path else self.base
        if params:
            clean = {k: v for k, v in params.items() if v is not None}
            url += ("&" if "?" in url else "?") + urlencode(clean)
        return url

    async def get(
        self, path: str, params: dict[str, Any] | None = None, accept: str | None = None, trusted: bool = True
    ) -> Response:
        url = path if path[:8].lower().startswith(("http://", "https://")) else self.url(path, params)
        return await self.http.get(self, url, accept=accept, trusted=trusted)

    async def json(
        self,
        path: str,
        params: dict[str, Any] | None = None,
        accept: str | None = None,
        search: bool = False,
        not_found: re.Pattern[bytes] | None = None,
    ) -> Any:
        """The decoded JSON body, or None for a 404 of a lookup; anything else unusable is a SourceFailure.

        A search endpoint never legitimately answers 404 (a wrong base URL or a
        proxy does): for `search=True` it is a failure, not "nothing found".
        `not_found`: what the service's own "no such record" reply says; a 404 whose
        body does not say it came from something else (a wrong base URL, a proxy, a
        CDN error page) and is a failure, never the service saying "not found".
        """
        resp = await self.get(path, params, accept=accept or "application/json")
        if resp.status == 404:
            if search:
                raise SourceFailure(self.source, "HTTP 404 from a search endpoint (wrong base URL?)", retry=False)
            if not_found is not None and not not_found.search(resp.body[:65536]):
                raise SourceFailure(
                    self.source, "HTTP 404 without the service's not-found reply (wrong base URL?)", retry=False
                )
            return None
        try:
            data = json.loads(resp.body)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise SourceFailure(self.source, f"invalid JSON ({resp.content_type or 'no content type'})") from exc
        if data is None:  # None is this method's "404: no such record"; a 200 `null` is no answer at all
            raise SourceFailure(self.source, "HTTP 200 with a JSON null body", retry=False)
        return data

    async def xml(self, path: str, params: dict[str, Any] | None = None, search: bool = False) -> ET.Element | None:
        resp = await self.get(path, params, accept="application/xml")
        if resp.status == 404:
            if search:
                raise SourceFailure(self.source, "HTTP 404 from a search endpoint (wrong base URL?)", retry=False)
            return None
        return parse_xml(self.source, resp.body)


@dataclass
class _Reply:
    status: int
    headers: httpx.Headers
    body: bytes


def user_agent(mailto: str | None = None) -> str:
    """The User-Agent every request of citetracer sends (the online stages', and the mirrors' dump downloads)."""
    contact = f"; mailto:{mailto}" if mailto else ""
    return f"citetracer/{__version__} (+https://github.com/citetracer/citetracer{contact})"


class HttpClient:
    """Shared by all online stages of one run; create it once, `aclose()` it at the end.

    The underlying httpx client is bound to the event loop it was created in;
    a new one is made when a later run uses another loop (each `asyncio.run`).
    """

    def __init__(self, settings: OnlineSettings, mailto: str | None = None, turns: SharedTurns | None = None) -> None:
        self.settings = settings
        #: Rate turns shared with every other process using the same store (None: this process's own).
        self.turns = turns
        self.user_agent = user_agent(mailto)
        self.mailto = mailto
        self.stats: dict[str, SourceStats] = {}
        self._limiters: dict[str, RateLimiter] = {}
        self._slots: dict[tuple[str, int], asyncio.Semaphore] = {}
        self._breakers: dict[str, Breaker] = {}
        self.network = NetworkWatch()
        self._client: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.cache = HttpCache.open(settings.http_cache) if settings.http_cache else None
        #: Resolves untrusted hosts, once per request hop (tests inject a fake one).
        self.resolver: Resolver | None = None

    # -------------------------------------------------------------- plumbing

    def _httpx(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client = httpx.AsyncClient(
                headers={"User-Agent": self.user_agent},
                follow_redirects=False,
                timeout=httpx.Timeout(self.settings.timeout),
                limits=httpx.Limits(max_connections=100, max_keepalive_connections=20),
                trust_env=False,
            )
            self._loop = loop
        return self._client

    async def aclose(self) -> None:
        if self._client is not None and self._loop is asyncio.get_running_loop():
            await self._client.aclose()
        self._client = None
        self._slots.clear()

    def close_cache(self) -> None:
        if self.cache is not None:
            self.cache.close()
            self.cache = None

    def limiter(self, source: str) -> RateLimiter:
        if source not in self._limiters:
            rates = self.settings.rate_limits
            known = BY_NAME.get(source)
            default = known.keyed_rate if known is not None and source in self.settings.keys else None
            polite = known.rate if known is not None else 5.0
            rate = rates.get(source, rates.get("*", default or polite))
            if self.turns is not None and rate > 0:
                self._limiters[source] = SharedRateLimiter(rate, source, self.turns)
            else:
                self._limiters[source] = RateLimiter(rate)
        return self._limiters[source]

    def slots(self, source: str) -> asyncio.Semaphore:
        """Concurrency cap of a source (per event loop: semaphores bind to the loop that uses them)."""
        key = (source, id(asyncio.get_running_loop()))
        if key not in self._slots:
            unlimited = self.settings.rate_limits.get(source, self.settings.rate_limits.get("*")) == 0
            known = BY_NAME.get(source)
            self._slots[key] = asyncio.Semaphore(64 if unlimited else known.concurrency if known is not None else 8)
        return self._slots[key]

    def turn_within(self, source: str, seconds: float) -> bool:
        """Whether a request to `source` made now would get its turn within `seconds` (nothing reserved)."""
        return not self.slots(source).locked() and self.limiter(source).wait_needed() <= seconds

    def breaker(self, source: str) -> Breaker:
        if source not in self._breakers:
            self._breakers[source] = Breaker(self.settings.breaker_failures, self.settings.breaker_seconds)
        return self._breakers[source]

    def no_network_note(self, since: tuple[int, int]) -> str | None:
        """The report's one line when no source answered any of the requests made since `since`
        (`network_count()` taken before the run), else None."""
        requests, answered = self.network_count()
        if requests == since[0] or answered > since[1]:
            return None
        tried = sorted(self.network.unreachable) or sorted(s for s, st in self.stats.items() if st.failures)
        example = next(iter(self.network.unreachable.values()), "")
        return (
            f"no online source answered ({requests - since[0]} request(s) to {', '.join(tried)}"
            + (f"; {example}" if example else "")
            + "): citations the local store cannot settle are Potential (P1), not Hallucinated; "
            "without a network, --offline checks on the local store alone without waiting for the sources"
        )

    def network_count(self) -> tuple[int, int]:
        """Requests made to configured sources and replies received, so far in this client's life."""
        return self.network.requests, self.network.answered

    def call(self, source: str, base: str, deadline: float | None = None, start_by: float | None = None) -> Call:
        end = deadline if deadline is not None else time.monotonic() + self.settings.deadline
        return Call(http=self, source=source, base=base, deadline=end, start_by=start_by)

    def _freshness(self, source: str) -> float:
        days = self.settings.cache_days
        return 86400.0 * days.get(source, days.get("*", 7.0))

    # ------------------------------------------------------------------- get

    async def get(self, call: Call, url: str, accept: str | None = None, trusted: bool = True) -> Response:
        """GET with cache, rate limit, retries, redirects, size and time bounds; 200 or 404, else a failure."""
        source = call.source
        stats = self.stats.setdefault(source, SourceStats())
        key = f"{accept or ''} {_SECRET_PARAMS.sub('', url)}"  # keys and contacts stay out of the cache file
        if self.cache is not None:
            hit = self.cache.get(key, self._freshness(source))
            if hit is not None:
                stats.cache_hits += 1
                call.cache_hits += 1
                return Response(status=hit[0], url=url, content_type=hit[1], body=hit[2], from_cache=True)
        if trusted and self.network.is_down():
            stats.failures += 1
            self.network.requests += 1
            raise SourceFailure(source, "no network: no online source could be reached", retry=False)
        breaker = self.breaker(source)
        if not breaker.allow():
            raise SourceFailure(source, "circuit open after repeated failures")
        attempt = 0
        last = ""
        while True:
            attempt += 1
            try:
                resp = await self._attempt(call, url, accept, trusted, stats)
            except OverBudget as exc:
                if attempt == 1:
                    raise
                stats.failures += 1
                breaker.failure()
                raise SourceFailure(source, f"{last} and no retry fits the rate budget") from exc
            except Refused:
                raise  # the URL's fault, not the service's: no retry, no breaker
            except SourceFailure as exc:
                wait = self._backoff(attempt)
                if attempt > self.settings.retries or not self._fits(call, wait) or not exc.retry:
                    stats.failures += 1
                    breaker.failure()
                    raise
                last = exc.detail
                await asyncio.sleep(wait)
                continue
            if resp.status in RETRY_STATUSES:
                hinted = retry_after(resp.headers.get("retry-after"))
                wait = hinted if hinted is not None else self._backoff(attempt)
                if attempt > self.settings.retries or not self._fits(call, wait):
                    stats.failures += 1
                    breaker.failure()
                    why = f" (Retry-After {hinted:.0f}s)" if hinted is not None else ""
                    raise SourceFailure(source, f"HTTP {resp.status}{why} after {attempt} attempt(s)")
                last = f"HTTP {resp.status}"
                await asyncio.sleep(wait)
                continue
            if resp.status not in (200, 404):
                stats.failures += 1
                breaker.failure()
                raise SourceFailure(source, f"HTTP {resp.status}")
            breaker.success()
            self._heed_advertised_rate(source, resp.headers)
            out = Response(resp.status, url, resp.headers.get("content-type", ""), resp.body)
            if self.cache is not None:
                self.cache.put(key, source, out.status, out.content_type, out.body)
            return out

    def _heed_advertised_rate(self, source: str, headers: httpx.Headers) -> None:
        """Slow down to the rate a service advertises for us (Crossref's x-rate-limit-limit over
        x-rate-limit-interval, which depend on the pool we are in): never faster than our default."""
        advertised = advertised_rate(headers.get("x-rate-limit-limit"), headers.get("x-rate-limit-interval"))
        limiter = self.limiter(source)
        if advertised is not None and 0 < advertised < limiter.rate:
            limiter.rate = advertised
            limiter.capacity = max(1.0, float(int(advertised)))

    def _backoff(self, attempt: int) -> float:
        return 0.25 * (2 ** (attempt - 1)) * (1 + random.random() / 2)

    def _fits(self, call: Call, wait: float) -> bool:
        return time.monotonic() + wait + 0.05 < call.deadline

    async def _attempt(self, call: Call, url: str, accept: str | None, trusted: bool, stats: SourceStats) -> _Reply:
        """One request with its redirects, each hop bounded in time (to the deadline) and size.

        Time spent waiting for our own politeness (the source's rate limit and
        concurrency cap) moves the call's deadline: a queue we impose is not
        the service failing, and must not turn an answer into a P1.
        """
        source = call.source
        headers = {"Accept": accept or "*/*", **call.headers}
        trusted_host = urlsplit(call.base).netloc
        seen: set[str] = set()
        for _hop in range(MAX_REDIRECTS + 1):
            if url in seen:
                raise SourceFailure(source, "redirect loop", retry=False)
            seen.add(url)
            pin: Pinned | None = None
            if not (trusted and urlsplit(url).netloc == trusted_host):
                try:
                    addresses = await check_url(url, self.settings.allow_private, self.resolver)
                except UnsafeURL as exc:
                    raise Refused(source, f"refused {exc}") from exc
                pin = pinned(url, addresses[0])  # connect to the address checked, never a new lookup's
            queued = time.monotonic()
            slots = await self._take_turn(call)
            try:
                call.deadline += time.monotonic() - queued
                remaining = call.deadline - time.monotonic()
                if remaining <= 0:
                    raise SourceFailure(source, "deadline reached", retry=False)
                budget = min(self.settings.timeout, remaining)
                call.network_calls += 1
                stats.calls += 1
                if pin is None:
                    self.network.requests += 1
                start = time.monotonic()
                try:
                    async with asyncio.timeout(budget):
                        resp = await self._fetch(source, url, headers, stats, pin)
                except TimeoutError as exc:
                    raise SourceFailure(source, f"no complete reply within {budget:.1f}s") from exc
                except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                    if pin is not None:  # a URL from a paper whose host takes no connection: a dead link
                        raise Refused(source, f"unreachable ({exc})".replace(" ()", "")) from exc
                    detail = f"{type(exc).__name__}: {exc}".rstrip(": ")
                    self.network.connect_failed(source, detail)
                    raise SourceFailure(source, detail) from exc
                except httpx.TransportError as exc:
                    raise SourceFailure(source, f"{type(exc).__name__}: {exc}".rstrip(": ")) from exc
                finally:
                    stats.seconds += time.monotonic() - start
            finally:
                slots.release()
            if pin is None:
                self.network.reply()
            if resp.status in (301, 302, 303, 307, 308) and "location" in resp.headers:
                url = urljoin(url, resp.headers["location"])
                continue
            return resp
        raise SourceFailure(source, f"more than {MAX_REDIRECTS} redirects", retry=False)

    async def _take_turn(self, call: Call) -> asyncio.Semaphore:
        """Wait for a connection slot and a rate-limit turn of the call's source; returns the held slot.

        With `call.start_by` set, a request whose turn would come later is never
        queued: OverBudget is raised and nothing is reserved, so a skipped request
        costs the service nothing and delays no one else.
        """
        source = call.source
        slots = self.slots(source)
        limiter = self.limiter(source)
        if call.start_by is None:
            await slots.acquire()
            try:
                await limiter.wait()
            except BaseException:
                slots.release()
                raise
            return slots
        if slots.locked():
            try:
                async with asyncio.timeout(max(0.0, call.start_by - time.monotonic())):
                    await slots.acquire()
            except TimeoutError as exc:
                raise OverBudget(source, "every connection to the source stays busy beyond the rate budget") from exc
        else:
            await slots.acquire()
        delay = limiter.reserve(max_wait=call.start_by - time.monotonic())
        if delay is None:
            slots.release()
            raise OverBudget(source, f"its polite rate ({limiter.rate:g}/s) leaves no turn within the rate budget")
        if delay:
            try:
                await asyncio.sleep(delay)
            except BaseException:
                slots.release()
                raise
        return slots

    async def _fetch(
        self, source: str, url: str, headers: dict[str, str], stats: SourceStats, pin: Pinned | None = None
    ) -> _Reply:
        cap = self.settings.max_response_bytes
        extensions: dict[str, Any] = {}
        if pin is not None:
            # Connection: close, so a TLS connection made for one name (SNI, certificate) is
            # never pooled and reused for another name pinned to the same address.
            url, headers = pin.url, {**headers, "Host": pin.host, "Connection": "close"}
            if pin.sni:
                extensions["sni_hostname"] = pin.sni
        request = self._httpx().build_request("GET", url, headers=headers, extensions=extensions)
        resp = await self._httpx().send(request, stream=True)
        try:
            declared = resp.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > cap:
                raise SourceFailure(source, f"reply of {declared} bytes exceeds the {cap}-byte cap", retry=False)
            chunks: list[bytes] = []
            size = 0
            async for chunk in resp.aiter_bytes():
                size += len(chunk)
                if size > cap:
                    raise SourceFailure(source, f"reply exceeds the {cap}-byte cap", retry=False)
                chunks.append(chunk)
            stats.bytes += size
        finally:
            await resp.aclose()
        return _Reply(resp.status_code, resp.headers, b"".join(chunks))
