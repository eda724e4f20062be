"""Readers of text inputs: BibTeX, .bbl / LaTeX `thebibliography`, JSONL of records, RIS and CSL-JSON
(reference managers' exports) and plain text.

`read_text` picks the reader by content and suffix. The text is decoded (`decode_text`: UTF-8, with
the bytes that are not read as Windows-1252) and cleaned before any field is read. Every reader bounds
its input (`fields/bounds.py`, MAX_REFERENCES); problems are returned as warnings, one line each.
"""

from __future__ import annotations

import codecs
import json
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from citetracer.extract.fields.bounds import ParseBudget, bounded
from citetracer.extract.fields.normalizers import clean_reference
from citetracer.extract.fields.parser import parse_reference_string
from citetracer.extract.layout.region import opens_back_matter
from citetracer.extract.readers.bibtex import BibEntry, entry_to_reference, parse_bibtex
from citetracer.extract.readers.csljson import looks_like_csl, read_csl_references
from citetracer.extract.readers.ris import looks_like_ris, read_ris_references
from citetracer.extract.result import MAX_REFERENCES, ReadResult
from citetracer.extract.segmentation import plausibility
from citetracer.extract.segmentation.confidence import doi_count_warnings, text_dois
from citetracer.normalize.names import parse_people, parse_person
from citetracer.normalize.text import canonical_arxiv, canonical_doi, clean_text, clean_title, parse_year
from citetracer.records import Person, Reference


def _legacy_bytes(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: bytes that are not UTF-8 read as Windows-1252 (Latin-1 where it has no character)."""
    assert isinstance(exc, UnicodeDecodeError)
    bad = exc.object[exc.start : exc.end]
    return "".join(bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in bad), exc.end


codecs.register_error("citetracer-legacy", _legacy_bytes)


def decode_text(data: bytes) -> tuple[str, str | None]:
    """The text of a file read as UTF-8, and what was not UTF-8 (None when all of it was).

    A .bib is often UTF-8 with an entry pasted from an older file in Latin-1 or Windows-1252: only the
    bytes that are not UTF-8 are read in that encoding, so the rest keeps its letters (reading the
    whole file as Latin-1 turned every UTF-8 "Ü" into "Ã\x9c", and `--fix` wrote that back)."""
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        first = exc.start
    text = data.decode("utf-8-sig", errors="citetracer-legacy")
    return text, f"not valid UTF-8 from byte {first}; the bytes that are not were read as Windows-1252/Latin-1"


_BIB_COMMAND = re.compile(r"\\(?:bibliography|addbibresource)\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}")


def _bibliography_files(tex: str, folder: Path) -> list[Path]:
    """The .bib files a LaTeX document names with \\bibliography{a,b} or \\addbibresource{a.bib}."""
    out: list[Path] = []
    for m in _BIB_COMMAND.finditer(tex):
        for name in m.group(1).split(","):
            name = name.strip()
            if not name:
                continue
            candidate = (folder / name).with_suffix(".bib") if not name.endswith(".bib") else folder / name
            out.append(candidate)
    return out[:20]


def bibliography_files_inside(tex: str, path: Path) -> tuple[list[Path], list[str]]:
    """The .bib files the LaTeX document at `path` names that lie in its own folder (or below it), and one
    warning for each name outside it.

    Why: only files the user named are opened. Giving a .tex names the .bib files beside it, as a
    LaTeX project keeps them; an absolute name, a '..' or a link out of the folder is another file
    (`\\bibliography{/home/someone/secret}`), read only when given on the command line. `\\input` and
    `\\include` are never followed."""
    folder = path.parent.resolve()
    inside: list[Path] = []
    warnings: list[str] = []
    for bib in _bibliography_files(tex, path.parent):
        try:
            ok = bib.resolve().is_relative_to(folder)
        except (OSError, RuntimeError):  # a link loop
            ok = False
        if ok:
            inside.append(bib)
        else:
            warnings.append(
                f"{path}: \\bibliography names {bib}, outside the folder of {path.name}; not read (give it on the "
                "command line to check it)"
            )
    return inside, warnings


#: A line opening a BibTeX entry ('@article{'). The indent is spaces and tabs only: with `\s*` a run of
#: blank lines was rescanned from every line start (192 KB of newlines took 54 s).
BIBTEX_ENTRY = re.compile(r"(?m)^[^\S\n]*@\w+\s*[{(]")


def looks_like_bibtex(text: str) -> bool:
    """Whether some line of `text` opens a BibTeX entry."""
    return BIBTEX_ENTRY.search(text) is not None


def read_text(text: str, suffix: str = "") -> ReadResult:
    """References from text whose format is guessed from its content (and suffix). The text is cleaned first
    (`clean_text`: a word broken at a line end is joined while the line ends are there to show it; ligatures,
    split accents, soft hyphens); each reader cleans the fields it reads as well."""
    managed = read_managed(text, suffix)  # RIS and CSL-JSON clean their own fields
    if managed is not None:
        return managed
    text = clean_text(text)
    stripped = text.lstrip()
    if suffix == ".bib" or (looks_like_bibtex(text) and suffix not in (".txt", ".jsonl")):
        return read_bibtex(text)
    if suffix in (".bbl", ".tex") or "\\bibitem" in text:
        return read_bbl(text)
    if suffix in (".jsonl", ".ndjson") or (stripped.startswith("{") and suffix != ".txt"):
        return read_jsonl(text)
    return read_plain(text)


def read_managed(text: str, suffix: str = "") -> ReadResult | None:
    """A reference manager's export (Zotero, Mendeley, EndNote): RIS (readers/ris.py) or a CSL-JSON library
    (readers/csljson.py); None for any other text."""
    if suffix == ".ris" or (suffix not in (".bib", ".tex", ".bbl") and looks_like_ris(text)):
        refs, warnings = read_ris_references(text, MAX_REFERENCES)
        return ReadResult(references=refs, warnings=warnings, kind="ris")
    array = suffix == ".json" and text.lstrip("\ufeff \t\r\n").startswith("[")
    if array or (suffix not in (".jsonl", ".ndjson", ".txt") and looks_like_csl(text)):
        try:
            refs, warnings = read_csl_references(text, MAX_REFERENCES)
        except ValueError as exc:
            return ReadResult(warnings=[f"CSL-JSON: {exc}"], kind="csl-json")
        return ReadResult(references=refs, warnings=warnings, kind="csl-json")
    return None


def read_bibtex(text: str) -> ReadResult:
    """References from BibTeX text, with the parser's errors and a warning when more entries than MAX_REFERENCES were
    given.
    """
    parsed = parse_bibtex(text)
    refs = [entry_to_reference(e) for e in parsed.entries[:MAX_REFERENCES]]
    return ReadResult(
        references=refs, warnings=parsed.errors + _over_cap(len(parsed.entries), "entries"), kind="bibtex"
    )


def _over_cap(found: int, what: str) -> list[str]:
    """The warning for an input with more references than are read (never cut silently)."""
    if found <= MAX_REFERENCES:
        return []
    return [f"{found:,} {what}; only the first {MAX_REFERENCES:,} were read"]


#: Keys and optional labels are bounded (an unclosed `\bibitem{` once made every match scan to the file's end).
_BIBITEM = re.compile(r"\\bibitem\s*(?:\[((?:[^\[\]]|\[[^\]]{0,500}\]){0,500})\])?\s*\{([^}]{0,500})\}")


def read_bbl(text: str) -> ReadResult:
    """A .bbl file or a LaTeX document's thebibliography environment."""
    env = re.search(r"\\begin\{thebibliography\}(?:\{[^}]*\})?(.*?)(?:\\end\{thebibliography\}|$)", text, re.S)
    body = env.group(1) if env else text
    items = list(_BIBITEM.finditer(body))
    refs: list[Reference] = []
    warnings: list[str] = []
    warnings.extend(_over_cap(len(items), "\\bibitem entries"))
    budget = ParseBudget(min(len(items), MAX_REFERENCES))
    for i, m in enumerate(items[:MAX_REFERENCES]):
        if budget.spent():
            warnings.append(budget.warning(i))
            break
        end = items[i + 1].start() if i + 1 < len(items) else len(body)
        chunk = body[m.end() : end]
        chunk = re.sub(r"\\newblock\s*", " ", chunk)
        chunk = re.sub(r"(?<!\\)%.*", "", chunk)
        chunk = re.sub(r"\\(?:emph|textit|textbf|bibinfo\{[^}]*\}|bibfield\{[^}]*\})\s*", "", chunk)
        chunk = chunk.replace("~", " ")
        if not chunk.strip():
            warnings.append(f"\\bibitem {m.group(2)!r} is empty; skipped")
            continue
        chunk, cuts = bounded(chunk, f"\\bibitem {m.group(2)[:40]!r}")
        warnings.extend(cuts)
        ref = parse_reference_string(chunk)
        ref.label = m.group(2).strip() or str(i + 1)
        ref.type = "bibitem"
        refs.append(ref)
    if not items:
        warnings.append("no \\bibitem found")
    return ReadResult(references=refs, warnings=warnings, kind="bbl")


def read_plain(text: str) -> ReadResult:
    """One reference per line, or references separated by blank lines."""
    blocks = [b for b in re.split(r"\n\s*\n", text) if b.strip()]
    if len(blocks) <= 1 or all("\n" not in b.strip() for b in blocks):
        blocks = [line for line in text.splitlines() if line.strip()]
    refs = []
    warnings = _over_cap(len(blocks), "entries")
    yearless = 0
    entries: list[str] = []
    budget = ParseBudget(min(len(blocks), MAX_REFERENCES))
    for i, block in enumerate(blocks[:MAX_REFERENCES]):
        if budget.spent():
            warnings.append(budget.warning(i))
            break
        one_line = " ".join(block.split())
        entries.append(one_line)
        if len(one_line) < 15:
            continue
        one_line, cuts = bounded(one_line, f"entry {i + 1}")
        warnings.extend(cuts)
        ref = parse_reference_string(one_line)
        if not (ref.year or ref.doi or ref.arxiv_id or ref.url):
            why = not_a_reference(ref)
            if why:
                warnings.append(f"entry {i + 1} {why}; not read as a reference: {one_line[:60]!r}")
                continue
            yearless += 1
        label = re.match(r"^\s*\[([^\]]{1,20})\]", one_line)
        ref.label = label.group(1) if label else str(i + 1)
        refs.append(ref)
    if yearless:
        warnings.append(
            f"{yearless} {'entries have' if yearless > 1 else 'entry has'} no year: checked by title and authors, "
            "without the rules that need a year"
        )
    # A list whose entries carry DOIs loses none silently: a DOI set apart from its entry (on a line of its own)
    # or two entries read as one (one per line, in groups split by blank lines) is said.
    warnings.extend(doi_count_warnings(text_dois(entries), refs, _ENTRY_HINT))
    return ReadResult(references=refs, warnings=warnings, kind="text")


#: What to check when a plain-text list's DOIs and entries disagree.
_ENTRY_HINT = "give one reference per line, or separate references by blank lines"


def not_a_reference(ref: Reference) -> str | None:
    """Why an entry of a list of references that has no year and no identifier is not read as one, or None.

    A line of prose has no year either, so such an entry must show what a reference is made of: authors and a
    title ("Eran Tromer, Dag Arne Osvik, and Adi Shamir. Efficient cache attacks on AES, and countermeasures."
    is a reference, and a fabrication written so is still checked: P1 when nothing is known, H1 when its absence
    is proven). Without a venue, the authors must be named in full (a given name or initials with each family
    name: "Zhang et al. showed that ...", "Proof. By Lemma 2 ..." name no one), the title must have two words,
    and the line must not be a heading, an equation or a table row (the plausibility guard)."""
    raw = ref.raw or ""
    kind = plausibility.kind_of_item(raw)
    if kind:
        return f"looks like {'an' if kind[0] in 'aeiou' else 'a'} {kind}"
    if not (ref.title and ref.authors):
        return "has no year, identifier, or authors and title"
    if opens_back_matter(raw):
        return "opens with the name of a section"
    if ref.venue or ref.publisher:
        return None
    if len(ref.title.split()) < 2 or any(not p.given for p in ref.authors):
        return "has no year, identifier or venue, and its authors are not named in full"
    return None


def read_jsonl(text: str) -> ReadResult:
    """JSON lines: REFERENCE objects, or BibTeX-like entries ({"bibtex_key", "bibtex_type", "fields"})."""
    refs: list[Reference] = []
    warnings: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if len(refs) >= MAX_REFERENCES:
            warnings.append(f"more than {MAX_REFERENCES} records; the rest ignored")
            break
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            warnings.append(f"line {n}: invalid JSON ({exc.msg}); skipped")
            continue
        except RecursionError:  # nested deeper than Python's stack: no reference is
            warnings.append(f"line {n}: JSON nested too deep; skipped")
            continue
        if not isinstance(obj, dict):
            warnings.append(f"line {n}: not a JSON object; skipped")
            continue
        try:
            refs.append(reference_from_json(obj))
        except (ValidationError, ValueError, TypeError) as exc:
            warnings.append(f"line {n}: not a reference record ({str(exc).splitlines()[0]}); skipped")
    return ReadResult(references=refs, warnings=warnings, kind="jsonl")


def reference_from_json(obj: dict[str, Any]) -> Reference:
    """A reference from one JSONL object: a BibTeX-like field dump (bibtex_type, bibtex_key, fields) or the REFERENCE
    contract's own fields.
    """
    obj = _cleaned(obj)
    raw_fields = obj.get("fields")
    if isinstance(raw_fields, dict):
        fields = {str(k).lower(): str(v) for k, v in raw_fields.items() if v is not None}
        entry = BibEntry(
            type=str(obj.get("bibtex_type") or "misc"),
            key=str(obj.get("bibtex_key") or obj.get("id") or ""),
            fields=fields,
            line=0,
        )
        return entry_to_reference(entry)
    data = dict(obj)
    authors = data.get("authors") or []
    people: list[Person] = []
    et_al = bool(data.get("et_al"))
    if isinstance(authors, str):
        people, et_al = parse_people(authors)
    elif isinstance(authors, list):
        for a in authors:
            if isinstance(a, str):
                if a.strip().lower() in ("others", "et al.", "et al"):
                    et_al = True
                elif (p := parse_person(a)) is not None:
                    people.append(p)
            elif isinstance(a, dict):
                people.append(Person.model_validate(a))
    data["authors"] = people
    data["et_al"] = et_al
    data["year"] = parse_year(data.get("year"))
    data["doi"] = canonical_doi(str(data["doi"])) if data.get("doi") else None
    data["arxiv_id"] = canonical_arxiv(str(data["arxiv_id"])) if data.get("arxiv_id") else None
    if isinstance(data.get("title"), str):
        data["title"] = clean_title(str(data["title"]))
    if data.get("label") is None and data.get("id") is not None:
        data["label"] = str(data["id"])
    known = set(Reference.model_fields) - {"confidence"}  # a PDF reader's measure, never an input's
    return clean_reference(Reference.model_validate({k: v for k, v in data.items() if k in known}))


def _cleaned(value: Any, depth: int = 0) -> Any:
    """A JSON value with `clean_text` applied to every string in it (escapes such as "\u00ad" or "\ufb01" reach
    the fields only once the JSON is decoded); nesting beyond a record's is left as it is."""
    if isinstance(value, str):
        return clean_text(value)
    if depth > 4:
        return value
    if isinstance(value, dict):
        return {k: _cleaned(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_cleaned(v, depth + 1) for v in value]
    return value
