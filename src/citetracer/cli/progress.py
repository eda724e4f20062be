"""Progress bars for `check` of PDFs and for `scan`, on stderr when it is a terminal, silent otherwise.

A PDF with 60 references checked online takes tens of seconds; without a bar that is a
silent wait. Logs and pipes get no bar (and no control characters); warnings printed
through `.console` appear above a bar instead of breaking it.
"""

from __future__ import annotations

import time
from pathlib import Path
from types import TracebackType

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from citetracer.scan.journal import Entry


def _bar(console: Console) -> Progress:
    return Progress(
        SpinnerColumn(),
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


class CheckProgress:
    """Files and, within each, citations judged so far."""

    def __init__(self, console: Console, enabled: bool = True) -> None:
        self.console = console
        self.bar = _bar(console) if enabled and console.is_terminal else None
        self.files: TaskID | None = None
        self.cites: TaskID | None = None

    def __enter__(self) -> CheckProgress:
        if self.bar is not None:
            self.bar.__enter__()
            self.files = self.bar.add_task("files", total=None)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.__exit__(kind, exc, tb)

    def reading(self, path: Path) -> None:
        """Show which file is being read."""
        if self.bar is not None and self.files is not None:
            self.bar.update(self.files, description=f"reading {escape(path.name)}")

    def checking(self, n: int) -> None:
        """Start the citation bar of a file with `n` references."""
        if self.bar is None:
            return
        if self.cites is not None:
            self.bar.remove_task(self.cites)
        self.cites = self.bar.add_task("citations", total=n)

    def citation_done(self, _index: int) -> None:
        """Advance the citation bar by one."""
        if self.bar is not None and self.cites is not None:
            self.bar.advance(self.cites)

    def paper_done(self) -> None:
        """Advance the file bar by one."""
        if self.bar is not None and self.files is not None:
            self.bar.update(self.files, description="files")
            self.bar.advance(self.files)


#: Off a terminal (a log, CI, nohup), a scan prints a plain line every this many papers or seconds,
#: whichever comes first, and at the end: a 60 s scan used to print nothing until it was over.
PLAIN_EVERY_PAPERS = 10
PLAIN_EVERY_SECONDS = 30.0


class ScanProgress:
    """Papers finished, with how many have Hallucinated citations so far: a bar on a terminal, plain lines
    (no control characters) elsewhere."""

    def __init__(self, console: Console, decided: bool = False) -> None:
        self.console = console
        self.bar = _bar(console) if console.is_terminal else None
        self.task: TaskID | None = None
        #: The folder holds a chair's calls: the count as the papers finish is the checker's, before them
        #: (the summary applies them), and says so.
        self.as_checked = " as checked, before the chair's calls" if decided else ""
        self.flagged = 0
        self.total = 0
        self.done = 0
        self._started = time.monotonic()
        self._said_at = (0, self._started)

    def __enter__(self) -> ScanProgress:
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.__exit__(kind, exc, tb)

    def start(self, total: int, done: int) -> None:
        """Start the papers bar, with the papers a resumed scan already finished."""
        self.total, self.done = total, done
        self._started = time.monotonic()
        self._said_at = (done, self._started)
        if self.bar is not None:
            self.task = self.bar.add_task("papers", total=total, completed=done)
        else:
            resumed = f" ({done} done before, from the journal)" if done else ""
            self.console.print(f"scan: {total} papers{resumed}", highlight=False)

    def advance(self, entry: Entry) -> None:
        """Advance the papers bar, counting the papers with a Hallucinated citation."""
        self.done += 1
        if entry.hallucinated:
            self.flagged += 1
        if self.bar is not None and self.task is not None:
            self.bar.update(
                self.task, advance=1, description=f"papers ({self.flagged} with Hallucinated{self.as_checked})"
            )
        elif self.bar is None:
            self._plain_line()

    def _plain_line(self) -> None:
        now = time.monotonic()
        papers, when = self._said_at
        if self.done < self.total and self.done - papers < PLAIN_EVERY_PAPERS and now - when < PLAIN_EVERY_SECONDS:
            return
        self._said_at = (self.done, now)
        self.console.print(
            f"scan: {self.done}/{self.total} papers, {self.flagged} with Hallucinated citations{self.as_checked}, "
            f"{now - self._started:.0f} s",
            highlight=False,
        )
