"""Train the line-level reference segmenter (src/citetracer/data/segmenter.crfsuite).

Training data: papers typeset by bench/latexpapers.py in its training templates (`TRAIN`; the others
are held out for the benchmark) from a training seed, each line labelled from the positions the PDF
saved (begin of a reference, inside one, other). And the real papers of ../shared/pdfs (jose, ml), each
line labelled from the paper's gold list (bench/goldlines.py: the reading confirmed or corrected by the
gold); by default only goldlines' training split, so that the held-out third gives honest figures
(`bench/extract.py --split held-out`). A paper is read as the extractor reads it (pdf.document_lines,
region.find_region): the window from the region's start to the document's end, the same lines and
features the model meets at run time. A paper whose labels cannot be placed, or whose found region
starts after its first reference, is skipped and counted.

Deterministic: the papers come from fixed seeds in a fixed order and L-BFGS has no randomness, so
the same TeX installation gives the same model bytes. Typeset papers are kept in --cache and reused.

    pip install -e '.[pdf]'
    python scripts/train_segmenter.py [--seeds 1:20,3:12] [--cache /tmp/latexpapers] [--out PATH]
                                      [--real jose,ml] [--real-split train|all]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import goldlines  # noqa: E402
import latexpapers  # noqa: E402
from citetracer.extract.layout.page import Line  # noqa: E402
from citetracer.extract.segmentation.linecrf import MODEL_NAME, sequence  # noqa: E402
from citetracer.extract.layout.markers import find_markers  # noqa: E402
from citetracer.extract.readers.pdf import document_lines  # noqa: E402
from citetracer.extract.layout.region import find_region  # noqa: E402

DEFAULT_OUT = ROOT / "src" / "citetracer" / "data" / MODEL_NAME


def examples(pdf: Path) -> tuple[list[dict[str, object]], list[str]] | str:
    """(features, labels) of one typeset paper's window, or why it is skipped."""
    lines = document_lines(pdf)
    labels = latexpapers.line_labels(lines, latexpapers.read_marks(pdf.parent / "p.pos", pdf))
    if labels is None:
        return "labels not placed"
    region = find_region(lines)
    if region is None:
        return "no region found"
    if "B" in labels[: region.start]:
        return "region starts after the first reference"
    return labelled(lines, region.start, labels)


def labelled(lines: list[Line], start: int, labels: list[str]) -> tuple[list[dict[str, object]], list[str]]:
    """The features and labels of the window from `start` on, as the model meets it (page furniture left out)."""
    window = lines[start:]
    order, feats = sequence(window, find_markers(ln.text for ln in lines[:start]))
    return feats, [labels[start + k] for k in order]


def real_examples(paper: goldlines.Labelled) -> tuple[list[dict[str, object]], list[str]]:
    """(features, labels) of a real paper labelled from its gold list (bench/goldlines.py)."""
    return labelled(paper.lines, paper.start, paper.labels)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--seeds", default="1:20,3:12", help="training seeds and papers per template from each (SEED:PAPERS,...)"
    )
    ap.add_argument("--cache", type=Path, default=Path("/tmp/latexpapers"))
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--c1", type=float, default=0.05)
    ap.add_argument("--c2", type=float, default=0.1)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--real", default="jose,ml", help="sets of ../shared/pdfs whose gold-labelled papers train too")
    ap.add_argument(
        "--real-split",
        default="train",
        choices=["train", "all"],
        help="which real papers: the training split (bench/goldlines.py holds a third out for figures) or all",
    )
    args = ap.parse_args()
    import pycrfsuite

    t0 = time.perf_counter()
    seeds = [tuple(int(v) for v in part.split(":")) for part in args.seeds.split(",") if part]
    if any(seed not in latexpapers.TRAIN_SEEDS for seed, _n in seeds):
        ap.error(f"seeds other than {latexpapers.TRAIN_SEEDS} are the benchmark's (bench/latexpapers.py TRAIN_SEEDS)")
    made = [p for seed, n in seeds for p in latexpapers.generate(list(latexpapers.TRAIN), seed, n, args.cache)]
    t1 = time.perf_counter()
    trainer = pycrfsuite.Trainer(verbose=False)
    skipped: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for _paper, pdf in made:
        got = examples(pdf)
        if isinstance(got, str):
            skipped[got] += 1
            continue
        feats, labels = got
        trainer.append(feats, labels)
        counts.update(labels)
    papers, real_skipped = goldlines.labelled_papers([n for n in args.real.split(",") if n], args.real_split)
    skipped.update(real_skipped)
    for paper in papers:
        feats, labels = real_examples(paper)
        trainer.append(feats, labels)
        counts.update(labels)
    real_used = len(papers)
    trainer.set_params(
        {
            "c1": args.c1,
            "c2": args.c2,
            "max_iterations": args.iterations,
            "feature.possible_transitions": True,
            "feature.minfreq": 2,
        }
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    t2 = time.perf_counter()
    trainer.train(str(args.out))
    t3 = time.perf_counter()
    used = len(made) - sum(n for why, n in skipped.items() if ":" not in why)
    templates = ", ".join(latexpapers.TRAIN)
    print(f"generated papers {len(made)} ({templates}; seeds {args.seeds}), used {used}; skipped {dict(skipped)}")
    print(f"real papers used (labelled from their gold lists; split {args.real_split}): {real_used}")
    print(f"lines {sum(counts.values())}: {dict(counts)}")
    print(f"typesetting/reading {t1 - t0:.0f} s, features {t2 - t1:.0f} s, training {t3 - t2:.1f} s")
    print(f"model {args.out} {args.out.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
