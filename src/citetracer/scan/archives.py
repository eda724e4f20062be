"""Unpacking one zip or tar archive of papers, bounded in members, bytes, time and memory.

Archives come from strangers (the web app's uploads, a chair's batch of submissions), so an
archive may be a bomb of any kind: one member that inflates to terabytes, millions of tiny
members or directory entries, a tar header whose long name or pax record is gigabytes, a zip
whose central directory lists a million entries. So:

- every member of every type counts toward `members` (directories, links and devices too);
  a zip's count is read from its end record before its directory is parsed;
- a tar is read front to back and forgets each header once handled (TarFile keeps them all);
- bytes are counted as they are written (`member_bytes`, `total_bytes`), and a tar member that
  is skipped still counts what it declares (skipping in a compressed stream is decompressing);
- the work runs in a forked child with its address space capped (`memory_bytes` beyond what it
  starts with) and its time bounded (`seconds`): what it unpacked by then is kept, a child that
  dies or hangs costs one problem line, never the caller's memory or its thread;
- names are sanitized (no absolute paths, no '..', no hidden parts, each part at most 200 bytes),
  links and devices are never created, and one member that cannot be written (a file and a
  folder of one name) is skipped with a line, the rest kept.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import re
import shutil
import stat
import struct
import tarfile
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Any

from citetracer.childlimits import limit_memory

#: The members unpacked: papers and bibliographies (other members are skipped).
MEMBER_SUFFIXES = (".pdf", ".bib", ".bbl")
#: Longest name part written, in bytes (file systems allow 255).
MAX_PART_BYTES = 200


@dataclass(frozen=True)
class ArchiveLimits:
    """Bounds on unpacking one archive."""

    member_bytes: int = 256 * 1024 * 1024
    total_bytes: int = 16 * 1024 * 1024 * 1024
    #: Members of every type (files, folders, links, devices).
    members: int = 100_000
    #: Wall seconds for one archive; the members unpacked by then are kept, the rest skipped.
    seconds: float = 1800.0
    #: Memory the unpacking child may take beyond what it starts with (headers, a zip's directory).
    memory_bytes: int = 512 * 1024 * 1024
    #: Unpack in a forked child bounded in memory and time (else here, bounded in counts and time).
    isolate: bool = True


class ArchiveError(Exception):
    """The archive cannot be unpacked at all; the message says why (without a server path)."""


def unpack(archive: Path, target: Path, limits: ArchiveLimits, shown: str) -> list[str]:
    """Unpack the paper members of `archive` into the folder `target` (replacing it); one line per
    problem, each starting with `shown`. Raises ArchiveError when nothing could be unpacked."""
    tmp = target.with_name(target.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        if limits.isolate and "fork" in multiprocessing.get_all_start_methods():
            problems = _isolated(archive, tmp, limits, shown)
        else:
            problems = _unpack_or_error(archive, tmp, limits, shown)
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)
        return problems
    finally:
        shutil.rmtree(tmp, ignore_errors=True)  # left only when unpacking failed


def _isolated(archive: Path, tmp: Path, limits: ArchiveLimits, shown: str) -> list[str]:
    ctx = multiprocessing.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(archive, tmp, limits, shown, sender), daemon=True)
    proc.start()
    sender.close()
    try:
        if not receiver.poll(limits.seconds + 10):  # the child stops itself at `seconds`; this is the backstop
            proc.kill()
            raise ArchiveError(f"unpacking took longer than {limits.seconds:g} s; stopped")
        try:
            status, payload = receiver.recv()
        except EOFError:
            proc.join(5)
            raise ArchiveError(f"the unpacking process died (exit code {proc.exitcode}); not unpacked") from None
    finally:
        receiver.close()
        proc.join(5)
        if proc.is_alive():
            proc.kill()
            proc.join(5)
    if status == "ok":
        return list(payload)
    raise ArchiveError(str(payload))


def _child(archive: Path, tmp: Path, limits: ArchiveLimits, shown: str, sender: Any) -> None:
    try:
        # tarfile imports its decompressors when it meets one: loaded under the cap, a library mapped
        # into the budget could fail and read as "lzma module is not available".
        import bz2  # noqa: F401
        import gzip  # noqa: F401
        import lzma  # noqa: F401

        limit_memory(limits.memory_bytes)
        sender.send(("ok", _unpack_or_error(archive, tmp, limits, shown)))
    except ArchiveError as exc:
        sender.send(("error", str(exc)))
    except Exception as exc:  # the child must always answer; the parent turns this into one clear line
        sender.send(("error", f"the archive could not be unpacked ({type(exc).__name__}: {_reason(exc)})"))
    finally:
        sender.close()
        os._exit(0)  # no atexit handlers or finalizers of the parent's objects in the forked child


def _unpack_or_error(archive: Path, tmp: Path, limits: ArchiveLimits, shown: str) -> list[str]:
    try:
        return _unpack_into(archive, tmp, limits, shown)
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError, ValueError) as exc:
        raise ArchiveError(f"not a readable zip or tar archive ({_reason(exc)})") from exc
    except MemoryError as exc:
        raise ArchiveError(f"unpacking needed more than {limits.memory_bytes // 2**20} MB; stopped") from exc


def _reason(exc: BaseException) -> str:
    """An exception's reason without the file names it may carry (they are server paths)."""
    if isinstance(exc, MemoryError):
        return "needed more memory than allowed"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)[:200]


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


def _unpack_into(archive: Path, tmp: Path, limits: ArchiveLimits, shown: str) -> list[str]:
    """The unpacking itself, in this process: bounded in members, bytes and time (not in memory)."""
    problems: list[str] = []
    budget = [limits.total_bytes]
    deadline = time.monotonic() + limits.seconds
    over_time = f"{shown}: unpacking took longer than {limits.seconds:g} s; the rest were skipped"
    count = 0
    try:
        for member in _members(archive, limits):
            count += 1
            if count > limits.members:
                problems.append(f"{shown}: more than {limits.members} members; the rest were skipped")
                break
            if time.monotonic() > deadline:
                problems.append(over_time)
                break
            rel = _safe_member_path(member.name) if member.regular else None
            if rel is None:
                budget[0] -= member.skip_cost
                if budget[0] < 0:
                    problems.append(f"{shown}: more than {limits.total_bytes} bytes unpacked; the rest were skipped")
                    break
                continue
            dest = tmp / rel
            try:
                dest.parent.mkdir(parents=True, exist_ok=True)
                with member.open() as src:
                    _copy_bounded(src, dest, budget, limits.member_bytes, deadline)
            except _TooLarge:
                dest.unlink(missing_ok=True)
                if budget[0] < 0:
                    problems.append(f"{shown}: more than {limits.total_bytes} bytes unpacked; the rest were skipped")
                    break
                problems.append(f"{shown}:{rel}: larger than the {limits.member_bytes}-byte limit; skipped")
            except _TooSlow:
                dest.unlink(missing_ok=True)
                problems.append(over_time)
                break
            except (RuntimeError, zipfile.BadZipFile, tarfile.TarError, OSError, EOFError) as exc:
                if dest.is_file():
                    dest.unlink()
                problems.append(f"{shown}:{rel}: cannot be unpacked ({_reason(exc)}); skipped")
    except MemoryError:
        problems.append(f"{shown}: unpacking needed more than {limits.memory_bytes // 2**20} MB; the rest were skipped")
    return problems


def _copy_bounded(src: IO[bytes], dest: Path, budget: list[int], member_bytes: int, deadline: float) -> None:
    """Copy at most `member_bytes` (and what is left of the archive's budget), counting real bytes."""
    written = 0
    with dest.open("wb") as out:
        while chunk := src.read(1 << 20):
            written += len(chunk)
            budget[0] -= len(chunk)
            if written > member_bytes or budget[0] < 0:
                raise _TooLarge
            if time.monotonic() > deadline:
                raise _TooSlow
            out.write(chunk)


def _safe_member_path(name: str) -> PurePosixPath | None:
    """A member's name as a relative path inside the staging folder, or None to skip it."""
    parts = [p for p in PurePosixPath(name.replace("\\", "/")).parts if p not in ("", ".", "/")]
    if not parts or any(p == ".." or p.startswith(".") or p == "__MACOSX" for p in parts):
        return None
    if re.match(r"^[A-Za-z]:$", parts[0]):  # a Windows drive
        parts = parts[1:]
    clean = [_short(re.sub(r"[\x00-\x1f]", "_", p)) for p in parts]
    path = PurePosixPath(*clean) if clean else None
    return path if path is not None and path.suffix.lower() in MEMBER_SUFFIXES else None


def _short(part: str) -> str:
    """A name part cut to MAX_PART_BYTES of UTF-8 (whole characters), keeping its suffix."""
    if len(part.encode("utf-8", errors="surrogateescape")) <= MAX_PART_BYTES:
        return part
    stem, dot, suffix = part.rpartition(".")
    keep = f".{suffix}" if dot and len(suffix) <= 10 else ""
    head = (stem if keep else part).encode("utf-8", errors="surrogateescape")[: MAX_PART_BYTES - len(keep)]
    return head.decode("utf-8", errors="ignore") + keep


# ------------------------------------------------------------------ reading members


@dataclass(frozen=True)
class Member:
    name: str
    #: A regular file (the only kind ever written).
    regular: bool
    #: Bytes that skipping this member reads (a tar's members lie in one compressed stream).
    skip_cost: int
    open: Callable[[], IO[bytes]]


def _members(archive: Path, limits: ArchiveLimits) -> Iterator[Member]:
    """Every member, of every type, streaming (a tar is read once, front to back, its headers not kept)."""
    if zipfile.is_zipfile(archive):
        declared = zip_member_count(archive)
        if declared > limits.members:
            raise ArchiveError(f"{declared} members, more than the {limits.members} unpacked from one archive")
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                mode = info.external_attr >> 16
                regular = not info.is_dir() and not (stat.S_IFMT(mode) and not stat.S_ISREG(mode))  # links, devices
                yield Member(info.filename, regular, 0, functools.partial(zf.open, info))
        return
    with tarfile.open(archive, mode="r:*") as tf:
        while (header := tf.next()) is not None:
            # TarFile keeps every header it reads (a list the stubs do not declare): millions of folder
            # entries would stay in memory; this reader goes front to back and never looks one up again
            tf.members.clear()  # type: ignore[attr-defined]
            yield Member(header.name, header.isreg(), header.size, functools.partial(_tar_open, tf, header))


def _tar_open(tf: tarfile.TarFile, member: tarfile.TarInfo) -> IO[bytes]:
    handle = tf.extractfile(member)
    if handle is None:
        raise tarfile.TarError("no data")
    return handle


_EOCD = struct.Struct("<4s4H2LH")
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_EOCD = struct.Struct("<4sQ2H2L4Q")


def zip_member_count(archive: Path) -> int:
    """How many members a zip's end record declares (zip64 too), read before its directory is parsed."""
    with archive.open("rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(max(0, size - (_EOCD.size + 65_535)))
        tail = fh.read()
        at = tail.rfind(b"PK\x05\x06")
        if at < 0 or len(tail) - at < _EOCD.size:
            return 0  # no end record: zipfile refuses it (a readable-archive problem), nothing to count
        total = _EOCD.unpack_from(tail, at)[4]
        start = at - _ZIP64_LOCATOR.size
        if total != 0xFFFF or start < 0 or tail[start : start + 4] != b"PK\x06\x07":
            return int(total)
        offset = _ZIP64_LOCATOR.unpack_from(tail, start)[2]
        fh.seek(offset)
        record = fh.read(_ZIP64_EOCD.size)
        if len(record) < _ZIP64_EOCD.size or record[:4] != b"PK\x06\x06":
            return int(total)
        return int(_ZIP64_EOCD.unpack(record)[7])
