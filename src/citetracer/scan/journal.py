"""The scan's journal: one JSON line per finished paper, beside the reports (`DIR/journal.jsonl`).

A paper is journaled only after its report file is in place, and each line is flushed
and fsynced before the next paper is counted, so a scan killed at any moment loses at
most the papers that were being checked; the next run with the same `-o DIR` skips
every journaled paper and checks the rest. A line cut short by the kill is ignored.

The first line records what decides verdicts (citetracer's version, offline, store, closed
world, today's year, LLM model, connectors); resuming under different ones would mix two kinds
of verdicts in one report, so it is refused unless the scan is restarted.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from citetracer.config import Settings, is_store_url
from citetracer.store.api import display_location
from citetracer.version import __version__

JOURNAL = "journal.jsonl"
FORMAT = 1
#: Statuses that count as finished: a checked paper, and one nothing could be read from (the
#: same file would fail the same way). A paper whose check failed is retried by the next run.
FINISHED = ("done", "unreadable")


class JournalError(Exception):
    """The output folder holds a journal this scan cannot continue."""


@dataclass
class Entry:
    key: str
    file: str
    path: str
    name: str
    status: str
    references: int = 0
    real: int = 0
    potential: int = 0
    hallucinated: int = 0
    codes: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    #: A checked PDF in which no reference list was found: its reading's line ("no reference list found in the PDF
    #: (pages 1-8 searched)"), so the scan's summary and exit code can tell it from a paper citing nothing
    #: without reading its report back; "" otherwise (and in entries journaled before it was recorded).
    no_list: str = ""
    seconds: float = 0.0
    #: Peak resident memory of the worker process, and of the PDF reader processes it started (MB).
    worker_rss_mb: float = 0.0
    reader_rss_mb: float = 0.0
    worker: int = 0
    run: str = ""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        """An entry from a journal line, ignoring fields a newer or older version wrote."""
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})


def settings_fingerprint(settings: Settings) -> dict[str, Any]:
    """The settings that change verdicts, as the journal records them."""
    return {
        "citetracer": __version__,
        "offline": settings.offline,
        "closed_world": settings.closed_world,
        "today_year": settings.today_year,
        "store": display_location(settings.store)
        if is_store_url(settings.store)
        else str(Path(settings.store).expanduser().resolve()),
        "llm_model": settings.llm.model if settings.llm.enabled else "",
        "connectors": sorted(settings.online.connectors),
    }


class Journal:
    def __init__(self, folder: Path, settings: Settings, restart: bool = False) -> None:
        self.path = folder / JOURNAL
        self.settings = settings_fingerprint(settings)
        self.entries: dict[str, Entry] = {}
        #: Lines that were not entries (damaged by hand or by a crash), one problem line each.
        self.skipped: list[str] = []
        if restart:
            self.path.unlink(missing_ok=True)
        if self.path.exists():
            self._load()
        else:
            header = {"citetracer_scan": FORMAT, "settings": self.settings, "started": _now()}
            self.path.write_text(json.dumps(header) + "\n", encoding="utf-8")
        self._fh = self.path.open("a", encoding="utf-8")

    def _load(self) -> None:
        with self.path.open("rb") as fh:
            data = fh.read()
        lines = data.decode("utf-8", errors="replace").split("\n")
        try:
            header = json.loads(lines[0])
        except (json.JSONDecodeError, IndexError):
            header = None
        if not isinstance(header, dict) or header.get("citetracer_scan") != FORMAT:
            raise JournalError(f"{self.path} is not a citetracer scan journal; choose another output folder")
        if header.get("settings") != self.settings:
            before = header.get("settings") or {}
            changed = ", ".join(
                f"{k} {before.get(k)!r} -> {v!r}" for k, v in self.settings.items() if before.get(k) != v
            )
            raise JournalError(
                f"{self.path} was written with other settings ({changed}); "
                "run with --restart to check every paper again, or write to another folder"
            )
        last = len(lines) - 1
        for n, line in enumerate(lines[1:], 2):
            if not line.strip():
                continue
            try:
                fields = json.loads(line)
                entry = Entry.from_json(fields) if isinstance(fields, dict) else None
            except (json.JSONDecodeError, TypeError):
                entry = None
            if entry is None or not isinstance(entry.key, str):
                if n - 1 != last:  # the last line may be the one a killed scan was writing: no news
                    self.skipped.append(f"{self.path}: line {n} is not a journal entry; skipped")
                continue
            self.entries[entry.key] = entry
        if data and not data.endswith(b"\n"):
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write("\n")

    def finished(self, key: str) -> bool:
        """Whether a resumed scan may skip this paper: its last entry is final."""
        entry = self.entries.get(key)
        return entry is not None and entry.status in FINISHED

    def append(self, entry: Entry) -> None:
        """Write an entry and fsync it, so a crash loses at most the paper being checked."""
        self._fh.write(json.dumps(asdict(entry), ensure_ascii=False) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self.entries[entry.key] = entry

    def close(self) -> None:
        """Close the journal file."""
        self._fh.close()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
