"""`mirror ... --download`: resumed, verified downloads from a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from citetracer.cli import main
from citetracer.mirror.download import DownloadError, fetch, fetch_openalex, published_md5
from citetracer.store.api import open_store
from tests.mirror.conftest import DTD, FIXTURES, RECORDS, fixture_lines, write_dump, write_openalex
from tests.mirror.fileserver import Files, serve


def _md5(data: bytes) -> str:
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def test_an_interrupted_download_resumes_and_is_verified(tmp_path: Path) -> None:
    body = bytes(range(256)) * 4000
    files = Files({"/dump.gz": body}, cut_after={"/dump.gz": 300_000})
    dest = tmp_path / "dump.gz"
    with serve(files) as base:
        with pytest.raises(DownloadError, match=r"stopped after 300,000 bytes.*run the same command again"):
            fetch(f"{base}/dump.gz", dest, md5=_md5(body))
        assert not dest.exists() and (tmp_path / "dump.gz.part").stat().st_size == 300_000
        got = fetch(f"{base}/dump.gz", dest, md5=_md5(body))
    assert dest.read_bytes() == body and got.resumed_from == 300_000 and got.verified == "md5"
    assert files.seen[-1][1] == "bytes=300000-" and files.seen[-1][2] == files.etag("/dump.gz")
    assert not (tmp_path / "dump.gz.part").exists() and not (tmp_path / "dump.gz.part.json").exists()
    with serve(files) as base:  # already there and verified: nothing fetched
        again = fetch(f"{base}/dump.gz", dest, md5=_md5(body))
    assert again.cached and len(files.seen) == 2


def test_a_file_changed_upstream_is_fetched_whole_not_spliced(tmp_path: Path) -> None:
    old, new = b"a" * 100_000, b"b" * 120_000
    files = Files({"/d.gz": old}, cut_after={"/d.gz": 50_000})
    dest = tmp_path / "d.gz"
    with serve(files) as base:
        with pytest.raises(DownloadError):
            fetch(f"{base}/d.gz", dest)
        files.files["/d.gz"] = new  # a new dump is published meanwhile: If-Range no longer matches
        got = fetch(f"{base}/d.gz", dest, md5=_md5(new))
    assert dest.read_bytes() == new and got.resumed_from == 0


def test_a_server_without_ranges_and_a_wrong_checksum(tmp_path: Path) -> None:
    body = b"x" * 70_000
    files = Files({"/f": body}, cut_after={"/f": 10_000}, ignore_range=True)
    dest = tmp_path / "f"
    with serve(files) as base:
        with pytest.raises(DownloadError):
            fetch(f"{base}/f", dest)
        got = fetch(f"{base}/f", dest, size=len(body))  # the 200 reply is taken from its start
        assert dest.read_bytes() == body and got.resumed_from == 0 and got.verified == "size"
        with pytest.raises(DownloadError, match=r"MD5 checksum does not match.*removed"):
            fetch(f"{base}/f", tmp_path / "g", md5="0" * 32)
        assert not (tmp_path / "g").exists() and not (tmp_path / "g.part").exists()
        with pytest.raises(DownloadError, match="HTTP 404"):
            fetch(f"{base}/missing", tmp_path / "h")
        with pytest.raises(DownloadError, match="no checksum there"):
            published_md5(f"{base}/f")
    with pytest.raises(DownloadError, match="stopped after 0 bytes"):
        fetch(base + "/f", tmp_path / "i")  # the server is gone: a clear error, not a traceback


def test_mirror_dblp_download_then_ingest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dump = write_dump(tmp_path / "src.xml.gz", RECORDS).read_bytes()
    files = Files({
        "/xml/dblp.xml.gz": dump,
        "/xml/dblp.xml.gz.md5": f"{_md5(dump)}  dblp.xml.gz\n".encode(),
        "/xml/dblp.dtd": DTD.encode(),
    }, cut_after={"/xml/dblp.xml.gz": len(dump) // 3})  # fmt: skip
    store = tmp_path / "store.sqlite"
    with serve(files) as base:
        url = f"{base}/xml/dblp.xml.gz"
        assert main(["mirror", "dblp", "--download", url, "--store", str(store)]) == 2
        assert "run the same command again to resume" in capsys.readouterr().err
        assert not store.exists()
        assert main(["mirror", "dblp", "--download", url, "--store", str(store)]) == 0
    out, err = capsys.readouterr()
    assert f"resumed after {len(dump) // 3:,} bytes; verified: md5" in err and "dblp: 5 records" in out
    assert (tmp_path / "dumps" / "dblp.xml.gz").read_bytes() == dump and (tmp_path / "dumps" / "dblp.dtd").is_file()
    with open_store(store) as s:
        assert s.stats()["records"] == 5
    files.files["/xml/dblp.xml.gz.md5"] = f"{'1' * 32}  dblp.xml.gz\n".encode()  # a corrupt or tampered dump
    (tmp_path / "dumps" / "dblp.xml.gz").unlink()
    with serve(files) as base:
        assert main(["mirror", "dblp", "--download", f"{base}/xml/dblp.xml.gz", "--store", str(store)]) == 2
    assert "not the published one" in capsys.readouterr().err


def test_mirror_arxiv_download_with_md5(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = gzip.compress((FIXTURES / "arxiv-snapshot.jsonl").read_bytes())
    files = Files({"/arxiv.json.gz": body})
    target = tmp_path / "snap" / "arxiv.json.gz"
    store = ["--store", str(tmp_path / "s.sqlite")]
    with serve(files) as base:
        cmd = ["mirror", "arxiv", str(target), "--download", f"{base}/arxiv.json.gz", "--md5", _md5(body), *store]
        assert main(cmd) == 0
    assert "arxiv: 5 records" in capsys.readouterr().out and target.read_bytes() == body


def test_openalex_snapshot_download_part_by_part(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bucket"
    write_openalex(source, {"part_000.gz": fixture_lines("works-part_000.jsonl"),
                            "part_001.gz": fixture_lines("works-part_001.jsonl")})  # fmt: skip
    write_openalex(source, {"part_000.gz": fixture_lines("sources.jsonl")}, "sources", "2024-01-03")
    files = Files({"/" + str(p.relative_to(source)): p.read_bytes() for p in source.rglob("*") if p.is_file()})
    second = "/data/works/updated_date=2024-01-10/part_001.gz"
    copy = tmp_path / "copy"
    with serve(files) as base:
        files.files[second] = files.files[second][:-10]  # the manifest's byte count no longer matches
        with pytest.raises(DownloadError, match="bytes where"):
            fetch_openalex(base, copy)
        files.files[second] = (source / second.lstrip("/")).read_bytes()
        got = fetch_openalex(base, copy)
        assert [g.cached for g in got] == [True, True, False]  # the parts already whole are not fetched again
        store = ["--store", str(tmp_path / "s.sqlite")]
        assert main(["mirror", "openalex", str(copy), "--download", base, *store]) == 0
    out = capsys.readouterr().out
    assert "openalex: 8 works from 2 part files" in out and "5 venues" in out
    evil = json.dumps({"entries": [{"url": "s3://openalex/data/../../x", "meta": {"content_length": 1}}]})
    with serve(Files({"/data/sources/manifest": evil.encode()})) as base, pytest.raises(DownloadError, match="outside"):
        fetch_openalex(base, tmp_path / "evil")
