"""Reference Extractor benchmark on real PDFs (text layer and OCR path).

On ../shared/pdfs/jose (papers with their Crossref-deposited reference lists):
- share of papers whose reference count is exactly right;
- share of gold DOIs present (as the `doi` field) in the extracted records;
- share of gold references matched by a record: same DOI, or the record's
  raw text contains most of the gold raw string's words (gold raw strings are
  Crossref field lists in arbitrary order, so word containment is the fair
  test); each record matches at most one gold reference;
- median seconds per paper and the peak memory of the reader processes.
The OCR path: every page rendered at 200 dpi into an image-only PDF made here,
then read by the same `read_references` (which OCRs pages without text).
On ../shared/pdfs/ml (today's conference templates, gold lists from the authors' LaTeX), per
template: share of papers whose count is exactly right; gold title recall (a gold title, normalised
to lower-case alphanumerics, is found in the text of one extracted reference, each reference used
once, so merged or split references cost recall); gold DOI/arXiv recall among the identifiers the
PDF prints (a .bib DOI that the style does not print cannot be extracted); the papers that miss,
and whether a plausibility warning named the problem (a count far from gold with no warning is
"silent").
The damage set reads jose and ml papers wrong on purpose (the region run on to the document's end;
one reference per page of the list) and counts how many far-off counts the plausibility warnings name.
On ../shared/pdfs/styles: per-file reference counts and errors.

    python bench/extract.py [--ocr N] [--ocr-dpi DPI] [--verbose] [--sets jose,ml,damage,styles]

--ocr N samples N papers (evenly spread, deterministic) for the OCR path; 0 skips it; -1 all.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import re
import resource
import statistics
import sys
import tempfile
import threading
import time
import unicodedata
from pathlib import Path
from typing import Any

from citetracer.extract import InputError, read_references
from citetracer.extract.layout.markers import find_markers
from citetracer.extract.layout.region import find_region
from citetracer.extract.readers.pdf import Limits, document_lines, read_pdf
from citetracer.extract.segmentation import plausibility
from citetracer.extract.segmentation.confidence import LOW_CONFIDENCE
from citetracer.extract.segmentation.segment import split_blocks
from citetracer.normalize.text import canonical_arxiv, canonical_doi
from citetracer.records import Reference

PLAUSIBILITY = plausibility.PREFIX

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
_STOP = {"and", "the", "for", "with", "from", "english", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug"}
_STOP |= {"sep", "oct", "nov", "dec", "of", "in", "on", "a", "an", "to"}


def words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return [w for w in re.findall(r"[a-z0-9]+", text) if len(w) >= 3 and w not in _STOP]


def gold_words(raw: str) -> set[str]:
    # ISBNs and similar identifiers are deposited but rarely printed.
    raw = re.sub(r"\b[\d\-X]{10,17}\b", " ", raw)
    return set(words(raw))


def match_paper(gold: list[dict[str, Any]], refs: list[Reference]) -> tuple[int, int, int]:
    """(gold references matched, gold DOIs, gold DOIs present) for one paper."""
    ref_dois = {r.doi for r in refs if r.doi}
    ref_words = [set(words(r.raw or "")) for r in refs]
    used: set[int] = set()
    matched = dois = dois_found = 0
    pending = []
    for g in gold:
        doi = canonical_doi(g.get("doi"))
        if doi:
            dois += 1
            if doi in ref_dois:
                dois_found += 1
                k = next(i for i, r in enumerate(refs) if r.doi == doi)
                if k not in used:
                    used.add(k)
                    matched += 1
                    continue
        if g.get("raw"):
            pending.append(gold_words(g["raw"]))
    for gw in pending:
        if not gw:
            continue
        best, best_k = 0.0, None
        for k, rw in enumerate(ref_words):
            if k in used:
                continue
            # Deposited raw strings often carry an abstract: accept containment either way.
            score = max(len(gw & rw) / len(gw), len(gw & rw) / max(len(rw), 1) - 0.1)
            if score > best:
                best, best_k = score, k
        if best_k is not None and best >= 0.6:
            used.add(best_k)
            matched += 1
    return matched, dois, dois_found


#: One real paper in this many is held out of the segmenter's training (bench/goldlines.py, scripts/train_segmenter.py).
HELD_OUT = 3


def split(name: str) -> str:
    """'held-out' or 'train' for a paper's file name (stem), fixed by a hash of the name alone."""
    digest = int(hashlib.sha1(name.encode()).hexdigest(), 16)
    return "held-out" if digest % HELD_OUT == 0 else "train"


def gold_path(pdf: Path) -> Path:
    return pdf.parent / (pdf.stem + ".gold.json")


def rasterize(src: Path, dst: Path, dpi: int) -> int:
    """An image-only copy of `src` (each page rendered at `dpi`); returns the page count."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(src))
    images = []
    try:
        for i in range(len(doc)):
            page = doc[i]
            bitmap = page.render(scale=dpi / 72, grayscale=True)
            images.append(bitmap.to_pil().convert("L").copy())  # own pixels: the bitmap is freed now
            bitmap.close()
            page.close()
    finally:
        doc.close()
    with dst.open("wb") as fh:
        images[0].save(fh, format="PDF", save_all=True, append_images=images[1:], resolution=dpi)
    return len(images)


def rasterize_all(pairs: list[tuple[Path, Path]], dpi: int) -> int:
    """All rasterized copies, made in a child process so that this one stays small."""
    return sum(rasterize(src, dst, dpi) for src, dst in pairs)


class TreeMemory:
    """Peak memory of a process and all its descendants (reader children, Tesseract), sampled every
    100 ms from /proc: the sum of their proportional set sizes (PSS: pages shared after a fork are
    counted once), and the largest single process's resident size.

    Why not getrusage: RUSAGE_CHILDREN reports the largest single descendant only, and on Linux a
    spawned interpreter's ru_maxrss starts at its parent's size (the high-water mark survives exec),
    so it measured the benchmark's own rasterizing, not the reader."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.peak_sum = 0
        self.peak_one = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(0.1)

    def sample(self) -> None:
        parents: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as fh:
                        ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                parents.setdefault(ppid, []).append(int(entry))
        total = 0
        todo = [self.root]
        while todo:
            pid = todo.pop()
            todo.extend(parents.get(pid, []))
            pss, rss = _memory(pid)
            total += pss
            self.peak_one = max(self.peak_one, rss)
        self.peak_sum = max(self.peak_sum, total)


def _memory(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of one process in bytes; (0, 0) once it is gone."""
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1]) * 1024
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return 0, 0
    return pss, rss


def run_set(pdfs: list[Path], reader: Any, verbose: bool) -> dict[str, Any]:
    exact = matched = total = dois = dois_found = 0
    times = []
    failures = []
    low = doi_warned = 0
    for pdf in pdfs:
        gold = json.loads(gold_path(pdf).read_text())["references"]
        t = time.perf_counter()
        try:
            res = reader(pdf)
            refs = res.references
            low += sum(1 for c in res.confidence if c < LOW_CONFIDENCE)
            doi_warned += any("DOI" in w for w in res.warnings)
        except InputError as exc:
            failures.append(f"{pdf.name}: {exc}")
            refs = []
        times.append(time.perf_counter() - t)
        m, d, df = match_paper(gold, refs)
        exact += len(refs) == len(gold)
        matched += m
        total += len(gold)
        dois += d
        dois_found += df
        if verbose:
            print(f"  {pdf.name}: gold {len(gold)} extracted {len(refs)} matched {m} dois {df}/{d}")
    return {
        "papers": len(pdfs),
        "exact": exact,
        "matched": matched,
        "gold": total,
        "dois": dois,
        "dois_found": dois_found,
        "times": times,
        "failures": failures,
        "low": low,
        "doi_warned": doi_warned,
    }


def report(name: str, r: dict[str, Any]) -> None:
    n = r["papers"]
    print(f"{name}: {n} papers, {r['gold']} gold references")
    print(f"  exact reference count      {r['exact']}/{n} = {r['exact'] / n:.1%}")
    if r["dois"]:
        print(f"  gold DOIs present          {r['dois_found']}/{r['dois']} = {r['dois_found'] / r['dois']:.1%}")
    print(f"  gold references matched    {r['matched']}/{r['gold']} = {r['matched'] / r['gold']:.1%}")
    print(f"  median seconds per paper   {statistics.median(r['times']):.3f} (max {max(r['times']):.2f})")
    print(f"  references read with low confidence {r['low']}; papers with a DOI warning {r['doi_warned']}")
    for f in r["failures"]:
        print(f"  FAILED {f}")


def norm_title(text: str) -> str:
    """Lower-case alphanumerics only (NFKD): line breaks, hyphens and spacing do not matter."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "", text)


def title_matches(gold_titles: list[str], refs: list[Reference]) -> int:
    """Gold titles found in the text of an extracted reference, each reference used for one title."""
    return len(title_pairs(gold_titles, refs))


def title_pairs(gold_titles: list[str], refs: list[Reference]) -> dict[int, int]:
    """Each gold title found (its index) with the extracted reference (index) whose text holds it."""
    from rapidfuzz import fuzz

    texts = [norm_title(r.raw or "") for r in refs]
    pairs = []
    for g, title in enumerate(gold_titles):
        t = norm_title(title)
        if len(t) < 4:
            continue
        for k, text in enumerate(texts):
            if t in text:
                pairs.append((100.0, g, k))
            elif len(t) >= 15 and len(text) >= 0.7 * len(t):
                score = fuzz.partial_ratio(t, text)
                if score >= 90:
                    pairs.append((score, g, k))
    pairs.sort(reverse=True)
    found: dict[int, int] = {}
    used_k: set[int] = set()
    for _score, g, k in pairs:
        if g not in found and k not in used_k:
            found[g] = k
            used_k.add(k)
    return found


def authors_recovered(gold: list[dict[str, Any]], refs: list[Reference], pairs: dict[int, int]) -> tuple[int, int]:
    """(gold family names read as an author's family name of the matching reference, gold family names of
    the references matched): a name cut by the text layer ("V alentin", "J ´erˆome") or by the author
    reader is lost here. Gold lists of more than 20 names count their first 20 (styles cut long lists)."""
    got = total = 0
    for g, k in pairs.items():
        names = [norm_title(a) for a in (gold[g].get("authors") or [])[:20] if norm_title(a)]
        read = {norm_title(p.family or "") for p in refs[k].authors}
        total += len(names)
        got += sum(1 for n in names if n in read)
    return got, total


def printed_ids(pdf: Path, gold: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The gold DOIs and arXiv ids that the PDF's text shows (a style may not print a .bib DOI)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        text = "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()
    flat = re.sub(r"[\s\u00ad\ufffe\x02]+", "", text).lower()
    out = []
    for g in gold:
        doi = canonical_doi(g.get("doi"))
        if doi and doi.lower() in flat:
            out.append(("doi", doi.lower()))
        arxiv = canonical_arxiv(g.get("arxiv"))
        if arxiv and arxiv.lower() in flat:
            out.append(("arxiv", arxiv.lower()))
    return out


def far_off(found: int, gold: int) -> bool:
    """A count no honest variation of the list explains (more than 10% or 2 references away)."""
    return abs(found - gold) > max(2, 0.1 * gold)


def run_ml(folder: Path, verbose: bool, which: str = "all") -> list[dict[str, Any]]:
    rows = []
    for pdf in sorted(folder.glob("*.pdf")):
        if which != "all" and split(pdf.stem) != which:
            continue
        meta = json.loads(gold_path(pdf).read_text())
        gold = meta["references"]
        warnings: list[str] = []
        t = time.perf_counter()
        try:
            res = read_references(pdf)
            refs, warnings, sure = res.references, res.warnings, res.confidence
        except InputError as exc:
            refs, warnings, sure = [], [str(exc)], []
        seconds = time.perf_counter() - t
        ids = printed_ids(pdf, gold)
        pairs = title_pairs([g.get("title") or "" for g in gold], refs)
        authors_got, authors_total = authors_recovered(gold, refs, pairs)
        have = {("doi", (r.doi or "").lower()) for r in refs} | {("arxiv", (r.arxiv_id or "").lower()) for r in refs}
        row = {
            "name": pdf.stem,
            "template": meta.get("template", "?"),
            "gold": len(gold),
            "found": len(refs),
            "titles": len(pairs),
            "authors": authors_got,
            "authors_total": authors_total,
            "ids": len(ids),
            "ids_found": sum(1 for i in ids if i in have),
            "warned": [w for w in warnings if PLAUSIBILITY in w],
            "seconds": seconds,
            "low": sum(1 for c in sure if c < LOW_CONFIDENCE),
        }
        rows.append(row)
        if verbose:
            print(f"  {pdf.stem}: gold {row['gold']} extracted {row['found']} titles {row['titles']}")
    return rows


def report_ml(rows: list[dict[str, Any]]) -> None:
    print(f"ml: {len(rows)} papers, {sum(r['gold'] for r in rows)} gold references")
    print(f"  {'template':10s} {'papers':>6s} {'exact count':>14s} {'title recall':>20s} {'DOI/arXiv (printed)':>20s}")
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r["template"], []).append(r)
    for name, group in [*sorted(groups.items()), ("all", rows)]:
        n = len(group)
        exact = sum(r["found"] == r["gold"] for r in group)
        titles, gold = sum(r["titles"] for r in group), sum(r["gold"] for r in group)
        ids, ids_found = sum(r["ids"] for r in group), sum(r["ids_found"] for r in group)
        print(
            f"  {name:10s} {n:6d} {exact:5d} = {exact / n:6.1%} {titles:5d}/{gold:<5d} = {titles / gold:6.1%}"
            f" {ids_found:5d}/{ids:<4d} = {ids_found / max(ids, 1):6.1%}"
        )
    print(f"  extracted {sum(r['found'] for r in rows)} references for {sum(r['gold'] for r in rows)} gold")
    got, total = sum(r["authors"] for r in rows), sum(r["authors_total"] for r in rows)
    share = got / max(total, 1)
    print(f"  gold authors recovered (family names of title-matched references) {got}/{total} = {share:.1%}")
    print(f"  median seconds per paper   {statistics.median(r['seconds'] for r in rows):.3f}")
    print(f"  references read with low confidence {sum(r['low'] for r in rows)}")
    misses = [r for r in rows if r["found"] != r["gold"] or r["titles"] < r["gold"]]
    silent = [r for r in rows if far_off(r["found"], r["gold"]) and not r["warned"]]
    print(f"  papers that miss ({len(misses)}): name, gold, extracted, gold titles found, plausibility warning")
    for r in misses:
        flag = "warned" if r["warned"] else ("SILENT" if far_off(r["found"], r["gold"]) else "-")
        print(f"    {r['name']:44s} {r['gold']:4d} {r['found']:5d} {r['titles']:4d}  {flag}")
    print(f"  counts far from gold (>10% and >2 off) without a plausibility warning: {len(silent)}")


def damaged_counts(pdf: Path) -> dict[str, tuple[int, bool]]:
    """The failures the ml set showed before, made on purpose on a paper read right: (references, whether a
    plausibility warning fires) when the region runs on to the document's end ("no end": appendices and
    checklists read as references) and when each page of the list comes out as one reference ("collapsed":
    the wrong numbering won). A count far from gold without a warning would be a silent failure."""
    lines = document_lines(pdf)
    region = find_region(lines)
    if region is None:
        return {}
    body = lines[: region.start] + lines[region.end :]
    markers = find_markers(ln.text for ln in body)
    out = {}
    tail = lines[region.start :]
    blocks, _how = split_blocks(tail, find_markers(ln.text for ln in lines[: region.start]))
    refs = [Reference(raw=b.text, page=b.lines[0].page + 1) for b in blocks]
    pages = sorted({ln.page + 1 for ln in tail})
    before = find_markers(ln.text for ln in lines[: region.start])
    out["no end"] = (len(refs), bool(plausibility.check(refs, before, pages)))
    listed = lines[region.start : region.end]
    per_page = [
        Reference(raw=" ".join(ln.text for ln in listed if ln.page == p), page=p + 1)
        for p in sorted({ln.page for ln in listed})
    ]
    pages = sorted({ln.page + 1 for ln in listed})
    out["collapsed"] = (len(per_page), bool(plausibility.check(per_page, markers, pages)))
    return out


def report_damage(folders: list[Path]) -> None:
    print("plausibility warnings on damaged readings (papers whose damaged count is far from gold: warned)")
    for folder in folders:
        counts: dict[str, list[int]] = {}
        for pdf in sorted(folder.glob("*.pdf")):
            gold = len(json.loads(gold_path(pdf).read_text())["references"])
            for mode, (n, warned) in damaged_counts(pdf).items():
                tally = counts.setdefault(mode, [0, 0])
                if far_off(n, gold):
                    tally[0] += 1
                    tally[1] += warned
        for mode, (far, warned) in counts.items():
            print(f"  {folder.name:5s} {mode:10s} far from gold {far:3d}, warned {warned:3d}")


def ocr_phase(images: list[Path], verbose: bool, queue: Any) -> None:
    """The OCR-path reading; puts (results, OCRed pages, seconds per OCRed page per paper, seconds,
    peak MB of this process tree (PSS sum), peak MB of its largest process (RSS))."""
    counts: list[int] = []

    cpu: list[float] = []

    def reader(path: Path) -> Any:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        res = read_pdf(path, Limits(seconds=900))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # CPU of the reader child and the Tesseract runs it waited for: what the reading costs on an idle core.
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        n = 0
        for w in res.warnings:
            m = re.match(r"(\d+) page\(s\) without a text layer were read by OCR", w)
            if m:
                n += int(m.group(1))
        counts.append(n)
        return res

    t0 = time.perf_counter()
    with TreeMemory(os.getpid()) as memory:
        result = run_set(images, reader, verbose)
    elapsed = time.perf_counter() - t0
    per_page = [t / n for t, n in zip(result["times"], counts, strict=True) if n]
    cpu_per_page = [c / n for c, n in zip(cpu, counts, strict=True) if n]
    queue.put(
        (
            result,
            sum(counts),
            per_page or [0.0],
            cpu_per_page or [0.0],
            elapsed,
            memory.peak_sum / 2**20,
            memory.peak_one / 2**20,
        )
    )


def peak_mb() -> float:
    """Largest resident size of this process or one of its (single, finished) children."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return max(kids, me) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ocr", type=int, default=12, help="papers sampled for the OCR path (0: none, -1: all)")
    ap.add_argument("--ocr-dpi", type=int, default=200, help="resolution of the rasterized copies")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument(
        "--split",
        default="all",
        choices=["all", "train", "held-out"],
        help="jose and ml papers of one split only (`split`: a third is held out of the segmenter's training)",
    )
    ap.add_argument(
        "--sets",
        default="jose,ml,damage,styles",
        help="comma-separated sets: jose, ml, styles, and damage (plausibility warnings on damaged readings)",
    )
    args = ap.parse_args()
    sets = {s.strip() for s in args.sets.split(",")}
    print("command: python bench/extract.py " + " ".join(sys.argv[1:]))
    print("machine: 2 shared cores (other jobs running); timings are medians and noisy")
    jose = SHARED / "pdfs" / "jose"
    pdfs = [p for p in sorted(jose.glob("*.pdf")) if args.split in ("all", split(p.stem))]
    if "jose" in sets:
        if pdfs:
            text = run_set(pdfs, read_references, args.verbose)
            report("text layer (jose)", text)
            print(f"  peak memory (reader processes) {peak_mb():.0f} MB")
        else:
            print(f"{jose} not present; jose set skipped")

    ml = SHARED / "pdfs" / "ml"
    if "ml" in sets:
        if ml.is_dir():
            report_ml(run_ml(ml, args.verbose, args.split))
        else:
            print(f"{ml} not present; ml set skipped")

    if "damage" in sets:
        report_damage([f for f in (jose, ml) if f.is_dir()])

    styles = SHARED / "pdfs" / "styles"
    if "styles" in sets and styles.is_dir():
        print("styles (no gold): references per file")
        for pdf in sorted(styles.glob("*.pdf")):
            t = time.perf_counter()
            try:
                res = read_references(pdf)
                status = f"{len(res.references):4d} refs"
                if res.warnings:
                    status += "  warnings: " + "; ".join(res.warnings)[:150]
            except InputError as exc:
                status = f"ERROR {exc}"
            print(f"  {pdf.name:40s} {status}  ({time.perf_counter() - t:.2f} s)")

    if args.ocr and pdfs:
        sample = pdfs if args.ocr < 0 else pdfs[:: max(1, len(pdfs) // args.ocr)][: args.ocr]
        with tempfile.TemporaryDirectory() as tmp:
            images = [Path(tmp) / pdf.name for pdf in sample]
            for pdf, dst in zip(sample, images, strict=True):
                gold_path(dst).write_bytes(gold_path(pdf).read_bytes())
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(1) as pool:
                pages = pool.apply(rasterize_all, (list(zip(sample, images, strict=True)), args.ocr_dpi))
            # Read in a fresh (spawned) interpreter whose process tree is measured on its own.
            queue = ctx.SimpleQueue()
            worker = ctx.Process(target=ocr_phase, args=(images, args.verbose, queue))
            worker.start()
            ocr, ocr_pages, per_page, cpu_per_page, elapsed, peak, peak_one = queue.get()
            worker.join()
            report(
                f"OCR path ({len(sample)} of {len(pdfs)} papers, {pages} pages rasterized at {args.ocr_dpi} dpi)", ocr
            )
            if ocr_pages:
                print(
                    f"  OCRed pages {ocr_pages}; seconds per OCRed page: median over papers of "
                    f"(paper's reading time / its OCRed pages) {statistics.median(per_page):.2f}, "
                    f"overall {elapsed / ocr_pages:.2f} (all reading time / all OCRed pages)"
                )
                print(
                    f"  CPU seconds per OCRed page (reader + tesseract, load-independent): median over papers "
                    f"{statistics.median(cpu_per_page):.2f}; load average at the end {os.getloadavg()[0]:.1f}"
                )
            print(
                f"  peak memory of the reading process tree (worker + reader child + tesseract, PSS summed, "
                f"sampled every 100 ms) {peak:.0f} MB; largest single process {peak_one:.0f} MB RSS"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
