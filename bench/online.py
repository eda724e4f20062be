"""Online proof as strong as offline: the whole pipeline against the fake scholarly web (127.0.0.1 only).

Every run starts from an EMPTY store, so all evidence comes from the services' answers
(tests/fakeweb serves each service's real API shapes over a records file). Runs:

- hallmark: HALLMARK's dev split against a fake web serving world.jsonl (no rate limits):
  DR, FPR, F1, tier-weighted F1 (HALLMARK's: Potential counts as VALID), beside them DR(P3)
  and FPR(P3) (a P3 verdict counted as flagged: the reports list P3 first for a chair), the
  Potential share, calls per citation, per type; next to the offline closed-world run of the
  same split (bench/hallmark.py's setting).
- dblp-rate: the same, with the client's default polite rates and a DBLP that enforces one
  request a second itself (429 with Retry-After beyond it) and answers slowly (0.3 s):
  detection must not depend on DBLP's mood.
- hidden-broad: the fake web serves every real (VALID) entry's work from Semantic Scholar and
  Crossref/DataCite but not from OpenAlex: one broad index lacking a real paper must not make
  it Hallucinated (the other still has it).
- non-scholarly: real citations of software, datasets, models, reports, theses and books
  (the .bib entries of that kind in ../shared/pdfs/ml gold) against a fake web whose search
  indexes hold none of them (their DOIs resolve, as real DOIs do): none may turn Hallucinated.
- citeaudit: the citation strings of ../shared/data/citeaudit/citeaudit-dev.jsonl (one half,
  by --part) against a fake web serving world.jsonl plus a record made from each REAL string by
  our own field parser (an approximation of the real services' records: a real string's record
  is its own parse, so the real strings measure the pipeline's consistency more than the
  services' disagreements; --serve-share serves only that share of them, the rest absent as a
  work missing from every index is): detection of the fakes next to false accusations of the
  reals, per source type.

    python bench/online.py [--runs hallmark,dblp-rate,hidden-broad,non-scholarly,citeaudit]
                           [--limit N] [--part tune|report|all] [--serve-share 1.0] [--errors N]
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tests.fakeweb.server import FakeWeb, Fault  # noqa: E402

from citetracer.config import OnlineSettings, Settings  # noqa: E402
from citetracer.extract import read_text  # noqa: E402
from citetracer.extract.fields.parser import parse_reference_string  # noqa: E402
from citetracer.mirror.jsonl import add_jsonl  # noqa: E402
from citetracer.pipeline import Checker  # noqa: E402
from citetracer.records import CitationResult, Reference  # noqa: E402
from citetracer.store.db import Store  # noqa: E402
from hallmark import flagged, load_split, metrics, predicted_labels  # noqa: E402

SHARED = ROOT.parent / "shared"
HALLMARK = SHARED / "data" / "hallmark"
CITEAUDIT = SHARED / "data" / "citeaudit" / "citeaudit-dev.jsonl"
ML_GOLD = SHARED / "pdfs" / "ml"
#: Entry kinds of software, data, reports, theses and books in the ml papers' own .bib files.
NON_SCHOLARLY = ("misc", "software", "online", "dataset", "techreport", "book", "phdthesis", "mastersthesis", "manual")


def online_settings(web: FakeWeb, store: Path, rate_limits: dict[str, float] | None = None, **online: Any) -> Settings:
    """Settings of an online check against the fake web: an empty store at `store`, nothing remembered
    (no verified links, no evidence memo, no HTTP cache), no web search, rate limits off unless given."""
    return Settings(
        store=store,
        offline=False,
        concurrency=16,
        sources={**Settings().sources, **web.sources(), "searxng": ""},
        remember_verified=False,
        online=OnlineSettings(
            http_cache="",
            rate_limits={"*": 0} if rate_limits is None else rate_limits,
            fetch_pages=False,
            memo=False,
            **online,
        ),
    )


def check_online(
    web: FakeWeb, refs: list[Reference], store: Path, rate_limits: dict[str, float] | None = None, **online: Any
) -> tuple[list[CitationResult], float]:
    """Check `refs` with an empty store against the fake web; rate limits off unless given."""
    checker = Checker(online_settings(web, store, rate_limits, **online))
    t0 = time.perf_counter()
    try:
        results = asyncio.run(checker.check_references(refs))
    finally:
        checker.close()
    return results, time.perf_counter() - t0


def check_offline(refs: list[Reference], world: Path, store: Path) -> list[CitationResult]:
    with Store(store) as s:
        add_jsonl(s, world, "world")
    settings = Settings(store=store, offline=True, closed_world=True, concurrency=4)
    checker = Checker(settings)
    try:
        return asyncio.run(checker.check_references(refs))
    finally:
        checker.close()


def summary(name: str, entries: list[dict[str, Any]], results: list[CitationResult], secs: float) -> dict[str, Any]:
    m = metrics(entries, predicted_labels(entries, results))
    m3 = metrics(entries, predicted_labels(entries, results, p3=True))
    pot = sum(r.verdict.class_ == "Potential" for r in results) / len(results)
    calls = sum(r.cost.connector_calls for r in results) / len(results)
    print(
        f"{name:<38}{m['DR']:>7.3f}{m['FPR']:>7.3f}{m['F1']:>7.3f}{m['tier_weighted_F1']:>7.3f}"
        f"{m3['DR']:>8.3f}{m3['FPR']:>8.3f}{pot:>7.3f}{calls:>7.2f}{secs:>8.1f}"
    )
    asked: Counter[str] = Counter()
    for r in results:
        for o in r.cost.sources:
            if o.status != "skipped" and o.source != "memory" and o.fetched_at is None:
                asked[o.source] += 1
    real = [r for e, r in zip(entries, results, strict=True) if e["label"] == "VALID"]
    fake = [r for e, r in zip(entries, results, strict=True) if e["label"] != "VALID"]
    per = ", ".join(f"{k} {v / len(results):.2f}" for k, v in asked.most_common())
    print(
        f"    calls per citation: real {sum(r.cost.connector_calls for r in real) / max(len(real), 1):.2f}, "
        f"fabricated {sum(r.cost.connector_calls for r in fake) / max(len(fake), 1):.2f}; sources asked: {per}"
    )
    return {
        "DR": m["DR"],
        "FPR": m["FPR"],
        "DR_P3": m3["DR"],
        "FPR_P3": m3["FPR"],
        "F1": m["F1"],
        "twF1": m["tier_weighted_F1"],
        "potential": pot,
        "calls": calls,
        "seconds": secs,
    }


HEADER = (
    f"{'run':<38}{'DR':>7}{'FPR':>7}{'F1':>7}{'twF1':>7}{'DR(P3)':>8}{'FPR(P3)':>8}{'Pot':>7}{'calls':>7}{'secs':>8}\n"
    "(DR, FPR, F1: Potential counts as VALID; DR(P3), FPR(P3): a P3 verdict counts as flagged too)"
)


def per_type(entries: list[dict[str, Any]], runs: dict[str, list[CitationResult]]) -> None:
    """Per type, the share judged correctly in each run: strict, then with P3 counted as flagged."""
    names = list(runs)
    print(
        f"\n{'type':<26}{'n':>5}"
        + "".join(f"{n[:14]:>16}{'(P3)':>7}" for n in names)
        + "   (share judged correctly: strict, then with P3 flagged)"
    )
    by_type: dict[str, list[int]] = defaultdict(list)
    for i, e in enumerate(entries):
        by_type[e.get("hallucination_type") or "VALID"].append(i)
    for t in sorted(by_type):
        idx = by_type[t]
        hallucinated = t != "VALID"
        cells = []
        for n in names:
            ok = sum(flagged(runs[n][i]) == hallucinated for i in idx)
            ok_p3 = sum(flagged(runs[n][i], p3=True) == hallucinated for i in idx)
            cells.append(f"{ok / len(idx):>16.3f}{ok_p3 / len(idx):>7.3f}")
        print(f"{t:<26}{len(idx):>5}" + "".join(cells))


def show_errors(entries: list[dict[str, Any]], results: list[CitationResult], n: int) -> None:
    shown = 0
    for e, r in zip(entries, results, strict=True):
        bad = (r.verdict.class_ == "Hallucinated") != (e["label"] == "HALLUCINATED")
        if bad and shown < n:
            shown += 1
            print(f"- [{e.get('hallucination_type') or 'VALID'}] {json.dumps(e['fields'])[:240]}")
            print(f"    -> {r.verdict.class_} {r.verdict.codes}: {r.verdict.rationale[:400]}")


def hidden_world(world: Path, entries: list[dict[str, Any]], out: Path, hide: str) -> None:
    """The world file with `hide` removed from the services of every VALID entry's work."""
    valid = {(e["fields"].get("title") or "").casefold() for e in entries if e["label"] == "VALID"}
    from tests.fakeweb.corpus import _services

    with world.open() as src, out.open("w") as dst:
        for line in src:
            obj = json.loads(line)
            if (obj.get("title") or "").casefold() in valid:
                obj["services"] = sorted(_services(obj, variant=False) - {hide})
            dst.write(json.dumps(obj) + "\n")


def non_scholarly_refs() -> list[Reference]:
    refs = []
    for gold in sorted(ML_GOLD.glob("*.gold.json")):
        for g in json.loads(gold.read_text())["references"]:
            raw = (g.get("raw") or "").strip()
            kind = raw[1 : raw.find("{")].strip().lower() if raw.startswith("@") else ""
            # arXiv preprints filed as @misc are scholarly works every broad index holds: not this set.
            if kind in NON_SCHOLARLY and not re.search(r"eprint|arxiv|journal\s*=", raw, re.IGNORECASE):
                refs.extend(read_text(raw, ".bib").references)
    return refs


def record_of(ref: Reference, rid: str) -> dict[str, Any] | None:
    """A world-style record from a parsed reference string (what the fake web serves for a real string)."""
    if not ref.title:
        return None
    return {
        "id": rid,
        "title": ref.title,
        "authors": [p.display() for p in ref.authors],
        "year": ref.year,
        "venue": ref.venue,
        "venue_full": ref.venue,
        "doi": ref.doi,
        "arxiv_id": ref.arxiv_id,
        "type": "article" if ref.venue else None,
    }


def citeaudit(world: Path, part: str, share: float, tmp: Path, errors: int) -> dict[str, Any]:
    from realpapers import citeaudit_part

    rows = [json.loads(line) for line in CITEAUDIT.read_text().splitlines() if line.strip()]
    rows = [r for r in rows if part == "all" or citeaudit_part(r["citation"]) == part]
    refs = []
    for i, row in enumerate(rows):
        ref = parse_reference_string(" ".join(row["citation"].split()))
        ref.label = str(i + 1)
        refs.append(ref)
    served = tmp / "citeaudit-world.jsonl"
    reals = [i for i, r in enumerate(rows) if r["label"] == "real"]
    keep = set(reals[: round(share * len(reals))]) if share < 1 else set(reals)
    with served.open("w") as fh:
        fh.write(world.read_text())
        for i in sorted(keep):
            rec = record_of(refs[i], f"ca{i}")
            if rec is not None:
                fh.write(json.dumps(rec) + "\n")
    with FakeWeb(served) as web:
        results, secs = check_online(web, refs, tmp / "ca.sqlite")
    table: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for row, res in zip(rows, results, strict=True):
        table[(row["source_type"], row["label"])][res.verdict.class_] += 1
    print(
        f"\n## citeaudit-dev online ({part} half: {len(rows)} strings, {len(keep)} real strings served, {secs:.0f} s)"
    )
    print("| source type | label | strings | Real | Potential | Hallucinated | share H |")
    print("|---|---|---|---|---|---|---|")
    for (src, label), c in sorted(table.items()):
        n = sum(c.values())
        print(
            f"| {src} | {label} | {n} | {c['Real']} | {c['Potential']} | {c['Hallucinated']} | "
            f"{c['Hallucinated'] / n:.2%} |"
        )
    shown = 0
    for row, res in zip(rows, results, strict=True):
        if row["label"] == "real" and res.verdict.class_ == "Hallucinated" and shown < errors:
            shown += 1
            print(f"- real accused [{row['source_type']}] {res.verdict.codes}: {res.verdict.rationale[:300]}")
            print(f"    cited: {row['citation'][:220]}")
    shown = 0
    for row, res in zip(rows, results, strict=True):
        if row["label"] == "fake" and res.verdict.class_ != "Hallucinated" and shown < errors:
            shown += 1
            print(f"- fake missed [{row['source_type']}] {res.verdict.code}: {res.verdict.rationale[:300]}")
            print(f"    cited: {row['citation'][:220]}")
    return {f"{s}/{lab}": dict(c) for (s, lab), c in table.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", type=Path, default=HALLMARK / "dev_public.jsonl")
    ap.add_argument("--world", type=Path, default=HALLMARK / "world.jsonl")
    ap.add_argument("--runs", default="hallmark,dblp-rate,hidden-broad,non-scholarly,citeaudit")
    ap.add_argument("--limit", type=int, help="the first N HALLMARK entries only")
    ap.add_argument("--part", default="report", choices=("tune", "report", "all"), help="citeaudit half")
    ap.add_argument("--serve-share", type=float, default=1.0, help="share of citeaudit's real strings served")
    ap.add_argument("--errors", type=int, default=0, help="print this many misjudged entries per run")
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()
    if not args.split.exists() or not args.world.exists():
        print(f"HALLMARK data not found ({args.split}, {args.world}): benchmark skipped.")
        return 0
    runs = [r for r in args.runs.split(",") if r]
    print(f"# python bench/online.py --runs {args.runs}" + (f" --limit {args.limit}" if args.limit else ""))
    print("# empty store, fake web on 127.0.0.1; machine: 2 cores shared with other work (times indicative)")
    entries, refs = load_split(args.split, args.limit)
    figures: dict[str, Any] = {}
    by_run: dict[str, list[CitationResult]] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        hallmark_runs = [r for r in runs if r in ("hallmark", "dblp-rate", "hidden-broad")]
        if hallmark_runs:
            print(f"\nHALLMARK {args.split.name}: {len(entries)} entries\n")
            print(HEADER)
            offline = check_offline(refs, args.world, tmp / "offline.sqlite")
            by_run["offline closed"] = offline
            figures["offline closed"] = summary("offline, closed world (store = world)", entries, offline, 0.0)
        if "hallmark" in runs or "dblp-rate" in runs:
            with FakeWeb(args.world) as web:
                if "hallmark" in runs:
                    res, secs = check_online(web, refs, tmp / "online.sqlite")
                    by_run["online"] = res
                    figures["online"] = summary("online, empty store", entries, res, secs)
                if "dblp-rate" in runs:
                    web.faults["dblp"] = Fault(mode="rate", rate=1.0, latency=0.3)
                    res, secs = check_online(web, refs, tmp / "dblp.sqlite", rate_limits={})
                    web.faults.clear()
                    by_run["dblp 1/s + 429"] = res
                    figures["dblp-rate"] = summary("  polite rates, DBLP 1/s + 429 + 0.3 s", entries, res, secs)
        if "hidden-broad" in runs:
            world = tmp / "hidden.jsonl"
            hidden_world(args.world, entries, world, "openalex")
            with FakeWeb(world) as web:
                res, secs = check_online(web, refs, tmp / "hidden.sqlite")
            by_run["no openalex rec"] = res
            figures["hidden-broad"] = summary("  OpenAlex lacks every real work", entries, res, secs)
            real = [r for e, r in zip(entries, res, strict=True) if e["label"] == "VALID"]
            print(f"    real entries: {Counter(r.verdict.class_ for r in real)}")
        if by_run:
            per_type(entries, by_run)
            for name, res in by_run.items():
                if args.errors and name != "offline closed":
                    print(f"\nmisjudged ({name}):")
                    show_errors(entries, res, args.errors)
        if "non-scholarly" in runs:
            ns = non_scholarly_refs()
            # Their DOIs resolve (doi.org, and the registration agency) as real ones do; no search index
            # holds them.
            ns_world = tmp / "ns-world.jsonl"
            with ns_world.open("w") as fh:
                fh.write(args.world.read_text())
                for i, r in enumerate(ns):
                    if r.doi and r.title:
                        agency = "datacite" if r.doi.startswith(("10.48550/", "10.5281/")) else "crossref"
                        rec = {**(record_of(r, f"ns{i}") or {}), "services": ["doi", agency]}
                        fh.write(json.dumps(rec) + "\n")
            with FakeWeb(ns_world) as web:
                res, secs = check_online(web, ns, tmp / "ns.sqlite")
            counts = Counter(r.verdict.class_ for r in res)
            print(
                f"\nnon-scholarly real citations (software, data, reports, books of the ml gold .bib files): "
                f"{len(ns)}: {dict(counts)} ({secs:.0f} s)"
            )
            for r in res:
                if r.verdict.class_ == "Hallucinated":
                    print(
                        f"- accused {r.verdict.codes}: {r.verdict.rationale[:300]}\n    cited: {r.reference.raw[:200]}"
                    )
            figures["non-scholarly"] = dict(counts)
        if "citeaudit" in runs:
            if CITEAUDIT.exists():
                figures["citeaudit"] = citeaudit(args.world, args.part, args.serve_share, tmp, args.errors)
            else:
                print(f"{CITEAUDIT} not found: the citeaudit run is skipped")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
