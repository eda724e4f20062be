"""What one long check holds while it runs: the citations in flight, not one task or one record per citation.

A 40,000-citation web job made 40,000 coroutines at once (each waiting on a semaphore, ~3 KB) and held
every verified link's record until the end: 412 MB at its peak, now 371 (bench/hostile.py --web-job).
"""

from __future__ import annotations

import asyncio

from citetracer.config import Settings
from citetracer.extract import read_text
from citetracer.pipeline import SAVE_EVERY, Checker
from citetracer.records import CitationResult
from citetracer.store.db import Store

ENTRY = (
    "@inproceedings{{k{i}, title={{Deep Residual Learning for Image Recognition}}, author={{He, Kaiming and Zhang, "
    "Xiangyu and Ren, Shaoqing and Sun, Jian}}, booktitle={{CVPR}}, year={{2016}}, doi={{10.1109/CVPR.2016.90}}}}\n"
)


def test_a_long_check_runs_as_many_tasks_as_its_concurrency_and_saves_links_as_it_goes(store: Store) -> None:
    n = SAVE_EVERY + 500
    settings = Settings.model_validate({"store": store.path, "offline": True, "today_year": 2026, "concurrency": 4})
    checker = Checker(settings, store=store)
    refs = read_text("".join(ENTRY.format(i=i) for i in range(n)), suffix=".bib").references
    tasks: list[int] = []
    saved: list[int] = []
    handed: list[str] = []

    def done(i: int) -> None:
        tasks.append(len(asyncio.all_tasks()))
        if i == SAVE_EVERY + 100:  # past the first save: the links of the first SAVE_EVERY are in the store
            saved.append(store.db.execute("SELECT count(*) FROM verified").fetchone()[0])

    def result(c: CitationResult) -> None:
        handed.append(c.id)

    assert asyncio.run(checker.check_references(refs, on_done=done, on_result=result)) == []
    assert handed == [f"k{i}" for i in range(n)]  # in input order
    assert max(tasks) <= 4 + 1  # the workers and the main task, never one per citation
    assert saved and saved[0] >= 1  # links of one fingerprint: one row, written before the end
