"""Venue coverage counts only sources whose dump could hold the cited year."""

from __future__ import annotations

from pathlib import Path

from citetracer.store.db import Store, WorkRecord, venue_key


def test_an_old_dump_does_not_cover_years_after_it(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite") as store:
        store.upsert(
            [WorkRecord(source="dblp", id=f"c{i}", title=f"Paper {i}", venue="CVPR", year=2015) for i in range(30)]
        )
        store.set_source_date("dblp", "2016-01-01")
        store.set_source_complete("dblp")
        key = venue_key("CVPR")
        assert key is not None
        assert store.venue_year_count(key, 2015) == 30  # the dump was made after 2015 ended
        assert store.venue_year_count(key, 2014) == 30
        assert store.venue_year_count(key, 2016) == 0  # a 2016 paper cannot be in a dump of 2016-01-01
        store.upsert([WorkRecord(source="world", id="w", title="Later", venue="CVPR", year=2016)])
        store.set_source_date("world", "2026-11-29")
        assert store.venue_year_count(key, 2016) == 0  # a record file not declared complete proves nothing
        store.set_source_complete("world")
        assert store.venue_year_count(key, 2016) == 1  # other, newer complete sources still count
        store.set_source_date("dblp", "2024-04-01")
        assert store.venue_year_count(key, 2016) == 31
