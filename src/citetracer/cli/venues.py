"""`citetracer venues NAME ...`: what the tool thinks a venue string is.

Part of the CLI front end: it asks the venue knowledge base (normalize/venue_kb.py) the
question every venue verdict turns on, so that a user (or a test) can see why a venue was
read as a known venue, as close to one, or as no venue of any list.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from citetracer.cli.common import settings_of
from citetracer.config import Settings, is_store_url
from citetracer.judge.facts.venue import not_a_venue
from citetracer.normalize.venue_kb import VenueKB, venue_keys
from citetracer.normalize.venues import venue_kind
from citetracer.store.api import display_location, open_store


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """The `venues` command's arguments."""
    venues = sub.add_parser(
        "venues",
        parents=[common],
        help="say what a venue string is (a known venue, close to one, or in no list)",
        description="Say what the venue knowledge base makes of venue strings: the known venue and the list "
        "that knows it, the nearest listed name, or none (what a venue verdict rests on).",
    )
    venues.add_argument("names", nargs="+", metavar="NAME", help="venue strings as cited")
    venues.add_argument("--format", choices=["table", "json"], default="table", help="output format")
    venues.add_argument("--no-store", action="store_true", help="the packaged lists only, not the store's names")
    venues.set_defaults(handler=_run)


def _run(args: argparse.Namespace, err: Console) -> int:
    return cmd_venues(args, settings_of(args), Console(soft_wrap=True), err)


def describe(kb: VenueKB, name: str) -> dict[str, object]:
    """What the knowledge base says of one venue string (the JSON shape of `--format json`)."""
    venue = kb.recognise(name)
    near = None if venue is not None else kb.nearest(name)
    return {
        "name": name,
        "keys": list(venue_keys(name)),
        "kind": venue_kind(name),
        "not_a_venue": not_a_venue(name),
        "recognised": None
        if venue is None
        else {"name": venue.name, "ids": sorted(venue.ids), "kind": venue.kind, "lists": list(venue.lists)},
        "close_to": near,
        "lists_searched": kb.lists(),
    }


def cmd_venues(args: argparse.Namespace, settings: Settings, out: Console, err: Console) -> int:
    store = None
    location = settings.store
    if not args.no_store and (is_store_url(location) or Path(location).exists()):
        store = open_store(location, readonly=True)
    try:
        kb = VenueKB(store_names=store.venue_catalog if store is not None else None)
        found = [describe(kb, name) for name in args.names]
    finally:
        if store is not None:
            store.close()
    if args.format == "json":
        out.print_json(json.dumps({"store": None if store is None else display_location(location), "venues": found}))
        return 0
    for v in found:
        out.print(f"[bold]{escape(str(v['name']))}[/bold]", highlight=False)
        if v["not_a_venue"]:
            out.print(f"  {escape(str(v['not_a_venue']))}", highlight=False)
        rec = v["recognised"]
        if isinstance(rec, dict):
            out.print(
                f"  recognised as {escape(str(rec['name']))} ({rec['kind'] or 'kind unknown'}), "
                f"by {escape(', '.join(rec['lists']))}; ids {', '.join(rec['ids'])}",
                highlight=False,
            )
        elif v["close_to"]:
            out.print(f"  in no list; close to {escape(str(v['close_to']))}", highlight=False)
        else:
            searched = "; ".join(str(x) for x in v["lists_searched"])  # type: ignore[attr-defined]
            out.print(f"  in no list and close to nothing in: {escape(searched)}", highlight=False)
        out.print(f"  structural keys: {escape(' | '.join(v['keys']))}", highlight=False)  # type: ignore[arg-type]
    return 0
