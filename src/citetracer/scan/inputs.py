"""The papers a scan is given: files, folders, list files, and zip or tar archives of papers.

- a folder is walked (sorted, hidden entries and the scan's own output folder skipped, links
  to folders not followed) for PDFs, .bib and .bbl files and archives;
- an archive (.zip, .tar, .tar.gz/.tgz, .tar.bz2, .tar.xz) has its PDFs, .bib and .bbl members
  copied into the output folder (`inputs/`), once: names are sanitized (no absolute paths, no
  '..', no links or devices) and every member and the whole archive are bounded in size, so a
  decompression bomb costs one clear problem line;
- a list file (.list or .lst, or a .txt whose every line names an existing file) gives one
  path per line ('#' comments), read like paths on the command line; only a file named on the
  command line is taken for a list (the web app never calls `collect`: its uploads are papers
  or archives, `unpack_archive`, so a text never names a file on the server);
- any other file is a paper (the extractor decides what it is).

Problems (missing paths, broken archives) are returned as lines; they never stop the scan.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import stat
import tarfile
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

PAPER_SUFFIXES = (".pdf", ".bib", ".bbl")
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
LIST_SUFFIXES = (".list", ".lst")
MAX_LIST_BYTES = 16 * 1024 * 1024
MAX_PAPERS = 1_000_000
STAGING = "inputs"


@dataclass(frozen=True)
class ArchiveLimits:
    """Bounds on unpacking one archive: a member, all members together, how many members."""

    member_bytes: int = 256 * 1024 * 1024
    total_bytes: int = 16 * 1024 * 1024 * 1024
    members: int = 100_000


@dataclass(frozen=True)
class Paper:
    """One input of a scan: the file to read and how the reports name it."""

    path: Path
    #: The path as given (relative to the working folder when it is inside it); archive
    #: members read 'archive.zip:folder/paper.pdf'.
    display: str


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def is_archive(path: Path) -> bool:
    """Whether the file is an archive whose papers are scanned (by name)."""
    return path.name.lower().endswith(ARCHIVE_SUFFIXES)


def is_paper(path: Path) -> bool:
    """Whether the file is of a kind citetracer reads (by suffix)."""
    return path.suffix.lower() in PAPER_SUFFIXES


def _is_list(path: Path) -> bool:
    """A list of paths: by its suffix, or a .txt whose every non-comment line is an existing file."""
    suffix = path.suffix.lower()
    if suffix in LIST_SUFFIXES:
        return True
    if suffix != ".txt":
        return False
    lines = _list_lines(path)
    try:
        return bool(lines) and all(_resolve_listed(path, line).is_file() for line in lines[:200])
    except OSError:  # a line longer than a file name (ENAMETOOLONG) is no path: references, then
        return False


def _list_lines(path: Path) -> list[str]:
    try:
        if path.stat().st_size > MAX_LIST_BYTES:
            return []
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _resolve_listed(list_file: Path, line: str) -> Path:
    candidate = Path(line).expanduser()
    if candidate.is_absolute():
        return candidate
    beside = list_file.parent / candidate
    try:
        return beside if beside.exists() else candidate
    except OSError:  # ENAMETOOLONG: not a file, reported as missing by whoever visits it
        return candidate


def collect(paths: Sequence[Path], out_dir: Path, limits: ArchiveLimits | None = None) -> tuple[list[Paper], list[str]]:
    """Every paper named by `paths`, in order, each once; and one line per problem."""
    papers: list[Paper] = []
    problems: list[str] = []
    seen: set[Path] = set()
    skip = out_dir.resolve()
    limits = limits or ArchiveLimits()

    def add(paper: Paper) -> None:
        key = paper.path.resolve()
        if key not in seen and len(papers) < MAX_PAPERS:
            seen.add(key)
            papers.append(paper)

    def visit(path: Path, from_list: bool) -> None:
        if not _exists(path):
            problems.append(f"{path}: no such file or folder")
        elif path.is_dir():
            for found in _walk(path, skip):
                if is_archive(found):
                    _add_archive(found, out_dir, add, problems, limits)
                else:
                    add(Paper(found, _display(found)))
        elif is_archive(path):
            _add_archive(path, out_dir, add, problems, limits)
        elif not from_list and _is_list(path):
            lines = _list_lines(path)
            if not lines:
                problems.append(f"{path}: the list names no files")
            for line in lines:
                visit(_resolve_listed(path, line), from_list=True)
        else:
            add(Paper(path, _display(path)))

    for p in paths:
        visit(p, from_list=False)
    if len(papers) >= MAX_PAPERS:
        problems.append(f"more than {MAX_PAPERS} papers; the rest were not scanned")
    return papers, problems


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a name longer than the system allows
        return False


def _walk(folder: Path, skip: Path | None) -> Iterator[Path]:
    for root, dirs, files in os.walk(folder, followlinks=False):
        here = Path(root)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and (here / d).resolve() != skip)
        for name in sorted(files):
            path = here / name
            if not name.startswith(".") and (is_paper(path) or is_archive(path)):
                yield path


# ------------------------------------------------------------------ archives


def _safe_member_path(name: str) -> PurePosixPath | None:
    """A member's name as a relative path inside the staging folder, or None to skip it."""
    parts = [p for p in PurePosixPath(name.replace("\\", "/")).parts if p not in ("", ".", "/")]
    if not parts or any(p == ".." or p.startswith(".") or p == "__MACOSX" for p in parts):
        return None
    if re.match(r"^[A-Za-z]:$", parts[0]):  # a Windows drive
        parts = parts[1:]
    clean = [re.sub(r"[\x00-\x1f]", "_", p)[:200] for p in parts]
    path = PurePosixPath(*clean) if clean else None
    return path if path is not None and path.suffix.lower() in PAPER_SUFFIXES else None


class _TooLarge(Exception):
    pass


def _copy_bounded(src: IO[bytes], dest: Path, budget: list[int], member_bytes: int) -> None:
    """Copy at most `member_bytes` (and what is left of the archive's budget), counting real bytes."""
    written = 0
    with dest.open("wb") as out:
        while chunk := src.read(1 << 20):
            written += len(chunk)
            budget[0] -= len(chunk)
            if written > member_bytes or budget[0] < 0:
                raise _TooLarge
            out.write(chunk)


def _stamp(archive: Path) -> str:
    st = archive.stat()
    return f"{st.st_size}:{st.st_mtime_ns}"


def unpack_archive(
    archive: Path, out_dir: Path, limits: ArchiveLimits | None = None, shown: str | None = None
) -> tuple[list[Paper], list[str]]:
    """The papers of one archive, unpacked (once) into `out_dir/inputs/`, named `shown:member`
    (`shown` defaults to the archive's path); and one line per problem."""
    papers: list[Paper] = []
    problems: list[str] = []
    _add_archive(archive, out_dir, papers.append, problems, limits or ArchiveLimits(), shown)
    return papers, problems


def _add_archive(
    archive: Path,
    out_dir: Path,
    add: Callable[[Paper], None],
    problems: list[str],
    limits: ArchiveLimits,
    shown: str | None = None,
) -> None:
    digest = hashlib.sha256(str(archive.resolve()).encode()).hexdigest()[:8]
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", archive.name)[:80]
    target = out_dir / STAGING / f"{stem}-{digest}"
    marker = target / ".complete"
    shown = shown or _display(archive)
    try:
        if not (marker.is_file() and marker.read_text() == _stamp(archive)):
            _extract(archive, target, problems, shown, limits)
            marker.write_text(_stamp(archive))
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError, ValueError) as exc:
        problems.append(f"{shown}: not a readable zip or tar archive ({exc})")
        return
    for found in _walk(target, None):
        add(Paper(found, f"{shown}:{found.relative_to(target).as_posix()}"))


def _extract(archive: Path, target: Path, problems: list[str], shown: str, limits: ArchiveLimits) -> None:
    tmp = target.with_name(target.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    budget = [limits.total_bytes]
    count = 0
    for name, opener in _members(archive):
        count += 1
        if count > limits.members:
            problems.append(f"{shown}: more than {limits.members} members; the rest were skipped")
            break
        rel = _safe_member_path(name)
        if rel is None:
            continue
        dest = tmp / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            with opener() as src:
                _copy_bounded(src, dest, budget, limits.member_bytes)
        except _TooLarge:
            dest.unlink(missing_ok=True)
            if budget[0] < 0:
                problems.append(f"{shown}: more than {limits.total_bytes} bytes unpacked; the rest were skipped")
                break
            problems.append(f"{shown}:{name}: larger than the {limits.member_bytes}-byte limit; skipped")
        except (RuntimeError, zipfile.BadZipFile, tarfile.TarError, OSError, EOFError) as exc:
            dest.unlink(missing_ok=True)  # e.g. an encrypted zip member, a truncated stream
            problems.append(f"{shown}:{name}: cannot be unpacked ({exc}); skipped")
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)


Opener = Callable[[], IO[bytes]]


def _members(archive: Path) -> Iterator[tuple[str, Opener]]:
    """(name, opener) of each regular-file member, streaming (a tar is read once, front to back)."""
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                mode = info.external_attr >> 16
                if info.is_dir() or (stat.S_IFMT(mode) and not stat.S_ISREG(mode)):  # links, devices
                    continue
                yield info.filename, functools.partial(zf.open, info)
        return
    with tarfile.open(archive, mode="r:*") as tf:
        for member in tf:
            if not member.isreg():
                continue
            yield member.name, functools.partial(_tar_open, tf, member)


def _tar_open(tf: tarfile.TarFile, member: tarfile.TarInfo) -> IO[bytes]:
    handle = tf.extractfile(member)
    if handle is None:
        raise tarfile.TarError(f"{member.name} has no data")
    return handle


def content_key(paper: Paper) -> str:
    """What identifies a paper across runs: its content and the name it is reported under."""
    h = hashlib.sha256()
    with paper.path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return f"{h.hexdigest()}:{paper.display}"
