"""Corrected RIS and CSL-JSON (`check refs.ris --fix OUT.ris`, `check library.json --fix OUT.json`).

The same rules as the corrected BibTeX (report/bibfix.py), in the manager's own format so that
the file goes back into Zotero, Mendeley or EndNote as it came:

- a **Real** record gets the fields the proving record has and the record lacks (DOI, pages,
  volume, issue, publisher, year), none when a cited field differs from it (another version);
- **Potential** and **Hallucinated** records are kept unchanged, with a note saying why;
- the note is a RIS `N1  - citetracer: ...` line (Zotero and EndNote import N1 as a note, never
  printed in a bibliography), or a `citetracer: ...` line of a CSL item's `note` (Zotero's
  "Extra", which keeps `key: value` lines); an earlier citetracer note is replaced.

RIS is edited line by line (every other line kept as written); CSL-JSON is written back as
JSON, the items' other keys and their order kept.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import IO, Any

from citetracer.extract import MAX_REFERENCES
from citetracer.extract.readers.csljson import csl_items, item_label, looks_like_csl
from citetracer.extract.readers.managed import unique_labels
from citetracer.extract.readers.ris import TAG_LINE, looks_like_ris, parse_ris, record_label
from citetracer.records import CitationResult
from citetracer.report.bibfix import MARK, Edit, entry_comment, fix_view
from citetracer.report.sources import read_text_file

NOTE = "citetracer: "
#: Our fields a Real record may give a RIS record, and the tag each goes to (pages: SP and EP).
RIS_TAGS = {"doi": "DO", "volume": "VL", "issue": "IS", "publisher": "PB", "year": "PY", "pages": "SP"}
#: ... and a CSL item, with the key each goes to (year: issued).
CSL_KEYS = {
    "doi": "DOI",
    "volume": "volume",
    "issue": "issue",
    "publisher": "publisher",
    "year": "issued",
    "pages": "page",
}


def managed_format(path: Path) -> str | None:
    """'ris' or 'csl-json' for a reference manager's export, else None (read as the extractor reads it)."""
    suffix = path.suffix.lower()
    if suffix in (".bib", ".tex", ".bbl", ".pdf", ".jsonl", ".txt"):
        return None
    text = read_text_file(path)
    if text is None:
        return None
    if suffix == ".ris" or looks_like_ris(text):
        return "ris"
    return "csl-json" if looks_like_csl(text) else None


def additions(c: CitationResult, fields: dict[str, str]) -> list[Edit]:
    """What the proving record adds to a Real citation: its values of `fields` the citation lacks; none when any
    compared field differs (the record may be another version of the work)."""
    if c.verdict.class_ != "Real" or any(fc.status == "mismatch" for fc in c.comparisons):
        return []
    return [
        Edit(fc.field, " ".join(fc.found.split()))
        for fc in c.comparisons
        if fc.field in fields and fc.status == "missing" and fc.found and not fc.cited
    ]


def note_text(c: CitationResult, edits: list[Edit]) -> str | None:
    """The note's text (the corrected BibTeX's comment, in the same words), or None for a Real record left as is."""
    comment = entry_comment(c, edits)
    return NOTE + comment[len(MARK) :].strip() if comment else None


class ManagedFixer:
    """Collects results (`add`) and writes the corrected RIS or CSL-JSON text of the inputs."""

    def __init__(self) -> None:
        #: (input, citation id) -> what the fix reads of its result: two files may both label records by position.
        self.results: dict[tuple[str, str], CitationResult] = {}

    def add(self, source: Path, c: CitationResult) -> None:
        """Keep what the fix reads of a citation of the input `source`."""
        self.results.setdefault((str(source), c.id), fix_view(c))

    def fixed_ris(self, text: str, source: Path) -> str:
        """The RIS text with each checked record's additions and note before its `ER` line."""
        records, _ = parse_ris(text, MAX_REFERENCES)
        labels = unique_labels([record_label(r, i) for i, r in enumerate(records, 1)])
        lines = text.lstrip("\ufeff").splitlines()
        newline = "\r\n" if "\r\n" in text[:10_000] else "\n"
        inserts: dict[int, list[str]] = {}
        dropped: set[int] = set()
        for record, label in zip(records, labels, strict=True):
            for n in range(record.start, record.end + 1):
                if lines[n - 1].startswith(f"N1  - {NOTE}"):
                    dropped.add(n)
            c = self.results.get((str(source), label))
            if c is None:
                continue
            edits = additions(c, RIS_TAGS)
            new = [line for e in edits for line in _ris_lines(e)]
            note = note_text(c, edits)
            if note:
                new.append(f"N1  - {_one_line(note)}")
            if new:
                closing = lines[record.end - 1] if record.end <= len(lines) else ""
                at = record.end if TAG_LINE.match(closing.rstrip()) and closing.startswith("ER") else record.end + 1
                inserts.setdefault(at, []).extend(new)
        out: list[str] = []
        for n, line in enumerate(lines, 1):
            out.extend(inserts.pop(n, []))
            if n not in dropped:
                out.append(line)
        for rest in inserts.values():
            out.extend(rest)
        return newline.join(out) + newline

    def fixed_csl(self, text: str, source: Path) -> str:
        """The CSL-JSON library with each checked item's additions and note (other keys kept in order)."""
        data = json.loads(text.lstrip("\ufeff"))
        items, _ = csl_items(data, MAX_REFERENCES)  # the array's own objects, edited in place
        labels = unique_labels([item_label(item, i) for i, item in enumerate(items, 1)])
        for item, label in zip(items, labels, strict=True):
            c = self.results.get((str(source), label))
            if c is None:
                continue
            edits = additions(c, CSL_KEYS)
            for e in edits:
                _csl_set(item, e)
            note = note_text(c, edits)
            kept = [line for line in str(item.get("note") or "").splitlines() if not line.startswith(NOTE)]
            if note:
                kept.append(_one_line(note))
            if kept:
                item["note"] = "\n".join(kept)
            else:
                item.pop("note", None)
        return json.dumps(data, ensure_ascii=False, indent=_indent(text)) + "\n"

    def write(self, sources: list[Path], kind: str, out: IO[str]) -> None:
        """The corrected text of every source of this kind (RIS records one after another; CSL items in one array)."""
        texts = [(path, t) for path in sources if (t := read_text_file(path)) is not None]
        if kind == "ris":
            out.write("\n".join(self.fixed_ris(t, path) for path, t in texts))
            return
        if len(texts) == 1:
            out.write(self.fixed_csl(texts[0][1], texts[0][0]))
            return
        merged: list[Any] = []
        for path, t in texts:
            merged.extend(json.loads(self.fixed_csl(t, path)))
        out.write(json.dumps(merged, ensure_ascii=False, indent=_indent(texts[0][1])) + "\n")


def _indent(text: str) -> str | int:
    """The JSON's own indentation (Zotero writes tabs), to keep a diff of the corrected file small."""
    return "\t" if "\n\t" in text[:2000] else 2


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _ris_lines(e: Edit) -> list[str]:
    if e.field == "pages":
        parts = [p for p in re.split(r"\s*[-–—]+\s*", e.value) if p]
        return [f"SP  - {parts[0]}", f"EP  - {parts[-1]}"] if len(parts) >= 2 else [f"SP  - {e.value}"]
    return [f"{RIS_TAGS[e.field]}  - {_one_line(e.value)}"]


def _csl_set(item: dict[str, Any], e: Edit) -> None:
    key = CSL_KEYS[e.field]
    if e.field == "year":
        if e.value.isdigit():
            item[key] = {"date-parts": [[int(e.value)]]}
        return
    if e.field == "pages":
        item[key] = re.sub(r"\s*[-–—]+\s*", "-", e.value)
        return
    item[key] = e.value
