"""Real papers as the judge: how many real citations of published papers end Hallucinated.

Every PDF under ../shared/pdfs (jose, ml, styles) is read by the Reference Extractor and
checked offline against a store of real records; every one of these papers' references
is real, so every Hallucinated verdict is a false accusation. Two stores:

- large: ../shared/data/dblp/dblp-large.xml.gz (846k DBLP records) + HALLMARK world.jsonl
- small: ../shared/data/dblp/dblp-sample.xml.gz (168k) + world.jsonl, for comparison
- large+arxiv, small+arxiv: the same plus an arXiv mirror of the works the ml gold lists cite
  by arXiv id (`gold_arxiv_snapshot`: approximate metadata, taken from the gold entries)

Each store is built once into --store-dir and reused (rebuilt when its inputs change).
Besides the PDFs, the papers' gold lists are checked without any PDF reading (matching
alone): the ml papers' .bib entries as BibTeX and their .bbl items as plain references;
JOSE gold references that carry a DOI as BibTeX entries with that DOI (the others are
Crossref field dumps in arbitrary order, which no citation looks like; they are counted
as left out).

Printed per paper: references extracted vs gold, verdict counts, and each Hallucinated
citation with its code, reason and reference text; then totals: share of citations
judged Hallucinated (target <= 0.1%) and papers with any (target <= 1 in 50).

`--citeaudit` also checks the citation strings of ../shared/data/citeaudit/citeaudit-dev.jsonl
(real ones taken from real PDFs, LLM-listed ones, and fakes of both kinds; labels carry some
noise), each parsed alone by the field parser: per source type and label, the verdict counts,
the false accusations of real strings and the detection of fakes. The strings are split in two
halves by a hash of the string (`--part tune|report|all`): rules are tuned on one half and
reported on the other. The "held" slice is the real strings whose work the store holds, found
without the judge: a stored record whose DOI or arXiv id the string carries, or whose whole
title is a phrase of the string with a year within one of a year in it (target: >= 95% Real,
none Hallucinated).

    python bench/realpapers.py [--stores large,small] [--sets jose,ml,styles] [--no-gold]
                               [--no-pdf] [--citeaudit] [--part tune|report|all]
                               [--store-dir DIR] [--json OUT] [--quiet]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citetracer.config import Settings
from citetracer.extract import InputError, read_references, read_text
from citetracer.extract.fields.parser import parse_reference_string
from citetracer.mirror.arxiv import ingest_arxiv
from citetracer.mirror.dblp import ingest_dblp
from citetracer.mirror.jsonl import add_jsonl
from citetracer.normalize.text import canonical_arxiv, canonical_doi, title_words
from citetracer.pipeline import Checker
from citetracer.records import CitationResult, Reference
from citetracer.store.db import Store

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
DBLP = SHARED / "data" / "dblp"
WORLD = SHARED / "data" / "hallmark" / "world.jsonl"
STORES = {"large": DBLP / "dblp-large.xml.gz", "small": DBLP / "dblp-sample.xml.gz"}
SETS = ("jose", "ml", "styles")
CITEAUDIT = SHARED / "data" / "citeaudit" / "citeaudit-dev.jsonl"
TARGET_SHARE, TARGET_PAPERS = 0.001, 1
#: Of real citations whose work the store holds: at least this share Real.
TARGET_HELD_REAL = 0.95


def gold_arxiv_snapshot(out: Path) -> int:
    """An arXiv metadata snapshot (Kaggle's JSON lines) of the works the ml papers' gold lists cite by arXiv id.

    Approximate: arXiv's own metadata is not here, so each record is made from the gold entries
    citing the id (its title as the first of them cites it; the longest author list among them,
    from the .bib entry when there is one, else the gold surnames, ending in "others" when that
    citation cut it; v1 dated the first of the id's month; the cited venue, when not arXiv, as
    journal-ref). Real arXiv records differ from the cited fields now and then; these rarely do,
    and a list cut by a citation stays marked cut.
    """
    works: dict[str, dict[str, Any]] = {}
    for gold_file in sorted((SHARED / "pdfs" / "ml").glob("*.gold.json")):
        for g in json.loads(gold_file.read_text())["references"]:
            arxiv = g.get("arxiv")
            if not arxiv or not g.get("title"):
                continue
            people: list[list[str]] = []
            raw = (g.get("raw") or "").strip()
            cut = "et al" in raw.lower() or " others" in raw.lower()
            if raw.startswith("@"):
                parsed = read_text(raw, ".bib").references
                if parsed:
                    people = [[p.family, p.given or "", ""] for p in parsed[0].authors]
                    cut = parsed[0].et_al
            if not people:
                people = [[family, "", ""] for family in g.get("authors") or []]
            known = works.get(arxiv)
            if known is not None and len(known["authors_parsed"]) >= len(people) + cut:
                continue
            yy, mm = arxiv[:2], arxiv[2:4]
            venue = (known or g).get("venue") or ""
            works[arxiv] = {
                "id": arxiv,
                "title": (known or g)["title"],
                "authors": ", ".join(f"{given} {family}".strip() for family, given, _ in people),
                "authors_parsed": people + ([["others", "", ""]] if cut else []),
                "journal-ref": venue if venue and "arxiv" not in venue.lower() else None,
                "doi": None,
                "versions": [{"version": "v1", "created": f"Mon, 1 {_MONTHS[int(mm) - 1]} 20{yy} 00:00:00 GMT"}],
                "update_date": f"20{yy}-{mm}-01",
            }
    out.write_text("".join(json.dumps(w) + "\n" for w in works.values()))
    return len(works)


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def build_store(kind: str, store_dir: Path) -> Path:
    """The store of `kind`, built on first use; a marker names the inputs it was built from.

    `KIND+arxiv`: the KIND store plus an arXiv mirror of the ml gold lists' arXiv works
    (`gold_arxiv_snapshot`), ingested as a partial snapshot (not declared complete for arXiv ids).
    """
    base, _, extra = kind.partition("+")
    dump = STORES[base]
    path = store_dir / f"{kind}.sqlite"
    marker = path.with_suffix(".built")
    snapshot = store_dir / "ml-gold-arxiv.jsonl"
    if extra == "arxiv":
        gold_arxiv_snapshot(snapshot)
    inputs = json.dumps(
        [[str(p), p.stat().st_size, int(p.stat().st_mtime)] for p in (dump, WORLD)]
        + ([hashlib.sha1(snapshot.read_bytes()).hexdigest()] if extra == "arxiv" else [])
    )
    if path.exists() and marker.exists() and marker.read_text() == inputs:
        return path
    store_dir.mkdir(parents=True, exist_ok=True)
    print(f"# building the {kind} store at {path} (once) ...", flush=True)
    t = time.perf_counter()
    ingest_dblp(path, dump, DBLP / "dblp.dtd")
    with Store(path) as store:
        add_jsonl(store, WORLD, "world")
    if extra == "arxiv":
        report = ingest_arxiv(path, snapshot, complete=False)
        print(f"# {report.added} arXiv records from the ml gold lists (approximate metadata, see gold_arxiv_snapshot)")
    marker.write_text(inputs)
    print(f"# built in {time.perf_counter() - t:.0f} s", flush=True)
    return path


@dataclass
class Paper:
    name: str
    refs: int
    gold: int | None
    results: list[CitationResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None

    def count(self, cls: str) -> int:
        return sum(r.verdict.class_ == cls for r in self.results)


def gold_references(gold_file: Path) -> tuple[str, str, int]:
    """The paper's gold list as a text our readers take, its suffix (".bib" or ".bbl"), and how many
    gold references were left out (JOSE references without a DOI)."""
    data = json.loads(gold_file.read_text())
    bib, items, skipped = [], [], 0
    for i, g in enumerate(data["references"]):
        raw = (g.get("raw") or "").strip()
        key = g.get("key") or f"ref{i + 1}"
        if raw.startswith("@"):
            bib.append(raw)
        elif "tex_source" in data and raw:  # the .bbl item as BibTeX rendered it
            items.append(f"\\bibitem{{{key}}}\n{raw}")
        elif g.get("doi"):
            bib.append(f"@misc{{{key},\n  doi = {{{g['doi']}}}\n}}")
        else:
            skipped += 1
    if items:
        text = "\\begin{thebibliography}{99}\n\n" + "\n\n".join(items) + "\n\n\\end{thebibliography}\n"
        return text, ".bbl", skipped
    return "\n\n".join(bib), ".bib", skipped


def check_refs(checker: Checker, refs: list[Reference]) -> list[CitationResult]:
    return asyncio.run(checker.check_references(refs)) if refs else []


def run_pdfs(checker: Checker, sets: list[str]) -> list[Paper]:
    papers = []
    for name in sets:
        for pdf in sorted((SHARED / "pdfs" / name).glob("*.pdf")):
            gold_file = pdf.with_name(pdf.stem + ".gold.json")
            gold = len(json.loads(gold_file.read_text())["references"]) if gold_file.exists() else None
            label = f"{name}/{pdf.stem}"
            try:
                read = read_references(pdf)
            except InputError as exc:
                papers.append(Paper(label, 0, gold, error=str(exc)))
                continue
            paper = Paper(label, len(read.references), gold, warnings=list(read.warnings))
            paper.results = check_refs(checker, read.references)
            papers.append(paper)
    return papers


def run_gold(checker: Checker, sets: list[str]) -> tuple[list[Paper], int]:
    papers, skipped = [], 0
    for name in sets:
        for gold_file in sorted((SHARED / "pdfs" / name).glob("*.gold.json")):
            text, suffix, left_out = gold_references(gold_file)
            skipped += left_out
            label = f"{name}/{gold_file.name.removesuffix('.gold.json')}"
            gold = len(json.loads(gold_file.read_text())["references"])
            if not text:
                continue
            read = read_text(text, suffix)
            paper = Paper(label, len(read.references), gold, warnings=list(read.warnings))
            paper.results = check_refs(checker, read.references)
            papers.append(paper)
    return papers, skipped


def citeaudit_part(citation: str) -> str:
    """The half a string belongs to: "tune" or "report", by a hash of the string (stable across runs)."""
    return "tune" if hashlib.sha1(citation.encode()).digest()[0] % 2 == 0 else "report"


_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")


def store_holds(store: Store, raw: str, ref: Reference) -> bool:
    """Whether the store holds the cited work, decided without the judge (and without trusting the
    field parser): a record with the string's DOI or arXiv id, or a record whose whole title (three
    words or more) is a phrase of the string, with a year within one of a year the string names and, where
    the record names its authors, one of their family names in the string (a title shared by another
    people's work is not the cited work: "Fully Homomorphic Encryption without Bootstrapping" is both
    Brakerski et al.'s and Yagisawa's)."""
    if (ref.doi and store.rids_by_doi(canonical_doi(ref.doi) or "")) or (
        ref.arxiv_id and store.rids_by_arxiv(canonical_arxiv(ref.arxiv_id) or "")
    ):
        return True
    folded = f" {' '.join(title_words(raw))} "
    years = {int(y) for y in _YEAR.findall(raw)}
    query = ref.title or raw
    rids = store.index.search(query, [], ref.year, 10)
    for record in store.records(rids).values():
        for title, year in [(record.title, record.year), *((v.title, v.year or record.year) for v in record.variants)]:
            words = title_words(title or "")
            if len(words) >= 3 and f" {' '.join(words)} " in folded and year and any(abs(year - y) <= 1 for y in years):
                families = [w for p in record.authors for w in title_words(p.family)]
                if not families or any(f" {f} " in folded for f in families):
                    return True
    return False


def run_citeaudit(checker: Checker, store: Store, part: str, quiet: bool) -> dict[str, Any]:
    """Check every citation string of the chosen half; print the counts and every real one accused."""
    rows = [json.loads(line) for line in CITEAUDIT.read_text().splitlines() if line.strip()]
    rows = [r for r in rows if part == "all" or citeaudit_part(r["citation"]) == part]
    refs = []
    for i, row in enumerate(rows):
        ref = parse_reference_string(" ".join(row["citation"].split()))
        ref.label = str(i + 1)
        refs.append(ref)
    held = [
        row["label"] == "real" and store_holds(store, row["citation"], ref) for row, ref in zip(rows, refs, strict=True)
    ]
    t = time.perf_counter()
    results = check_refs(checker, refs)
    seconds = time.perf_counter() - t
    table: dict[tuple[str, str], Counter[str]] = {}
    for row, res in zip(rows, results, strict=True):
        table.setdefault((row["source_type"], row["label"]), Counter())[res.verdict.class_] += 1
    print(f"\n## citeaudit-dev ({part} half: {len(rows)} strings, {seconds:.0f} s)\n")
    print("| source type | label | strings | Real | Potential | Hallucinated | share H |")
    print("|---|---|---|---|---|---|---|")
    for (src, label), c in sorted(table.items()):
        n = sum(c.values())
        print(
            f"| {src} | {label} | {n} | {c['Real']} | {c['Potential']} | {c['Hallucinated']} | "
            f"{c['Hallucinated'] / n:.2%} |"
        )
    held_results = [res for res, h in zip(results, held, strict=True) if h]
    held_counts = Counter(r.verdict.class_ for r in held_results)
    n_held = len(held_results)
    print(
        f"\nheld slice (real strings whose work the store holds): {n_held}: "
        f"{held_counts['Real']} Real ({held_counts['Real'] / max(n_held, 1):.1%}; target >= {TARGET_HELD_REAL:.0%}), "
        f"{held_counts['Potential']} Potential, **{held_counts['Hallucinated']} Hallucinated** (target 0)"
    )
    print("\nreal strings judged Hallucinated:")
    for row, res, h in zip(rows, results, held, strict=True):
        if row["label"] == "real" and res.verdict.class_ == "Hallucinated":
            print(
                f"- [{row['source_type']}{', held' if h else ''}] {res.verdict.code} {res.verdict.fields}: "
                f"{short(res.verdict.rationale, 300)}"
            )
            print(f"    cited: {short(row['citation'], 240)}")
    if not quiet:
        print("\nheld real strings not judged Real:")
        for row, res, h in zip(rows, results, held, strict=True):
            if h and res.verdict.class_ == "Potential":
                print(f"- {res.verdict.code}: {short(res.verdict.rationale, 240)}")
                print(f"    cited: {short(row['citation'], 200)}")
    out: dict[str, Any] = {"part": part, "strings": len(rows), "seconds": round(seconds, 1)}
    for (src, label), c in sorted(table.items()):
        out[f"{src}/{label}"] = dict(c)
    out["held"] = dict(held_counts)
    return out


def short(text: str | None, n: int = 150) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"


def held_slice(store: Store, papers: list[Paper], quiet: bool) -> dict[str, int]:
    """Verdicts of the citations whose work the store holds (`store_holds` on the reference's text)."""
    counts: Counter[str] = Counter()
    shown = []
    for p in papers:
        for r in p.results:
            raw = r.reference.raw or ""
            if not raw or not store_holds(store, raw, r.reference):
                continue
            counts[r.verdict.class_] += 1
            if r.verdict.class_ != "Real":
                shown.append((p.name, r))
    n = sum(counts.values())
    print(
        f"\nheld slice (citations whose work the store holds): {n}: {counts['Real']} Real "
        f"({counts['Real'] / max(n, 1):.1%}; target >= {TARGET_HELD_REAL:.0%}), {counts['Potential']} Potential, "
        f"**{counts['Hallucinated']} Hallucinated** (target 0)"
    )
    if not quiet:
        for name, r in shown:
            print(f"- {name} [{r.id}] {r.verdict.code}: {short(r.verdict.rationale, 240)}")
            print(f"    cited: {short(r.reference.raw, 200)}")
    return dict(counts)


def listed(papers: list[Paper], codes: frozenset[str]) -> None:
    """Every citation whose verdict has one of `codes`, with the record it was taken as (the first evidence)."""
    for p in papers:
        for r in p.results:
            if r.verdict.code not in codes:
                continue
            print(f"- {p.name} [{r.id}] {r.verdict.code} {r.verdict.fields}: {short(r.verdict.rationale, 300)}")
            print(f"    cited: {short(r.reference.raw, 220)}")
            for e in r.verdict.evidence[:1]:
                people = ", ".join(e.get("authors") or []) or "no authors"
                where = f"[{e.get('source')}:{e.get('id')}]"
                print(f"    record: {where} {e.get('title')!r}; {short(people, 120)}; {e.get('year')}")


def report(title: str, papers: list[Paper], quiet: bool, show: frozenset[str] = frozenset()) -> dict[str, Any]:
    print(f"\n## {title}\n")
    if not quiet:
        print("| paper | refs | gold | R | P | H |")
        print("|---|---|---|---|---|---|")
        for p in papers:
            gold = "" if p.gold is None else str(p.gold)
            counts = " | ".join(str(p.count(c)) for c in ("Real", "Potential", "Hallucinated"))
            print(f"| {p.name} | {p.refs} | {gold} | {counts} |")
        print()
    codes: Counter[str] = Counter()
    for p in papers:
        if p.error:
            print(f"- {p.name}: ERROR {p.error}")
        for r in p.results:
            if r.verdict.class_ != "Hallucinated":
                continue
            codes[r.verdict.code] += 1
            print(f"- **{p.name}** [{r.id}] {r.verdict.code} {r.verdict.fields}: {short(r.verdict.rationale, 260)}")
            print(f"    cited: {short(r.reference.raw, 220)}")
    if show:
        print(f"\ncitations coded {', '.join(sorted(show))}:")
        listed(papers, show)
    every = Counter(r.verdict.code for p in papers for r in p.results)
    total = sum(len(p.results) for p in papers)
    hall = sum(p.count("Hallucinated") for p in papers)
    pot = sum(p.count("Potential") for p in papers)
    accused = [p.name for p in papers if p.count("Hallucinated")]
    share = hall / total if total else 0.0
    print(
        f"\n**{title}**: {len(papers)} papers, {total} citations: {total - hall - pot} Real, {pot} Potential, "
        f"**{hall} Hallucinated = {share:.2%}** (target <= {TARGET_SHARE:.1%}); "
        f"**papers with any: {len(accused)}** (target <= {TARGET_PAPERS}); codes {dict(codes.most_common())}"
    )
    print(f"every code: {dict(sorted(every.items()))}")
    return {
        "papers": len(papers),
        "citations": total,
        "hallucinated": hall,
        "potential": pot,
        "share": share,
        "accused_papers": accused,
        "codes": dict(codes),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--stores", default="large,small", help="which stores: large, small, large+arxiv, small+arxiv (comma-separated)"
    )
    parser.add_argument("--sets", default=",".join(SETS), help="which PDF sets under ../shared/pdfs")
    parser.add_argument("--no-gold", action="store_true", help="skip the gold lists (matching alone)")
    parser.add_argument("--no-pdf", action="store_true", help="skip the PDFs (gold lists only)")
    parser.add_argument(
        "--store-dir",
        type=Path,
        default=Path(os.environ.get("CITETRACER_BENCH_STORES", Path.home() / ".cache" / "citetracer" / "bench")),
        help="where the stores are built once and reused ($CITETRACER_BENCH_STORES)",
    )
    parser.add_argument("--citeaudit", action="store_true", help="also check ../shared/data/citeaudit strings")
    parser.add_argument("--only-citeaudit", action="store_true", help="check the citeaudit strings alone")
    parser.add_argument("--part", default="report", choices=("tune", "report", "all"), help="citeaudit half")
    parser.add_argument("--json", type=Path, help="write the totals as JSON here")
    parser.add_argument("--quiet", action="store_true", help="no per-paper table (flags and totals only)")
    parser.add_argument(
        "--list", default="", metavar="CODES", help="also list the citations of these codes with their record (P3,P2)"
    )
    args = parser.parse_args()
    if not (SHARED / "pdfs").is_dir() or not WORLD.exists():
        print(f"../shared data not found at {SHARED}: nothing to measure")
        return 0
    sets = [s for s in args.sets.split(",") if s]
    show = frozenset(c for c in args.list.split(",") if c)
    print(f"# python bench/realpapers.py --stores {args.stores} --sets {args.sets}")
    totals: dict[str, Any] = {}
    for kind in [k for k in args.stores.split(",") if k]:
        path = build_store(kind, args.store_dir)
        settings = Settings(store=path, offline=True, remember_verified=False)
        settings.online.memo = False
        checker = Checker(settings, store=Store(path, readonly=True))
        try:
            t = time.perf_counter()
            if args.citeaudit or args.only_citeaudit:
                if CITEAUDIT.exists():
                    totals[f"{kind}/citeaudit-{args.part}"] = run_citeaudit(
                        checker, checker.store, args.part, args.quiet
                    )
                else:
                    print(f"{CITEAUDIT} not found: the citeaudit strings are skipped")
            if args.only_citeaudit:
                continue
            if not args.no_pdf:
                papers = run_pdfs(checker, sets)
                totals[f"{kind}/pdf"] = report(f"PDFs, {kind} store", papers, args.quiet, show)
                totals[f"{kind}/pdf"]["held"] = held_slice(checker.store, papers, args.quiet)
            if not args.no_gold:
                gold, skipped = run_gold(checker, sets)
                totals[f"{kind}/gold"] = report(
                    f"gold lists (no extraction; {skipped} JOSE references without DOI left out), {kind} store",
                    gold,
                    args.quiet,
                    show,
                )
                totals[f"{kind}/gold"]["held"] = held_slice(checker.store, gold, args.quiet)
            print(f"\n# {kind} store: {time.perf_counter() - t:.0f} s")
        finally:
            checker.close()
    print("\n## totals\n")
    for name, t in totals.items():
        if "citeaudit" in name:
            print(f"- {name}: {json.dumps({k: v for k, v in t.items() if k != 'part'})}")
            continue
        print(
            f"- {name}: {t['hallucinated']}/{t['citations']} = {t['share']:.2%} Hallucinated, "
            f"{len(t['accused_papers'])} of {t['papers']} papers with any, {t['potential']} Potential; "
            f"held {t.get('held')}"
        )
    if args.json:
        args.json.write_text(json.dumps(totals, indent=1))
    # The digest compares two runs' verdict counts: wall-clock figures are left out of it.
    timeless = {name: {k: v for k, v in t.items() if k != "seconds"} for name, t in totals.items()}
    digest = hashlib.sha1(json.dumps(timeless, sort_keys=True).encode()).hexdigest()[:10]
    print(f"\n# totals digest {digest} (verdict counts; timings left out)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
