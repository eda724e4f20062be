"""What an offline store cannot confirm, said for the store (`mirror stats`) and for the paper being checked.

A new user who builds the DBLP sample and checks a 2020s journal paper gets 0 of 15 citations Real
and a column of P1s, and is left to guess why. The reasons are facts of the store, not of the paper:
its newest snapshot was taken before the cited years were indexed (a year is held whole only
`SNAPSHOT_LAG_DAYS` after it ends, store/coverage.py), it has no arXiv mirror for the preprints the
paper cites, its records carry none of the venues cited (another field than its mirrors cover:
data/mirror_fields.tsv). `StoreProfile.of(store)` reads them once; `paper_note(refs)` says, in one
sentence and with counts, which of them touch this paper's citations ("42 of 50 citations are from
2016 or later; the store's newest snapshot (dblp) is of 2016-01-01"), and `cannot_confirm()` lists
them for `mirror stats`. Nothing here judges a citation: a citation the store cannot confirm is P1,
as the judge says; this says why so many are, and what would settle them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from citetracer.normalize.venues import is_preprint
from citetracer.records import Reference
from citetracer.store.api import StoreAPI
from citetracer.store.claims import ARXIV_IDS, Claim
from citetracer.store.coverage import snapshot_covers

#: The command that builds the mirrors an offline check of a field needs (mirror/setup.py FIELDS), named by
#: every store warning that asks for more records.
SETUP_COMMAND = "citetracer mirror setup --field cs|ml|biomed|all"
#: A gap is said for a paper when it touches at least this share of its citations, and this many.
MIN_SHARE = 0.2
MIN_CITATIONS = 3
#: Venues named as examples in a note.
EXAMPLES = 3


@cache
def mirror_fields() -> dict[str, str]:
    """What each known mirror covers (data/mirror_fields.tsv)."""
    from citetracer.data import lines

    return dict(line.split("\t", 1) for line in lines("mirror_fields.tsv"))


@dataclass(frozen=True)
class SourceProfile:
    name: str
    records: int
    #: The snapshot's date (ISO), when the mirror recorded one.
    snapshot: str | None
    #: The newest year the source has records of.
    last_year: int | None
    #: Whether the source declares itself complete for anything (whole venues, an identifier registry,
    #: venue-years): a file of records added as they come (`mirror add` without `--complete-venues`) is dated
    #: when it was added, and holds no year whole whatever that date.
    complete: bool = True

    def covers_year(self, year: int) -> bool:
        """Whether the source's snapshot was taken late enough to hold the works of `year` (never, for a source
        complete for nothing)."""
        if not self.complete:
            return False
        if self.snapshot:
            return snapshot_covers(self.snapshot, year)
        return self.last_year is not None and year < self.last_year


def _complete(claim: Claim | None) -> bool:
    return claim is not None and bool(claim.whole_venues or claim.identifiers or claim.venue_years)


@dataclass
class StoreProfile:
    """The facts of a store that bound what it can confirm offline."""

    sources: list[SourceProfile] = field(default_factory=list)
    #: Whether some source holds every arXiv identifier (an arXiv mirror), so a cited preprint can be found.
    arxiv: bool = False

    @classmethod
    def of(cls, store: StoreAPI) -> StoreProfile:
        counts = store.record_counts()
        dates = store.source_dates()
        years = store.years_by_source()
        claims = store.claims()
        sources = [
            SourceProfile(
                name,
                sum(kinds.values()),
                dates.get(name),
                max((y for y, n in years.get(name, {}).items() if y and n), default=None),
                _complete(claims.get(name)),
            )
            for name, kinds in sorted(counts.items())
            if sum(kinds.values())
        ]
        arxiv = any(ARXIV_IDS in c.identifiers for c in claims.values()) or any(s.name == "arxiv" for s in sources)
        return cls(sources, arxiv)

    @property
    def newest(self) -> SourceProfile | None:
        """The complete source whose snapshot reaches furthest (a dated snapshot, else the newest records); None
        when no source is complete for anything (the store's warning says so)."""
        whole = [s for s in self.sources if s.complete]
        dated = [s for s in whole if s.snapshot]
        if dated:
            return max(dated, key=lambda s: s.snapshot or "")
        return max(whole, key=lambda s: s.last_year or 0, default=None)

    def first_uncovered_year(self) -> int | None:
        """The first year no source's snapshot holds whole (None: an empty store)."""
        newest = self.newest
        if newest is None:
            return None
        if newest.snapshot:
            year = int(newest.snapshot[:4]) - 1
            while not any(s.covers_year(year) for s in self.sources) and year > 1900:
                year -= 1
            return year + 1
        return newest.last_year

    def holds(self) -> list[str]:
        """What the store holds, one phrase a source: its records, its snapshot (or newest year) and its field
        (`mirror setup`'s summary, the web app's store card)."""
        fields = mirror_fields()
        out = []
        for s in self.sources:
            when = (
                f"snapshot of {s.snapshot}" if s.snapshot else (f"records up to {s.last_year}" if s.last_year else "")
            )
            what = fields.get(s.name, "its own records")
            out.append(f"{s.name}: {s.records:,} records" + (f", {when}" if when else "") + f" ({what})")
        return out

    def cannot_confirm(self) -> list[str]:
        """What the store cannot confirm offline whatever the paper, one phrase each (`mirror stats`)."""
        if not self.sources:
            return [
                f"anything: the store is empty ({SETUP_COMMAND}, or mirror dblp DUMP.xml.gz, or mirror add FILE.jsonl)"
            ]
        out = []
        first = self.first_uncovered_year()
        newest = self.newest
        if first is not None and newest is not None:
            when = f"of {newest.snapshot}" if newest.snapshot else f"with records up to {newest.last_year}"
            out.append(f"works of {first} or later (the newest snapshot, {newest.name}, is {when})")
        if not self.arxiv:
            out.append("preprints by their arXiv id (no arXiv mirror: citetracer mirror arxiv SNAPSHOT)")
        fields = mirror_fields()
        covered = [f"{s.name}: {fields.get(s.name, 'its own records')}" for s in self.sources]
        out.append("venues outside what its sources cover (" + "; ".join(covered) + ")")
        return out

    def paper_note(self, refs: Sequence[Reference], knows_venue: Callable[[str], bool]) -> str | None:
        """One sentence on what the store cannot confirm of these citations offline, with counts; None when
        no gap touches enough of them to explain a report's P1s (MIN_SHARE, MIN_CITATIONS)."""
        total = len(refs)
        if not total or not self.sources:
            return None
        parts = []
        first = self.first_uncovered_year()
        newest = self.newest
        late = sum(1 for r in refs if r.year and first is not None and r.year >= first)
        if first is not None and newest is not None and self._matters(late, total):
            when = f"is of {newest.snapshot}" if newest.snapshot else f"has records up to {newest.last_year}"
            parts.append(
                f"{late} of {total} citations are from {first} or later; the store's newest snapshot "
                f"({newest.name}) {when}"
            )
        preprints = sum(1 for r in refs if r.arxiv_id or is_preprint(r.venue))
        if not self.arxiv and self._matters(preprints, total):
            parts.append(f"{preprints} of {total} cite arXiv preprints and the store has no arXiv mirror")
        venues = [r.venue for r in refs if r.venue and not r.arxiv_id and not is_preprint(r.venue)]
        unknown = [v for v in venues if not knows_venue(v)]
        if self._matters(len(unknown), total):
            shown = "; ".join(list(dict.fromkeys(v.strip()[:60].strip() for v in unknown))[:EXAMPLES])
            holds = "; ".join(mirror_fields().get(s.name, f"{s.name}'s own records") for s in self.sources)
            parts.append(
                f"{len(unknown)} of {total} name venues none of its records carries ({shown}), and it holds {holds}"
            )
        if not parts:
            return None
        return (
            "offline, the store cannot confirm much of this paper: " + "; ".join(parts) + ". Those citations come "
            "out P1 (unconfirmed, not suspect): check online, or add the mirrors for them "
            f"({SETUP_COMMAND}; docs/mirrors.md)"
        )

    @staticmethod
    def _matters(n: int, total: int) -> bool:
        return n >= MIN_CITATIONS and n >= MIN_SHARE * total
