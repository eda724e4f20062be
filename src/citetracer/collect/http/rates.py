"""Politeness and protection per source: the token-bucket rate limiter (per process, or shared by every
process of one store), the rates a service advertises or asks for (Retry-After), and the circuit breaker
that stops asking a service that keeps failing."""

from __future__ import annotations

import asyncio
import time
import warnings
from dataclasses import dataclass
from typing import Protocol


class RateLimiter:
    """Token bucket: at most `rate` requests in any one-second window, bursts up to that size.

    Services state their limits per second ("10 requests per second"), so a
    burst of `rate` requests followed by a pause complies; rates below one per
    second (arXiv's one request every 3 s) allow no burst at all.
    """

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.capacity = max(1.0, float(int(rate)))
        self._tokens = self.capacity
        self._stamp = time.monotonic()

    def wait_needed(self) -> float:
        """Seconds the next request would wait for its turn now (nothing reserved)."""
        if self.rate <= 0:
            return 0.0
        tokens = min(self.capacity, self._tokens + (time.monotonic() - self._stamp) * self.rate)
        return max(0.0, (1.0 - tokens) / self.rate)

    def reserve(self, max_wait: float | None = None) -> float | None:
        """Reserve the next request's turn: seconds to wait for it, or None (nothing reserved)
        when that wait would exceed `max_wait`."""
        if self.rate <= 0:
            return 0.0
        # No lock needed: nothing here awaits, so the reservation is atomic in the event loop.
        now = time.monotonic()
        self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        after = self._tokens - 1.0
        delay = -after / self.rate if after < 0 else 0.0
        if max_wait is not None and delay > max_wait:
            return None
        self._tokens = after
        return delay

    async def wait(self) -> None:
        delay = self.reserve()
        if delay:
            await asyncio.sleep(delay)


class SharedTurns(Protocol):
    """A keeper of rate turns that many processes share (implemented by the stores: store/turns.py)."""

    def take_turn(self, key: str, rate: float, burst: int, max_wait: float | None) -> float | None: ...

    def turn_wait(self, key: str, rate: float, burst: int) -> float: ...


class SharedRateLimiter(RateLimiter):
    """The same token bucket, kept by a `SharedTurns` that every process of the fleet consults.

    If the keeper fails (its server is gone), this process falls back to its own bucket for
    the source, with a warning once: still polite per process, never stopped.
    """

    def __init__(self, rate: float, source: str, turns: SharedTurns) -> None:
        super().__init__(rate)
        self.source = source
        self.turns: SharedTurns | None = turns

    def _lost(self, exc: ConnectionError) -> None:
        self.turns = None
        warnings.warn(
            f"{self.source}: the shared rate turns failed ({exc}); this process keeps its own rate from now on",
            RuntimeWarning,
            stacklevel=3,
        )

    def wait_needed(self) -> float:
        if self.rate > 0 and self.turns is not None:
            try:
                return self.turns.turn_wait(self.source, self.rate, int(self.capacity))
            except ConnectionError as exc:
                self._lost(exc)
        return super().wait_needed()

    def reserve(self, max_wait: float | None = None) -> float | None:
        if self.rate > 0 and self.turns is not None:
            try:
                return self.turns.take_turn(self.source, self.rate, int(self.capacity), max_wait)
            except ConnectionError as exc:
                self._lost(exc)
        return super().reserve(max_wait)


@dataclass
class Breaker:
    """Circuit breaker: after `limit` consecutive failures the source is skipped for `cooldown` s."""

    limit: int
    cooldown: float
    failures: int = 0
    opened_at: float | None = None

    def allow(self) -> bool:
        # Once the cooldown is over the breaker is half-open: one request may probe the service.
        return self.opened_at is None or time.monotonic() - self.opened_at >= self.cooldown

    def success(self) -> None:
        self.failures, self.opened_at = 0, None

    def failure(self) -> None:
        self.failures += 1
        if self.failures >= self.limit:
            self.opened_at = time.monotonic()
