"""Replace one source's records with a new snapshot of it, in either backend: what every dump ingester shares.

A dump (DBLP's XML, arXiv's metadata snapshot) is the whole source at one date, so
ingesting a newer one replaces that source's records: records the new dump no longer
has go, the other sources' records, the verified links and the evidence memo stay.

- SQLite: the whole store is rebuilt beside the old one (`store.bulk.BulkBuild`) and
  swapped in at the end, so a failure at any point (a corrupt dump, a full disk, a kill)
  leaves the previous store exactly as it was.
- PostgreSQL: rows arrive by COPY in batches stamped with a new generation, and at the
  end the source's records of older generations are deleted. A record keeps its row id
  across rebuilds (verified links stay valid), readers never wait, and a rebuild killed
  half-way leaves some records from each dump, every record whole; running it again
  finishes the job.
"""

from __future__ import annotations

import errno
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citetracer.config import is_store_url
from citetracer.mirror.safexml import DumpError
from citetracer.store.bulk import BulkBuild
from citetracer.store.lock import writer_lock

#: Batches of rows as the parsers produce them (`store.rows.Row` or its plain tuple).
Batches = Iterator[list[tuple[Any, ...]]]


@dataclass
class Rebuilt:
    """What a rebuild did beyond writing the source's rows."""

    written: int = 0
    #: Records of other sources copied into the new store (SQLite; PostgreSQL keeps them in place).
    carried_over: int = 0
    #: Records of this source that the new snapshot no longer has (PostgreSQL; SQLite drops them by not copying).
    removed: int = 0
    #: Seconds spent after the last row (indexes, carry-over, swap; or the deletion of vanished records).
    finish_seconds: float = 0.0


def build_failure(exc: Exception, target: Path) -> DumpError:
    """A failure while writing the new store (full disk, I/O error) as one clear sentence."""
    full = (isinstance(exc, OSError) and exc.errno == errno.ENOSPC) or "full" in str(exc).lower()
    what = "the disk is full" if full else f"cannot write ({exc})"
    return DumpError(f"{what} while building the store beside {target}; the previous store is unchanged")


def rebuild_source(
    target: Path | str,
    source: str,
    batches: Batches,
    meta: Callable[[], dict[str, str]],
    progress: Callable[[int], None] | None = None,
    lock_wait: float | None = None,
    notify: Callable[[str], None] | None = None,
) -> Rebuilt:
    """Replace `source`'s records in the store at `target` with the rows of `batches`.

    `meta` is called once every batch has been read (a dump's date is known only then) and
    gives the store metadata to set with the new records (`source_date:<source>`, ...).
    `lock_wait` / `notify`: how long the SQLite store's final copy-and-swap waits for another
    writer (None: as long as it takes), and who hears whom it waits for (store/lock.py).
    Unusable input raises DumpError from the parser; the store is then as it was.
    """
    try:
        if is_store_url(target):
            return _rebuild_shared(str(target), source, batches, meta, progress)
        return _rebuild_file(Path(target), source, batches, meta, progress, lock_wait, notify)
    finally:
        close = getattr(batches, "close", None)
        if close is not None:
            close()


def _rebuild_shared(
    url: str, source: str, batches: Batches, meta: Callable[[], dict[str, str]], progress: Callable[[int], None] | None
) -> Rebuilt:
    from citetracer.store.pg import PgStore

    done = Rebuilt()
    with PgStore(url) as store:
        gen = store.next_generation()
        for rows in batches:
            store.write_rows(rows, gen=gen)
            done.written += len(rows)
            if progress is not None:
                progress(done.written)
        finishing = time.monotonic()
        done.removed = store.delete_older(source, gen)
        store.sync_index()  # the posting lists of every batch merged, without the replaced and deleted rows
        for key, value in meta().items():
            store.set_meta(key, value)
        done.finish_seconds = time.monotonic() - finishing
    return done


def _rebuild_file(
    target: Path,
    source: str,
    batches: Batches,
    meta: Callable[[], dict[str, str]],
    progress: Callable[[int], None] | None,
    lock_wait: float | None,
    notify: Callable[[str], None] | None,
) -> Rebuilt:
    done = Rebuilt()
    build = BulkBuild(target)
    try:
        for rows in batches:
            build.add_rows(rows)
            done.written += len(rows)
            if progress is not None:
                progress(done.written)
        for key, value in meta().items():
            build.set_meta(key, value)
        finishing = time.monotonic()
        # The other sources' records are copied over only now, under the store's writer lock held
        # until the swap: whatever `mirror add` (or a check's memo) wrote into the old store while
        # the dump was parsed is carried over, and nothing can be written there in between.
        with writer_lock(target, lock_wait, notify):
            done.carried_over = build.carry_over(target, {source})
            build.commit()
        done.finish_seconds = time.monotonic() - finishing
    except (sqlite3.Error, OSError) as exc:
        build.abort()
        raise build_failure(exc, target) from exc
    except BaseException:
        build.abort()
        raise
    return done
