"""Knowledge tables (venue aliases, name particles, DOI registrants, ...) with their provenance.

Each table is a plain text file in this folder; `lines()` reads one, skipping
comments, so that knowledge stays data and never grows into `if` chains.
"""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def lines(name: str) -> tuple[str, ...]:
    """The non-blank, non-comment lines of a knowledge table shipped in citetracer/data."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            out.append(stripped)
    return tuple(out)
