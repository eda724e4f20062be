"""What a submission holds: uploaded files saved under safe names, and the papers in them.

Uploads are hostile: a name may be `../../etc/passwd` or hold control characters, a file may
be larger than announced, a zip may hold `../` members or be a decompression bomb, a `.tex`
may name `\\bibliography{/home/someone/secret}` or another job's upload. So: names are
reduced to a safe basename; bytes are counted as they are written; archives are unpacked by
`citetracer scan`'s reader by the job's worker (scan/archives.py: sanitized member names; members,
bytes, time and memory bounded); a `.txt` is references, never a list of paths; and a `.tex`
whose bibliography lies outside its own job's folder is refused.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from citetracer.extract import _bibliography_files, looks_like_bibtex
from citetracer.report.sources import bib_sources, read_text_file
from citetracer.scan.inputs import STAGING, ArchiveLimits, is_archive, unpack_archive

#: What may be uploaded: papers and bibliographies the extractor reads, and archives of them.
SUFFIXES = (".pdf", ".bib", ".bbl", ".tex", ".txt", ".ris", ".json")  # .ris, .json: reference managers
ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz")
PASTED = "pasted"


class UploadError(Exception):
    """A submission that cannot be accepted; the message is safe to show (no server path)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


#: Bounds on what the archives of one submission unpack to (scan's own bounds are for a chair's disk):
#: 2,000 members of any type, 200 MB, 60 s and 256 MB of memory in the unpacking child per archive.
UPLOADED_ARCHIVES = ArchiveLimits(
    member_bytes=50 * 1024 * 1024,
    total_bytes=200 * 1024 * 1024,
    members=2000,
    seconds=60.0,
    memory_bytes=256 * 1024 * 1024,
)


@dataclass(frozen=True)
class Limits:
    """Bounds on one submission."""

    max_bytes: int = 50 * 1024 * 1024
    max_files: int = 20
    max_papers: int = 50
    #: Bounds on what the archives of one submission unpack to.
    archive: ArchiveLimits = field(default_factory=lambda: UPLOADED_ARCHIVES)


def safe_name(name: str | None, index: int) -> str:
    """A filename safe to create and to show: the last path component, plain characters, bounded length.

    >>> safe_name("../../etc/passwd.bib", 1)
    'passwd.bib'
    """
    base = re.split(r"[\\/]", name or "")[-1]
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", base).lstrip("._-")[:100]
    return base or f"upload-{index}"


def accepted(name: str) -> bool:
    """Whether a file of this name is one the web app reads."""
    lower = name.lower()
    return lower.endswith(SUFFIXES) or lower.endswith(ARCHIVES)


def save_upload(src: IO[bytes], folder: Path, name: str, budget: list[int]) -> Path:
    """Copy an upload into `folder` under `name` (made unique), counting its bytes against `budget`."""
    target = folder / name
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{Path(name).stem}-{n}{Path(name).suffix}"
    with target.open("wb") as out:
        while chunk := src.read(1 << 20):
            budget[0] -= len(chunk)
            if budget[0] < 0:
                raise UploadError("the upload is larger than this server accepts", 413)
            out.write(chunk)
    return target


def save_text(text: str, folder: Path) -> Path:
    """Pasted references as a file: `.bib` when they are BibTeX entries (so the corrected BibTeX and
    SARIF can point into them), else `.txt` (the extractor tells .bbl from plain lines itself)."""
    suffix = ".bib" if looks_like_bibtex(text) else ".txt"
    path = folder / f"{PASTED}{suffix}"
    path.write_text(text, encoding="utf-8")
    return path


@dataclass(frozen=True)
class Input:
    """One paper of a job: the file to read and the name every report and page shows."""

    path: Path
    display: str
    #: A PDF's bibliography pages set by hand (the form's page field), as `--ref-pages`.
    ref_pages: tuple[int, int] | None = None


def screen(job_folder: Path, uploads: list[Path]) -> tuple[list[Path], list[str]]:
    """The uploads a job may read, checked while the request waits (cheap: nothing is unpacked), and one
    line per upload refused. A `.tex` whose bibliography lies outside its own job's folder is refused.
    Raises UploadError when none is left."""
    kept: list[Path] = []
    problems: list[str] = []
    inside = job_folder.resolve()
    for upload in uploads:
        if upload.suffix.lower() == ".tex":
            named = _bibliography_files(read_text_file(upload) or "", upload.parent)  # existing or not: no oracle
            if any(not b.resolve().is_relative_to(inside) for b in named):
                problems.append(f"{upload.name}: its \\bibliography names files outside this upload; not checked")
                continue
        kept.append(upload)
    if not kept:
        raise UploadError("; ".join(problems))
    return kept, problems


def papers(job_folder: Path, uploads: list[Path], limits: Limits) -> tuple[list[Input], list[str]]:
    """The papers of a job's screened uploads (archives unpacked, `.bib` files a `.tex` reads not counted
    twice), and one line per problem; run by the job's worker, not while the request waits (unpacking
    is bounded in time, not instant). Raises UploadError when there is none to check.

    An upload is a paper or an archive of papers, never a list of paths: a `.txt` or pasted text is
    references whatever its lines look like (scan's list files would read any file the server can)."""
    found: list[Input] = []
    problems: list[str] = []
    behind_tex: set[Path] = set()
    for upload in uploads:
        if upload.suffix.lower() == ".tex":
            behind_tex.update(b.resolve() for b in bib_sources(upload))
        if not is_archive(upload):
            found.append(Input(upload, upload.name))
            continue
        members, trouble = unpack_archive(upload, job_folder, limits.archive, shown=upload.name)
        problems += [scrub(line, job_folder) for line in trouble]
        found += [Input(paper.path, paper.display) for paper in members]
    found = [p for p in found if p.path.resolve() not in behind_tex]
    if len(found) > limits.max_papers:
        problems.append(f"{len(found)} papers; only the first {limits.max_papers} are checked")
        found = found[: limits.max_papers]
    if not found:
        raise UploadError("; ".join(problems) or "nothing to check: no paper or bibliography in the upload")
    return found, problems


def scrub(text: str, job_folder: Path) -> str:
    """A message without the server's folders in it (uploads are named as the user named them).

    The staging folder goes first: `input` is a prefix of `inputs` (it left 's/fill.zip-4b1814bd/...')."""
    for folder in (job_folder / STAGING, job_folder / "input", job_folder):
        forms = {str(folder), str(folder.resolve())}
        with contextlib.suppress(ValueError):
            forms.add(str(folder.resolve().relative_to(Path.cwd().resolve())))
        for form in sorted(forms, key=len, reverse=True):
            text = re.sub(re.escape(form) + r"(?:/|(?![\w.-]))", "", text)
    return text
