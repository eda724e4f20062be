"""Venue coverage counts only that very year, and only sources whose dump could hold all of it."""

from __future__ import annotations

from citetracer.records import WorkRecord
from citetracer.store.db import venue_key
from tests.store.conftest import Stores


def test_an_old_dump_does_not_cover_years_after_it(stores: Stores) -> None:
    with stores.open() as store:
        store.upsert(
            [WorkRecord(source="dblp", id=f"c{i}", title=f"Paper {i}", venue="CVPR", year=2015) for i in range(30)]
        )
        store.set_source_date("dblp", "2016-01-01")
        store.set_source_complete("dblp")
        key = venue_key("CVPR")
        assert key is not None
        # A dump of the first day of 2016 may lack late-2015 proceedings and issues.
        assert store.venue_year_count(key, 2015) == 0
        _, note = store.venue_year_coverage(key, 2015)
        assert "the dblp mirror ends 2016-01-01; this citation is from 2015" in note
        store.set_source_date("dblp", "2016-07-01")
        assert store.venue_year_count(key, 2015) == 30  # half a year after 2015 ended
        assert store.venue_year_count(key, 2014) == 0  # 2015's records say nothing about 2014
        assert store.venue_year_count(key, 2016) == 0  # a 2016 paper cannot be in a dump of 2016
        later = [WorkRecord(source="world", id=f"w{i}", title=f"Later {i}", venue="CVPR", year=2016) for i in range(25)]
        store.upsert(later)
        store.set_source_date("world", "2026-11-29")
        assert store.venue_year_count(key, 2016) == 0  # a record file not declared complete proves nothing
        store.set_source_complete("world")
        assert store.venue_year_count(key, 2016) == 25  # other, newer complete sources still count
        store.set_source_date("dblp", "2024-04-01")
        assert store.venue_year_count(key, 2015) == 30


def test_a_year_indexed_in_part_is_not_covered(stores: Stores) -> None:
    """DBLP's JMLR 2008 held 66 records between 91 (2007) and 100 (2009): t-SNE was not among them."""
    with stores.open() as store:
        counts = {2006: 100, 2007: 91, 2008: 66, 2009: 100, 2010: 118}
        store.upsert(
            [
                WorkRecord(source="dblp", id=f"j{y}-{i}", title=f"Paper {y} {i}", venue="JMLR", year=y)
                for y, n in counts.items()
                for i in range(n)
            ]
        )
        store.set_source_date("dblp", "2016-07-01")
        store.set_source_complete("dblp")
        key = venue_key("JMLR")
        assert key is not None
        assert store.venue_year_count(key, 2007) == 91
        count, note = store.venue_year_coverage(key, 2008)
        assert count == 0 and "indexed only in part" in note
