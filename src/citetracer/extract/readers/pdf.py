"""PDF reader: pages -> lines -> bibliography region -> blocks -> Reference records.

The stages live in their own modules (pdfdoc: the PDF library; layout:
columns and running heads; ocr: pages without a text layer; region: where
the bibliography is; segment: one block per reference; fields: the field
parser). This module only strings them together and enforces the bounds
that make a hostile PDF harmless:

- the work runs in a forked child process with a wall-clock limit and an
  address-space limit, so a PDF that makes the PDF library loop, crash or
  allocate without end costs one clear error, never the whole run;
- at most `MAX_PAGES` pages are laid out (a longer document is read near its
  bibliography heading, with a warning), at most `MAX_OCR_PAGES` are OCRed,
  each with its own time limit.
"""

from __future__ import annotations

import multiprocessing
import re
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citetracer.childlimits import limit_memory as _limit_memory
from citetracer.config import Segmenter
from citetracer.extract.fields.parser import parse_reference_string
from citetracer.extract.layout.markers import Markers, find_markers
from citetracer.extract.layout.page import (
    Line,
    Page,
    document_gutters,
    drop_line_numbers,
    drop_loose_line_numbers,
    drop_running_text,
    find_gutters,
    line_number_edges,
    page_lines,
)
from citetracer.extract.layout.region import Region, find_region, is_heading, reference_like, region_in_pages
from citetracer.extract.result import InputError, PageRange, ReadResult
from citetracer.extract.segmentation import linecrf, plausibility
from citetracer.extract.segmentation.confidence import doi_warnings, entry_confidence, low_confidence_warning
from citetracer.extract.segmentation.segment import Block, split_blocks
from citetracer.records import Box, Reference

#: Pages laid out character by character; longer documents are read around the bibliography.
MAX_PAGES = 150
#: Pages scanned as plain text to find the bibliography heading in a long document.
MAX_SCAN_PAGES = 5000
MAX_OCR_PAGES = 40
#: Shortest text (visible characters) that counts as a usable text layer on a page.
MIN_PAGE_CHARS = 40
MAX_REFERENCES = 5000


@dataclass
class Limits:
    seconds: float = 180.0
    memory_bytes: int = 1536 * 1024 * 1024
    ocr: bool = True
    ocr_dpi: int = 300
    ocr_page_seconds: float = 60.0
    #: OCR time for the whole document: spent, the pages read so far make a partial result (with a
    #: warning) well before `seconds` stops the reader and loses everything.
    ocr_seconds: float = 120.0
    isolate: bool = True


def read_pdf(
    path: Path, limits: Limits | None = None, ref_pages: PageRange | None = None, segmenter: Segmenter = "auto"
) -> ReadResult:
    """References of a PDF; raises InputError when the PDF cannot be read at all.

    `ref_pages`: the bibliography's first and last page (1-based), set by hand when the region found
    is wrong. `segmenter`: which segmenter cuts the list (the setting `segmenter`, config.Segmenter)."""
    limits = limits or Limits()
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if path.stat().st_size == 0:
        raise InputError(f"{path}: file is empty")
    with path.open("rb") as fh:
        head = fh.read(1024)
    if re.search(rb"<!doctype html|<html[\s>]", head, re.IGNORECASE):
        raise InputError(f"{path}: an HTML page, not a PDF (a download that returned a web page?)")
    if b"%PDF-" not in head:
        raise InputError(f"{path}: not a PDF (no %PDF- header)")
    try:
        import pypdfium2  # noqa: F401
    except ImportError as exc:
        raise InputError(f"{path}: PDF input needs the 'pdf' extra (pip install 'citetracer[pdf]')") from exc
    if not limits.isolate or "fork" not in multiprocessing.get_all_start_methods():
        return _extract_or_error(path, limits, ref_pages, segmenter)
    return _isolated(path, limits, ref_pages, segmenter)


def _extract_or_error(
    path: Path, limits: Limits, ref_pages: PageRange | None = None, segmenter: Segmenter = "auto"
) -> ReadResult:
    from citetracer.extract.readers.pdfdoc import PdfError

    try:
        return extract(path, limits, ref_pages, segmenter)
    except PdfError as exc:
        raise InputError(f"{path}: {exc}") from exc


def _isolated(path: Path, limits: Limits, ref_pages: PageRange | None, segmenter: Segmenter) -> ReadResult:
    # Imported here once, the forked child inherits the reader's code: imported in each child, pytesseract
    # (which imports pandas) cost ~0.4 CPU-s per PDF of a scan, a third of a paper's reading.
    _preload(limits)
    ctx = multiprocessing.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(path, limits, ref_pages, segmenter, sender), daemon=True)
    proc.start()
    sender.close()
    try:
        if not receiver.poll(limits.seconds):
            proc.kill()
            raise InputError(f"{path}: reading took longer than {limits.seconds:.0f} s; stopped")
        try:
            status, payload = receiver.recv()
        except EOFError:
            proc.join(5)
            raise InputError(
                f"{path}: the PDF reader died (exit code {proc.exitcode}); the PDF is damaged or hostile"
            ) from None
    finally:
        receiver.close()
        proc.join(5)
        if proc.is_alive():
            proc.kill()
    if status == "ok":
        refs, warnings, sure, searched = payload
        return ReadResult(
            references=refs,
            warnings=warnings,
            kind="pdf",
            pages=_list_pages(refs),
            confidence=sure,
            searched=searched,
        )
    raise InputError(f"{path}: {payload}")


def _preload(limits: Limits) -> None:
    """Import, before the memory cap, the code the reader may need: a module loaded under the cap maps
    its shared libraries inside the budget meant for the PDF, and failing there surfaced as whatever
    import ran first (pytesseract's said "the 'ocr' extra is not installed", and the scan was read as
    having no text), so one budget gave a clear error or a wrong result depending on the heap's state.
    The parent calls it before forking (the child then finds it all imported), the child again (a no-op)."""
    import citetracer.extract.readers.pdfdoc  # noqa: F401

    if limits.ocr:
        from citetracer.extract.readers import ocr

        ocr.preload()


def _child(path: Path, limits: Limits, ref_pages: PageRange | None, segmenter: Segmenter, sender: Any) -> None:
    try:
        _preload(limits)
        _limit_memory(limits.memory_bytes)
        result = _extract_or_error(path, limits, ref_pages, segmenter)
        sender.send(("ok", (result.references, result.warnings, result.confidence, result.searched)))
    except InputError as exc:
        sender.send(("error", str(exc).removeprefix(f"{path}: ")))
    except MemoryError:
        sender.send(("error", f"needed more than {max(1, round(limits.memory_bytes / 2**20))} MB; stopped"))
    except Exception as exc:  # the child must always answer; the parent turns this into one clear error
        detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        sender.send(("error", f"the PDF could not be processed ({detail})"))
    finally:
        sender.close()


def extract(
    path: Path, limits: Limits | None = None, ref_pages: PageRange | None = None, segmenter: Segmenter = "auto"
) -> ReadResult:
    """The reader itself, in this process (read_pdf wraps it in a bounded child)."""
    warnings: list[str] = []
    furniture: list[Line] = []
    lines = document_lines(path, limits, ref_pages, warnings, furniture)
    refs, more, sure = references_from_lines(lines, ref_pages, segmenter, furniture)
    warnings.extend(more)
    if ref_pages is not None:
        searched = list(range(ref_pages[0], ref_pages[1] + 1))
    else:
        searched = sorted({ln.page + 1 for ln in lines})
    return ReadResult(
        references=refs, warnings=warnings, kind="pdf", pages=_list_pages(refs), confidence=sure, searched=searched
    )


def document_lines(
    path: Path,
    limits: Limits | None = None,
    ref_pages: PageRange | None = None,
    warnings: list[str] | None = None,
    furniture: list[Line] | None = None,
) -> list[Line]:
    """The PDF's lines in reading order, without running heads, page numbers and review line numbers:
    what the bibliography is looked for in (in this process; `read_pdf` bounds it in a child). The running
    heads, feet and page numbers left out are added to `furniture` when given."""
    from citetracer.extract.readers.pdfdoc import Document

    limits = limits or Limits()
    warnings = [] if warnings is None else warnings
    with Document(path) as doc:
        n = len(doc)
        if n == 0:
            raise InputError(f"{path}: the PDF has no pages")
        if ref_pages is not None and ref_pages[1] > n:
            raise InputError(f"{path}: --ref-pages {ref_pages[0]}-{ref_pages[1]} is past the PDF's {n} pages")
        indices = _pages_to_read(doc, n, warnings, ref_pages)
        pages = _read_pages(doc, indices, limits, warnings)
    drop_running_text(pages)  # running heads are expected: not worth a warning
    if furniture is not None:
        furniture.extend(ln for p in pages for ln in p.furniture)
    return [ln for p in pages for ln in p.lines]


def _list_pages(refs: list[Reference]) -> list[int]:
    """The 1-based pages the references read lie on (each reference's boxes), in order."""
    return sorted({box.page for ref in refs for box in ref.boxes} | {ref.page for ref in refs if ref.page})


def _pages_to_read(doc: Any, n: int, warnings: list[str], ref_pages: PageRange | None = None) -> list[int]:
    if n <= MAX_PAGES:
        return list(range(n))
    scan = min(n, MAX_SCAN_PAGES)
    heading_page = None
    if ref_pages is not None:
        heading_page, scan = ref_pages[0] - 1, max(ref_pages[1], MAX_PAGES)
    for i in range(scan - 1, -1, -1):
        if heading_page is not None:
            break
        if any(is_heading(line) for line in doc.plain_text(i).splitlines()):
            heading_page = i
            break
    if heading_page is None:
        first = max(0, scan - MAX_PAGES)
    else:
        first = max(0, min(heading_page, scan - MAX_PAGES))
    warnings.append(
        f"the PDF has {n} pages; only pages {first + 1}-{first + MAX_PAGES} were read"
        + ("" if heading_page is not None else " (no bibliography heading found in the text)")
    )
    return list(range(first, min(n, first + MAX_PAGES)))


def _read_pages(doc: Any, indices: list[int], limits: Limits, warnings: list[str]) -> list[Page]:
    from citetracer.extract.readers.pdfdoc import PdfError

    texts = {}
    damaged = []
    for i in indices:
        try:
            texts[i] = doc.page_text(i)
        except PdfError:  # one page the library cannot load (a page tree that loops): the others are read
            damaged.append(i + 1)
    if damaged and not texts:
        raise PdfError(f"no page can be loaded ({len(damaged)} tried); the PDF is damaged")
    if damaged:
        warnings.append(f"{len(damaged)} page(s) cannot be loaded and were skipped (first: page {damaged[0]})")
    indices = [i for i in indices if i in texts]
    # A page needs OCR when it shows an image but (almost) no readable text: a scan.
    needs_ocr = [
        i
        for i in indices
        if texts[i].images and (texts[i].chars < MIN_PAGE_CHARS or texts[i].garbage > 0.3 * texts[i].chars)
    ]
    pages: dict[int, Page] = {}
    read = [i for i in indices if i not in needs_ocr]
    numbering = line_number_edges([texts[i].fragments for i in read])
    frags = dict(zip(read, drop_loose_line_numbers([texts[i].fragments for i in read], numbering), strict=True))
    own = {i: find_gutters(drop_line_numbers(frags[i], numbering), texts[i].width) for i in read}
    shared = document_gutters(list(own.values()))
    for i in indices:
        if i not in needs_ocr:
            t = texts[i]
            # A page too thin to show its own columns (the last page of a two-column list, its right column
            # a few lines at the top) also tries the columns of the pages beside it.
            near = [g for j in (i - 1, i + 1) for g in own.get(j, [])]
            pages[i] = page_lines(frags[i], i, t.width, t.height, numbering, [*shared, *near], own[i])
    if needs_ocr:
        _ocr_pages(doc, sorted(needs_ocr), pages, limits, warnings)
    return [pages[i] for i in sorted(pages)]


def _ocr_pages(doc: Any, todo: list[int], pages: dict[int, Page], limits: Limits, warnings: list[str]) -> None:
    """OCR pages without text, last first, stopping once the bibliography heading is behind us."""
    if not limits.ocr:
        warnings.append(f"{len(todo)} page(s) have no text layer and OCR is off; they were skipped")
        return
    from citetracer.extract.readers import ocr

    problem = ocr.unavailable()
    if problem:
        warnings.append(f"{len(todo)} page(s) have no text layer and OCR is unavailable ({problem}); skipped")
        return
    heading_page = max((i for i, p in pages.items() if any(is_heading(ln.text) for ln in p.lines)), default=None)
    done = 0
    skipped = []
    out_of_time = []
    budget = min(limits.ocr_seconds, 0.8 * limits.seconds)
    deadline = time.monotonic() + budget
    for i in reversed(todo):
        if heading_page is not None and i < heading_page:
            skipped.append(i)
            continue
        if done >= MAX_OCR_PAGES:
            skipped.append(i)
            continue
        remaining = deadline - time.monotonic()
        if remaining <= 1.0:
            out_of_time.append(i)
            continue
        try:
            # One page bitmap at a time, released before the next page is rendered.
            image = doc.render(i, limits.ocr_dpi)
            try:
                frags = ocr.fragments(image, limits.ocr_dpi, timeout=min(limits.ocr_page_seconds, remaining))
            finally:
                image.close()
                del image
        except ocr.OcrError as exc:
            warnings.append(f"page {i + 1}: OCR failed ({exc}); skipped")
            continue
        done += 1
        w, h = doc.page_size(i)
        page = page_lines(frags, i, w, h)
        page.ocr = True
        pages[i] = page
        if heading_page is None and any(is_heading(ln.text) for ln in page.lines):
            heading_page = i
    if done:
        warnings.append(f"{done} page(s) without a text layer were read by OCR")
    if skipped and (heading_page is None or any(i >= heading_page for i in skipped)):
        warnings.append(f"{len(skipped)} page(s) without a text layer were not OCRed (limit {MAX_OCR_PAGES})")
    if out_of_time and (heading_page is None or any(i >= heading_page for i in out_of_time)):
        warnings.append(
            f"OCR time budget ({budget:.0f} s) spent: {len(out_of_time)} page(s) without a text layer were not read;"
            " the references are partial"
        )


@dataclass
class ListReading:
    """The bibliography as the reader cut it: one block per reference, each with the segmenter's confidence
    (`confidence.entry_confidence`; empty without the model), the lines from its first reference to its
    last (floats and notes between them included), the region it was looked for in, and the body's
    citation markers."""

    blocks: list[Block]
    confidence: list[float]
    listed: list[Line]
    region: Region | None
    markers: Markers


def read_list(
    lines: list[Line], ref_pages: PageRange | None = None, segmenter: Segmenter = "auto"
) -> tuple[ListReading, list[str]]:
    """The reference blocks of the document's lines in reading order, and the warnings found on the way;
    `ref_pages` (1-based, inclusive) sets the region's pages by hand, `segmenter` which segmenter's reading
    is taken (config.Segmenter: the rules' and the model's are both read, for the confidence)."""
    warnings: list[str] = []
    region = find_region(lines) if ref_pages is None else region_in_pages(lines, *ref_pages)
    body = lines if region is None else lines[: region.start] + lines[region.end :]
    markers = find_markers(ln.text for ln in body)
    if region is None:
        where = "" if ref_pages is None else f" on pages {ref_pages[0]}-{ref_pages[1]}"
        warnings.append(f"no bibliography found{where} (no heading, numbered list or reference-like lines)")
        return ListReading([], [], [], None, markers), warnings
    if region.how not in ("heading", "pages"):
        warnings.append(f"no bibliography heading found; the region was guessed from {region.how}")
    region_lines = lines[region.start : region.end]
    if ref_pages is not None:
        # Pages set by hand are read in order; a page among them that reads like no reference (a full-page
        # figure or table) is skipped rather than read into the reference before it.
        skip = float_pages(region_lines)
        region_lines = [ln for ln in region_lines if ln.page not in skip]
    blocks, _how = split_blocks(region_lines, markers)
    model = linecrf.default_segmenter()
    marginals: list[dict[str, float]] = []
    # The model reads on past the rules' end (an appendix heading is its to label); with pages set by hand
    # it stays on them.
    last = len(lines) if ref_pages is None else _end_of_pages(lines, ref_pages[1])
    window = lines[region.start : max(last, region.end)]
    learned: list[Block] = []
    if model is not None:
        reading = model.read(window, markers)
        marginals = reading.marginals
        learned = linecrf.blocks_from_labels(window, reading.labels)
        if segmenter != "rules":
            blocks = choose(blocks, learned, markers, segmenter)
    if not marginals:
        sure = []
    elif max(sum(len(b.lines) for b in blocks) for blocks in (blocks, learned)) < linecrf.SHORT_LIST:
        # A list of a few lines shows the model no habits to weigh a line against (`choose` reads it by the
        # rules): its marginals mean little, its agreement with the reading taken still says something.
        sure = agreement(blocks, learned)
    else:
        sure = entry_confidence(window, marginals, blocks)
    index = {id(ln): k for k, ln in enumerate(lines)}
    at = sorted(index[id(ln)] for b in blocks for ln in b.lines if id(ln) in index)
    listed = lines[at[0] : at[-1] + 1] if at else []
    return ListReading(blocks, sure, listed, region, markers), warnings


def references_from_lines(
    lines: list[Line],
    ref_pages: PageRange | None = None,
    segmenter: Segmenter = "auto",
    furniture: Sequence[Line] = (),
) -> tuple[list[Reference], list[str], list[float]]:
    """Region, blocks and fields from the document's lines in reading order, with the plausibility
    warnings (`plausibility`, and `confidence`'s on DOIs and doubtful entries) and a confidence per
    reference (empty without the segmenter model); `ref_pages` (1-based, inclusive) sets the region's
    pages by hand; `furniture`: the running heads and feet the layout left out (`document_lines`)."""
    reading, warnings = read_list(lines, ref_pages, segmenter)
    if reading.region is None:
        return [], warnings + plausibility.check([], reading.markers, []), []
    blocks = reading.blocks
    refs = []
    sure: list[float] = []
    for k, block in enumerate(blocks[:MAX_REFERENCES], 1):
        text = block.text
        if len(text) < 12 or not re.search(r"[A-Za-z]{3}", text):
            warnings.append(
                f"page {block.lines[0].page + 1}: fragment {text!r} is too short to be a reference; skipped"
            )
            continue
        ref = parse_reference_string(text)
        ref.label = block.label or str(k)
        ref.page = block.lines[0].page + 1
        ref.boxes = boxes(block)
        refs.append(ref)
        if reading.confidence:
            sure.append(reading.confidence[k - 1])
            ref.confidence = sure[-1]
    if len(blocks) > MAX_REFERENCES:
        warnings.append(f"more than {MAX_REFERENCES} references; the rest ignored")
    seen = what_was_seen(lines, blocks)
    pages = sorted({ln.page + 1 for b in blocks for ln in b.lines})
    warnings.extend(plausibility.check(refs, reading.markers, pages, seen))
    warnings.extend(doi_warnings(reading.listed, refs, furniture))
    low = low_confidence_warning(refs, sure) if sure else None
    if low:
        warnings.append(low)
    return refs, warnings, sure


def _end_of_pages(lines: list[Line], last_page: int) -> int:
    """One past the last line on 1-based page `last_page` or before it."""
    return max((k + 1 for k, ln in enumerate(lines) if ln.page <= last_page - 1), default=0)


def choose(rules: list[Block], learned: list[Block], markers: Markers, mode: Segmenter) -> list[Block]:
    """The learned blocks, unless (mode "auto") the plausibility checks object to them and not to the rules'
    blocks, or both read a list of a few lines (`linecrf.SHORT_LIST`: the model weighs each line against
    the list's habits, which a few lines do not show): the rule path stays the fallback until the model
    wins on every set."""
    if mode == "model" or not rules:
        return learned or rules
    if not learned or max(sum(len(b.lines) for b in blocks) for blocks in (rules, learned)) < linecrf.SHORT_LIST:
        return rules

    def objections(blocks: list[Block]) -> int:
        refs = [Reference(raw=b.text, page=b.lines[0].page + 1) for b in blocks]
        return len(plausibility.check(refs, markers, sorted({ln.page + 1 for b in blocks for ln in b.lines})))

    if mode == "rules-first":
        return learned if objections(rules) > objections(learned) else rules
    return rules if objections(learned) > objections(rules) else learned


#: The confidence of an entry of a short list that both segmenters read alike, and of one they read apart.
AGREED, DISPUTED = 0.9, 0.5


def agreement(blocks: list[Block], other: list[Block]) -> list[float]:
    """A confidence per block of a short list: AGREED when the other reading has a block of the same lines,
    DISPUTED (not yet low) when it does not."""
    same = {tuple(id(ln) for ln in b.lines) for b in other}
    return [AGREED if tuple(id(ln) for ln in b.lines) in same else DISPUTED for b in blocks]


#: A page of the list on which fewer lines than this share read like references holds a float, not references.
FLOAT_PAGE_SHARE = 0.2


def float_pages(lines: list[Line]) -> set[int]:
    """Pages (0-based) among `lines` on which almost no line reads like a reference."""
    by_page: dict[int, list[Line]] = {}
    for ln in lines:
        by_page.setdefault(ln.page, []).append(ln)
    return {
        p
        for p, group in by_page.items()
        if sum(1 for ln in group if reference_like(ln.text)) < FLOAT_PAGE_SHARE * len(group)
    }


def what_was_seen(lines: list[Line], blocks: list[Block]) -> list[str]:
    """What lies around and inside the list as read, for a warning to name: pages inside it that hold
    no reference (a full-page figure or table), the line the list ends before, and the pages to give
    --ref-pages."""
    if not blocks:
        return []
    pages = sorted({ln.page for b in blocks for ln in b.lines})
    out = []
    empty = [p + 1 for p in range(pages[0], pages[-1] + 1) if p not in pages]
    if empty:
        listed = ", ".join(map(str, empty))
        out.append(f"the list seems to continue past page(s) {listed}, which hold no reference (a figure or table?)")
    index = {id(ln): k for k, ln in enumerate(lines)}
    last = max((index.get(id(ln), -1) for b in blocks for ln in b.lines), default=-1)
    after = next((ln for ln in lines[last + 1 :] if ln.text.strip()), None)
    if after is not None:
        out.append(f"the list was read as ending before {after.text.strip()[:50]!r} on page {after.page + 1}")
    out.append(f"the list as read spans pages {pages[0] + 1}-{pages[-1] + 1}")
    return out


def boxes(block: Block) -> list[Box]:
    """One box per page and column the block covers (1-based pages, points, top-left origin)."""
    out: dict[tuple[int, int], list[float]] = {}
    for ln in block.lines:
        key = (ln.page, ln.column)
        if key not in out:
            out[key] = [ln.x0, ln.y0, ln.x1, ln.y1]
        else:
            b = out[key]
            out[key] = [min(b[0], ln.x0), min(b[1], ln.y0), max(b[2], ln.x1), max(b[3], ln.y1)]
    return [
        Box(page=p + 1, x0=round(b[0], 1), y0=round(b[1], 1), x1=round(b[2], 1), y1=round(b[3], 1))
        for (p, _c), b in out.items()
    ]
