"""A conference at a time: `citetracer scan` over N synthetic papers, offline, with 1 and 2 workers.

Each paper is a reference list (a LaTeX .bbl, as the authors' BibTeX run writes it) of real works drawn
at random from the store's DBLP records (articles and proceedings papers with authors, year, venue and
pages), written in one of four citation styles (plainnat, IEEEtran, ACL natbib, APA). About a tenth of
the references (--fabricated) are planted fabrications of six kinds:

- invented: a work that does not exist (a title spliced from two real titles, invented authors);
- venue: the real work with another real venue of the same kind;
- pages: the real work with another page range;
- author: one author replaced by an invented person;
- year: the year moved by 2 to 4;
- doi: a made-up DOI under the real DOI's prefix (only for works that have a DOI).

The truth of every reference goes to truth.json beside the papers. The scan is run as a chair runs it
(`python -m citetracer scan DIR -o OUT --offline --read-only --store STORE --workers N`), and the bench
prints papers/hour, citations/s (wall), CPU ms per citation (the scan's whole process tree: getrusage of
the children), the peak resident memory of each worker (the journal's /proc VmHWM), the verdict counts,
the share of each planted kind flagged (Hallucinated, and Hallucinated or P3), and the honest references
judged Hallucinated. Results are matched to references by their order in the paper (a paper whose
reference count differs is reported and left out of the detection figures).

The last line extrapolates the measured CPU cost per citation to 20,000 papers x 50 references on 16 cores:
an extrapolation (it assumes the cores scale as 1 -> 2 workers did here), not a measurement.

    python bench/conference.py --store STORE [--papers 200] [--refs 40] [--workers 1,2] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citetracer.records import WorkRecord
from citetracer.store.codec import decode

CLI = [sys.executable, "-m", "citetracer"]
KINDS = ("invented", "venue", "pages", "author", "year", "doi")
STYLES = ("plainnat", "ieee", "acl", "apa")
_GIVEN = "Alena Boris Chiara Dmitri Esther Farid Greta Hiroshi Ines Jonas Kalani Liesel Mateo Nadia Orrin".split()
_FAMILY = "Quennell Brautigam Szabados Villacorta Ekwueme Haldorsen Montiel Prokopenko Tesfaye Wrenfield".split()
_PAGES = re.compile(r"^(\d+)-(\d+)$")


@dataclass
class Ref:
    """One reference as written in a paper: the fields and its truth (None: honest, else the kind planted)."""

    title: str
    authors: list[tuple[str, str]]
    year: int
    venue: str
    kind: str  # article | inproceedings
    pages: str | None
    doi: str | None
    planted: str | None = None


def sample_records(store: Path, n: int, rnd: random.Random) -> list[WorkRecord]:
    """`n` random DBLP articles and proceedings papers of the store that a paper could cite."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    top = db.execute("SELECT max(rid) FROM records").fetchone()[0]
    out: list[WorkRecord] = []
    while len(out) < n:
        rids = rnd.sample(range(1, top + 1), min(top, 4 * (n - len(out)) + 50))
        marks = ",".join("?" * len(rids))
        for key, data, typ in db.execute(f"SELECT key, data, type FROM records WHERE rid IN ({marks})", rids):
            if typ not in ("article", "inproceedings") or not key.startswith("dblp:"):
                continue
            r = decode(data, key)
            if r.title and r.authors and r.year and r.venue and r.pages and _PAGES.match(r.pages):
                out.append(r)
    db.close()
    return out[:n]


def honest(r: WorkRecord) -> Ref:
    people = [(p.given or "", p.family) for p in r.authors]
    kind = "article" if r.type == "article" else "inproceedings"
    return Ref(r.title or "", people, r.year or 0, r.venue or "", kind, r.pages, r.doi)


def plant(ref: Ref, kind: str, pool: list[WorkRecord], rnd: random.Random) -> Ref:
    """`ref` with a fabrication of `kind` planted."""
    ref.planted = kind
    if kind == "invented":
        a, b = rnd.sample(pool, 2)
        wa, wb = (a.title or "").rstrip(".").split(), (b.title or "").rstrip(".").split()
        ref.title = " ".join(wa[: max(2, len(wa) // 2)] + wb[len(wb) // 2 :])
        ref.authors = [(rnd.choice(_GIVEN), rnd.choice(_FAMILY)) for _ in range(rnd.randint(2, 4))]
        ref.doi = None
    elif kind == "venue":
        other = next(r for r in rnd.sample(pool, 50) if r.venue and r.venue != ref.venue and _same_kind(r, ref))
        ref.venue = other.venue or ref.venue
    elif kind == "pages":
        a, b = (int(x) for x in _PAGES.match(ref.pages or "1-2").groups())  # type: ignore[union-attr]
        shift = rnd.randint(40, 400)
        ref.pages = f"{a + shift}-{b + shift}"
    elif kind == "author":
        i = rnd.randrange(len(ref.authors))
        ref.authors[i] = (rnd.choice(_GIVEN), rnd.choice(_FAMILY))
    elif kind == "year":
        ref.year += rnd.choice([-4, -3, -2, 2, 3])
    elif kind == "doi":
        prefix = (ref.doi or "10.1109/x").split("/")[0]
        ref.doi = f"{prefix}/{rnd.randint(1000, 9999)}.{rnd.randint(100000, 999999)}"
    return ref


def _same_kind(r: WorkRecord, ref: Ref) -> bool:
    return ("article" if r.type == "article" else "inproceedings") == ref.kind


def _tex(s: str) -> str:
    return re.sub(r"([&%$#_])", r"\\\1", s)


def _initials(given: str) -> str:
    return " ".join(f"{g[0]}." for g in re.split(r"[\s-]+", given) if g)


def _join(names: list[str], last: str = "and") -> str:
    if len(names) <= 2:
        return f" {last} ".join(names)
    return ", ".join(names[:-1]) + f", {last} " + names[-1]


def render(ref: Ref, style: str) -> str:
    """The reference as `style` writes it (the text of one \\bibitem, with \\newblock)."""
    a, b = (ref.pages or "").split("-") if ref.pages else ("", "")
    title, venue = _tex(ref.title.rstrip(".")), _tex(ref.venue)
    doi = f" \\newblock doi: {ref.doi}." if ref.doi and style in ("plainnat", "acl") else ""
    if style == "plainnat":
        names = _join([f"{g} {f}".strip() for g, f in ref.authors])
        where = (
            f"\\emph{{{venue}}}, pages {a}--{b}" if ref.kind == "article" else f"In \\emph{{{venue}}}, pages {a}--{b}"
        )
        return f"{names}.\n\\newblock {title}.\n\\newblock {where}, {ref.year}.{doi}"
    if style == "ieee":
        names = _join([f"{_initials(g)} {f}".strip() for g, f in ref.authors])
        where = f"\\emph{{{venue}}}" if ref.kind == "article" else f"in \\emph{{Proc. {venue}}}"
        tail = f" [Online]. Available: https://doi.org/{ref.doi}" if ref.doi else ""
        return f"{names}, ``{title},'' {where}, {ref.year}, pp. {a}--{b}.{tail}"
    if style == "acl":
        names = _join([f"{g} {f}".strip() for g, f in ref.authors])
        where = (
            f"\\emph{{{venue}}}, pages {a}--{b}" if ref.kind == "article" else f"In \\emph{{{venue}}}, pages {a}--{b}"
        )
        return f"{names}. {ref.year}.\n\\newblock {title}.\n\\newblock {where}.{doi}"
    names = _join([f"{f}, {_initials(g)}".strip(", ") for g, f in ref.authors], "\\&")
    tail = f" https://doi.org/{ref.doi}" if ref.doi else ""
    return f"{names} ({ref.year}).\n\\newblock {title}.\n\\newblock \\emph{{{venue}}}, {a}--{b}.{tail}"


def write_papers(folder: Path, store: Path, papers: int, refs: int, share: float, seed: int) -> dict[str, Any]:
    """Write the papers' .bbl files into `folder` and return their truth (paper name -> planted kinds)."""
    rnd = random.Random(seed)
    counts = [max(5, int(rnd.gauss(refs, refs / 4))) for _ in range(papers)]
    pool = sample_records(store, sum(counts) + 200, rnd)
    extra, records = pool[-200:], iter(pool)
    truth: dict[str, Any] = {}
    for i, n in enumerate(counts):
        style = STYLES[i % len(STYLES)]
        paper = [honest(next(records)) for _ in range(n)]
        for ref in paper:
            if rnd.random() < share:
                # a made-up DOI only where the work has one: on a record without a DOI no offline check can
                # tell a made-up DOI from one the store lacks
                plant(ref, rnd.choice([k for k in KINDS if k != "doi" or ref.doi]), extra, rnd)
        name = f"paper{i:05d}-{style}"
        items = "\n\n".join(f"\\bibitem{{r{k}}}\n{render(ref, style)}" for k, ref in enumerate(paper))
        (folder / f"{name}.bbl").write_text(
            f"\\begin{{thebibliography}}{{{n}}}\n\n{items}\n\n\\end{{thebibliography}}\n"
        )
        truth[name] = [ref.planted for ref in paper]
    (folder.parent / "truth.json").write_text(json.dumps(truth))
    return truth


def run_scan(papers: Path, store: Path, workers: int, out: Path) -> dict[str, Any]:
    """One scan; wall time, the children's CPU time, and the journal's lines."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # --restart: a scan resumes from its folder's journal, so a second run into a kept folder would skip the
    # papers already checked and time nothing
    cmd = [*CLI, "scan", str(papers), "-o", str(out), "--offline", "--read-only", "--exit-zero", "--restart"]
    cmd += ["--store", str(store), "--workers", str(workers)]
    start = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode not in (0, 1):
        raise SystemExit(f"scan failed ({run.returncode}): {run.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    journal = [json.loads(x) for x in (out / "journal.jsonl").read_text().splitlines()[1:]]
    return {"wall": wall, "cpu": cpu, "journal": journal}


def verdicts(out: Path, truth: dict[str, Any]) -> tuple[Counter[str], Counter[tuple[str, str]], list[str], int]:
    """Verdict counts; (planted kind or 'honest', outcome) counts; the honest references judged H; papers
    whose reference count differs from the truth."""
    counts: Counter[str] = Counter()
    outcome: Counter[tuple[str, str]] = Counter()
    false_h: list[str] = []
    misaligned = 0
    for name, planted in truth.items():
        path = out / "papers" / f"{name}.json"
        if not path.exists():
            misaligned += 1
            continue
        cites = json.loads(path.read_text()).get("citations") or []
        for c in cites:
            counts[_verdict(c)] += 1
        if len(cites) != len(planted):
            misaligned += 1
            continue
        for c, kind in zip(cites, planted, strict=True):
            v = _verdict(c)
            label = "H" if v.startswith("Hallucinated") else "P3" if v.endswith("P3") else "other"
            outcome[(kind or "honest", label)] += 1
            if kind is None and label == "H" and len(false_h) < 30:
                false_h.append(f"{name}: {v}: {(c.get('reference') or {}).get('raw', '')[:160]!r} -- {_why(c)[:200]}")
    return counts, outcome, false_h, misaligned


def _verdict(c: dict[str, Any]) -> str:
    v = c.get("verdict") or {}
    return f"{v.get('class') or v.get('class_')} {v.get('code') or ''}".strip()


def _why(c: dict[str, Any]) -> str:
    return str((c.get("verdict") or {}).get("rationale") or "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", type=Path, required=True, help="a store built by citetracer mirror (SQLite file)")
    ap.add_argument("--papers", type=int, default=200)
    ap.add_argument("--refs", type=int, default=40, help="mean references per paper")
    ap.add_argument("--fabricated", type=float, default=0.1, help="share of planted fabrications")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="keep the papers and reports in this folder")
    args = ap.parse_args()
    if not args.store.exists():
        print(f"# store {args.store} absent: nothing measured")
        return 0
    with tempfile.TemporaryDirectory(prefix="conference-") as tmp:
        root = args.keep or Path(tmp)
        papers = root / "papers"
        papers.mkdir(parents=True, exist_ok=True)
        for stale in papers.glob("*.bbl"):  # a kept folder's papers of an earlier run are not in this truth
            stale.unlink()
        truth = write_papers(papers, args.store, args.papers, args.refs, args.fabricated, args.seed)
        n_refs = sum(len(v) for v in truth.values())
        planted = Counter(k for v in truth.values() for k in v if k)
        print(f"# {' '.join(sys.argv)}")
        print(f"# {len(truth)} papers, {n_refs} references, planted {dict(planted)}; store {args.store}; offline")
        print(f"# machine: {os.cpu_count()} cores; load before {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(
            "| workers | wall s | papers/hour | citations/s | CPU ms/citation | "
            "peak MB of each worker process (recycled every 100 papers) | load after |"
        )
        print("|---:|---:|---:|---:|---:|---|---|")
        cost = 0.0
        last: Path | None = None
        for workers in [int(w) for w in args.workers.split(",")]:
            out = root / f"report-{workers}"
            r = run_scan(papers, args.store, workers, out)
            peak: dict[int, float] = {}
            for x in r["journal"]:
                peak[x.get("worker", 0)] = max(peak.get(x.get("worker", 0), 0.0), x.get("worker_rss_mb", 0.0))
            cost = r["cpu"] / n_refs
            load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
            print(
                f"| {workers} | {r['wall']:.0f} | {len(truth) / r['wall'] * 3600:.0f} | {n_refs / r['wall']:.1f} | "
                f"{cost * 1000:.1f} | {', '.join(f'{m:.0f}' for m in peak.values())} | {load} |",
                flush=True,
            )
            last = out
        assert last is not None
        counts, outcome, false_h, misaligned = verdicts(last, truth)
        print(f"\nverdicts: {dict(counts.most_common())}; papers left out of the detection figures: {misaligned}")
        print("| planted | n | flagged H | H or P3 |\n|---|---:|---:|---:|")
        for kind in (*KINDS, "honest"):
            n = sum(v for (k, _), v in outcome.items() if k == kind)
            h, p3 = outcome[(kind, "H")], outcome[(kind, "P3")]
            if n:
                print(f"| {kind} | {n} | {h / n:.1%} | {(h + p3) / n:.1%} |")
        print("\nhonest references judged Hallucinated (a sample):")
        for line in false_h[:15]:
            print("  " + line)
        total = 20_000 * 50
        hours = total * cost / 16 / 3600
        print(
            f"\nEXTRAPOLATION (not measured): 20,000 papers x 50 references = {total:,} citations at the measured "
            f"{cost * 1000:.1f} CPU ms each on 16 cores = {hours:.1f} h, if 16 workers scale like the cores "
            "(store reads shared, no PDF reading: these papers are .bbl reference lists)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
