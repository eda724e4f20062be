"""`citetracer scan` throughput: papers per hour on ../shared/pdfs, offline, with 1 and 2 workers.

The store is the DBLP sample (`citetracer mirror dblp`) plus HALLMARK's world.jsonl
(`citetracer mirror add`), built once into a cache folder outside the repository
(default `../bench-stores/`, or --stores); a marker beside it names the inputs it was built
from. Each run scans a fresh copy of that store (checks write verified links into it, and
the runs must start alike) into a fresh output folder, as a real user runs it:
`python -m citetracer scan PDFS -o OUT --offline --store COPY --workers N`.

Figures per run: wall time, papers per hour, median seconds per paper (one worker's time
for one paper, from the journal), the peak resident memory of each worker (its own
program, /proc VmHWM) and of the PDF reader processes it started (an upper bound: a forked
reader counts pages it shares with its worker). The machine's load is printed with them.

    python bench/scan.py [--pdfs DIR] [--workers 1,2] [--repeat 1] [--stores DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SAMPLE = SHARED / "data" / "dblp" / "dblp-sample.xml.gz"
WORLD = SHARED / "data" / "hallmark" / "world.jsonl"
CLI = [sys.executable, "-m", "citetracer"]


def build_store(folder: Path) -> Path:
    """The DBLP sample + world store, built on first use (and again when an input changes)."""
    store = folder / "sample.sqlite"
    marker = folder / "sample.built"
    inputs = json.dumps([[str(p), p.stat().st_size, int(p.stat().st_mtime)] for p in (SAMPLE, WORLD)])
    if store.exists() and marker.exists() and marker.read_text() == inputs:
        return store
    folder.mkdir(parents=True, exist_ok=True)
    print(f"# building {store} (once): citetracer mirror dblp + mirror add world.jsonl", flush=True)
    start = time.perf_counter()
    for extra in (store.with_name(store.name + ".index"),):
        shutil.rmtree(extra, ignore_errors=True)
    store.unlink(missing_ok=True)
    subprocess.run([*CLI, "mirror", "dblp", str(SAMPLE), "--store", str(store)], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(
        [*CLI, "mirror", "add", str(WORLD), "--source", "world", "--store", str(store)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    marker.write_text(inputs)
    print(f"# built in {time.perf_counter() - start:.0f} s", flush=True)
    return store


def copy_store(store: Path, dest: Path) -> Path:
    copy = dest / store.name
    shutil.copy2(store, copy)
    shutil.copytree(store.with_name(store.name + ".index"), copy.with_name(copy.name + ".index"))
    return copy


def run_once(pdfs: Path, store: Path, workers: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="scan-bench-") as tmp:
        work = Path(tmp)
        copy = copy_store(store, work)
        out = work / "report"
        cmd = [*CLI, "scan", str(pdfs), "-o", str(out), "--offline", "--store", str(copy), "--workers", str(workers)]
        start = time.perf_counter()
        run = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if run.returncode not in (0, 1):
            raise SystemExit(f"scan failed ({run.returncode}): {run.stderr[-2000:]}")
        lines = [json.loads(x) for x in (out / "journal.jsonl").read_text().splitlines()[1:]]
        done = [x for x in lines if x["status"] == "done"]
        per_worker: dict[int, float] = {}
        reader: dict[int, float] = {}
        for x in done:
            per_worker[x["worker"]] = max(per_worker.get(x["worker"], 0.0), x["worker_rss_mb"])
            reader[x["worker"]] = max(reader.get(x["worker"], 0.0), x["reader_rss_mb"])
        return {
            "papers": len(lines),
            "checked": len(done),
            "references": sum(x["references"] for x in done),
            "wall": wall,
            "per_hour": len(lines) / wall * 3600,
            "median_paper_s": statistics.median(x["seconds"] for x in done) if done else 0.0,
            "worker_mb": max(per_worker.values(), default=0.0),
            "workers_seen": len(per_worker),
            "reader_mb": max(reader.values(), default=0.0),
        }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", type=Path, default=SHARED / "pdfs", help="folder of PDFs (default ../shared/pdfs)")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts (default 1,2)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per worker count; the median is reported")
    ap.add_argument("--stores", type=Path, default=ROOT.parent / "bench-stores", help="cache folder for the store")
    args = ap.parse_args()
    missing = [p for p in (args.pdfs, SAMPLE, WORLD) if not p.exists()]
    if missing:
        print(f"# shared data absent ({', '.join(map(str, missing))}): nothing measured")
        return
    store = build_store(args.stores)
    print(f"# {' '.join(sys.argv)}")
    print(f"# pdfs {args.pdfs}; store {store} (DBLP sample + world.jsonl); offline; cores {os.cpu_count()}")
    print(
        "| workers | papers | references | wall s | papers/hour | median s/paper | peak MB per worker | "
        "peak MB PDF reader | load before |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for workers in [int(w) for w in args.workers.split(",")]:
        runs = []
        load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
        for _ in range(args.repeat):
            runs.append(run_once(args.pdfs, store, workers))
        r = sorted(runs, key=lambda x: x["wall"])[len(runs) // 2]
        print(
            f"| {workers} | {r['papers']:.0f} ({r['checked']:.0f} checked) | {r['references']:.0f} | {r['wall']:.1f} | "
            f"{r['per_hour']:.0f} | {r['median_paper_s']:.2f} | {r['worker_mb']:.0f} | {r['reader_mb']:.0f} | {load} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
