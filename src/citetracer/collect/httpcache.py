"""On-disk cache of HTTP replies (SQLite), so a re-run asks no service twice.

Only definitive replies are kept: 200s and 404s (a DOI that does not exist
stays non-existent for a while). Freshness is decided by the caller per
source, at read time, so changing `cache_days` applies to old entries too.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS replies (
    key TEXT PRIMARY KEY, source TEXT NOT NULL, stored REAL NOT NULL,
    status INTEGER NOT NULL, content_type TEXT NOT NULL, body BLOB NOT NULL
)
"""


class HttpCache:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    @classmethod
    def open(cls, path: str | Path) -> HttpCache:
        target = Path(path).expanduser()
        target.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(target, isolation_level=None, check_same_thread=False, timeout=10)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(SCHEMA)
        return cls(db)

    def get(self, key: str, max_age: float) -> tuple[int, str, bytes] | None:
        row = self.db.execute("SELECT status, content_type, body, stored FROM replies WHERE key = ?", (key,)).fetchone()
        if row is None or time.time() - row[3] > max_age:
            return None
        return int(row[0]), str(row[1]), bytes(row[2])

    def put(self, key: str, source: str, status: int, content_type: str, body: bytes) -> None:
        if status not in (200, 404):
            return
        # A busy or full cache only costs a future request, never a verdict.
        with contextlib.suppress(sqlite3.OperationalError):
            self.db.execute(
                "INSERT OR REPLACE INTO replies VALUES (?, ?, ?, ?, ?, ?)",
                (key, source, time.time(), status, content_type, body),
            )

    def close(self) -> None:
        self.db.close()
