"""A fleet screening online, simulated: W workers, 20,000 papers, the services' real polite rates shared by all.

What is measured and what is assumed:
- measured here: which services the pipeline asks and how often, per citation: HALLMARK's dev split checked
  online against the fake scholarly web (tests/fakeweb, 127.0.0.1) with an EMPTY store (the cold case: no
  mirror, no memo), rate limits off (bench/cascade.py's run 1); and the offline seconds per paper (CPU, one
  core per worker), given on the command line from bench/cluster.py's scan figure;
- taken from sources.py: each service's polite rate and burst, shared by the whole fleet (store/turns.py);
- assumed (no network here): each service's reply latency (`LATENCY`, seconds; typical public-API
  figures, not measured) and the paper size (40 citations).

The model, in virtual time: each worker checks one paper at a time, its offline part first, then its
citations 8 at a time (Settings.concurrency); a citation makes its calls one after another; each call takes
the service's next turn from one global GCRA bucket (the same rule as store/turns.py) unless that turn is
more than the rate budget (1 s) away, in which case it is not sent ("skipped (rate budget)", as the HTTP
layer does; with `rate_budget = None` every call waits for its turn), then waits the service's latency.
Printed: wall time, calls sent and skipped per citation,
each service's use of its polite rate, and the bottleneck.

    python bench/fleet.py [--workers 8,32,128] [--papers 20000] [--offline-seconds 1.8] [--limit N]
"""

from __future__ import annotations

import argparse
import heapq
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from tests.fakeweb.server import FakeWeb  # noqa: E402

from cascade import LAST_STATS, SHARED, run  # noqa: E402
from citetracer.sources import BY_NAME  # noqa: E402
from hallmark import load_split  # noqa: E402

#: Assumed reply latency per service, seconds (not measured: this machine has no network).
LATENCY = {"arxiv": 1.0, "dblp": 0.6, "semanticscholar": 0.5, "pubmed": 0.5, "europepmc": 0.5}
DEFAULT_LATENCY = 0.35
RATE_BUDGET = 1.0
CITATIONS_PER_PAPER = 40
CONCURRENCY = 8


def measure_mix(limit: int | None) -> tuple[list[int], Counter[str]]:
    """Calls per citation (each citation's count) and calls per service, online with an empty store."""
    _entries, refs = load_split(SHARED / "dev_public.jsonl", limit)
    with tempfile.TemporaryDirectory() as tmp, FakeWeb(SHARED / "world.jsonl") as web:
        results, _ = run(web, refs, Path(tmp) / "s.sqlite")
    per_citation = [r.cost.connector_calls for r in results]
    by_source = Counter({name: s.calls for name, s in LAST_STATS.items() if s.calls})
    return per_citation, by_source


def simulate(
    workers: int,
    papers: int,
    offline: float,
    per_citation: list[int],
    by_source: Counter[str],
    budget: float | None = RATE_BUDGET,
    seed: int = 5,
) -> dict[str, object]:
    rng = random.Random(seed)
    names = list(by_source)
    weights = [by_source[n] for n in names]
    tat = dict.fromkeys(names, 0.0)  # GCRA: each service's theoretical arrival time
    sent: Counter[str] = Counter()
    skipped: Counter[str] = Counter()

    def turn(source: str, now: float) -> float | None:
        known = BY_NAME.get(source)
        rate = known.rate if known is not None else 5.0
        step, burst = 1.0 / rate, max(1, int(rate))
        start = max(tat[source], now) - (burst - 1) * step
        delay = max(0.0, start - now)
        if budget is not None and delay > budget:
            return None
        tat[source] = max(tat[source], now) + step
        return delay

    # Events: (time, seq, kind, worker, slot). A citation is a list of calls; a slot runs one citation at a time.
    events: list[tuple[float, int, str, int, int]] = []
    seq = 0
    queue = papers
    left: dict[int, int] = {}  # citations of the worker's paper not yet started
    running: dict[int, int] = {}  # citations in flight
    calls_left: dict[tuple[int, int], list[str]] = {}
    busy_cpu = 0.0

    def push(t: float, kind: str, w: int, slot: int = 0) -> None:
        nonlocal seq
        seq += 1
        heapq.heappush(events, (t, seq, kind, w, slot))

    def start_paper(w: int, now: float) -> None:
        nonlocal queue, busy_cpu
        if queue <= 0:
            return
        queue -= 1
        busy_cpu += offline
        push(now + offline, "online", w)

    def start_citation(w: int, slot: int, now: float) -> None:
        left[w] -= 1
        running[w] += 1
        k = rng.choice(per_citation)
        calls_left[(w, slot)] = rng.choices(names, weights, k=k) if k else []
        push(now, "call", w, slot)

    for w in range(workers):
        start_paper(w, 0.0)
    end = 0.0
    while events:
        now, _, kind, w, slot = heapq.heappop(events)
        end = max(end, now)
        if kind == "online":
            left[w], running[w] = CITATIONS_PER_PAPER, 0
            for s in range(min(CONCURRENCY, CITATIONS_PER_PAPER)):
                start_citation(w, s, now)
        elif kind == "call":
            todo = calls_left[(w, slot)]
            if todo:
                source = todo.pop()
                delay = turn(source, now)
                if delay is None:
                    skipped[source] += 1
                    push(now, "call", w, slot)
                else:
                    sent[source] += 1
                    push(now + delay + LATENCY.get(source, DEFAULT_LATENCY), "call", w, slot)
            else:
                running[w] -= 1
                if left[w] > 0:
                    start_citation(w, slot, now)
                elif running[w] == 0:
                    start_paper(w, now)
    citations = papers * CITATIONS_PER_PAPER
    use = {s: round(sent[s] / end / (BY_NAME[s].rate if s in BY_NAME else 5.0), 2) for s in names}
    cpu_share = busy_cpu / (workers * end)
    hottest = max(use, key=lambda s: use[s])
    if use[hottest] >= 0.9:
        bottleneck = f"{hottest}'s polite rate ({use[hottest]:.0%} used)"
    else:
        bottleneck = f"the workers (CPU {cpu_share:.0%})"
    return {
        "workers": workers,
        "rate budget": f"{budget:g} s" if budget is not None else "none (every call waits for its turn)",
        "wall hours": round(end / 3600, 2),
        "calls sent per citation": round(sum(sent.values()) / citations, 2),
        "calls skipped (rate budget) per citation": round(sum(skipped.values()) / citations, 2),
        "worker CPU share": round(cpu_share, 2),
        "polite rate used": use,
        "bottleneck": bottleneck,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", default="8,32,128")
    ap.add_argument("--papers", type=int, default=20_000)
    ap.add_argument("--offline-seconds", type=float, default=1.8, help="offline seconds per paper (one core)")
    ap.add_argument("--limit", type=int, help="measure the call mix on the first N dev citations only")
    args = ap.parse_args()
    print(f"# python bench/fleet.py {' '.join(sys.argv[1:])}; load {os.getloadavg()[0]:.1f}")
    if not (SHARED / "dev_public.jsonl").exists():
        print(f"# {SHARED} is absent: simulation skipped")
        return
    per_citation, by_source = measure_mix(args.limit)
    n = len(per_citation)
    print(f"measured call mix ({n} HALLMARK dev citations, empty store, fake web): "
          f"{sum(per_citation) / n:.2f} calls per citation; per service: "
          + ", ".join(f"{s} {c / n:.2f}" for s, c in by_source.most_common()))  # fmt: skip
    for w in (int(x) for x in args.workers.split(",")):
        for budget in (RATE_BUDGET, None):
            print(simulate(w, args.papers, args.offline_seconds, per_citation, by_source, budget), flush=True)


if __name__ == "__main__":
    main()
