"""Report writers: terminal table (rich), JSON, JSONL and Markdown.

JSON and JSONL follow the contract of DESIGN.md; the terminal and Markdown
forms are for people and show, per citation, the verdict, the offending
fields and the one-sentence reason with the record that proves it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import IO, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from citetracer.records import CitationResult, ReadingSummary, Report
from citetracer.report.held import HeldRanks
from citetracer.report.lookup import lookup_links
from citetracer.report.views import (
    LEGEND,
    READING_ORDER,
    REVIEW_CODES,
    coverage_note,
    in_reading_order,
    is_shown,
    no_list_line,
    not_listed_line,
    printable,
    reading_rank,
    unlisted_key,
    unlisted_line,
    visible,
)

STYLE = {"Real": "green", "Potential": "yellow", "Hallucinated": "bold red"}


def _short_ref(c: CitationResult, width: int = 70) -> str:
    ref = c.reference
    who = ref.authors[0].family if ref.authors else "?"
    if len(ref.authors) > 1 or ref.et_al:
        who += " et al."
    text = f"{who} ({ref.year or 'n.d.'}) {ref.title or ref.raw or ''}"
    return text if len(text) <= width else text[: width - 1] + "…"


def write_json(report: Report, out: IO[str]) -> None:
    """The report as the JSON contract's document."""
    json.dump(report.to_json_dict(), out, ensure_ascii=False, indent=2)
    out.write("\n")


def write_jsonl(report: Report, out: IO[str]) -> None:
    """One CITATION object per line (the JSONL contract), a PDF's with its reading; one line saying so for a PDF in
    which no reference list was found (report/stream.py: JsonlStream writes the same lines as they come)."""
    for c in report.citations:
        out.write(json.dumps(jsonl_record(c, report.reading), ensure_ascii=False) + "\n")
    if report.reading is not None and report.reading.no_list:
        out.write(json.dumps(no_list_record(report.input, report.reading, report.warnings), ensure_ascii=False) + "\n")


def jsonl_record(c: CitationResult, reading: ReadingSummary | None) -> dict[str, Any]:
    """A JSONL line: the CITATION, and for a PDF's its paper's reading (pages, count, doubtful entries), a key
    added beside the CITATION's own so that readers of the old lines read these as before."""
    record = c.to_json_dict()
    if reading is not None:
        record["reading"] = reading.model_dump(mode="json")
    return record


def no_list_record(name: str, reading: ReadingSummary, warnings: list[str]) -> dict[str, Any]:
    """The JSONL line of a PDF in which no reference list was found: no `id`, no `verdict`, only what was read
    (an empty output read as a paper citing nothing)."""
    return {"input": name, "reading": reading.model_dump(mode="json"), "warnings": warnings}


def write_markdown(report: Report, out: IO[str], show: str | None = None, sort: str = "attention") -> None:
    """The report as a Markdown review comment: the citations to act on as rows, the rest counted in one line.

    By default the rows are the Hallucinated citations and the P3 ones (a real work cited with
    conflicts the author should fix); a report of 38 citations of which 32 are P1 ("not found
    where no source covers it") is six rows and one line. `show` lists instead every citation
    (`all`), H plus P2/P3 (`flagged`) or H alone (`hallucinated`). Rows come in reading order
    (views.READING_ORDER: H, then P3, P2, P1, Real), input order within each (`sort="id"`: input order).
    """
    markdown = MarkdownReport(out, show, sort)
    markdown.begin(report.input)
    for c in report.citations:
        markdown.citation(c)
    markdown.end(report.warnings, report.store_warnings, reading=report.reading)


class MarkdownReport:
    """`write_markdown`'s comment written citation by citation (`begin`, `citation`..., `end` per input).

    The comment opens with the counts, known only when the input ends, so each listed citation's row
    is written at once to held text of its rank (report/held.py: on disk past 1 MB) and copied out at
    the end in reading order (H, P3, P2, P1, Real); the others are only counted. What stays in memory:
    the counts and the citations an LLM agent reviewed (their cost line), never every citation (a
    20,000-citation web job kept them all).
    """

    def __init__(self, out: IO[str], show: str | None = None, sort: str = "attention") -> None:
        self.out = out
        self.show = show
        self.sort = sort
        #: The store's warnings already said in this document (each is said once, however many inputs).
        self.said: set[str] = set()
        self.name = ""
        self.counts = {"total": 0, "real": 0, "potential": 0, "hallucinated": 0}
        self.unlisted: Counter[str] = Counter()
        self.reviewed: list[CitationResult] = []
        self.rows = HeldRanks(len(READING_ORDER))

    def listed(self, c: CitationResult) -> bool:
        if self.show is None:
            return c.verdict.class_ == "Hallucinated" or c.verdict.code in REVIEW_CODES
        return is_shown(c, self.show)

    def begin(self, name: str) -> None:
        self.name = name
        self.counts = dict.fromkeys(self.counts, 0)
        self.unlisted = Counter()
        self.reviewed = []
        self.rows = HeldRanks(len(READING_ORDER))

    def citation(self, c: CitationResult) -> None:
        self.counts["total"] += 1
        self.counts[c.verdict.class_.lower()] += 1
        if c.cost.agents:
            self.reviewed.append(c)
        if not self.listed(c):
            self.unlisted[unlisted_key(c)] += 1
            return
        v = c.verdict
        why = v.rationale + (f" ({note})" if (note := coverage_note(c)) else "")
        lookups = " · ".join(f"[{label}]({url})" for label, url in lookup_links(c))  # P1: search by hand
        cells = [
            markdown_text(c.id),
            f"**{v.class_}**",
            ", ".join(v.codes),
            ", ".join(v.fields),
            markdown_text(_short_ref(c, 90)),
            markdown_text(why) + (f" Look it up: {lookups}" if lookups else ""),
        ]
        self.rows[reading_rank(c) if self.sort == "attention" else 0].write("| " + " | ".join(cells) + " |\n")

    def end(
        self, warnings: list[str], store_warnings: list[str] | None = None, reading: ReadingSummary | None = None
    ) -> None:
        """Write the input's comment; `store_warnings` are said once per document, as the store's; `reading`, a
        PDF's, in one line under the counts (the list's pages, how many references, how many read with low
        confidence)."""
        out, s = self.out, self.counts
        out.write(f"# citetracer report: {markdown_text(self.name)}\n\n")
        if reading is not None and reading.no_list:  # said plainly, not as "0 citations" of a paper citing nothing
            out.write(f"**{markdown_text(no_list_line(reading))}**\n\n")
        else:
            out.write(f"{s['total']} citations: {s['real']} Real, {s['potential']} Potential, ")
            out.write(f"{s['hallucinated']} Hallucinated.\n\n")
        if reading is not None and not reading.no_list:
            out.write(f"Read: {markdown_text(reading.summary)}.\n\n")
        out.write(f"<sub>{LEGEND}.</sub>\n\n")
        if self.rows.pieces:
            out.write("| id | verdict | codes | fields | citation | why |\n|---|---|---|---|---|---|\n")
        self.rows.copy_to(out)
        rest = not_listed_line(self.unlisted)
        if rest:
            out.write(f"\n{rest}\n")
        if self.reviewed:
            out.write(f"\n{llm_summary(Report(version='', input=self.name, citations=self.reviewed))}\n")
        for w in warnings:
            out.write(f"\n> warning: {markdown_text(w)}\n")
        for w in store_warnings or []:
            if w not in self.said:
                self.said.add(w)
                out.write(f"\n> **store:** {markdown_text(w)}\n")
        self.reviewed = []


#: Characters that make Markdown of text: links and images, emphasis, code, tables, escapes.
_MARKDOWN = re.compile(r"([\\`*\[\]()!|~])")


def markdown_text(text: str) -> str:
    """Text from a paper or a record (titles, venues, names, ids) as it reads, never as Markdown or HTML:
    a title `<img src=...>` or `[x](http://...)` in $GITHUB_STEP_SUMMARY showed an image or a link.
    HTML is escaped as the HTML report escapes it, Markdown's own characters with a backslash, and
    line breaks (which end a table row) become spaces."""
    text = " ".join(printable(text).split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN.sub(r"\\\1", text)


def llm_summary(report: Report) -> str:
    """One line on what the LLM agents cost (shown only when they ran)."""
    t = report.llm_totals()
    per = ", ".join(f"{name} {row['uses']}" for name, row in sorted(t["agents"].items()))
    return (
        f"LLM agents reviewed {t['citations_with_agents']} citations: {t['llm_calls']} requests, "
        f"{t['llm_tokens']} tokens, cost {t['llm_cost']:.4f} ({per})"
    )


def _lead_reason(rationale: str) -> str:
    """The primary code's sentence of a rationale ('H3: ... . H1: ...' -> 'H3: ...')."""
    return re.split(r"\.\s+(?=[RPH]\d: )", rationale, maxsplit=1)[0].rstrip(".")


def print_table(
    report: Report,
    console: Console,
    verbose: bool = False,
    show: str = "all",
    sort: str = "attention",
    said: set[str] | None = None,
) -> None:
    """The terminal table: verdict, codes and the reason per citation (`verbose`: the whole rationale, offending fields
    and agent calls); `show` picks the rows (views.SHOW_CHOICES), the totals count every citation. Rows come
    in reading order (views.READING_ORDER: Hallucinated, then P3, P2, P1, Real), input order within each
    (`sort="id"`: input order). The store's warnings not in `said` (those said for earlier inputs) close it.
    """
    if report.reading is not None and report.reading.no_list:  # no empty table: say it
        console.print(Text(printable(f"citetracer: {report.input}: {no_list_line(report.reading)}"), style="red"))
        for w in report.warnings:
            console.print(Text(printable(f"warning: {w}"), style="yellow"))
        return
    table = Table(title=Text(printable(f"citetracer: {report.input}"), style="italic"), show_lines=True, expand=False)
    table.add_column("id", no_wrap=True, max_width=24, overflow="ellipsis")
    table.add_column("verdict", no_wrap=True)
    table.add_column("citation and why")
    shown = visible(report.citations, show)
    for c in in_reading_order(shown) if sort == "attention" else shown:
        v = c.verdict
        codes = v.code + (f" +{','.join(x for x in v.codes if x != v.code)}" if len(v.codes) > 1 else "")
        # Every string a paper or a record gave is shown `printable`: a terminal runs what it is sent.
        reason = printable(v.rationale if verbose else _lead_reason(v.rationale))
        details = Text(printable(_short_ref(c, 100)), style="bold")
        details.append("\n")
        details.append(reason, style="dim" if v.class_ == "Real" else "")
        note = coverage_note(c)  # P1: which venue and year were cited, which sources were searched
        if note:
            details.append(printable(f"\n{note}"), style="dim")
        if verbose and v.fields:
            details.append(printable(f"\nfields: {', '.join(v.fields)}"), style="italic")
        if verbose and c.cost.agents:
            used = ", ".join(f"{a.agent} ({a.prompt}) {a.status}" for a in c.cost.agents)
            details.append(f"\nagents: {used}; {c.cost.llm_tokens} tokens, cost {c.cost.llm_cost:.4f}", style="dim")
        verdict = Text(v.class_, style=STYLE[v.class_])
        verdict.append(f"\n{codes}")
        table.add_row(Text(printable(c.id)), verdict, details)
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
    rest = unlisted_line(report.citations, lambda c: is_shown(c, show))
    if rest:
        console.print(Text(f"{rest} (--show {show})", style="dim"))
    console.print(Text(LEGEND, style="dim"))
    if any(c.cost.agents for c in report.citations):
        console.print(Text(llm_summary(report), style="dim"))
    for w in report.warnings:
        console.print(Text(printable(f"warning: {w}"), style="yellow"))
    said = set() if said is None else said
    for w in report.store_warnings:
        if w not in said:
            said.add(w)
            console.print(Text(printable(f"store warning: {w}"), style="yellow"))
