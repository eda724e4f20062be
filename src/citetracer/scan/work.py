"""One paper of a scan, inside a worker: the pipeline's check, the report file, the totals.

The paper is read and checked by `Checker.read` and `Checker.check`, the calls `citetracer check` makes; what is
added here is only bookkeeping: the report written atomically (so a killed worker never
leaves half a file that the journal could point at) and the plausibility warnings of the
scan summary.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from citetracer.extract import InputError
from citetracer.pipeline import Checker
from citetracer.records import Report
from citetracer.scan.jobs import Job

#: A PDF whose reading gives fewer references than this is worth a look (most papers cite more;
#: a short note with one or two citations does exist, so this is a warning, not an error).
FEW_REFERENCES = 3
MANY_REFERENCES = 400
#: Share of references read without a title above which the bibliography was probably misread.
UNTITLED_SHARE = 0.25


def plausibility_warnings(path: Path, report: Report) -> list[str]:
    """Reference counts that suggest the bibliography was not read whole or read wrongly."""
    n = len(report.citations)
    out = []
    # none at all is no warning: the reading says no list was found (the paper's status in the reports)
    if path.suffix.lower() == ".pdf" and 0 < n < FEW_REFERENCES:
        out.append(f"only {n} reference{'s' if n != 1 else ''} found: check that the whole bibliography was read")
    if n > MANY_REFERENCES:
        out.append(f"{n} references: more than a paper usually has; the bibliography's end may have been missed")
    untitled = sum(1 for c in report.citations if not c.reference.title)
    if n >= 4 and untitled / n > UNTITLED_SHARE:
        out.append(f"{untitled} of {n} references were read without a title: the reference list may be misread")
    return out


def check_paper(checker: Checker, job: Job) -> dict[str, Any]:
    """A worker's check of one paper: its report written to the scan folder and the counts for the journal, or why it
    could not be read.
    """
    result = check_file(checker, Path(job.path), job.display)
    text = result.pop("report_json", None)
    if text is not None:
        write_atomic(Path(job.report), text)
    return result


def check_file(checker: Checker, path: Path, display: str) -> dict[str, Any]:
    """The journal's counts of one paper and its report (`report_json`, the `check` JSON), or why it could not be
    read; nothing is written, so a worker on another machine can hand the report back to the scan."""
    start = time.perf_counter()
    try:
        report = checker.check(checker.read(path, name=display))
    except InputError as exc:
        return {"status": "unreadable", "error": str(exc), "seconds": round(time.perf_counter() - start, 3)}
    except Exception as exc:  # a process boundary: one paper's failure must not end the scan
        traceback.print_exc()
        return {
            "status": "failed",
            "error": f"{type(exc).__name__}: {exc}",
            "seconds": round(time.perf_counter() - start, 3),
        }
    s = report.summary()
    codes = Counter(c.verdict.code for c in report.citations if c.verdict.class_ != "Real")
    return {
        "status": "done",
        "references": s["total"],
        "real": s["real"],
        "potential": s["potential"],
        "hallucinated": s["hallucinated"],
        "codes": dict(codes),
        "warnings": list(report.warnings) + plausibility_warnings(path, report),
        "no_list": report.reading.summary if report.reading is not None and report.reading.no_list else "",
        "seconds": round(time.perf_counter() - start, 3),
        "report_json": json.dumps(report.to_json_dict(), ensure_ascii=False, indent=1) + "\n",
    }


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that readers see the old one or the whole new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
