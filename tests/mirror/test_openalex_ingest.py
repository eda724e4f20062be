"""`citetracer mirror openalex`: a filtered, resumable OpenAlex subset, its sources as venue knowledge."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from citetracer.cli import main
from citetracer.collect.memory import MemoryStage
from citetracer.evidence import EvidenceBundle
from citetracer.mirror import openalex as openalex_mirror
from citetracer.mirror.openalex import Filters, ingest_openalex, snapshot_parts
from citetracer.mirror.safexml import DumpError
from citetracer.records import Person, Reference, WorkRecord
from citetracer.store.api import StoreAPI, open_store
from citetracer.store.common import venue_key
from tests.mirror.conftest import fixture_lines, write_openalex


def _works(store: StoreAPI) -> dict[str, WorkRecord]:
    return {r.id: r for r in store.all_records() if r.source == "openalex"}


def test_works_venues_and_what_the_subset_is_complete_for(target: Path | str, openalex_snapshot: Path) -> None:
    with open_store(target) as store:
        report = ingest_openalex(store, openalex_snapshot)
        assert (report.added, report.parts, report.venues) == (8, 2, 5)
        assert report.skipped == 3  # a work without a title, a cut line, a source without a name
        assert report.snapshot_date == "2024-02-01" and report.complete_venue_years == 2
        works = _works(store)
        strings = works["W3000000001"]
        assert strings.title == "Gravitational waves from cosmic strings in a dark sector"
        assert [(p.given, p.family) for p in strings.authors] == [("Mary", "O'Neil"), ("Li", "Wei")]
        assert (strings.venue, strings.year, strings.doi, strings.type) == (
            "Physical Review D",
            2020,
            "10.1103/physrevd.101.000001",
            "article",
        )
        assert (strings.volume, strings.issue, strings.pages) == ("101", "1", "014501")
        assert strings.publisher == "American Physical Society" and strings.url == "https://openalex.org/W3000000001"
        assert strings.venue_full == "Physical Review D"  # the venue row's name, through the record's venue link
        assert works["W3000000002"].pages == "020501-020530"
        preprint = works["W3000000007"]
        assert preprint.arxiv_id == "2003.00007" and preprint.type == "preprint"
        assert works["W3000000008"].authors_truncated and works["W3000000008"].venue is None
        assert store.rids_by_arxiv("2003.00007") and store.rids_by_doi("10.7717/peerj.4375")
        hit = store.index.search("The state of OA: a large-scale analysis", ["piwowar"], 2018, 1)
        assert store.records(hit)[hit[0]].id == "W2741809807"

        # Venue knowledge: names, alternate and abbreviated titles, ISSNs; an ambiguous name gives both.
        prd = store.venue_entries("Phys. Rev. D")
        assert [v.id for v in prd] == ["openalex:S196734849"]
        assert prd[0].issns == ("2470-0010", "2470-0029") and "PRD" in prd[0].alternate_titles
        assert prd[0].works_by_year == {2019: 2, 2020: 3, 2021: 2} and prd[0].publisher == "American Physical Society"
        assert [v.id for v in store.venue_entries("24700029")] == ["openalex:S196734849"]
        assert [v.name for v in store.venue_entries("physical review d")] == ["Physical Review D"]
        assert {v.id for v in store.venue_entries("PRD")} == {"openalex:S196734849", "openalex:S4210187537"}
        assert store.venue_entries("Journal of Nothing") == []

        # Whole venue-years: where the works held match the venue's own count (PRD 2020: 3 of 3; PeerJ 2018).
        assert store.venue_year_coverage(venue_key("Phys. Rev. D") or "", 2020)[0] == 3
        assert "as many as the venue's own count" in store.venue_year_coverage(venue_key("Phys. Rev. D") or "", 2020)[1]
        assert store.venue_year_coverage(venue_key("Physical Review D") or "", 2020)[0] == 3
        assert store.venue_year_coverage(venue_key("Phys. Rev. D") or "", 2019)[0] == 0  # 1 of 2
        assert store.venue_year_coverage(venue_key("PRD") or "", 2020)[0] == 0  # also Pediatric R&D: not whole
        assert store.venue_year_coverage(venue_key("J. Mach. Learn. Res.") or "", 2021)[0] == 0  # 1 of 25
        assert store.venue_year_coverage(venue_key("PeerJ") or "", 2018)[0] == 1

        claim = store.claims()["openalex"]
        assert claim.venue_years == 2 and claim.scope is None
        assert "every work with a Crossref DOI registered before 2024-02-01" in claim.describe()
        assert store.identifier_registries("crossref-doi") == {"openalex": "2024-02-01"}
        per = store.stats()["per_source"]["openalex"]  # type: ignore[index]
        assert per["records"] == 8 and per["by_year"]["2020"] == 4 and per["snapshot"] == "2024-02-01"
        assert store.unfinished_ingests() == {}

        again = ingest_openalex(store, openalex_snapshot)  # the same snapshot again: nothing changes
        assert again.added == 8 and len(_works(store)) == 8 and store.index.count() == 8


JOURNAL_ARTICLES = {"W3000000001", "W3000000002", "W3000000003", "W3000000004", "W3000000005", "W2741809807"}


@pytest.mark.parametrize(
    ("filters", "kept"),
    [
        (Filters.of(since=2020), {"W3000000001", "W3000000002", "W3000000003", "W3000000005", "W3000000007"}),
        (Filters.of(types=["journal-article"]), JOURNAL_ARTICLES),
        (Filters.of(issns=["24700029"]), {"W3000000001", "W3000000002", "W3000000003", "W3000000004"}),
        (Filters.of(concepts=["machine learning"]), {"W3000000005", "W3000000007", "W3000000008"}),
        (Filters.of(concepts=["https://openalex.org/C119857082"]), {"W3000000005", "W3000000007", "W3000000008"}),
        (Filters.of(since=2020, issns=["2470-0010"]), {"W3000000001", "W3000000002", "W3000000003"}),
    ],
)
def test_filters_keep_a_machine_sized_subset(
    tmp_path: Path, openalex_snapshot: Path, filters: Filters, kept: set[str]
) -> None:
    with open_store(tmp_path / "s.sqlite") as store:
        report = ingest_openalex(store, openalex_snapshot, filters)
        assert set(_works(store)) == kept and report.added == len(kept) and report.filtered_out >= 8 - len(kept)
        claim = store.claims()["openalex"]
        assert claim.scope == filters.describe() and claim.scope and claim.scope.startswith("works ")
        assert "Crossref" not in claim.describe()  # a subset is not all of Crossref
        assert store.identifier_registries("crossref-doi") == {}
        if "W3000000003" in kept:  # PRD 2020 is still held whole
            assert store.venue_year_coverage(venue_key("Phys. Rev. D") or "", 2020)[0] == 3


def _killed_at_third_batch(store: StoreAPI, snapshot: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Ingest `snapshot` with the process killed (KeyboardInterrupt) as it writes its third batch; the
    store's own `write_rows` is put back and returned."""
    real = store.write_rows
    calls = [0]

    def dying(rows, on_batch=None):  # type: ignore[no-untyped-def]
        calls[0] += 1
        if calls[0] == 3:
            raise KeyboardInterrupt
        return real(rows, on_batch)

    monkeypatch.setattr(store, "write_rows", dying)
    with pytest.raises(KeyboardInterrupt):
        ingest_openalex(store, snapshot)
    monkeypatch.setattr(store, "write_rows", real)
    return real


def test_an_interrupted_ingest_resumes_where_it_stopped(
    target: Path | str, openalex_snapshot: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(openalex_mirror, "BATCH", 2)
    with open_store(target) as store:
        real = _killed_at_third_batch(store, openalex_snapshot, monkeypatch)
        unfinished = store.unfinished_ingests()["openalex"]
        assert unfinished["records_committed"] == 4 and unfinished["state"].startswith("interrupted")
        assert len(_works(store)) == 4
        written = []

        def counting(rows, on_batch=None):  # type: ignore[no-untyped-def]
            written.extend(r[0] for r in rows)
            return real(rows, on_batch)

        monkeypatch.setattr(store, "write_rows", counting)
        report = ingest_openalex(store, openalex_snapshot)
        assert report.resumed_from is not None and report.resumed_from[2] == 4
        assert len(written) == 4 and report.added == 8  # only the rest was read and written again
        assert len(_works(store)) == 8 and store.index.count() == 8
        assert store.unfinished_ingests() == {}


def test_manifest_part_file_and_bad_snapshots(tmp_path: Path, openalex_snapshot: Path) -> None:
    manifest = openalex_snapshot / "data" / "works" / "manifest"
    assert [p.name for p in snapshot_parts(manifest)] == ["part_000.gz", "part_001.gz"]
    one = snapshot_parts(openalex_snapshot)[1]
    with open_store(tmp_path / "a.sqlite") as store:
        report = ingest_openalex(store, one)  # one part file: its works only, no venues
        assert report.added == 4 and report.venues == 0 and report.complete_venue_years == 0
    with open_store(tmp_path / "b.sqlite") as store:  # a part file plus a sources snapshot given apart
        report = ingest_openalex(store, one, sources=openalex_snapshot)
        assert report.venues == 5 and report.complete_venue_years == 1  # PeerJ 2018
    escaping = tmp_path / "evil" / "manifest"
    escaping.parent.mkdir()
    escaping.write_text(json.dumps({"entries": [{"url": "s3://openalex/data/works/../../../../etc/passwd"}]}))
    with pytest.raises(DumpError, match="outside its folder"):
        snapshot_parts(escaping)
    missing = write_openalex(tmp_path / "gone", {"part_000.gz": ["{}"]})
    (missing / "data" / "works" / "updated_date=2024-01-10" / "part_000.gz").unlink()
    with open_store(tmp_path / "c.sqlite") as store, pytest.raises(DumpError, match="not there"):
        ingest_openalex(store, missing)
    (tmp_path / "empty").mkdir()
    with open_store(tmp_path / "c.sqlite") as store, pytest.raises(DumpError, match="no OpenAlex works"):
        ingest_openalex(store, tmp_path / "empty")


def test_a_cut_part_fails_clearly_and_the_rerun_finishes(tmp_path: Path) -> None:
    lines = fixture_lines("works-part_000.jsonl") + fixture_lines("works-part_001.jsonl")
    root = write_openalex(tmp_path / "snap", {"part_000.gz": lines[:5], "part_001.gz": lines[5:]})
    part = root / "data" / "works" / "updated_date=2024-01-10" / "part_001.gz"
    whole = part.read_bytes()
    part.write_bytes(whole[: len(whole) // 2])
    with open_store(tmp_path / "s.sqlite") as store:
        with pytest.raises(DumpError, match="cannot be read to its end"):
            ingest_openalex(store, root)
        assert len(_works(store)) >= 3  # the first part's works are kept
        part.write_bytes(whole)
        report = ingest_openalex(store, root)
        assert report.resumed_from is not None and len(_works(store)) == 8


def _prd_2020_snapshot(root: Path, works: int, expected: int) -> Path:
    template = json.loads(fixture_lines("works-part_000.jsonl")[0])
    lines = []
    for i in range(works):
        title = f"Dark matter study number {i}"
        w = dict(template, id=f"https://openalex.org/W90{i:06d}", doi=None, display_name=title)
        lines.append(json.dumps(w))
    write_openalex(root, {"part_000.gz": lines})
    source = json.loads(fixture_lines("sources.jsonl")[0])
    source["counts_by_year"] = [{"year": 2020, "works_count": expected, "cited_by_count": 0}]
    write_openalex(root, {"part_000.gz": [json.dumps(source)]}, "sources")
    return root


@pytest.mark.parametrize(("held", "expected", "covered"), [(25, 25, True), (24, 25, False)])
def test_the_memory_stage_reads_a_whole_venue_year_as_coverage(
    tmp_path: Path, held: int, expected: int, covered: bool
) -> None:
    root = _prd_2020_snapshot(tmp_path / "snap", held, expected)
    with open_store(tmp_path / "s.sqlite") as store:
        ingest_openalex(store, root, date="2024-06-01")
        cited = Reference(title="A study nobody wrote", authors=[Person(given="Z.", family="Nobody")],
                          venue="Phys. Rev. D", year=2020)  # fmt: skip
        bundle = EvidenceBundle()
        MemoryStage(store).collect_sync(cited, bundle)
        assert bundle.covered is covered
        if covered:
            assert "all 25 works of this venue" in bundle.coverage_notes[0]
        bundle = EvidenceBundle()
        MemoryStage(store).collect_sync(cited.model_copy(update={"year": 2019}), bundle)
        assert not bundle.covered


def test_cli_mirror_openalex(tmp_path: Path, openalex_snapshot: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = ["--store", str(tmp_path / "s.sqlite")]
    since = ["--since", "2020", "--type", "journal-article"]
    assert main(["mirror", "openalex", str(openalex_snapshot), *since, *store]) == 0
    out, err = capsys.readouterr()
    assert "openalex: 4 works from 2 part files (works published since 2020, of type journal-article;" in out
    assert "5 venues; snapshot of 2024-02-01; complete for 1 venue-years" in out and "skipped" in err
    assert main(["mirror", "openalex", str(openalex_snapshot), "--source-issn", "12", *store]) == 2
    assert "not an ISSN: 12" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["mirror", "openalex", str(openalex_snapshot), "--source-issn", "2470-0010", "--concept", "x", *store])
    assert exc.value.code == 2
    assert main(["mirror", "openalex", str(tmp_path / "nope"), *store]) == 2
    bad = tmp_path / "bad.gz"
    bad.write_bytes(gzip.compress(b"{}")[:-4])
    assert main(["mirror", "openalex", str(bad), *store]) == 2
    assert "run the same command again" in capsys.readouterr().err


def test_parsing_in_worker_processes_gives_the_same_store_and_resumes_alike(
    tmp_path: Path, openalex_snapshot: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Big snapshots are parsed in one process per core (mirror/workers.py): same works, same skips, and
    an interrupted ingest still resumes where its last batch ended."""
    with open_store(tmp_path / "serial.sqlite") as store:
        serial = ingest_openalex(store, openalex_snapshot)
        expected = {k: r.model_dump() for k, r in _works(store).items()}
    monkeypatch.setattr(openalex_mirror, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(openalex_mirror.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(openalex_mirror, "BATCH", 2)
    with open_store(tmp_path / "parallel.sqlite") as store:
        _killed_at_third_batch(store, openalex_snapshot, monkeypatch)
        assert len(_works(store)) == 4
        report = ingest_openalex(store, openalex_snapshot)
        assert report.added == serial.added == 8 and report.resumed_from is not None
        assert {k: r.model_dump() for k, r in _works(store).items()} == expected
        assert store.index.count() == 8
