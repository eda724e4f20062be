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
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple

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
    """Refuse an internal DTD subset: entities may come only from the user's local DTD.

    A first look at the dump's start; `_prolog_end`, which reads the whole prolog
    however long (a DOCTYPE may follow 64 KB of comment), checks every DOCTYPE again.
    """
    start = head.find(b"<!DOCTYPE")
    if start >= 0:
        _doctype_end(head, start, path)


def _doctype_end(buf: bytes, start: int, path: Path) -> int:
    """Index just past the DOCTYPE at `start` (-1 if `buf` ends inside it); DumpError for an internal subset.

    Quoted system and public ids are skipped as quoted (a `>` inside one does not end the
    DOCTYPE), so a `[` after them cannot hide from the check.
    """
    i = start + 2
    while i < len(buf):
        ch = buf[i : i + 1]
        if ch in (b'"', b"'"):
            close = buf.find(ch, i + 1)
            if close < 0:
                return -1
            i = close + 1
            continue
        if ch == b"[":
            raise DumpError(
                f"{path}: the DOCTYPE has an internal subset; entities are accepted only from the local DTD"
            )
        if ch == b">":
            return i + 1
        i += 1
    return -1


class _LocalDTD(etree.Resolver):
    """Answers every DTD request with the user's local DTD and refuses everything else."""

    def __init__(self, dtd: Path | None) -> None:
        super().__init__()
        self.dtd = dtd

    def resolve(self, system_url: str | None, public_id: str | None, context: Any) -> Any:
        if self.dtd is not None and system_url and Path(system_url).name.endswith(".dtd"):
            return self.resolve_filename(str(self.dtd), context)
        raise DumpError(f"refused to load external resource {system_url or public_id!r}")


#: Uncompressed bytes per chunk handed to one parse: about 5,000 DBLP records.
CHUNK_BYTES = 2_000_000
#: A chunk that finds no record boundary within this many bytes is refused (bounded memory).
MAX_CHUNK_BYTES = 64_000_000

_ROOT_START = re.compile(rb"<([A-Za-z_][\w.:-]*)(?:\s[^>]*)?(/?)>")


class Chunk(NamedTuple):
    """A run of whole top-level records, parseable alone as `prefix + body + suffix`.

    `prefix` is the dump's own prolog (XML declaration, DOCTYPE) and root start tag,
    so each chunk is parsed with the same encoding and the same local DTD as the whole dump.
    """

    prefix: bytes
    body: bytes
    suffix: bytes
    #: Where the body starts in the uncompressed stream (for error messages).
    offset: int


def _prolog_end(buf: bytes, path: Path) -> tuple[int, bytes, bool] | None:
    """End of the root start tag, the root's name, and whether the root is empty (`<dblp/>`); None if unseen yet."""
    pos = 0
    while True:
        i = buf.find(b"<", pos)
        if i < 0 or i + 4 > len(buf):
            return None
        if buf.startswith(b"<?", i):
            end = buf.find(b"?>", i)
            pos = end + 2
        elif buf.startswith(b"<!--", i):
            end = buf.find(b"-->", i)
            pos = end + 3
        elif buf.startswith(b"<!", i):  # DOCTYPE: refused when it has an internal subset
            end = _doctype_end(buf, i, path)
            pos = end
        else:
            m = _ROOT_START.match(buf, i)
            if m is None:
                if buf.find(b">", i) < 0:
                    return None
                raise DumpError(f"{path}: the XML is malformed (no root element start tag)")
            return m.end(), m.group(1), bool(m.group(2))
        if end < 0:
            return None


def _open_markup(buf: bytes, end: int) -> bool:
    """Whether `buf[:end]` stops inside a comment, CDATA section or processing instruction."""
    for opener, closer in ((b"<!--", b"-->"), (b"<![CDATA[", b"]]>"), (b"<?", b"?>")):
        start = buf.rfind(opener, 0, end)
        if start >= 0 and buf.find(closer, start + len(opener), end) < 0:
            return True
    return False


def _last_boundary(buf: bytes, boundary: re.Pattern[bytes]) -> int:
    """Offset of the last line that starts a top-level record (outside any markup), or -1."""
    markup = b"<!" in buf or b"<?" in buf
    end = len(buf)
    while True:
        i = buf.rfind(b"\n<", 0, end)
        if i < 0:
            return -1
        if boundary.match(buf, i + 1) and not (markup and _open_markup(buf, i)):
            return i + 1
        end = i


def iter_chunks(
    stream: IO[bytes], path: Path, tags: tuple[str, ...], chunk_bytes: int | None = None
) -> Iterator[Chunk]:
    """Split a dump into chunks of whole records, cutting only where a record starts a line.

    Why: parsing the chunks independently lets several processes share the work,
    and each chunk's tree is small. The cut is safe because a `<` in text or in an
    attribute is always escaped in XML, so a line starting `<article ` can only be a
    tag (comments, CDATA and processing instructions are checked for). The end of the
    stream must close the root element, so a truncated dump is an error, not a short store.
    """
    chunk_bytes = chunk_bytes or CHUNK_BYTES
    boundary = re.compile(rb"<(?:" + b"|".join(t.encode() for t in tags) + rb")[\s>/]")
    buf = b""
    while True:
        block = stream.read(chunk_bytes)
        buf += block
        head = _prolog_end(buf, path)
        if head is not None:
            break
        if not block or len(buf) > PROLOG_BYTES:
            raise DumpError(f"{path}: the XML is truncated or malformed (no root element)")
    end, root, empty = head
    prefix, buf, offset = buf[:end], buf[end:], end
    suffix = b"</" + root + b">"
    if empty:  # `<dblp/>`: no records
        if buf.strip() or stream.read(1):
            raise DumpError(f"{path}: the XML is malformed (content after the empty root element)")
        return
    while True:
        block = stream.read(chunk_bytes)
        if not block:
            break
        buf += block
        if len(buf) < chunk_bytes:
            continue
        cut = _last_boundary(buf, boundary)
        if cut <= 0:
            if len(buf) > MAX_CHUNK_BYTES:
                raise DumpError(
                    f"{path}: no record starts a line within {MAX_CHUNK_BYTES:,} bytes near byte {offset:,}; "
                    "the dump is not in dblp.xml's one-record-per-line layout"
                )
            continue
        yield Chunk(prefix, buf[:cut], suffix, offset)
        offset += cut
        buf = buf[cut:]
    tail = buf.rstrip()
    if not tail.endswith(suffix):
        raise DumpError(f"{path}: the XML is truncated (the dump does not end with {suffix.decode(errors='replace')})")
    yield Chunk(prefix, tail[: -len(suffix)], suffix, offset)


def parser_for(dtd: Path | None) -> etree.XMLParser:
    """An lxml parser with the safety settings above (entities only from the local DTD, no network)."""
    parser = etree.XMLParser(
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


def parse_chunk(chunk: Chunk, path: Path, parser: etree.XMLParser) -> Any:
    """The chunk as a parsed document; a DumpError naming the file and the stream offset if it is broken."""
    try:
        return etree.fromstring(chunk.prefix + chunk.body + chunk.suffix, parser).getroottree()
    except DumpError:
        raise
    except etree.XMLSyntaxError as exc:
        raise describe_failure(exc, path, chunk.offset) from exc
    except Exception as exc:  # a resolver refusal surfaces wrapped by lxml
        raise describe_failure(exc, path, chunk.offset) from exc


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
            return DumpError(f"{path}: the XML is truncated or malformed ({msg}){where}")
        return DumpError(f"{path}: the XML is malformed ({msg}){where}")
    if isinstance(exc, DumpError):
        return exc
    return DumpError(f"{path}: cannot read the dump ({exc})")
