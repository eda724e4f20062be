"""DBLP dump ingest: fields, entities, homonyms, crossref venues, identifiers, re-ingest, failures."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citetracer.mirror.dblp import ingest_dblp
from citetracer.mirror.safexml import DumpError
from citetracer.records import Candidate, Person, WorkRecord
from citetracer.store.api import StoreAPI, open_store
from citetracer.store.db import Store


def _by_id(store: StoreAPI) -> dict[str, WorkRecord]:
    return {r.id: r for r in store.all_records()}


def test_fields_entities_homonyms_crossref_identifiers(tmp_path: Path, dump: Path, dtd: Path) -> None:
    target = tmp_path / "store.sqlite"
    report = ingest_dblp(target, dump, dtd, parallel=False)
    assert report.by_type == {"inproceedings": 1, "article": 2, "phdthesis": 1, "proceedings": 1}
    assert report.skipped["www"] == 1
    assert report.dump_date == "2020-05-02"  # newest mdate: the file name has no date
    with Store(target) as store:
        recs = _by_id(store)
        paper = recs["conf/nips/AmbiteW19"]
        assert paper.title == "Learning to Rank Sparse Bibliographic Graphs"  # markup and final period dropped
        assert paper.authors == [Person(given="José Luis", family="Ambite"), Person(given="Wei", family="Wang")]
        assert paper.venue == "NeurIPS"
        # The proceedings come after the paper in the dump; the crossref still names the venue.
        assert paper.venue_full == "Advances in Neural Information Processing Systems 32, NeurIPS 2019"
        assert paper.doi == "10.5555/3454287.3454288"
        assert paper.arxiv_id == "1905.01234"
        assert paper.url == "https://dblp.org/rec/conf/nips/AmbiteW19"
        assert paper.pages == "1-9" and paper.year == 2019 and paper.type == "inproceedings"
        # DBLP writes a proceedings paper's publisher only on its volume's record: the paper carries it.
        assert paper.publisher == "Curran"

        corr = recs["journals/corr/abs-2001-00001"]
        assert corr.authors == [Person(given="Jürgen", family="Möller")]
        assert corr.arxiv_id == "2001.00001" and corr.venue == "CoRR"

        jmlr = recs["journals/jmlr/SmithV18"]
        assert jmlr.venue == "J. Mach. Learn. Res."
        assert jmlr.authors[1] == Person(given="Ludwig", family="van Beethoven")
        assert jmlr.doi == "10.1234/jmlr.2018.19.4"
        assert (jmlr.volume, jmlr.issue, jmlr.pages) == ("19", "4", "1-30")

        assert recs["phd/Doe15"].venue == "University of Trier"
        proceedings = recs["conf/nips/2019"]
        assert proceedings.authors == [Person(given="Hanna", family="Wallach")]  # editors when no authors
        assert "homepages/00/0001" not in recs

        assert store.rids_by_doi("10.5555/3454287.3454288")
        assert store.rids_by_arxiv("2001.00001")
        assert store.knows_doi_prefix("10.1234")
        stats = store.stats()
        assert stats["sources"] == {"dblp": "2020-05-02"}
        assert stats["by_type"]["article"] == 2


def test_a_paper_read_for_judging_carries_its_volumes_title_and_publisher(
    target: Path | str, dump: Path, dtd: Path
) -> None:
    """The records a citation is judged against (`records`, both backends) carry what their proceedings
    volume states, the volume coming after its papers in the dump; a record of its own is left alone."""
    ingest_dblp(target, dump, dtd, parallel=False)
    with open_store(target) as store:
        (rid,) = store.rids_by_doi("10.5555/3454287.3454288")
        paper = store.records([rid])[rid]
        assert paper.publisher == "Curran"
        assert paper.venue_full == "Advances in Neural Information Processing Systems 32, NeurIPS 2019"
        (jrid,) = store.rids_by_doi("10.1234/jmlr.2018.19.4")
        assert store.records([jrid])[jrid].publisher is None  # no crossref: nothing is borrowed


def test_parallel_parse_gives_the_same_store(tmp_path: Path, dump: Path, dtd: Path) -> None:
    ingest_dblp(tmp_path / "a.sqlite", dump, dtd, parallel=False)
    ingest_dblp(tmp_path / "b.sqlite", dump, dtd, parallel=True)
    with Store(tmp_path / "a.sqlite") as a, Store(tmp_path / "b.sqlite") as b:
        assert _by_id(a) == _by_id(b)
        assert a.index.count() == b.index.count() == 5


def test_reingest_newer_dump_updates_without_duplicates_and_keeps_other_sources(
    target: Path | str, dump: Path, dtd: Path, make_dump
) -> None:
    with open_store(target) as store:
        store.upsert([WorkRecord(source="world", id="w1", title="A World Record", year=2001)])
        store.set_source_complete("world")
    ingest_dblp(target, dump, dtd, parallel=False)
    with open_store(target) as store:
        evidence = Candidate(source="dblp", id="journals/jmlr/SmithV18", title="Sparse Coding for Music Transcription")
        store.link_verified("fp-1", evidence, "R1")
    ingest_dblp(target, dump, dtd, parallel=False)  # same dump again: nothing changes
    with open_store(target) as store:
        assert store.stats()["records"] == 6 and store.index.count() == 6

    newer = (
        '<article mdate="2021-01-01" key="journals/jmlr/SmithV18"><author>Anna Smith</author>'
        "<title>Sparse Coding for Polyphonic Music Transcription</title><journal>J. Mach. Learn. Res.</journal>"
        "<year>2018</year></article>\n"
        '<article mdate="2021-01-01" key="journals/x/New21"><author>Bo Li</author><title>A New Paper</title>'
        "<journal>J. X</journal><year>2021</year></article>\n"
    )
    ingest_dblp(target, make_dump("dblp-2021-01-02.xml.gz", newer), dtd, parallel=False)
    with open_store(target) as store:
        recs = _by_id(store)
        assert set(recs) == {"journals/jmlr/SmithV18", "journals/x/New21", "w1"}  # dropped records are gone
        assert recs["journals/jmlr/SmithV18"].title == "Sparse Coding for Polyphonic Music Transcription"
        assert store.stats()["sources"]["dblp"] == "2021-01-02"
        assert store.index.count() == 3
        rid = store.rid_of_key("dblp:journals/jmlr/SmithV18")
        assert store.verified_link("fp-1") is not None and store.verified_link("fp-1")[0] == rid  # type: ignore[index]
        assert store.index.by_title("A World Record", 1) == [store.rid_of_key("world:w1")]
        assert store.complete_sources() == {"dblp", "world"}  # the other source's declaration survives the rebuild


def _answers(target: Path) -> int:
    with Store(target) as store:
        rids = store.index.by_title("Sparse Coding for Music Transcription", 1)
        assert rids and store.records(rids)[rids[0]].id == "journals/jmlr/SmithV18"
        return int(store.stats()["records"])  # type: ignore[call-overload]


def _leftovers(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir() if "building" in p.name or ".old-" in p.name)


@pytest.mark.parametrize("parallel", [False, True])
def test_truncated_dump_fails_cleanly_mid_ingest(
    tmp_path: Path, dump: Path, dtd: Path, make_dump, records_body, parallel: bool
) -> None:
    target = tmp_path / "store.sqlite"
    ingest_dblp(target, dump, dtd, parallel=False)
    # 45,000 records: two full write batches reach the new store before the dump breaks off.
    full = make_dump("big.xml.gz", records_body(45_000))
    truncated = tmp_path / "truncated.xml.gz"
    truncated.write_bytes(full.read_bytes()[: int(full.stat().st_size * 0.9)])
    with pytest.raises(DumpError, match="truncated"):
        ingest_dblp(target, truncated, dtd, parallel=parallel)
    assert _answers(target) == 5
    assert _leftovers(tmp_path) == []


def test_interrupt_from_progress_callback_leaves_previous_store(
    tmp_path: Path, dump: Path, dtd: Path, make_dump, records_body
) -> None:
    target = tmp_path / "store.sqlite"
    ingest_dblp(target, dump, dtd, parallel=False)

    def interrupt(records: int, done: int, total: int) -> None:
        if records >= 10_000:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ingest_dblp(target, make_dump("big.xml.gz", records_body(30_000)), dtd, progress=interrupt, parallel=False)
    assert _answers(target) == 5
    assert _leftovers(tmp_path) == []


@pytest.mark.slow
def test_killed_ingest_leaves_previous_store_and_next_run_cleans_up(
    tmp_path: Path, dump: Path, dtd: Path, make_dump, records_body
) -> None:
    target = tmp_path / "store.sqlite"
    ingest_dblp(target, dump, dtd, parallel=False)
    big = make_dump("big.xml.gz", records_body(200_000))
    code = (
        "import sys; from pathlib import Path; from citetracer.mirror.dblp import ingest_dblp; "
        "ingest_dblp(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), parallel=True)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(target), str(big), str(dtd)])
    deadline = time.monotonic() + 60
    while not any(tmp_path.glob("store.sqlite.building-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # well into the build
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert _answers(target) == 5
    # The parser child notices its parent is gone and exits (no orphan left parsing or blocked).
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{c}").exists() for c in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(
        Path(f"/proc/{c}/status").exists() and "zombie" not in Path(f"/proc/{c}/status").read_text() for c in children
    )
    ingest_dblp(target, dump, dtd, parallel=False)  # the next ingest removes the dead build's files
    assert _leftovers(tmp_path) == []


def test_disk_full_is_a_clear_error_and_keeps_previous_store(
    tmp_path: Path, dump: Path, dtd: Path, make_dump, records_body
) -> None:
    """A real write failure: the file-size limit makes the new store's writes fail like a full disk."""
    target = tmp_path / "store.sqlite"
    ingest_dblp(target, dump, dtd, parallel=False)
    big = make_dump("big.xml.gz", records_body(60_000))
    code = (
        "import resource, signal, sys; from pathlib import Path\n"
        "from citetracer.mirror.dblp import ingest_dblp\nfrom citetracer.mirror.safexml import DumpError\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1_000_000, 1_000_000))\n"
        "try:\n    ingest_dblp(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), parallel=False)\n"
        "except DumpError as exc:\n    print(exc)\n    sys.exit(3)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(target), str(big), str(dtd)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 3, proc.stderr
    assert "previous store is unchanged" in proc.stdout
    assert _answers(target) == 5
    assert _leftovers(tmp_path) == []
