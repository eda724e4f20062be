"""Shared fixtures: a small local store of real works written for these tests."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from citetracer.config import Settings
from citetracer.extract import read_text
from citetracer.normalize.names import parse_person
from citetracer.pipeline import Checker
from citetracer.records import CitationResult, Person, WorkRecord
from citetracer.store.db import Store
from tests import pgserver


def people(*names: str) -> list[Person]:
    out = []
    for n in names:
        p = parse_person(n)
        assert p is not None
        out.append(p)
    return out


def work(rid: str, title: str, authors: list[str], year: int, venue: str, **kw: object) -> WorkRecord:
    return WorkRecord(source="test", id=rid, title=title, authors=people(*authors), year=year, venue=venue, **kw)


RECORDS = [
    work(
        "resnet",
        "Deep Residual Learning for Image Recognition",
        ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"],
        2016,
        "CVPR",
        venue_full="IEEE Conference on Computer Vision and Pattern Recognition",
        doi="10.1109/CVPR.2016.90",
    ),
    work(
        "seq2seq",
        "Sequence to Sequence Learning with Neural Networks",
        ["Ilya Sutskever", "Oriol Vinyals", "Quoc V. Le"],
        2014,
        "NIPS",
        arxiv_id="1409.3215",
    ),
    work(
        "alexnet",
        "ImageNet Classification with Deep Convolutional Neural Networks",
        ["Alex Krizhevsky", "Ilya Sutskever", "Geoffrey E. Hinton"],
        2012,
        "NIPS",
    ),
    work(
        "word2vec",
        "Distributed Representations of Words and Phrases and their Compositionality",
        ["Tomas Mikolov", "Ilya Sutskever", "Kai Chen", "Greg Corrado", "Jeffrey Dean"],
        2013,
        "NIPS",
    ),
    work(
        "lstm",
        "Long Short-Term Memory",
        ["Sepp Hochreiter", "Jürgen Schmidhuber"],
        1997,
        "Neural Comput.",
        venue_full="Neural Computation",
        doi="10.1162/neco.1997.9.8.1735",
        volume="9",
        issue="8",
        pages="1735-1780",
    ),
    work(
        "adam",
        "Adam: A Method for Stochastic Optimization",
        ["Diederik P. Kingma", "Jimmy Ba"],
        2015,
        "ICLR",
        arxiv_id="1412.6980",
        variants=[
            WorkRecord(
                source="test",
                id="adam",
                title="Adam: A Method for Stochastic Optimization",
                authors=people("Diederik P. Kingma", "Jimmy Ba"),
                year=2014,
                venue="arXiv",
            )
        ],
    ),
    work(
        "preprint",
        "Scaling Laws for Neural Language Models",
        ["Jared Kaplan", "Sam McCandlish", "Tom Henighan", "Tom B. Brown"],
        2020,
        "arXiv",
        type="preprint",
        arxiv_id="2001.08361",
    ),
    work(
        "nodoi",
        "Neural Machine Translation by Jointly Learning to Align and Translate",
        ["Dzmitry Bahdanau", "Kyunghyun Cho", "Yoshua Bengio"],
        2015,
        "ICLR",
    ),
    work("novenue", "A Record Without Any Venue Information At All", ["Ada Lovelace"], 2020, ""),
]
# A venue the store covers densely, so absence from it is evidence without a closed world.
RECORDS += [
    work(
        f"tc{i}",
        f"Synthetic Study Number {i} of Covered Conference Papers",
        [f"Author{i} Person"],
        2021,
        "Conference on Covered Topics",
    )
    for i in range(25)
]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "store.sqlite")
    s.upsert(RECORDS)
    s.set_source_complete("test")  # like a DBLP mirror: whole venue-years, so absence can be evidence
    yield s
    s.close()


def run_check(store: Store, bib: str, **settings: object) -> dict[str, CitationResult]:
    """Check a BibTeX text against the store; results by entry key."""
    opts: dict[str, object] = {"store": store.path, "offline": True, "today_year": 2026, "remember_verified": False}
    opts.update(settings)
    checker = Checker(Settings.model_validate(opts), store=store)
    read = read_text(bib, suffix=".bib")
    results = asyncio.run(checker.check_references(read.references))
    return {r.id: r for r in results}


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A throwaway PostgreSQL server for the session (tests/pgserver.py), stopped at the end; its base URL.

    Skipped when none can be started here (no PostgreSQL installed, or no psycopg); under CI
    (CI=true) that is a failure instead, so the PostgreSQL tests can never be skipped unseen.
    """
    from tests import pgserver

    try:
        import psycopg  # noqa: F401

        server = pgserver.start()
    except (ImportError, pgserver.NoServer) as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI must run the PostgreSQL tests, but no server could be started: {exc}")
        pytest.skip(f"no PostgreSQL server could be started: {exc}")
    try:
        yield server.url
    finally:
        server.stop()


def pg_location(base_url: str) -> str:
    """A store URL of its own on the test server: a fresh schema, named in the URL's search_path."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return f"{base_url}?options={quote(f'-c search_path={schema}')}"


@pytest.fixture
def own_pg_server() -> Iterator[pgserver.Server]:
    """A PostgreSQL server of the test's own (tests/pgserver.py), for tests that stop and start it."""
    try:
        import psycopg  # noqa: F401

        server = pgserver.start(max_connections=50)
    except (ImportError, pgserver.NoServer) as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI must run the PostgreSQL tests, but no server could be started: {exc}")
        pytest.skip(f"no PostgreSQL here: {exc}")
    try:
        yield server
    finally:
        server.stop()


def empty_config(folder: Path) -> Path:
    """An empty config file, so that a CLI process under test reads no user's config (a file of our own:
    /dev/null was once replaced by a file with text while tests ran)."""
    path = folder / "empty-config.toml"
    path.write_text("")
    return path
