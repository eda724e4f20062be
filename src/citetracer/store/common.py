"""What the store backends share: their error, the venue key, index documents, ingest progress, summaries.

Why a module of its own: the SQLite store (db.py), its bulk builder (bulk.py) and the
PostgreSQL store (pg.py) need the same small helpers, and taking them from one another
tied the backends into an import cycle (api -> db -> api, pg -> db) and made one
backend's private names another's interface. Everything here is public, depends on no
backend, and is what makes the two backends give the same answers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from citetracer.config import is_store_url
from citetracer.normalize.names import surname_keys
from citetracer.normalize.venues import venue_id
from citetracer.records import Candidate, WorkRecord
from citetracer.store.index import IndexedWork

T = TypeVar("T")

#: Parsed records kept in memory per open store (a bibliography cites few works twice,
#: but a batch run revisits the same near neighbours often).
RECORD_CACHE_SIZE = 20_000
#: Ranking fields (titles, surname keys, year) kept per open store: a few hundred bytes each.
RANKING_CACHE_SIZE = 50_000


class StoreError(Exception):
    """The store cannot be opened, is not a citetracer store, or failed (one clear sentence)."""


class BatchMeta(Protocol):
    """What an ingest may write inside each batch's own transaction (its progress), so that what is
    committed and what the progress says never disagree."""

    def set_meta(self, key: str, value: str) -> None: ...


def display_location(location: Path | str) -> str:
    """The store as shown in messages and journals: a URL without its password."""
    if not is_store_url(location):
        return str(location)
    text = str(location)
    scheme, _, rest = text.partition("://")
    auth, at, host = rest.rpartition("@")
    if at and ":" in auth:
        auth = auth.split(":", 1)[0] + ":***"
    return f"{scheme}://{auth}{at}{host}"


def venue_key(venue: str | None) -> str | None:
    """The key under which venue coverage is counted: the canonical id when known."""
    if not venue:
        return None
    vid = venue_id(venue)
    if vid:
        return vid
    return " ".join(venue.casefold().split())[:200] or None


def indexed_work(rid: int, record: WorkRecord) -> IndexedWork:
    """The index document of a record: its titles (its own, then its renderings'), surname keys and year."""
    titles = [record.title or ""] + [v.title for v in record.variants if v.title and v.title != record.title]
    surnames: list[str] = []
    for person in record.authors:
        surnames.extend(surname_keys(person.family))
    return IndexedWork(rid=rid, titles=[t for t in titles if t], surnames=surnames, year=record.year)


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """`items` in lists of `size` (the last one shorter), read lazily: a writer's batches."""
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def pid_alive(pid: int) -> bool:
    """Whether a process of this machine with this id exists (a writer or builder that may still be at work)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def unfinished_ingests(states: Iterable[tuple[str, str]], check_host: bool = False) -> dict[str, dict[str, Any]]:
    """Ingests (`mirror add`, `mirror openalex`) not finished, from their `ingest:<source>` meta rows:
    still running, or interrupted (killed), with how far they got; the same command run again resumes them.

    `check_host`: the store is shared by several machines, so a process id only means something
    on the machine that wrote it (PostgreSQL).
    """
    out: dict[str, dict[str, Any]] = {}
    for key, value in states:
        try:
            state = json.loads(value)
            if state["status"] == "done":
                continue
            here = not check_host or state.get("host") in (None, os.uname().nodename)
            alive = here and pid_alive(int(state["pid"])) and int(state["pid"]) != os.getpid()
            out[key.removeprefix("ingest:")] = {
                "state": f"running (pid {state['pid']})" if alive else "interrupted: run the same command to resume",
                "file": state["file"],
                "records_committed": state["records"],
                "lines_read": state["line"],
                "started": state["started"],
            }
        except (ValueError, TypeError, KeyError):
            continue
    return out


def totals(by_source_type: dict[str, dict[str, int]]) -> tuple[dict[str, int], dict[str, int]]:
    """Records by source and by type, from the counts by source and type."""
    by_source: dict[str, int] = {}
    by_type: dict[str, int] = {}
    for source, kinds in by_source_type.items():
        for kind, n in kinds.items():
            by_source[source] = by_source.get(source, 0) + n
            by_type[kind] = by_type.get(kind, 0) + n
    return by_source, by_type


def evidence_records(
    links: Sequence[tuple[str, Candidate, str]], rid_of: Callable[[Candidate], int | None]
) -> list[WorkRecord]:
    """The evidence of verified links that the store does not hold yet, as records of their own source
    (so that a link always points at a record that came from a source, never at a citation's fields)."""
    fresh = {
        (c.source, c.id): WorkRecord(**c.model_dump(exclude={"work", "found_by"}))
        for _, c, _ in links
        if rid_of(c) is None and not c.source.startswith("memory")
    }
    return list(fresh.values())


def source_summaries(
    by_source: dict[str, int],
    dates: dict[str, str],
    claims: dict[str, Any],
    by_year: dict[str, dict[int, int]],
) -> dict[str, dict[str, Any]]:
    """`mirror stats`' view of each source: records, snapshot date, what it is complete for
    (`claims`: store/claims.py `Claim`s), and its records per year (its coverage by year)."""
    out: dict[str, dict[str, Any]] = {}
    for source in sorted(set(by_source) | set(claims)):
        claim = claims.get(source)
        out[source] = {
            "records": by_source.get(source, 0),
            "snapshot": dates.get(source),
            "complete_for": claim.describe() if claim is not None else "nothing (absence from it is no evidence)",
            "by_year": {str(y): n for y, n in sorted(by_year.get(source, {}).items())},
        }
    return out
