"""What a store backend gives the queries written once for both (store/sql.py, store/sqlvenues.py).

`Dialect` is how the backend spells SQL (placeholders, list parameters, how a record names its
crossref target); the shared queries are written in SQLite's spelling with `?` placeholders and
turned into the backend's. `Transaction` is one of its write transactions, taking statements in
that neutral spelling. `SqlBase` lists the hooks a backend defines (running a statement, a long
read, a write transaction, a block of writes, a batch of records, its size) and the plumbing
built on them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Self

from citetracer.records import WorkRecord
from citetracer.store.common import BatchMeta, StoreError, display_location

if TYPE_CHECKING:
    from citetracer.store.ranking import RankingFields


@dataclass(frozen=True)
class Dialect:
    """How one backend spells what the queries here need."""

    name: str
    #: The placeholder of one parameter.
    mark: str
    #: Whether a list parameter binds as one array (`= ANY(%s)`), else one placeholder per item (`IN (?, ?)`).
    arrays: bool
    #: The join condition of a record (`r`) to its crossref target or venue (`x`): SQLite keeps the
    #: target's row id in `records.xref`, PostgreSQL its key.
    xref_join: str

    @property
    def volume_join(self) -> str:
        """The joins of a record (`r`) to its crossref target (`x`) and that target's own record (`v`, a
        proceedings volume's, when the store holds it)."""
        return f"LEFT JOIN xrefs x ON {self.xref_join} LEFT JOIN records v ON v.key = x.key"

    def sql(self, query: str) -> str:
        """`query`, written with `?` placeholders and literal `%`, in this dialect (psycopg's `%s`
        placeholders make a literal `%` `%%`)."""
        if self.mark == "?":
            return query
        return query.replace("%", "%%").replace("?", self.mark)

    def any_of(self, column: str, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
        """A condition `column` is one of `values`, in neutral spelling (`?`), and its parameters."""
        if self.arrays:
            return f"{column} = ANY(?)", (list(values),)
        return f"{column} IN ({','.join('?' * len(values))})", tuple(values)


SQLITE = Dialect("sqlite", "?", arrays=False, xref_join="x.id = r.xref")
POSTGRESQL = Dialect("postgresql", "%s", arrays=True, xref_join="x.key = r.xref")


class Transaction:
    """One of a backend's write transactions, taking statements in neutral spelling (`?` placeholders,
    literal `%`): the shared writes run in it, and it is the `BatchMeta` (store/api.py) an ingest's
    `on_batch` gets, so that its progress commits or rolls back with the batch.

    `cursor` runs the backend's spelling: the SQLite connection, or a psycopg cursor in a transaction.
    """

    def __init__(self, cursor: Any, dialect: Dialect) -> None:
        self.cursor = cursor
        self.dialect = dialect

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement; returns the backend's cursor (fetch from it only after a SELECT)."""
        return self.cursor.execute(self.dialect.sql(sql), tuple(params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.cursor.executemany(self.dialect.sql(sql), rows)

    def set_meta(self, key: str, value: str) -> None:
        self.execute(SET_META, (key, value))


#: Sets one `meta` value (both backends have `meta.key` as primary key).
SET_META = "INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value"


class SqlBase:
    """What the shared queries (`SqlStore`, store/sql.py) ask of a backend, and their plumbing.

    A backend sets `dialect`, `path`, `readonly`, `index`, `memo` and the caches (`_cache`,
    `_known_prefixes`, `_source_dates`, `_venue_names`, `_coverage`), and defines the hooks below:
    `_rows` (one statement, its rows), `_stream` (a long read), `_transaction` (one write
    transaction), `writing` (a block of writes), `write_rows` (a batch of records: the bulk write and
    the index are the backend's own) and `_sizes`. Where the two backends differ in substance, not in
    spelling, a hook of its own says why: `_name_targets`, `_end_upsert`, `_counts`.
    """

    dialect: Dialect
    #: Whether several machines write the store (PostgreSQL): then a process id in it (an ingest's)
    #: means something only on the machine that wrote it.
    shared: bool = False
    #: The backend's name in `mirror stats` (None: the embedded default, which it does not name).
    label: str | None = None
    path: Path | str
    readonly: bool
    index: Any
    memo: Any
    _cache: dict[int, WorkRecord]
    _ranking: dict[int, RankingFields]
    _known_prefixes: set[str] | None
    _source_dates: dict[str, str] | None
    _venue_names: dict[str, list[str]]
    _coverage: dict[tuple[str, int | None], tuple[int, str]]

    # ------------------------------------------------------------------- hooks

    def _rows(self, sql: str, params: Any = None) -> list[Any]:
        """Run one statement in the backend's spelling; its rows as a list."""
        raise NotImplementedError

    def _stream(self, sql: str, params: Sequence[Any]) -> Iterator[Any]:
        """The rows of one long read in the backend's spelling, streamed (bounded memory)."""
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Transaction]:
        """One write transaction: committed when the block ends, rolled back when it raises."""
        raise NotImplementedError

    def writing(self, wait: float | Literal["default"] | None = "default") -> AbstractContextManager[None]:
        """A block of writes (SQLite: under the store's writer lock); a read-only store refuses it."""
        raise NotImplementedError

    def write_rows(self, rows: Sequence[tuple[Any, ...]], on_batch: Callable[[BatchMeta], None] | None = None) -> int:
        """Write one batch of record rows (`store.rows.Row`) in one transaction; returns how many."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _sizes(self) -> dict[str, object]:
        """What the store takes on disk or in its database, in bytes, for `stats`."""
        raise NotImplementedError

    # ---------------------------------------------------------------- plumbing

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows of `sql` (neutral spelling: `?` placeholders, literal `%`) on this store's backend."""
        return self._rows(self.dialect.sql(sql), tuple(params))

    def _first(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = self._query(sql, params)
        return rows[0] if rows else None

    def _writable(self) -> None:
        if self.readonly:
            raise StoreError(f"{display_location(self.path)}: opened read-only")

    def _forget(self) -> None:
        """Forget what was read of the tables a write may have changed (the caches)."""
        self._known_prefixes = None
        self._venue_names.clear()
        self._coverage.clear()
        self._cache.clear()
        self._ranking.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
