"""The local store as an identifier registry: typed answers from the memory stage, and old answers replayed.

A stored record carrying the cited DOI or arXiv id is a "work"; a mirror declared complete for
the identifier (an arXiv snapshot built with `mirror arxiv`, a DOI prefix declared with
`--complete-doi-prefix`) that lacks it is a "none", only inside its range; anywhere else the
store says nothing.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from citetracer.cli import main
from citetracer.collect.lookups import identifier_answers, proven_absent
from citetracer.collect.memory import MemoryStage
from citetracer.config import Settings
from citetracer.evidence import EvidenceBundle
from citetracer.mirror import declare_doi_prefixes
from citetracer.pipeline import Checker
from citetracer.records import CitationResult, IdentifierLookup, Person, Reference, SourceOutcome, WorkRecord
from citetracer.store.api import open_store
from citetracer.store.db import Store
from citetracer.store.memo import MemoEntry
from tests.mirror.conftest import FIXTURES

SNAPSHOT = FIXTURES / "arxiv-snapshot.jsonl"  # its newest date: 2024-04-30


def cite(arxiv: str | None = None, doi: str | None = None, year: int | None = 2021) -> Reference:
    return Reference(
        title="Some Title We Cite", authors=[Person(given="A.", family="Author")], year=year, arxiv_id=arxiv, doi=doi
    )


def memory_lookups(store_path: Path, ref: Reference) -> list[IdentifierLookup]:
    with open_store(store_path) as store:
        bundle = EvidenceBundle()
        MemoryStage(store).collect_sync(ref, bundle)
    [outcome] = bundle.outcomes
    return outcome.lookups


@pytest.fixture
def arxiv_store(tmp_path: Path) -> Path:
    store = tmp_path / "s.sqlite"
    assert main(["mirror", "arxiv", str(SNAPSHOT), "--store", str(store)]) == 0
    return store


def test_an_arxiv_snapshot_answers_none_inside_its_range(arxiv_store: Path) -> None:
    [none] = memory_lookups(arxiv_store, cite("arXiv:2101.99999"))
    assert (none.kind, none.value, none.registry, none.answer, none.complete) == (
        "arxiv",
        "2101.99999",
        "memory:arxiv",
        "none",
        True,
    )
    assert "issued before 2024-04-30" in none.why
    bundle = EvidenceBundle(outcomes=[SourceOutcome(source="memory", status="answered", lookups=[none])])
    assert proven_absent(bundle, "arxiv", "2101.99999v3") == none
    # Old-style ids are dated too (hep-th/9901001: January 1999).
    assert [lk.answer for lk in memory_lookups(arxiv_store, cite("hep-th/9901999"))] == ["none"]


def test_an_arxiv_snapshot_says_nothing_past_its_date(arxiv_store: Path) -> None:
    assert memory_lookups(arxiv_store, cite("2404.00001")) == []  # the snapshot's own month: may be newer
    assert memory_lookups(arxiv_store, cite("2502.01234", year=2025)) == []  # after the snapshot


def test_an_arxiv_id_the_store_holds_is_a_work(arxiv_store: Path) -> None:
    [work] = memory_lookups(arxiv_store, cite("1706.03762v5"))
    assert (work.registry, work.answer, work.record, work.complete) == (
        "memory:arxiv",
        "work",
        "arxiv:1706.03762",
        True,
    )
    # The DOI a stored arXiv record carries (its journal version's) is held too; no DOI mirror is declared.
    [doi] = memory_lookups(arxiv_store, cite(doi="10.1103/PhysRevD.76.013009"))
    assert (doi.kind, doi.answer, doi.record, doi.complete) == ("doi", "work", "arxiv:0704.0001", False)


def test_a_partial_snapshot_says_nothing(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    assert main(["mirror", "arxiv", str(SNAPSHOT), "--partial", "--store", str(store)]) == 0
    assert memory_lookups(store, cite("2101.99999")) == []
    assert [lk.answer for lk in memory_lookups(store, cite("1706.03762"))] == ["work"]  # what it holds, it holds


def test_a_store_with_no_claim_says_nothing_of_a_doi_it_lacks(arxiv_store: Path) -> None:
    assert memory_lookups(arxiv_store, cite(doi="10.1109/made.up.2020")) == []


def acl_store(tmp_path: Path, date: str = "2024-06-01") -> Path:
    path = tmp_path / "acl.sqlite"
    with Store(path) as store:
        store.upsert([WorkRecord(source="acl", id="N19-1423", title="BERT", year=2019, doi="10.18653/v1/N19-1423")])
        store.set_source_date("acl", date)
        assert declare_doi_prefixes(store, "acl", ["10.18653/v1/"]) == ["doi:10.18653/v1"]
        assert "every DOI under 10.18653/v1/ registered before 2024-06-01" in store.claims()["acl"].describe()
    return path


def test_a_mirror_declared_complete_for_a_doi_prefix(tmp_path: Path) -> None:
    store = acl_store(tmp_path)
    made_up = "10.18653/v1/2020.acl-main.9999"
    [none] = memory_lookups(store, cite(doi=made_up, year=2020))
    assert (none.registry, none.answer, none.complete) == ("memory:acl", "none", True)
    assert "every DOI under 10.18653/v1/" in none.why
    assert memory_lookups(store, cite(doi=made_up, year=2024)) == []  # the snapshot's year: may be newer
    assert memory_lookups(store, cite(doi=made_up, year=None)) == []  # no year: registered when?
    assert memory_lookups(store, cite(doi="10.1162/made.up", year=2020)) == []  # another prefix
    [work] = memory_lookups(store, cite(doi="10.18653/v1/n19-1423", year=2019))
    assert (work.answer, work.record, work.complete) == ("work", "acl:N19-1423", True)


def test_declaring_a_prefix_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "P99.xml").write_text(
        "<collection id='P99'><volume id='1'><meta><booktitle>Proc</booktitle><year>2019</year></meta>"
        "<paper id='1'><title>A Paper</title><author><first>A</first><last>B</last></author>"
        "<url>P99-1001</url><doi>10.18653/v1/P99-1001</doi></paper></volume></collection>",
        encoding="utf-8",
    )
    store = tmp_path / "s.sqlite"
    assert main(["mirror", "acl", str(tmp_path / "P99.xml"), "--store", str(store), "--complete-doi-prefix", "x"]) == 2
    assert "not a DOI prefix" in capsys.readouterr().err
    argv = ["mirror", "acl", str(tmp_path / "P99.xml"), "--store", str(store), "--complete-doi-prefix", "10.18653/v1"]
    assert main(argv) == 0
    with open_store(store) as s:
        assert s.identifier_registries("doi:10.18653/v1") == {"acl": time.strftime("%Y-%m-%d")}
    assert [lk.answer for lk in memory_lookups(store, cite(doi="10.18653/v1/P99-9999", year=2019))] == ["none"]


# ------------------------------------------------------------------ answers replayed, reports read back


def test_a_memo_row_replays_as_a_typed_answer(make_settings: Any) -> None:
    """Memo rows hold candidates, not outcomes: a row written before lookups were typed replays typed."""
    settings = make_settings()
    with Store(settings.store) as store:
        subject = "doi:10.1109/made.up.2020"
        store.memo.put_many(
            [
                MemoEntry("crossref", subject, "answered", time.time(), [], "DOI 10.1109/made.up.2020"),
                MemoEntry("doi", subject, "answered", time.time(), [], None),
            ]
        )
    checker = Checker(settings.model_copy(update={"offline": True}))  # replays only: nothing is asked
    try:
        [result] = asyncio.run(checker.check_references([Reference(title="Made up", doi="10.1109/made.up.2020")]))
    finally:
        checker.close()
    replayed = [o for o in result.cost.sources if o.fetched_at]
    assert {o.source for o in replayed} == {"crossref", "doi"}
    bundle = EvidenceBundle(outcomes=result.cost.sources)
    assert [(a.registry, a.answer) for a in identifier_answers(bundle, "doi", "10.1109/made.up.2020")] == [
        ("crossref", "none"),
        ("doi", "none"),
    ]


def test_reports_carry_lookups_and_old_reports_still_load() -> None:
    lookup = IdentifierLookup(kind="arxiv", value="2101.99999", registry="arxiv", answer="none", complete=True, why="w")
    outcome = SourceOutcome(source="arxiv", status="answered", lookups=[lookup])
    result = CitationResult.model_validate(
        {
            "id": "1",
            "reference": {"title": "T"},
            "verdict": {"class": "Potential", "code": "P1", "codes": ["P1"], "rationale": "r"},
            "cost": {"sources": [outcome.model_dump(mode="json")]},
        }
    )
    wire = json.loads(json.dumps(result.to_json_dict()))
    assert wire["cost"]["sources"][0]["lookups"][0]["answer"] == "none"
    assert CitationResult.model_validate(wire).cost.sources[0].lookups == [lookup]
    # A report written before the field existed: sources without `lookups`.
    del wire["cost"]["sources"][0]["lookups"]
    assert CitationResult.model_validate(wire).cost.sources[0].lookups == []


def test_declaring_a_prefix_with_mirror_add(tmp_path: Path) -> None:
    records = tmp_path / "lab.jsonl"
    records.write_text(json.dumps({"id": "r1", "title": "A Lab Report", "year": 2019, "doi": "10.99999/lab.1"}) + "\n")
    store = tmp_path / "s.sqlite"
    argv = ["mirror", "add", str(records), "--source", "lab", "--store", str(store)]
    assert main([*argv, "--complete-doi-prefix", "10.99999/"]) == 0
    assert [lk.answer for lk in memory_lookups(store, cite(doi="10.99999/lab.2", year=2019))] == ["none"]
    assert [lk.record for lk in memory_lookups(store, cite(doi="10.99999/LAB.1", year=2019))] == ["lab:r1"]


def check_offline(store_path: Path, refs: list[Reference]) -> list[CitationResult]:
    settings = Settings(store=store_path, offline=True, today_year=2026, remember_verified=False)
    with open_store(store_path) as store:
        return asyncio.run(Checker(settings, store=store).check_references(refs))


def test_a_made_up_arxiv_id_inside_a_complete_snapshot_is_h5(arxiv_store: Path) -> None:
    """Issue 39: an arXiv id a `mirror arxiv` snapshot (complete for the ids issued before its date) lacks
    is no identifier at all, offline as online; an id after the snapshot's date is a gap."""
    made_up = Reference(
        title="Recursive lattice attention for zero-shot protein folding",
        authors=[Person(given="Ilya", family="Sutskever")],
        year=2021,
        arxiv_id="2101.99999",
    )
    later = made_up.model_copy(update={"arxiv_id": "2411.99999", "year": 2024})
    first, second = check_offline(arxiv_store, [made_up, later])
    assert (first.verdict.class_, first.verdict.code) == ("Hallucinated", "H5"), first.verdict.rationale
    assert "does not exist" in first.verdict.rationale
    assert second.verdict.class_ == "Potential", second.verdict.rationale


def test_a_made_up_doi_under_a_prefix_a_complete_mirror_holds_is_h5(tmp_path: Path) -> None:
    """Issue 39: a DOI prefix a complete mirror holds (the ACL Anthology's 10.18653/v1) answers for its DOIs
    offline as doi.org does online: a made-up one is no identifier (H5); the registered one is the work."""
    store = acl_store(tmp_path)
    made_up = Reference(
        title="Recursive lattice attention for zero-shot protein folding",
        authors=[Person(given="Ilya", family="Sutskever")],
        year=2020,
        doi="10.18653/v1/2020.acl-main.9999",
    )
    [r] = check_offline(store, [made_up])
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H5"), r.verdict.rationale
