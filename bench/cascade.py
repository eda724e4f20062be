"""Cascade benchmark: the online stages against the fake scholarly web (127.0.0.1 only).

Serves HALLMARK's world.jsonl through tests/fakeweb (DOIs via Crossref, DataCite
and doi.org, arXiv records via arXiv, DBLP-keyed records via DBLP, everything
via OpenAlex and Semantic Scholar) and checks the dev split with an EMPTY store:

1. accuracy (DR, FPR, F1) next to the memory-only run (store filled from world.jsonl,
   offline), and external calls per citation;
2. the same split again with the store warm from run 1 (verified links, the
   online records it learned and its evidence memo of what each source answered,
   collect/memo.py), with a cold HTTP cache; the same with the memo switched off
   (what the verified links and records alone save); and with the memo and the
   on-disk HTTP cache of run 1 both warm;
3. with 100 ms latency per request and the services' default polite rate limits:
   a 60-reference paper's wall time and the p95 time per citation;
4. fault runs (one source failing at a time, 429 storms, timeouts, malformed
   replies): citations Real in the clean run that turn Hallucinated (must be 0),
   the share ending P1, DR and FPR.

    python bench/cascade.py [--split JSONL] [--world JSONL] [--skip-faults] [--limit N]

Rate limits are off in runs 1, 2 and 4 (they would only add waiting); run 3 keeps
the defaults. Timing figures depend on the machine (2 shared cores here).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tests.fakeweb.server import FakeWeb, Fault  # noqa: E402

from citetracer.collect.http import SourceStats  # noqa: E402
from citetracer.config import OnlineSettings, Settings  # noqa: E402
from citetracer.mirror.jsonl import add_jsonl  # noqa: E402
from citetracer.pipeline import Checker  # noqa: E402
from citetracer.records import CitationResult, Reference  # noqa: E402
from citetracer.store.db import Store  # noqa: E402
from hallmark import load_split, metrics  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "hallmark"
#: The HTTP layer's per-source counters of the last run.
LAST_STATS: dict[str, SourceStats] = {}


def run(
    web: FakeWeb | None,
    refs: list[Reference],
    store: Path,
    cache: str = "",
    rate_limits: dict[str, float] | None = None,
    offline: bool = False,
    closed_world: bool = False,
    concurrency: int = 16,
    **online: Any,
) -> tuple[list[CitationResult], float]:
    settings = Settings(
        store=store,
        offline=offline,
        closed_world=closed_world,
        concurrency=concurrency,
        sources={**Settings().sources, **(web.sources() if web else {}), "searxng": ""},
        online=OnlineSettings(
            http_cache=cache,
            rate_limits={"*": 0} if rate_limits is None else rate_limits,
            fetch_pages=False,  # the landing pages of citations' URLs are real hosts: never fetched here
            **online,
        ),
    )
    checker = Checker(settings)
    t0 = time.perf_counter()
    try:
        results = asyncio.run(checker.check_references(refs))
    finally:
        checker.close()
    http = next((getattr(s, "http", None) for s in checker.stages if hasattr(s, "http")), None)
    LAST_STATS.clear()
    LAST_STATS.update(http.stats if http is not None else {})
    return results, time.perf_counter() - t0


def labels(results: list[CitationResult], entries: list[dict[str, Any]]) -> dict[str, str]:
    return {
        e["bibtex_key"]: "HALLUCINATED" if r.verdict.class_ == "Hallucinated" else "VALID"
        for e, r in zip(entries, results, strict=True)
    }


def calls(results: list[CitationResult]) -> float:
    return sum(r.cost.connector_calls for r in results) / len(results)


def row(name: str, entries: list[dict[str, Any]], results: list[CitationResult], secs: float) -> str:
    m = metrics(entries, labels(results, entries))
    pot = sum(r.verdict.class_ == "Potential" for r in results) / len(results)
    return f"{name:<34}{m['DR']:>7.3f}{m['FPR']:>7.3f}{m['F1']:>7.3f}{pot:>7.3f}{calls(results):>8.2f}{secs:>8.1f}"


def latency_run(web: FakeWeb, entries: list[dict[str, Any]], refs: list[Reference], tmpdir: Path) -> None:
    # Latency: 100 ms per request, default polite rate limits, fresh store and cache.
    # A real paper's references are mostly real: "paper" = 60 VALID entries; the stress
    # case is 60 consecutive entries of the split (about half of them fabricated).
    web.faults["*"] = Fault(latency=0.1)
    pairs = list(zip(refs, entries, strict=True))
    valid = [(r, e) for r, e in pairs if e["label"] == "VALID"][:60]
    default = Settings().concurrency
    papers = (
        (f"60 real references, {default} at a time", valid, default),
        ("60 real references, one at a time", valid, 1),
        (f"60 entries (half fabricated), {default} at a time", pairs[:60], default),
        ("60 entries (half fabricated), 16 at a time", pairs[:60], 16),
    )
    # The same 60 entries without rate limits: the verdicts the polite run should reproduce.
    ref_res, _ = run(web, [r for r, _ in pairs[:60]], tmpdir / "lat-ref.sqlite", concurrency=default)
    print("\n100 ms latency per request, default polite rate limits (DBLP 1/s, OpenAlex and Crossref 10/s, ...),")
    budget = OnlineSettings().rate_budget
    print(f"rate budget {budget} s per citation; targets: p95 <= 1.5 s per citation, <= 15 s per 60-reference paper")
    print(
        f"{'paper':<44}{'wall s':>8}{'median':>8}{'p95':>8}{'max':>8}{'calls':>7}{'http':>6}"
        f"{'DR':>7}{'FPR':>7}{'F1':>7}{'P1':>6}{'Pot':>6}"
    )
    for i, (label, paper, conc) in enumerate(papers):
        prefs, pentries = [r for r, _ in paper], [e for _, e in paper]
        lat, lat_s = run(web, prefs, tmpdir / f"lat{i}.sqlite", rate_limits={}, concurrency=conc)
        http = sum(v.calls for v in LAST_STATS.values()) / len(lat)  # batched requests included
        per = sorted(r.cost.seconds for r in lat)
        p95 = per[int(0.95 * (len(per) - 1))]
        p1 = sum(r.verdict.code == "P1" for r in lat) / len(lat)
        pot = sum(r.verdict.class_ == "Potential" for r in lat) / len(lat)
        m = metrics(pentries, labels(lat, pentries))
        print(
            f"{label:<44}{lat_s:>8.1f}{statistics.median(per):>8.2f}{p95:>8.2f}{per[-1]:>8.2f}"
            f"{calls(lat):>7.2f}{http:>6.2f}{m['DR']:>7.3f}{m['FPR']:>7.3f}{m['F1']:>7.3f}{p1:>6.2f}{pot:>6.2f}"
        )
        skipped = Counter(
            o.source for r in lat for o in r.cost.sources if o.status == "skipped" and "rate budget" in (o.detail or "")
        )
        asked = Counter(o.source for r in lat for o in r.cost.sources if o.status != "skipped")
        print(f"    asked {dict(asked)}; skipped for the rate budget {dict(skipped)}")
        if label.startswith("60 entries"):
            moved = Counter(
                f"{a.verdict.class_[0]}->{b.verdict.class_[0]}"
                for a, b in zip(ref_res, lat, strict=True)
                if a.verdict.class_ != b.verdict.class_
            )
            print(f"    verdict classes changed vs. the same entries without rate limits: {dict(moved) or 'none'}")
    web.faults.clear()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", type=Path, default=SHARED / "dev_public.jsonl")
    ap.add_argument("--world", type=Path, default=SHARED / "world.jsonl")
    ap.add_argument("--limit", type=int, help="check only the first N entries")
    ap.add_argument("--skip-faults", action="store_true")
    ap.add_argument("--latency-only", action="store_true", help="run 3 only (latency with default rate limits)")
    args = ap.parse_args()
    if not args.split.exists() or not args.world.exists():
        print(f"HALLMARK data not found ({args.split}, {args.world}): benchmark skipped.")
        return 0
    entries, refs = load_split(args.split, args.limit)
    cmd = f"python bench/cascade.py --split {args.split} --world {args.world}"
    if args.limit:
        cmd += f" --limit {args.limit}"
    print(f"cascade benchmark: {len(entries)} citations of {args.split.name}; fake web serving {args.world.name}")
    print(f"command: {cmd}{' --skip-faults' if args.skip_faults else ''}")
    print("machine: 2 cores shared with other work; times are indicative\n")

    if args.latency_only:
        with tempfile.TemporaryDirectory() as tmp, FakeWeb(args.world) as web:
            latency_run(web, entries, refs, Path(tmp))
        return 0
    header = f"{'run':<34}{'DR':>7}{'FPR':>7}{'F1':>7}{'Pot':>7}{'calls':>8}{'secs':>8}"
    with tempfile.TemporaryDirectory() as tmp, FakeWeb(args.world) as web:
        tmpdir = Path(tmp)
        # Memory-only baseline, as bench/hallmark.py runs it: the store filled from the world
        # file, offline, the world declared complete (closed world).
        base_store = tmpdir / "memory.sqlite"
        with Store(base_store) as s:
            add_jsonl(s, args.world, "world")
        mem, mem_s = run(None, refs, base_store, offline=True, closed_world=True)
        print(header)
        print(row("memory only (store = world.jsonl)", entries, mem, mem_s))

        store, cache = tmpdir / "online.sqlite", str(tmpdir / "http.sqlite")
        clean, clean_s = run(web, refs, store, cache)
        clean_stats = dict(LAST_STATS)
        print(row("online, empty store", entries, clean, clean_s))
        warm_store, nomemo_store = tmpdir / "warm.sqlite", tmpdir / "warm-nomemo.sqlite"
        warm_store.write_bytes(store.read_bytes())
        nomemo_store.write_bytes(store.read_bytes())
        with Store(warm_store) as s:
            memo_rows, kept = s.memo.counts(), s.stats()
        warm, warm_s = run(web, refs, warm_store)
        print(row("  store warm, HTTP cache cold", entries, warm, warm_s))
        nomemo, nomemo_s = run(web, refs, nomemo_store, memo=False)
        print(row("  same, memo off", entries, nomemo, nomemo_s))
        warm2, warm2_s = run(web, refs, store, cache)
        print(row("  store warm, HTTP cache warm", entries, warm2, warm2_s))
        replayed = sum(o.fetched_at is not None for r in warm for o in r.cost.sources)
        moved = Counter(
            f"{a.verdict.code}->{b.verdict.code}"
            for a, b in zip(clean, warm, strict=True)
            if a.verdict.code != b.verdict.code
        )
        print(
            f"\nwarm store: {calls(warm):.2f} calls/citation (target <= 0.3); memo after run 1: "
            f"{memo_rows.get('answered', 0)} answers, {memo_rows.get('failed', 0)} failures; "
            f"{replayed} source answers replayed from it; store after run 1: {kept['records']} records "
            f"({kept['verified_links']} verified links), {int(kept['sqlite_bytes']) / 1e6:.1f} MB SQLite"
        )
        print(
            f"verdict codes changed vs run 1 (richer store; classes unchanged unless F1 moved): "
            f"{sum(moved.values())} {dict(moved)}"
        )
        m_mem, m_on = metrics(entries, labels(mem, entries)), metrics(entries, labels(clean, entries))
        print(f"F1 online - memory-only: {m_on['F1'] - m_mem['F1']:+.3f}; FPR: {m_on['FPR'] - m_mem['FPR']:+.3f}")
        stages = Counter(r.verdict.stage for r in clean)
        print(f"cascade stopped at (empty store): {dict(stages)}")
        asked = Counter(o.source for r in clean for o in r.cost.sources if o.status != "skipped")
        print(f"sources consulted (empty store): {dict(asked)}")
        print(
            "HTTP counters (empty store): "
            + "; ".join(
                f"{k} {v.calls} calls, {v.bytes / 1e6:.1f} MB, {v.seconds:.1f} s"
                for k, v in sorted(clean_stats.items())
            )
        )

        latency_run(web, entries, refs, tmpdir)
        web.faults.clear()
        if args.skip_faults:
            return 0

        print("\nfault runs (fresh store and cache each): Real in clean run -> Hallucinated, share ending P1")
        print(f"{'fault':<34}{'R->H':>6}{'R->P':>6}{'P1':>7}{'DR':>7}{'FPR':>7}{'calls':>7}{'secs':>7}")
        real_clean = {e["bibtex_key"] for e, r in zip(entries, clean, strict=True) if r.verdict.class_ == "Real"}
        scenarios: list[tuple[str, dict[str, Fault], dict[str, Any]]] = [
            (f"{src} HTTP 500", {src: Fault(mode="status", status=500)}, {})
            for src in ("crossref", "datacite", "doi", "openalex", "dblp", "semanticscholar")
        ]
        scenarios += [
            (
                "all: 429 storm (1 in 2, Retry-After 1)",
                {"*": Fault(mode="status", status=429, retry_after="1", every=2)},
                {},
            ),
            ("all: 429 storm (every, Retry-After 30)", {"*": Fault(mode="status", status=429, retry_after="30")}, {}),
            ("all: 1 in 3 requests hang", {"*": Fault(mode="hang", every=3)}, {"timeout": 1.0, "deadline": 4.0}),
            ("all: 1 in 4 malformed", {"*": Fault(mode="malformed", every=4)}, {}),
            ("all: 1 in 4 connection resets", {"*": Fault(mode="reset", every=4)}, {}),
            (
                "openalex+semanticscholar down",
                {"openalex": Fault(mode="status", status=503), "semanticscholar": Fault(mode="status", status=503)},
                {},
            ),
        ]
        for i, (name, faults, online) in enumerate(scenarios):
            web.faults.clear()
            web.faults.update(faults)
            res, secs = run(web, refs, tmpdir / f"fault{i}.sqlite", **online)
            keyed = {e["bibtex_key"]: r for e, r in zip(entries, res, strict=True)}
            r2h = sum(keyed[k].verdict.class_ == "Hallucinated" for k in real_clean)
            r2p = sum(keyed[k].verdict.class_ == "Potential" for k in real_clean)
            p1 = sum(r.verdict.code == "P1" for r in res) / len(res)
            m = metrics(entries, labels(res, entries))
            print(f"{name:<34}{r2h:>6}{r2p:>6}{p1:>7.3f}{m['DR']:>7.3f}{m['FPR']:>7.3f}{calls(res):>7.2f}{secs:>7.1f}")
        web.faults.clear()
    return 0


if __name__ == "__main__":
    sys.exit(main())
