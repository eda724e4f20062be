"""HALLMARK benchmark: accuracy of the whole verification pipeline, offline, memory only.

Fills a fresh store from the world file, checks every entry of the split
through the same Checker the CLI uses, writes predictions in HALLMARK's JSONL
format, and prints DR, FPR, F1, tier-weighted F1, the share ending Potential,
per-type and per-tier tables, a confusion matrix of our primary code against
HALLMARK's hallucination_type, and throughput.

DR, FPR and F1 are HALLMARK's (../shared/README.md "HALLMARK metrics": Potential counts
as VALID). Beside them DR(P3) and FPR(P3) count a P3 verdict as flagged too: a real
work cited with conflicts (a partial author list, a year off by one) is Potential by
principle, but the reports put it first for a chair to look at (issue 39), so this is
what a chair who reads the P3 rows catches, and what it costs on VALID entries.

    python bench/hallmark.py [--split JSONL] [--world JSONL] [--out PREDICTIONS.jsonl]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

from citetracer import collector
from citetracer.config import Settings
from citetracer.extract import reference_from_json
from citetracer.mirror.jsonl import add_jsonl
from citetracer.pipeline import Checker
from citetracer.records import CitationResult, Reference
from citetracer.store.db import Store

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "hallmark"


def evidence_present(entries: list[dict[str, Any]], world: Path) -> set[str]:
    """Keys of entries whose real counterpart is in the world file.

    An entry's counterpart is present when the world holds its DOI or a title at least
    75% similar to its title (the near-miss threshold); fully fabricated entries have no
    counterpart by construction and always count as present.
    """
    titles: list[str] = []
    dois = set()
    with world.open() as fh:
        for line in fh:
            rec = json.loads(line)
            titles.append(_words(rec.get("title") or ""))
            titles.extend(_words(v.get("title") or "") for v in rec.get("variants") or [])
            if rec.get("doi"):
                dois.add(rec["doi"].lower())
    present = set()
    for e in entries:
        f = e["fields"]
        fabricated = e.get("hallucination_type") == "plausible_fabrication"
        doi_known = (f.get("doi") or "").lower() in dois
        similar = process.extractOne(_words(f.get("title", "")), titles, scorer=fuzz.ratio, score_cutoff=75)
        if fabricated or doi_known or similar:
            present.add(e["bibtex_key"])
    return present


def _words(t: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", t.lower()))


def load_split(split: Path, limit: int | None = None) -> tuple[list[dict[str, Any]], list[Reference]]:
    """The split's entries and their references, read exactly as the CLI reads JSONL input."""
    entries = [json.loads(line) for line in split.open() if line.strip()][:limit]
    return entries, [reference_from_json(e) for e in entries]


def metrics(entries: list[dict[str, Any]], predicted: dict[str, str]) -> dict[str, float]:
    tp = fn = fp = tn = 0
    wtp = wfn = 0.0
    for e in entries:
        hall = e["label"] == "HALLUCINATED"
        pred = predicted[e["bibtex_key"]] == "HALLUCINATED"
        w = float(e.get("difficulty_tier") or 1)
        if hall and pred:
            tp += 1
            wtp += w
        elif hall:
            fn += 1
            wfn += w
        elif pred:
            fp += 1
        else:
            tn += 1
    dr = tp / (tp + fn) if tp + fn else 0.0
    fpr = fp / (fp + tn) if fp + tn else 0.0
    prec = tp / (tp + fp) if tp + fp else 0.0
    f1 = 2 * prec * dr / (prec + dr) if prec + dr else 0.0
    wprec = wtp / (wtp + fp) if wtp + fp else 0.0
    wrec = wtp / (wtp + wfn) if wtp + wfn else 0.0
    wf1 = 2 * wprec * wrec / (wprec + wrec) if wprec + wrec else 0.0
    return {
        "n": len(entries),
        "DR": dr,
        "FPR": fpr,
        "F1": f1,
        "tier_weighted_F1": wf1,
        "TP": tp,
        "FN": fn,
        "FP": fp,
        "TN": tn,
    }


def flagged(result: CitationResult, p3: bool = False) -> bool:
    """Whether a verdict counts as HALLUCINATED: strictly (class Hallucinated, HALLMARK's metric), or with
    `p3` also a Potential P3 (a real work cited with conflicts, which every report lists first for a chair)."""
    v = result.verdict
    return v.class_ == "Hallucinated" or (p3 and v.class_ == "Potential" and v.code == "P3")


def predicted_labels(entries: list[dict[str, Any]], results: list[CitationResult], p3: bool = False) -> dict[str, str]:
    """Each entry's predicted label (see `flagged`)."""
    return {
        e["bibtex_key"]: "HALLUCINATED" if flagged(r, p3) else "VALID" for e, r in zip(entries, results, strict=True)
    }


def prediction(entry: dict[str, Any], result: CitationResult) -> dict[str, Any]:
    v = result.verdict
    label = "HALLUCINATED" if flagged(result) else "VALID"
    return {
        "bibtex_key": entry["bibtex_key"],
        "label": label,
        "confidence": round(v.confidence, 3),
        "reason": f"{v.class_} {','.join(v.codes)}: {v.rationale}"[:1000],
        "subtest_results": {},
        "api_sources_queried": [o.source for o in result.cost.sources],
        "wall_clock_seconds": result.cost.seconds,
        "api_calls": result.cost.connector_calls,
        "source": "tool",
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", type=Path, default=SHARED / "dev_public.jsonl")
    ap.add_argument("--world", type=Path, default=SHARED / "world.jsonl")
    ap.add_argument("--out", type=Path, default=Path("bench/out/hallmark_predictions.jsonl"))
    ap.add_argument("--store", type=Path, help="use this store instead of a fresh one filled from --world")
    ap.add_argument(
        "--coverage",
        choices=["closed", "venue"],
        default="closed",
        help="closed: the world file is the whole scholarly world (HALLMARK's setting); "
        "venue: citetracer's default, absence counts only in venues the store covers",
    )
    ap.add_argument("--errors", type=int, default=0, help="print this many misjudged entries")
    args = ap.parse_args()
    args.closed_world = args.coverage == "closed"
    if not args.split.exists() or (args.store is None and not args.world.exists()):
        print(f"HALLMARK data not found ({args.split}, {args.world}): benchmark skipped.")
        return 0

    entries, refs = load_split(args.split)
    with tempfile.TemporaryDirectory() as tmp:
        store_path = args.store or Path(tmp) / "store.sqlite"
        t0 = time.perf_counter()
        store = Store(store_path)
        if args.store is None:
            # In "venue" mode the world file is declared complete per venue-year (HALLMARK built it to
            # hold every work its split cites), so absence counts only inside venue-years it holds.
            add_jsonl(store, args.world, "world", complete=args.coverage == "venue")
        build_s = time.perf_counter() - t0
        settings = Settings(store=store_path, offline=True, concurrency=1, closed_world=args.closed_world)
        checker = Checker(settings, store=store)
        collector.for_batch()  # as the `check` and `scan` commands set a batch process's collector
        t1, c1 = time.perf_counter(), time.process_time()
        results = asyncio.run(checker.check_references(refs))
        check_s, check_cpu = time.perf_counter() - t1, time.process_time() - c1
        checker.close()

    args.out.parent.mkdir(parents=True, exist_ok=True)
    predicted: dict[str, str] = {}
    with args.out.open("w") as fh:
        for e, r in zip(entries, results, strict=True):
            p = prediction(e, r)
            predicted[e["bibtex_key"]] = p["label"]
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")

    present = evidence_present(entries, args.world)
    evidenced = [e for e in entries if e["bibtex_key"] in present]
    with_p3 = predicted_labels(entries, results, p3=True)
    overall, overall_p3 = metrics(entries, predicted), metrics(entries, with_p3)
    with_evidence, with_evidence_p3 = metrics(evidenced, predicted), metrics(evidenced, with_p3)
    potential = sum(1 for r in results if r.verdict.class_ == "Potential") / len(results)

    print(f"HALLMARK {args.split.name}: {len(entries)} entries; world {args.world.name}; store built in {build_s:.1f}s")
    print(
        f"command: python bench/hallmark.py --split {args.split} --world {args.world} --out {args.out} "
        f"--coverage {args.coverage}"
    )
    print(f"\n{'subset':<22}{'n':>6}{'DR':>8}{'FPR':>8}{'F1':>8}{'twF1':>8}{'DR(P3)':>9}{'FPR(P3)':>9}")
    for name, m, m3 in (("all entries", overall, overall_p3), ("evidence present", with_evidence, with_evidence_p3)):
        print(
            f"{name:<22}{m['n']:>6}{m['DR']:>8.3f}{m['FPR']:>8.3f}{m['F1']:>8.3f}{m['tier_weighted_F1']:>8.3f}"
            f"{m3['DR']:>9.3f}{m3['FPR']:>9.3f}"
        )
    print("(DR, FPR, F1: Potential counts as VALID; DR(P3), FPR(P3): a P3 verdict counts as flagged too)")
    print(f"\nshare ending Potential: {potential:.3f}")
    print(
        f"throughput: {len(entries) / check_s:.0f} citations/s wall ({check_s:.2f} s for {len(entries)}, "
        f"one process), {len(entries) / check_cpu:.0f} citations per CPU-second"
    )

    by_type: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    by_tier: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    confusion: dict[str, Counter[str]] = defaultdict(Counter)
    classes: dict[str, Counter[str]] = defaultdict(Counter)
    for e, r in zip(entries, results, strict=True):
        t = e.get("hallucination_type") or "VALID"
        ok = predicted[e["bibtex_key"]] == e["label"]
        ok_p3 = with_p3[e["bibtex_key"]] == e["label"]
        tier = str(e.get("difficulty_tier") or "valid")
        for row in (by_type[t], by_tier[tier]):
            row[0] += ok
            row[1] += 1
            row[2] += ok_p3
        confusion[t][r.verdict.code] += 1
        classes[t][r.verdict.class_] += 1
    print("\nshare judged correctly per type (a hallucination type's DR; VALID: 1 - FPR), strict and with P3 flagged")
    print(f"{'type':<24}{'n':>5}{'correct':>9}{'corr(P3)':>10}{'Real':>6}{'Pot':>6}{'P3':>6}{'Hall':>6}")
    for t in sorted(by_type, key=lambda x: (x == "VALID", x)):
        ok, n, ok_p3 = by_type[t]
        c = classes[t]
        print(
            f"{t:<24}{n:>5}{ok / n:>9.3f}{ok_p3 / n:>10.3f}{c['Real']:>6}{c['Potential']:>6}{confusion[t]['P3']:>6}"
            f"{c['Hallucinated']:>6}"
        )
    print(f"\n{'tier':<10}{'n':>5}{'correct':>9}{'corr(P3)':>10}")
    for tier in sorted(by_tier):
        ok, n, ok_p3 = by_tier[tier]
        print(f"{tier:<10}{n:>5}{ok / n:>9.3f}{ok_p3 / n:>10.3f}")
    codes = ["R1", "R2", "R3", "P1", "P2", "P3", "H1", "H2", "H3", "H4", "H5", "H6"]
    print("\nconfusion: HALLMARK type (rows) x our primary code (columns)")
    print(f"{'':<24}" + "".join(f"{c:>5}" for c in codes))
    for t in sorted(confusion, key=lambda x: (x == "VALID", x)):
        print(f"{t:<24}" + "".join(f"{confusion[t][c]:>5}" for c in codes))
    if args.errors:
        print("\nmisjudged entries:")
        shown = 0
        for e, r in zip(entries, results, strict=True):
            if predicted[e["bibtex_key"]] != e["label"] and shown < args.errors:
                shown += 1
                print(f"- [{e.get('hallucination_type') or 'VALID'}] {json.dumps(e['fields'])[:300]}")
                print(f"    -> {r.verdict.class_} {r.verdict.codes}: {r.verdict.rationale[:400]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
