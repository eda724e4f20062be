"""Fetch a mirror's dump over HTTP: resumable, verified, and never half-used.

A dump is large (DBLP's is ~1 GB, an OpenAlex works snapshot ~330 GB in parts) and a
connection drops now and then, so a download is written to `<file>.part` and resumed
with an HTTP Range request on the next run. The server's validator (ETag, else
Last-Modified) is kept beside the partial file and sent as `If-Range`: when the file
changed upstream in between, the server answers with the whole new file instead of a
tail that would not fit the head. A server that ignores ranges is read from the start.
Only a complete file whose size and checksum (MD5, when the source publishes one) match
is renamed into place; a mismatch removes the partial file and says so.

The URL is given by the user on the command line (a mirror's documented address by
default): trusted like a configured source base URL.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import lzma
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where a dump is fetched: `mirror dblp DUMP` and the CLI's start need no HTTP client
    import httpx

#: Seconds to wait for the server to connect or to send the next bytes.
TIMEOUT = 60.0
#: Bytes read and written at a time.
CHUNK = 1 << 20
#: Largest file fetched (an OpenAlex works part is under 2 GB, DBLP's dump ~1 GB; a whole snapshot is fetched in parts).
MAX_BYTES = 64 << 30
_MD5 = re.compile(r"\b([0-9a-fA-F]{32})\b")


class DownloadError(Exception):
    """The file could not be fetched whole and verified (one sentence saying what to do)."""


@dataclass
class Fetched:
    path: Path
    bytes: int
    #: Bytes a previous run had fetched that this one kept (0: fetched from the start).
    resumed_from: int = 0
    #: How the file was verified ("md5", "size", or "none").
    verified: str = "none"
    #: The file was already there and verified: nothing was fetched.
    cached: bool = False


def client_for_dumps() -> httpx.Client:
    """A synchronous client for one long streamed file, with the HTTP layer's User-Agent (collect/http/client.py): the
    online stages' async client, its per-request size cap and its rate limits are for small API replies, not
    for a gigabyte fetched once."""
    import httpx

    from citetracer.collect.http.client import user_agent  # only when a dump is fetched: ingests start without it

    return httpx.Client(timeout=TIMEOUT, follow_redirects=True, headers={"User-Agent": user_agent()})


def md5_of(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    with path.open("rb") as fh:
        while chunk := fh.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _check(path: Path, md5: str | None, size: int | None) -> str | None:
    """Why the file is not the expected one, or None."""
    actual = path.stat().st_size
    if size is not None and actual != size:
        return f"it has {actual:,} bytes where {size:,} were expected"
    if md5 is not None and md5_of(path) != md5.lower():
        return "its MD5 checksum does not match the published one"
    return None


def fetch(
    url: str,
    dest: Path,
    md5: str | None = None,
    size: int | None = None,
    progress: Callable[[int, int | None], None] | None = None,
    client: httpx.Client | None = None,
) -> Fetched:
    """Fetch `url` to `dest` (resuming `dest.part`), verify it, then move it into place.

    `md5` / `size`: what the file must be (None: not checked). A `dest` already there that
    passes the checks is kept as it is. `progress(bytes_done, bytes_total)`.
    """
    import httpx

    verified = "md5" if md5 else ("size" if size is not None else "none")
    if dest.is_file() and (md5 or size is not None) and _check(dest, md5, size) is None:
        return Fetched(dest, dest.stat().st_size, verified=verified, cached=True)
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    sidecar = dest.with_name(dest.name + ".part.json")
    have = part.stat().st_size if part.is_file() else 0
    validator = _validator(sidecar) if have else None
    headers = {"Accept-Encoding": "identity"}
    if have:
        headers.update({"Range": f"bytes={have}-", **({"If-Range": validator} if validator else {})})
    own = client is None
    http = client or client_for_dumps()
    kept = 0
    try:
        with http.stream("GET", url, headers=headers) as resp:
            if resp.status_code == 416 and have and (size is None or have == size):
                kept = have  # the previous run had it all: only the checks were left
            else:
                kept = _receive(resp, url, part, sidecar, have, progress)
    except httpx.HTTPError as exc:
        done = part.stat().st_size if part.is_file() else 0
        raise DownloadError(
            f"{url}: the download stopped after {done:,} bytes ({type(exc).__name__}: {exc}); "
            "run the same command again to resume it"
        ) from exc
    finally:
        if own:
            http.close()
    problem = _check(part, md5, size)
    if problem is not None:
        part.unlink(missing_ok=True)
        sidecar.unlink(missing_ok=True)
        raise DownloadError(f"{url}: the downloaded file is not the published one ({problem}); it was removed")
    part.replace(dest)
    sidecar.unlink(missing_ok=True)
    return Fetched(dest, dest.stat().st_size, resumed_from=kept, verified=verified)


def verify_stream(path: Path) -> str | None:
    """Read a gzip or xz file to its end, so its own checks (gzip's CRC-32 and length, xz's check) run: a
    file that passes its byte count or MD5 can still be a cut or damaged stream when the source published
    none (an arXiv copy) or a wrong one. Returns "gzip" / "xz" once verified, None for a file that is
    neither; raises DownloadError (and removes the file, so the next run fetches it again) otherwise."""
    with path.open("rb") as fh:
        head = fh.read(6)
    if head[:2] == b"\x1f\x8b":
        kind = "gzip"
    elif head == b"\xfd7zXZ\x00":
        kind = "xz"
    else:
        return None
    try:
        with gzip.open(path, "rb") if kind == "gzip" else lzma.open(path, "rb") as stream:
            while stream.read(CHUNK):
                pass
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as exc:
        path.unlink(missing_ok=True)
        raise DownloadError(
            f"{path}: the downloaded {kind} stream is damaged or cut ({exc}); it was removed, run the same "
            "command again to fetch it anew"
        ) from exc
    return kind


def _validator(sidecar: Path) -> str | None:
    try:
        value = json.loads(sidecar.read_text(encoding="utf-8")).get("validator")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) and value else None


def _receive(
    resp: httpx.Response,
    url: str,
    part: Path,
    sidecar: Path,
    have: int,
    progress: Callable[[int, int | None], None] | None,
) -> int:
    """Write the reply's body to `part` (appended after `have` bytes on a 206 that continues them,
    from the start otherwise); returns the bytes kept from before."""
    if resp.status_code == 206 and have and _range_start(resp) == have:
        mode, kept = "ab", have
    elif resp.status_code in (200, 206) and (resp.status_code == 200 or _range_start(resp) == 0):
        mode, kept = "wb", 0
    else:
        raise DownloadError(f"{url}: the server answered HTTP {resp.status_code}; nothing was kept from this reply")
    length = resp.headers.get("content-length")
    total = kept + int(length) if length and length.isdigit() else None
    if total is not None and total > MAX_BYTES:
        raise DownloadError(f"{url}: {total:,} bytes is more than the {MAX_BYTES:,} a download may have")
    validator = resp.headers.get("etag") or resp.headers.get("last-modified")
    sidecar.write_text(json.dumps({"url": url, "validator": validator}), encoding="utf-8")
    done = kept
    with part.open(mode) as fh:
        for chunk in resp.iter_raw():  # the bytes as sent (ranges count them), each written as soon as it arrives
            done += len(chunk)
            if done > MAX_BYTES:
                raise DownloadError(f"{url}: more than the {MAX_BYTES:,} bytes a download may have")
            fh.write(chunk)
            if progress is not None:
                progress(done, total)
    return kept


def _range_start(resp: httpx.Response) -> int | None:
    m = re.match(r"bytes (\d+)-", resp.headers.get("content-range", ""))
    return int(m.group(1)) if m else None


def published_md5(url: str, client: httpx.Client | None = None) -> str:
    """The MD5 a site publishes beside a file (`<url>.md5`, as DBLP does: `<hash>  dblp.xml.gz`)."""
    import httpx

    own = client is None
    http = client or client_for_dumps()
    try:
        resp = http.get(url + ".md5")
    except httpx.HTTPError as exc:
        raise DownloadError(f"{url}.md5: cannot be fetched ({type(exc).__name__}: {exc})") from exc
    finally:
        if own:
            http.close()
    m = _MD5.search(resp.text[:1000]) if resp.status_code == 200 else None
    if m is None:
        raise DownloadError(f"{url}.md5: no checksum there (HTTP {resp.status_code}); the dump cannot be verified")
    return m.group(1).lower()


#: Where the mirrors publish their dumps (a local copy or a test server can be named instead).
DBLP_URL = "https://dblp.org/xml/dblp.xml.gz"
OPENALEX_URL = "https://openalex.s3.amazonaws.com"


def fetch_dblp(
    url: str, dump: Path, progress: Callable[[int, int | None], None] | None = None
) -> tuple[Fetched, Fetched]:
    """DBLP's dump (verified against the MD5 DBLP publishes beside it) and the DTD beside it."""
    with client_for_dumps() as client:
        md5 = published_md5(url, client)
        got = fetch(url, dump, md5=md5, progress=progress, client=client)
        dtd = fetch(url.rsplit("/", 1)[0] + "/dblp.dtd", dump.with_name("dblp.dtd"), client=client)
    return got, dtd


def fetch_openalex(
    base: str,
    root: Path,
    entities: tuple[str, ...] = ("sources", "works"),
    progress: Callable[[int, int | None], None] | None = None,
) -> list[Fetched]:
    """An OpenAlex snapshot's manifests and every part they list, into `root` laid out as the bucket is
    (`data/<entity>/manifest`, `data/<entity>/updated_date=.../part_NNN.gz`); each part checked against
    the byte count its manifest gives. Parts already there and whole are not fetched again."""
    base = base.rstrip("/")
    out = []
    with client_for_dumps() as client:
        for entity in entities:
            manifest = root / "data" / entity / "manifest"
            if manifest.exists():
                manifest.unlink()  # always the snapshot's current list
            fetch(f"{base}/data/{entity}/manifest", manifest, client=client)
            try:
                entries = json.loads(manifest.read_text(encoding="utf-8"))["entries"]
                listed = [(str(e["url"]), int(e["meta"]["content_length"])) for e in entries]
            except (ValueError, TypeError, KeyError) as exc:
                raise DownloadError(f"{base}/data/{entity}/manifest: not a snapshot manifest ({exc})") from exc
            for url, size in listed:
                rel = url.split("/data/", 1)[-1] if "/data/" in url else ""
                target = (root / "data" / rel).resolve()
                if not rel or (root / "data").resolve() not in target.parents:
                    raise DownloadError(f"{base}: the {entity} manifest lists a file outside the snapshot ({url})")
                out.append(fetch(f"{base}/data/{rel}", target, size=size, progress=progress, client=client))
    return out
