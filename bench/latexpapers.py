"""Held-out conference-style papers: LaTeX papers generated here, their bibliographies known exactly.

The PDF sets in ../shared are what the extractor was developed on; these papers are not. Each is
typeset by pdflatex from a seeded random layout (one or two columns, review line numbers or not,
author-year / numbered / ACL-style references, a "References", "REFERENCES" or "Bibliography"
heading, Broader Impact or Acknowledgments before it, and after it nothing, proofs with numbered
equations, an appendix table of contents, result tables, an LLM-usage statement or a NeurIPS-style
checklist, under headings plain, in small caps or unnumbered) with references drawn from HALLMARK's
world.jsonl (real records), cited in the body so the in-text markers exist. Printed: per paper, the
reference count against the list typeset, gold titles found in the extracted references' text, and
the warnings; then the exact-count share and title recall. A different --seed gives new papers:
use a fresh seed to check a change on papers nobody has looked at.

    python bench/latexpapers.py [--seed 7] [--papers 24] [--keep DIR]

Needs pdflatex (Debian: texlive-latex-base texlive-latex-recommended texlive-fonts-recommended);
says so and exits 0 when it or ../shared is absent.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

from citetracer.extract import read_references

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
WORLD = SHARED / "data" / "hallmark" / "world.jsonl"
LOREM = (
    "We study a problem that matters and evaluate on standard benchmarks with care. "
    "Our method improves over strong baselines in most settings we consider. "
)
CHECKLIST = ["Claims", "Limitations", "Theory assumptions and proofs", "Experimental result reproducibility"]
CHECKLIST += ["Open access to data and code", "Experimental setting/details", "Statistical significance"]


def tex(s: str) -> str:
    """Plain text safe inside LaTeX (the records are real titles: &, %, _ and $ occur)."""
    for a, b in (("\\", " "), ("&", "\\&"), ("%", "\\%"), ("$", "\\$"), ("#", "\\#"), ("_", "\\_")):
        s = s.replace(a, b)
    return re.sub(r"[{}^~]", "", s)


def ascii_only(s: str) -> bool:
    """pdflatex with the default fonts drops characters outside Latin-1: keep records it can typeset."""
    return all(ord(c) < 256 for c in s)


def split_name(name: str) -> tuple[str, str]:
    parts = name.split()
    return " ".join(parts[:-1]), parts[-1]


def render(r: dict[str, Any], style: str) -> str:
    authors = [split_name(x) for x in r["authors"][:12]]
    venue, title, year = tex(r["venue_full"]), tex(r["title"]), r["year"]
    book = r.get("type") == "inproceedings"

    def joined(names: list[str]) -> str:
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", and " + names[-1]

    initials = [" ".join(p[0] + "." for p in g.split() if p) for g, _ in authors]
    if style == "authoryear":
        au = joined([f"{tex(f)}, {i}" for (_, f), i in zip(authors, initials, strict=True)])
        return f"{au} ({year}). {title}. " + (f"In \\emph{{{venue}}}." if book else f"\\emph{{{venue}}}.")
    if style == "acl":
        au = joined([tex(f"{g} {f}") for g, f in authors])
        return f"{au}. {year}. {title}. " + (f"In \\emph{{{venue}}}." if book else f"\\emph{{{venue}}}.")
    au = joined([tex(f"{i} {f}") for (_, f), i in zip(authors, initials, strict=True)])
    return f"{au}. {title}. " + (f"In \\emph{{{venue}}}, {year}." if book else f"\\emph{{{venue}}}, {year}.")


def paper_tex(rnd: random.Random, records: list[dict[str, Any]], i: int) -> tuple[str, str, list[dict[str, Any]]]:
    """One paper's LaTeX source, its name (the layout drawn) and its bibliography in print order."""
    style = rnd.choice(["authoryear", "numbered", "acl"])
    cols = rnd.choice([1, 1, 2])
    lineno = rnd.random() < 0.4
    appendix = rnd.choice(["none", "proofs", "toc", "checklist", "llm", "tables"])
    before = rnd.choice(["", "impact", "ack"])
    refname = rnd.choice(["References", "REFERENCES", "Bibliography", "References"])
    refs = rnd.sample(records, rnd.randint(12, 55))
    if style != "numbered":
        refs.sort(key=lambda r: (split_name(r["authors"][0])[1].lower(), r["year"]))
    n = len(refs)
    out = [
        "\\documentclass[" + ("twocolumn," if cols == 2 else "") + "10pt]{article}",
        "\\usepackage[margin=1in]{geometry}\\usepackage{times}\\usepackage{amsmath}",
        "\\usepackage[" + ("numbers,square" if style == "numbered" else "round") + "]{natbib}",
    ]
    if lineno:
        out.append("\\usepackage{lineno}\\linenumbers")
    out += [f"\\begin{{document}}\\title{{A Study of Things {i}}}\\author{{Anonymous}}\\maketitle"]
    out += ["\\begin{abstract}" + LOREM + "\\end{abstract}", "\\section{Introduction}"]
    for j in range(n):
        out.append(LOREM[:120] + f" as shown by \\citet{{k{j}}} and others \\citep{{k{(j + 1) % n}}}. ")
        if j % 7 == 6:
            out.append("\\begin{equation} f(x) = \\sum_{i=1}^{n} w_i x_i + b \\end{equation}")
    out.append("\\section{Method}" + LOREM * 6 + "See the references section and the appendix. ")
    out.append("\\section{Conclusion}" + LOREM * 3)
    if before == "impact":
        out.append("\\section*{Broader Impact}" + LOREM * 2)
    elif before == "ack":
        out.append("\\section*{Acknowledgments}We thank the reviewers. " + LOREM)
    out += ["\\renewcommand{\\refname}{" + refname + "}", "\\begin{thebibliography}{99}"]
    for j, r in enumerate(refs):
        label = tex(split_name(r["authors"][0])[1]) + (" et~al." if len(r["authors"]) > 2 else "")
        out.append(f"\\bibitem[{label}({r['year']})]{{k{j}}} " + render(r, style))
    out.append("\\end{thebibliography}")
    if appendix != "none":
        out.append("\\clearpage\\appendix")
        if appendix == "toc":
            entries = [("Proofs of the main results", 14), ("Additional experiments", 16), ("Hyperparameters", 18)]
            items = "".join(f"\\item {t} \\dotfill {p}" for t, p in entries)
            out.append("\\section*{Contents of the Appendix}\\begin{enumerate}" + items + "\\end{enumerate}")
        if appendix == "llm":
            out.append("\\section{LLM Usage Statement}We used a language model to polish the writing. " + LOREM)
        head = rnd.choice(
            [
                "\\section{Proofs}",
                "\\section*{\\textsc{Appendix}}\\section{Proofs}",
                "\\section*{Supplementary Material}\\section{Proofs}",
                "\\section{\\textsc{Technical Appendices}}",
            ]
        )
        out.append(head + "\\subsection{Proof of Theorem 1}" + LOREM * 2)
        for k in range(6):
            out.append(
                f"\\begin{{equation}} L_{k}(\\theta) = \\mathbb{{E}}[\\ell(f_\\theta(x), y)] + \\lambda_{k}"
                " \\end{equation}"
            )
            out.append(f"By Lemma {k + 1} of \\citet{{k{k % n}}} (2019), the bound holds. " + LOREM[:90])
        if appendix in ("tables", "toc"):
            rows = " ".join(f"Baseline {k} (2021) & {70 + k}.{k}2 & 0.{60 + k} & {k + 3}.1 \\\\" for k in range(8))
            out.append(
                "\\section{Additional Experiments}\\begin{table}[h]\\centering\\begin{tabular}{lccc}"
                "Method & Acc & F1 & Time \\\\ " + rows + "\\end{tabular}"
                "\\caption{Results of baselines from prior work (2020, 2021).}\\end{table}" + LOREM * 2
            )
        if appendix == "checklist":
            items = "".join(
                f"\\item {{\\bf {q}}} \\\\ Answer: [Yes] \\\\ Justification: See Section 3 and \\citet{{k0}}."
                for q in CHECKLIST
            )
            out.append("\\section*{NeurIPS Paper Checklist}\\begin{enumerate}" + items + "\\end{enumerate}")
    out.append("\\end{document}")
    name = f"p{i:02d}-{style}-{cols}col-{'lineno' if lineno else 'final'}-{appendix}-{before or 'x'}"
    return "\n".join(out), name, refs


def norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--papers", type=int, default=24)
    ap.add_argument("--keep", type=Path, help="keep the generated .tex and .pdf files here")
    args = ap.parse_args()
    print(f"command: python bench/latexpapers.py --seed {args.seed} --papers {args.papers}")
    if not shutil.which("pdflatex"):
        print("pdflatex not found (Debian: texlive-latex-base texlive-latex-recommended texlive-fonts-recommended)")
        return 0
    if not WORLD.exists():
        print(f"{WORLD} not found: no records to cite")
        return 0
    records = [json.loads(line) for line in WORLD.open(encoding="utf-8")]
    records = [
        r
        for r in records
        if r.get("authors")
        and r.get("title")
        and r.get("year")
        and r.get("venue_full")
        and ascii_only(r["title"] + "".join(r["authors"]) + r["venue_full"])
    ]
    rnd = random.Random(args.seed)
    work = args.keep or Path(tempfile.mkdtemp(prefix="latexpapers-"))
    work.mkdir(parents=True, exist_ok=True)
    exact = gold_total = found_total = papers = 0
    misses = []
    for i in range(args.papers):
        source, name, refs = paper_tex(rnd, records, i)
        d = work / name
        d.mkdir(exist_ok=True)
        (d / "p.tex").write_text(source, encoding="utf-8")
        for _ in range(2):  # twice: natbib's labels
            subprocess.run(["pdflatex", "-interaction=batchmode", "p.tex"], cwd=d, capture_output=True, timeout=120)
        if not (d / "p.pdf").exists():
            print(f"  {name}: pdflatex failed (see {d}/p.log)")
            continue
        read = read_references(d / "p.pdf")
        texts = [norm(r.raw or "") for r in read.references]
        used: set[int] = set()
        found = 0
        for g in refs:
            t = norm(g["title"])
            k = next((k for k, x in enumerate(texts) if k not in used and t and t in x), None)
            if k is not None:
                used.add(k)
                found += 1
        papers += 1
        ok = len(read.references) == len(refs)
        exact += ok
        gold_total += len(refs)
        found_total += found
        warn = ("  warnings: " + "; ".join(read.warnings))[:160] if read.warnings else ""
        print(f"  {name:46s} typeset {len(refs):3d} extracted {len(read.references):3d} titles {found:3d}{warn}")
        if not ok or found < len(refs):
            misses.append(name)
    if not papers:
        print("no paper could be typeset")
        return 1
    print(
        f"papers {papers}: exact count {exact}/{papers} = {exact / papers:.1%}, "
        f"title recall {found_total}/{gold_total} = {found_total / gold_total:.1%}"
    )
    print("papers that miss: " + (", ".join(misses) if misses else "none"))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
