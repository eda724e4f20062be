"""The second campaign's cases of several processes on one store (bench/hostile.py, issue 41).

Ingests killed with SIGKILL at 20 random points, two scans writing to one store, a check whose title index
is garbled or deleted midway, and a PostgreSQL store down at the first open (back after 3 s, and never).
Each case runs the real CLI in its own processes, as the tests of tests/mirror/test_hostile_mirrors.py and
tests/store/test_hostile_store.py do, and checks the same things.

The bench runs `python bench/hostile_runs.py CASE FOLDER RESULT` through its spawner, so the peak memory
it reports is the highest of this driver and the CLI processes it waits for. RESULT is a JSON file: the
outcome, and the seconds of each CLI process the case waited for (the bound of 60 s is per process).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import hostile_files as H  # noqa: E402
from tests.cliproc import SRC, run_cli  # noqa: E402

#: (outcome, seconds of each process, whether the case did what it says): what a case returns.
Outcome = tuple[str, list[float], bool]


def killed_ingests(folder: Path) -> Outcome:
    from tests.mirror.test_hostile_mirrors import kill_rounds

    seconds = kill_rounds(folder, rounds=20, seed=4141, size=20_000)
    return "20 kills: the store answered after each, the 4 ingests then ended whole", seconds, True


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], float]:
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True), time.monotonic()


def two_scans(folder: Path) -> Outcome:
    from tests.store.test_hostile_store import scan_folders, seeded, stats

    store = seeded(folder, 2000)
    env = {**os.environ, "PYTHONPATH": str(SRC), "CITETRACER_HTTP_CACHE": "", "CITETRACER_STORE": str(store)}
    runs = []
    for name, papers in zip(("a", "b"), scan_folders(folder), strict=True):
        out = str(folder / f"out-{name}")
        cmd = [sys.executable, "-m", "citetracer", "scan", str(papers), "-o", out, "--offline", "--workers", "2"]
        runs.append(_timed(cmd, env))
    seconds, codes, bad = [], [], 0
    for proc, start in runs:
        _, err = proc.communicate(timeout=600)
        seconds.append(time.monotonic() - start)
        codes.append(proc.returncode)
        bad += "Traceback" in err or "internal error" in err
    summaries = [json.loads(p.read_text())["summary"] for p in sorted(folder.glob("out-*/papers/*.json"))]
    agree = len(summaries) == 12 and all(s == summaries[0] for s in summaries)
    kept = stats(folder, store)["by_source"] == {"example": 12, "seed": 2000}
    ok = codes == [1, 1] and not bad and agree and kept
    outcome = f"exits {codes}; {len(summaries)} papers, {'the same' if agree else 'DIFFERENT'} verdicts"
    return outcome + ("; store whole" if kept else "; store CHANGED"), seconds, ok


def index_midcheck(folder: Path) -> Outcome:
    from tests.store.test_hostile_store import damage_index, seeded

    store = seeded(folder, 30_000)
    bib = folder / "many.bib"
    entries = (H.ENTRY.format(key=f"k{i}", title=f"A good record number {i * 7}") for i in range(3000))
    bib.write_text("".join(entries), encoding="utf-8")
    start = time.monotonic()
    want = json.loads(run_cli(folder, "check", str(bib), "--offline", "--store", str(store), "--format", "json").stdout)
    seconds, notes, ok = [time.monotonic() - start], [], True
    env = {**os.environ, "PYTHONPATH": str(SRC), "CITETRACER_HTTP_CACHE": ""}
    for damage in ("garble", "delete"):
        copy = folder / damage / "s.sqlite"
        shutil.copytree(folder, copy.parent, ignore=shutil.ignore_patterns("garble", "delete", "*.bib", "*.json"))
        out = copy.parent / "r.json"
        cmd = [sys.executable, "-m", "citetracer", "check", str(bib), "--offline", "--store", str(copy)]
        proc, start = _timed([*cmd, "--format", "json", "-o", str(out)], env)
        time.sleep(min(2.5, seconds[0] / 3))  # a third of the way through the check
        midway = proc.poll() is None
        damage_index(copy, damage)
        _, err = proc.communicate(timeout=600)
        seconds.append(time.monotonic() - start)
        (copy.parent / "stderr.txt").write_text(err, encoding="utf-8")
        same = proc.returncode == 0 and out.exists() and json.loads(out.read_text())["summary"] == want["summary"]
        ok = ok and same and midway and "Traceback" not in err and "internal error" not in err
        rebuilt = "rebuilt" if "was rebuilt" in err else "no rebuild said"
        when = "midway" if midway else "AFTER the end"
        said = "" if same else f" (exit {proc.returncode}: {err.strip().splitlines()[-1][:80] if err.strip() else ''})"
        notes.append(f"{damage}d {when}: {'same' if same else 'OTHER'} report{said}, {rebuilt}")
    return "; ".join(notes), seconds, ok


def pg_first_open(folder: Path) -> Outcome:
    from tests import pgserver
    from tests.conftest import pg_location
    from tests.web.conftest import EXAMPLE_RECORDS

    server = pgserver.start(max_connections=50)
    try:
        location = pg_location(server.url)
        server.pause()
        back = threading.Timer(3.0, server.resume)
        back.start()
        start = time.monotonic()
        added = run_cli(folder, "mirror", "add", str(EXAMPLE_RECORDS), "--store", location, timeout=120)
        seconds = [time.monotonic() - start]
        back.join()
        waited = "waiting up to 30 s for the store" in added.stderr
        server.pause()
        start = time.monotonic()
        never = run_cli(folder, "mirror", "stats", "--store", location, timeout=120)
        seconds.append(time.monotonic() - start)
        server.resume()
    finally:
        server.stop()
    errors = [line for line in never.stderr.splitlines() if line.startswith("error:")]
    clean = all("Traceback" not in p.stderr and "internal error" not in p.stderr for p in (added, never))
    ok = added.returncode == 0 and waited and never.returncode == 2 and len(errors) == 1 and clean
    outcome = f"back after 3 s: exit {added.returncode}{', waited' if waited else ''}; never: exit {never.returncode}"
    return outcome + (f", {errors[0][:50]}" if errors else ""), seconds, ok


CASES: dict[str, tuple[str, Callable[[Path], Outcome]]] = {
    "kill": ("mirror: 20 ingests killed -9 at random points", killed_ingests),
    "two-scans": ("store: two scans writing to one store", two_scans),
    "index": ("store: title index garbled / deleted mid-check", index_midcheck),
    "pg-first-open": ("store: PostgreSQL down at the first open", pg_first_open),
}


def main() -> int:
    name, folder, result = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    folder.mkdir(parents=True, exist_ok=True)
    outcome, seconds, ok = CASES[name][1](folder)
    result.write_text(json.dumps({"outcome": outcome, "seconds": seconds, "ok": ok}), encoding="utf-8")
    print(("" if ok else "FAILED: ") + outcome, file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
