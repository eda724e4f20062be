"""Train the reference-string CRF (src/citetracer/data/parser.crfsuite).

Training data: the labelled sets under ../shared/data/refstrings (anystyle's core,
good, ugly and bad sets and GROBID's TEI citations), read at build time by
scripts/labelled.py (nothing is copied into the project), every token labelled by
the field it belongs to. Each set enters with a weight (`WEIGHTS`): 0 leaves it
out, 1 takes it once, 2 twice; a fraction takes a fixed sample of it.

The weights were chosen on held-out folds (`bench/parser.py --folds 2
--max-folds 1 --no-cross --curve '' --weights ...`, 2026-12-02; title F1 on the
held-out half of core / good / ugly / bad / grobid):
- all sets once: 0.929 / 0.929 / 0.572 / 0.744 / 0.740;
- without bad: 0.939 / 0.929 / 0.560 / 0.721 / 0.736;
- without ugly: 0.944 / 0.952 / 0.520 / 0.783 / 0.745 (same code as the two above);
- later code: without ugly 0.947 / 0.955 / 0.512 / 0.785 / 0.741; ugly at 0.3:
  0.942 / 0.949 / 0.529 / 0.751 / 0.736; without ugly and bad: 0.945 / 0.955 /
  0.513 / 0.800 / 0.735.
ugly.xml teaches conventions the other sets do not share (a book's title tagged
as its container in 10% of its strings, titles in several pieces in 5%): with
it, every other set loses 0.004-0.04 title F1. bad.xml is strings anystyle
mislabels (237 of its 368 are in the TEI set, labelled better there); without
it bad's own strings are read better. Both are left out; bench/parser.py still
scores them.

Each string goes through the parser's own preparation (fields.model_input)
before it is tokenised, so training and run time see the same tokens. The run
is deterministic (fixed order, fixed samples, L-BFGS): the same data gives the
same model bytes. bench/parser.py reuses `examples`, `weighted` and `train` for
its held-out figures.

Earlier sessions also rendered real records (DBLP, HALLMARK world) in CSL
styles as synthetic training strings: that lowered held-out title F1 (0.881 ->
0.853 on a fold; re-rendering the folds' own gold fields: 0.905 -> 0.902), so
it is gone.

    pip install -e .
    python scripts/train_parser.py [--weights core=1,good=1,ugly=1,bad=0,grobid=1] [--c1 0.02] [--c2 0.05]
    python scripts/train_parser.py --refstrings DIR --out PATH
"""

from __future__ import annotations

import argparse
import difflib
import random
import sys
import time
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from citetracer.extract.fields.crf import LABELS, MODEL_NAME, features, split_runs, tokens
from citetracer.extract.fields.parser import model_input
from labelled import LabelledString, read_sets  # scripts/labelled.py, beside this script

ROOT = Path(__file__).resolve().parents[1]
REFSTRINGS = ROOT.parent / "shared" / "data" / "refstrings"
DEFAULT_OUT = ROOT / "src" / "citetracer" / "data" / MODEL_NAME
#: How much of each labelled set the shipped model learns from (see the module docstring; a set not named: 1).
WEIGHTS: dict[str, float] = {"core": 1.0, "good": 1.0, "ugly": 0.0, "bad": 0.0, "grobid": 1.0}


@dataclass(frozen=True)
class Example:
    """A training string as the parser sees it: the model text, the rules' marks on it, one label per token."""

    text: str
    marks: list[str]
    labels: list[str]


def labelled_tokens(text: str, lab: list[str]) -> list[tuple[str, str]]:
    """Each token of `text` with the label most of its letters and digits carry (punctuation alone: its span's)."""
    out = []
    for tok in tokens(text):
        counts = Counter(lab[k] for k in range(tok.start, tok.end) if text[k].isalnum() and lab[k] != "other")
        if not any(text[k].isalnum() for k in range(tok.start, tok.end)):  # "&", "–": the span it sits in
            counts = Counter(lab[k] for k in range(tok.start, tok.end) if lab[k] != "other")
        out.append((tok.text, counts.most_common(1)[0][0] if counts else "other"))
    return out


def example(source: str, source_labels: list[str]) -> Example | None:
    """The source string prepared as the parser prepares it (list label removed, spacing repaired, identifiers
    mended); each character keeps its label through the alignment of the two strings."""
    text, marks = model_input(source)
    lab = ["other"] * len(text)
    matcher = difflib.SequenceMatcher(None, source, text, autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        lab[b : b + size] = source_labels[a : a + size]
    labels = [label for _, label in labelled_tokens(text, lab)]
    return Example(text, marks, labels) if labels else None


def examples(items: list[LabelledString]) -> list[Example]:
    return [ex for ex in (example(it.text, it.char_labels()) for it in items) if ex is not None]


def weighted(by_set: dict[str, list[Example]], weights: dict[str, float]) -> list[Example]:
    """The training list: each set repeated by the whole part of its weight, plus a fixed sample of the rest."""
    out: list[Example] = []
    for name, seqs in by_set.items():
        w = weights.get(name, 1.0)
        out += seqs * int(w)
        share = w - int(w)
        if share > 0:
            out += [ex for i, ex in enumerate(seqs) if random.Random(f"{name}{i}").random() < share]
    return out


def train(seqs: list[Example], out: Path, c1: float = 0.02, c2: float = 0.05, iterations: int = 100) -> None:
    """A CRF trained on `seqs`, written to `out` (deterministic: same examples, same model).

    Title and container runs are split into first and continuing tokens (crf.split_runs); the labeller joins
    them back, so the model file's extra labels never reach the parser."""
    import pycrfsuite

    trainer = pycrfsuite.Trainer(verbose=False)
    for ex in seqs:
        trainer.append(features(tokens(ex.text), ex.marks), split_runs(ex.labels))
    trainer.set_params(
        {
            "c1": c1,
            "c2": c2,
            "max_iterations": iterations,
            "feature.possible_transitions": True,
            "feature.minfreq": 2,
        }
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    trainer.train(str(out))


def parse_weights(text: str) -> dict[str, float]:
    """ "core=1,bad=0.5" -> {"core": 1.0, "bad": 0.5}, over WEIGHTS."""
    out = dict(WEIGHTS)
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        out[name.strip()] = float(value)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--refstrings", type=Path, default=REFSTRINGS, help="directory of the labelled sets")
    ap.add_argument("--weights", default="", help="per-set weights over the defaults, e.g. bad=0,ugly=0.5")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--c1", type=float, default=0.02, help="L1 weight: higher keeps fewer, more general features")
    ap.add_argument("--c2", type=float, default=0.05, help="L2 weight")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")

    t0 = time.time()
    weights = parse_weights(args.weights)
    by_set = {}
    for name, items in read_sets(args.refstrings).items():
        by_set[name] = examples(items)
        print(f"{name}: {len(by_set[name])} labelled strings, weight {weights.get(name, 1.0):g}")
    seqs = weighted(by_set, weights)
    if not seqs:
        print(f"no training data under {args.refstrings}; nothing to train on")
        return 1
    counts = Counter(lab for ex in seqs for lab in ex.labels)
    print("token labels:", ", ".join(f"{lab} {counts[lab]}" for lab in LABELS if counts[lab]))

    t1 = time.time()
    train(seqs, args.out, c1=args.c1, c2=args.c2, iterations=args.iterations)
    print(f"trained on {len(seqs)} strings in {time.time() - t1:.1f} s; model {args.out}")
    print(f"  {args.out.stat().st_size / 1e6:.2f} MB")
    print(f"total {time.time() - t0:.1f} s; command: python scripts/train_parser.py " + " ".join(sys.argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
