"""Corrected BibTeX (`check REFS.bib --fix OUT.bib`): the same file, entries fixed from the proving record.

The output is the input text with three kinds of edits, everything else (keys, @string,
@preamble, comments, formatting, fields we do not know) kept as written:

- a citation judged **Real** gets the fields that the record proving it has and the entry
  lacks (DOI, pages, volume, ...), with a comment line above it saying what was added from
  which record. What the author wrote is never rewritten: a Real verdict means it is right
  up to formatting (an abbreviated venue, initials), and when a cited field differs from the
  record the citation matches another version of the work (the preprint of a published
  paper), whose fields must not be mixed in, so nothing is added then;
- a **Potential** entry is kept unchanged under a comment with the reason;
- a **Hallucinated** entry is kept unchanged under a comment that marks it, with the
  reason and what the record has in the offending fields: it is never dropped, the
  author decides.

Earlier `% citetracer:` comments are replaced, so fixing a fixed file does not pile them up.
Results may be fed one by one (`add`), in any order; the file is written by `write`.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from citetracer.extract.readers.bibtex import BibEntry, parse_bibtex
from citetracer.records import CitationResult, EvidenceEntry, FieldComparison, Reference
from citetracer.report.sources import read_text_file
from citetracer.report.views import NOT_THIS_WORK, lead_reason

MARK = "% citetracer: "
#: Our field -> the BibTeX field it is written to (the venue depends on the entry type).
BIB_FIELD = {
    "title": "title",
    "authors": "author",
    "year": "year",
    "doi": "doi",
    "pages": "pages",
    "volume": "volume",
    "issue": "number",
    "publisher": "publisher",
    "arxiv_id": "eprint",
}
VENUE_FIELDS = ("journal", "booktitle", "journaltitle", "series", "howpublished", "school", "institution")
VENUE_BY_TYPE = {
    "article": "journal",
    "inproceedings": "booktitle",
    "incollection": "booktitle",
    "conference": "booktitle",
}
#: Fields whose text goes into the document as LaTeX (so specials are escaped); the others are identifiers.
TEXT_FIELDS = {"title", "author", "journal", "booktitle", "publisher"}
_SPECIALS = re.compile(r"([&%#_$])")


def bib_value(field: str, value: str) -> str:
    """A record's value as a braced BibTeX value (LaTeX specials escaped in text fields)."""
    value = " ".join(value.split())
    if field in TEXT_FIELDS:
        value = _SPECIALS.sub(r"\\\1", value.replace("\\", ""))
    if value.count("{") != value.count("}"):
        value = value.replace("{", "").replace("}", "")
    if field == "pages":
        value = re.sub(r"\s*[-–—]+\s*", "--", value)
    if field == "author":
        value = " and ".join(n.strip() for n in value.split(";") if n.strip() and n.strip() != "et al.")
    return "{" + value + "}"


def _comment(text: str) -> str:
    """One comment line: no line breaks, and no '@' (BibTeX would read it as an entry start)."""
    return MARK + " ".join(text.replace("@", "(at)").split()) + "\n"


@dataclass
class Edit:
    field: str
    value: str


def real_edits(entry: BibEntry, c: CitationResult) -> list[Edit]:
    """Fields of the proving record that a Real citation's entry lacks (none if any cited field differs)."""
    if any(fc.status == "mismatch" for fc in c.comparisons):
        return []
    edits = []
    for fc in c.comparisons:
        name = _bib_field(entry, fc)
        if name is None or not fc.found or fc.cited or name in entry.fields:
            continue
        if fc.status == "missing":
            edits.append(Edit(name, fc.found))
    if any(e.field == "eprint" for e in edits) and "archiveprefix" not in entry.fields:
        edits.append(Edit("archiveprefix", "arXiv"))
    return edits


def _bib_field(entry: BibEntry, fc: FieldComparison) -> str | None:
    if fc.field == "venue":
        own = next((k for k in VENUE_FIELDS if k in entry.fields), None)
        return own or VENUE_BY_TYPE.get(entry.type)
    if fc.field == "issue" and "issue" in entry.fields:
        return "issue"
    if fc.field == "arxiv_id" and not _is_preprint(entry):
        return None  # an arXiv id added to a published work would change how styles print it
    return BIB_FIELD.get(fc.field)


def _is_preprint(entry: BibEntry) -> bool:
    if "eprint" in entry.fields or "arxiv" in entry.fields:
        return False
    venue = " ".join(entry.fields.get(k, "") for k in VENUE_FIELDS).lower()
    return "arxiv" in venue or not venue.strip()


def _layout(body: str) -> tuple[str, int]:
    """The indentation and the width before '=' of the entry's first field line ('  title     = ')."""
    m = re.search(r"\n([ \t]+)([A-Za-z][\w-]*)([ \t]*)=", body)
    if not m:
        return "  ", 0
    return m.group(1), len(m.group(2)) + len(m.group(3))


def apply_edits(text: str, entry: BibEntry, edits: list[Edit]) -> str:
    """The entry's text with the fields added after its last field, in its own layout."""
    body = text[entry.start : entry.end]
    if not edits:
        return body
    indent, width = _layout(body)
    added = "".join(
        f",\n{indent}{e.field.ljust(width) if width > len(e.field) else e.field + ' '}= " + bib_value(e.field, e.value)
        for e in edits
    )
    if entry.spans:
        cut = max(b for _, b in entry.spans.values()) - entry.start
    else:  # no fields: add before the closing brace
        cut = len(body) - 1
        added = added.lstrip(",") + "\n"
    return body[:cut] + added + body[cut:]


def _record_has(c: CitationResult) -> str:
    """' The record (source:id) has field = value.' for the offending fields, when the record is this work."""
    if c.verdict.code in NOT_THIS_WORK or not c.verdict.evidence:
        return ""
    found = {fc.field: fc.found for fc in c.comparisons if fc.status == "mismatch" and fc.found}
    parts = [f"{f} = {found[f][:200]}" for f in c.verdict.fields if f in found]
    if not parts:
        return ""
    e = c.verdict.evidence[0]
    return f" The record {e.get('source')}:{e.get('id')} has {'; '.join(parts)}."


def entry_comment(c: CitationResult, edits: list[Edit]) -> str | None:
    """The comment written above an entry of the corrected BibTeX: its verdict, the reason and what was done to it
    (None for a Real entry left as it is).
    """
    v = c.verdict
    reason = re.sub(r"^[RPH]\d:\s*", "", lead_reason(v.rationale))
    codes = ", ".join(v.codes)
    if v.class_ == "Hallucinated":
        return _comment(f"HALLUCINATED ({codes}): {reason}.{_record_has(c)} Kept so you can correct or remove it.")
    if v.class_ == "Potential":
        return _comment(f"Potential ({codes}): {reason}.{_record_has(c)} Unchanged; check it by hand.")
    if not edits:
        return None
    proof = next((f"{e.get('source')}:{e.get('id')}" for e in v.evidence), "the record")
    return _comment(f"Real {v.code}: added {', '.join(e.field for e in edits)} from {proof}.")


def fix_view(c: CitationResult) -> CitationResult:
    """What the corrected BibTeX reads of a citation's result: its id, its verdict with the first evidence
    record's source and id (the comments name it), and the fields that differ (no reference, no cost)."""
    v = c.verdict
    evidence: list[EvidenceEntry] = []
    for e in v.evidence[:1]:
        named: EvidenceEntry = {}
        if "source" in e:
            named["source"] = e["source"]
        if "id" in e:
            named["id"] = e["id"]
        evidence.append(named)
    return CitationResult(
        id=c.id,
        reference=Reference(),
        verdict=v.model_copy(update={"evidence": evidence}),
        comparisons=[fc for fc in c.comparisons if fc.status != "match"],
    )


class ResultsOnDisk(MutableMapping[str, CitationResult]):
    """A BibFixer's results kept in a scratch SQLite file rather than in memory (`fix_view`s, as JSON).

    Why: the corrected BibTeX is written once every citation is judged (a key's first result wins
    across papers), so whatever holds the results holds all of them: a 20,000-citation web job kept
    ~11 KB a citation in memory for it. Only the thread that made it may use it (SQLite's rule);
    `close()` deletes the file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        path.unlink(missing_ok=True)
        self.db = sqlite3.connect(path)
        self.db.executescript(
            "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
            "CREATE TABLE results (id TEXT PRIMARY KEY, result TEXT NOT NULL);"
        )

    def __getitem__(self, key: str) -> CitationResult:
        row = self.db.execute("SELECT result FROM results WHERE id = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return CitationResult.model_validate_json(row[0])

    def __setitem__(self, key: str, value: CitationResult) -> None:
        self.db.execute("INSERT OR REPLACE INTO results VALUES (?, ?)", (key, value.model_dump_json(by_alias=True)))

    def __delitem__(self, key: str) -> None:
        if self.db.execute("DELETE FROM results WHERE id = ?", (key,)).rowcount == 0:
            raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter([row[0] for row in self.db.execute("SELECT id FROM results")])

    def __len__(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM results").fetchone()[0])

    def close(self) -> None:
        self.db.close()
        self.path.unlink(missing_ok=True)


class BibFixer:
    """Collects results (`add`) and writes the corrected text of the .bib files (`write`).

    `results`: where they are kept (a dict by default; `ResultsOnDisk` for a job of any size)."""

    def __init__(self, results: MutableMapping[str, CitationResult] | None = None) -> None:
        self.results: MutableMapping[str, CitationResult] = {} if results is None else results

    def add(self, c: CitationResult) -> None:
        """Keep what the fix reads of a citation's result for its entry (the first result of a key wins)."""
        if c.id not in self.results:
            self.results[c.id] = fix_view(c)

    def fixed_text(self, text: str) -> str:
        """The BibTeX text with each checked entry corrected from its evidence or commented, everything else byte for
        byte.
        """
        text = re.sub(r"(?m)^" + re.escape(MARK) + r".*\n?", "", text)
        out: list[str] = []
        pos = 0
        for entry in parse_bibtex(text).entries:
            c = self.results.get(entry.key)
            if c is None or entry.end <= entry.start:
                continue
            line_start = text.rfind("\n", 0, entry.start) + 1
            if text[line_start : entry.start].strip():  # '@' not at a line start: comment goes before it
                line_start = entry.start
            edits = real_edits(entry, c) if c.verdict.class_ == "Real" else []
            out.append(text[pos:line_start])
            comment = entry_comment(c, edits)
            if comment:
                out.append(comment if line_start == 0 or text[line_start - 1] == "\n" else "\n" + comment)
            out.append(text[line_start : entry.start])
            out.append(apply_edits(text, entry, edits) if edits else text[entry.start : entry.end])
            pos = entry.end
        out.append(text[pos:])
        return "".join(out)

    def write(self, sources: list[Path], out: IO[str]) -> None:
        """The corrected BibTeX of every source file, one after another."""
        for i, path in enumerate(sources):
            text = read_text_file(path)
            if text is None:
                continue
            if len(sources) > 1:
                out.write(("\n" if i else "") + _comment(f"from {path}"))
            out.write(self.fixed_text(text))
