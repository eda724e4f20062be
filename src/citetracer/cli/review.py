"""`citetracer review DIR`: a chair's calls on a scan's flagged citations (issue 44).

Without an action it lists the citations to review (Hallucinated, P3, P2) and those already
decided, each with the handle (`PAPER:ID`) that names it; `--dismiss` / `--confirm` / `--clear`
record a call in `DIR/decisions.jsonl` and build the folder's reports again, so `index.html`,
the CSVs and `summary.md` show it at once (scan/decide.py does both).
"""

from __future__ import annotations

import argparse
import csv
import getpass
import json
import os
import sys
from pathlib import Path
from typing import IO, Any

from rich.console import Console

from citetracer.report.csv_report import cell
from citetracer.report.decisions import DecisionError
from citetracer.report.views import decision_text, decisions_line, is_flagged, lead_reason, short_ref
from citetracer.scan.decide import Folder, FolderError, Found

EXIT_OK, EXIT_USAGE = 0, 2
LIST_COLUMNS = ("handle", "paper", "id", "class", "code", "decision", "reason", "by", "at", "title", "why")


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """The `review` command's arguments."""
    review = sub.add_parser(
        "review",
        parents=[common],
        help="dismiss or confirm a scan's flagged citations (a chair's calls, kept in DIR/decisions.jsonl)",
        description="List a scan's citations to review (Hallucinated, P3, P2, and those decided), or record a "
        "call on some: --dismiss (the citation is fine; say why with --reason), --confirm (it is wrong: it stays "
        "Hallucinated whatever a later scan says; --code H1..H6 for a Potential one), --clear (withdraw a call). "
        "Calls are kept in DIR/decisions.jsonl, applied by every later scan into DIR and shown and counted in "
        "its reports, which are built again at once. Name citations as PAPER:ID, as the list shows them.",
    )
    review.add_argument("folder", type=Path, metavar="DIR", help="the report folder of a `citetracer scan -o DIR`")
    action = review.add_mutually_exclusive_group()
    action.add_argument("--dismiss", nargs="+", metavar="PAPER:ID", help="the citations are fine")
    action.add_argument("--confirm", nargs="+", metavar="PAPER:ID", help="the citations are wrong (fabricated)")
    action.add_argument("--clear", nargs="+", metavar="PAPER:ID", help="withdraw the calls on these citations")
    review.add_argument("--reason", default="", help="why ('checked by hand', 'known book', ...)")
    review.add_argument(
        "--code", metavar="H1..H6", help="for --confirm of a Potential citation: which fabrication it is"
    )
    review.add_argument("--by", metavar="NAME", help="who decides (default: $CITETRACER_CHAIR, else the login name)")
    review.add_argument(
        "--all", action="store_true", help="list every citation, not only the flagged and the decided ones"
    )
    review.add_argument("--format", choices=["table", "json", "csv"], default="table", help="how the list is written")
    review.add_argument("-o", "--output", type=Path, metavar="OUT", help="write the list here instead of stdout")
    review.set_defaults(handler=cmd_review)


def _chair(given: str | None) -> str:
    if given:
        return given
    try:
        return os.environ.get("CITETRACER_CHAIR") or getpass.getuser()
    except (KeyError, OSError):  # no login name (a container without a passwd entry)
        return ""


def cmd_review(args: argparse.Namespace, err: Console) -> int:
    try:
        folder = Folder(args.folder)
    except (FolderError, DecisionError) as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return EXIT_USAGE
    for problem in folder.book.skipped:
        err.print(f"warning: {problem}", style="yellow", highlight=False)
    for action, handles in (("dismissed", args.dismiss), ("confirmed", args.confirm), ("cleared", args.clear)):
        if handles:
            return _decide(folder, action, handles, args, err)
    return _list(folder, args, err)


def _decide(folder: Folder, action: str, handles: list[str], args: argparse.Namespace, err: Console) -> int:
    out = Console(soft_wrap=True, markup=False, highlight=False)
    try:
        found = [folder.parse_handle(h) for h in handles]  # every name checked before any call is recorded
    except FolderError as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return EXIT_USAGE
    recorded = 0
    for f in found:
        try:
            _, now = folder.call(f, action, args.reason, _chair(args.by), args.code)
        except DecisionError as exc:
            err.print(f"error: {f.handle}: {exc}", style="red", highlight=False)
            continue
        recorded += 1
        said = decision_text(now) or "call withdrawn"
        out.print(f"{f.handle}: {now.verdict.class_} {now.verdict.code} · {said}  {short_ref(now, 70)}")
    if not recorded:
        return EXIT_USAGE
    calls = folder.decisions.in_force()
    tally = decisions_line(sum(c.action == "dismissed" for c in calls), sum(c.action == "confirmed" for c in calls))
    if folder.rebuild():
        out.print(f"reports updated: {folder.path / 'index.html'} ({tally or 'no calls in force'})")
    else:
        out.print(f"a scan is writing {folder.path}: it applies the decisions when it writes its reports")
    return EXIT_OK if recorded == len(found) else EXIT_USAGE


def _rows(folder: Folder, every: bool) -> list[dict[str, Any]]:
    rows = []
    for f in folder.citations():
        c = f.citation
        if not every and not (is_flagged(c) or c.decision is not None):
            continue
        d = c.decision
        rows.append(
            {
                "handle": f.handle,
                "paper": f.entry.file,
                "id": c.id,
                "class": c.verdict.class_,
                "code": c.verdict.code,
                "decision": d.action if d else "",
                "reason": d.reason if d else "",
                "by": d.by if d else "",
                "at": d.at if d else "",
                "title": c.reference.title or "",
                "why": lead_reason(c.verdict.rationale),
                "_short": short_ref(c, 70),
            }
        )
    return rows


def _list(folder: Folder, args: argparse.Namespace, err: Console) -> int:
    rows = _rows(folder, args.all)
    out: IO[str] = args.output.open("w", encoding="utf-8", newline="") if args.output else sys.stdout
    try:
        if args.format == "json":
            json.dump({"citations": [{k: r[k] for k in LIST_COLUMNS} for r in rows]}, out, ensure_ascii=False, indent=2)
            out.write("\n")
        elif args.format == "csv":
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(LIST_COLUMNS)
            for r in rows:
                writer.writerow([cell(r[k]) for k in LIST_COLUMNS])
        else:
            console = Console(file=out, soft_wrap=True, markup=False, highlight=False)
            for r in rows:
                mark = f" [{r['decision']}{': ' + r['reason'] if r['reason'] else ''}]" if r["decision"] else ""
                console.print(f"{r['handle']}  {r['class']} {r['code']}{mark}  {r['_short']}")
                console.print(f"    {r['why']}", style="dim")
            calls = folder.decisions.in_force()
            tally = decisions_line(
                sum(c.action == "dismissed" for c in calls), sum(c.action == "confirmed" for c in calls)
            )
            console.print(
                f"{len(rows)} citations to review in {folder.path}" + (f"; {tally}" if tally else "")
                + ". Record a call: citetracer review DIR --dismiss PAPER:ID --reason '...' (or --confirm, --clear)"
            )  # fmt: skip
    finally:
        if args.output:
            out.close()
    return EXIT_OK


__all__ = ["Found", "add_parser", "cmd_review"]
