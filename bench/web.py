"""The web app's figures: time from upload to result, and the server's memory with 4 jobs at once.

Starts a real `citetracer serve --offline` on 127.0.0.1 (a free port) with a store seeded
from examples/records.jsonl (or --store), then:
- time from `POST /api/jobs` to `GET /api/jobs/{id}` saying done, for examples/references.bib
  and for one ../shared/pdfs/jose paper (skipped, and said so, when ../shared is absent);
  median of --repeat runs, one job at a time;
- peak resident memory of the server's process tree (the server, and the PDF readers it
  forks) sampled every 20 ms while 4 jobs run at once (a server with --workers 4; the four
  jose papers after the first, else four copies of the example .bib).

    python bench/web.py [--repeat 5] [--store PATH] [--paper jose.00015.pdf]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
JOSE = SHARED / "pdfs" / "jose"
EXAMPLE_BIB = ROOT / "examples" / "references.bib"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(store: Path, workers: int, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    config = folder / "config.toml"
    config.write_text("", encoding="utf-8")
    cmd = [sys.executable, "-m", "citetracer", "serve", "--offline", "--store", str(store), "--port", str(port)]
    cmd += ["--workers", str(workers), "--jobs-dir", str(folder / f"jobs-{port}"), "--submits-per-minute", "600"]
    log = (folder / f"server-{port}.log").open("wb")
    env = {**os.environ, "CITETRACER_CONFIG": str(config)}
    process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as r:
                if r.status == 200:
                    return process, base
        except OSError:
            time.sleep(0.2)
        if process.poll() is not None:
            break
    process.kill()
    sys.exit(f"the server did not start: see {folder}")


def submit(base: str, path: Path) -> str:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{path.name}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + path.read_bytes()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(
        base + "/api/jobs", data=body, headers={"Content-Type": f"multipart/form-data; boundary={boundary}"}
    )
    with urllib.request.urlopen(request, timeout=60) as r:
        return str(json.load(r)["id"])


def wait(base: str, job_id: str, timeout: float = 1800) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"{base}/api/jobs/{job_id}", timeout=60) as r:
            state = json.load(r)
        if state["status"] in ("done", "failed"):
            return dict(state)
        time.sleep(0.02)
    raise SystemExit(f"job {job_id} did not end in {timeout} s")


def upload_to_result(base: str, path: Path) -> tuple[float, dict[str, object]]:
    start_time = time.perf_counter()
    state = wait(base, submit(base, path))
    return time.perf_counter() - start_time, state


def tree_rss_kb(pid: int) -> int:
    """Resident memory of a process and all its descendants (KB)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status", encoding="ascii") as fh:
                total += next((int(line.split()[1]) for line in fh if line.startswith("VmRSS:")), 0)
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children", encoding="ascii") as fh:
                    todo += [int(c) for c in fh.read().split()]
        except (OSError, ValueError):
            continue
    return total


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text(encoding="ascii").split()[:3])


def seed(store: Path) -> None:
    cmd = [sys.executable, "-m", "citetracer", "mirror", "add", str(ROOT / "examples" / "records.jsonl")]
    subprocess.run([*cmd, "--source", "example", "--store", str(store)], check=True, capture_output=True)


def summary(state: dict[str, object]) -> str:
    report = state.get("report")
    if not isinstance(report, dict):
        return str(state.get("error") or state["status"])
    s = report["summary"]
    return f"{s['total']} refs: {s['real']} R / {s['potential']} P / {s['hallucinated']} H"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per input (the median is reported)")
    parser.add_argument("--store", type=Path, help="store to check against (default: examples/records.jsonl)")
    parser.add_argument("--paper", default="jose.00015.pdf", help="the jose paper timed (file name)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="citetracer-bench-web-") as tmp:
        folder = Path(tmp)
        store = args.store
        if store is None:
            store = folder / "store.sqlite"
            seed(store)
        inputs = [EXAMPLE_BIB]
        paper = JOSE / args.paper
        if paper.is_file():
            inputs.append(paper)
        else:
            print(f"{paper} is absent: the PDF figure is skipped (../shared not here)")
        print(f"load average before: {loadavg()}")
        process, base = start(store, 2, folder)
        try:
            upload_to_result(base, EXAMPLE_BIB)  # warm: imports, store and index opened by the workers
            rows = []
            for path in inputs:
                times: list[float] = []
                state: dict[str, object] = {}
                for _ in range(args.repeat):
                    seconds, state = upload_to_result(base, path)
                    times.append(seconds)
                rows.append((path.name, statistics.median(times), min(times), max(times), summary(state)))
        finally:
            process.terminate()
            process.wait(30)

        four = sorted(JOSE.glob("*.pdf"))[1:5] if JOSE.is_dir() else [EXAMPLE_BIB] * 4
        process, base = start(store, 4, folder)
        try:
            idle_kb = tree_rss_kb(process.pid)
            peak = [idle_kb]
            stop = threading.Event()

            def sample() -> None:
                while not stop.is_set():
                    peak[0] = max(peak[0], tree_rss_kb(process.pid))
                    time.sleep(0.02)

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            t0 = time.perf_counter()
            ids = [submit(base, p) for p in four]
            states = [wait(base, i) for i in ids]
            wall = time.perf_counter() - t0
            stop.set()
            sampler.join()
        finally:
            process.terminate()
            process.wait(30)

    print(f"load average after: {loadavg()}")
    print(f"\nupload to result (POST /api/jobs until GET says done; median of {args.repeat}, server --workers 2):")
    print(f"{'input':<22} {'median s':>9} {'min s':>7} {'max s':>7}  result")
    for name, med, lo, hi, what in rows:
        print(f"{name:<22} {med:>9.2f} {lo:>7.2f} {hi:>7.2f}  {what}")
    print(f"\n4 jobs at once (server --workers 4): {', '.join(p.name for p in four)}")
    print(f"  all done in {wall:.2f} s; results: {'; '.join(summary(s) for s in states)}")
    idle_mb, peak_mb = idle_kb / 1024, peak[0] / 1024
    print(f"  server process tree RSS: idle {idle_mb:.0f} MB, peak {peak_mb:.0f} MB (sampled every 20 ms)")
    print(f"\ncommand: python bench/web.py --repeat {args.repeat}" + (f" --store {args.store}" if args.store else ""))


if __name__ == "__main__":
    main()
