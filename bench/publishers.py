"""How much of the publisher strings real records and references write the publisher knowledge base recognises.

Counts the <publisher> strings of the DBLP dump in ../shared (books and proceedings) and the
publisher fields labelled in anystyle's and GROBID's reference sets, and prints the share
(by occurrence and by distinct string) that `recognise_publisher` names, with the commonest
strings it does not. What it does not name stays "unknown" in `publisher_relation`: a gap, not
a contradiction.

    python bench/publishers.py [--shared DIR] [--misses N]
"""

from __future__ import annotations

import argparse
import gzip
import html
import re
import sys
from collections import Counter
from pathlib import Path

from citetracer.normalize.publishers import publisher_count, recognise_publisher

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def dblp_publishers(path: Path) -> Counter[str]:
    counts: Counter[str] = Counter()
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            for m in re.finditer(r"<publisher>(.*?)</publisher>", line):
                counts[html.unescape(m.group(1)).strip()] += 1
    return counts


def labelled_publishers(folder: Path) -> Counter[str]:
    """Publisher fields of anystyle's XML sets and GROBID's TEI set (the field as labelled)."""
    counts: Counter[str] = Counter()
    for path in sorted(folder.glob("anystyle-*.xml")):
        for m in re.finditer(r"<publisher>(.*?)</publisher>", path.read_text(encoding="utf-8"), re.S):
            counts[html.unescape(m.group(1)).strip(" .,;:\n")] += 1
    tei = folder / "grobid-citations.tei.xml"
    if tei.exists():
        for m in re.finditer(r"<publisher>(.*?)</publisher>", tei.read_text(encoding="utf-8"), re.S):
            counts[html.unescape(re.sub(r"<[^>]+>", "", m.group(1))).strip(" .,;:\n")] += 1
    return counts


def report(name: str, counts: Counter[str], misses: int) -> None:
    if not counts:
        print(f"{name}: no strings")
        return
    known = {s: recognise_publisher(s) is not None for s in counts}
    occurrences = sum(counts.values())
    hit = sum(n for s, n in counts.items() if known[s])
    print(f"{name}: {len(counts):,} distinct strings, {occurrences:,} occurrences")
    print(f"  recognised: {hit / occurrences:.1%} of occurrences, {sum(known.values()) / len(counts):.1%} of strings")
    top = [(s, n) for s, n in counts.most_common() if not known[s]][:misses]
    if top:
        print("  commonest not recognised: " + "; ".join(f"{s} ({n})" for s, n in top))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--misses", type=int, default=15)
    args = parser.parse_args()
    publishers, names = publisher_count()
    print(f"knowledge base: {publishers} publishers, {names} names")
    dblp = args.shared / "dblp" / "dblp-large.xml.gz"
    refs = args.shared / "refstrings"
    if not dblp.exists() and not refs.exists():
        print(f"no data under {args.shared}: nothing to measure")
        return 0
    if dblp.exists():
        report("DBLP <publisher>", dblp_publishers(dblp), args.misses)
    if refs.exists():
        report("labelled reference publishers (anystyle, GROBID)", labelled_publishers(refs), args.misses)
    print(f"\ncommand: python bench/publishers.py --shared {args.shared}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
