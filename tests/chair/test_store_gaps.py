"""What an offline store cannot confirm (issue 44), said by `mirror stats` for the store and by the check of a paper
for its citations: "42 of 50 citations are from 2015 or later; the store's newest snapshot (dblp) is of 2016-01-01"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citetracer.config import Settings
from citetracer.extract import read_text
from citetracer.pipeline import Checker
from citetracer.store.db import Store
from citetracer.store.gaps import StoreProfile
from tests.cliproc import run_cli
from tests.conftest import work

OLD_CS = [
    work(f"cvpr{y}-{i}", f"A Vision Method Number {i} of {y}", ["Ada Lovelace", "Alan Turing"], y, "CVPR")
    for y in range(2008, 2016)
    for i in range(3)
]


@pytest.fixture
def dblp_2016(tmp_path: Path) -> Path:
    """A store like the DBLP sample: computer science venues, whole, in a snapshot of 2016-01-01."""
    path = tmp_path / "store.sqlite"
    with Store(path) as store:
        store.upsert([r.model_copy(update={"source": "dblp"}) for r in OLD_CS])
        store.set_meta("complete:dblp", "1")
        store.set_source_date("dblp", "2016-01-01")
    return path


def bib(entries: list[tuple[str, str, int, str]]) -> str:
    return "".join(
        f"@article{{k{i}, title={{{t}}}, author={{Doe, Jane and Roe, Richard}}, journal={{{v}}}, year={{{y}}}{a}}}\n"
        for i, (t, v, y, a) in enumerate(entries)
    )


JOURNAL_PAPER_2020S = bib(
    [(f"Cell Biology Finding {i}", "Nature Methods" if i % 2 else "The Lancet", 2019 + i % 5, "") for i in range(10)]
    + [(f"Language Model {i}", "arXiv preprint", 2021, f", eprint={{2101.0000{i}}}, archiveprefix={{arXiv}}")
       for i in range(5)]
)  # fmt: skip
OLD_CS_PAPER = bib([(f"A Vision Method Number {i} of 2012", "CVPR", 2012, "") for i in range(3)] * 2)


def test_a_2020s_journal_paper_is_told_why_nothing_is_confirmed(dblp_2016: Path) -> None:
    checker = Checker(Settings(store=dblp_2016, offline=True, remember_verified=False))
    try:
        report = checker.check(text=JOURNAL_PAPER_2020S)
        old = checker.check(text=OLD_CS_PAPER)
    finally:
        checker.close()
    assert checker.store_note is None  # a store with a complete source: no empty-store warning
    (note,) = [w for w in report.store_warnings if w.startswith("offline, the store cannot confirm")]
    assert not any(w.startswith("offline, the store cannot confirm") for w in report.warnings)  # the store's
    assert "15 of 15 citations are from 2015 or later; the store's newest snapshot (dblp) is of 2016-01-01" in note
    assert "5 of 15 cite arXiv preprints and the store has no arXiv mirror" in note
    assert "10 of 15 name venues none of its records carries (The Lancet; Nature Methods)" in note
    assert "computer science venues (DBLP)" in note and "come out P1 (unconfirmed, not suspect)" in note
    assert not any(w.startswith("offline, the store cannot confirm") for w in old.store_warnings)  # nothing to say


def test_online_and_small_gaps_say_nothing(dblp_2016: Path) -> None:
    with Store(dblp_2016) as store:
        profile = StoreProfile.of(store)
    assert profile.paper_note([], lambda v: True) is None

    refs = read_text(OLD_CS_PAPER + bib([("New Work", "CVPR", 2021, "")])).references
    assert profile.paper_note(refs, lambda v: True) is None  # 1 of 7: not what makes a report's P1s
    checker = Checker(Settings(store=dblp_2016, offline=False, remember_verified=False, sources={}))
    try:
        assert checker._paper_gaps(read_text(JOURNAL_PAPER_2020S).references) == []
    finally:
        checker.close()


def test_mirror_stats_says_what_the_store_cannot_confirm(dblp_2016: Path, tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "mirror", "stats", "--store", str(dblp_2016))
    assert proc.returncode == 0, proc.stderr
    cannot = json.loads(proc.stdout)["cannot_confirm"]
    assert cannot[0] == "works of 2015 or later (the newest snapshot, dblp, is of 2016-01-01)"
    assert cannot[1].startswith("preprints by their arXiv id (no arXiv mirror")
    assert cannot[2] == "venues outside what its sources cover (dblp: computer science venues (DBLP))"
    empty = run_cli(tmp_path, "mirror", "stats", "--store", str(tmp_path / "empty.sqlite"))
    assert json.loads(empty.stdout)["cannot_confirm"][0].startswith("anything: the store is empty")


def test_the_cli_says_it_once_per_paper(dblp_2016: Path, tmp_path: Path) -> None:
    paper = tmp_path / "journal.bib"
    paper.write_text(JOURNAL_PAPER_2020S, encoding="utf-8")
    proc = run_cli(tmp_path, "check", "--offline", "--store", str(dblp_2016), str(paper), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("warning: offline, the store cannot confirm much of this paper: 15 of 15") == 1
    assert any(w.startswith("offline, the store cannot confirm") for w in json.loads(proc.stdout)["store_warnings"])


def test_records_added_today_do_not_make_an_old_mirror_new(dblp_2016: Path, tmp_path: Path) -> None:
    """A file of records added as they come (`mirror add`, complete for nothing) is dated the day it was added:
    that date holds no year whole, so the DBLP snapshot of 2016 still bounds what the store confirms, and a
    2020s paper is told so (the 845k-record DBLP store plus world.jsonl said nothing of the years)."""
    records = tmp_path / "mine.jsonl"
    records.write_text(
        json.dumps({"id": "m1", "title": "A Record Of My Own", "authors": ["Jane Doe"], "year": 2025, "venue": "X"})
        + "\n",
        encoding="utf-8",
    )
    proc = run_cli(tmp_path, "mirror", "add", str(records), "--source", "mine", "--store", str(dblp_2016))
    assert proc.returncode == 0, proc.stderr
    with Store(dblp_2016) as store:
        profile = StoreProfile.of(store)
    assert profile.newest is not None and profile.newest.name == "dblp"
    assert profile.cannot_confirm()[0] == "works of 2015 or later (the newest snapshot, dblp, is of 2016-01-01)"
    note = profile.paper_note(read_text(JOURNAL_PAPER_2020S).references, lambda v: False)
    assert note is not None and "15 of 15 citations are from 2015 or later" in note
    assert "it holds computer science venues (DBLP); mine's own records." in note  # not a bare "; mine."
    # Declared complete, the same file is a mirror of its own: its date counts.
    complete = run_cli(
        tmp_path, "mirror", "add", str(records), "--source", "mine2", "--complete-venues", "--store", str(dblp_2016)
    )
    assert complete.returncode == 0, complete.stderr
    with Store(dblp_2016) as store:
        assert StoreProfile.of(store).newest.name == "mine2"  # type: ignore[union-attr]
