"""The web and archive cases of bench/hostile.py: a real `citetracer serve` (and scan) under attack on 127.0.0.1.

Each case starts a fresh server (tests/web/live.py: `python -m citetracer serve --offline` on a
free port, its own store seeded from examples/records.jsonl) so that the server's peak resident
memory (VmHWM) is the case's own; it reports the outcome (HTTP status and job status, or exit
code), wall seconds, that peak, and whether the server logged a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import lzma
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.conftest import empty_config  # noqa: E402
from tests.web.conftest import EXAMPLE_BIB, seed_store  # noqa: E402
from tests.web.live import LiveServer  # noqa: E402
from tests.web.test_large_report import big_job  # noqa: E402


@dataclass
class WebResult:
    name: str
    outcome: str
    seconds: float
    peak: int
    traceback: bool
    note: str


# ------------------------------------------------------------------ inputs


def folder_entries_tar(n: int, compress: str) -> bytes:
    """A tar of `n` directory entries ('d0000000/'...), compressed ('gz' or 'xz'), built header by header."""
    template = tarfile.TarInfo("d0000000")
    template.type = tarfile.DIRTYPE
    template.mtime = 0
    block = bytearray(template.tobuf(format=tarfile.USTAR_FORMAT))
    block[148:156] = b" " * 8
    base = sum(block) - sum(b"0000000")
    packer = zlib.compressobj(1, zlib.DEFLATED, 31) if compress == "gz" else lzma.LZMACompressor(preset=1)
    out = [packer.compress(b"")]
    chunk = bytearray()
    for i in range(n):
        digits = b"%07d" % i
        block[1:8] = digits
        block[148:156] = b"%06o\0 " % (base + sum(digits))
        chunk += block
        if len(chunk) >= 1 << 22:
            out.append(packer.compress(bytes(chunk)))
            chunk.clear()
    chunk += b"\0" * 1024
    out.append(packer.compress(bytes(chunk)))
    out.append(packer.flush())
    return b"".join(out)


def folder_entries_zip(n: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for i in range(n):
            zf.writestr(f"d{i}/", b"")
    return buf.getvalue()


def fill_zip(members: int, size: int) -> bytes:
    buf = io.BytesIO()
    entry = "@article{k, title={Deep Residual Learning for Image Recognition}, author={He, Kaiming}, year={2016}}\n"
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(members):
            zf.writestr(f"p{i:04d}.bib", entry + "%" + "x" * size + "\n")
    return buf.getvalue()


# ------------------------------------------------------------------ cases


def _ended(live: LiveServer, job_id: str, timeout: float = 120) -> dict:
    try:
        return live.wait_job(job_id, timeout)
    except AssertionError:
        return {"status": "not ended"}


def file_reads(live: LiveServer, tmp: Path) -> tuple[str, str]:
    secret = tmp / "secret.txt"
    secret.write_text("[1] Q. Secret. TOPSECRET private line. In Hidden, 2020.\n")
    (tmp / "walked").mkdir(exist_ok=True)
    (tmp / "walked" / "x.bib").write_text("@misc{w, title={WALKEDFOLDER}, year=2020}\n")
    sends: list[dict] = [
        {"fields": {"text": "/etc/passwd"}},
        {"fields": {"text": str(secret)}},
        {"files": [("list.txt", (f"{secret}\n" * 200 + f"{tmp / 'walked'}\n").encode())]},
        {"files": [("refs.txt", ("[1] " + "A long reference " * 20 + "2020.").encode())]},
    ]
    outcomes, leaked = [], 0
    for send in sends:
        status, body = live.post(**send)
        state = _ended(live, body["id"]) if status == 202 else {"status": "-"}
        seen = json.dumps(state) + live.get(f"/jobs/{body.get('id', 'x')}")[1].decode(errors="replace")
        leaked += any(s in seen for s in ("root:x:0", "TOPSECRET", "WALKEDFOLDER"))
        outcomes.append(f"{status}/{state['status']}")
    return " ".join(outcomes), f"{leaked} of {len(sends)} showed a server file"


def upload_and_wait(name: str, data: bytes, copies: int = 1) -> Callable[[LiveServer, Path], tuple[str, str]]:
    def case(live: LiveServer, tmp: Path) -> tuple[str, str]:
        ids: list[str] = []
        statuses: list[int] = []

        def send() -> None:
            status, body = live.post(files=[(name, data)], timeout=120)
            statuses.append(status)
            if status == 202:
                ids.append(body["id"])

        senders = [threading.Thread(target=send) for _ in range(copies)]
        for t in senders:
            t.start()
        start = time.monotonic()
        health = live.get("/healthz", timeout=60)[0]
        health_s = time.monotonic() - start
        for t in senders:
            t.join()
        states = [_ended(live, i) for i in ids]
        errors = {(s.get("error") or "")[:60] for s in states}
        outcome = f"{'/'.join(map(str, sorted(set(statuses))))} {'/'.join(sorted({s['status'] for s in states}))}"
        return outcome, f"{len(data) / 1e6:.2f} MB x{copies}; healthz {health} in {health_s:.1f}s; {'; '.join(errors)}"

    return case


def hostile_pdfs(live: LiveServer, tmp: Path) -> tuple[str, str]:
    """The 15 hand-written hostile PDFs of bench/hostile_cases.py uploaded as two jobs (20 files at most a job)."""
    from bench.hostile_cases import hostile_pdfs as make

    files = [(p.name, p.read_bytes()) for p in sorted(make(tmp / "pdfs").values())]
    states = []
    for batch in (files[:8], files[8:]):
        status, body = live.post(files=batch, timeout=120)
        states.append(_ended(live, body["id"], 300) if status == 202 else {"status": str(status)})
    warnings = [w for s in states for w in s.get("warnings", [])]
    refused = sum("not a readable PDF" in w or "encrypted" in w or "an HTML page" in w for w in warnings)
    leaked = sum(str(tmp) in w for w in warnings)
    outcome = "/".join(s["status"] for s in states)
    return outcome, f"{len(files)} PDFs in 2 jobs: {refused} refused by name, {len(warnings)} warnings, {leaked} paths"


def disk_fill(live: LiveServer, tmp: Path) -> tuple[str, str]:
    data = fill_zip(1990, 100_000)
    status, body = live.post(files=[("fill.zip", data)])
    state = _ended(live, body["id"], 300)
    folder = live.jobs_dir / body["id"]
    kept = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    note = f"{len(data) / 1e3:.0f} KB zip of 1,990 x 100 KB: job folder {kept / 1e6:.1f} MB after the job"
    return f"{status} {state['status']}", note


def slowloris(live: LiveServer, tmp: Path) -> tuple[str, str]:
    sockets: list[socket.socket] = []
    for _ in range(1100):
        try:
            s = socket.create_connection(("127.0.0.1", live.port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            sockets.append(s)
        except OSError:
            break
    served, waits = 0, []
    end = time.monotonic() + 30
    while time.monotonic() < end:
        for s in sockets:
            with contextlib.suppress(OSError):
                s.sendall(b"X-Slow: 1\r\n")
        start = time.monotonic()
        with contextlib.suppress(OSError):
            served += live.get("/healthz", timeout=10)[0] == 200
        waits.append(time.monotonic() - start)
        time.sleep(max(0.0, 1.0 - (time.monotonic() - start)))
    for s in sockets:
        s.close()
    log = live.log()
    lines = sum("connections not accepted" in line or "too slowly" in line for line in log.splitlines())
    return (
        f"{served}/{len(waits)} served",
        f"{len(sockets)} sockets 30 s; healthz max {max(waits):.1f}s; {lines} log lines on them, "
        f"{log.count('Too many open files')} EMFILE",
    )


def parallel_gets(live: LiveServer, tmp: Path) -> tuple[str, str]:
    _status, body = live.post(files=[("references.bib", EXAMPLE_BIB.read_bytes())])
    template = _ended(live, body["id"])["report"]
    job_id = big_job(live, template, 20_000)
    size = (live.jobs_dir / job_id / "report.json").stat().st_size
    codes: list[int] = []

    def get() -> None:
        codes.append(live.get(f"/api/jobs/{job_id}", timeout=300)[0])

    getters = [threading.Thread(target=get) for _ in range(16)]
    start = time.monotonic()
    for t in getters:
        t.start()
    time.sleep(0.2)
    h0 = time.monotonic()
    health = live.get("/healthz", timeout=120)[0]
    health_s = time.monotonic() - h0
    for t in getters:
        t.join()
    MEASURED["seconds"] = time.monotonic() - start  # the GETs, not the making of the report
    return (
        "/".join(str(c) for c in sorted(set(codes))),
        f"16 GETs of a 20,000-citation job ({size / 1e6:.0f} MB) in {time.monotonic() - start:.1f}s; "
        f"healthz {health} in {health_s:.2f}s",
    )


Case = Callable[[LiveServer, Path], tuple[str, str]]
#: What a case measured itself, when its preparation is not part of it (see parallel_gets).
MEASURED: dict[str, float] = {}


def cached(name: str, make: Callable[[], bytes]) -> bytes:
    """A generated bomb, kept in ~/.cache/citetracer/bench/ (building one takes a minute on a loaded machine)."""
    path = Path.home() / ".cache" / "citetracer" / "bench" / "hostile-web" / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".tmp").write_bytes(make())
        path.with_suffix(".tmp").replace(path)
    return path.read_bytes()


def cases() -> list[tuple[str, Case, tuple[str, ...]]]:
    """(name, case, extra serve arguments); the bombs are built once and cached."""
    tar_gz = cached("folders-2m.tar.gz", lambda: folder_entries_tar(2_000_000, "gz"))
    tar_xz = cached("folders-1m.tar.xz", lambda: folder_entries_tar(1_000_000, "xz"))
    return [
        ("web: file-read attempts (4 texts naming server paths)", file_reads, ()),
        ("web: 15 hostile PDFs uploaded (bombs, xref, encrypted, HTML)", hostile_pdfs, ()),
        ("web: .tar.gz of 2M folder entries", upload_and_wait("bomb.tar.gz", tar_gz), ()),
        ("web: .tar.xz of 1M folder entries", upload_and_wait("bomb.tar.xz", tar_xz), ()),
        ("web: six .tar.xz bombs of 1M entries at once", upload_and_wait("bomb.tar.xz", tar_xz, 6), ()),
        (
            "web: .zip of 400k folder entries",
            upload_and_wait("bomb.zip", cached("folders-400k.zip", lambda: folder_entries_zip(400_000))),
            (),
        ),
        ("web: zip of 1,990 x 100 KB members (disk)", disk_fill, ()),
        ("web: slowloris, 1,100 sockets for 30 s", slowloris, ()),
        ("web: 16 parallel GETs of a 20,000-citation report", parallel_gets, ()),
    ]


def run_web_cases(tmp: Path, measure: Callable[..., tuple[int, float, int, str]]) -> list[WebResult]:
    # the restarts first: a process forked by this one counts this one's memory until it execs, and the
    # later cases make this one large (a 20,000-citation report)
    results = pg_restart_cases(tmp, measure)
    for i, (name, case, args) in enumerate(cases()):
        folder = tmp / f"web-{i}"
        store = seed_store(folder / "store" / "store.sqlite")
        live = LiveServer(folder, store, "--workers", "2", "--submits-per-minute", "600", *args).start()
        start = time.monotonic()
        try:
            outcome, note = case(live, folder)
        except Exception as exc:  # the bench reports a case that broke, then goes on
            outcome, note = "error", f"{type(exc).__name__}: {exc}"[:120]
        seconds = MEASURED.pop("seconds", time.monotonic() - start)
        peak = live.peak_rss()
        live.stop()
        results.append(WebResult(name, outcome, seconds, peak, "Traceback" in live.log(), note))
        print(f"  {name}: {outcome}, {seconds:.1f}s", file=sys.stderr, flush=True)
        shutil.rmtree(folder, ignore_errors=True)
    return results


# ------------------------------------------------------------------ PostgreSQL restarts


def pg_restart_cases(tmp: Path, measure: Callable[..., tuple[int, float, int, str]]) -> list[WebResult]:
    """serve and scan on a PostgreSQL store whose server restarts under them."""
    from tests import pgserver
    from tests.conftest import pg_location

    try:
        server = pgserver.start(max_connections=100)
    except pgserver.NoServer as exc:
        print(f"  (no PostgreSQL here, restart cases skipped: {exc})", file=sys.stderr)
        return []
    out = []
    try:
        store = pg_location(server.url)
        env = {**os.environ, "CITETRACER_CONFIG": str(empty_config(tmp))}
        subprocess.run(
            [
                sys.executable,
                "-m",
                "citetracer",
                "mirror",
                "add",
                str(ROOT / "examples" / "records.jsonl"),
                "--store",
                store,
            ],
            env=env,
            capture_output=True,
            check=True,
        )
        folder = tmp / "pg-web"
        live = LiveServer(folder, store, "--workers", "2", "--submits-per-minute", "600").start()
        start = time.monotonic()
        server.pause()
        down = 200
        while down == 200 and time.monotonic() - start < 20:  # the store's health is asked every 5 s at most
            down = live.get("/healthz", timeout=30)[0]
            time.sleep(0.5)
        server.resume()
        states = []
        for _ in range(4):
            _, body = live.post(files=[("references.bib", EXAMPLE_BIB.read_bytes())])
            states.append(_ended(live, body["id"])["status"])
        seconds = time.monotonic() - start
        peak = live.peak_rss()
        live.stop()
        out.append(
            WebResult(
                "web: PostgreSQL restarted under serve",
                f"healthz {down}; jobs {'/'.join(states)}",
                seconds,
                peak,
                "Traceback" in live.log(),
                "healthz while down, then 4 jobs",
            )
        )
        papers = tmp / "pg-papers"
        papers.mkdir(exist_ok=True)
        for i in range(40):
            (papers / f"p{i:02d}.bib").write_text(f"% paper {i}\n" + EXAMPLE_BIB.read_text())

        journal = tmp / "pg-scan" / "journal.jsonl"

        def restart() -> None:  # once 5 papers are done: mid-scan, with both workers connected
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                with contextlib.suppress(OSError):
                    if journal.read_text().count("\n") >= 6:
                        break
                time.sleep(0.1)
            server.pause()
            time.sleep(2)
            server.resume()

        restarter = threading.Thread(target=restart)
        restarter.start()
        args = ["scan", str(papers), "-o", str(tmp / "pg-scan"), "--offline", "--store", store, "--workers", "2"]
        code, seconds, peak, err = measure(args, env)
        restarter.join()
        text = " ".join(err.split())
        at = text.find(" papers (")
        summary = text[max(0, text.rfind(" ", 0, at - 1)) : at + 80] if at >= 0 else text[-110:]
        out.append(
            WebResult(
                "scan: PostgreSQL restarted mid-scan (40 papers)",
                f"exit {code}",
                seconds,
                peak,
                "Traceback" in text,
                summary.strip(),
            )
        )
    finally:
        server.stop()
    return out


def print_table(results: list[WebResult]) -> None:
    print(f"\n{'web / archive case':52} {'outcome':>22} {'s':>6} {'peak MB':>8} tb  note")
    for r in results:
        peak = f"{r.peak / 1e6:.0f}" if r.peak else "-"
        flag = "YES" if r.traceback else "no"
        print(f"{r.name[:52]:52} {r.outcome[:22]:>22} {r.seconds:>6.1f} {peak:>8} {flag:3} {r.note}")


def web_job_figure(tmp: Path, bib_text: str, citations: int) -> tuple[str, int, float, int]:
    """A web job of `citations` BibTeX citations on a fresh server: (name, citations checked, seconds, peak RSS)."""
    folder = tmp / "web-figure"
    live = LiveServer(folder, seed_store(folder / "store" / "store.sqlite"), "--workers", "1").start()
    try:
        start = time.monotonic()
        status, body = live.post(files=[("many.bib", bib_text.encode())], timeout=300)
        state = live.wait_job(body["id"], timeout=6 * 3600) if status == 202 else {"progress": {"done": 0}}
        seconds = time.monotonic() - start
        peak = live.peak_rss()
    finally:
        live.stop()
    shutil.rmtree(folder, ignore_errors=True)
    return f"web job of {citations:,} citations (server peak)", int(state["progress"]["done"]), seconds, peak
