"""Typed failures of a source: every way a service can fail to answer surfaces as `SourceFailure`, which
the stages record as a failed source, never as "not found" (a refused URL and a request over the rate
budget are its kinds that say nothing about the service)."""

from __future__ import annotations


class SourceFailure(Exception):
    """A source did not give a usable answer (timeout, 429, 5xx, malformed reply, ...)."""

    def __init__(self, source: str, detail: str, retry: bool = True) -> None:
        super().__init__(f"{source}: {detail}")
        self.source = source
        self.detail = detail
        #: False when asking again cannot help (refused URL, oversized reply).
        self.retry = retry


class Refused(SourceFailure):
    """An untrusted URL (found in a paper or a page) that may not or cannot be fetched: a scheme or
    address the SSRF guard refuses, or a host that does not resolve. It says nothing about the
    service: it never counts against its breaker, and stages record the URL as not read, never
    as a failed source (a fabricated reference's invented URL must not make its absence doubtful)."""

    def __init__(self, source: str, detail: str) -> None:
        super().__init__(source, detail, retry=False)


class OverBudget(SourceFailure):
    """The request was never sent: our own queue for the source (its polite rate limit or
    concurrency cap) is longer than the citation's rate budget. The service was not asked,
    so this is neither "not found" nor a service failure; stages record it as skipped."""

    def __init__(self, source: str, detail: str) -> None:
        super().__init__(source, detail, retry=False)
