"""Field parser benchmark: `parse_reference_string` on labelled reference strings.

Data (../shared/data/refstrings, read by extract/labelled.py): anystyle-core.xml
(1,514 strings, each field a tagged span) and grobid-citations.tei.xml (2,667
TEI <bibl> elements with inline field markup). The input string is the text;
the gold fields are the tagged spans (labelled.py says which tag is which):
- title: anystyle <title>; TEI <title level="a">, else level="m" (a book);
- year: the first 19xx/20xx in the first <date>;
- author surnames: from the <author> spans, read with simple rules (names
  split at ";", "and", "&", "et" and commas; "Surname, I." and "Surname,
  Given" pairs kept together; initials dropped; "I. Surname" and "Surname I"
  both give Surname); compared by their last word, casefolded, accents removed;
- venue: anystyle <container-title> / <journal>; TEI <title level="j">, or
  level="m" when a level="a" title exists;
- doi, pages where tagged; volume: the number in the tagged volume span (it
  often carries "Vol." or the issue: "(Vol. 3, Part A," -> 3, "37(7)," -> 37).
A field counts as correct when the prediction equals the gold value after
folding (lower case, letters and digits only); precision is over predicted
values, recall over gold values.

The CRF is trained on these same two sets (scripts/train_parser.py), so the
figures that say how the parser does on strings it has not seen are:
1. k-fold cross-validation (default 5): for each fold a model is trained on the
   other folds of BOTH sets (plus the synthetic set when --records > 0) and
   scored on its held-out fold; counts are pooled over the folds and the
   per-fold F1 of title, year and surnames is printed with its mean;
2. cross-dataset: a model trained on GROBID alone scored on all of anystyle,
   and one trained on anystyle alone scored on all of GROBID (style shift).
The shipped model's figure on these strings is printed first for reference:
it was trained on all of them, so it is a fit, not a held-out score. The
rules-alone figure (no CRF) is the baseline.

    python bench/parser.py [--show N] [--folds 5] [--records 0] [--shipped-only] [--train-fraction 1.0]

`--train-fraction 0.5` trains each fold's model on half of its training strings
(same held-out folds): how much the held-out figures move per doubling of data.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from citetracer.extract.crf import Labeller
from citetracer.extract.fields import PACKAGED, parse_reference_string
from citetracer.extract.labelled import LabelledString
from citetracer.match.normalize import canonical_doi
from citetracer.records import Reference

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import train_parser


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


def volume_of(text: str | None) -> str | None:
    """The volume number of a tagged volume span ("(Vol. 3, Part A," -> "3", "37(7)," -> "37")."""
    m = re.search(r"\d+|\b[IVXLC]+\b", text or "")
    return m.group(0) if m else None


def gold_of(item: LabelledString) -> dict[str, Any]:
    """The gold field values of one labelled string (extract/labelled.py says which tag is which field)."""
    gold: dict[str, Any] = {
        "title": item.first("title"),
        "venue": item.first("container"),
        "year": year_of(item.first("year")),
        "authors": [s for a in item.all("author") for s in gold_surnames(a)],
        "doi": item.first("doi"),
        "volume": volume_of(item.first("volume")),
        "pages": item.first("pages"),
    }
    return {k: v for k, v in gold.items() if v}


_IN_PROC = re.compile(r"^\s*(?:In:?\s+|in:\s*)(?:(?:the\s+)?Proceedings of\s+(?:the\s+)?)?", re.IGNORECASE)
FIELDS = ("title", "year", "authors", "venue", "doi", "volume", "pages")


Stats = dict[str, Counter[str]]


def score(
    items: list[LabelledString], labeller: Labeller | str | None, show: int = 0, name: str = ""
) -> tuple[Stats, float]:
    stats: Stats = {f: Counter() for f in FIELDS}
    shown = 0
    t0 = time.perf_counter()
    for item in items:
        raw, gold = item.text, gold_of(item)
        ref = parse_reference_string(raw, labeller=labeller)
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
                gv = re.sub(r"^\(?pp?\.\s*", "", str(gv)).replace("–", "-").replace("--", "-")
            if f == "venue":
                # "In Proceedings of the X" and "X" name the same venue; the parser keeps only "X".
                gv = _IN_PROC.sub("", str(gv)) if gv else gv
            g_key = (str(gv) if f == "year" else fold(str(gv))) if gv else ""
            p_key = str(pv) if f == "year" and pv else fold(str(pv)) if pv else ""
            stats[f]["pred"] += bool(p_key)
            stats[f]["gold"] += bool(g_key)
            stats[f]["tp"] += bool(p_key and g_key and (p_key == g_key))
            if f == "title" and p_key != g_key and shown < show:
                shown += 1
                print(
                    f"  [{name}] gold {gv!r}\n  {'':{len(name) + 2}} got  {pv!r}\n  {'':{len(name) + 2}} raw  {raw!r}"
                )
    return stats, time.perf_counter() - t0


def prf(s: Counter[str]) -> tuple[float, float, float]:
    p = s["tp"] / s["pred"] if s["pred"] else 0.0
    r = s["tp"] / s["gold"] if s["gold"] else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def report(name: str, n: int, stats: Stats, seconds: float | None = None) -> None:
    timing = f" ({seconds / n * 1000:.2f} ms per string)" if seconds else ""
    print(f"{name}: {n} strings{timing}")
    print(f"  {'field':8s} {'precision':>9s} {'recall':>7s} {'F1':>6s}  (gold n)")
    for f in FIELDS:
        p, r, f1 = prf(stats[f])
        label = "surnames" if f == "authors" else f
        print(f"  {label:8s} {p:9.3f} {r:7.3f} {f1:6.3f}  ({stats[f]['gold']})")


def add(total: Stats, part: Stats) -> None:
    for f in FIELDS:
        total[f].update(part[f])


def folds_of(n: int, k: int) -> list[list[int]]:
    """k disjoint test folds over n items, from a fixed shuffle (the same folds on every run)."""
    order = list(range(n))
    random.Random(0).shuffle(order)
    return [sorted(order[i::k]) for i in range(k)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", type=int, default=0, help="print N title errors per set (shipped model)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--records", type=int, default=train_parser.DEFAULT_RECORDS, help="synthetic records per model")
    ap.add_argument("--shipped-only", action="store_true", help="skip the held-out figures (no training)")
    ap.add_argument(
        "--train-fraction",
        type=float,
        default=1.0,
        help="train each fold's model on this share of its training strings (a fixed sample): the learning curve",
    )
    args = ap.parse_args()
    print("command: python bench/parser.py " + " ".join(sys.argv[1:]))
    sets = train_parser.real_sets()
    if len(sets) < 2:
        print(f"{train_parser.REFSTRINGS}: labelled sets not present; nothing to measure")
        return 0
    anystyle, grobid = sets["anystyle"], sets["grobid"]

    print("\n== shipped model (src/citetracer/data/parser.crfsuite), trained on ALL these strings: a fit, not held out")
    for name, items in (("anystyle-core", anystyle), ("grobid-citations", grobid)):
        stats, seconds = score(items, PACKAGED, args.show, name)
        report(name, len(items), stats, seconds)
    print("\n== rules alone (no CRF)")
    for name, items in (("anystyle-core", anystyle), ("grobid-citations", grobid)):
        report(name, len(items), score(items, None)[0])
    if args.shipped_only:
        return 0

    t0 = time.time()
    try:
        synthetic = train_parser.synthetic_examples(args.records, 1, train_parser.DEFAULT_SEED)
    except ImportError as exc:
        print(f"synthetic set skipped ({exc}); install the train extra for it")
        synthetic = []
    print(f"\nsynthetic CSL-rendered strings in each model: {len(synthetic)} (--records {args.records})")
    seq_a = train_parser.real_examples(anystyle)
    seq_g = train_parser.real_examples(grobid)
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "fold.crfsuite"

        def fit(seqs: list[train_parser.Example]) -> Labeller:
            t = time.time()
            train_parser.train(seqs, model)
            print(f"  (model trained on {len(seqs)} strings in {time.time() - t:.0f} s)", flush=True)
            return Labeller(str(model))

        print(
            f"\n== {args.folds}-fold cross-validation: each fold's model trained on the other folds of BOTH sets"
            f"{f' (a {args.train_fraction:.0%} sample of them)' if args.train_fraction < 1.0 else ''}"
            f"{' + the synthetic strings' if synthetic else ''}, scored on its held-out fold; counts pooled over folds"
        )
        pooled: dict[str, Stats] = {"anystyle-core": _empty(), "grobid-citations": _empty()}
        per_fold: dict[str, list[tuple[float, float, float]]] = {"anystyle-core": [], "grobid-citations": []}
        fa, fg = folds_of(len(anystyle), args.folds), folds_of(len(grobid), args.folds)
        for k in range(args.folds):
            test_a, test_g = set(fa[k]), set(fg[k])
            training = [s for i, s in enumerate(seq_a) if i not in test_a] + [
                s for i, s in enumerate(seq_g) if i not in test_g
            ]
            if args.train_fraction < 1.0:
                random.Random(k).shuffle(training)
                training = training[: max(1, int(len(training) * args.train_fraction))]
            labeller = fit(training + synthetic)
            for name, items, test in (("anystyle-core", anystyle, fa[k]), ("grobid-citations", grobid, fg[k])):
                stats, _ = score([items[i] for i in test], labeller)
                add(pooled[name], stats)
                per_fold[name].append(tuple(prf(stats[f])[2] for f in ("title", "year", "authors")))  # type: ignore[misc]
        for name, items in (("anystyle-core", anystyle), ("grobid-citations", grobid)):
            report(f"{name} (held-out folds)", len(items), pooled[name])
            for i, field in enumerate(("title", "year", "surnames")):
                values = [f1[i] for f1 in per_fold[name]]
                folds = " ".join(f"{v:.3f}" for v in values)
                print(f"  {field} F1 per fold: {folds}  mean {sum(values) / len(values):.3f}")

        if args.train_fraction < 1.0:
            print(f"\n(cross-dataset figures skipped: --train-fraction {args.train_fraction})")
            print(f"\ntotal {time.time() - t0:.0f} s for the held-out figures")
            return 0
        print("\n== cross-dataset: a model trained WITHOUT the scored set (the other set, + any synthetic strings)")
        report("anystyle-core (model: grobid)", len(anystyle), score(anystyle, fit(seq_g + synthetic))[0])
        report("grobid-citations (model: anystyle)", len(grobid), score(grobid, fit(seq_a + synthetic))[0])
    print(f"\ntotal {time.time() - t0:.0f} s for the held-out figures")
    return 0


def _empty() -> Stats:
    return {f: Counter() for f in FIELDS}


if __name__ == "__main__":
    sys.exit(main())
