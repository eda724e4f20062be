"""A tolerant BibTeX reader: real-world .bib files, not just well-formed ones.

Handles @string macros and `#` concatenation, the standard month macros,
braced and quoted values, `crossref` inheritance, @comment / @preamble, and
entries written with parentheses. A malformed entry is reported (with its
line) and skipped; reading resumes at the next entry. Values keep their
LaTeX; fields are rendered to text when references are built.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from citetracer.extract.fields.normalizers import clean_reference
from citetracer.normalize.names import parse_people
from citetracer.normalize.text import (
    arxiv_from_doi,
    canonical_arxiv,
    canonical_doi,
    clean_text,
    clean_title,
    latex_to_text,
    parse_year,
)
from citetracer.records import Reference

MONTHS = {
    m: str(i + 1)
    for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])
}
#: Cap on one field's length: no real field needs more, and it bounds work on hostile input.
MAX_VALUE_CHARS = 20_000
_NAME = re.compile(r"[^\s\"#%'(),={}]+")
_ENTRY_START = re.compile(r"(?m)^[ \t]*@")


@dataclass
class BibEntry:
    type: str
    key: str
    fields: dict[str, str]
    line: int
    #: Offsets in the text: the entry's '@' to just past its closer, and each own field's value
    #: (report/bibfix.py edits entries in place, keeping everything else as written).
    start: int = 0
    end: int = 0
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass
class BibParseResult:
    entries: list[BibEntry] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class _Abort(Exception):
    pass


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.macros: dict[str, str] = dict(MONTHS)
        #: @string macros whose definition was skipped: a value that uses one is skipped too (read as the
        #: macro's bare name it would be a made-up title).
        self.broken: set[str] = set()
        self.value_end = 0
        #: Line number at `_line_pos`: entries are met in order, so each count continues the last
        #: one (counting from the file's start for every entry was quadratic: a 50 MB .bib took 37 min).
        self._line_pos, self._line_no = 0, 1

    def line(self, pos: int | None = None) -> int:
        pos = self.pos if pos is None else pos
        if pos < self._line_pos:  # never happens in one pass; stay correct if it does
            self._line_pos, self._line_no = 0, 1
        self._line_no += self.text.count("\n", self._line_pos, pos)
        self._line_pos = pos
        return self._line_no

    def skip_ws(self) -> None:
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch.isspace():
                self.pos += 1
            elif ch == "%":  # comment to end of line, outside values
                nl = self.text.find("\n", self.pos)
                self.pos = len(self.text) if nl < 0 else nl + 1
            else:
                break

    def expect(self, chars: str) -> str:
        self.skip_ws()
        if self.pos >= len(self.text) or self.text[self.pos] not in chars:
            found = self.text[self.pos : self.pos + 10] or "end of file"
            raise _Abort(f"expected {' or '.join(repr(c) for c in chars)}, found {found!r}")
        ch = self.text[self.pos]
        self.pos += 1
        return ch

    def name(self) -> str:
        self.skip_ws()
        m = _NAME.match(self.text, self.pos)
        if not m:
            raise _Abort(f"expected a name, found {self.text[self.pos : self.pos + 10]!r}")
        self.pos = m.end()
        return m.group(0)

    def braced(self) -> str:
        depth, start = 1, self.pos
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch == "\\":
                self.pos += 2
                continue
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    self.pos += 1
                    return self.text[start : self.pos - 1]
            elif ch == "@" and depth == 1 and self.text[self.pos - 1] == "\n":
                raise _Abort("unbalanced braces: a new entry starts inside this value")
            self.pos += 1
            if self.pos - start > MAX_VALUE_CHARS:
                raise _Abort("value too long (unbalanced braces?)")
        raise _Abort("unbalanced braces at end of file")

    def quoted(self) -> str:
        depth, start = 0, self.pos
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch == "\\":
                self.pos += 2
                continue
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == '"' and depth == 0:
                self.pos += 1
                return self.text[start : self.pos - 1]
            elif ch == "@" and self.text[self.pos - 1] == "\n":
                raise _Abort("unterminated quoted value")
            self.pos += 1
            if self.pos - start > MAX_VALUE_CHARS:
                raise _Abort("value too long (unterminated quote?)")
        raise _Abort("unterminated quoted value at end of file")

    def value(self) -> str:
        """A field's or macro's value: braced and quoted pieces, numbers and macros joined by '#'.

        The joined length is capped like one piece's (`MAX_VALUE_CHARS`): macros that each join the one
        before twice double at every line, and forty such lines expanded to terabytes (a 2 KB .bib
        took 24 GB before it was stopped)."""
        parts: list[str] = []
        length = 0
        while True:
            self.skip_ws()
            if self.pos >= len(self.text):
                raise _Abort("value missing at end of file")
            ch = self.text[self.pos]
            if ch == "{":
                self.pos += 1
                parts.append(self.braced())
            elif ch == '"':
                self.pos += 1
                parts.append(self.quoted())
            else:
                token = self.name()
                if token.isdigit():
                    parts.append(token)
                elif token.lower() in self.broken:
                    raise _Abort(f"uses @string {token!r}, which was skipped")
                else:
                    parts.append(self.macros.get(token.lower(), token))
            length += len(parts[-1])
            if length > MAX_VALUE_CHARS:
                raise _Abort(f"value longer than {MAX_VALUE_CHARS:,} characters once its @string macros are joined")
            self.value_end = self.pos
            self.skip_ws()
            if self.pos < len(self.text) and self.text[self.pos] == "#":
                self.pos += 1
                continue
            return "".join(parts)

    def next_entry_start(self) -> int:
        """Position of the next '@' that starts an entry (at a line start or after whitespace)."""
        m = _ENTRY_START.search(self.text, self.pos)
        return m.end() - 1 if m else -1

    def parse(self) -> BibParseResult:
        result = BibParseResult()
        while True:
            at = self.text.find("@", self.pos)
            if at < 0:
                break
            self.pos = at + 1
            start_line = self.line(at)
            try:
                kind = self.name().lower()
                if kind == "comment":
                    self.skip_ws()
                    if self.text[self.pos : self.pos + 1] == "{":
                        self.pos += 1
                        self.braced()
                    continue
                opener = self.expect("{(")
                closer = "}" if opener == "{" else ")"
                if kind == "preamble":
                    self.value()
                    self.expect(closer)
                    continue
                if kind == "string":
                    name = self.name()
                    self.expect("=")
                    try:
                        self.macros[name.lower()] = self.value()
                    except _Abort:
                        self.broken.add(name.lower())
                        self.macros.pop(name.lower(), None)
                        raise
                    self.broken.discard(name.lower())
                    self.expect(closer)
                    continue
                self.skip_ws()
                key = "" if self.text[self.pos : self.pos + 1] == "," else self.name()
                fields: dict[str, str] = {}
                spans: dict[str, tuple[int, int]] = {}
                while True:
                    self.skip_ws()
                    if self.pos < len(self.text) and self.text[self.pos] == ",":
                        self.pos += 1
                        self.skip_ws()
                    if self.pos < len(self.text) and self.text[self.pos] == closer:
                        self.pos += 1
                        break
                    fname = self.name().lower()
                    self.expect("=")
                    self.skip_ws()
                    value_start = self.pos
                    fields[fname] = self.value()
                    spans[fname] = (value_start, self.value_end)
                    self.skip_ws()
                    if self.pos < len(self.text) and self.text[self.pos] not in "," + closer:
                        raise _Abort(f"expected ',' or '{closer}' after field {fname!r}")
                result.entries.append(
                    BibEntry(type=kind, key=key, fields=fields, line=start_line, start=at, end=self.pos, spans=spans)
                )
            except _Abort as exc:
                label = f"entry at line {start_line}"
                result.errors.append(f"BibTeX {label}: {exc}; entry skipped")
                nxt = self.next_entry_start()
                self.pos = len(self.text) if nxt < 0 or nxt <= at else nxt
        return result


def parse_bibtex(text: str) -> BibParseResult:
    """Entries and per-entry errors of a .bib text; @string and crossref resolved."""
    result = _Parser(text).parse()
    by_key = {e.key.lower(): e for e in result.entries}
    for entry in result.entries:
        parent_key = entry.fields.get("crossref", "").strip().lower()
        parent = by_key.get(parent_key)
        if parent is not None and parent is not entry:
            for name, value in parent.fields.items():
                if name == "title" and "booktitle" not in entry.fields:
                    entry.fields["booktitle"] = value
                elif name not in entry.fields and name not in ("crossref", "title"):
                    entry.fields[name] = value
    return result


_VENUE_FIELDS = ("journal", "booktitle", "journaltitle", "series", "howpublished", "school", "institution")


def entry_to_reference(entry: BibEntry) -> Reference:
    """A Reference from a BibTeX entry: damaged text cleaned (`clean_text`: a field pasted from a PDF carries its
    ligatures and split accents), LaTeX rendered, identifiers canonicalized."""
    f = {name: clean_text(value) for name, value in entry.fields.items()}
    authors, et_al = parse_people(f.get("author", "")) if f.get("author") else ([], False)
    if not authors and f.get("editor"):
        authors, et_al = parse_people(f["editor"])
    venue = next((latex_to_text(f[k]) for k in _VENUE_FIELDS if f.get(k)), None)
    if venue and f.get("howpublished") and venue == latex_to_text(f["howpublished"]) and "\\url" in f["howpublished"]:
        venue = None
    doi = canonical_doi(f.get("doi"))
    url = f.get("url") or _url_in(f.get("howpublished")) or None
    if not doi and url:
        doi = canonical_doi(url) if "doi.org/" in url else None
    eprint = f.get("eprint") if (f.get("archiveprefix") or f.get("eprinttype") or "").lower() == "arxiv" else None
    arxiv = (
        canonical_arxiv(eprint)
        or (canonical_arxiv(f.get("arxiv")) if f.get("arxiv") else None)
        or arxiv_from_doi(doi)
        or (canonical_arxiv(url) if url and "arxiv.org" in url else None)
        or (canonical_arxiv(venue) if venue and "arxiv" in venue.lower() else None)
    )
    number = f.get("number") or f.get("issue")
    raw_fields = ", ".join(f"{k} = {{{v}}}" for k, v in f.items())
    reference = Reference(
        raw=f"@{entry.type}{{{entry.key}, {raw_fields}}}"[:4000],
        title=clean_title(f["title"]) if f.get("title") else None,
        authors=authors,
        et_al=et_al,
        venue=venue,
        year=parse_year(f.get("year") or f.get("date")),
        doi=doi,
        arxiv_id=arxiv,
        pages=latex_to_text(f["pages"]).replace("--", "-") if f.get("pages") else None,
        volume=f.get("volume"),
        issue=number,
        publisher=latex_to_text(f["publisher"]) if f.get("publisher") else None,
        location=latex_to_text(f["address"]) if f.get("address") else None,
        url=url,
        type=entry.type,
        label=entry.key,
    )
    return clean_reference(reference)


def _url_in(value: str | None) -> str | None:
    if not value:
        return None
    m = re.search(r"\\url\{([^}]+)\}|(https?://\S+)", value)
    return (m.group(1) or m.group(2)) if m else None
