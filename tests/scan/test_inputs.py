"""What a scan is given: folders, list files, archives (safely unpacked, bounded), missing paths."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import tracemalloc
import zipfile
from pathlib import Path

from citetracer.scan.inputs import ArchiveLimits, collect, content_key
from tests.conftest import empty_config


def touch(path: Path, text: str = "@misc{a, title={A}, year=2020}\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_folders_are_walked_for_papers_and_skip_hidden_and_output(tmp_path: Path) -> None:
    root = tmp_path / "in"
    a = touch(root / "b" / "paper.bib")
    touch(root / "a.pdf", "%PDF-1.4 not really")
    touch(root / "notes.txt", "not a paper")
    touch(root / ".hidden" / "x.bib")
    touch(root / "a.gold.json", "{}")
    out = root / "report"
    touch(out / "papers" / "old.bib")
    (root / "loop").symlink_to(root, target_is_directory=True)
    papers, problems = collect([root, tmp_path / "missing.pdf"], out)
    assert [p.path for p in papers] == [root / "a.pdf", a]
    assert problems == [f"{tmp_path / 'missing.pdf'}: no such file or folder"]


def test_list_files_name_papers_relative_to_themselves(tmp_path: Path) -> None:
    one = touch(tmp_path / "p" / "one.bib")
    two = touch(tmp_path / "two.bbl", "\\bibitem{x} A. B. Title. 2020.")
    listing = tmp_path / "p" / "papers.txt"
    listing.write_text(f"# the papers\none.bib\n\n{two}\n")
    papers, problems = collect([listing, one], tmp_path / "out")
    assert [p.path for p in papers] == [tmp_path / "p" / "one.bib", two]  # each paper once
    assert not problems
    # a .txt of references (not of paths) is a paper itself
    refs = touch(tmp_path / "refs.txt", "[1] A. Author. A title. In Proc. X, 2020.\n")
    papers, _ = collect([refs], tmp_path / "out")
    assert [p.path for p in papers] == [refs]


def test_zip_members_are_unpacked_safely_and_named_after_the_archive(tmp_path: Path) -> None:
    archive = tmp_path / "batch.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("sub/first.bib", "@misc{a, title={A}, year=2020}")
        zf.writestr("../../escape.bib", "@misc{b, title={B}, year=2020}")
        zf.writestr("/abs/root.bib", "@misc{c, title={C}, year=2020}")
        zf.writestr("__MACOSX/sub/._first.bib", "junk")
        zf.writestr("readme.md", "not a paper")
        link = zipfile.ZipInfo("link.bib")
        link.external_attr = 0o120777 << 16  # a symbolic link member
        zf.writestr(link, "/etc/passwd")
    out = tmp_path / "out"
    papers, problems = collect([archive], out)
    names = sorted(p.display.split(":", 1)[1] for p in papers)
    assert names == ["abs/root.bib", "sub/first.bib"], names
    assert all(out / "inputs" in p.path.parents for p in papers)
    assert not (tmp_path / "escape.bib").exists() and not list(tmp_path.glob("**/escape.bib"))
    assert not problems
    assert papers[0].display.startswith(os.path.relpath(archive) if not archive.is_absolute() else str(archive))
    # unpacked once: a second collect reuses the files (same content key)
    again, _ = collect([archive], out)
    assert [content_key(p) for p in again] == [content_key(p) for p in papers]


def test_tar_archives_and_their_bounds(tmp_path: Path) -> None:
    archive = tmp_path / "batch.tar.gz"
    with tarfile.open(archive, "w:gz") as tf:
        for name, data in (("a.bib", b"@misc{a, title={A}, year=2020}"), ("big.pdf", b"%PDF-" + b"0" * 5000)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
        sym = tarfile.TarInfo("evil.bib")
        sym.type = tarfile.SYMTYPE
        sym.linkname = "/etc/passwd"
        tf.addfile(sym)
    papers, problems = collect([archive], tmp_path / "out", ArchiveLimits(member_bytes=1000))
    assert [p.display.split(":", 1)[1] for p in papers] == ["a.bib"]
    assert len(problems) == 1 and "big.pdf" in problems[0] and "limit" in problems[0]


def test_a_broken_archive_is_one_problem_line(tmp_path: Path) -> None:
    bad = tmp_path / "broken.zip"
    bad.write_bytes(b"PK\x03\x04 this is not a zip")
    good = touch(tmp_path / "ok.bib")
    papers, problems = collect([bad, good], tmp_path / "out")
    assert [p.path for p in papers] == [good]
    assert len(problems) == 1 and problems[0].startswith(f"{bad}: not a readable zip or tar archive")


def test_a_reference_line_longer_than_a_file_name_is_a_paper_not_a_list(tmp_path: Path) -> None:
    line = "[1] A. Author. " + "A very long title of a reference " * 10 + "In Proc. of Long Things, 2021."
    assert len(line.encode()) > 255
    refs = touch(tmp_path / "l.txt", line + "\n")
    papers, problems = collect([refs], tmp_path / "out")  # Path.exists() raised ENAMETOOLONG here
    assert [p.path for p in papers] == [refs] and not problems
    listing = touch(tmp_path / "papers.list", line + "\n")
    papers, problems = collect([listing], tmp_path / "out")
    assert not papers and len(problems) == 1 and "no such file" in problems[0]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "citetracer",
            "scan",
            str(refs),
            "-o",
            str(tmp_path / "report"),
            "--offline",
            "--store",
            str(tmp_path / "store.sqlite"),
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CITETRACER_CONFIG": str(empty_config(tmp_path))},
    )
    assert done.returncode in (0, 1), done.stderr
    assert "1 papers (1 checked now" in " ".join(done.stderr.split())


def _tar_of_folders(path: Path, folders: int, last: tuple[str, bytes] | None = None) -> Path:
    """A .tar.gz of `folders` directory entries (a member-count bomb: small, many headers), then one file."""
    with tarfile.open(path, "w:gz") as tf:
        for i in range(folders):
            info = tarfile.TarInfo(f"d{i}")
            info.type = tarfile.DIRTYPE
            tf.addfile(info)
        if last:
            info = tarfile.TarInfo(last[0])
            info.size = len(last[1])
            tf.addfile(info, io.BytesIO(last[1]))
    return path


def test_every_tar_member_counts_toward_the_member_bound(tmp_path: Path) -> None:
    bomb = _tar_of_folders(tmp_path / "bomb.tar.gz", 5000, ("late.bib", b"@misc{a, title={A}, year=2020}"))
    papers, problems = collect([bomb], tmp_path / "out", ArchiveLimits(members=100))
    assert papers == [] and len(problems) == 1 and "more than 100 members" in problems[0], problems
    papers, problems = collect([bomb], tmp_path / "out2", ArchiveLimits(members=10_000))
    assert [p.display.split(":", 1)[1] for p in papers] == ["late.bib"] and not problems


def test_tar_headers_are_not_kept_while_unpacking(tmp_path: Path) -> None:
    bomb = _tar_of_folders(tmp_path / "bomb.tar.gz", 60_000)
    tracemalloc.start()
    try:
        collect([bomb], tmp_path / "out", ArchiveLimits(members=1_000_000, isolate=False))  # here, to measure it
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8_000_000, peak  # TarFile keeps each TarInfo (~0.5-1 KB) unless told not to: 60,000 of them


def test_zip_member_count_is_read_before_its_directory(tmp_path: Path) -> None:
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(3000):
            zf.writestr(f"d{i}/", b"")
        zf.writestr("late.bib", "@misc{a, title={A}, year=2020}")
    papers, problems = collect([archive], tmp_path / "out", ArchiveLimits(members=100))
    assert papers == [] and len(problems) == 1 and "3001 members" in problems[0] and "100" in problems[0], problems


def test_skipped_members_count_toward_the_bytes_unpacked_and_time_is_bounded(tmp_path: Path) -> None:
    archive = tmp_path / "skip.tar.gz"
    with tarfile.open(archive, "w:gz") as tf:
        for name, data in (("video.dat", b"\0" * 300_000), ("late.bib", b"@misc{a, title={A}, year=2020}")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    papers, problems = collect([archive], tmp_path / "out", ArchiveLimits(total_bytes=100_000))
    assert papers == [] and len(problems) == 1 and "more than 100000 bytes" in problems[0], problems
    papers, problems = collect([archive], tmp_path / "out2", ArchiveLimits(seconds=0.0))
    assert papers == [] and len(problems) == 1 and "took longer than" in problems[0], problems


def test_a_huge_tar_header_costs_the_unpacking_child_not_the_caller(tmp_path: Path) -> None:
    archive = tmp_path / "longname.tar.gz"
    name = "x" * (96 * 1024 * 1024) + ".bib"  # a GNU long-name record TarFile reads whole into memory
    with tarfile.open(archive, "w:gz", format=tarfile.GNU_FORMAT) as tf:
        info = tarfile.TarInfo(name)
        info.size = 5
        tf.addfile(info, io.BytesIO(b"@misc"))
        ok = tarfile.TarInfo("ok.bib")
        ok.size = 5
        tf.addfile(ok, io.BytesIO(b"@misc"))
    del name
    papers, problems = collect([archive], tmp_path / "out", ArchiveLimits(memory_bytes=48 * 1024 * 1024))
    assert papers == [] and len(problems) == 1 and "MB" in problems[0], problems
    assert not list((tmp_path / "out").rglob("*.partial"))
