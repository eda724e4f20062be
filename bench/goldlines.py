"""Real papers' lines labelled from their gold lists: training and held-out data on real layouts.

The line segmenter (extract/segmentation/linecrf.py) learns where references start from papers typeset here
(bench/latexpapers.py), whose labels the PDF saved itself. Real papers show layouts no template here
has (a journal's footnotes under its list, a conference's running heads, fonts whose sizes differ by
page), so their lines are labelled too, from the gold lists of ../shared/pdfs/{jose,ml}:

1. the paper is read as the extractor reads it (pdf.read_list): its blocks (one per reference) over
   the window from the region's start to the document's end;
2. each gold reference is found in the blocks: by its DOI (printed in the block's text), its title
   (normalised, inside the block's text; ml gold), or most of its deposited words (jose gold, whose
   raw strings are Crossref field lists in any order);
3. the reading is confirmed when every gold reference the PDF prints is found in exactly one block
   and every block holds exactly one gold reference; a block holding two gold references is cut
   where the second one's entry starts (the line, after the first one's title, that opens with the
   second's first author, its list label, or follows the first one's DOI); a block that holds none is
   kept as read when the paper's gold is known to be incomplete (a JOSE deposit can miss entries the
   PDF prints), and makes the paper "unconfirmed" otherwise. A gold reference the PDF does not print
   at all (neither its DOI nor its title nor most of its words are anywhere in the text) is left out;
4. each line of the window is then B (a reference starts), I (inside one) or O (heading, float, note,
   running head, appendix).

Papers are split by name, once and for all (bench/extract.py `split`): a third held out, never trained
on (scripts/train_segmenter.py), for figures of a model trained on the rest (`bench/extract.py --split
held-out`).

    python bench/goldlines.py [--sets jose,ml] [--split all|train|held-out] [--verbose]

prints, per paper, how its labels were made (confirmed, cut, unconfirmed, skipped and why) and the
label counts.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from extract import SHARED, gold_path, gold_words, norm_title, split, words


@dataclass
class Labelled:
    """A real paper's lines, the window's start (the region's first line) and a label per line."""

    name: str
    lines: list[Any]
    start: int
    labels: list[str]
    how: str  # "confirmed", "cut N", "extra N" (gold incomplete), ...


def _same_title(a: Keys, b: Keys) -> bool:
    """One title holds the other (a short title recurs inside a longer one: "Llada" in "LLaDA-V: ...")."""
    return bool(a[1] and b[1] and (a[1] in b[1] or b[1] in a[1]))


def _flat(text: str) -> str:
    return re.sub(r"[\s\u00ad\ufffe\x02]+", "", text).lower()


Keys = tuple[str | None, str, str, set[str]]


def _gold_keys(g: dict[str, Any]) -> Keys:
    """(DOI, normalised title, normalised first author's family name, deposited words) of one gold reference."""
    from citetracer.normalize.text import canonical_doi

    doi = canonical_doi(g.get("doi"))
    title = norm_title(g.get("title") or "")
    authors = g.get("authors") or []
    family = norm_title(authors[0].split()[-1]) if authors and authors[0].split() else ""
    raw = gold_words(g.get("raw") or "") if g.get("raw") else set()
    return doi, title, family, raw


def _holds(keys: Keys, text: str) -> float:
    """How surely the text holds the gold reference (0 when not at all): its DOI, its title (more surely with
    its first author near the start: a short title can recur inside another's), most of its words."""
    doi, title, family, raw = keys
    if doi and re.search(re.escape(doi.lower()) + r"(?![\w/\-]|\.\w)", _flat(text)):
        return 1.0
    if len(title) >= 4 and title in norm_title(text):
        at_head = bool(family) and family in norm_title(text[:80])
        if len(title) >= 8:
            return 0.99 if at_head else 0.95
        if at_head:
            return 0.9  # a short title ("TF-IDF") only with its first author
    if raw:
        # Containment either way: a deposited string may carry subjects or an abstract the list never prints.
        have = set(words(text))
        share = max(len(raw & have) / len(raw), len(raw & have) / max(len(have), 1) - 0.1)
        if share >= 0.6:
            return 0.5 + 0.4 * share
    return 0.0


def label_paper(pdf: Path) -> Labelled | str:
    """The paper's lines labelled from its gold list, or why it cannot be (a label would be a guess)."""
    from citetracer.extract.readers.pdf import document_lines, read_list

    meta = json.loads(gold_path(pdf).read_text())
    gold = meta["references"]
    incomplete = "crossref" in str(meta.get("source", "")).lower()
    lines = document_lines(pdf)
    reading, _warnings = read_list(lines)
    if reading.region is None or not reading.blocks:
        return "no list read"
    start = reading.region.start
    window = lines[start:]
    everything = " ".join(ln.text for ln in window)
    keys = [_gold_keys(g) for g in gold]
    blocks = [list(b.lines) for b in reading.blocks]
    texts = [" ".join(ln.text for ln in b) for b in blocks]
    scores = [[_holds(key, text) for text in texts] for key in keys]
    printed = [k for k, key in enumerate(keys) if max(scores[k], default=0.0) >= 0.5 or _holds(key, everything) > 0]
    # One gold reference per block, the surest pairs first.
    pairs = sorted(
        ((scores[k][j], -k, -j) for k in printed for j in range(len(blocks)) if scores[k][j] >= 0.5), reverse=True
    )
    held: list[list[int]] = [[] for _ in blocks]
    owner: dict[int, int] = {}
    for _score, mk, mj in pairs:
        k, j = -mk, -mj
        if k not in owner and not held[j]:
            owner[k] = j
            held[j].append(k)
    for k in printed:
        if k in owner:
            continue
        # Left over: read into a block that holds another reference too (by its DOI or title: several entries
        # run together), or printed where no block reads it (lost), or only a weak echo of another entry.
        merged = [
            j
            for j in range(len(blocks))
            if scores[k][j] >= 0.95 and all(not _same_title(keys[k], keys[o]) for o in held[j])
        ]
        if merged:
            held[merged[0]].append(k)
        elif max(scores[k], default=0.0) < 0.5:
            return "a printed gold reference in no block"
    out_blocks: list[list[Any]] = []
    cut = extra = 0
    for j, (b, ks) in enumerate(zip(blocks, held, strict=True)):
        if len(ks) <= 1:
            if not ks and not any(scores[k][j] >= 0.5 for k in printed):
                # Holds no gold reference at all (one it echoes was printed twice, as a .bib may hold a work
                # under two keys: that is a reference): a reference the deposit left out, or not one.
                if not incomplete:
                    return "a block holds no gold reference"
                extra += 1
            out_blocks.append(b)
            continue
        pieces = _cut_block(b, [gold[k] for k in ks], [keys[k] for k in ks])
        if pieces is None:
            return f"a block holds {len(ks)} gold references and cannot be cut"
        cut += len(pieces) - 1
        out_blocks.extend(pieces)
    index = {id(ln): k for k, ln in enumerate(lines)}
    labels = ["O"] * len(lines)
    for b in out_blocks:
        for j, ln in enumerate(b):
            labels[index[id(ln)]] = "I" if j else "B"
    if "B" in labels[:start] or "I" in labels[:start]:
        return "the region starts after the first reference"
    how = ", ".join(part for part, n in ((f"cut {cut}", cut), (f"extra {extra}", extra)) if n) or "confirmed"
    return Labelled(pdf.stem, lines, start, labels, how)


def _cut_block(block: list[Any], gold: list[dict[str, Any]], keys: list[Keys]) -> list[list[Any]] | None:
    """The block cut before each gold reference after the first, in the order they appear; None when an
    entry's first line cannot be told."""
    texts = [ln.text for ln in block]
    # Where each gold reference sits: the first line from which the block's text holds it.
    at = []
    for key in keys:
        hit = next((j for j in range(len(block)) if _holds(key, " ".join(texts[: j + 1])) >= 0.5), None)
        if hit is None:
            return None
        at.append(hit)
    order = sorted(range(len(gold)), key=lambda i: at[i])
    starts = [0]
    for prev, cur in itertools.pairwise(order):
        first = _entry_start(texts, at[prev], at[cur], gold[cur])
        if first is None or first <= starts[-1]:
            return None
        starts.append(first)
    return [block[a:b] for a, b in zip(starts, [*starts[1:], len(block)], strict=True)]


_LIST_LABEL = re.compile(r"^\s*(?:\[\d{1,4}\]|\d{1,4}\.\s|\(\d{1,4}\))")


def _entry_start(texts: list[str], after: int, upto: int, gold: dict[str, Any]) -> int | None:
    """The line (after `after`, up to `upto`) where the gold reference's entry starts: one that opens with a list
    label or holds its first author's family name near its start; the line after `after` when `after` ends
    with a DOI or URL and nothing else tells."""
    authors = gold.get("authors") or []
    family = norm_title(authors[0].split()[-1]) if authors and authors[0].split() else ""
    for j in range(after + 1, upto + 1):
        head = norm_title(texts[j][:40])
        if _LIST_LABEL.match(texts[j]) or (family and family in head):
            return j
    if re.search(r"(?:10\.\d{4,9}/\S+|https?://\S+)\s*$", texts[after]) and after + 1 <= upto:
        return after + 1
    return None


def labelled_papers(sets: list[str], which: str = "all") -> tuple[list[Labelled], Counter[str]]:
    """The papers of ../shared/pdfs/{sets} in the split `which` ("all", "train", "held-out") that can be
    labelled, and why the others cannot."""
    done: list[Labelled] = []
    skipped: Counter[str] = Counter()
    for name in sets:
        for pdf in sorted((SHARED / "pdfs" / name).glob("*.pdf")):
            if which != "all" and split(pdf.stem) != which:
                continue
            got = label_paper(pdf)
            if isinstance(got, str):
                skipped[f"{name}: {got}"] += 1
            else:
                done.append(got)
    return done, skipped


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="jose,ml")
    ap.add_argument("--split", default="all", choices=["all", "train", "held-out"])
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    print("command: python bench/goldlines.py " + " ".join(sys.argv[1:]))
    if not (SHARED / "pdfs").exists():
        print(f"{SHARED / 'pdfs'} not found: nothing to label")
        return 0
    done, skipped = labelled_papers([s for s in args.sets.split(",") if s], args.split)
    counts: Counter[str] = Counter()
    hows: Counter[str] = Counter()
    for paper in done:
        window = paper.labels[paper.start :]
        counts.update(window)
        hows[paper.how.split(" ")[0].rstrip(",")] += 1
        if args.verbose:
            c = Counter(window)
            print(
                f"  {paper.name:48s} {split(paper.name):8s} {paper.how:18s} B {c['B']:4d} I {c['I']:5d} O {c['O']:5d}"
            )
    print(f"papers labelled {len(done)}: {dict(hows)}; skipped {sum(skipped.values())}: {dict(skipped)}")
    print(f"window lines {sum(counts.values())}: {dict(counts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
