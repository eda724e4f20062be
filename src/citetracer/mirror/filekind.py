"""What a file given to `mirror add` is, when it is not JSON lines of records: said before any store is touched.

`mirror add references.bib` printed 20 JSON decode errors, "93 more bad lines", and left an empty store
behind. The first bytes of a file say what it is (a PDF, BibTeX, RIS, XML such as a DBLP dump, one JSON
document, a compressed file and what it holds); this names it and the command that reads it instead.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
import zlib
from pathlib import Path

#: Bytes read to tell what a file is.
HEAD = 4096
#: Compressed formats whose start can be read here, by their magic bytes (zstd has no reader in the stdlib).
COMPRESSIONS: dict[bytes, str] = {b"\x1f\x8b": "gzip", b"\xfd7zXZ\x00": "xz", b"BZh": "bzip2", b"(\xb5/\xfd": "zstd"}
CHECK_IT = "to check its references: citetracer check FILE"
#: A BibTeX entry's start at a line's start (after comments or a JabRef header, as .bib files open).
_BIBTEX = re.compile(r"^\s*@[A-Za-z]+\s*[{(]", re.MULTILINE)


def _start(path: Path) -> tuple[str | None, bytes]:
    """The file's compression (None when plain) and the first bytes of what it holds (none when unreadable)."""
    with path.open("rb") as fh:
        raw = fh.read(HEAD)
    name = next((n for magic, n in COMPRESSIONS.items() if raw.startswith(magic)), None)
    if name is None:
        return None, raw
    try:
        if name == "gzip":
            with gzip.open(path, "rb") as inner:
                return name, inner.read(HEAD)
        if name == "xz":
            with lzma.open(path, "rb") as inner:
                return name, inner.read(HEAD)
        if name == "bzip2":
            with bz2.open(path, "rb") as inner:
                return name, inner.read(HEAD)
    except (OSError, EOFError, lzma.LZMAError, zlib.error):  # damaged or not what its magic says
        pass
    return name, b""


def _what(head: bytes) -> str | None:
    """What plain content is, when it is not JSON lines of records; None when it may be."""
    if head.startswith(b"%PDF"):
        return f"a PDF ({CHECK_IT})"
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if text.startswith("{"):
        return None  # a record first: later lines are read (and bad ones skipped) line by line
    if b"\x00" in head:
        return "a binary file"
    if not text:
        return None  # an empty file adds nothing, as an empty list of records would
    if text.startswith("["):
        return "one JSON array, not JSON lines (one record object per line)"
    if text.startswith("<"):
        if "<dblp" in text or "dblp.dtd" in text:
            return "DBLP's XML dump (build it with: citetracer mirror dblp FILE)"
        if "<collection" in text or "<volume" in text:
            return "ACL Anthology XML (add it with: citetracer mirror acl FILE)"
        return "XML, not JSON lines"
    first = text.splitlines()[0].strip()
    if _BIBTEX.search(text):
        return f"BibTeX ({CHECK_IT})"
    if first.startswith("TY  -"):
        return f"RIS ({CHECK_IT})"
    if first.startswith("\\"):
        return f"LaTeX ({CHECK_IT})"
    return "not JSON lines: its first line is not a JSON object"


def not_jsonl(path: Path) -> str | None:
    """Why `path` is not JSON lines `mirror add` can read, in a phrase ('a PDF (...)'); None when it may be."""
    compression, head = _start(path)
    if compression is None:
        return _what(head)
    inner = _what(head) if head else None
    if inner is not None:
        return f"{compression}-compressed {inner}"
    return f"{compression}-compressed; `mirror add` reads plain JSON lines (decompress it first)"
