"""`citetracer mirror dblp` against a bare lxml parse of the same dump: how much the ingest adds.

The bare parse is what any DBLP reader pays: the gzip'd XML decompressed and parsed by lxml with
the DTD (its entities), every record element visited and freed, nothing kept. The ingest is the
command a user runs (`python -m citetracer mirror dblp DUMP --store NEW`, a fresh store each time),
timed as a whole process tree: wall seconds and CPU seconds (its children's getrusage, the parser
processes included). Runs alternate (bare, ingest, bare, ...) so that a change in the machine's load
falls on both; the table gives every run with the load before it, then the medians and the ratios
of the medians (wall and CPU).

    python bench/ingest_ratio.py [--dump ../shared/data/dblp/dblp-sample.xml.gz] [--runs 3]
"""

from __future__ import annotations

import argparse
import gzip
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lxml import etree

from dblpsample import SAMPLE

#: The record elements of dblp.dtd.
RECORDS = ("article", "inproceedings", "proceedings", "book", "incollection", "phdthesis", "mastersthesis", "www")


def bare_parse(dump: Path) -> tuple[float, float, int]:
    """Wall s, CPU s and records of a bare lxml parse of `dump` (DTD entities resolved, elements freed)."""
    t, c = time.perf_counter(), time.process_time()
    n = 0
    with gzip.open(dump) if dump.suffix == ".gz" else dump.open("rb") as fh:
        for _, elem in etree.iterparse(
            fh, events=("end",), tag=RECORDS, load_dtd=True, resolve_entities=True, no_network=True, huge_tree=False
        ):
            n += 1
            elem.clear()
            while elem.getprevious() is not None:
                del elem.getparent()[0]
    return time.perf_counter() - t, time.process_time() - c, n


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def ingest(dump: Path, work: Path) -> tuple[float, float]:
    """Wall s and CPU s (the process tree) of `citetracer mirror dblp` into a new store."""
    store = work / f"s{time.monotonic_ns()}.sqlite"
    c0, t = _children_cpu(), time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "citetracer", "mirror", "dblp", str(dump), "--store", str(store)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - t, _children_cpu() - c0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dump", type=Path, default=SAMPLE)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workdir", type=Path, help="where the stores go (default: a temp dir)")
    args = ap.parse_args()
    if not args.dump.exists():
        print(f"# {args.dump} not found: nothing measured")
        return 0
    print(f"# python bench/ingest_ratio.py --dump {args.dump} --runs {args.runs}")
    print(f"# machine: {os.cpu_count()} cores")
    print("| run | load before | bare wall s | bare CPU s | ingest wall s | ingest CPU s |")
    print("|---:|---|---:|---:|---:|---:|")
    bare: list[tuple[float, float]] = []
    full: list[tuple[float, float]] = []
    records = 0
    with tempfile.TemporaryDirectory(prefix="ingest-ratio-", dir=args.workdir) as tmp:
        for run in range(1, args.runs + 1):
            load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
            wall, cpu, records = bare_parse(args.dump)
            bare.append((wall, cpu))
            full.append(ingest(args.dump, Path(tmp)))
            print(f"| {run} | {load} | {wall:.1f} | {cpu:.1f} | {full[-1][0]:.1f} | {full[-1][1]:.1f} |", flush=True)
    bw, bc = (statistics.median(x[i] for x in bare) for i in (0, 1))
    iw, ic = (statistics.median(x[i] for x in full) for i in (0, 1))
    print(f"\n{records:,} records; medians: bare {bw:.1f} s wall / {bc:.1f} CPU-s, ingest {iw:.1f} s / {ic:.1f} CPU-s")
    print(f"ingest / bare parse: {iw / bw:.2f} wall, {ic / bc:.2f} CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
