"""Whether a store covers a venue in a year, so that absence from it is evidence: one rule for every backend.

A neighbouring year proves nothing about this one (NIPS 2014 does not vouch for NIPS
2015), and a source whose dump was taken before the cited year was over by at least
SNAPSHOT_LAG_DAYS cannot hold all of it: late proceedings and journal issues are
indexed months after they appear, so an old mirror must not turn "not yet in the
dump" into evidence. The backends only count records (`count_years`) and hand over the
volume, issue and pages of a venue-year's records (`year_issues`): a source may hold a
journal only in part, year after year (DBLP's Nucleic Acids Research: its database and
web-server issues), and the records say so themselves (`selective`).

Two kinds of source make a venue-year covered (store/claims.py): one that holds whole
venues (DBLP, ACL Anthology: every venue-year it has any of), and one that declared
single venue-years whole (a filtered OpenAlex subset, where it holds as many works of the
venue in that year as the venue's own count). For the second, every venue the cited
string may denote (its names, alternate and abbreviated titles in the store's venue
knowledge) must be declared whole in that year: an ambiguous name vouches for nothing.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from datetime import datetime

#: Days after the end of a year from which a source's snapshot holds all of that year.
SNAPSHOT_LAG_DAYS = 182
#: A venue-year holding fewer than this share of the records of the years around it counts as partly indexed.
PARTIAL_YEAR_SHARE = 0.8

#: Below this share of an issue's (or volume's) page span covered by its records' page ranges, the
#: source holds only part of it: a whole proceedings volume or journal issue tiles its pages (front
#: matter aside). On the dblp-large dump, 422 venue-years with page ranges: median 1.0, 10% under 0.954;
#: EJOR, PAMI, TSP, ICML, CVPR 0.99-1.0; EMNLP 2013 0.907 (184 of its ~206 papers), Bioinformatics 2012
#: 0.60, IEEE Computer 2008 0.44 (its columns are not indexed).
MIN_PAGE_DENSITY = 0.95
#: ... and at least this share of the issue numbers 1..N of a year must be present.
MIN_ISSUE_SHARE = 0.8
#: The page measure needs this many records with page ranges; without them (proceedings that
#: number each paper from 1, journals with article numbers) the count alone decides.
MIN_PAGED_RECORDS = 10
#: A page range longer than this is no article's (a misread field).
MAX_ARTICLE_PAGES = 500

#: (venue key, first year, last year, sources) -> records per year in that window.
CountYears = Callable[[str, int, int, Sequence[str]], dict[int, int]]
#: (venue key, year) -> each venue the key may denote, with the source that declared it whole that year and
#: its records then ((venue, None, 0) when none did).
ListedYears = Callable[[str, int], list[tuple[str, str | None, int]]]
#: (venue key, year, sources) -> (volume, issue, pages) of each record of that venue-year.
YearIssues = Callable[[str, int, Sequence[str]], list[tuple[str | None, str | None, str | None]]]


def snapshot_covers(date: str | None, year: int) -> bool:
    """Whether a snapshot taken on `date` (ISO) is late enough to hold every record of `year`
    (a complete source without a recorded date is taken as current)."""
    if not date:
        return True
    try:
        taken = datetime.fromisoformat(date[:10]).date()
    except ValueError:
        return False
    return (taken - datetime(year, 12, 31).date()).days >= SNAPSHOT_LAG_DAYS


def venue_year_coverage(
    key: str,
    year: int | None,
    complete: set[str],
    dates: dict[str, str],
    count_years: CountYears,
    listed: ListedYears | None = None,
    year_issues: YearIssues | None = None,
) -> tuple[int, str]:
    """(records of this venue in exactly `year` from complete sources whose snapshot covers
    that year, and a sentence saying which sources and snapshots those are, or why none does)."""
    count, note = _whole_venue_coverage(key, year, complete, dates, count_years, year_issues)
    if count or year is None or listed is None:
        return count, note
    declared = listed_coverage(listed(key, year), year, dates)
    return declared if declared is not None else (count, note)


def listed_coverage(
    venues: list[tuple[str, str | None, int]], year: int, dates: dict[str, str]
) -> tuple[int, str] | None:
    """Coverage from venue-years declared whole one by one, when every venue the cited string may
    denote is declared whole in `year` by a source whose snapshot covers that year; else None."""
    if not venues or any(source is None or not snapshot_covers(dates.get(source), year) for _, source, _ in venues):
        return None
    total = sum(n for _, _, n in venues)
    sources = {src for _, src, _ in venues if src}
    snapshots = ", ".join(sorted(f"{src} snapshot of {dates.get(src) or 'an unknown date'}" for src in sources))
    named = ", ".join(sorted(v for v, _, _ in venues))
    return total, (
        f"local store holds all {total} works of this venue ({named}) in {year}, as many as the venue's own "
        f"count ({snapshots})"
    )


def selective(rows: Sequence[tuple[str | None, str | None, str | None]]) -> str | None:
    """Why a source's records of one venue-year look like a selection rather than all of it, or None.

    DBLP indexes some journals in part: the database and web-server issues of Nucleic Acids
    Research, some articles of some issues of Bioinformatics. The records say so themselves:
    only named issues ("Database-Issue") and no numbered ones; numbered issues with gaps in
    1..N; or page ranges that leave holes in each issue's span (a whole issue tiles its pages).
    """
    issues = {(i or "").strip() for _, i, _ in rows if i and i.strip()}
    numbered = {int(i) for i in issues if i.isdigit()}
    if issues and not numbered:
        return f"only named issues are held ({', '.join(sorted(issues)[:3])}), no numbered ones"
    if numbered and len(numbered) < MIN_ISSUE_SHARE * max(numbered):
        return f"{len(numbered)} of its issues 1-{max(numbered)} are held"
    spans: dict[tuple[str | None, str | None], list[tuple[int, int]]] = {}
    for volume, issue, pages in rows:
        rng = _page_range(pages)
        if rng is not None:
            spans.setdefault((volume, issue), []).append(rng)
    paged = sum(len(v) for v in spans.values())
    if paged < MIN_PAGED_RECORDS:
        return None
    covered = span = 0
    for ranges in spans.values():
        ranges.sort()
        end = -1
        for a, b in ranges:
            if b > end:
                covered += b - max(a, end + 1) + 1
                end = b
        span += max(b for _, b in ranges) - min(a for a, _ in ranges) + 1
    density = covered / span if span else 1.0
    if density < MIN_PAGE_DENSITY:
        return f"its records cover {density:.0%} of the page spans of their issues"
    return None


def _page_range(pages: str | None) -> tuple[int, int] | None:
    if not pages:
        return None
    first, _, last = pages.replace("–", "-").partition("-")
    first, last = first.strip(), last.strip()
    if not (first.isdigit() and last.isdigit()):
        return None
    a, b = int(first), int(last)
    if b < a and len(last) < len(first):
        b = int(first[: len(first) - len(last)] + last)  # 123-9 -> 123-129
    return (a, b) if a <= b <= a + MAX_ARTICLE_PAGES else None


def _whole_venue_coverage(
    key: str,
    year: int | None,
    complete: set[str],
    dates: dict[str, str],
    count_years: CountYears,
    year_issues: YearIssues | None = None,
) -> tuple[int, str]:
    if year is None:
        return 0, "the citation has no year"  # an undated citation cannot be placed in a covered venue-year
    if not complete:
        return 0, "no source in the local store is complete for its venues"
    fresh = sorted(src for src in complete if snapshot_covers(dates.get(src), year))
    if not fresh:
        ends = ", ".join(f"the {src} mirror ends {dates.get(src) or 'at an unknown date'}" for src in sorted(complete))
        return 0, f"{ends}; this citation is from {year}"
    by_year = dict(count_years(key, year - 2, year + 2, fresh))
    count = by_year.pop(year, 0)
    snapshots = ", ".join(f"{src} snapshot of {dates.get(src)}" for src in fresh)
    if not count:
        return 0, f"the local store holds no records of this venue in {year} ({snapshots})"
    usual = statistics.median(by_year.values()) if by_year else 0
    if count < PARTIAL_YEAR_SHARE * usual:
        # A year with far fewer records than the years around it was indexed only in part
        # (DBLP's JMLR 2008: 66 records between 91 and 100): absence from it proves nothing.
        return 0, (
            f"the local store holds {count} records of this venue in {year}, against about {usual:.0f} "
            f"in the years around it: that year looks indexed only in part ({snapshots})"
        )
    part = selective(year_issues(key, year, fresh)) if year_issues is not None else None
    if part:
        return (
            0,
            f"the local store holds {count} records of this venue in {year}, but {part}: a selection ({snapshots})",
        )
    return count, f"local store holds {count} records of this venue in {year} ({snapshots})"
