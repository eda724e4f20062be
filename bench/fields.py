"""Every field a citation states, checked: real records mutated field by field (issue 46).

Real records are sampled (seeded) from the store a user builds with `citetracer mirror dblp
dblp-large.xml.gz` + `citetracer mirror add world.jsonl` (bench/realpapers.py's "large" store,
reused read-only): DBLP journal articles with pages and volume, DBLP proceedings papers with
pages whose proceedings record names the publisher, the series volume and the city, and
world.jsonl's conference papers. Each is cited as BibTeX (bench/fieldrecords.py) and then
changed one field at a time by the rules of bench/fieldmutations.py, each labelled with what
the checker owes it (H / P / Real / notH; the unmutated original is Real, and its false-H
share is the precision figure).

Three settings:
- large: offline against the large store as it is (the default rule);
- closed: offline, `--closed-world`, against a store of just the cited records plus their
  neighbours (the DBLP records of the same venue-year and the proceedings record; all of world.jsonl);
- online: an empty store against the fake web (tests/fakeweb) serving the same records with
  their pages, volume, issue, publisher and conference city in each service's own reply shape.

Printed per mutation and setting: n, Real / Potential / Hallucinated, the expected class, the
share caught (H where H is owed; Real kept for an honest sibling; never Real for P; never H for
notH), the most frequent codes, and a few verdicts' rationales verbatim.

    python bench/fields.py [--limit 50] [--seed 46] [--settings large,closed,online]
                           [--examples 2] [--store-dir DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from citetracer.config import Settings  # noqa: E402
from citetracer.extract import read_text  # noqa: E402
from citetracer.mirror.jsonl import add_jsonl  # noqa: E402
from citetracer.pipeline import Checker  # noqa: E402
from citetracer.records import CitationResult, WorkRecord  # noqa: E402
from citetracer.store.db import Store  # noqa: E402
from fieldmutations import MUTATIONS, Mutation  # noqa: E402
from fieldrecords import Sample, base_fields, proceedings_location, render_bibtex, sample_dblp, world_samples  # noqa: E402

#: ../shared beside the checkout, or where $CITETRACER_SHARED says (a worktree elsewhere).
SHARED = Path(os.environ.get("CITETRACER_SHARED", ROOT.parent / "shared"))
WORLD = SHARED / "data" / "hallmark" / "world.jsonl"
DUMP = SHARED / "data" / "dblp" / "dblp-large.xml.gz"
#: The publisher Crossref names for a DOI prefix (its member name), served online for a record whose
#: source states none (Crossref always states one). From Crossref's member list, as of 2026.
CROSSREF_MEMBERS = {
    "10.1109": "Institute of Electrical and Electronics Engineers (IEEE)",
    "10.1007": "Springer Science and Business Media LLC",
    "10.1145": "Association for Computing Machinery (ACM)",
    "10.1016": "Elsevier BV",
    "10.18653": "Association for Computational Linguistics",
    "10.1609": "Association for the Advancement of Artificial Intelligence (AAAI)",
}
SETTINGS = ("large", "closed", "online")


@dataclass
class Citation:
    key: str
    sample: Sample
    mutation: Mutation
    bibtex: str


@dataclass
class Outcome:
    cls: str
    code: str
    codes: list[str]
    rationale: str
    fields: list[str] = field(default_factory=list)
    #: The sources of the evidence the verdict names (which service's record it rests on).
    sources: list[str] = field(default_factory=list)


def caught(expect: str, cls: str) -> bool:
    """Whether a verdict of class `cls` is what a citation labelled `expect` is owed."""
    return {
        "H": cls == "Hallucinated",
        "P": cls != "Real",
        "Real": cls == "Real",
        "notH": cls != "Hallucinated",
    }[expect]


def make_citations(pools: list[list[Sample]], limit: int, seed: int) -> list[Citation]:
    """Up to `limit` citations per mutation (every sample used gets its original too), records taken in
    turn from each pool (DBLP articles, DBLP proceedings papers, world records) in a seeded order."""
    order: list[Sample] = []
    for i in range(max(len(p) for p in pools)):
        order.extend(p[i] for p in pools if i < len(p))
    out: list[Citation] = []
    used: dict[str, Sample] = {}
    for m_index, mutation in enumerate(MUTATIONS):
        if mutation.name == "original":
            continue
        n = 0
        for s_index, sample in enumerate(order):
            if n >= limit:
                break
            rng = random.Random(f"{seed}/{mutation.name}/{sample.key}")
            fields = mutation.rule(sample, base_fields(sample), rng)
            if fields is None:
                continue
            n += 1
            key = f"m{m_index}s{s_index}"
            out.append(Citation(key, sample, mutation, render_bibtex(key, fields)))
            used.setdefault(sample.key, sample)
    original = MUTATIONS[0]
    for i, sample in enumerate(used.values()):
        key = f"orig{i}"
        out.append(Citation(key, sample, original, render_bibtex(key, base_fields(sample))))
    return out


def check(citations: list[Citation], settings: Settings, store: Store | None = None) -> list[Outcome]:
    """Each citation read from its BibTeX and checked; one outcome per citation, in order."""
    read = read_text("\n\n".join(c.bibtex for c in citations), ".bib")
    refs = {r.label: r for r in read.references}
    missing = [c.key for c in citations if c.key not in refs]
    if missing:
        raise SystemExit(f"the BibTeX reader lost {len(missing)} citations: {missing[:5]}")
    checker = Checker(settings, store=store) if store is not None else Checker(settings)
    try:
        results = asyncio.run(checker.check_references([refs[c.key] for c in citations]))
    finally:
        checker.close()
    return [outcome(r) for r in results]


def outcome(r: CitationResult) -> Outcome:
    v = r.verdict
    sources = list(dict.fromkeys(str(e.get("source")) for e in v.evidence))
    return Outcome(v.class_, v.code, list(v.codes), " ".join(v.rationale.split()), list(v.fields), sources)


def closed_records(large: Path, citations: list[Citation]) -> list[WorkRecord]:
    """The DBLP records of the cited samples and their neighbours, read from the large store."""
    keys = list(
        dict.fromkeys(k for c in citations if c.sample.source == "dblp" for k in (c.sample.key, *c.sample.neighbours))
    )
    with Store(large, readonly=True) as store:
        rids = [rid for k in keys if (rid := store.rid_of_key(k)) is not None]
        return list(store.records(rids).values())


def build_closed_store(path: Path, records: list[WorkRecord]) -> None:
    """A store of just these DBLP records (DBLP declared complete, as `mirror dblp` does) and world.jsonl."""
    with Store(path) as store:
        store.upsert(records)
        store.set_source_complete("dblp")
        store.set_meta("source_date:dblp", "2016-01-01")
        add_jsonl(store, WORLD, "world")


def served_objects(records: list[WorkRecord]) -> list[dict[str, Any]]:
    """The records as the fake web's records file gives them: world.jsonl's layout plus pages, volume,
    issue, publisher, the conference city and the proceedings volume (tests/fakeweb/corpus.py)."""
    volumes = {r.id: r for r in records if r.type == "proceedings"}
    out = []
    for r in records:
        if r.type == "proceedings":
            continue
        obj: dict[str, Any] = {
            "id": f"dblp-{r.id}",
            "title": r.title,
            "authors": [p.display() for p in r.authors],
            "year": r.year,
            "venue": r.venue,
            "venue_full": r.venue_full,
            "doi": r.doi,
            "arxiv_id": r.arxiv_id,
            "url": r.url,
            "type": r.type,
            "dblp_key": r.id,
            "pages": r.pages,
            "volume": r.volume,
            "issue": r.issue,
            "publisher": r.publisher,
        }
        place = proceedings_location(r.venue_full) if r.venue_full and r.type == "inproceedings" else None
        if place:  # DBLP's title of the volume names the city; the other services name the conference alone
            obj["location"], obj["venue_full"], obj["proceedings_title"] = place[0], place[1], r.venue_full
        crossref = next((k for k, v in volumes.items() if v.venue_full == r.venue_full), None) if r.venue_full else None
        if crossref:
            obj["crossref"] = crossref
            obj["publisher"] = obj["publisher"] or volumes[crossref].publisher
            obj["series_volume"] = volumes[crossref].volume
        out.append(obj)
    for line in WORLD.read_text(encoding="utf-8").splitlines():
        out.append(json.loads(line))
    for obj in out:
        prefix = (obj.get("doi") or "").split("/")[0]
        if not obj.get("publisher") and prefix in CROSSREF_MEMBERS:
            obj["publisher"] = CROSSREF_MEMBERS[prefix]
    return out


def run_setting(name: str, citations: list[Citation], large: Path, tmp: Path) -> tuple[list[Outcome], float]:
    t0 = time.perf_counter()
    if name == "large":
        settings = Settings(store=large, offline=True, remember_verified=False)
        settings.online.memo = False
        outcomes = check(citations, settings, Store(large, readonly=True))
    elif name == "closed":
        path = tmp / "closed.sqlite"
        build_closed_store(path, closed_records(large, citations))
        settings = Settings(store=path, offline=True, closed_world=True, remember_verified=False)
        settings.online.memo = False
        outcomes = check(citations, settings)
    else:
        from tests.fakeweb.server import FakeWeb

        from online import check_online  # bench/online.py

        served = tmp / "served.jsonl"
        objects = served_objects(closed_records(large, citations))
        served.write_text("".join(json.dumps(o) + "\n" for o in objects))
        read = read_text("\n\n".join(c.bibtex for c in citations), ".bib")
        refs = {r.label: r for r in read.references}
        with FakeWeb(served) as web:
            results, _ = check_online(web, [refs[c.key] for c in citations], tmp / "online.sqlite")
        outcomes = [outcome(r) for r in results]
    return outcomes, time.perf_counter() - t0


def pool_of(sample: Sample) -> str:
    """Which pool a record came from: a DBLP journal article, a DBLP proceedings paper, or world.jsonl."""
    if sample.source == "world":
        return "world"
    return "article" if sample.kind == "article" else "proceedings"


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def report(citations: list[Citation], runs: dict[str, list[Outcome]], examples: int) -> dict[str, Any]:
    """The tables (per setting, then caught side by side) and the rationales; returns the figures."""
    by_mutation: dict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(citations):
        by_mutation[c.mutation.name].append(i)
    figures: dict[str, Any] = {}
    for name, outcomes in runs.items():
        print(f"\n## {name}\n")
        print("| mutation | field | expect | n | Real | Pot | Hall | caught | codes |")
        print("|---|---|---|---|---|---|---|---|---|")
        figures[name] = {}
        for m in MUTATIONS:
            idx = by_mutation.get(m.name, [])
            cls = Counter(outcomes[i].cls for i in idx)
            codes = Counter(outcomes[i].code for i in idx)
            ok = sum(caught(m.expect, outcomes[i].cls) for i in idx)
            top = ", ".join(f"{c} {k}" for c, k in codes.most_common(4))
            print(
                f"| {m.name} | {m.field} | {m.expect} | {len(idx)} | {cls['Real']} | {cls['Potential']} | "
                f"{cls['Hallucinated']} | {pct(ok, len(idx))} | {top} |"
            )
            figures[name][m.name] = {"n": len(idx), **dict(cls), "caught": ok, "codes": dict(codes)}
    print("\n## caught, side by side (H owed: share H; Real owed: share Real; P: never Real; notH: never H)\n")
    names = list(runs)
    print("| mutation | expect | n (article/proc./world) | " + " | ".join(names) + " |")
    print("|---|---|---|" + "---|" * len(names))
    for m in MUTATIONS:
        idx = by_mutation.get(m.name, [])
        cells = [pct(sum(caught(m.expect, runs[n][i].cls) for i in idx), len(idx)) for n in names]
        kinds = Counter(pool_of(citations[i].sample) for i in idx)
        split = "/".join(str(kinds[k]) for k in ("article", "proceedings", "world"))
        print(f"| {m.name} | {m.expect} | {len(idx)} ({split}) | " + " | ".join(cells) + " |")
    orig = by_mutation.get("original", [])
    for n in names:
        false_h = sum(runs[n][i].cls == "Hallucinated" for i in orig)
        print(f"- {n}: originals judged Hallucinated {false_h}/{len(orig)} = {pct(false_h, len(orig))} (target 0)")
        figures[n]["false_h_originals"] = [false_h, len(orig)]
    if examples:
        print("\n## verdicts verbatim (misjudged first)\n")
        for m in MUTATIONS:
            idx = by_mutation.get(m.name, [])
            if not idx:
                continue
            print(f"### {m.name} (expect {m.expect}: {m.why})")
            for n in names:  # misjudged ones first, each group in a seeded order (not always the same records)
                shuffled = random.Random(f"{n}/{m.name}").sample(idx, len(idx))
                ranked = sorted(shuffled, key=lambda i, n=n: caught(m.expect, runs[n][i].cls))
                for i in ranked[:examples]:
                    o, c = runs[n][i], citations[i]
                    mark = "ok" if caught(m.expect, o.cls) else "MISS"
                    print(
                        f"- [{n}, {mark}] {o.cls} {o.code} {o.codes} {o.fields} from {o.sources}: {o.rationale[:400]}"
                    )
                    print(f"    cited: {' '.join(c.bibtex.split())[:300]}")
    return figures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int, default=50, help="citations per mutation (originals: every record used)")
    ap.add_argument("--seed", type=int, default=46)
    ap.add_argument("--settings", default=",".join(SETTINGS), help="large, closed, online (comma-separated)")
    ap.add_argument("--examples", type=int, default=2, help="rationales printed per mutation and setting")
    ap.add_argument(
        "--store-dir",
        type=Path,
        default=Path(os.environ.get("CITETRACER_BENCH_STORES", Path.home() / ".cache" / "citetracer" / "bench")),
        help="where bench/realpapers.py keeps the large store ($CITETRACER_BENCH_STORES)",
    )
    ap.add_argument("--json", type=Path, help="write the figures and every citation's verdicts here")
    args = ap.parse_args()
    names = [n for n in args.settings.split(",") if n]
    if bad := [n for n in names if n not in SETTINGS]:
        ap.error(f"unknown setting {bad}; choose from {', '.join(SETTINGS)}")
    print(
        f"# python bench/fields.py --limit {args.limit} --seed {args.seed} --settings {','.join(names)}"
        f" --examples {args.examples}"
    )
    if not DUMP.exists() or not WORLD.exists():
        print(f"../shared data not found ({DUMP}, {WORLD}): nothing to measure")
        return 0
    large = args.store_dir / "large.sqlite"
    marker = large.with_suffix(".built")
    if large.exists() and not marker.exists():
        print(f"{large} exists but is not finished (no {marker.name}): another run is building it; try later")
        return 0
    if not large.exists():
        from realpapers import build_store

        build_store("large", args.store_dir)
    t0 = time.perf_counter()
    per_pool = 6 * args.limit
    dblp = sample_dblp(large, args.seed, {"article": per_pool, "inproceedings": per_pool})
    articles = [s for s in dblp if s.kind == "article"]
    papers = [s for s in dblp if s.kind == "inproceedings"]
    world = world_samples(WORLD, args.seed, per_pool)
    citations = make_citations([articles, papers, world], args.limit, args.seed)
    used = {c.sample.key for c in citations}
    print(
        f"# {len(citations)} citations of {len(used)} real records ({sum(k.startswith('dblp:') for k in used)} DBLP, "
        f"{sum(k.startswith('world:') for k in used)} world.jsonl); store {large}"
    )
    runs: dict[str, list[Outcome]] = {}
    seconds: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        for name in names:
            runs[name], seconds[name] = run_setting(name, citations, large, Path(tmp_name))
            print(f"# {name}: {seconds[name]:.0f} s", flush=True)
    figures = report(citations, runs, args.examples)
    print(f"\n# total {time.perf_counter() - t0:.0f} s; machine: 2 cores shared with other work (times indicative)")
    if args.json:
        settings = {**vars(args), "store_dir": str(args.store_dir), "json": str(args.json)}
        verdicts = [
            {
                "key": c.key,
                "mutation": c.mutation.name,
                "record": c.sample.key,
                "pool": pool_of(c.sample),
                "bibtex": c.bibtex,
                **{n: {"class": runs[n][i].cls, "codes": runs[n][i].codes, "rationale": runs[n][i].rationale}
                   for n in runs},
            }
            for i, c in enumerate(citations)
        ]  # fmt: skip
        out = {"args": settings, "seconds": seconds, "figures": figures, "citations": verdicts}
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
