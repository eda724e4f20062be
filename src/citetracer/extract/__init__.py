"""Reference Extractor: turn an input file (or text) into Reference records.

`read_references` picks the reader by content and suffix: the text readers (readers/text.py:
BibTeX, .bbl / LaTeX `thebibliography`, JSONL of records, RIS and CSL-JSON, plain text) or the PDF
reader (readers/pdf.py, when that reader is installed). Every reader bounds input size; problems are
returned as warnings, one line each, and only an input from which nothing could be read is an error.

The folders follow the extractor's stages, in the order a PDF goes through them:
- readers/: one module per input format; pdf.py strings the PDF stages together (pdfdoc.py is the
  only user of the PDF library, ocr.py reads pages without a text layer);
- layout/: positioned text -> lines in reading order (page.py), the body's citation markers
  (markers.py), where the bibliography is (region.py);
- segmentation/: the bibliography's lines -> one block per reference, by rules (segment.py) or by
  a line CRF (linecrf.py), and the checks on the result (plausibility.py, confidence.py);
- fields/: one reference string -> fields (parser.py with authors.py and the token CRF crf.py),
  one normalizer per field (normalizers.py), bounds on the parser's input (bounds.py);
- agent/: the Parser Agent hook (repair.py) and its LLM implementation (parser_agent.py).
What every reader returns (`ReadResult`, `InputError`) is in result.py.
"""

from __future__ import annotations

from pathlib import Path

from citetracer.config import Segmenter
from citetracer.extract.readers.text import (
    BIBTEX_ENTRY,
    _bibliography_files,
    bibliography_files_inside,
    decode_text,
    looks_like_bibtex,
    not_a_reference,
    read_bbl,
    read_bibtex,
    read_jsonl,
    read_managed,
    read_plain,
    read_text,
    reference_from_json,
)
from citetracer.extract.result import (
    MAX_REFERENCES,
    MAX_TEXT_BYTES,
    InputError,
    PageRange,
    ReadResult,
    parse_page_range,
)
from citetracer.normalize.homoglyphs import mixed_script_words
from citetracer.records import Reference

__all__ = [
    "BIBTEX_ENTRY",
    "MAX_REFERENCES",
    "MAX_TEXT_BYTES",
    "InputError",
    "PageRange",
    "ReadResult",
    "_bibliography_files",
    "bibliography_files_inside",
    "decode_text",
    "homoglyph_warnings",
    "looks_like_bibtex",
    "not_a_reference",
    "parse_page_range",
    "read_bbl",
    "read_bibtex",
    "read_jsonl",
    "read_managed",
    "read_plain",
    "read_references",
    "read_text",
    "reference_from_json",
]


def read_references(path: Path, ref_pages: PageRange | None = None, segmenter: Segmenter = "auto") -> ReadResult:
    """References of one file; raises InputError only when nothing can be read.

    `ref_pages` sets a PDF's bibliography pages by hand (other inputs have no pages: a warning); `segmenter`
    chooses a PDF's segmenter (the setting `segmenter`: front ends pass `settings.segmenter`).
    A title or author name that mixes look-alike letters of another script into Latin words gets a
    warning naming them (normalize/homoglyphs.py)."""
    result = _read_references(path, ref_pages, segmenter)
    result.warnings += homoglyph_warnings(result.references)
    return result


def homoglyph_warnings(refs: list[Reference]) -> list[str]:
    """One warning per reference whose title or author names mix scripts within a word ('Residuаl' with a
    Cyrillic 'а'): the eye reads them as Latin, the matcher does not."""
    out = []
    for k, ref in enumerate(refs, 1):
        texts = [ref.title or "", *(f"{p.given or ''} {p.family or ''}" for p in ref.authors)]
        words = [w for text in texts for w in mixed_script_words(text)]
        if words:
            shown = "; ".join(f"{word!r} has {', '.join(names)}" for word, names in words[:3])
            out.append(
                f"reference {ref.label or k}: letters of another script that look Latin ({shown}); "
                "compared as written, not as the Latin they imitate"
            )
    return out


def _read_references(path: Path, ref_pages: PageRange | None = None, segmenter: Segmenter = "auto") -> ReadResult:
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path}: is a directory")
    size = path.stat().st_size
    if size == 0:
        raise InputError(f"{path}: file is empty")
    with path.open("rb") as fh:
        head = fh.read(8)
    if head.startswith(b"%PDF-") or path.suffix.lower() == ".pdf":
        return _read_pdf(path, ref_pages, segmenter)
    if ref_pages is not None:
        result = _read_references(path)
        result.warnings.insert(0, f"{path}: --ref-pages applies to PDF input only; ignored")
        return result
    if size > MAX_TEXT_BYTES:
        raise InputError(f"{path}: {size} bytes is larger than the {MAX_TEXT_BYTES}-byte limit for text inputs")
    data = path.read_bytes()
    if b"\x00" in data[:65536]:
        raise InputError(f"{path}: binary file (not BibTeX, LaTeX, JSONL, text or PDF)")
    warnings: list[str] = []
    text, problem = decode_text(data)
    if problem:
        warnings.append(f"{path}: {problem}")
    if path.suffix.lower() == ".tex" and "\\bibitem" not in text:
        bib_files, outside = bibliography_files_inside(text, path)
        warnings += outside
        if bib_files:
            return _read_bib_files(path, bib_files, warnings)
        if outside:
            raise InputError(f"{path}: no \\bibitem, and every .bib file it names is outside its folder ({outside[0]})")
    result = read_text(text, suffix=path.suffix.lower())
    result.warnings = warnings + [f"{path}: {w}" for w in result.warnings]
    if not result.references:
        problems = "; ".join(result.warnings) or "no references found"
        raise InputError(f"{path}: nothing could be read ({problems})")
    return result


def _read_bib_files(tex: Path, files: list[Path], warnings: list[str]) -> ReadResult:
    """References of the .bib files a .tex names (each one read like a .bib given directly)."""
    merged = ReadResult(kind="bibtex", warnings=list(warnings))
    for bib in files:
        try:
            part = _read_references(bib)
        except InputError as exc:
            merged.warnings.append(f"{tex}: \\bibliography names {bib.name}, which cannot be read ({exc})")
            continue
        merged.references.extend(part.references)
        merged.warnings.extend(part.warnings)
    if not merged.references:
        raise InputError(f"{tex}: no \\bibitem and none of its .bib files could be read")
    return merged


def _read_pdf(path: Path, ref_pages: PageRange | None = None, segmenter: Segmenter = "auto") -> ReadResult:
    try:
        from citetracer.extract.readers import pdf
    except ImportError as exc:  # the PDF reader is an optional part
        raise InputError(f"{path}: PDF input needs the PDF extractor ({exc})") from exc
    return pdf.read_pdf(path, ref_pages=ref_pages, segmenter=segmenter)
