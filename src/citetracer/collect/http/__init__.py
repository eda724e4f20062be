"""The one async HTTP layer every online stage uses.

Why one layer: politeness and failure handling must be the same for every
service. It gives, per source: a rate limit (the service's published polite
rate by default), retries with exponential backoff that honour Retry-After,
a total time bound per request (so a slow-drip reply cannot hold a citation),
a response-size cap, a circuit breaker, an on-disk cache with per-source
freshness, a descriptive User-Agent with a contact e-mail, and counters of
calls, bytes and time. Every failure surfaces as `SourceFailure`, which the
stages record as a failed source, never as "not found".

The polite rates are owed by the whole fleet, not by each process: when the store
offers shared turns (store/turns.py: a table of the PostgreSQL store, or a file beside
a SQLite store), every process that uses that store takes its turns from the same
bucket (`SharedRateLimiter`), so 32 scan workers on 8 machines together keep arXiv's
one request every 3 s. Concurrency caps stay per process.

A call may carry a rate budget (`Call.start_by`): when our own queue for the
source (its polite rate, its connection cap) would start the request later,
the request is not sent and `OverBudget` is raised, reserving nothing; the
stages record the source as "skipped (rate budget)". A paper with many
citations then costs a slow service only what it can serve in time, instead
of queueing every citation behind DBLP's one request a second.

Configured source base URLs are trusted; any other URL (found in a paper, or
a redirect leaving the source's own host) goes through `ssrf.check_url` first.

One module per idea: `failures` (the typed failures), `rates` (rate limiters, the breaker),
`response` (what a request answers, its rate and Retry-After headers, the counters), `client` (the shared
client and `Call`, one source consulted through it for one citation); this package re-exports their public names.
"""

from citetracer.collect.http.client import MAX_REDIRECTS, RETRY_STATUSES, Call, HttpClient, NetworkWatch
from citetracer.collect.http.failures import OverBudget, Refused, SourceFailure
from citetracer.collect.http.rates import Breaker, RateLimiter, SharedRateLimiter, SharedTurns
from citetracer.collect.http.response import (
    Response,
    SourceStats,
    advertised_rate,
    parse_xml,
    retry_after,
)

__all__ = [
    "MAX_REDIRECTS",
    "RETRY_STATUSES",
    "Breaker",
    "Call",
    "HttpClient",
    "NetworkWatch",
    "OverBudget",
    "RateLimiter",
    "Refused",
    "Response",
    "SharedRateLimiter",
    "SharedTurns",
    "SourceFailure",
    "SourceStats",
    "advertised_rate",
    "parse_xml",
    "retry_after",
]
