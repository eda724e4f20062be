"""Where a conference was held, read from DBLP proceedings titles: coverage and hand-checked precision/recall.

Runs `location_of_proceedings` on every <proceedings> title of the DBLP dump in ../shared and prints
(1) the share of titles it reads a location from and the share of those that parse as a place,
and (2) precision and recall against bench/places_gold.tsv, 50 titles whose location was labelled
by hand, strictly (the same words as the label) and as places (`place_relation` says "same": a
location read with a word more or less, "Sicily, Italy" for "Taormina, Sicily, Italy").

    python bench/places.py [--dblp PATH]
"""

from __future__ import annotations

import argparse
import gzip
import html
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from citetracer.normalize.places import location_of_proceedings, parse_place, place_key, place_relation

ROOT = Path(__file__).resolve().parents[1]
DBLP = ROOT.parent / "shared" / "data" / "dblp" / "dblp-large.xml.gz"
GOLD = Path(__file__).with_name("places_gold.tsv")
_PROCEEDINGS = re.compile(r'<proceedings [^>]*key="([^"]+)"[^>]*>.*?<title>(.*?)</title>')


def proceedings_titles(path: Path) -> Iterator[tuple[str, str]]:
    """(key, title) of each <proceedings> record: the dump writes one record a line; entities unescaped."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("<proceedings "):
                m = _PROCEEDINGS.match(line)
                if m:
                    yield m.group(1), html.unescape(re.sub(r"<[^>]+>", "", m.group(2)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dblp", type=Path, default=DBLP)
    args = parser.parse_args()
    if not args.dblp.exists():
        print(f"DBLP dump not found at {args.dblp}: nothing to measure")
        return 0
    titles = dict(proceedings_titles(args.dblp))
    start = time.perf_counter()
    found = {key: location_of_proceedings(title) for key, title in titles.items()}
    elapsed = time.perf_counter() - start
    read = [loc for loc in found.values() if loc]
    places = sum(1 for loc in read if parse_place(loc) is not None)
    print(f"proceedings titles: {len(titles):,}")
    print(f"  a location read:  {len(read):,} ({len(read) / max(1, len(titles)):.1%}); parse as a place: {places:,}")
    print(f"  time: {elapsed:.1f} s ({1e3 * elapsed / max(1, len(titles)):.2f} ms a title, gazetteer load included)")

    gold = {}
    for line in GOLD.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            key, _, loc = line.partition("\t")
            gold[key] = loc.strip()
    rows = [(key, loc, found.get(key)) for key, loc in gold.items() if key in titles]
    if not rows:
        print("no gold title is in this dump")
        return 0
    labelled = [r for r in rows if r[1]]
    returned = [r for r in rows if r[2]]
    strict = [r for r in returned if r[1] and place_key(r[1]) == place_key(r[2] or "")]
    as_place = [r for r in returned if r[1] and (r in strict or place_relation(r[1], r[2] or "") == "same")]
    print(f"\nhand-checked sample ({GOLD.name}): {len(rows)} titles, {len(labelled)} with a location")
    print(f"{'':24}{'precision':>12}{'recall':>10}")
    for name, hits in (("strict (same words)", strict), ("as places", as_place)):
        precision = len(hits) / max(1, len(returned))
        recall = len(hits) / max(1, len(labelled))
        print(
            f"{name:24}{precision:>12.1%}{recall:>10.1%}"
            f"   ({len(hits)} of {len(returned)} read, {len(labelled)} labelled)"
        )
    for key, loc, got in rows:
        if got is None or not loc or place_key(loc) != place_key(got):
            print(f"  {key}: labelled {loc!r}, read {got!r}")
    print(f"\ncommand: python bench/places.py --dblp {args.dblp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
