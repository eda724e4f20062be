"""Opening untrusted XML dumps safely: local DTD only, no external entities, bounded input.

A dump's DOCTYPE names a DTD (`dblp.dtd`); the user supplies that file beside
the dump, and it is the only thing the parser may load. Before parsing we
check three things a hostile dump could abuse:

- the DTD itself: general entities must be plain text or character references
  (no references to other entities, so no exponential "billion laughs"
  expansion) and no entity may be external (SYSTEM/PUBLIC);
- the document prolog: no internal DTD subset (entities declared inside the
  dump are refused outright);
- the byte stream: gzip is detected by its magic number, and truncation or
  corruption surfaces as a `DumpError` naming the file and the offset.

lxml then parses with `no_network=True`, `resolve_entities="internal"` and a
resolver that answers only with the local DTD, so a DTD or entity URL in the
dump can never reach the file system or the network; libxml2's own
amplification limits stay on (no `huge_tree`).
"""

from __future__ import annotations

import gzip
import re
import zlib
from pathlib import Path
from typing import IO, Any

from lxml import etree

#: The local DTD is small (dblp.dtd is 9 kB); a much larger one is not a DTD we expect.
MAX_DTD_BYTES = 1_000_000
#: An entity's replacement text: dblp.dtd's are single character references.
MAX_ENTITY_VALUE = 64
#: Prolog bytes scanned for the DOCTYPE before the root element must have started.
PROLOG_BYTES = 65_536

_ENTITY_DECL = re.compile(r"<!ENTITY\s+(%\s+)?([\w.:-]+)\s+(.*?)>", re.DOTALL)
_QUOTED = re.compile(r"""^("([^"]*)"|'([^']*)')\s*$""", re.DOTALL)
_CHAR_REF_ONLY = re.compile(r"^(?:&#[0-9]+;|&#x[0-9a-fA-F]+;|[^&%<])*$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


class DumpError(Exception):
    """The dump or its DTD cannot be used; the message says why and where."""


def check_dtd(path: Path) -> None:
    """Refuse a DTD with external entities, nested entity references or oversized values."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DumpError(f"{path}: cannot read the DTD ({exc.strerror})") from exc
    if size > MAX_DTD_BYTES:
        raise DumpError(f"{path}: DTD is {size} bytes, more than the {MAX_DTD_BYTES} allowed")
    text = _COMMENT.sub("", path.read_text(encoding="utf-8", errors="replace"))
    for match in _ENTITY_DECL.finditer(text):
        parameter, name, body = bool(match.group(1)), match.group(2), match.group(3)
        quoted = _QUOTED.match(body)
        if quoted is None:
            raise DumpError(f"{path}: entity {name!r} is external or malformed; only internal entities are allowed")
        value = quoted.group(2) if quoted.group(2) is not None else quoted.group(3) or ""
        if parameter:
            if "&" in value or "%" in value:
                raise DumpError(f"{path}: parameter entity {name!r} refers to other entities; refused")
            continue
        if len(value) > MAX_ENTITY_VALUE or not _CHAR_REF_ONLY.match(value):
            raise DumpError(
                f"{path}: entity {name!r} must be plain text or character references "
                f"(at most {MAX_ENTITY_VALUE} characters); nested or long entities are refused"
            )


def open_dump(path: Path) -> tuple[IO[bytes], IO[bytes]]:
    """The dump's bytes (gunzipped when it starts with the gzip magic number) and the raw file under them.

    The raw file's position is how far through the dump we are, for progress and ETA.
    """
    try:
        raw = path.open("rb")
    except OSError as exc:
        raise DumpError(f"{path}: cannot open ({exc.strerror})") from exc
    magic = raw.read(2)
    raw.seek(0)
    if magic == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=raw, mode="rb"), raw  # type: ignore[return-value]
    return raw, raw


def check_prolog(head: bytes, path: Path) -> None:
    """Refuse an internal DTD subset: entities may come only from the user's local DTD."""
    start = head.find(b"<!DOCTYPE")
    if start < 0:
        return
    end = head.find(b">", start)
    bracket = head.find(b"[", start)
    if bracket >= 0 and (end < 0 or bracket < end):
        raise DumpError(f"{path}: the DOCTYPE has an internal subset; entities are accepted only from the local DTD")


class _LocalDTD(etree.Resolver):
    """Answers every DTD request with the user's local DTD and refuses everything else."""

    def __init__(self, dtd: Path | None) -> None:
        super().__init__()
        self.dtd = dtd

    def resolve(self, system_url: str | None, public_id: str | None, context: Any) -> Any:
        if self.dtd is not None and system_url and Path(system_url).name.endswith(".dtd"):
            return self.resolve_filename(str(self.dtd), context)
        raise DumpError(f"refused to load external resource {system_url or public_id!r}")


def iter_elements(stream: IO[bytes], path: Path, tags: tuple[str, ...], dtd: Path | None) -> Any:
    """lxml iterparse over the record elements, with the safety settings above."""
    parser = etree.iterparse(
        stream,
        events=("end",),
        tag=tags,
        load_dtd=dtd is not None,
        resolve_entities=dtd is not None,
        no_network=True,
        huge_tree=False,
        dtd_validation=False,
        remove_comments=True,
        remove_pis=True,
    )
    parser.resolvers.add(_LocalDTD(dtd))
    return parser


def describe_failure(exc: BaseException, path: Path, offset: int | None) -> DumpError:
    """One clear sentence for a broken dump, whatever layer noticed it."""
    where = f" near byte {offset:,} of the uncompressed stream" if offset is not None else ""
    if isinstance(exc, EOFError):
        return DumpError(f"{path}: the file is truncated (compressed stream ended early){where}")
    if isinstance(exc, gzip.BadGzipFile | zlib.error):
        return DumpError(f"{path}: the gzip stream is corrupt ({exc}){where}")
    if isinstance(exc, etree.XMLSyntaxError):
        msg = str(exc)
        if "Premature end" in msg or "EndTag" in msg or "not finished" in msg or "Extra content" in msg:
            return DumpError(f"{path}: the XML is truncated or malformed ({msg})")
        return DumpError(f"{path}: the XML is malformed ({msg})")
    if isinstance(exc, DumpError):
        return exc
    return DumpError(f"{path}: cannot read the dump ({exc})")
