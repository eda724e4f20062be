"""Field parser benchmark: `parse_reference_string` on labelled reference strings.

Data (../shared/data/refstrings): anystyle-core.xml (1,514 strings, each field
a tagged span) and grobid-citations.tei.xml (2,401 TEI <bibl> elements with
inline field markup). The input string is the concatenated text; the gold
fields are the tagged spans:
- title: anystyle <title>; TEI <title level="a">, else level="m" (a book);
- year: the first 19xx/20xx in <date>;
- author surnames: from the <author> spans, read with simple rules (names
  split at ";", "and", "&", "et" and commas; "Surname, I." and "Surname,
  Given" pairs kept together; initials dropped; "I. Surname" and "Surname I"
  both give Surname); compared by their last word, casefolded, accents removed;
- venue: anystyle <container-title> / <journal>; TEI <title level="j">, or
  level="m" when a level="a" title exists;
- doi, volume, pages where tagged.
A field counts as correct when the prediction equals the gold value after
folding (lower case, letters and digits only); precision is over predicted
values, recall over gold values.

    python bench/parser.py [--show N]   (N: print N title errors per set)
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import unicodedata
import xml.etree.ElementTree as etree
from collections import Counter
from pathlib import Path
from typing import Any

from citetracer.extract.fields import parse_reference_string
from citetracer.match.normalize import canonical_doi
from citetracer.records import Reference

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "refstrings"
TEI = "{http://www.tei-c.org/ns/1.0}"


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "", text)


_INITIALS = re.compile(r"^(?:[A-Z]\.?-?){1,4}$|^(?:[A-Z][a-z]?\.)(?:-?[A-Z][a-z]?\.)*$")
_DROP = re.compile(r"\bet\.?\s*al\.?|\band others\b|…|\.\.\.|\((?:eds?|Hrsg|coords?)\.?\)|\beds?\.|\beditors?\b", re.I)


def gold_surnames(author: str) -> list[str]:
    text = _DROP.sub(" ", author)
    text = re.sub(r"^\s*(?:In:?|by)\s+", "", text)
    text = text.strip(" .,;:")
    chunks = re.split(r"\s*;\s*|\s+(?:and|&|et|und|y)\s+|,\s*(?:and|&)\s+", text)
    out: list[str] = []
    for chunk in chunks:
        pieces = [p.strip(" .") for p in chunk.split(",") if p.strip(" .")]
        i = 0
        while i < len(pieces):
            piece = pieces[i]
            words = piece.split()
            nxt = pieces[i + 1] if i + 1 < len(pieces) else None
            if (
                nxt is not None
                and len(words) <= 3
                and all(
                    w[:1].isupper() or w in ("van", "von", "de", "der", "da", "di", "del", "la", "le", "du")
                    for w in words
                )
            ):
                nxt_words = nxt.split()
                if all(_INITIALS.match(w) for w in nxt_words) or (
                    len(words) == 1
                    and len(nxt_words) <= 3
                    and len(pieces) == 2 * (len(pieces) // 2)
                    and not _is_full_name(nxt)
                ):
                    # "Surname, I." / "Surname, Given": the first piece is the family name.
                    out.append(words[-1])
                    i += 2
                    continue
            kept = [w for w in words if not _INITIALS.match(w.strip(","))]
            if kept:
                if len(words) >= 2 and _INITIALS.match(words[-1]) and not _INITIALS.match(words[0]):
                    out.append(kept[-1] if len(kept) == 1 else kept[0])  # "Surname IJ" (Vancouver)
                else:
                    out.append(kept[-1])
            i += 1
    return [fold(s) for s in out if fold(s)]


def _is_full_name(piece: str) -> bool:
    """'Holger Kantz' (given + family) rather than 'James J.' (given names only)."""
    words = piece.split()
    return len(words) >= 2 and not _INITIALS.match(words[-1])


def predicted_surnames(ref: Reference) -> list[str]:
    return [fold(p.family.split()[-1]) for p in ref.authors if p.family.split() and fold(p.family.split()[-1])]


def year_of(text: str | None) -> int | None:
    m = re.search(r"\b(1[5-9]\d\d|20\d\d)", text or "")
    return int(m.group(1)) if m else None


def load_anystyle(path: Path) -> list[tuple[str, dict[str, Any]]]:
    # Stdlib parser: never fetches external entities; these files are the project's own benchmark data.
    root = etree.parse(str(path)).getroot()
    items = []
    for seq in root.iter("sequence"):
        parts = [(el.tag, (el.text or "").strip()) for el in seq]
        raw = " ".join(t for _, t in parts if t)
        gold: dict[str, Any] = {}
        for tag, text in parts:
            if tag == "title" and "title" not in gold:
                gold["title"] = text
            elif tag == "date" and "year" not in gold:
                gold["year"] = year_of(text)
            elif tag == "author" and "authors" not in gold:
                gold["authors"] = gold_surnames(text)
            elif tag in ("container-title", "journal") and "venue" not in gold:
                gold["venue"] = text
            elif tag == "doi":
                gold["doi"] = text
            elif tag == "volume" and "volume" not in gold:
                gold["volume"] = text
            elif tag == "pages" and "pages" not in gold:
                gold["pages"] = text
        items.append((raw, gold))
    return items


def load_grobid(path: Path) -> list[tuple[str, dict[str, Any]]]:
    # Stdlib parser: never fetches external entities; these files are the project's own benchmark data.
    root = etree.parse(str(path)).getroot()
    items = []
    for bibl in (e for e in root.iter() if e.tag in (f"{TEI}bibl", "bibl")):
        raw = re.sub(r"\s+", " ", "".join(bibl.itertext())).strip()
        gold: dict[str, Any] = {}
        titles = {t.get("level"): re.sub(r"\s+", " ", "".join(t.itertext())).strip() for t in _children(bibl, "title")}
        if titles.get("a"):
            gold["title"] = titles["a"]
            gold["venue"] = titles.get("j") or titles.get("m")
        elif titles.get("m"):
            gold["title"] = titles["m"]
        elif titles.get("j"):
            gold["venue"] = titles["j"]
        dates = list(_children(bibl, "date"))
        if dates:
            gold["year"] = year_of("".join(dates[0].itertext()))
        authors = list(_children(bibl, "author"))
        if authors:
            gold["authors"] = [s for a in authors for s in gold_surnames("".join(a.itertext()))]
        for scope in _children(bibl, "biblScope"):
            kind = scope.get("type") or scope.get("unit")
            text = "".join(scope.itertext()).strip()
            if kind in ("vol", "volume"):
                gold.setdefault("volume", text)
            elif kind in ("pp", "page"):
                gold.setdefault("pages", text)
        for idno in _children(bibl, "idno"):
            if (idno.get("type") or "").lower() == "doi":
                gold["doi"] = "".join(idno.itertext()).strip()
        if raw:
            items.append((raw, {k: v for k, v in gold.items() if v}))
    return items


def _children(el: Any, name: str) -> Any:
    return (c for c in el.iter() if c is not el and c.tag in (f"{TEI}{name}", name))


_IN_PROC = re.compile(r"^\s*(?:In:?\s+|in:\s*)(?:(?:the\s+)?Proceedings of\s+(?:the\s+)?)?", re.IGNORECASE)
FIELDS = ("title", "year", "authors", "venue", "doi", "volume", "pages")


def score(items: list[tuple[str, dict[str, Any]]], show: int, name: str) -> tuple[dict[str, Counter[str]], float]:
    stats: dict[str, Counter[str]] = {f: Counter() for f in FIELDS}
    shown = 0
    t0 = time.perf_counter()
    for raw, gold in items:
        ref = parse_reference_string(raw)
        for f in FIELDS:
            if f == "authors":
                g = Counter(gold.get("authors") or [])
                p = Counter(predicted_surnames(ref))
                stats[f]["tp"] += sum((g & p).values())
                stats[f]["pred"] += sum(p.values())
                stats[f]["gold"] += sum(g.values())
                continue
            gv = gold.get(f)
            pv = getattr(ref, f)
            if f == "doi" and gv:
                gv = canonical_doi(str(gv)) or gv
            if f == "pages" and gv:
                gv = re.sub(r"^pp?\.\s*", "", str(gv)).replace("–", "-").replace("--", "-")
            if f == "venue":
                # "In Proceedings of the X" and "X" name the same venue; the parser keeps only "X".
                gv = _IN_PROC.sub("", str(gv)) if gv else gv
            g_key = (str(gv) if f == "year" else fold(str(gv))) if gv else ""
            p_key = str(pv) if f == "year" and pv else fold(str(pv)) if pv else ""
            stats[f]["pred"] += bool(p_key)
            stats[f]["gold"] += bool(g_key)
            stats[f]["tp"] += bool(p_key and g_key and (p_key == g_key))
            if f == "title" and g_key and p_key != g_key and shown < show:
                shown += 1
                print(
                    f"  [{name}] gold {gv!r}\n  {'':{len(name) + 2}} got  {pv!r}\n  {'':{len(name) + 2}} raw  {raw!r}"
                )
    return stats, time.perf_counter() - t0


def report(name: str, n: int, stats: dict[str, Counter[str]], seconds: float) -> None:
    print(f"{name}: {n} strings ({seconds / n * 1000:.2f} ms per string)")
    print(f"  {'field':8s} {'precision':>9s} {'recall':>7s} {'F1':>6s}  (gold n)")
    for f in FIELDS:
        s = stats[f]
        p = s["tp"] / s["pred"] if s["pred"] else 0.0
        r = s["tp"] / s["gold"] if s["gold"] else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        label = "surnames" if f == "authors" else f
        print(f"  {label:8s} {p:9.3f} {r:7.3f} {f1:6.3f}  ({s['gold']})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", type=int, default=0)
    args = ap.parse_args()
    print("command: python bench/parser.py " + " ".join(sys.argv[1:]))
    if not SHARED.is_dir():
        print(f"{SHARED} not present; nothing to measure")
        return 0
    for name, loader, file in (
        ("anystyle-core", load_anystyle, "anystyle-core.xml"),
        ("grobid-citations", load_grobid, "grobid-citations.tei.xml"),
    ):
        items = loader(SHARED / file)
        stats, seconds = score(items, args.show, name)
        report(name, len(items), stats, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
