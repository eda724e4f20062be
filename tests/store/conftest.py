"""The store tests run against both backends: SQLite + tantivy (the embedded default) and PostgreSQL.

`stores` opens fresh stores of the test's backend by name (the same name is the same
store); `store` is the shared example store (tests/conftest.py's RECORDS) on that backend.
A test that is about one backend's own machinery (the SQLite file's writer lock, its
index directory) asks for `sqlite_store` or uses `Store` directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from citetracer.store.api import StoreAPI, open_store
from citetracer.store.db import Store
from tests.conftest import RECORDS, pg_location

BACKENDS = ["sqlite", "postgresql"]


class Stores:
    """Fresh stores of one backend, by name; all closed at the end of the test."""

    def __init__(self, backend: str, folder: Path, base_url: str | None) -> None:
        self.backend = backend
        self.folder = folder
        self.base_url = base_url
        self.locations: dict[str, Path | str] = {}
        self.opened: list[StoreAPI] = []

    def location(self, name: str = "s") -> Path | str:
        if name not in self.locations:
            if self.base_url is None:
                self.locations[name] = self.folder / f"{name}.sqlite"
            else:
                self.locations[name] = pg_location(self.base_url)
        return self.locations[name]

    def open(self, name: str = "s", **kw: object) -> StoreAPI:
        store = open_store(self.location(name), **kw)  # type: ignore[arg-type]
        self.opened.append(store)
        return store

    def close(self) -> None:
        for store in self.opened:
            store.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def stores(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Stores]:
    base = request.getfixturevalue("pg_server") if backend == "postgresql" else None
    made = Stores(backend, tmp_path, base)
    yield made
    made.close()


def seeded(store: StoreAPI) -> StoreAPI:
    store.upsert(RECORDS)
    store.set_source_complete("test")  # like a DBLP mirror: whole venue-years, so absence can be evidence
    return store


@pytest.fixture
def store(stores: Stores) -> StoreAPI:
    """The example store (tests/conftest.py's RECORDS) on the test's backend."""
    return seeded(stores.open())


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    """The example store in SQLite, for tests of the SQLite backend's own machinery."""
    s = Store(tmp_path / "store.sqlite")
    seeded(s)
    yield s
    s.close()


OpenStore = Callable[..., StoreAPI]
