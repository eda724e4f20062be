"""Turns of the polite request rates, shared by every process that uses one store.

Why: a service's polite rate ("10 requests a second", "one every 3 s") is owed by the
whole fleet, not by each process: 32 workers each keeping arXiv's one request per
3 s would send it ten a second. The HTTP layer (collect/http.py) asks a `RateTurns`
for each request's turn when the store offers one; these are the two the stores offer.

The rule is GCRA, the token bucket's exact twin written as one timestamp per source:
the theoretical arrival time `tat`. A request at `now` may start at
`max(tat, now) - tolerance`, where `tolerance = (burst - 1) / rate` lets `burst`
requests go at once after a quiet spell; taking the turn moves `tat` on by `1 / rate`.
Each turn is one atomic statement, so concurrent takers can never share a turn, and a
request that would have to wait longer than it may (`max_wait`) reserves nothing.

- `PgTurns`: a row per source in the PostgreSQL store's `rate_turns`, timed by the
  server's clock (one clock for every machine), on a connection of its own.
- `FileTurns`: the same rule in a small SQLite file beside a SQLite store
  (`<store>.turns`): every process of one machine shares it, whatever their number.

A turn keeper that fails (the server gone) raises ConnectionError; the HTTP layer then
falls back to its own per-process bucket for that source, saying so once.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

_GCRA_PG = """
WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t)
UPDATE rate_turns r SET tat = greatest(r.tat, now.t) + %(step)s FROM now
WHERE r.key = %(key)s
  AND (%(max_wait)s::float8 IS NULL OR greatest(r.tat, now.t) - %(tolerance)s - now.t <= %(max_wait)s)
RETURNING greatest(r.tat - %(step)s - %(tolerance)s - now.t, 0.0)
"""
_WAIT_PG = """
SELECT greatest(r.tat - %(tolerance)s - extract(epoch FROM clock_timestamp())::float8, 0.0)
FROM rate_turns r WHERE r.key = %(key)s
"""


def _shape(rate: float, burst: int) -> tuple[float, float]:
    step = 1.0 / rate
    return step, max(0, burst - 1) * step


class PgTurns:
    """GCRA turns in the PostgreSQL store's `rate_turns` table (see the module docstring)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: Any = None

    def _db(self) -> Any:
        import psycopg

        if self._conn is None or self._conn.closed:
            try:
                self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
            except psycopg.Error as exc:
                raise ConnectionError(f"rate turns: {exc}") from exc
        return self._conn

    def take_turn(self, key: str, rate: float, burst: int, max_wait: float | None) -> float | None:
        """Seconds until this request's turn (it is taken), or None if that is beyond `max_wait` (nothing taken)."""
        import psycopg

        step, tolerance = _shape(rate, burst)
        params = {"key": key, "step": step, "tolerance": tolerance, "max_wait": max_wait}
        try:
            db = self._db()
            row = db.execute(_GCRA_PG, params).fetchone()
            if row is None:
                db.execute("INSERT INTO rate_turns VALUES (%s, 0) ON CONFLICT DO NOTHING", (key,))
                row = db.execute(_GCRA_PG, params).fetchone()
        except psycopg.Error as exc:
            self.close()
            raise ConnectionError(f"rate turns: {exc}") from exc
        return None if row is None else float(row[0])

    def turn_wait(self, key: str, rate: float, burst: int) -> float:
        """Seconds the next request would wait for its turn now (nothing taken)."""
        import psycopg

        _, tolerance = _shape(rate, burst)
        try:
            row = self._db().execute(_WAIT_PG, {"key": key, "tolerance": tolerance}).fetchone()
        except psycopg.Error as exc:
            self.close()
            raise ConnectionError(f"rate turns: {exc}") from exc
        return float(row[0]) if row else 0.0

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


class FileTurns:
    """GCRA turns in a SQLite file shared by the processes of one machine (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            try:
                conn = sqlite3.connect(str(self.path), timeout=5, isolation_level=None)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=OFF")  # losing a turn's timestamp to a crash is harmless
                conn.execute("CREATE TABLE IF NOT EXISTS rate_turns (key TEXT PRIMARY KEY, tat REAL NOT NULL)")
            except sqlite3.Error as exc:
                raise ConnectionError(f"rate turns in {self.path}: {exc}") from exc
            self._conn = conn
        return self._conn

    def take_turn(self, key: str, rate: float, burst: int, max_wait: float | None) -> float | None:
        step, tolerance = _shape(rate, burst)
        try:
            db = self._db()
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT tat FROM rate_turns WHERE key = ?", (key,)).fetchone()
                now = time.time()
                tat = max(float(row[0]) if row else 0.0, now)
                delay = max(0.0, tat - tolerance - now)
                if max_wait is not None and delay > max_wait:
                    db.execute("ROLLBACK")
                    return None
                db.execute(
                    "INSERT INTO rate_turns VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET tat = excluded.tat",
                    (key, tat + step),
                )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise ConnectionError(f"rate turns in {self.path}: {exc}") from exc
        return delay

    def turn_wait(self, key: str, rate: float, burst: int) -> float:
        _, tolerance = _shape(rate, burst)
        try:
            row = self._db().execute("SELECT tat FROM rate_turns WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            raise ConnectionError(f"rate turns in {self.path}: {exc}") from exc
        return max(0.0, float(row[0]) - tolerance - time.time()) if row else 0.0

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
