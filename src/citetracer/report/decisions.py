"""A chair's calls on flagged citations, kept in the report folder and applied to every later run (issue 44).

A chair reads a flagged citation and decides: it is fine (*dismissed*, with a reason: "checked by
hand", "known book") or it is wrong (*confirmed*). The call is kept in `decisions.jsonl` in the
report folder (a scan's `-o DIR`, a web job's folder), one JSON line per call, and the next scan
into that folder, the web app's result page and `citetracer review` all apply it: the reports show
and count it ("3 dismissed by the chair"), and a confirmed fabrication stays Hallucinated whatever a
later run says.

Identity: a call is about one citation of one paper, known by the paper (its content hash when the
folder's journal has one, and its name) and the citation's reference normalised (`reference_key`:
its text folded to words, so a re-extraction that changes spacing, case or accents finds it again;
not its position, which moves when a reference is added). The latest call for a citation wins; a
*cleared* call withdraws it.

Concurrent writers never lose a call: the file is only appended to, each append under an exclusive
`flock(2)` on the file itself (released by the kernel if the writer dies), flushed and fsynced; a
reader takes the shared lock, so it never reads half a line. A line cut short by a crash is skipped
and the next append starts on a line of its own (as the scan's journal does, scan/journal.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from citetracer.normalize.text import tokens
from citetracer.records import CitationResult, Decision, Reference, Report
from citetracer.taxonomy import CODES

DECISIONS = "decisions.jsonl"
ACTIONS = ("dismissed", "confirmed", "cleared")
#: The codes a confirmed fabrication may carry.
H_CODES = tuple(k for k in CODES if k.startswith("H"))
MAX_REASON = 500
MAX_NAME = 100
#: Longest decisions file read (a hand-made or hostile one beyond this is refused, not read into memory).
MAX_FILE_BYTES = 64 * 1024 * 1024


class DecisionError(ValueError):
    """A call that cannot be recorded (unknown action, a confirmation without a fabrication code, ...)."""


def reference_key(ref: Reference) -> str:
    """The citation's identity within its paper: its text folded to words, hashed (16 hex digits).

    The reference as read (`raw`) when there is one, else its fields; folding (case, accents, LaTeX,
    punctuation) keeps the key across re-extractions that only change how the text is spelled."""
    text = ref.raw or " ".join(
        str(x) for x in (ref.title, "; ".join(p.display() for p in ref.authors), ref.venue, ref.year, ref.doi) if x
    )
    return hashlib.sha256(" ".join(tokens(text)).encode("utf-8")).hexdigest()[:16]


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Call:
    """One line of the decisions file: who decided what about which citation, and when."""

    #: The paper as the reports name it, and its content hash ("" when unknown, e.g. a web job).
    paper: str
    paper_key: str
    #: `reference_key` of the citation, and its id in that run (for people; ids move, the key does not).
    ref: str
    id: str
    action: str
    reason: str = ""
    by: str = ""
    at: str = ""
    #: For a confirmation: the Hallucinated code it keeps.
    code: str = ""
    #: The run's verdict when the call was made ("Potential P3") and the citation's title, for people.
    judged: str = ""
    title: str = ""

    @classmethod
    def from_json(cls, data: object) -> Call | None:
        """A call from a line's JSON, or None when the line is not one (damaged, or written by hand)."""
        if not isinstance(data, dict):
            return None
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        if not all(isinstance(v, str) for v in values.values()):
            return None
        if not all(values.get(k) for k in ("ref", "action")) or values["action"] not in ACTIONS:
            return None
        if "paper" not in values or "id" not in values:
            return None
        values.setdefault("paper_key", "")
        return cls(**values)


def make_call(
    paper: str,
    paper_key: str,
    c: CitationResult,
    action: str,
    reason: str = "",
    by: str = "",
    code: str | None = None,
) -> Call:
    """A call on the citation `c` of `paper`, checked: a known action; a confirmation names its
    Hallucinated code (the verdict's own when the run called it Hallucinated)."""
    if action not in ACTIONS:
        raise DecisionError(f"unknown action {action!r} (dismissed, confirmed or cleared)")
    v = c.decision.judged if c.decision and c.decision.judged else f"{c.verdict.class_} {c.verdict.code}"
    kept = ""
    if action == "confirmed":
        own = c.verdict.code if c.verdict.class_ == "Hallucinated" else None
        kept = (code or own or "").strip().upper()
        if not kept:
            raise DecisionError(
                f"citation {c.id} is {v}: say which fabrication it is with a code (one of {', '.join(H_CODES)})"
            )
        if kept not in H_CODES:
            raise DecisionError(f"{kept!r} is not a Hallucinated code (one of {', '.join(H_CODES)})")
    return Call(
        paper=paper[:1000],
        paper_key=paper_key,
        ref=reference_key(c.reference),
        id=c.id[:200],
        action=action,
        reason=" ".join(reason.split())[:MAX_REASON],
        by=" ".join(by.split())[:MAX_NAME],
        at=now(),
        code=kept,
        judged=v,
        title=(c.reference.title or c.reference.raw or "")[:200],
    )


def decided(c: CitationResult, call: Call) -> CitationResult:
    """The citation with the call applied: the decision attached, and a confirmed fabrication made (or kept)
    Hallucinated whatever this run judged, its rationale saying so beside the run's own."""
    run = f"{c.verdict.class_} {c.verdict.code}"
    decision = Decision(
        action="confirmed" if call.action == "confirmed" else "dismissed",
        reason=call.reason,
        by=call.by,
        at=call.at,
        judged=run,
    )
    if call.action != "confirmed" or c.verdict.class_ == "Hallucinated":
        return c.model_copy(update={"decision": decision})
    code = call.code if call.code in H_CODES else "H1"
    who = f" by {call.by}" if call.by else ""
    because = f" ({call.reason})" if call.reason else ""
    verdict = c.verdict.model_copy(
        update={
            "class_": "Hallucinated",
            "code": code,
            "codes": [code, *(k for k in c.verdict.codes if k.startswith("H") and k != code)],
            "rationale": f"{code}: confirmed{who}{because} on {call.at[:10]}. This run found {run}: "
            f"{c.verdict.rationale}",
            "basis": f"confirmed by the chair{who} on {call.at[:10]}",
        }
    )
    return c.model_copy(update={"decision": decision, "verdict": verdict})


class Decisions:
    """The calls in force: the latest per citation (a cleared one withdrawn), found by paper and reference."""

    def __init__(self, calls: list[Call]) -> None:
        self._by_name: dict[tuple[str, str], tuple[int, Call]] = {}
        self._by_key: dict[tuple[str, str], tuple[int, Call]] = {}
        for n, call in enumerate(calls):
            self._by_name[(call.paper, call.ref)] = (n, call)
            if call.paper_key:
                self._by_key[(call.paper_key, call.ref)] = (n, call)
        self.calls = calls
        self._papers = {c.paper for c in calls} | {c.paper_key for c in calls if c.paper_key}

    def find(self, paper: str, paper_key: str, ref: str) -> Call | None:
        """The call in force for this citation: the later of the one made for a paper of this name and the one
        made for this very file (its content: a paper renamed since), None when none or the last was cleared."""
        found = [self._by_name.get((paper, ref)), self._by_key.get((paper_key, ref)) if paper_key else None]
        latest = max((x for x in found if x is not None), key=lambda x: x[0], default=None)
        return None if latest is None or latest[1].action == "cleared" else latest[1]

    def in_force(self) -> list[Call]:
        """Every call in force (the latest per paper and citation, not cleared), in the order they were made."""
        return [call for _, call in sorted(self._by_name.values(), key=lambda x: x[0]) if call.action != "cleared"]

    def for_paper(self, paper: str, paper_key: str = "") -> bool:
        """Whether any call (in force or cleared) is about this paper: the others need no look."""
        return paper in self._papers or bool(paper_key and paper_key in self._papers)

    def apply(self, report: Report, paper: str, paper_key: str = "") -> Report:
        """The report with each decided citation's call applied (the others untouched)."""
        if not self.for_paper(paper, paper_key):
            return report
        out = []
        for c in report.citations:
            call = self.find(paper, paper_key, reference_key(c.reference))
            out.append(decided(c, call) if call else c)
        return report.model_copy(update={"citations": out})


@contextlib.contextmanager
def _locked(path: Path, mode: str, lock: int) -> Iterator[IO[bytes]]:
    fh = path.open(mode)
    try:
        fcntl.flock(fh.fileno(), lock)
        yield fh
    finally:
        fh.close()  # closing releases the lock


class DecisionBook:
    """The decisions file of one report folder."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / DECISIONS
        #: Lines that were not calls (damaged by hand or by a crash), one problem each.
        self.skipped: list[str] = []

    def record(self, calls: list[Call]) -> None:
        """Append calls under the file's exclusive lock, fsynced: no writer's call is ever lost."""
        if not calls:
            return
        data = "".join(json.dumps(asdict(c), ensure_ascii=False) + "\n" for c in calls).encode("utf-8")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with _locked(self.path, "ab+", fcntl.LOCK_EX) as fh:
            fh.seek(0, os.SEEK_END)
            if fh.tell():
                fh.seek(-1, os.SEEK_END)
                if fh.read(1) != b"\n":  # a line a killed writer left unfinished: ours starts afresh
                    data = b"\n" + data
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())

    def calls(self) -> list[Call]:
        """Every call in the file, in the order made (under the shared lock: never half a line)."""
        self.skipped = []
        if not self.path.is_file():
            return []
        with _locked(self.path, "rb", fcntl.LOCK_SH) as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise DecisionError(f"{self.path} is larger than {MAX_FILE_BYTES // 2**20} MB; not read")
        out = []
        lines = data.decode("utf-8", errors="replace").split("\n")
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                call = Call.from_json(json.loads(line))
            except json.JSONDecodeError:
                call = None
            if call is None:
                if n != len(lines):  # the last, unfinished line of a killed writer is no news
                    self.skipped.append(f"{self.path}: line {n} is not a decision; skipped")
                continue
            out.append(call)
        return out

    def current(self) -> Decisions:
        return Decisions(self.calls())


#: The columns of a decisions export (CSV; the JSON has the same keys).
EXPORT_COLUMNS = (
    "paper",
    "id",
    "action",
    "reason",
    "by",
    "at",
    "code",
    "judged_then",
    "class_now",
    "code_now",
    "title",
    "ref",
)


def export_row(call: Call, now: CitationResult | None) -> dict[str, Any]:
    """One decision as exported: the call, and what this run's report says of its citation (empty when the
    citation is not in it any more: the paper changed or is gone)."""
    return {
        "paper": call.paper,
        "id": now.id if now is not None else call.id,
        "action": call.action,
        "reason": call.reason,
        "by": call.by,
        "at": call.at,
        "code": call.code,
        "judged_then": call.judged,
        "class_now": now.verdict.class_ if now is not None else "",
        "code_now": now.verdict.code if now is not None else "",
        "title": call.title,
        "ref": call.ref,
    }
