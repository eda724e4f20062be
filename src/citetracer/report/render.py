"""Report writers: terminal table (rich), JSON, JSONL and Markdown.

JSON and JSONL follow the contract of DESIGN.md; the terminal and Markdown
forms are for people and show, per citation, the verdict, the offending
fields and the one-sentence reason with the record that proves it.
"""

from __future__ import annotations

import json
from typing import IO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from citetracer.records import CitationResult, Report

STYLE = {"Real": "green", "Potential": "yellow", "Hallucinated": "bold red"}


def _short_ref(c: CitationResult, width: int = 70) -> str:
    ref = c.reference
    who = ref.authors[0].family if ref.authors else "?"
    if len(ref.authors) > 1 or ref.et_al:
        who += " et al."
    text = f"{who} ({ref.year or 'n.d.'}) {ref.title or ref.raw or ''}"
    return text if len(text) <= width else text[: width - 1] + "…"


def write_json(report: Report, out: IO[str]) -> None:
    json.dump(report.to_json_dict(), out, ensure_ascii=False, indent=2)
    out.write("\n")


def write_jsonl(report: Report, out: IO[str]) -> None:
    for c in report.citations:
        out.write(json.dumps(c.to_json_dict(), ensure_ascii=False) + "\n")


def write_markdown(report: Report, out: IO[str]) -> None:
    s = report.summary()
    out.write(f"# citetracer report: {report.input}\n\n")
    out.write(
        f"{s['total']} citations: {s['real']} Real, {s['potential']} Potential, {s['hallucinated']} Hallucinated.\n\n"
    )
    out.write("| id | verdict | codes | fields | citation | why |\n|---|---|---|---|---|---|\n")
    for c in report.citations:
        v = c.verdict
        cells = [c.id, f"**{v.class_}**", ", ".join(v.codes), ", ".join(v.fields), _short_ref(c, 90), v.rationale]
        out.write("| " + " | ".join(x.replace("|", "\\|").replace("\n", " ") for x in cells) + " |\n")
    for w in report.warnings:
        out.write(f"\n> warning: {w}\n")


def print_table(report: Report, console: Console, verbose: bool = False) -> None:
    table = Table(title=f"citetracer: {report.input}", show_lines=verbose, expand=True)
    table.add_column("id", no_wrap=True, max_width=18)
    table.add_column("verdict", no_wrap=True)
    table.add_column("code", no_wrap=True)
    table.add_column("citation", ratio=2)
    table.add_column("why", ratio=3)
    for c in report.citations:
        v = c.verdict
        codes = v.code + (f" (+{','.join(x for x in v.codes if x != v.code)})" if len(v.codes) > 1 else "")
        why = v.rationale if verbose else v.rationale.split(". ")[0][:220]
        table.add_row(c.id, Text(v.class_, style=STYLE[v.class_]), codes, _short_ref(c), why)
    console.print(table)
    s = report.summary()
    summary = Text.assemble(
        (f"{s['total']} citations: ", "bold"),
        (f"{s['real']} Real", STYLE["Real"]),
        ", ",
        (f"{s['potential']} Potential", STYLE["Potential"]),
        ", ",
        (f"{s['hallucinated']} Hallucinated", STYLE["Hallucinated"]),
    )
    console.print(summary)
    for w in report.warnings:
        console.print(Text(f"warning: {w}", style="yellow"))
