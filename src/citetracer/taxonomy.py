"""The 12 verdict codes of DESIGN.md and the class each belongs to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

VerdictClass = Literal["Real", "Potential", "Hallucinated"]


@dataclass(frozen=True)
class Code:
    code: str
    verdict_class: VerdictClass
    name: str
    meaning: str


CODES: dict[str, Code] = {
    c.code: c
    for c in (
        Code("R1", "Real", "exact", "every provided field matches one candidate after normalization"),
        Code("R2", "Real", "variant", "differences are formatting only"),
        Code("R3", "Real", "incomplete evidence", "strong identity match; candidate lacks some cited fields"),
        Code(
            "P1", "Potential", "unverified", "no record found, but coverage was incomplete or the kind is not indexed"
        ),
        Code(
            "P2",
            "Potential",
            "non-scholarly",
            "software, dataset, web page or standard, not confirmable as scholarship",
        ),
        Code(
            "P3",
            "Potential",
            "ambiguous",
            "a real work matches, but some fields conflict in ways an honest author could cause",
        ),
        Code("H1", "Hallucinated", "fabricated work", "no evidence of a work with this title anywhere searched"),
        Code("H2", "Hallucinated", "corrupted title", "a real work with the same authors has a near-miss title"),
        Code(
            "H3",
            "Hallucinated",
            "wrong authors",
            "the work exists but its authors are substituted, invented, padded or placeholders",
        ),
        Code(
            "H4",
            "Hallucinated",
            "wrong venue, date or publication details",
            "wrong venue or year, preprint cited as published, a future date, or pages, volume, issue, publisher "
            "or conference location that contradict a record of the same version",
        ),
        Code(
            "H5",
            "Hallucinated",
            "wrong identifier",
            "DOI, arXiv id or URL does not resolve or resolves to a different work",
        ),
        Code("H6", "Hallucinated", "chimera", "fields taken from two or more different real works"),
    )
}

#: When several codes fire, the primary one is the first in this order:
#: the most specific explanation of what is wrong comes first.
PRIMARY_ORDER: tuple[str, ...] = (
    "H6",
    "H5",
    "H3",
    "H2",
    "H4",
    "H1",
    "P3",
    "P2",
    "P1",
    "R3",
    "R2",
    "R1",
)


def class_of(code: str) -> VerdictClass:
    return CODES[code].verdict_class


def primary(codes: list[str]) -> str:
    """The code that best names what is wrong among several that fired."""
    return min(codes, key=PRIMARY_ORDER.index)
