"""The store under attack: a truncated SQLite file, a full disk during a write, a title index garbled or
deleted under a running check, PostgreSQL down at the first open, and two scans writing to one store.

Found by these tests: a full disk ended `mirror add`, `mirror stats` and `check` with an internal error
(exit 3; the check wrote no report); a segment file garbled under a running check raised a Rust panic
through it (a traceback, exit code 1: "something Hallucinated"); a PostgreSQL store whose server was down
at the first open failed at once, while one that went down later was waited for.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citetracer.mirror.jsonl import add_jsonl
from citetracer.store.common import StoreError
from citetracer.store.db import Store
from tests import hostile_files as H
from tests import pgserver
from tests.cliproc import SRC, one_clear_error, run_cli
from tests.conftest import pg_location
from tests.web.conftest import EXAMPLE_BIB, EXAMPLE_RECORDS

ROOT = Path(__file__).resolve().parents[2]


def stats(tmp_path: Path, store: Path) -> dict:
    proc = run_cli(tmp_path, "mirror", "stats", "--store", str(store))
    assert proc.returncode == 0, proc.stderr
    data: dict = json.loads(proc.stdout)
    return data


def seeded(folder: Path, records: int = 0) -> Path:
    store = folder / "s.sqlite"
    with Store(store) as s:
        add_jsonl(s, EXAMPLE_RECORDS, "example")
        if records:
            add_jsonl(s, H.jsonl_path(folder / "seed.jsonl", records, "seed"), "seed")
    return store


@pytest.mark.parametrize("keep", [0.5, 0.05])
def test_a_truncated_sqlite_file_is_one_clear_error_for_every_command(tmp_path: Path, keep: float) -> None:
    store = seeded(tmp_path, 20_000)
    for extra in ("-wal", "-shm"):
        Path(f"{store}{extra}").unlink(missing_ok=True)
    os.truncate(store, int(store.stat().st_size * keep))
    for args in (
        ("mirror", "stats"),
        ("check", str(EXAMPLE_BIB), "--offline", "--format", "json"),
        ("mirror", "add", str(EXAMPLE_RECORDS)),
    ):
        proc = run_cli(tmp_path, *args, "--store", str(store))
        assert proc.returncode == 2, (args, proc.stderr)
        assert (
            one_clear_error(proc) == f"error: {store}: not a usable citetracer store (database disk image is malformed)"
        )


# ------------------------------------------------------------------ a full disk


def _file_size_cap(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def _cli(store: Path, *args: str, fsize: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "CITETRACER_STORE": str(store), "CITETRACER_HTTP_CACHE": ""}
    return subprocess.run(
        [sys.executable, "-m", "citetracer", *args],
        cwd=store.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=None if fsize is None else lambda: _file_size_cap(fsize),
    )


def _fills_then_resumes(tmp_path: Path, store: Path, fill: DiskFill) -> None:
    """`mirror add` of 200,000 records into a store that `fill` keeps from growing: one clear error, the
    store answers as before for reads and checks, and the same add run again once there is room resumes
    and finishes."""
    data = H.jsonl_path(tmp_path / "big.jsonl", 200_000, "big")
    proc = fill.run(store, "mirror", "add", str(data), "--source", "big")
    assert proc.returncode == 2, proc.stderr
    line = one_clear_error(proc)
    assert line.startswith(f"error: {store}: a write failed (") and "run the same command again" in line, line
    held = stats(tmp_path, store)["by_source"]
    assert held["example"] == 12 and held.get("big", 0) < 200_000
    check = fill.run(store, "check", str(EXAMPLE_BIB), "--offline", "--format", "json", "-o", str(tmp_path / "r.json"))
    assert check.returncode == 1, check.stderr  # the report is written (the examples hold a fabrication)
    assert "Traceback" not in check.stderr and "internal error" not in check.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["summary"]["real"] >= 4
    fill.make_room()
    proc = _cli(store, "mirror", "add", str(data), "--source", "big")
    assert proc.returncode == 0, proc.stderr
    assert stats(tmp_path, store)["by_source"] == {"example": 12, "big": 200_000}


class DiskFill:
    """How a test keeps the store from growing: `run` a command under it, then `make_room`."""

    def run(self, store: Path, *args: str) -> subprocess.CompletedProcess[str]:
        raise NotImplementedError

    def make_room(self) -> None:
        raise NotImplementedError


class FileSizeCap(DiskFill):
    """No file of the process may grow past `limit` bytes (RLIMIT_FSIZE, `ulimit -f`): EFBIG on write."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def run(self, store: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return _cli(store, *args, fsize=self.limit)

    def make_room(self) -> None:
        pass


class SmallDisk(DiskFill):
    """A tmpfs of a few MB mounted for the test (root only), grown by remounting."""

    def __init__(self, mount: Path) -> None:
        self.mount = mount

    def run(self, store: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return _cli(store, *args)

    def make_room(self) -> None:
        subprocess.run(["mount", "-o", "remount,size=200m", str(self.mount)], check=True)


def test_a_file_size_limit_mid_ingest_is_one_error_and_the_add_resumes(tmp_path: Path) -> None:
    store = seeded(tmp_path)
    _fills_then_resumes(tmp_path, store, FileSizeCap(3 * 2**20))


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"no tmpfs can be mounted here: {made.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_mid_ingest_is_one_error_and_the_add_resumes(tmp_path: Path, small_disk: Path) -> None:
    store = seeded(small_disk)
    _fills_then_resumes(tmp_path, store, SmallDisk(small_disk))


# ------------------------------------------------------------------ the title index under a running check


def _garble(index: Path) -> None:
    """Zeros over the postings and the term dictionary of every segment, in place (the same damage every
    run): a garbled dictionary reads as "no such word" without any error from tantivy."""
    for f in index.iterdir():
        if f.suffix in (".idx", ".term"):
            with f.open("r+b") as fh:
                fh.write(bytes(f.stat().st_size))


def damage_index(store: Path, damage: str) -> None:
    """Garble the store's title index or delete it ("garble" or "delete"), as a disk or a user might."""
    index = store.with_name(store.name + ".index")
    if damage == "garble":
        _garble(index)
    else:
        shutil.rmtree(index)


@pytest.mark.parametrize("how", ["search", "by_authors"])
def test_a_garbled_index_under_an_open_store_is_rebuilt_and_answers(tmp_path: Path, how: str) -> None:
    store_path = seeded(tmp_path, 5000)
    with Store(store_path) as store:
        asked = {
            "search": lambda: store.index.by_title("A good record number 1234", limit=1),
            "by_authors": lambda: store.index.by_authors(["writer"], 2019, limit=3),
        }[how]
        store.index.by_title("A good record number 4321", limit=1)  # the index in use
        want = asked()
        _garble(store_path.with_name("s.sqlite.index"))
        assert asked() == want
        assert len(store.problems) == 1 and "was rebuilt from its records" in store.problems[0], store.problems
        assert "segment file" in store.problems[0] and "rewritten while in use" in store.problems[0]


def test_a_check_survives_its_index_garbled_or_deleted_midway(tmp_path: Path) -> None:
    store = seeded(tmp_path, 30_000)
    bib = tmp_path / "many.bib"
    bib.write_text(
        "".join(H.ENTRY.format(key=f"k{i}", title=f"A good record number {i * 7}") for i in range(3000)),
        encoding="utf-8",
    )
    expected = run_cli(tmp_path, "check", str(bib), "--offline", "--store", str(store), "--format", "json")
    want = json.loads(expected.stdout)["summary"]
    for damage in ("garble", "delete"):
        copy = tmp_path / damage / "s.sqlite"
        shutil.copytree(tmp_path, copy.parent, ignore=shutil.ignore_patterns(damage, "garble", "delete", "*.bib"))
        env = {**os.environ, "PYTHONPATH": str(SRC), "CITETRACER_HTTP_CACHE": ""}
        out = copy.parent / "r.json"
        proc = subprocess.Popen(
            [sys.executable, "-m", "citetracer", "check", str(bib), "--offline", "--store", str(copy), "--format",
             "json", "-o", str(out)],
            env=env, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        time.sleep(2.5)
        damage_index(copy, damage)
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert "Traceback" not in err and "internal error" not in err, err
        assert json.loads(out.read_text())["summary"] == want, err
        if damage == "garble" and "was rebuilt" not in err:  # the check ended before the damage: say so
            print("the check ended before its index was garbled")


#: A process that waits (inotify) for FOLDER to be made anew, then deletes the first segment file tantivy
#: creates in it (a 32-hex name) the moment it appears, and ends: someone deleting the title index while a
#: check that found it damaged rebuilds it.
DELETER = r"""
import ctypes, os, struct, sys
libc = ctypes.CDLL("libc.so.6", use_errno=True)
IN_CREATE, IN_ISDIR = 0x100, 0x40000000
folder = sys.argv[1].encode()
parent, name = os.path.split(folder)
fd = libc.inotify_init()
libc.inotify_add_watch(fd, parent, IN_CREATE)
print("watching", flush=True)

def events():
    while True:
        data = os.read(fd, 65536)
        at = 0
        while at < len(data):
            wd, mask, _, size = struct.unpack_from("iIII", data, at)
            yield wd, mask, data[at + 16 : at + 16 + size].rstrip(b"\0")
            at += 16 + size

inside = None
for wd, mask, got in events():
    if inside is None and mask & IN_ISDIR and got == name:
        inside = libc.inotify_add_watch(fd, folder, IN_CREATE)
    elif wd == inside and len(got.split(b".", 1)[0]) == 32 and b"." in got:
        os.unlink(os.path.join(folder, got))
        print("deleted", got.decode(), flush=True)
        break
"""


def test_an_index_deleted_while_the_open_rebuilds_it_is_rebuilt_again(tmp_path: Path) -> None:
    """Found by bench/hostile.py: the index deleted as a check opened the store, the check's rebuild lost its
    files under it and ended with 'internal error: ValueError: Failed to open file for read' (exit 3)."""
    store = seeded(tmp_path, 30_000)
    bib = tmp_path / "few.bib"
    bib.write_text("".join(H.ENTRY.format(key=f"k{i}", title=f"A good record number {i}") for i in range(20)))
    first = run_cli(tmp_path, "check", str(bib), "--offline", "--store", str(store), "--format", "json")
    want = json.loads(first.stdout)
    index = store.with_name("s.sqlite.index")
    (index / "meta.json").unlink()  # the open finds the index damaged and rebuilds it
    deleter = subprocess.Popen([sys.executable, "-c", DELETER, str(index)], stdout=subprocess.PIPE, text=True)
    assert deleter.stdout is not None and deleter.stdout.readline() == "watching\n"
    proc = run_cli(tmp_path, "check", str(bib), "--offline", "--store", str(store), "--format", "json")
    deleted, _ = deleter.communicate(timeout=60)
    assert deleted.startswith("deleted "), deleted
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["summary"] == want["summary"]
    assert "the title index changed under its rebuild" in proc.stderr, proc.stderr


def test_an_index_path_that_is_a_file_is_one_clear_error(tmp_path: Path) -> None:
    store = seeded(tmp_path)
    index = store.with_name("s.sqlite.index")
    shutil.rmtree(index)
    index.write_text("not a folder")
    proc = run_cli(tmp_path, "check", str(EXAMPLE_BIB), "--offline", "--store", str(store))
    assert proc.returncode == 2
    assert one_clear_error(proc) == (
        f"error: {index} is a file, not the store's title index folder; move it away and run again"
    )
    assert index.read_text() == "not a folder"


# ------------------------------------------------------------------ PostgreSQL down at the first open


def test_a_postgresql_store_down_at_the_first_open_is_waited_for(own_pg_server: pgserver.Server) -> None:
    from citetracer.store.pg import PgStore

    location = pg_location(own_pg_server.url)
    own_pg_server.pause()
    back = threading.Timer(3.0, own_pg_server.resume)
    back.start()
    heard: list[str] = []
    start = time.monotonic()
    try:
        with PgStore(location, notify=heard.append) as store:
            add_jsonl(store, EXAMPLE_RECORDS, "example")
            assert store.stats()["records"] == 12
    finally:
        back.join()
    assert time.monotonic() - start >= 2.5
    assert len(heard) == 1 and heard[0].startswith("waiting up to 30 s for the store"), heard


def test_a_postgresql_store_that_never_comes_is_one_error_after_the_wait(own_pg_server: pgserver.Server) -> None:
    from citetracer.store.pg import PgStore

    location = pg_location(own_pg_server.url)
    own_pg_server.pause()
    start = time.monotonic()
    with pytest.raises(StoreError, match=r"did not answer within 2 s \(.*Connection refused"):
        PgStore(location, connect_wait=2)
    assert time.monotonic() - start < 10
    own_pg_server.resume()


def test_a_postgresql_login_refused_is_an_error_at_once(own_pg_server: pgserver.Server) -> None:
    from citetracer.store.pg import PgStore

    start = time.monotonic()
    with pytest.raises(StoreError, match='database "no_such_database" does not exist'):
        PgStore(own_pg_server.url.rsplit("/", 1)[0] + "/no_such_database")
    assert time.monotonic() - start < 5


# ------------------------------------------------------------------ two scans, one store


def scan_folders(root: Path, names: tuple[str, ...] = ("a", "b"), papers: int = 6) -> list[Path]:
    """One folder of `papers` copies of the example .bib per name (the two scans' inputs; bench/hostile_runs.py)."""
    folders = []
    for name in names:
        folder = root / f"in-{name}"
        folder.mkdir()
        for k in range(papers):
            (folder / f"{name}{k}.bib").write_text(EXAMPLE_BIB.read_text(encoding="utf-8"), encoding="utf-8")
        folders.append(folder)
    return folders


def test_two_scans_writing_to_one_store_both_finish_and_agree(tmp_path: Path) -> None:
    store = seeded(tmp_path, 2000)
    folders = scan_folders(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(SRC), "CITETRACER_HTTP_CACHE": "", "CITETRACER_STORE": str(store)}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "citetracer",
                "scan",
                str(f),
                "-o",
                str(tmp_path / f"out-{f.name}"),
                "--offline",
                "--workers",
                "2",
            ],
            env=env,
            stderr=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for f in folders
    ]
    results = [p.communicate(timeout=600) for p in procs]
    for proc, (_, err) in zip(procs, results, strict=True):
        assert proc.returncode == 1, err  # the examples hold a fabrication
        assert "Traceback" not in err and "internal error" not in err, err
    summaries = []
    for f in folders:
        papers = sorted((tmp_path / f"out-{f.name}" / "papers").glob("*.json"))
        assert len(papers) == 6
        summaries += [json.loads(p.read_text())["summary"] for p in papers]
    assert all(s == summaries[0] for s in summaries), summaries
    assert stats(tmp_path, store)["by_source"] == {"example": 12, "seed": 2000}
