"""Compile the nickname table of normalize/nicknames.py (src/citetracer/data/nicknames.tsv).

Source: the `nicknames` package on PyPI (carltonnorthern/nicknames, version 1.0.1, Apache-2.0): its
names.csv, "a hand-curated CSV file containing English given names and their associated nicknames",
one `name,has_nickname,nickname` triplet a line. It is compiled rather than depended on: 2,691 pairs
read at run time need no package, and the table can then be read beside our other lists. The licence
text is shipped beside it (data/LICENSE-nicknames.txt).

    pip download --no-deps nicknames==1.0.1 -d /tmp/n && unzip -q /tmp/n/*.whl -d /tmp/n
    python scripts/build_nicknames.py --csv /tmp/n/nicknames/names.csv
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "citetracer" / "data" / "nicknames.tsv"
HEADER = """# English given names and their nicknames: name <TAB> nickname (one pair a line; "Alexander" "Alex").
# Source: names.csv of the `nicknames` package 1.0.1 on PyPI, https://github.com/carltonnorthern/nicknames,
# (c) Carlton Northern and Nick Crews, licensed under the Apache License 2.0 (data/LICENSE-nicknames.txt);
# compiled unchanged (pairs sorted, lower case) by scripts/build_nicknames.py.
# Read by normalize/nicknames.py.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", type=Path, required=True, help="names.csv of the nicknames package")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    pairs = set()
    with args.csv.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["relationship"] == "has_nickname":
                pairs.add((row["name1"].strip().lower(), row["name2"].strip().lower()))
    args.out.write_text(HEADER + "".join(f"{a}\t{b}\n" for a, b in sorted(pairs)), encoding="utf-8")
    print(f"{len(pairs)} pairs -> {args.out}")


if __name__ == "__main__":
    main()
