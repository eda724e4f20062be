"""Bounds on what the reference-string parser is given: its length and the time a whole file may take.

Why: some of the field parser's patterns cost the square of an unbroken run of
characters (a 20,000-character word took 17 s; a 10 MB line without spaces ran
for over half an hour), and a file may hold thousands of such entries. The
parser is a model trained on real references, so its input is bounded here,
in the readers, instead of in its patterns:
- a reference string keeps its first `MAX_REFERENCE_CHARS` characters (the
  longest real reference in the shared gold sets, a 280-author list, has 4,347);
- an unbroken run of non-space characters keeps its first `MAX_RUN_CHARS`
  (no word or identifier comes near it; a URL that long is cut, nothing else);
- a file's references are parsed within `ParseBudget` (30 s plus 25 ms per
  entry, twice the measured cost of a real one); the rest are not read, with a
  warning saying how many.
Each cut is reported as a warning of its own, one line each.
"""

from __future__ import annotations

import re
import time

MAX_REFERENCE_CHARS = 6000
MAX_RUN_CHARS = 1000
BUDGET_SECONDS = 30.0
BUDGET_PER_ENTRY = 0.025

_RUN = re.compile(r"\S+")  # finditer resumes after each run: linear (a `\S{n,}` search is not)


def bounded(text: str, entry: str) -> tuple[str, list[str]]:
    """The reference string as the parser may read it, and a warning for each cut made."""
    warnings = []
    if len(text) > MAX_REFERENCE_CHARS:
        warnings.append(f"{entry} is {len(text):,} characters long; only its first {MAX_REFERENCE_CHARS:,} were read")
        text = text[:MAX_REFERENCE_CHARS]
    if any(m.end() - m.start() > MAX_RUN_CHARS for m in _RUN.finditer(text)):
        text = _RUN.sub(lambda m: m.group(0)[:MAX_RUN_CHARS], text)
        warnings.append(f"{entry} has a run of more than {MAX_RUN_CHARS:,} characters without a space; it was cut")
    return text, warnings


class ParseBudget:
    """The time a file's references may take to parse (see the module docstring)."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self.seconds = BUDGET_SECONDS + BUDGET_PER_ENTRY * entries
        self.end = time.monotonic() + self.seconds

    def spent(self) -> bool:
        """Whether the time budget of this read is used up."""
        return time.monotonic() > self.end

    def warning(self, done: int) -> str:
        """The warning that says where reading stopped and how many entries were left unread."""
        return (
            f"reading stopped after {self.seconds:.0f}s at entry {done + 1} of {self.entries}: "
            f"the last {self.entries - done} entries were not read"
        )
