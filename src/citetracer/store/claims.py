"""What each source in the store declares it is complete for, as the store's metadata records it.

Absence from a source is evidence only where that source is complete (DESIGN: "each source
says what it is complete for"), and a mirror knows that when it is built, not the judge:

- whole venues (`complete:<source>` = 1): every paper of each venue-year the source holds
  any of (DBLP, ACL Anthology; a `mirror add --complete-venues` file);
- identifier registries (`complete_ids:<source>` = kinds, e.g. `arxiv`): every identifier
  of that kind issued before the source's snapshot date (an arXiv metadata snapshot holds
  every arXiv id up to its date, withdrawn ones included; a whole OpenAlex snapshot every
  work with a Crossref DOI, `crossref-doi`; a mirror declared complete for a DOI prefix,
  `doi:10.18653/v1`, every DOI under it registered before its date, e.g. the ACL
  Anthology's);
- venue-years one by one (the store's `complete_venue_years` table): a filtered OpenAlex
  subset holds all of a venue's works in a year when it holds as many as the venue's own
  record counts for that year;
- `scope:<source>`: the filters a subset was built with, in words.

The coverage rule (store/coverage.py) and the memory stage read these claims; `mirror stats`
prints them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: The identifier kinds a source may hold whole (`complete_ids:<source>`): arXiv ids; DOIs registered with Crossref.
ARXIV_IDS = "arxiv"
CROSSREF_DOIS = "crossref-doi"
#: The kind for every DOI under one prefix (`doi:10.18653/v1`): a registrant prefix, or a prefix and
#: the leading parts of its suffix.
DOI_PREFIX = "doi:"
_DOI_PREFIX_FORM = re.compile(r"^10\.\d{4,9}(?:/[^\s,/]+)*$")
#: The `meta` rows that say what the sources are complete for (an SQL condition on `meta.key`).
CLAIM_KEYS = "key LIKE 'complete%' OR key LIKE 'source_date:%' OR key LIKE 'scope:%'"

_NEW_STYLE = re.compile(r"^(\d{2})(\d{2})\.\d{4,5}$")
_OLD_STYLE = re.compile(r"^[a-z][a-z.\-]*/(\d{2})(\d{2})\d{3}$")


@dataclass(frozen=True)
class Claim:
    """What one source declares it is complete for."""

    source: str
    #: The date of the snapshot the source's records come from (ISO), if recorded.
    snapshot: str | None = None
    whole_venues: bool = False
    identifiers: tuple[str, ...] = ()
    #: Venue-years declared complete one by one (OpenAlex subsets).
    venue_years: int = 0
    #: The filters the mirror was built with, in words (None: the whole source).
    scope: str | None = None

    def describe(self) -> str:
        """One sentence for `mirror stats` and rationales."""
        parts = []
        if self.whole_venues:
            parts.append("every paper of each venue-year it holds any of")
        if ARXIV_IDS in self.identifiers:
            parts.append(f"every arXiv identifier issued before {self.snapshot or 'its snapshot'}")
        if CROSSREF_DOIS in self.identifiers:
            parts.append(f"every work with a Crossref DOI registered before {self.snapshot or 'its snapshot'}")
        when = self.snapshot or "its snapshot"
        for kind in self.identifiers:
            if kind.startswith(DOI_PREFIX):
                parts.append(f"every DOI under {kind.removeprefix(DOI_PREFIX)}/ registered before {when}")
        if self.venue_years:
            parts.append(f"{self.venue_years:,} venue-years whose works count matches the venue's own")
        what = "; ".join(parts) if parts else "nothing (absence from it is no evidence)"
        return what + (f" [subset: {self.scope}]" if self.scope else "")


def read_claims(meta: dict[str, str], venue_years: dict[str, int], sources: set[str]) -> dict[str, Claim]:
    """The claims of `sources` from the store's metadata rows (key -> value) and the count of
    venue-years declared complete per source."""
    out = {}
    for source in sorted(sources | set(venue_years)):
        kinds = tuple(k for k in meta.get(f"complete_ids:{source}", "").split(",") if k)
        out[source] = Claim(
            source=source,
            snapshot=meta.get(f"source_date:{source}"),
            whole_venues=meta.get(f"complete:{source}") == "1",
            identifiers=kinds,
            venue_years=venue_years.get(source, 0),
            scope=meta.get(f"scope:{source}") or None,
        )
    return out


def registries(rows: Iterable[tuple[str, str]], dates: dict[str, str], kind: str) -> dict[str, str | None]:
    """The sources whose `complete_ids:<source>` meta rows name `kind`, with their snapshot dates."""
    return {
        source: dates.get(source)
        for key, value in rows
        if kind in value.split(",") and (source := key.removeprefix("complete_ids:"))
    }


def arxiv_month(arxiv: str) -> tuple[int, int] | None:
    """The year and month an arXiv id was issued in (from the id itself: 2101.00001 is January
    2021, hep-th/9901001 January 1999); None for what is not a canonical id."""
    m = _NEW_STYLE.match(arxiv) or _OLD_STYLE.match(arxiv)
    if not m:
        return None
    yy, month = int(m.group(1)), int(m.group(2))
    if not 1 <= month <= 12:
        return None
    return (1900 + yy if yy >= 91 else 2000 + yy), month


def issued_before(arxiv: str, snapshot: str | None) -> bool:
    """Whether a snapshot taken on `snapshot` (ISO date) must hold this id: it was issued in a month
    wholly before the snapshot's (an id of the snapshot's own month may simply be newer)."""
    issued = arxiv_month(arxiv)
    if issued is None or not snapshot or len(snapshot) < 7:
        return False
    try:
        taken = int(snapshot[:4]), int(snapshot[5:7])
    except ValueError:
        return False
    return issued < taken


def doi_prefix_kind(prefix: str) -> str:
    """The claim kind for every DOI under `prefix` ("10.18653/v1" -> "doi:10.18653/v1"); ValueError for
    what is not a DOI prefix (a registrant prefix, then whole parts of the suffix, no trailing slash)."""
    clean = prefix.strip().lower().rstrip("/")
    if not _DOI_PREFIX_FORM.match(clean):
        raise ValueError(f"not a DOI prefix: {prefix!r} (e.g. 10.18653 or 10.18653/v1)")
    return DOI_PREFIX + clean


def doi_claim_kinds(doi: str) -> list[str]:
    """The claim kinds that would cover this (canonical) DOI: its registrant prefix, then each longer
    run of whole suffix parts ("10.18653/v1/p18-1001" -> doi:10.18653, doi:10.18653/v1)."""
    parts = doi.split("/")
    return [DOI_PREFIX + "/".join(parts[:n]) for n in range(1, len(parts))]


def with_kinds(value: str | None, kinds: Iterable[str]) -> str:
    """A `complete_ids:<source>` value with `kinds` added to those it names."""
    have = [k for k in (value or "").split(",") if k]
    return ",".join(have + [k for k in kinds if k not in have])


def registered_before(year: int | None, snapshot: str | None) -> bool:
    """Whether a work of `year` had its DOI registered before a snapshot taken on `snapshot` (ISO date):
    only a year wholly before the snapshot's says so (a DOI does not carry its registration date)."""
    if year is None or not snapshot or len(snapshot) < 4 or not snapshot[:4].isdigit():
        return False
    return year < int(snapshot[:4])
