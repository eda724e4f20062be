"""Beyond one machine (issue 18): the PostgreSQL store against SQLite + tantivy, and scans on a local Dask cluster.

1. Store: `citetracer mirror dblp` of ../shared/data/dblp/dblp-sample.xml.gz into a SQLite store and into a
   PostgreSQL store (a throwaway server started here, tests/pgserver.py; COPY batches): wall time each; then
   bench/mirror.py's retrieval queries (real titles with 0/1/2 words changed, their authors and year; and
   fabricated titles under real authors) on both: recall and p50/p95 latency per query.
2. Scan: `citetracer scan PDFS --offline --cluster local --workers N` for N = 1, 2 on ../shared/pdfs against
   bench/scan.py's store (DBLP sample + HALLMARK world.jsonl, a fresh copy per run): papers per minute.

    python bench/cluster.py [--queries 2000] [--workers 1,2] [--pdfs DIR] [--skip-store] [--skip-scan]
    python bench/cluster.py --synthetic 1000000 --skip-scan    (bench/mirror.py's synthetic set, N records)

A fleet screening online (8-128 workers) is simulated by bench/fleet.py.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from tests import pgserver  # noqa: E402
from tests.conftest import pg_location  # noqa: E402

from dblpsample import DTD, SAMPLE, load_sample  # noqa: E402
from mirror import generate, retrieval  # noqa: E402
from scan import SHARED, build_store, copy_store  # noqa: E402

CLI = [sys.executable, "-m", "citetracer"]


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def bench_store(queries: int, synthetic: int) -> None:
    if not SAMPLE.exists():
        print(f"# {SAMPLE} is absent: store figures skipped")
        return
    sample = load_sample(SAMPLE, DTD)
    server = pgserver.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            dump = SAMPLE
            if synthetic:
                dump = Path(tmp) / "synthetic.xml.gz"
                shutil.copy(DTD, Path(tmp) / "dblp.dtd")
                generate(sample, synthetic, dump)
                print(f"# synthetic dump of {synthetic:,} records (bench/mirror.py's generator) at {dump}", flush=True)
            locations = {"sqlite+tantivy": str(Path(tmp) / "s.sqlite"), "postgresql": pg_location(server.url)}
            for name, where in locations.items():
                cmd = [*CLI, "mirror", "dblp", str(dump), "--dtd", str(DTD), "--store", where]
                seconds = timed(cmd)
                n = synthetic or len(sample)
                print(f"ingest {name}: {n:,} records in {seconds:.1f} s ({n / seconds:,.0f}/s), "
                      f"load {os.getloadavg()[0]:.1f}; command: citetracer mirror dblp {dump.name} --store ...",
                      flush=True)  # fmt: skip
            for name, where in locations.items():
                got = retrieval(where, sample, queries)
                print(f"retrieval {name}: " + json.dumps(got, indent=1), flush=True)
    finally:
        server.stop()


def bench_scan(pdfs: Path, workers: list[int]) -> None:
    if not pdfs.exists():
        print(f"# {pdfs} is absent: scan figures skipped")
        return
    store = build_store(ROOT.parent / "bench-stores")
    papers = sum(1 for _ in pdfs.rglob("*.pdf"))
    for n in workers:
        with tempfile.TemporaryDirectory() as tmp:
            copy = copy_store(store, Path(tmp))
            out = Path(tmp) / "out"
            cmd = [*CLI, "scan", str(pdfs), "-o", str(out), "--offline", "--store", str(copy), "--cluster", "local",
                   "--workers", str(n)]  # fmt: skip
            start = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            seconds = time.perf_counter() - start
            done = sum(1 for line in (out / "journal.jsonl").read_text().splitlines()[1:] if '"done"' in line)
            print(f"scan --cluster local --workers {n}: {done}/{papers} papers in {seconds:.1f} s = "
                  f"{60 * done / seconds:.1f} papers/min (cluster start-up included), load "
                  f"{os.getloadavg()[0]:.1f}; command: {' '.join(cmd[1:])}", flush=True)  # fmt: skip
            shutil.rmtree(out, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--pdfs", type=Path, default=SHARED / "pdfs")
    ap.add_argument("--synthetic", type=int, default=0, help="N: a synthetic dump of N records instead of the sample")
    ap.add_argument("--skip-store", action="store_true")
    ap.add_argument("--skip-scan", action="store_true")
    args = ap.parse_args()
    print(f"# python bench/cluster.py {' '.join(sys.argv[1:])}; {os.cpu_count()} cores, load {os.getloadavg()}")
    if not args.skip_store:
        bench_store(args.queries, args.synthetic)
    if not args.skip_scan:
        bench_scan(args.pdfs, [int(x) for x in args.workers.split(",")])


if __name__ == "__main__":
    main()
