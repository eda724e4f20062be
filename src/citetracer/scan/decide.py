"""A chair's decisions on a scan's report folder: find a citation, record a call, build the reports again.

`citetracer review DIR` (cli/review.py) and `citetracer serve --reports DIR` (web/reviews.py) both
go through here, so a call made on the terminal and one made with the page's buttons are the
same line of `DIR/decisions.jsonl` (report/decisions.py), and both rebuild the folder's reports
the way the scan built them (`.outputs.json`), under the scan's own folder lock: a rebuild never
runs while a scan writes the folder (the scan applies the decision itself when it writes).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from citetracer.records import CitationResult, Report
from citetracer.report.decisions import Call, DecisionBook, DecisionError, Decisions, make_call
from citetracer.scan.journal import JOURNAL, Entry
from citetracer.scan.outputs import OPTIONS, load_report, risk_order, write_outputs


class FolderError(Exception):
    """The folder is not a scan's report folder, or a citation named is not in it."""


def read_entries(folder: Path) -> list[Entry]:
    """The papers of a scan folder's journal (the last line of each wins), without the settings check a
    resumed scan makes: reading reports needs none."""
    path = folder / JOURNAL
    if not path.is_file():
        raise FolderError(f"{folder} is not a scan's report folder (no {JOURNAL}): give the -o DIR of a scan")
    entries: dict[str, Entry] = {}
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    for line in lines[1:]:
        try:
            data = json.loads(line) if line.strip() else None
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("key"), str):
            try:
                entries[data["key"]] = Entry.from_json(data)
            except TypeError:
                continue
    return list(entries.values())


@dataclass
class Found:
    """A citation of the folder, with the paper it is in and the call in force on it (applied)."""

    entry: Entry
    citation: CitationResult

    @property
    def handle(self) -> str:
        """How the terminal names it: 'PAPER:ID' (the paper's report name, the citation's id)."""
        return f"{self.entry.name}:{self.citation.id}"


class Folder:
    """A scan's report folder: its papers, their reports with the decisions applied, and its decisions."""

    def __init__(self, folder: Path) -> None:
        self.path = folder
        self.entries = read_entries(folder)
        self.book = DecisionBook(folder)
        self.decisions: Decisions = self.book.current()

    def report(self, e: Entry) -> Report:
        """A checked paper's report, with the decisions applied."""
        return self.decisions.apply(load_report(self.path / "papers" / f"{e.name}.json"), e.file, e.key)

    def citations(self) -> Iterator[Found]:
        """Every citation of every checked paper, papers riskiest first, citations in input order."""
        for e in risk_order([e for e in self.entries if e.status == "done"]):
            try:
                report = self.report(e)
            except (OSError, ValueError):
                continue
            for c in report.citations:
                yield Found(e, c)

    def find(self, paper: str, citation_id: str) -> Found:
        """The citation `citation_id` of the paper named `paper` (its report name, or its file as the reports
        show it); FolderError when there is none."""
        entry = next((e for e in self.entries if e.status == "done" and paper in (e.name, e.file)), None)
        if entry is None:
            raise FolderError(f"no checked paper named {paper!r} in {self.path}")
        try:
            report = self.report(entry)
        except (OSError, ValueError) as exc:
            raise FolderError(f"the report of {paper!r} cannot be read ({exc})") from None
        c = next((c for c in report.citations if c.id == citation_id), None)
        if c is None:
            raise FolderError(f"{paper!r} has no citation {citation_id!r}")
        return Found(entry, c)

    def parse_handle(self, handle: str) -> Found:
        """'PAPER:ID' as `Found.handle` writes it (a paper's report name has no ':'; an id may)."""
        paper, sep, citation_id = handle.partition(":")
        if not sep or not paper or not citation_id:
            raise FolderError(f"{handle!r}: name a citation as PAPER:ID (as `citetracer review DIR` lists them)")
        return self.find(paper, citation_id)

    def call(
        self, found: Found, action: str, reason: str = "", by: str = "", code: str | None = None
    ) -> tuple[Call, CitationResult]:
        """Record a call on a citation (DecisionError when it cannot be made) and return it with the citation as
        it now reads."""
        call = make_call(found.entry.file, found.entry.key, found.citation, action, reason, by, code)
        self.book.record([call])
        self.decisions = self.book.current()
        return call, self.find(found.entry.name, found.citation.id).citation

    def rebuild(self) -> bool:
        """Build the folder's reports again with the decisions applied, as the scan built them; False when a
        scan (or another rebuild) holds the folder: it applies the decisions itself when it writes."""
        try:
            options = json.loads((self.path / OPTIONS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            options = {}
        with _folder_lock(self.path) as held:
            if not held:
                return False
            write_outputs(
                self.path,
                read_entries(self.path),
                show=str(options.get("show") or "all"),
                context=str(options.get("context") or ""),
                copy_inputs=bool(options.get("copy_inputs")),
            )
        return True


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[bool]:
    """The scan's own lock on DIR/.lock (scan/runner.py), tried once: True when held."""
    with (folder / ".lock").open("w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True


__all__ = ["DecisionError", "Folder", "FolderError", "Found", "read_entries"]
