"""What a store offers its callers, whichever backend holds it; and `open_store`, which picks the backend.

Why a protocol: the memory stage, the evidence memo, the judges' venue knowledge, the
mirror ingesters and the front ends all read and write "the store", and a team needs
one store that every machine shares. Two backends implement this one interface:

- `store/db.py` (`Store`): SQLite (WAL) with a tantivy index beside it, one file for
  one machine; the embedded default, needing no server.
- `store/pg.py` (`PgStore`): PostgreSQL, named by a `postgresql://USER@HOST:PORT/DB`
  URL; many processes on many machines read and write it at once (`citetracer[postgres]`).

Both rank candidates with the same code (store/ranking.py) over the same stored rows
(store/codec.py) and decide coverage with the same rule (store/coverage.py), so a
citation gets the same verdict from either. The store test suite runs against both.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Literal, Protocol

from citetracer.config import is_store_url
from citetracer.records import Candidate, WorkRecord
from citetracer.store.claims import Claim
from citetracer.store.common import BatchMeta, display_location
from citetracer.store.memo import MemoEntry
from citetracer.store.venues import VenueEntry

__all__ = ["BatchMeta", "MemoTableAPI", "RateTurns", "RetrievalIndex", "StoreAPI", "display_location", "open_store"]


class RetrievalIndex(Protocol):
    """Candidate retrieval by title, authors and year (store/ranking.py: `Retrieval`)."""

    def search(
        self, title: str | None, surnames: Sequence[str] = (), year: int | None = None, limit: int = 10
    ) -> list[int]: ...

    def by_title(self, title: str, limit: int = 10) -> list[int]: ...

    def by_authors(
        self, surnames: list[str], year: int | None, limit: int = 10, title: str | None = None
    ) -> list[int]: ...

    def count(self) -> int: ...

    def doc_freq(self, term: str | int, field: str = "title") -> int: ...

    def titles_containing(self, words: Sequence[str]) -> int: ...


class MemoTableAPI(Protocol):
    """The evidence memo's rows (store/memo.py)."""

    def get(self, source: str, subject: str) -> MemoEntry | None: ...

    def put_many(self, entries: Sequence[MemoEntry]) -> int: ...

    def prune(self, before: float) -> int: ...

    def counts(self) -> dict[str, int]: ...

    def __len__(self) -> int: ...


class RateTurns(Protocol):
    """Turns of the polite request rates, shared by every process that uses this store (see store/turns.py)."""

    def take_turn(self, key: str, rate: float, burst: int, max_wait: float | None) -> float | None: ...

    def turn_wait(self, key: str, rate: float, burst: int) -> float: ...


class StoreAPI(Protocol):
    """Records, their index, verified links, the evidence memo and the store's metadata."""

    @property
    def path(self) -> Path | str:
        """The store file, or its URL (str) for a server."""

    @property
    def readonly(self) -> bool: ...

    @property
    def index(self) -> RetrievalIndex: ...

    @property
    def memo(self) -> MemoTableAPI: ...

    # lifetime and writing
    def close(self) -> None: ...

    def __enter__(self) -> StoreAPI: ...

    def __exit__(self, *exc: object) -> None: ...

    def writing(self, wait: float | Literal["default"] | None = "default") -> AbstractContextManager[None]: ...

    def prepare_ingest(self) -> None: ...

    def upsert(
        self,
        records: Iterable[WorkRecord],
        batch_size: int = 5000,
        on_batch: Callable[[BatchMeta], None] | None = None,
    ) -> int: ...

    def write_rows(
        self, rows: Sequence[tuple[Any, ...]], on_batch: Callable[[BatchMeta], None] | None = None
    ) -> int: ...

    def sync_index(self) -> int: ...

    def reindex(self, why: str = "asked to") -> int: ...

    def link_verified(self, fingerprint: str, evidence: Candidate, code: str) -> None: ...

    def link_verified_many(self, links: Sequence[tuple[str, Candidate, str]]) -> int: ...

    # records
    def rid_of_key(self, key: str) -> int | None: ...

    def rid_of(self, candidate: Candidate) -> int | None: ...

    def records(self, rids: Iterable[int]) -> dict[int, WorkRecord]: ...

    def all_records(self, exclude_sources: set[str] | None = None) -> Iterator[WorkRecord]: ...

    def rids_by_doi(self, doi: str) -> list[int]: ...

    def rids_by_arxiv(self, arxiv: str) -> list[int]: ...

    def verified_link(self, fingerprint: str) -> tuple[int, str] | None: ...

    # what the judges ask of the store
    def knows_doi_prefix(self, prefix: str) -> bool: ...

    def knows_venue(self, venue: str) -> bool: ...

    def venue_names(self, venue: str, limit: int = 60) -> list[str]: ...

    def venue_catalog(self) -> list[tuple[str, str]]: ...

    def titles_sharing(self, words: Sequence[str]) -> int: ...

    def venue_year_count(self, key: str, year: int | None) -> int: ...

    def venue_year_coverage(self, key: str, year: int | None) -> tuple[int, str]: ...

    def complete_sources(self) -> set[str]: ...

    def identifier_registries(self, kind: str) -> dict[str, str | None]: ...

    def claims(self) -> dict[str, Claim]: ...

    # venue knowledge (store/venues.py)
    def put_venues(self, entries: Iterable[VenueEntry], batch_size: int = 5000) -> int: ...

    def venue_entries(self, name: str, limit: int = 20) -> list[VenueEntry]: ...

    def declare_complete_venue_years(self, source: str) -> int: ...

    # metadata
    def set_source_complete(self, source: str, complete: bool = True) -> None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def meta_value(self, key: str) -> str | None: ...

    def source_dates(self) -> dict[str, str]: ...

    def set_source_date(self, source: str, date: str | None = None) -> None: ...

    def record_counts(self) -> dict[str, dict[str, int]]: ...

    def years_by_source(self) -> dict[str, dict[int, int]]: ...

    def unfinished_ingests(self) -> dict[str, dict[str, Any]]: ...

    def stats(self) -> dict[str, object]: ...

    def rate_turns(self) -> RateTurns | None: ...


def open_store(
    location: Path | str,
    *,
    readonly: bool = False,
    lock_wait: float | None = 60.0,
    notify: Callable[[str], None] | None = None,
) -> StoreAPI:
    """The store at `location`: a PostgreSQL URL opens `PgStore`, anything else the SQLite file.

    `lock_wait` and `notify` are the SQLite writer lock's (store/lock.py); a PostgreSQL store
    has no such lock (the server orders concurrent writers): `notify` hears that it waits for a
    server that does not answer yet (pg.py: the first connection is retried like a reconnection).
    """
    if is_store_url(location):
        from citetracer.store.pg import PgStore  # psycopg is an extra: imported only when asked for

        return PgStore(str(location), readonly=readonly, notify=notify)
    from citetracer.store.db import Store

    return Store(Path(location), readonly=readonly, lock_wait=lock_wait, notify=notify)


def unreachable(location: Path | str) -> str | None:
    """Why the store at `location` cannot be used now (one line), or None when it answers: a PostgreSQL
    store is asked `SELECT 1` on a short connection of its own, a SQLite file must be readable. For
    health checks (the web app's /healthz), which must not wait on a worker's connection."""
    if is_store_url(location):
        from citetracer.store.pg import ping

        return ping(str(location))
    path = Path(location)
    return None if path.is_file() and os.access(path, os.R_OK) else f"{path.name}: not a readable file"
