"""`mirror setup --field ...`: plan, confirmation, resumed and verified downloads, ingest, and what the store
can and cannot confirm, against a real HTTP server on 127.0.0.1 serving a small DBLP dump (and an arXiv copy)."""

from __future__ import annotations

import gzip
import hashlib
import io
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from citetracer.cli import main
from citetracer.mirror.download import DownloadError, verify_stream
from citetracer.mirror.setup import FIELDS, catalogue, plan
from citetracer.store.api import open_store
from tests.mirror.conftest import DTD, FIXTURES, RECORDS, write_dump
from tests.mirror.fileserver import Files, serve

BASES = {"measured", "extrapolated", "published", "assumed"}


def _md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def _dblp_files(tmp_path: Path, md5: str | None = None) -> tuple[Files, bytes]:
    dump = write_dump(tmp_path / "src.xml.gz", RECORDS).read_bytes()
    files = Files({
        "/xml/dblp.xml.gz": dump,
        "/xml/dblp.xml.gz.md5": f"{md5 or _md5(dump)}  dblp.xml.gz\n".encode(),
        "/xml/dblp.dtd": DTD.encode(),
    })  # fmt: skip
    return files, dump


def _setup(tmp_path: Path, *extra: str) -> list[str]:
    return ["mirror", "setup", "--store", str(tmp_path / "store.sqlite"), "--dumps", str(tmp_path / "dumps"), *extra]


@pytest.fixture(autouse=True)
def _no_configured_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DBLP", "ARXIV", "OPENALEX"):
        monkeypatch.delenv(f"CITETRACER_MIRROR_{name}_URL", raising=False)


def test_cs_setup_downloads_verifies_ingests_and_says_what_the_store_cannot_confirm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files, dump = _dblp_files(tmp_path)
    with serve(files) as base:
        monkeypatch.setenv("CITETRACER_MIRROR_DBLP_URL", f"{base}/xml/dblp.xml.gz")
        assert main(_setup(tmp_path, "--field", "cs", "--yes")) == 0
    out, err = capsys.readouterr()
    assert f"download ~1.0 GB from {base}/xml/dblp.xml.gz" in out  # the plan first, with the configured URL
    assert "arxiv: arXiv (every preprint's metadata): SKIPPED, no download URL" in out
    assert "verified: md5, gzip stream" in err and "dblp: 5 records" in out
    assert "now holds:\n  dblp: 5 records" in out
    assert "preprints by their arXiv id (no arXiv mirror" in out.split("offline it cannot confirm:")[1]
    assert (tmp_path / "dumps" / "dblp.xml.gz").read_bytes() == dump and (tmp_path / "dumps" / "dblp.dtd").is_file()
    with open_store(tmp_path / "store.sqlite") as s:
        assert s.stats()["records"] == 5


def test_a_cut_download_resumes_on_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files, dump = _dblp_files(tmp_path)
    cut = len(dump) // 2
    files.cut_after["/xml/dblp.xml.gz"] = cut
    with serve(files) as base:
        monkeypatch.setenv("CITETRACER_MIRROR_DBLP_URL", f"{base}/xml/dblp.xml.gz")
        assert main(_setup(tmp_path, "--field", "ml", "--yes")) == 2
        first = capsys.readouterr().err
        assert f"stopped after {cut:,} bytes" in first and "run the same command again" in first
        assert not (tmp_path / "store.sqlite").exists()
        assert main(_setup(tmp_path, "--field", "ml", "--yes")) == 0
    assert ("/xml/dblp.xml.gz", f"bytes={cut}-", files.etag("/xml/dblp.xml.gz")) in files.seen
    assert "1 resumed" in capsys.readouterr().err
    assert (tmp_path / "dumps" / "dblp.xml.gz").read_bytes() == dump


def test_a_bad_md5_is_one_clear_error_and_nothing_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = _dblp_files(tmp_path, md5="1" * 32)
    with serve(files) as base:
        monkeypatch.setenv("CITETRACER_MIRROR_DBLP_URL", f"{base}/xml/dblp.xml.gz")
        assert main(_setup(tmp_path, "--field", "cs", "--yes")) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "MD5 checksum does not match the published one" in errors[0]
    assert "Traceback" not in err and not (tmp_path / "store.sqlite").exists()
    assert not list((tmp_path / "dumps").glob("dblp.xml.gz*"))


def test_a_damaged_stream_is_caught_even_when_its_checksum_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A source may publish the MD5 of a file that was cut before it was summed: the gzip stream is read too."""
    files, dump = _dblp_files(tmp_path)
    cut = dump[: len(dump) - 20]
    files.files["/xml/dblp.xml.gz"] = cut
    files.files["/xml/dblp.xml.gz.md5"] = f"{_md5(cut)}  dblp.xml.gz\n".encode()
    with serve(files) as base:
        monkeypatch.setenv("CITETRACER_MIRROR_DBLP_URL", f"{base}/xml/dblp.xml.gz")
        assert main(_setup(tmp_path, "--field", "cs", "--yes")) == 2
    assert "gzip stream is damaged or cut" in capsys.readouterr().err
    assert not (tmp_path / "dumps" / "dblp.xml.gz").exists() and not (tmp_path / "store.sqlite").exists()


def test_dry_run_prints_the_plan_and_asks_nothing_of_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = _dblp_files(tmp_path)
    with serve(files) as base:
        monkeypatch.setenv("CITETRACER_MIRROR_DBLP_URL", f"{base}/xml/dblp.xml.gz")
        assert main(_setup(tmp_path, "--field", "all", "--dry-run")) == 0
    out = capsys.readouterr().out
    assert files.seen == [] and not (tmp_path / "store.sqlite").exists() and not (tmp_path / "dumps").exists()
    assert "then: citetracer mirror openalex" in out and "--concept" not in out  # all: every journal article
    assert "total: ~" in out and "dry run: nothing fetched" in out
    assert "[measured]" in out or "[extrapolated]" in out


def test_without_yes_off_a_terminal_it_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = _dblp_files(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))  # piped input is not a confirmation
    with serve(files) as base:
        monkeypatch.setenv("CITETRACER_MIRROR_DBLP_URL", f"{base}/xml/dblp.xml.gz")
        assert main(_setup(tmp_path, "--field", "cs")) == 2
    assert "stdin is not a terminal: run again with --yes" in capsys.readouterr().err
    assert files.seen == [] and not (tmp_path / "store.sqlite").exists()


def test_ml_with_an_arxiv_copy_builds_both_and_the_preprint_gap_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = _dblp_files(tmp_path)
    files.files["/arxiv.json.gz"] = gzip.compress((FIXTURES / "arxiv-snapshot.jsonl").read_bytes())
    with serve(files) as base:
        monkeypatch.setenv("CITETRACER_MIRROR_DBLP_URL", f"{base}/xml/dblp.xml.gz")
        monkeypatch.setenv("CITETRACER_MIRROR_ARXIV_URL", f"{base}/arxiv.json.gz")
        assert main(_setup(tmp_path, "--field", "ml", "--yes")) == 0
    out = capsys.readouterr().out
    assert "arxiv: 5 records" in out and "SKIPPED" not in out
    assert "no arXiv mirror" not in out.split("offline it cannot confirm:")[1]


def test_the_config_file_names_the_urls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[mirrors]\narxiv = "http://127.0.0.1:1/copy.json.xz"\n')
    assert main([*_setup(tmp_path, "--field", "ml", "--dry-run"), "--config", str(config)]) == 0
    assert "from http://127.0.0.1:1/copy.json.xz" in capsys.readouterr().out


def test_every_figure_says_how_it_was_obtained() -> None:
    raw = tomllib.loads(resources.files("citetracer.data").joinpath("mirror_setup.toml").read_text("utf-8"))
    assert raw == catalogue()
    for name, entry in raw["mirrors"].items():
        assert entry["basis"] in BASES and entry["note"].strip(), name
        assert entry["checksum"] in ("md5-beside", "manifest-size", "stream"), name
    assert set(raw["fields"]) == set(FIELDS)
    assert "measured" in raw["mirrors"]["dblp"] and "PENDING" not in raw["mirrors"]["dblp"]["measured"]


def test_max_hours_leaves_out_what_does_not_fit_in_order(tmp_path: Path) -> None:
    full = plan("all", tmp_path, {"arxiv": "http://x/a.gz"})
    assert [s.skipped for s in full.steps] == [None, None, None]
    hours = [s.hours for s in full.steps]
    cut = plan("all", tmp_path, {"arxiv": "http://x/a.gz"}, max_hours=hours[0] + hours[1])
    assert [s.skipped is None for s in cut.steps] == [True, True, False]
    assert "--max-hours" in (cut.steps[2].skipped or "")
    biomed = plan("biomed", tmp_path)
    assert [s.mirror for s in biomed.steps] == ["openalex"] and "--concept" in biomed.steps[0].filters
    assert biomed.totals()[1] > 0  # the subset's store size comes from its planned works


def test_verify_stream_reads_gzip_and_xz_to_their_end(tmp_path: Path) -> None:
    import lzma

    good_xz = tmp_path / "a.xz"
    good_xz.write_bytes(lzma.compress(b"x" * 100_000))
    assert verify_stream(good_xz) == "xz"
    bad_xz = tmp_path / "b.xz"
    bad_xz.write_bytes(good_xz.read_bytes()[:-30])
    with pytest.raises(DownloadError, match="xz stream is damaged or cut"):
        verify_stream(bad_xz)
    assert not bad_xz.exists()
    plain = tmp_path / "c.json"
    plain.write_text("{}\n")
    assert verify_stream(plain) is None and plain.exists()


def test_the_store_warnings_name_every_field_setup_takes() -> None:
    from citetracer.mirror.setup import FIELDS
    from citetracer.store.gaps import SETUP_COMMAND

    assert f"citetracer mirror setup --field {'|'.join(FIELDS)}" == SETUP_COMMAND
