"""Compile the journal list of the venue knowledge base (src/citetracer/data/journals.tsv.gz).

Source: JabRef's journal abbreviation lists (CC0), one CSV per list
(`full name;abbreviation[;shortest;frequency]` in JabRef's own files, comma-separated
and quoted in the copies under ../shared/data/venues/jabref/): ISO 4 (general, IEEE, ACS,
life science, ...), MEDLINE (dotless), MathSciNet, UBC and others. Each journal becomes one
name `journal id <TAB> name <TAB> structural keys`, names that share an abbreviation
(or a folded full name) being one journal with one id; the keys are those of
normalize/venue_kb.py (`listed_keys`), computed here so that a process loads the list
without normalising 90,000 names (tests/normalize/test_venue_kb.py checks that they still
agree with the code). Sorted, so the same lists give the same bytes. JabRef's IEEE "strings" list
holds BibTeX macro names (#IEEE_J_...#), not abbreviations: only its full names are kept.

Read at run time by normalize/venue_kb.py. The data is CC0 (LICENSE.md of the lists);
the file's header names the lists it was compiled from.

    python scripts/build_venues.py [--jabref DIR] [--out PATH]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import re
import unicodedata
from pathlib import Path

from citetracer.normalize.venue_kb import listed_keys

ROOT = Path(__file__).resolve().parents[1]
JABREF = ROOT.parent / "shared" / "data" / "venues" / "jabref"
OUT = ROOT / "src" / "citetracer" / "data" / "journals.tsv.gz"
#: Longest name kept: longer "names" in the lists are notes, not titles.
MAX_NAME = 200


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text).split())


def clean(text: str) -> str:
    """A name as printed: quotes the CSV escaping left, and runs of spaces, removed."""
    return " ".join(text.replace('"', " ").replace("\t", " ").split())


def read_lists(folder: Path) -> tuple[dict[str, tuple[str, set[str]]], list[str]]:
    journals: dict[str, tuple[str, set[str]]] = {}
    used = []
    for path in sorted(folder.glob("journal_abbreviations_*.csv")):
        used.append(path.name)
        macros = "ieee_strings" in path.name
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                if not row or not row[0].strip():
                    continue
                full = clean(row[0])
                if not full or len(full) > MAX_NAME or not fold(full):
                    continue
                key = fold(full)
                name, abbrevs = journals.get(key, (full, set()))
                for value in row[1:3] if not macros else []:
                    value = clean(value)
                    if value and len(value) <= MAX_NAME and fold(value) and fold(value) != key:
                        abbrevs.add(value)
                journals[key] = (name, abbrevs)
    return journals, used


def groups(journals: dict[str, tuple[str, set[str]]]) -> list[list[str]]:
    """The journals as groups of names: entries sharing a folded name or abbreviation are one journal."""
    rows = [(name, sorted(abbrevs)) for _, (name, abbrevs) in sorted(journals.items())]
    parent = list(range(len(rows)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, (full, abbrevs) in enumerate(rows):
        for name in (full, *abbrevs):
            key = fold(name)
            if key in owner:
                parent[find(i)] = find(owner[key])
            else:
                owner[key] = i
    out: dict[int, list[str]] = {}
    for i, (full, abbrevs) in enumerate(rows):
        names = out.setdefault(find(i), [])
        names.extend(n for n in (full, *abbrevs) if n not in names)
    return list(out.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jabref", type=Path, default=JABREF)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    journals, used = read_lists(args.jabref)
    text = io.StringIO()
    text.write("# Journals of JabRef's abbreviation lists (CC0), compiled by scripts/build_venues.py from:\n")
    text.write(f"# {', '.join(used)}\n")
    text.write("# journal id <TAB> name <TAB> structural keys separated by '|'\n")
    grouped = groups(journals)
    for gid, names in enumerate(grouped):
        for name in names:
            text.write(f"{gid}\t{name}\t{'|'.join(listed_keys(name))}\n")
    data = text.getvalue().encode("utf-8")
    # mtime=0: the same lists give the same bytes.
    with args.out.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(data)
    size = args.out.stat().st_size
    print(f"{len(grouped)} journals ({len(journals)} titles) from {len(used)} lists -> {args.out} ({size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
