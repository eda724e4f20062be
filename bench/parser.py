"""Field parser benchmark: `parse_reference_string` on labelled reference strings.

Data (../shared/data/refstrings, read by scripts/labelled.py): anystyle's core,
good, ugly and bad sets (1,514 / 4,562 / 3,846 / 368 strings, each field a
tagged span) and GROBID's TEI citations (2,667 <bibl> elements from 228 source
documents). The input string is the text; the gold fields are the tagged spans
(labelled.py says which tag is which):
- title: anystyle <title>; TEI <title level="a">, else level="m" (a book);
- year: the first 19xx/20xx in the first <date> (or, without one, the year
  that opens a Vancouver volume span: anystyle tags "2000;355(9222):" as the
  volume and no date);
- author surnames: from the <author> spans, read with simple rules (names
  split at ";", "and", "&", "et" and commas; "Surname, I." and "Surname,
  Given" pairs kept together; initials dropped; "I. Surname" and "Surname I"
  both give Surname); compared by their last word, casefolded, accents removed;
- venue: anystyle <container-title> / <journal>; TEI <title level="j">, or
  level="m" when a level="a" title exists;
- doi, pages where tagged; volume: the number in the tagged volume span (after
  a Vancouver year).
A field counts as correct when the prediction equals the gold value after
folding (lower case, letters and digits only); precision is over predicted
values, recall over gold values.

The CRF is trained on these same sets (scripts/train_parser.py), so the figures
that say how the parser does on strings it has not seen are held out:
1. k-fold cross-validation (default 5) split by source list where a set names
   it (TEI: one source document never on both sides) and in contiguous blocks
   of file order where it does not (anystyle); each fold's model is trained on
   the other folds of ALL sets, without any string (in any set) that is a copy
   of a test string or cites the same long title (labelled.copies_of); counts
   are pooled per set and the per-fold F1 printed;
2. cross-set: for each set, a model trained on the other sets only (copies of
   the scored set's strings left out too), scored on the whole set;
3. the learning curve: the first folds again with a fixed share of their
   training strings;
4. names alone: the gold <author> spans read by the author parser
   (authors.split_names) against the gold surnames.
The shipped model's figure on these strings is printed first for reference: it
was trained on all of them, so it is a fit, not a held-out score. The
rules-alone figure (no CRF) is the baseline.

    python bench/parser.py                     # everything (~30 min on 2 shared cores)
    python bench/parser.py --folds 2 --max-folds 1 --no-cross --curve ''   # one fold of two, for exploring
    python bench/parser.py --weights bad=0     # the set weights the models are trained with
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from citetracer.extract.fields.authors import split_names
from citetracer.extract.fields.crf import Labeller
from citetracer.extract.fields.parser import PACKAGED, _respace, parse_reference_string, prepare
from citetracer.normalize.text import canonical_doi
from citetracer.records import Reference

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import train_parser
from labelled import LabelledString, copies_of, held_out_folds, read_sets


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
                i == 0
                and nxt is not None
                and len(words) <= 3
                and not any(_INITIALS.match(w) for w in words)
                and (len(nxt.split()) == 1 or (len(pieces) == 2 and not any(_INITIALS.match(w) for w in nxt.split())))
            ):
                # The first author inverted (Chicago, MLA, ABNT): "Bailey, Kenneth Ewing.", "Devaney, Johanna,
                # Michael I. Mandel, and ..." (a first author without given names would have no comma).
                out.append(words[-1])
                i += 2
                continue
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
                    out.append(kept[-1])  # "Surname IJ", "de Boer J", "Russell Esposito E" (Vancouver)
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
    """The volume number of a tagged volume span ("(Vol. 3, Part A," -> "3", "37(7)," -> "37", and in Vancouver
    spans that begin with the year, "2000;355(9222):" -> "355")."""
    m = re.search(r"\d+|\b[IVXLC]+\b", _VANCOUVER_YEAR.sub("", text or ""))
    return m.group(0) if m else None


_VANCOUVER_YEAR = re.compile(r"^\s*((?:1[5-9]|20)\d\d)[a-z]?\s*;\s*(?=\d)")


def _vancouver_year(volume: str | None) -> int | None:
    """anystyle labels Vancouver's "Lancet. 2000;355(9222):2220-1." with no date: the year opens the volume span."""
    m = _VANCOUVER_YEAR.match(volume or "")
    return int(m.group(1)) if m else None


def gold_of(item: LabelledString) -> dict[str, Any]:
    """The gold field values of one labelled string (scripts/labelled.py says which tag is which field)."""
    gold: dict[str, Any] = {
        "title": item.first("title"),
        "venue": item.first("container"),
        "year": year_of(item.first("year")) or _vancouver_year(item.first("volume")),
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


def _empty() -> Stats:
    return {f: Counter() for f in FIELDS}


def names_alone(items: list[LabelledString]) -> Counter[str]:
    """Surname counts of the author parser on the gold author spans alone."""
    c: Counter[str] = Counter()
    for item in items:
        for span in item.all("author"):
            gold = Counter(gold_surnames(span))
            people, _, _ = split_names(_respace(prepare(span)))
            pred = Counter(predicted_surnames(Reference(authors=people)))
            c["tp"] += sum((gold & pred).values())
            c["pred"] += sum(pred.values())
            c["gold"] += sum(gold.values())
    return c


def table(title: str, rows: dict[str, tuple[int, Stats]]) -> None:
    """One line per set: F1 of title, venue, year, surnames (and the other fields)."""
    print(f"\n== {title}")
    print(f"  {'set':8s} {'n':>5s} " + " ".join(f"{('surnames' if f == 'authors' else f):>8s}" for f in FIELDS))
    for name, (n, stats) in rows.items():
        print(f"  {name:8s} {n:5d} " + " ".join(f"{prf(stats[f])[2]:8.3f}" for f in FIELDS))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", type=int, default=0, help="print N title errors per set (shipped model)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--max-folds", type=int, default=0, help="run only the first N folds (exploring)")
    ap.add_argument("--weights", default="", help="set weights over train_parser.WEIGHTS, e.g. bad=0,ugly=2")
    ap.add_argument("--no-cross", action="store_true", help="skip the cross-set figures")
    ap.add_argument("--curve", default="0.25,0.5", help="training shares for the learning curve ('' skips it)")
    ap.add_argument("--curve-folds", type=int, default=2, help="folds the learning curve is drawn on")
    ap.add_argument("--shipped-only", action="store_true", help="skip the held-out figures (no training)")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--show-held-out", type=int, default=0, help="print N held-out title errors per set and fold")
    ap.add_argument("--keep-models", type=Path, default=None, help="save each CV fold's model in this directory")
    args = ap.parse_args()
    print("command: python bench/parser.py " + " ".join(sys.argv[1:]))
    sets = read_sets(train_parser.REFSTRINGS)
    if not sets:
        print(f"{train_parser.REFSTRINGS}: labelled sets not present; nothing to measure")
        return 0
    print("sets: " + ", ".join(f"{name} {len(items)}" for name, items in sets.items()))
    weights = train_parser.parse_weights(args.weights)
    print("training weights: " + ", ".join(f"{name} {weights.get(name, 1.0):g}" for name in sets))

    print("\n== names alone: the gold author spans read by authors.split_names, surnames against the gold's")
    for name, items in sets.items():
        p, r, f1 = prf(names_alone(items))
        print(f"  {name:8s} precision {p:.3f} recall {r:.3f} F1 {f1:.3f}")
    model_file = train_parser.DEFAULT_OUT
    if model_file.is_file():
        print(f"\nshipped model {model_file.name}: {model_file.stat().st_size / 1e6:.2f} MB")
    table(
        "shipped model, trained on ALL these strings: a fit, not held out",
        {name: (len(items), score(items, PACKAGED, args.show, name)[0]) for name, items in sets.items()},
    )
    table("rules alone (no CRF)", {name: (len(items), score(items, None)[0]) for name, items in sets.items()})
    if args.shipped_only:
        return 0

    t0 = time.time()
    seqs = {name: train_parser.examples(items) for name, items in sets.items()}
    folds = {name: held_out_folds(items, args.folds) for name, items in sets.items()}
    times: list[float] = []
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "fold.crfsuite"

        def fit(keep: dict[str, list[int]], share: float = 1.0) -> Labeller:
            """A model trained on the kept strings of each set, weighted; `share` of them when below 1."""
            chosen = {name: [seqs[name][i] for i in idx] for name, idx in keep.items()}
            training = train_parser.weighted(chosen, weights)
            if share < 1.0:
                training = [ex for i, ex in enumerate(training) if (i * 7919) % 1000 < share * 1000]
            t = time.time()
            train_parser.train(training, model, iterations=args.iterations)
            times.append(time.time() - t)
            sizes.append(model.stat().st_size)
            print(f"  (model trained on {len(training)} strings in {times[-1]:.0f} s)", flush=True)
            return Labeller(str(model))

        def training_for(test: dict[str, list[int]]) -> dict[str, list[int]]:
            """Every string not under test and not a copy of one under test."""
            held = {name: set(idx) for name, idx in test.items()}
            is_copy = copies_of(sets[name][i] for name, idx in test.items() for i in idx)
            return {
                name: [i for i, it in enumerate(items) if i not in held.get(name, ()) and not is_copy(it)]
                for name, items in sets.items()
            }

        n_folds = min(args.folds, args.max_folds) if args.max_folds else args.folds
        print(
            f"\n== {args.folds}-fold cross-validation by source list / contiguous block"
            f"{f' (first {n_folds} folds only)' if n_folds < args.folds else ''}: each fold's model trained on "
            "the other folds of ALL sets, copies of test strings left out; counts pooled over folds"
        )
        pooled: dict[str, Stats] = {name: _empty() for name in sets}
        per_fold: dict[str, list[tuple[float, ...]]] = {name: [] for name in sets}
        fold_stats: dict[str, list[Stats]] = {name: [] for name in sets}
        for k in range(n_folds):
            test = {name: folds[name][k] for name in sets}
            labeller = fit(training_for(test))
            if args.keep_models:
                args.keep_models.mkdir(parents=True, exist_ok=True)
                (args.keep_models / f"fold{k}of{args.folds}.crfsuite").write_bytes(model.read_bytes())
            for name, items in sets.items():
                stats, _ = score([items[i] for i in test[name]], labeller, args.show_held_out, f"{name} fold {k}")
                add(pooled[name], stats)
                fold_stats[name].append(stats)
                per_fold[name].append(tuple(prf(stats[f])[2] for f in ("title", "year", "authors")))
        table(
            "held out (CV): F1 per set",
            {name: (sum(len(folds[name][k]) for k in range(n_folds)), pooled[name]) for name in sets},
        )
        for name in sets:
            for i, field in enumerate(("title", "year", "surnames")):
                values = [f1[i] for f1 in per_fold[name]]
                print(f"  {name:8s} {field:8s} per fold: " + " ".join(f"{v:.3f}" for v in values))

        if not args.no_cross:
            rows = {}
            for name, items in sets.items():
                print(f"  cross-set: model without {name}", flush=True)
                test = {name: list(range(len(items)))}
                keep = training_for(test)
                keep[name] = []
                rows[name] = (len(items), score(items, fit(keep))[0])
            table("cross-set: each set scored by a model trained on the other sets only", rows)

        shares = [float(x) for x in args.curve.split(",") if x.strip()]
        if shares:
            curve_folds = min(args.curve_folds, n_folds)
            full: dict[str, Stats] = {name: _empty() for name in sets}
            points: dict[float, dict[str, Stats]] = {}
            for share in shares:
                points[share] = {name: _empty() for name in sets}
                for k in range(curve_folds):
                    test = {name: folds[name][k] for name in sets}
                    labeller = fit(training_for(test), share)
                    for name, items in sets.items():
                        add(points[share][name], score([items[i] for i in test[name]], labeller)[0])
            for name in sets:
                for stats in fold_stats[name][:curve_folds]:
                    add(full[name], stats)
            points[1.0] = full
            print(f"\n== learning curve: title F1 on the first {curve_folds} folds, each model trained on a share")
            print("  share   " + " ".join(f"{name:>8s}" for name in sets))
            for share in sorted(points):
                print(f"  {share:5.2f}   " + " ".join(f"{prf(points[share][name]['title'])[2]:8.3f}" for name in sets))
    if times:
        order = sorted(times)
        print(
            f"\ntraining: {len(times)} models, median {order[len(order) // 2]:.0f} s, max {order[-1]:.0f} s; "
            f"model size median {sorted(sizes)[len(sizes) // 2] / 1e6:.2f} MB"
        )
    print(f"total {time.time() - t0:.0f} s for the held-out figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
