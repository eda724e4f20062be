"""Which Scholar Connectors to ask for a citation, and why (the reason goes into the report).

Asking every service for every citation would cost ten calls each and
exhaust rate limits; the table `data/connector_routes.tsv` maps what a
citation looks like (venue, venue words, entry kind) to the services that
index such works. OpenAlex, which indexes nearly everything, is always asked;
the user can also fix the list (`online.connectors`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from citetracer.data import lines
from citetracer.normalize.text import tokens
from citetracer.normalize.venues import venue_id
from citetracer.records import Reference


@dataclass(frozen=True)
class Route:
    rule: str
    values: frozenset[str]
    connectors: tuple[str, ...]
    why: str


@dataclass
class Choice:
    ask: dict[str, str] = field(default_factory=dict)  # connector -> reason

    def add(self, name: str, why: str) -> None:
        """Ask connector `name`, for the first reason given."""
        self.ask.setdefault(name, why)


@lru_cache(maxsize=1)
def routes() -> tuple[Route, ...]:
    """The routing table (data/connector_routes.tsv): which specialist connectors a citation's venue, type or
    identifier calls for, and why.
    """
    out = []
    for line in lines("connector_routes.tsv"):
        rule, values, connectors, why = line.split("\t")
        out.append(Route(rule, frozenset(values.split("|")), tuple(connectors.split("|")), why))
    return tuple(out)


def choose(reference: Reference, available: set[str], fixed: list[str] | None = None) -> Choice:
    """The connectors to ask (among `available`), each with the reason it was chosen."""
    choice = Choice()
    if fixed:
        for name in fixed:
            if name in available:
                choice.add(name, "configured")
        return choice
    vid = venue_id(reference.venue)
    words = set(tokens(reference.venue or ""))
    for route in routes():
        hit = (
            route.rule == "always"
            or (route.rule == "venue" and vid in route.values)
            or (route.rule == "no-venue" and not reference.venue)
            or (route.rule == "word" and bool(words & route.values))
            or (route.rule == "type" and (reference.type or "").lower() in route.values)
        )
        if hit:
            for name in route.connectors:
                if name in available:
                    choice.add(name, route.why)
    return choice
