"""The evidence memo's table: what each online source answered about a question, and when.

One row per (source, subject): the subject names what was asked (`ref:<fingerprint>`
for a search about a citation, `doi:10.1000/x` for an identifier lookup; see
collect/memo.py). A row holds either an answer (the candidate records the source
returned, possibly none, in its order, compressed JSON) or the last failure with
its reason. A failure never replaces an answer: the answer stays until a newer
answer replaces it, and a failure row is never replayed (collect/memo.py), so a
source that failed is asked again next time.

Freshness is not stored: the caller decides at read time from `fetched_at`,
so changing the configured days applies to old rows too. A SQLite store's table is
created with `CREATE TABLE IF NOT EXISTS` when the store opens (`prepare`), so stores
written before the memo existed gain it on their next open and lose nothing; a
PostgreSQL store's comes with its schema (store/pgschema.py). `SqlMemo` reads and
writes it, once for both backends (their SQL differs only in spelling, store/sql.py).
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from pydantic import ValidationError

from citetracer.records import Candidate
from citetracer.store.codec import blob

if TYPE_CHECKING:
    from citetracer.store.sqlbase import SqlBase

TABLE = """
CREATE TABLE IF NOT EXISTS memo (
    source TEXT NOT NULL,
    subject TEXT NOT NULL,
    status TEXT NOT NULL,
    fetched_at REAL NOT NULL,
    detail TEXT,
    candidates BLOB NOT NULL,
    PRIMARY KEY (source, subject)
) WITHOUT ROWID;
"""
#: What the rows mean, kept in the store's `meta` as `memo_format`. Format 2: a lookup's empty answer
#: is only ever the service's own "no such record" reply. Format 1 memos could hold a 200 reply
#: without a record (`{}`, `null`) read as "no such DOI", so their empty lookup answers are forgotten
#: when such a store opens (searches' empty answers were checked for their envelope and stay).
FORMAT = "2"
#: Longest candidate list kept per row (a search asks for ~10 hits; pagination never needs more).
MAX_CANDIDATES = 100


@dataclass
class MemoEntry:
    source: str
    subject: str
    status: Literal["answered", "failed"]
    #: Unix time (seconds) of the source's reply.
    fetched_at: float
    candidates: list[Candidate] = field(default_factory=list)
    detail: str | None = None

    @property
    def fetched_iso(self) -> str:
        return datetime.fromtimestamp(self.fetched_at, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def encode_candidates(candidates: Sequence[Candidate]) -> bytes:
    rows = [c.model_dump(mode="json", exclude_defaults=True) for c in candidates[:MAX_CANDIDATES]]
    return zlib.compress(json.dumps(rows, separators=(",", ":"), ensure_ascii=False).encode(), 6)


def decode_candidates(blob: bytes) -> list[Candidate] | None:
    """The stored candidates, or None when the row is unreadable (then it is treated as absent)."""
    try:
        rows = json.loads(zlib.decompress(blob))
        return [Candidate.model_validate(r) for r in rows]
    except (zlib.error, ValueError, TypeError, ValidationError):
        return None


def prepare(db: sqlite3.Connection) -> None:
    """Make a SQLite store's memo table if it has none, and bring an older memo to `FORMAT` (see there);
    a no-op once done, or while another process writes the store (it, or the next open, upgrades).
    A PostgreSQL store's schema makes its table (store/pgschema.py), with rows of this format from the start."""
    db.executescript(TABLE)
    row = db.execute("SELECT value FROM meta WHERE key = 'memo_format'").fetchone()
    if row is not None and str(row[0]) >= FORMAT:
        return
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError:
        return
    try:
        db.execute(
            "DELETE FROM memo WHERE status = 'answered' AND subject NOT LIKE 'ref:%' AND candidates = ?",
            (encode_candidates([]),),
        )
        db.execute(
            "INSERT INTO meta VALUES ('memo_format', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (FORMAT,),
        )
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class SqlMemo:
    """Reads and writes of a store's `memo` table, the same on both backends (store/sql.py)."""

    def __init__(self, store: SqlBase) -> None:
        self.store = store

    def get(self, source: str, subject: str) -> MemoEntry | None:
        row = self.store._first(
            "SELECT status, fetched_at, detail, candidates FROM memo WHERE source = ? AND subject = ?",
            (source, subject),
        )
        if row is None:
            return None
        status, fetched_at, detail, data = row
        candidates = decode_candidates(blob(data))
        if candidates is None or status not in ("answered", "failed"):
            return None
        return MemoEntry(source, subject, status, float(fetched_at), candidates, detail)

    def put_many(self, entries: Sequence[MemoEntry]) -> int:
        """Write answers (replacing older rows) and failures (only where no answer is kept); one transaction."""
        self.store._writable()
        answers = [(e.source, e.subject, e.fetched_at, e.detail, encode_candidates(e.candidates)) for e in entries
                   if e.status == "answered"]  # fmt: skip
        failures = [(e.source, e.subject, e.fetched_at, e.detail, encode_candidates([])) for e in entries
                    if e.status == "failed"]  # fmt: skip
        with self.store._transaction() as tx:
            if answers:
                tx.executemany(
                    "INSERT INTO memo VALUES (?, ?, 'answered', ?, ?, ?) ON CONFLICT (source, subject) DO UPDATE "
                    "SET status = 'answered', fetched_at = excluded.fetched_at, detail = excluded.detail, "
                    "candidates = excluded.candidates WHERE excluded.fetched_at >= memo.fetched_at "
                    "OR memo.status = 'failed'",
                    answers,
                )
            if failures:
                tx.executemany(
                    "INSERT INTO memo VALUES (?, ?, 'failed', ?, ?, ?) ON CONFLICT (source, subject) DO UPDATE "
                    "SET fetched_at = excluded.fetched_at, detail = excluded.detail WHERE memo.status = 'failed'",
                    failures,
                )
        return len(entries)

    def prune(self, before: float) -> int:
        """Forget rows fetched before `before` (unix time): they are stale for every source."""
        self.store._writable()
        with self.store._transaction() as tx:
            return int(tx.execute("DELETE FROM memo WHERE fetched_at < ?", (before,)).rowcount)

    def counts(self) -> dict[str, int]:
        return {str(s): int(n) for s, n in self.store._query("SELECT status, count(*) FROM memo GROUP BY status")}

    def __len__(self) -> int:
        return int(self.store._first("SELECT count(*) FROM memo")[0])
