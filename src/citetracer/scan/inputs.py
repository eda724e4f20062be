"""The papers a scan is given: files, folders, list files, and zip or tar archives of papers.

- a folder is walked (sorted, hidden entries and the scan's own output folder skipped, links
  to folders not followed) for PDFs, .bib and .bbl files and archives;
- an archive (.zip, .tar, .tar.gz/.tgz, .tar.bz2, .tar.xz) has its PDFs, .bib and .bbl members
  copied into the output folder (`inputs/`), once, by scan/archives.py: names sanitized, members,
  bytes, time and memory bounded, so a bomb of any kind costs one clear problem line;
- a list file (.list or .lst, or a .txt whose every line names an existing file) gives one
  path per line ('#' comments), read like paths on the command line; only a file named on the
  command line is taken for a list (the web app never calls `collect`: its uploads are papers
  or archives, `unpack_archive`, so a text never names a file on the server);
- any other file is a paper (the extractor decides what it is).

Problems (missing paths, broken archives) are returned as lines; they never stop the scan.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from citetracer.scan.archives import MEMBER_SUFFIXES, ArchiveError, ArchiveLimits, unpack

PAPER_SUFFIXES = MEMBER_SUFFIXES
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
LIST_SUFFIXES = (".list", ".lst")
MAX_LIST_BYTES = 16 * 1024 * 1024
MAX_PAPERS = 1_000_000
STAGING = "inputs"


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
            problems += unpack(archive, target, limits, shown)
            marker.write_text(_stamp(archive))
    except ArchiveError as exc:
        problems.append(f"{shown}: {exc}")
        return
    except OSError as exc:
        problems.append(f"{shown}: not a readable zip or tar archive ({exc.strerror or exc})")
        return
    for found in _walk(target, None):
        add(Paper(found, f"{shown}:{found.relative_to(target).as_posix()}"))


def _stamp(archive: Path) -> str:
    st = archive.stat()
    return f"{st.st_size}:{st.st_mtime_ns}"


def content_key(paper: Paper) -> str:
    """What identifies a paper across runs: its content and the name it is reported under."""
    h = hashlib.sha256()
    with paper.path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return f"{h.hexdigest()}:{paper.display}"
