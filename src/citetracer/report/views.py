"""What the people-facing reports (HTML, CSV, Markdown, SARIF, fixed BibTeX) show of a citation.

One place decides how a citation reads to a person: its lead reason, the cited fields
beside the record's with the offending ones marked, the evidence links that are safe
to follow, and, for an unverified (P1) citation, what was searched and what failed.
Every report module formats these values; none re-derives them. Nothing here judges:
the verdict, its codes and its rationale come from the pipeline unchanged.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from citetracer.evidence import RATE_BUDGET
from citetracer.records import FIELDS, CitationResult, ReadingSummary, Reference, Report, SourceOutcome

CLASSES: tuple[str, ...] = ("Hallucinated", "Potential", "Real")

#: Characters no report shows: C0 and C1 controls but tab and line feed (a terminal runs ESC sequences: a
#: record titled "\x1b]0;...\x07" retitled the window and "\x1b[2J" cleared it), and the bidirectional
#: controls that reorder what follows them (U+202E showed "Real" in a row that said "laeR") and zero-width
#: characters. Papers are cleaned of these when read (normalize/text.py: clean_text); records from mirrors and
#: services are not, and reach reports through the evidence and the rationale.
_UNSHOWN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def printable(text: str) -> str:
    """`text` without the characters no report shows (`_UNSHOWN`); other text unchanged."""
    return _UNSHOWN.sub("", text)


#: Codes whose evidence is a different work than the cited one (the nearest the sources had),
#: so a report must not call that record "the record found".
NOT_THIS_WORK = ("H1", "P1", "P2")
MAX_URL_CHARS = 2000
#: How the reports name a source whose internal name says little to a reader.
SOURCE_NAMES = {"memory": "the local store"}


#: What `--show` keeps of a report: every citation, those a person should act on, or the Hallucinated alone.
SHOW_CHOICES: tuple[str, ...] = ("all", "flagged", "hallucinated")
#: Potential codes that ask for a person's look: P2 (software, data, web page) and P3 (a real work with
#: conflicts). P1 is "not found where no source searched covers it": unconfirmed, not suspect.
FLAGGED_POTENTIAL = ("P2", "P3")
#: What a review comment lists row by row (the rest is counted in one line): the accusations, and the
#: real works cited with conflicts an author should fix.
REVIEW_CODES = ("P3",)
#: The order a person reads citations in (issue 39): the accusations, then the real works cited with conflicts
#: (P3: a partial author list, a year off by one; the chair must see them before the rest of Potential), then
#: software and data (P2), then what no source covers (P1), then Real. Stable within a rank: input order.
READING_ORDER: tuple[str, ...] = ("H", "P3", "P2", "P1", "R")
#: The reports' shared vocabulary, in one line: every front end prints it with its verdicts.
LEGEND = (
    "R Real: a record proves the work as cited · P Potential: neither proven nor disproved: "
    "P1 not found where no source searched covers it (unconfirmed, not suspect), P2 software, data or a web page, "
    "P3 a real work cited with conflicts an honest author could cause · H Hallucinated: proof that the citation "
    "is wrong (H1 no such work, H2 title, H3 authors, H4 venue, date or publication details, H5 identifier, "
    "H6 chimera)"
)


def noun(n: int, word: str, many: str | None = None) -> str:
    """The word in the number `n` takes: 'warning' for 1, 'warnings' for 0 or 2 (`many`: an irregular plural)."""
    return word if n == 1 else many or word + "s"


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n` and the word in the number it takes: '1 warning', '2 warnings', '0 warnings'.
    Every count a report or a page prints goes through it ('1 warnings' once read on the web page)."""
    return f"{n} {noun(n, word, many)}"


def is_flagged(c: CitationResult) -> bool:
    """A citation someone should act on: Hallucinated, or Potential with P2 or P3 (not P1)."""
    return c.verdict.class_ == "Hallucinated" or (
        c.verdict.class_ == "Potential" and c.verdict.code in FLAGGED_POTENTIAL
    )


def is_shown(c: CitationResult, show: str) -> bool:
    """Whether `--show SHOW` keeps this citation (all, flagged = H plus P2/P3, hallucinated)."""
    if show == "hallucinated":
        return c.verdict.class_ == "Hallucinated"
    if show == "flagged":
        return is_flagged(c)
    return True


def lead_reason(rationale: str) -> str:
    """The primary code's sentence of a rationale ('H3: ... . H1: ...' -> 'H3: ...')."""
    return re.split(r"\.\s+(?=[RPH]\d: )", rationale, maxsplit=1)[0].rstrip(".")


def safe_url(url: object) -> str | None:
    """The URL if a browser may follow it from a report: http(s), no spaces or control characters.

    URLs come from papers and from sources' replies, so a `javascript:` or `data:` link is an
    attack, not a reference.
    """
    if not isinstance(url, str) or not url or len(url) > MAX_URL_CHARS:
        return None
    if any(ord(ch) < 33 or ch in "\"'<>\\`" for ch in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return url


def cited_value(ref: Reference, field: str) -> str | None:
    """A cited field as a person reads it (authors joined, 'et al.' kept), None when absent."""
    value = getattr(ref, field, None)
    if field == "authors":
        names = "; ".join(p.display() for p in ref.authors)
        return (names + ("; et al." if ref.et_al else "")) or None
    return None if value in (None, "") else str(value)


@dataclass(frozen=True)
class FieldRow:
    """One field of a citation beside the same field of the record it was compared with."""

    field: str
    cited: str | None
    found: str | None
    #: match, mismatch, missing (one side lacks it) or "" (not compared).
    status: str
    #: The verdict names this field as wrong.
    offending: bool


def has_record(c: CitationResult) -> bool:
    """Whether the report should show a record beside the citation.

    Not when the verdict rests on no record at all (not found, non-scholarly): the matcher's
    best-ranked candidate is then a stranger, and showing it beside the citation misleads.
    """
    return bool(c.comparisons) and (bool(c.verdict.evidence) or c.verdict.code not in NOT_THIS_WORK)


def field_rows(c: CitationResult) -> list[FieldRow]:
    """Every field the citation states or the record has, in the data model's order."""
    if not has_record(c):
        return [
            FieldRow(name, value, None, "", name in c.verdict.fields)
            for name in FIELDS
            if (value := cited_value(c.reference, name)) is not None
        ]
    compared = {fc.field: fc for fc in c.comparisons}
    offending = set(c.verdict.fields)
    rows = []
    for name in FIELDS:
        fc = compared.get(name)
        cited = cited_value(c.reference, name)
        if fc is None:
            if cited is not None:
                rows.append(FieldRow(name, cited, None, "", name in offending))
            continue
        rows.append(FieldRow(name, fc.cited if fc.cited is not None else cited, fc.found, fc.status, name in offending))
    return rows


def record_label(c: CitationResult) -> str:
    """What the compared record is to this citation (the same work, or only the nearest one)."""
    if not has_record(c):
        return "no record found"
    if c.verdict.code in NOT_THIS_WORK:
        return "nearest record (a different work)"
    return "record found"


@dataclass(frozen=True)
class EvidenceLink:
    source: str
    id: str
    title: str | None
    url: str | None


def evidence_links(c: CitationResult) -> list[EvidenceLink]:
    """The records a verdict rests on, each with a link a person can follow."""
    out = []
    for e in c.verdict.evidence:
        title = e.get("title")
        out.append(
            EvidenceLink(
                source=str(e.get("source") or "?"),
                id=str(e.get("id") or "?"),
                title=str(title) if title else None,
                url=safe_url(e.get("url")),
            )
        )
    return out


#: Longest detail of a failed source shown in a coverage note (the whole one is in the JSON's cost.sources).
MAX_DETAIL = 80


def _lowers_certainty(s: SourceOutcome) -> bool:
    """A source whose silence is unknown: it failed, or its request was skipped for the rate budget."""
    return s.status == "failed" or (s.status == "skipped" and (s.detail or "").startswith(RATE_BUDGET))


def source_summary(c: CitationResult) -> str:
    """Which sources answered and which failed for this citation, in one short line.

    Sources that were not asked (offline without a memo answer, not chosen for this citation, no
    title to search) are counted, not listed one by one: the JSON's `cost.sources` keeps each
    state, and a reader of a P1 needs the few that matter, not a page of 'skipped'.
    """
    parts = []
    not_asked = 0
    for s in c.cost.sources:
        name = SOURCE_NAMES.get(s.source, s.source)
        if s.status == "answered":
            parts.append(f"{name} answered" + (f" (memo of {s.fetched_at[:10]})" if s.fetched_at else ""))
        elif _lowers_certainty(s):
            detail = s.detail or ""
            detail = detail if len(detail) <= MAX_DETAIL else detail[: MAX_DETAIL - 1] + "…"
            parts.append(f"{name} {s.status}" + (f": {detail}" if detail else ""))
        else:
            not_asked += 1
    if not_asked:
        parts.append(f"{not_asked} other source{'s' if not_asked > 1 else ''} not asked")
    return "; ".join(parts)


def coverage_note(c: CitationResult) -> str | None:
    """For an unverified citation (P1): the cited venue and year and what was searched.

    The rationale says *that* coverage was incomplete; this says what the reader needs to
    verify it by hand: which venue and year were cited, which sources answered, which failed
    or were skipped for the rate budget, and whether only the local store was asked.
    """
    if c.verdict.code != "P1" and "P1" not in c.verdict.codes:
        return None
    ref = c.reference
    venue = f"'{ref.venue}'" if ref.venue else "no venue"
    year = str(ref.year) if ref.year else "no year"
    parts = [f"cited: {venue}, {year}"]
    searched = source_summary(c)
    if searched:
        parts.append(f"searched: {searched}")
    names = {s.source for s in c.cost.sources if s.status == "answered" or _lowers_certainty(s)}
    if names <= {"memory"}:
        parts.append("online sources were not asked (offline)")
    failed = sorted({SOURCE_NAMES.get(s.source, s.source) for s in c.cost.sources if _lowers_certainty(s)})
    if failed:
        parts.append(f"not searched to the end: {', '.join(failed)}")
    return "; ".join(parts)


def short_ref(c: CitationResult, width: int = 110) -> str:
    """A one-line label of a citation: first author, year and title, cut to `width`."""
    ref = c.reference
    who = ref.authors[0].family if ref.authors else ""
    if len(ref.authors) > 1 or ref.et_al:
        who += " et al."
    title = ref.title or ref.raw or ""
    text = f"{who} ({ref.year or 'n.d.'}) {title}".strip()
    return text if len(text) <= width else text[: width - 1] + "…"


@dataclass
class PaperCounts:
    """One paper's totals, as the scan summary and the summary CSV give them."""

    file: str
    references: int = 0
    real: int = 0
    potential: int = 0
    hallucinated: int = 0
    warnings: int = 0
    codes: Counter[str] | None = None
    #: Citations a person has decided on (report/decisions.py): dismissed as fine (of which Hallucinated
    #: as judged), and confirmed as wrong (counted Hallucinated whatever the run said).
    dismissed: int = 0
    dismissed_hallucinated: int = 0
    confirmed: int = 0
    #: A PDF in which no reference list was found: its reading's line ("no reference list found in the PDF (pages
    #: 1-8 searched)"), which the reports give in place of its zero counts; "" otherwise.
    no_list: str = ""

    @property
    def open_hallucinated(self) -> int:
        """Hallucinated citations nobody has dismissed: what makes a paper risky and a scan exit 1."""
        return self.hallucinated - self.dismissed_hallucinated

    @property
    def flagged(self) -> int:
        """Citations that need a person's look: Hallucinated, and Potential with P2 or P3 (see `is_flagged`)."""
        codes = self.codes or Counter()
        return self.hallucinated + sum(codes.get(k, 0) for k in FLAGGED_POTENTIAL)

    def shows(self, show: str) -> bool:
        """Whether `--show SHOW` lists this paper: it has a citation that SHOW keeps, or no reference list was
        found in it (nothing of it was checked: whatever is shown, a person must look at it)."""
        if self.no_list:
            return True
        if show == "hallucinated":
            return self.hallucinated > 0
        return self.flagged > 0 if show == "flagged" else True

    def risk_key(self) -> tuple[int, float, int, int, str]:
        """Sort key, riskiest first: most Hallucinated, the larger Hallucinated share, then the most flagged
        Potential (P3, P2: works a person must look at), then the other Potential (P1: not found)."""
        share = self.open_hallucinated / self.references if self.references else 0.0
        return (-self.open_hallucinated, -share, -(self.flagged - self.hallucinated), -self.potential, self.file)


def paper_counts(report: Report) -> PaperCounts:
    """The counts of one paper's report and its most frequent non-Real codes."""
    s = report.summary()
    codes: Counter[str] = Counter()
    for c in report.citations:
        if c.verdict.class_ != "Real":
            codes[c.verdict.code] += 1
    dismissed = [c for c in report.citations if c.decision and c.decision.action == "dismissed"]
    return PaperCounts(
        file=report.input,
        references=s["total"],
        real=s["real"],
        potential=s["potential"],
        hallucinated=s["hallucinated"],
        warnings=len(report.warnings),
        codes=codes,
        dismissed=len(dismissed),
        dismissed_hallucinated=sum(1 for c in dismissed if c.verdict.class_ == "Hallucinated"),
        confirmed=sum(1 for c in report.citations if c.decision and c.decision.action == "confirmed"),
        no_list=report.reading.summary if report.reading is not None and report.reading.no_list else "",
    )


def decisions_line(dismissed: int, confirmed: int) -> str:
    """The calls a person made, in words: '3 dismissed by the chair, 1 confirmed' ('' when none)."""
    parts = [f"{dismissed} dismissed"] if dismissed else []
    if confirmed:
        parts.append(f"{confirmed} confirmed")
    return f"{' and '.join(parts)} by the chair" if parts else ""


def decision_text(c: CitationResult) -> str | None:
    """One sentence on a citation's decision: 'Dismissed by the chair (Ana, 2025-01-02): checked by hand.'"""
    d = c.decision
    if d is None:
        return None
    who = ", ".join(x for x in (d.by, d.at[:10]) if x)
    head = f"{d.action.capitalize()} by the chair" + (f" ({who})" if who else "")
    tail = f": {d.reason}" if d.reason else ""
    return f"{head}{tail}."


def code_rank(code: str) -> int:
    """Hallucinated codes before Potential before Real: what a reader must see first."""
    return "HPR".index(code[0]) if code[:1] in ("H", "P", "R") else 3


def leading_codes(codes: Counter[str] | None, n: int) -> list[tuple[str, int]]:
    """The `n` leading codes with their counts: Hallucinated codes first, then by count, so a paper's
    only H is never hidden behind its many P1s."""
    return sorted((codes or Counter()).items(), key=lambda kv: (code_rank(kv[0]), -kv[1], kv[0]))[:n]


def top_codes(codes: Counter[str] | None, n: int = 3) -> str:
    """The `leading_codes` as a cell: 'H1 ×1, P1 ×12'."""
    return ", ".join(f"{code} ×{k}" for code, k in leading_codes(codes, n))


def visible(citations: Iterable[CitationResult], show: str = "all") -> list[CitationResult]:
    """The citations `--show SHOW` keeps (see `is_shown`), in input order."""
    return [c for c in citations if is_shown(c, show)]


def code_reading_rank(verdict_class: str, code: str) -> int:
    """Where a verdict comes in `READING_ORDER`: 0 Hallucinated, 1 P3, 2 P2, 3 P1 (and any other Potential), 4 Real."""
    if verdict_class == "Hallucinated":
        return 0
    if verdict_class == "Real":
        return READING_ORDER.index("R")
    return READING_ORDER.index(code) if code in READING_ORDER else READING_ORDER.index("P1")


def reading_rank(c: CitationResult) -> int:
    """Where a citation comes in `READING_ORDER` (see `code_reading_rank`)."""
    return code_reading_rank(c.verdict.class_, c.verdict.code)


def in_reading_order(citations: Iterable[CitationResult]) -> list[CitationResult]:
    """The citations as a person should read them (`READING_ORDER`), input order kept within a rank.

    For the views people read whole (the terminal table, a whole report's Markdown and CSV); the
    streamed ones hold one paper's rows per rank instead (report/held.py `HeldRanks`)."""
    return sorted(citations, key=reading_rank)


def not_listed_line(counts: Counter[str]) -> str | None:
    """One line counting what a report leaves out, by code ('R' for Real): 'Not listed: 5 Real, 30 P1 (...).'"""
    names = {"P1": "not found where no source covers it", "P2": "software, data or web pages"}
    parts = [f"{counts['R']} Real"] if counts.get("R") else []
    for code in sorted((k for k in counts if k != "R" and counts[k]), key=lambda k: (code_rank(k), k)):
        parts.append(f"{counts[code]} {code}" + (f" ({names[code]})" if code in names else ""))
    return f"Not listed: {', '.join(parts)}." if parts else None


def unlisted_line(citations: Iterable[CitationResult], listed: Callable[[CitationResult], bool]) -> str | None:
    """The `not_listed_line` of the citations that `listed` leaves out."""
    return not_listed_line(Counter(unlisted_key(c) for c in citations if not listed(c)))


def unlisted_key(c: CitationResult) -> str:
    """What `not_listed_line` counts a citation under: 'R' for Real, else its code."""
    return "R" if c.verdict.class_ == "Real" else c.verdict.code


#: The command that checks a PDF's list on pages the user names: what the reports point to when no list was found.
REF_PAGES_COMMAND = "citetracer check PAPER --ref-pages FIRST-LAST"


def no_list_line(reading: ReadingSummary | str) -> str:
    """What the reports say of a PDF in which no reference list was found, in place of its empty table (given its
    reading, or its reading's line)."""
    summary = reading if isinstance(reading, str) else reading.summary
    hint = f"{REF_PAGES_COMMAND} reads the list from the pages given"
    return f"{summary[:1].upper()}{summary[1:]}: nothing was checked ({hint})"
