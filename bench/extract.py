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
On ../shared/pdfs/styles: per-file reference counts and errors.

    python bench/extract.py [--ocr N] [--ocr-dpi DPI] [--verbose]

--ocr N samples N papers (evenly spread, deterministic) for the OCR path; 0 skips it; -1 all.
"""

from __future__ import annotations

import argparse
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
from citetracer.extract.pdf import Limits, read_pdf
from citetracer.match.normalize import canonical_doi
from citetracer.records import Reference

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
    for pdf in pdfs:
        gold = json.loads(gold_path(pdf).read_text())["references"]
        t = time.perf_counter()
        try:
            refs = reader(pdf).references
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
    }


def report(name: str, r: dict[str, Any]) -> None:
    n = r["papers"]
    print(f"{name}: {n} papers, {r['gold']} gold references")
    print(f"  exact reference count      {r['exact']}/{n} = {r['exact'] / n:.1%}")
    if r["dois"]:
        print(f"  gold DOIs present          {r['dois_found']}/{r['dois']} = {r['dois_found'] / r['dois']:.1%}")
    print(f"  gold references matched    {r['matched']}/{r['gold']} = {r['matched'] / r['gold']:.1%}")
    print(f"  median seconds per paper   {statistics.median(r['times']):.3f} (max {max(r['times']):.2f})")
    for f in r["failures"]:
        print(f"  FAILED {f}")


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
    args = ap.parse_args()
    print("command: python bench/extract.py " + " ".join(sys.argv[1:]))
    jose = SHARED / "pdfs" / "jose"
    if not jose.is_dir():
        print(f"{jose} not present; nothing to measure")
        return 0
    print("machine: 2 shared cores (other jobs running); timings are medians and noisy")
    pdfs = sorted(jose.glob("*.pdf"))
    text = run_set(pdfs, read_references, args.verbose)
    report("text layer (jose)", text)
    print(f"  peak memory (reader processes) {peak_mb():.0f} MB")

    styles = SHARED / "pdfs" / "styles"
    if styles.is_dir():
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

    if args.ocr:
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
