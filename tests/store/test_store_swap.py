"""A store's SQLite file and index directory stay a matched pair across swaps and crashes."""

from __future__ import annotations

import os
from pathlib import Path

from citetracer.records import WorkRecord
from citetracer.store.bulk import BulkBuild
from citetracer.store.db import Store
from citetracer.store.swap import index_path, read_marker


def _record(i: int, title: str) -> WorkRecord:
    return WorkRecord(source="t", id=str(i), title=title, year=2000 + i)


def _build(target: Path, titles: list[str]) -> BulkBuild:
    build = BulkBuild(target)
    for i, title in enumerate(titles):
        build.add(_record(i, title))
    return build


def _title_of_first_hit(target: Path, query: str) -> str | None:
    with Store(target) as store:
        rids = store.index.by_title(query, 1)
        return store.records(rids)[rids[0]].title if rids else None


def test_bulk_build_replaces_store_and_index_together(tmp_path: Path) -> None:
    target = tmp_path / "s.sqlite"
    with Store(target) as store:
        store.upsert([_record(0, "Old Title About Cats")])
    _build(target, ["New Title About Dogs", "Another Dog Paper"]).commit()
    assert _title_of_first_hit(target, "Title About Dogs") == "New Title About Dogs"
    assert _title_of_first_hit(target, "Old Title About Cats") != "Old Title About Cats"
    with Store(target) as store:
        assert read_marker(index_path(target)) == store._meta("build")
        assert store.stats()["records"] == 2


def test_aborted_build_leaves_target_untouched(tmp_path: Path) -> None:
    target = tmp_path / "s.sqlite"
    with Store(target) as store:
        store.upsert([_record(0, "Old Title About Cats")])
    build = _build(target, ["New Title About Dogs"])
    build.flush()
    build.abort()
    assert _title_of_first_hit(target, "Old Title About Cats") == "Old Title About Cats"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.sqlite", "s.sqlite.index", "s.sqlite.lock"]


def test_crash_between_index_rename_and_db_rename_restores_old_pair(tmp_path: Path) -> None:
    """Replay replace_store up to its second rename, as a kill at that point would leave it."""
    target = tmp_path / "s.sqlite"
    with Store(target) as store:
        store.upsert([_record(0, "Old Title About Cats")])
    build = _build(target, ["New Title About Dogs"])
    build.flush()
    build.db.execute("COMMIT")
    build.writer.commit()
    build.writer.wait_merging_threads()
    build.db.close()
    from citetracer.store.swap import write_marker

    write_marker(index_path(build.path), build.build)
    os.replace(index_path(target), tmp_path / f"s.sqlite.index.old-{os.getpid()}")
    os.replace(index_path(build.path), index_path(target))
    # killed here: old database, new index
    assert _title_of_first_hit(target, "Old Title About Cats") == "Old Title About Cats"
    assert not list(tmp_path.glob("s.sqlite.index.old-*"))


def test_index_lost_entirely_is_rebuilt_from_sqlite(tmp_path: Path) -> None:
    target = tmp_path / "s.sqlite"
    with Store(target) as store:
        store.upsert([_record(0, "Old Title About Cats"), _record(1, "Second Paper on Birds")])
    import shutil

    shutil.rmtree(index_path(target))
    assert _title_of_first_hit(target, "Second Paper on Birds") == "Second Paper on Birds"
    with Store(target) as store:
        assert store.index.count() == 2


def test_duplicate_keys_within_a_build_keep_the_last(tmp_path: Path) -> None:
    target = tmp_path / "s.sqlite"
    build = BulkBuild(target)
    build.add(_record(1, "First Version Title"))
    build.add(_record(2, "Unrelated Record"))
    build.add(_record(1, "Second Version Title"))
    build.commit()
    with Store(target) as store:
        assert store.stats()["records"] == 2
        assert store.index.count() == 2
        rids = store.index.by_title("Second Version Title", 5)
        assert store.records(rids[:1])[rids[0]].title == "Second Version Title"
        assert all(r.title != "First Version Title" for r in store.records(rids).values())


def test_rows_written_as_plain_json_by_older_stores_are_still_read(tmp_path: Path) -> None:
    target = tmp_path / "s.sqlite"
    with Store(target) as store:
        store.upsert([_record(1, "Compressed Row")])
        old = WorkRecord(source="t", id="9", url="https://example.org/9", title="Plain JSON Row", year=1999)
        store.db.execute(
            "INSERT INTO records (key, source, type, data, seq) VALUES (?, ?, NULL, ?, 1)",
            ("t:9", "t", old.model_dump_json(exclude_none=True)),
        )
        rids = [store.rid_of_key("t:9"), store.rid_of_key("t:1")]
        got = store.records([r for r in rids if r is not None])
        assert {r.title for r in got.values()} == {"Plain JSON Row", "Compressed Row"}
        assert got[rids[0]] == old  # type: ignore[index]
