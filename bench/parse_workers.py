"""What the parser workers buy: one OpenAlex part file mirrored into a fresh SQLite store twice, with the
parsing in worker processes (as shipped: one per core when the input is over `PARALLEL_BYTES`) and in the
writing process (`PARALLEL_BYTES` raised past the input's size), one after the other on the same machine.
Prints wall seconds, CPU seconds of the process tree, records/s and the tree's peak RSS for each; run it
on an otherwise idle machine, and in both orders (`--order serial,parallel`) to see what the order costs.

    python bench/parse_workers.py PART.gz [--workdir DIR] [--order parallel,serial]

A part of a generated snapshot: `python bench/snapshots.py openalex 500000 SNAPSHOT`, then
SNAPSHOT/data/works/updated_date=*/part_000.gz.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.mirror import run_command

#: Runs the CLI with argv[2:]; argv[1] 'serial' parses in the writing process.
_RUN = (
    "import sys\nimport citetracer.mirror.openalex as openalex\n"
    "if sys.argv[1] == 'serial':\n    openalex.PARALLEL_BYTES = 1 << 62\n"
    "from citetracer.cli import main\nsys.exit(main(sys.argv[2:]))\n"
)


def ingest(part: Path, store: Path, mode: str) -> dict[str, object]:
    """`citetracer mirror openalex PART --store STORE` in a subprocess, parsed as `mode` says."""
    load = os.getloadavg()[0]
    runner = [sys.executable, "-c", _RUN, mode]
    wall, peak, rc, cpu = run_command(["openalex", str(part), "--store", str(store)], runner)
    from citetracer.store.api import open_store

    with open_store(store, readonly=True) as opened:
        records = opened.index.count()
    return {
        "parsing": mode,
        "exit code": rc,
        "records": records,
        "wall s": round(wall, 1),
        "cpu s": round(cpu, 1),
        "records/s": round(records / wall) if wall else 0,
        "peak RSS GB": round(peak / 1e9, 2),
        "load before": round(load, 2),
        "load after": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("part", type=Path)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--order", default="parallel,serial")
    args = parser.parse_args()
    if not args.part.is_file():
        print(f"{args.part}: no such part file (generate one with bench/snapshots.py openalex)")
        return 2
    print(f"python bench/parse_workers.py {' '.join(sys.argv[1:])}   ({os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory(dir=args.workdir) as scratch:
        for mode in args.order.split(","):
            print(json.dumps(ingest(args.part, Path(scratch) / f"{mode}.sqlite", mode)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
