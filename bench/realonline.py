"""Real citations checked online against a fake web that answers the way the real services do.

Every citation checked here is real (its work exists), so every Hallucinated verdict is a false
accusation; the CiteAudit fakes are checked against the same web, so detection is read in the same
run. Sets:

- ml gold: the reference lists of ../shared/pdfs/ml/*.gold.json as the papers' own .bib/.bbl
  (bench/realpapers.py's `gold_references`);
- jose gold: the JOSE papers' references as deposited to Crossref, each raw string parsed by the
  field parser, those printed as author-date strings (a bare DOI or a Crossref field dump, which no
  citation looks like, is left out and counted);
- pdfs (`--pdf`): the same papers' PDFs read by the Reference Extractor (text damage included),
  each extracted reference tied to its gold entry by title;
- citeaudit realworld / generated: the strings of ../shared/data/citeaudit/citeaudit-dev.jsonl,
  parsed by the field parser (as bench/online.py does); real ones are served, fakes are not.

The web (bench/realweb.py) holds, for each real cited work, the records each service would
really return after one behaviour of the real services, drawn per work at a rate (`--rate
CLASS=R`; the defaults are printed): arxiv-only, published-later, redeposit-year,
service-venue-names, cut-authors, title-variant, generic-title decoys, absent, or baseline.
HALLMARK's world.jsonl is served beside them as background. Each citation is checked with an
empty store, online, nothing remembered, no rate limits; papers one list at a time (their
citations concurrently), the CiteAudit strings in chunks.

Halves: `--part tune|report|all` splits papers by a hash of their name and CiteAudit strings by
a hash of the string (bench/realpapers.py's `citeaudit_part`): tune rules on one, report the other.

    python bench/realonline.py [--part tune|report|all] [--sets ml,jose,citeaudit] [--pdf]
                               [--limit N] [--rate CLASS=R ...] [--no-world] [--json OUT]
                               [--keep-web DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shlex
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tests.fakeweb.server import FakeWeb  # noqa: E402

from citetracer.extract import InputError, read_references, read_text  # noqa: E402
from citetracer.extract.fields.parser import parse_reference_string  # noqa: E402
from citetracer.normalize.text import canonical_arxiv, latex_to_text, title_similarity  # noqa: E402
from citetracer.pipeline import Checker  # noqa: E402
from citetracer.records import CitationResult, Reference  # noqa: E402
from online import online_settings  # noqa: E402
from realpapers import citeaudit_part, gold_references  # noqa: E402
from realweb import (  # noqa: E402
    CLASSES,
    OTHER_CLASSES,
    RATES,
    SHARES,
    Journals,
    Work,
    assign,
    make_work,
    merge,
    render,
    same_work,
    surname,
)


def shared_dir() -> Path:
    """../shared beside the checkout ($CITETRACER_SHARED first; a worktree one level deeper finds it too)."""
    env = os.environ.get("CITETRACER_SHARED")
    if env:
        return Path(env)
    return next(
        (p / "shared" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared").is_dir()), ROOT.parent / "shared"
    )


SHARED = shared_dir()
ML = SHARED / "pdfs" / "ml"
JOSE = SHARED / "pdfs" / "jose"
CITEAUDIT = SHARED / "data" / "citeaudit" / "citeaudit-dev.jsonl"
WORLD = SHARED / "data" / "hallmark" / "world.jsonl"
JABREF = SHARED / "data" / "venues" / "jabref"
SETS = ("ml gold", "jose gold", "pdfs", "citeaudit realworld", "citeaudit generated")
#: CiteAudit strings checked per call (progress is printed between chunks).
CHUNK = 300
ARXIV_IN_RAW = re.compile(r"(?:arxiv[:/ .]*(?:abs/)?|abs/|eprint\s*=\s*\{?)(\d{4}\.\d{4,5}|[a-z-]+/\d{7})", re.I)


@dataclass
class Cit:
    """One citation to check: its set, paper, reference, the work it cites (None for a fake)."""

    set: str
    paper: str
    ref: Reference
    work: Work | None
    label: str = "real"
    source_type: str = ""
    raw: str = ""
    #: A PDF reference tied to its gold entry (False: its true record is its own parse).
    aligned: bool = True
    result: CitationResult | None = None

    @property
    def behaviour(self) -> str:
        return self.work.behaviour if self.work is not None else "fake"


class World:
    """The cited works, one per title (a work cited twice is one work, met with one behaviour)."""

    def __init__(self) -> None:
        self.works: dict[str, Work] = {}

    def add(self, work: Work) -> Work:
        """The world's work of this title; a second citation of it adds what it says (`realweb.merge`),
        updating the work every citation of it points to."""
        if not work.key:
            work.behaviour = "unparsed"
            return work
        ident = f"{work.key}|{surname(work)}"
        old = self.works.get(ident)
        if old is not None and not same_work(old, work):
            ident = f"{ident}|{work.year}|{work.arxiv or work.doi or ''}"
            old = self.works.get(ident)
        if old is None:
            work.ident = ident
            self.works[ident] = work
            return work
        old.__dict__.update(merge(old, work).__dict__)
        return old


def _int(value: Any) -> int | None:
    text = str(value or "")
    return int(text) if text.isdigit() else None


def _arxiv(g: dict[str, Any], ref: Reference) -> str | None:
    if g.get("arxiv"):
        return canonical_arxiv(str(g["arxiv"]))
    if ref.arxiv_id:
        return canonical_arxiv(ref.arxiv_id)
    found = ARXIV_IN_RAW.search(g.get("raw") or "")
    return found.group(1) if found else None


def work_of_gold(g: dict[str, Any], ref: Reference) -> Work:
    """The true record of a gold entry: its fields where the entry's own text carries them (the gold fields of
    a .bbl item are split heuristically and now and then wrong: a venue as the title), else the parse of the
    entry; the full names the .bib/.bbl gives."""
    raw = (g.get("raw") or "").strip()
    kind = raw[1 : raw.find("{")].strip().lower() if raw.startswith("@") else (ref.type or "bbl")
    folded = f" {_fold(latex_to_text(raw))} "
    title = g.get("title") if g.get("title") and f" {_fold(g['title'])} " in folded else None
    title = title or ref.title or g.get("title") or ""
    venue = g.get("venue") if g.get("venue") and f" {_fold(g['venue'])} " in folded else None
    venue = venue or ref.venue or g.get("venue")
    if venue and _fold(venue) == _fold(title):
        venue = ref.venue if ref.venue and _fold(ref.venue) != _fold(title) else None
    # The parse's full names; a .bib entry's family names past them when the parse lost some (a .bbl item's
    # gold names are split heuristically: only when the parse found none).
    authors = [p.display() for p in ref.authors]
    gold_names = [str(a) for a in g.get("authors") or []]
    authors += gold_names[len(authors) :] if raw.startswith("@") or not authors else []
    return make_work(
        title=title,
        authors=authors,
        et_al=ref.et_al,
        year=_int(g.get("year")) or ref.year,
        venue=venue,
        kind=kind,
        doi=g.get("doi") or ref.doi,
        arxiv=_arxiv(g, ref),
        url=ref.url,
    )


def _fold(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.casefold()))


def work_of_ref(ref: Reference) -> Work:
    """The true record of a citation string: its parse (CiteAudit, JOSE deposits)."""
    return make_work(
        title=ref.title or "",
        authors=[p.display() for p in ref.authors],
        et_al=ref.et_al,
        year=ref.year,
        venue=ref.venue,
        kind=ref.type or "",
        doi=ref.doi,
        arxiv=canonical_arxiv(ref.arxiv_id) if ref.arxiv_id else None,
        url=ref.url,
    )


def in_part(name: str, part: str) -> bool:
    return part == "all" or citeaudit_part(name) == part


def load_ml(world: World, part: str) -> list[Cit]:
    cits = []
    for gold_file in sorted(ML.glob("*.gold.json")):
        name = gold_file.name.removesuffix(".gold.json")
        if not in_part(name, part):
            continue
        gold = json.loads(gold_file.read_text())["references"]
        text, suffix, _ = gold_references(gold_file)
        if suffix == ".bib":
            text = string_macros(gold) + text
        refs = read_text(text, suffix).references
        if len(refs) != len(gold):
            print(f"# {name}: {len(refs)} references read from {len(gold)} gold entries: paper left out")
            continue
        for g, ref in zip(gold, refs, strict=True):
            cits.append(Cit("ml gold", name, ref, world.add(work_of_gold(g, ref)), raw=(g.get("raw") or "")))
    return cits


#: A reference string as an author-date style prints it ("Name, A. (2016). Title. ..."); JOSE deposits that do
#: not read so are Crossref field dumps ("Boulder, CO, 2nd, Nonlinear Dynamics and Chaos, 978-0-8133-..."),
#: which no citation looks like.
APA = re.compile(r"^.{2,600}?\((\d{4}[a-z]?|n\.d\.)(, [A-Za-z]+\.?( \d{1,2})?)?\)\.")


MACRO = re.compile(r"\b(booktitle|journal|series|publisher)\s*=\s*([A-Za-z][\w:-]*)\s*[,}\n]")


def string_macros(gold: list[dict[str, Any]]) -> str:
    """The @string definitions the papers' .bib files had (the gold keeps each entry, not the file's macros):
    a venue written as a bare macro name (`booktitle=confICASSP`) is defined as the venue the gold resolved."""
    defined: dict[str, str] = {}
    for g in gold:
        for _, name in MACRO.findall(g.get("raw") or ""):
            if g.get("venue") and name.lower() not in MONTHS:
                defined.setdefault(name, str(g["venue"]))
    return "".join(f"@string{{{name} = {{{venue}}}}}\n" for name, venue in defined.items()) + ("\n" if defined else "")


MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}


def load_jose(world: World, part: str) -> tuple[list[Cit], int]:
    """JOSE deposits printed as author-date strings; the count of the others (a bare DOI, a field dump)."""
    cits, bare = [], 0
    for gold_file in sorted(JOSE.glob("*.gold.json")):
        name = gold_file.name.removesuffix(".gold.json")
        if not in_part(name, part):
            continue
        for i, g in enumerate(json.loads(gold_file.read_text())["references"]):
            raw = " ".join((g.get("raw") or "").split())
            if not APA.match(raw):
                bare += 1
                continue
            ref = parse_reference_string(raw)
            ref.label = g.get("key") or str(i + 1)
            if g.get("doi") and not ref.doi:
                ref.doi = g["doi"]
            cits.append(Cit("jose gold", name, ref, world.add(work_of_ref(ref)), raw=raw))
    return cits, bare


def load_citeaudit(world: World, part: str) -> list[Cit]:
    cits = []
    for i, line in enumerate(CITEAUDIT.read_text().splitlines()):
        if not line.strip():
            continue
        row = json.loads(line)
        if not in_part(row["citation"], part):
            continue
        raw = " ".join(row["citation"].split())
        ref = parse_reference_string(raw)
        ref.label = f"ca{i + 1}"
        real = row["label"] == "real"
        work = world.add(work_of_ref(ref)) if real else None
        cits.append(
            Cit(f"citeaudit {row['source_type']}", "citeaudit", ref, work, row["label"], row["source_type"], raw)
        )
    return cits


def load_pdfs(world: World, part: str, gold_cits: list[Cit]) -> list[Cit]:
    """The ml and JOSE PDFs read by the extractor. Each extracted reference is tied to the gold work of its
    paper whose whole title its text carries (or whose title its title is like, at least 0.8), else to the
    gold entry whose DOI its text carries; a reference tied to no gold entry (a JOSE deposit that was a bare
    DOI or a field dump, a reference the extractor damaged past recognition) is still a real work: its
    true record is made from its own parse, and it is counted apart ("own parse")."""
    by_paper: dict[str, list[Work]] = defaultdict(list)
    for c in gold_cits:
        if c.work is not None and c.work not in by_paper[c.paper]:
            by_paper[c.paper].append(c.work)
    cits = []
    for folder in (ML, JOSE):
        for pdf in sorted(folder.glob("*.pdf")):
            if not in_part(pdf.stem, part):
                continue
            try:
                read = read_references(pdf)
            except InputError as exc:
                print(f"# {pdf.name}: {exc}")
                continue
            gold_file = pdf.with_name(pdf.stem + ".gold.json")
            dois = [
                str(g["doi"]).lower()
                for g in (json.loads(gold_file.read_text())["references"] if gold_file.exists() else [])
                if g.get("doi")
            ]
            works = by_paper.get(pdf.stem, [])
            for ref in read.references:
                work = _align(ref, works)
                aligned = work is not None
                if work is None:
                    work = world.add(_own_work(ref, dois))
                cits.append(Cit("pdfs", pdf.stem, ref, work, raw=ref.raw or "", aligned=aligned))
    return cits


def _align(ref: Reference, works: list[Work]) -> Work | None:
    folded = f" {' '.join(re.findall(r'[a-z0-9]+', (ref.raw or ref.title or '').casefold()))} "
    best, score = None, 0.0
    for w in works:
        s = 1.0 if len(w.key.split()) >= 3 and f" {w.key} " in folded else 0.0
        if ref.title:
            s = max(s, title_similarity(ref.title, w.title))
        if s > score:
            best, score = w, s
    return best if score >= 0.8 else None


def _own_work(ref: Reference, dois: list[str]) -> Work:
    """The true record of a PDF reference tied to no gold work: its parse, with the gold DOI its text carries
    (a DOI broken across lines by the extractor is the deposit's whole DOI)."""
    flat = "".join((ref.raw or "").split()).lower()
    work = work_of_ref(ref)
    doi = next((d for d in dois if d in flat), None)
    if doi is not None:
        work.doi = doi
    return work


# ---------------------------------------------------------------- the web


def write_web(world: World, rates: dict[str, float], out: Path, background: bool) -> Counter[str]:
    journals = Journals(JABREF)
    records = 0
    with out.open("w") as fh:
        if background and WORLD.exists():
            fh.write(WORLD.read_text())
        for w in world.works.values():
            assign(w, rates)
            w.records = render(w, journals)
            for r in w.records:
                fh.write(json.dumps(r) + "\n")
                records += 1
    return Counter({"records": records})


def check_all(web: FakeWeb, cits: list[Cit], store: Path) -> float:
    """Papers one list at a time (as a user checks a paper), CiteAudit strings in chunks."""
    checker = Checker(online_settings(web, store))
    groups: dict[tuple[str, str], list[Cit]] = defaultdict(list)
    for c in cits:
        groups[(c.set, c.paper)].append(c)
    batches: list[list[Cit]] = []
    for (set_name, _), group in groups.items():
        if set_name.startswith("citeaudit"):
            batches += [group[i : i + CHUNK] for i in range(0, len(group), CHUNK)]
        else:
            batches.append(group)
    t0 = time.perf_counter()
    done = 0
    try:
        for batch in batches:
            results = asyncio.run(checker.check_references([c.ref for c in batch]))
            for c, r in zip(batch, results, strict=True):
                c.result = r
            done += len(batch)
            print(f"#   {done}/{len(cits)} checked, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    finally:
        checker.close()
    return time.perf_counter() - t0


# ---------------------------------------------------------------- report


def short(text: str | None, n: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"


def counts(cits: list[Cit]) -> dict[str, Any]:
    c = Counter(x.result.verdict.class_ for x in cits if x.result is not None)
    n = sum(c.values())
    held = [x for x in cits if x.work is not None and x.work.held and x.result is not None]
    held_real = sum(x.result.verdict.class_ == "Real" for x in held if x.result is not None)
    held_h = sum(x.result.verdict.class_ == "Hallucinated" for x in held if x.result is not None)
    calls = sum(x.result.cost.connector_calls for x in cits if x.result is not None)
    return {
        "citations": n,
        "Real": c["Real"],
        "Potential": c["Potential"],
        "Hallucinated": c["Hallucinated"],
        "share_H": c["Hallucinated"] / n if n else 0.0,
        "held": len(held),
        "held_real_share": held_real / len(held) if held else None,
        "held_H": held_h,
        "held_H_share": held_h / len(held) if held else None,
        "calls": calls / n if n else 0.0,
    }


def table(title: str, rows: dict[str, dict[str, Any]], first: str) -> None:
    print(f"\n### {title}\n")
    print(
        f"| {first} | citations | Real | Potential | Hallucinated | share H | held by the web | Real of held | "
        "H of held | calls |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, f in rows.items():
        held = "" if f["held_real_share"] is None else f"{f['held_real_share']:.1%}"
        held_h = "" if f["held_H_share"] is None else f"{f['held_H']} ({f['held_H_share']:.2%})"
        print(
            f"| {name} | {f['citations']} | {f['Real']} | {f['Potential']} | **{f['Hallucinated']}** | "
            f"{f['share_H']:.2%} | {f['held']} | {held} | {held_h} | {f['calls']:.1f} |"
        )


def report(
    cits: list[Cit], world: World, rates: dict[str, float], args: argparse.Namespace, meta: dict[str, Any]
) -> dict[str, Any]:
    real = [c for c in cits if c.label == "real"]
    fake = [c for c in cits if c.label == "fake"]
    figures: dict[str, Any] = {"meta": meta, "rates": rates, "shares": SHARES}
    # behaviours met
    print("\n## The web\n")
    print("| behaviour | rate (of works it applies to) | works | real citations |")
    print("|---|---|---|---|")
    works = Counter(w.behaviour for w in world.works.values())
    per_cit = Counter(c.behaviour for c in real)
    for cls in (*CLASSES, *OTHER_CLASSES):
        if works[cls] or per_cit[cls]:
            rate = f"{rates[cls]:.2f}" if cls in rates else "-"
            print(f"| {cls} | {rate} | {works[cls]} | {per_cit[cls]} |")
    print("\nshares inside classes: " + "; ".join(f"{k} {v:.0%}" for k, v in SHARES.items()))
    # per set
    by_set = {s: counts([c for c in real if c.set == s]) for s in SETS if any(c.set == s for c in real)}
    by_set["all real"] = counts(real)
    pdfs = [c for c in real if c.set == "pdfs"]
    if pdfs:
        by_set["pdfs: tied to a gold entry"] = counts([c for c in pdfs if c.aligned])
        by_set["pdfs: own parse (no gold entry)"] = counts([c for c in pdfs if not c.aligned])
    table("Real citations per set", by_set, "set")
    by_class = {
        cls: counts([c for c in real if c.behaviour == cls])
        for cls in (*CLASSES, *OTHER_CLASSES)
        if any(c.behaviour == cls for c in real)
    }
    table("Real citations per behaviour met", by_class, "behaviour")
    cross: dict[str, dict[str, Any]] = {}
    for s in by_set:
        if s == "all real" or s.startswith("pdfs:"):
            continue
        for cls in by_class:
            group = [c for c in real if c.set == s and c.behaviour == cls]
            if group:
                cross[f"{s} / {cls}"] = counts(group)
    table("Per set and behaviour", cross, "set / behaviour")
    figures.update(sets=by_set, behaviours=by_class, cross=cross)
    # detection
    if fake:
        print("\n### CiteAudit fakes (detection), beside the real strings of the same source\n")
        print("| source type | fakes | H | P | R | DR (H) | DR (H or P) | real strings | real H | calls (fake) |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        detection: dict[str, Any] = {}
        for st in sorted({c.source_type for c in fake}):
            fs = [c for c in fake if c.source_type == st]
            rs = [c for c in real if c.set == f"citeaudit {st}"]
            fc = Counter(c.result.verdict.class_ for c in fs if c.result is not None)
            rh = sum(c.result.verdict.class_ == "Hallucinated" for c in rs if c.result is not None)
            calls = sum(c.result.cost.connector_calls for c in fs if c.result is not None) / max(len(fs), 1)
            n = len(fs)
            print(
                f"| {st} | {n} | {fc['Hallucinated']} | {fc['Potential']} | {fc['Real']} | "
                f"{fc['Hallucinated'] / n:.1%} | {(fc['Hallucinated'] + fc['Potential']) / n:.1%} | {len(rs)} | {rh} | "
                f"{calls:.1f} |"
            )
            detection[st] = {"fakes": n, **dict(fc), "real": len(rs), "real_H": rh, "calls": calls}
        figures["detection"] = detection
    # calls per source
    asked: Counter[str] = Counter()
    for c in cits:
        for o in c.result.cost.sources if c.result is not None else []:
            if o.status != "skipped" and o.source != "memory":
                asked[o.source] += 1
    per = ", ".join(f"{k} {v / max(len(cits), 1):.2f}" for k, v in asked.most_common())
    print(f"\nsources asked per citation (all {len(cits)}): {per}")
    figures["asked_per_citation"] = {k: v / max(len(cits), 1) for k, v in asked.items()}
    # codes of the accusations
    codes = Counter(c.result.verdict.code for c in real if c.result and c.result.verdict.class_ == "Hallucinated")
    pcodes = Counter(c.result.verdict.code for c in real if c.result and c.result.verdict.class_ == "Potential")
    print(
        f"\ncodes of the false accusations: {dict(codes.most_common())}; of the Potential: {dict(pcodes.most_common())}"
    )
    figures["codes_H"], figures["codes_P"] = dict(codes), dict(pcodes)
    # every accusation
    print("\n## Every real citation judged Hallucinated, by behaviour met\n")
    accused = []
    for cls in (*CLASSES, *OTHER_CLASSES):
        group = [c for c in real if c.behaviour == cls and c.result and c.result.verdict.class_ == "Hallucinated"]
        if not group:
            continue
        print(f"\n### {cls} ({len(group)})\n")
        for c in group:
            assert c.result is not None and c.work is not None
            v = c.result.verdict
            where = c.set if c.aligned else f"{c.set} (own parse)"
            print(f"- [{where}: {c.paper}] **{v.code}** {v.codes} {v.fields} ({c.work.detail or c.work.vclass})")
            print(f"    rationale: {short(v.rationale, args.width)}")
            print(f"    cited: {short(c.raw or c.ref.raw, args.width)}")
            accused.append(
                {
                    "set": c.set,
                    "aligned": c.aligned,
                    "paper": c.paper,
                    "behaviour": cls,
                    "detail": c.work.detail,
                    "code": v.code,
                    "codes": v.codes,
                    "rationale": v.rationale,
                    "cited": c.raw or c.ref.raw,
                }
            )
    figures["accused"] = accused
    if args.show_potential:
        print(f"\n## Real citations judged Potential (first {args.show_potential} per behaviour)\n")
        for cls in (*CLASSES, *OTHER_CLASSES):
            group = [c for c in real if c.behaviour == cls and c.result and c.result.verdict.class_ == "Potential"]
            for c in group[: args.show_potential]:
                assert c.result is not None
                print(f"- [{cls}] {c.result.verdict.code}: {short(c.result.verdict.rationale, args.width)}")
                print(f"    cited: {short(c.raw or c.ref.raw, 200)}")
    if args.show_missed:
        print(f"\n## CiteAudit fakes not judged Hallucinated (first {args.show_missed})\n")
        for c in [c for c in fake if c.result and c.result.verdict.class_ != "Hallucinated"][: args.show_missed]:
            assert c.result is not None
            print(f"- [{c.source_type}] {c.result.verdict.code}: {short(c.result.verdict.rationale, args.width)}")
            print(f"    cited: {short(c.raw, 200)}")
    return figures


def parse_rates(items: list[str]) -> dict[str, float]:
    rates = dict(RATES)
    for item in items:
        name, _, value = item.partition("=")
        if name not in RATES:
            raise SystemExit(f"--rate {item}: no behaviour {name!r} (one of {', '.join(RATES)})")
        try:
            rates[name] = float(value)
        except ValueError:
            raise SystemExit(f"--rate {item}: {value!r} is not a number") from None
        if not 0 <= rates[name] <= 1:
            raise SystemExit(f"--rate {item}: a rate is between 0 and 1")
    return rates


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", default="report", choices=("tune", "report", "all"))
    ap.add_argument("--sets", default="ml,jose,citeaudit", help="of ml, jose, citeaudit (comma-separated)")
    ap.add_argument("--pdf", action="store_true", help="also the PDFs of the ml and JOSE papers, read by the extractor")
    ap.add_argument("--limit", type=int, help="check only the first N citations of each set (quick runs)")
    ap.add_argument("--rate", action="append", default=[], metavar="CLASS=R", help="a behaviour's rate (repeatable)")
    ap.add_argument("--no-world", action="store_true", help="serve no HALLMARK world.jsonl background")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--keep-web", type=Path, help="write the served records file here (outside the repo)")
    ap.add_argument("--show-potential", type=int, default=0, help="print N Potential real citations per behaviour")
    ap.add_argument("--show-missed", type=int, default=0, help="print N CiteAudit fakes not judged Hallucinated")
    ap.add_argument("--width", type=int, default=400, help="characters of rationale and cited text printed")
    args = ap.parse_args()
    print("# python bench/realonline.py " + shlex.join(sys.argv[1:]))
    if not ML.is_dir() or not CITEAUDIT.exists():
        print(f"../shared data not found at {SHARED}: nothing to measure")
        return 0
    rates = parse_rates(args.rate)
    sets = {s for s in args.sets.split(",") if s}
    t0 = time.perf_counter()
    world = World()
    cits: list[Cit] = []
    bare = 0
    if "ml" in sets:
        cits += load_ml(world, args.part)[: args.limit]
    if "jose" in sets:
        jose, bare = load_jose(world, args.part)
        cits += jose[: args.limit]
    if args.pdf:
        cits += load_pdfs(world, args.part, [c for c in cits if c.set in ("ml gold", "jose gold")])[: args.limit]
    if "citeaudit" in sets:
        ca = load_citeaudit(world, args.part)
        for st in ("realworld", "generated"):
            cits += [c for c in ca if c.source_type == st][: args.limit]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        records = tmp / "realweb.jsonl"
        stats = write_web(world, rates, records, background=not args.no_world)
        if args.keep_web:
            args.keep_web.write_text(records.read_text())
        print(
            f"# part {args.part}: {len(cits)} citations ({sum(c.label == 'real' for c in cits)} real), "
            f"{len(world.works)} distinct works, {stats['records']} records served"
            f"{'' if args.no_world else ' + HALLMARK world.jsonl'}; {bare} JOSE deposits left out "
            "(a bare DOI or a field dump); empty store, online, nothing remembered, no rate limits, web search off"
        )
        with FakeWeb(records) as web:
            seconds = check_all(web, cits, tmp / "store.sqlite")
    print(
        f"# checked in {seconds:.0f} s ({len(cits) / max(seconds, 1e-9):.1f} citations/s); "
        f"total {time.perf_counter() - t0:.0f} s; machine: 2 shared cores (times indicative)"
    )
    meta = {
        "command": sys.argv,
        "part": args.part,
        "citations": len(cits),
        "seconds": round(seconds, 1),
        "bare_doi_left_out": bare,
    }
    figures = report(cits, world, rates, args, meta)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
