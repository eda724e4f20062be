"""Papers typeset here in real templates, their bibliographies known exactly and labelled from the PDF.

Each paper is drawn from a seed: a template (the conference styles of ../shared/data/latex-styles,
read from there through TEXINPUTS, and Debian's texlive-publishers classes), a body that cites its
references, a .bib of real records from HALLMARK's world.jsonl (names with accents included, set
with TeX's accent commands), BibTeX with the template's own .bst, and hard cases drawn at random:
a full-page figure or a table among the references, a consortium entry of hundreds of authors, a
long reference across a column or page break, appendices after the list (lettered headings such as
"A Linear Algebra and Probability Theory", a table of contents, a checklist), a list set flush left
with no gap between entries (natbib's \\bibhang and \\bibsep at 0, as AAAI sets it), numbered or
author-year by the .bst. `aaai` is a small class of that layout written here (two columns, 9 pt).

Labels come from the PDF itself, not from the extractor: the .bbl is edited so that each entry
saves its position (\\pdfsavepos) where it starts and where it ends, and each float put among the
references where its text starts and ends; `line_labels` maps the saved positions onto the
extractor's own lines (reading order), so each line is the begin of a reference (B), inside one
(I), or other (O: headings, floats, appendix). scripts/train_segmenter.py trains on them.

Printed per paper: references typeset against extracted, gold titles found in the extracted
references' text, gold authors recovered (family names read for the title-matched reference);
then, per template, the exact-count share and title recall. A different --seed gives new papers.

    python bench/latexpapers.py [--seed 7] [--papers 24] [--templates acl,cvpr,...|held-out|train]
                                [--cache DIR] [--keep DIR] [--segmenter auto|rules|model]

--cache keeps typeset papers (by template, seed and index) so that reruns read them again instead of
typesetting. Needs pdflatex and bibtex (Debian: texlive-latex-base texlive-latex-recommended
texlive-fonts-recommended texlive-latex-extra texlive-science texlive-publishers); says so and exits 0
when they or ../shared are absent.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
WORLD = SHARED / "data" / "hallmark" / "world.jsonl"
STYLES = SHARED / "data" / "latex-styles"
LOREM = (
    "We study a problem that matters and evaluate on standard benchmarks with care. "
    "Our method improves over strong baselines in most settings we consider. "
)
CHECKLIST = ["Claims", "Limitations", "Theory assumptions and proofs", "Experimental result reproducibility"]
CHECKLIST += ["Open access to data and code", "Experimental setting/details", "Statistical significance"]
APPENDIX_TITLES = [
    "Linear Algebra and Probability Theory",
    "Proofs of the Main Results",
    "Additional Experiments",
    "Implementation Details",
    "Hyperparameters and Training Setup",
    "Further Related Work",
    "Derivation of the Bound",
]


@dataclass(frozen=True)
class Template:
    """A venue's layout: its preamble, how the title block is written, its .bst and how it cites."""

    name: str
    preamble: str
    front: str
    bst: str
    natbib: bool
    styles: str = ""  # folder of ../shared/data/latex-styles holding its files
    numbered: bool = False


_ARTICLE_FRONT = (
    "\\title{{{title}}}\\author{{Anonymous}}\\date{{}}\\maketitle\\begin{{abstract}}{abstract}\\end{{abstract}}"
)
_ICML_FRONT = (
    "\\twocolumn[\\{icml}title{{{title}}}\\begin{{{icml}authorlist}}\\{icml}author{{Anonymous}}{{a}}"
    "\\end{{{icml}authorlist}}\\{icml}affiliation{{a}}{{Somewhere}}\\{icml}correspondingauthor{{Anonymous}}{{a@b.c}}"
    "\\vskip 0.3in]\\printAffiliationsAndNotice{{}}\\begin{{abstract}}{abstract}\\end{{abstract}}"
)

TEMPLATES = {
    t.name: t
    for t in (
        Template(
            "article-plainnat",
            "\\documentclass[{cols}10pt]{{article}}\\usepackage[margin=1in]{{geometry}}\\usepackage{{times}}"
            "\\usepackage[round]{{natbib}}",
            _ARTICLE_FRONT,
            "plainnat",
            True,
        ),
        Template(
            "article-unsrtnat",
            "\\documentclass[{cols}11pt]{{article}}\\usepackage[margin=1in]{{geometry}}"
            "\\usepackage[numbers,square]{{natbib}}",
            _ARTICLE_FRONT,
            "unsrtnat",
            True,
            numbered=True,
        ),
        Template(
            "article-apalike",
            "\\documentclass[{cols}11pt]{{article}}\\usepackage[margin=1.2in]{{geometry}}\\usepackage{{mathpazo}}"
            "\\usepackage[round]{{natbib}}",
            _ARTICLE_FRONT,
            "apalike",
            True,
        ),
        Template(
            "acl",
            "\\documentclass[11pt]{{article}}\\usepackage[final]{{acl}}\\usepackage{{times}}",
            _ARTICLE_FRONT,
            "acl_natbib",
            True,
            "acl",
        ),
        Template(
            "acl-review",
            "\\documentclass[11pt]{{article}}\\usepackage[review]{{acl}}\\usepackage{{times}}",
            _ARTICLE_FRONT,
            "acl_natbib",
            True,
            "acl",
        ),
        Template(
            "neurips26",
            "\\documentclass{{article}}\\usepackage[{final}]{{neurips_2026}}",
            _ARTICLE_FRONT,
            "plainnat",
            True,
            "neurips",
        ),
        Template(
            "icml25",
            "\\documentclass{{article}}\\usepackage{{microtype}}\\usepackage{{booktabs}}"
            "\\usepackage[{accepted}]{{icml2025}}",
            _ICML_FRONT,
            "icml2025",
            True,
            "icml",
        ),
        Template(
            "icml26",
            "\\documentclass{{article}}\\usepackage{{microtype}}\\usepackage{{booktabs}}"
            "\\usepackage[{accepted}]{{icml2026}}",
            _ICML_FRONT,
            "icml2026",
            True,
            "icml",
        ),
        Template(
            "iclr26",
            "\\documentclass{{article}}\\usepackage{{iclr2026_conference,times}}{iclrfinal}",
            _ARTICLE_FRONT,
            "iclr2026_conference",
            True,
            "iclr",
        ),
        Template(
            "colm24",
            "\\documentclass{{article}}\\usepackage[{colmfinal}]{{colm2024_conference}}",
            _ARTICLE_FRONT,
            "colm2024_conference",
            True,
            "colm",
        ),
        Template(
            "cvpr",
            "\\documentclass[10pt,twocolumn,letterpaper]{{article}}\\usepackage[{review}]{{cvpr}}",
            _ARTICLE_FRONT,
            "ieeenat_fullname",
            True,
            "cvpr",
            numbered=True,
        ),
        Template(
            "wacv",
            "\\documentclass[10pt,twocolumn,letterpaper]{{article}}\\usepackage[{review}]{{wacv}}",
            _ARTICLE_FRONT,
            "ieee_fullname",
            False,
            "wacv",
            numbered=True,
        ),
        Template(
            "lncs",
            "\\documentclass[runningheads]{{llncs}}",
            "\\title{{{title}}}\\author{{Anonymous}}\\institute{{Somewhere}}\\maketitle"
            "\\begin{{abstract}}{abstract}\\end{{abstract}}",
            "splncs04",
            False,
            "lncs",
            numbered=True,
        ),
        Template(
            "ieeetran",
            "\\documentclass[conference]{{IEEEtran}}\\usepackage{{cite}}",
            "\\title{{{title}}}\\author{{\\IEEEauthorblockN{{Anonymous}}}}\\maketitle"
            "\\begin{{abstract}}{abstract}\\end{{abstract}}",
            "IEEEtran",
            False,
            numbered=True,
        ),
        Template(
            "elsarticle-num",
            "\\documentclass[{elsopt}]{{elsarticle}}",
            "\\begin{{frontmatter}}\\title{{{title}}}\\author{{Anonymous}}\\begin{{abstract}}{abstract}"
            "\\end{{abstract}}\\end{{frontmatter}}",
            "elsarticle-num",
            True,
            numbered=True,
        ),
        Template(
            "elsarticle-harv",
            "\\documentclass[{elsopt},authoryear]{{elsarticle}}",
            "\\begin{{frontmatter}}\\title{{{title}}}\\author{{Anonymous}}\\begin{{abstract}}{abstract}"
            "\\end{{abstract}}\\end{{frontmatter}}",
            "elsarticle-harv",
            True,
        ),
        Template(
            "revtex",
            "\\documentclass[aps,{revopt},nofootinbib]{{revtex4-2}}",
            "\\title{{{title}}}\\author{{Anonymous}}\\affiliation{{Somewhere}}"
            "\\begin{{abstract}}{abstract}\\end{{abstract}}\\maketitle",
            "apsrev4-2",
            False,
            numbered=True,
        ),
        Template(
            "amsart",
            "\\documentclass[{amsopt}]{{amsart}}",
            "\\title{{{title}}}\\author{{Anonymous}}\\begin{{abstract}}{abstract}\\end{{abstract}}\\maketitle",
            "amsplain",
            False,
            numbered=True,
        ),
        Template(
            "mnras",
            "\\documentclass[fleqn,usenatbib]{{mnras}}",
            "\\title{{{title}}}\\author{{Anonymous}}\\date{{}}\\pubyear{{2024}}\\maketitle"
            "\\begin{{abstract}}{abstract}\\end{{abstract}}",
            "mnras",
            True,
        ),
        Template(
            "jmlr",
            "\\documentclass[{jmlropt}]{{jmlr}}",
            "\\title{{{title}}}\\author{{\\Name{{Ann Onymous}}\\Email{{a@b.c}}}}\\maketitle"
            "\\begin{{abstract}}{abstract}\\end{{abstract}}",
            "plainnat",
            True,
        ),
        Template(
            "scrartcl-alpha",
            "\\documentclass[{cols}10pt]{{scrartcl}}",
            _ARTICLE_FRONT,
            "alpha",
            False,
        ),
        Template(
            "memoir-siam",
            "\\documentclass[article,{memopt}]{{memoir}}",
            _ARTICLE_FRONT,
            "siam",
            False,
            numbered=True,
        ),
        Template(
            "achemso",
            "\\documentclass[journal=jacsat,manuscript=article]{{achemso}}\\title{{A Study of Things}}"
            "\\author{{Ann Onymous}}\\affiliation{{Somewhere}}\\email{{a@b.c}}",
            "\\begin{{abstract}}{abstract}\\end{{abstract}}",
            "achemso",
            False,
            numbered=True,
        ),
        Template(
            "acmart",
            "\\documentclass[{acmopt}]{{acmart}}\\usepackage{{times}}",
            "\\title{{{title}}}\\author{{Anonymous}}\\affiliation{{\\institution{{Somewhere}}\\country{{X}}}}"
            "\\begin{{abstract}}{abstract}\\end{{abstract}}\\maketitle",
            "ACM-Reference-Format",
            True,
            numbered=True,
        ),
        Template(
            "aaai",
            "\\documentclass{{aaailike}}",
            "\\title{{{title}}}\\author{{Anonymous}}\\date{{}}\\maketitle\\begin{{abstract}}{abstract}\\end{{abstract}}",
            "acl_natbib",
            True,
            "acl",
        ),
    )
}
#: Templates the shipped segmenter learns from (the first six since its first version; the other seven
#: from journals' and societies' classes: APS, AMS, MNRAS, PMLR, KOMA-Script with alpha labels, memoir
#: with SIAM's style, ACS).
TRAIN = ("article-plainnat", "article-unsrtnat", "acl", "neurips26", "icml25", "iclr26")
TRAIN += ("revtex", "amsart", "mnras", "jmlr", "scrartcl-alpha", "memoir-siam", "achemso")
#: Templates never trained on: the segmenter's benchmark (with seeds never trained on either). acmart
#: joined later than the first eleven; the per-template table keeps the first eleven's figure comparable.
HELD_OUT = ("article-apalike", "acl-review", "icml26", "colm24", "cvpr", "wacv", "lncs", "ieeetran")
HELD_OUT += ("elsarticle-num", "elsarticle-harv", "aaai", "acmart")
#: Seeds the shipped model is trained on; any other seed gives papers it has not seen.
TRAIN_SEEDS = (1, 3)

#: AAAI's reference layout (its kit is not in ../shared): two columns, 9 pt references set flush left
#: with no hanging indent and no space between entries.
AAAI_CLASS = r"""\NeedsTeXFormat{LaTeX2e}\ProvidesClass{aaailike}
\LoadClass[twocolumn,10pt]{article}
\RequirePackage[letterpaper,left=0.75in,right=0.75in,top=0.75in,bottom=1.25in,columnsep=0.33in]{geometry}
\RequirePackage{times}\RequirePackage[round]{natbib}
\setlength{\bibhang}{0pt}\setlength{\bibsep}{0pt}
\renewcommand{\bibfont}{\fontsize{9}{10}\selectfont}
"""
#: Packages some styles load that Debian ships only in its large font packages: stand-ins of the same
#: look, written beside the paper when the real one is missing.
SHIMS = {
    "tgpagella": "\\RequirePackage{mathpazo}",
    "inconsolata": "",
}
MARKS = r"""
\newwrite\ctpos\immediate\openout\ctpos=\jobname.pos
\newcommand\ctmark[2]{\leavevmode\pdfsavepos
  \write\ctpos{#1 #2 \the\ReadonlyShipoutCounter\space\the\pdflastxpos\space\the\pdflastypos}\ignorespaces}
"""


def tex(s: str) -> str:
    """Text safe inside LaTeX, accented letters written with TeX's accent commands (so that the PDF
    draws them the way papers do: OT1 accents are glyphs of their own over the letter)."""
    for a, b in (("\\", " "), ("&", "\\&"), ("%", "\\%"), ("$", "\\$"), ("#", "\\#"), ("_", "\\_")):
        s = s.replace(a, b)
    s = re.sub(r"[{}^~]", "", s)
    out = []
    for ch in s:
        if ord(ch) < 128:
            out.append(ch)
            continue
        special = {"ø": "{\\o}", "Ø": "{\\O}", "ß": "{\\ss}", "æ": "{\\ae}", "ł": "{\\l}", "Ł": "{\\L}", "ı": "{\\i}"}
        if ch in special:
            out.append(special[ch])
            continue
        base, *marks = unicodedata.normalize("NFD", ch)
        accents = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~", "\u030c": "v"}
        accents |= {"\u0327": "c", "\u0306": "u", "\u0304": "=", "\u030a": "r", "\u030b": "H", "\u0328": "k"}
        if len(marks) == 1 and marks[0] in accents and ord(base) < 128:
            command = accents[marks[0]]
            letter = "\\i" if base == "i" else base
            out.append(f"{{\\{command}{{{letter}}}}}" if command.isalpha() else f"{{\\{command}{letter}}}")
        else:
            return ""  # a character pdflatex cannot set in the default fonts: the caller skips the record
    return "".join(out)


def split_name(name: str) -> tuple[str, str]:
    parts = name.split()
    return " ".join(parts[:-1]), parts[-1]


def bib_entry(key: str, r: dict[str, Any]) -> str:
    authors = " and ".join(f"{tex(f)}, {tex(g)}" if g else tex(f) for g, f in (split_name(a) for a in r["authors"]))
    book = r.get("type") == "inproceedings"
    venue = tex(r["venue_full"])
    fields = [f"author = {{{authors}}}", f"title = {{{{{tex(r['title'])}}}}}", f"year = {{{r['year']}}}"]
    fields.append(f"booktitle = {{{venue}}}" if book else f"journal = {{{venue}}}")
    if r.get("pages"):
        fields.append(f"pages = {{{r['pages']}}}")
    if r.get("doi") and random.Random(key).random() < 0.3:
        fields.append(f"doi = {{{r['doi']}}}")
    return f"@{'inproceedings' if book else 'article'}{{{key},\n  " + ",\n  ".join(fields) + "\n}\n"


def consortium(rnd: random.Random, n: int) -> dict[str, Any]:
    """A consortium paper's record: hundreds of invented authors (the names are never checked)."""
    given = ["Anna", "Ben", "Chen", "Dana", "Emil", "Fatima", "Goran", "Hiro", "Ines", "Jonas", "Kemal", "Lea"]
    family = ["Abe", "Brown", "Costa", "Diaz", "Evans", "Fischer", "Garcia", "Hansen", "Ito", "Jensen", "Kowalski"]
    family += ["Larsen", "Moreau", "Nakamura", "Olsen", "Petrov", "Quinn", "Rossi", "Silva", "Tanaka", "Ueda"]
    authors = [f"{rnd.choice(given)} {rnd.choice(family)}{rnd.choice(['', 'son', 'ova', 'er'])}" for _ in range(n)]
    return {
        "title": "Results of a large international collaboration on the measurement of everything",
        "authors": authors,
        "year": rnd.choice([2019, 2021, 2023]),
        "venue_full": "Physical Review Letters",
        "type": "article",
    }


@dataclass
class Paper:
    name: str
    template: str
    source: str
    bib: str
    records: list[dict[str, Any]]
    keys: list[str]
    float_kind: str  # none, page, table


def make_paper(rnd: random.Random, records: list[dict[str, Any]], template: Template, i: int) -> Paper:
    """One paper's LaTeX source and .bib, with its hard cases drawn from `rnd`."""
    n = rnd.randint(10, 60)
    refs = rnd.sample(records, n)
    cases: list[str] = []
    if rnd.random() < 0.15:
        refs[rnd.randrange(n)] = consortium(rnd, rnd.randint(150, 500))
        cases.append("consortium")
    if rnd.random() < 0.2:
        r = dict(rnd.choice(records))
        r["authors"] = [a for rec in rnd.sample(records, 8) for a in rec["authors"]][:40]
        r["title"] = r["title"] + ": " + rnd.choice(records)["title"]
        refs[rnd.randrange(n)] = r
        cases.append("long")
    flush = template.natbib and not template.numbered and rnd.random() < 0.25
    if flush:
        cases.append("flush")
    floats = rnd.choice(["none", "none", "page", "table"])
    if floats != "none":
        cases.append(floats)
    appendix = rnd.choice(["none", "lettered", "lettered", "toc", "checklist"])
    cases.append(appendix)
    keys = [f"ct{j:03d}" for j in range(n)]
    cols = "twocolumn," if rnd.random() < 0.3 else ""
    preamble = template.preamble.format(
        cols=cols,
        final=rnd.choice(["", "final", "preprint"]),
        accepted=rnd.choice(["", "accepted"]),
        iclrfinal=rnd.choice(["", "\\iclrfinalcopy"]),
        colmfinal=rnd.choice(["", "final"]),
        review=rnd.choice(["", "review"]),
        elsopt=rnd.choice(["preprint,12pt", "5p,twocolumn", "3p"]),
        revopt=rnd.choice(["prl,twocolumn", "pra,twocolumn", "prb,preprint"]),
        amsopt=rnd.choice(["10pt", "11pt", "12pt"]),
        jmlropt=rnd.choice(["pmlr", "pmlr,twocolumn", "wcp"]),
        memopt=rnd.choice(["10pt", "11pt", "12pt,twocolumn"]),
        acmopt=rnd.choice(["sigconf", "acmsmall", "sigconf,review", "manuscript"]),
    )
    out = [preamble, "\\usepackage{amsmath}\\usepackage{graphicx}", MARKS]
    if flush:
        out.append("\\setlength{\\bibhang}{0pt}\\setlength{\\bibsep}{0pt}")
    title = f"A Study of Things {i}"
    out.append("\\begin{document}")
    out.append(template.front.format(title=title, abstract=LOREM, icml="icml" if "icml" in template.name else ""))
    out.append("\\section{Introduction}")
    for j in range(n):
        if template.natbib:
            cite = f"\\citet{{{keys[j]}}}" if j % 2 else f"\\citep{{{keys[j]}}}"
        else:
            cite = f"\\cite{{{keys[j]}}}"
        out.append(LOREM[: rnd.randint(60, 150)] + f" as shown {cite}. ")
        if j % 9 == 8:
            out.append("\\begin{equation} f(x) = \\sum_{i=1}^{n} w_i x_i + b \\end{equation}")
    out.append("\\section{Method}" + LOREM * rnd.randint(2, 8))
    out.append("\\section{Conclusion}" + LOREM * 2)
    if rnd.random() < 0.4:
        out.append("\\section*{Acknowledgments}We thank the reviewers. " + LOREM)
    out.append(f"\\bibliographystyle{{{template.bst}}}\\bibliography{{refs}}")
    if appendix != "none":
        out.append("\\clearpage\\appendix" if rnd.random() < 0.6 else "\\appendix")
        if appendix == "toc":
            entries = "".join(f"\\item {t} \\dotfill {14 + k}" for k, t in enumerate(APPENDIX_TITLES[:4]))
            out.append("\\section*{Contents of the Appendix}\\begin{enumerate}" + entries + "\\end{enumerate}")
        if appendix == "checklist":
            items = "".join(
                f"\\item {{\\bf {q}}} \\\\ Answer: [Yes] \\\\ Justification: See Section 3 and prior work."
                for q in CHECKLIST
            )
            out.append("\\section*{NeurIPS Paper Checklist}\\begin{enumerate}" + items + "\\end{enumerate}")
        for title_a in rnd.sample(APPENDIX_TITLES, rnd.randint(1, 3)):
            out.append(f"\\section{{{title_a}}}" + LOREM * rnd.randint(1, 3))
            out.append(f"\\subsection{{Lemma {rnd.randint(1, 9)}}}" + LOREM)
            out.append("\\begin{equation} L(\\theta) = \\mathbb{E}[\\ell(f_\\theta(x), y)] + \\lambda \\end{equation}")
    out.append("\\end{document}")
    bib = "".join(bib_entry(k, r) for k, r in zip(keys, refs, strict=True))
    name = f"{template.name}-{i:03d}-{'-'.join(cases)}"
    return Paper(name, template.name, "\n".join(out), bib, refs, keys, floats)


def float_text(kind: str, k: int) -> str:
    """A float to put among the references: a full page figure of axis-like text, or a table."""
    if kind == "page":
        ticks = " ".join(f"{v:.1f}" for v in range(0, 10))
        rows = "\\\\".join(f"Epoch {e} \\quad {ticks}" for e in range(12))
        return (
            f"\\begin{{figure}}[p]\\ctmark{{F}}{{{k}}}\\centering"
            f"\\fbox{{\\parbox{{0.8\\linewidth}}{{\\centering {rows}}}}}"
            f"\\caption{{Training curves of all methods over ten random seeds.}}\\ctmark{{G}}{{{k}}}\\end{{figure}}"
        )
    rows = " ".join(f"Baseline {j} & {70 + j}.{j}2 & 0.{60 + j} \\\\" for j in range(6))
    return (
        f"\\begin{{table}}[t]\\ctmark{{F}}{{{k}}}\\centering\\begin{{tabular}}{{lcc}}Method & Acc & F1 \\\\ {rows}"
        f"\\end{{tabular}}\\caption{{Results of baselines from prior work.}}\\ctmark{{G}}{{{k}}}\\end{{table}}"
    )


def mark_bbl(bbl: str, keys: list[str], float_kind: str | None, rnd: random.Random) -> str:
    """The .bbl with a position mark where each entry starts (after its \\bibitem) and ends (before the
    next one), and a float put after a random entry."""
    starts = []
    for key in keys:
        m = re.search(r"\\bibitem(?:[^{}]|\{[^{}]*\}|\[[^\]]*\]){0,20}?\{" + key + r"\}", bbl)
        if m:
            starts.append((m.start(), m.end(), key))
    starts.sort()
    out = []
    at = 0
    float_after = rnd.randrange(len(starts)) if starts and float_kind else -1
    for n, (s, e, key) in enumerate(starts):
        if n:
            out.append(_end_mark(bbl[at:s], starts[n - 1][2]))
            if n - 1 == float_after:
                out.append(float_text(float_kind or "", 0) + "\n")
        else:
            out.append(bbl[at:s])
        out.append(bbl[s:e] + f"\\ctmark{{B}}{{{key}}}")
        at = e
    tail = bbl[at:]
    closing = re.search(r"\\end\{\w*thebibliography\}", tail)  # achemso's is mcitethebibliography
    end = closing.start() if closing else -1
    if starts and end >= 0:
        tail = _end_mark(tail[:end], starts[-1][2]) + tail[end:]
    out.append(tail)
    return "".join(out)


def _end_mark(item: str, key: str) -> str:
    """An entry's text with the end mark after its last word (before the comment lines BibTeX styles
    write between entries, which would swallow it)."""
    lines = item.rstrip().split("\n")
    comments: list[str] = []
    # Comment lines, blank lines and a closing "\\makeatother" (mnras) come after the entry's last word.
    while len(lines) > 1 and (not lines[-1].strip() or lines[-1].lstrip().startswith(("%", "\\makeatother"))):
        comments.insert(0, lines.pop())
    text = "\n".join(lines).rstrip()
    # A line ending in a comment sign (revtex's "\\BibitemShut {NoStop}%") would swallow a mark put after it.
    cut = len(text) - 1 if text.endswith("%") and not text.endswith("\\%") else len(text)
    return text[:cut] + f"\\ctmark{{E}}{{{key}}}" + text[cut:] + "\n" + "".join(c + "\n" for c in comments)


def typeset(paper: Paper, d: Path, rnd: random.Random) -> tuple[Path | None, str]:
    """Typeset `paper` in folder `d` (pdflatex, bibtex, marks, pdflatex twice); the PDF or None and why."""
    template = TEMPLATES[paper.template]
    d.mkdir(parents=True, exist_ok=True)
    (d / "p.tex").write_text(paper.source, encoding="utf-8")
    (d / "refs.bib").write_text(paper.bib, encoding="utf-8")
    (d / "aaailike.cls").write_text(AAAI_CLASS, encoding="utf-8")
    for name, body in SHIMS.items():
        if subprocess.run(["kpsewhich", f"{name}.sty"], capture_output=True).returncode:
            (d / f"{name}.sty").write_text(body + "\n", encoding="utf-8")
    env = dict(os.environ)
    if template.styles:
        folder = str(STYLES / template.styles)
        env["TEXINPUTS"] = f".:{folder}//:"
        env["BSTINPUTS"] = f".:{folder}//:"

    def run(*cmd: str) -> None:
        subprocess.run(list(cmd), cwd=d, capture_output=True, timeout=180, env=env)

    run("pdflatex", "-interaction=batchmode", "p.tex")
    run("bibtex", "p")
    bbl = d / "p.bbl"
    if not bbl.exists():
        return None, "bibtex wrote no .bbl"
    kind = None if paper.float_kind == "none" else paper.float_kind
    bbl.write_text(mark_bbl(bbl.read_text(encoding="utf-8", errors="replace"), paper.keys, kind, rnd), encoding="utf-8")
    for _ in range(2):
        run("pdflatex", "-interaction=batchmode", "p.tex")
    pdf = d / "p.pdf"
    if not pdf.exists() or not (d / "p.pos").exists():
        return None, "pdflatex failed"
    (d / "gold.json").write_text(json.dumps({"template": paper.template, "records": paper.records, "keys": paper.keys}))
    return pdf, ""


@dataclass
class Mark:
    kind: str  # B, E (a reference's start and end), F, G (a float's start and end)
    key: str
    page: int  # 0-based
    x: float  # points from the left
    y: float  # baseline, points from the top


def read_marks(pos: Path, pdf: Path) -> list[Mark]:
    """The positions the marks saved, in PDF points from the top left of their page."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        heights = [doc[i].get_size()[1] for i in range(len(doc))]
    finally:
        doc.close()
    out = []
    for line in pos.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        kind, key, page, x, y = parts[0], parts[1], int(parts[2]) - 1, int(parts[3]), int(parts[4])
        if not 0 <= page < len(heights):
            continue
        to_bp = 72 / 72.27 / 65536
        out.append(Mark(kind, key, page, x * to_bp, heights[page] - y * to_bp))
    return out


def _line_at(lines: list[Any], mark: Mark) -> int | None:
    """Index of the line holding the saved position: on its page, the baseline within the line's box,
    the x within (or just beyond) the line's extent."""
    best = None
    for k, ln in enumerate(lines):
        if ln.page != mark.page or not ln.y0 - 1.0 <= mark.y <= ln.y1 + 1.5:
            continue
        if ln.x0 - 40 <= mark.x <= ln.x1 + 8:
            d = 0.0 if ln.x0 - 1 <= mark.x <= ln.x1 + 1 else min(abs(mark.x - ln.x0), abs(mark.x - ln.x1))
            if best is None or d < best[0]:
                best = (d, k)
    return None if best is None else best[1]


def line_labels(lines: list[Any], marks: list[Mark]) -> list[str] | None:
    """B / I / O for each of the document's lines (reading order) from the saved marks; None when a
    reference's start or end cannot be placed (a label would be a guess)."""
    labels = ["O"] * len(lines)
    by_key: dict[str, dict[str, Mark]] = defaultdict(dict)
    for m in marks:
        by_key[m.key][m.kind] = m
    spans = []
    for key, kinds in by_key.items():
        if "B" in kinds and "E" in kinds:
            b, e = _line_at(lines, kinds["B"]), _line_at(lines, kinds["E"])
            if b is None or e is None or e < b:
                return None
            spans.append((b, e, key))
    if not spans:
        return None
    spans.sort()
    for b, e, _key in spans:
        if labels[b] != "O":
            return None  # two references start on one line: the marks are not where we think
        labels[b] = "B"
        for k in range(b + 1, e + 1):
            labels[k] = "I"
    float_pages = {m.page for m in marks if m.kind in "FG"}
    for k, ln in enumerate(lines):
        # A float's lines: its text is known (float_text), on the page its marks name.
        if ln.page in float_pages and labels[k] == "I" and FLOAT_LINE.match(ln.text.strip()):
            labels[k] = "O"
    return labels


#: The lines `float_text` sets: axis-like rows (several numbers: a reference's last line "2022." is one), table
#: rows and header, captions.
FLOAT_LINE = re.compile(
    r"^(?:Epoch \d|Baseline \d|Method Acc|Figure \d|Table \d|Training curves|Results of baselines"
    r"|[\d.]+(?:\s+[\d.]+)+$)"
)


def load_records() -> list[dict[str, Any]]:
    records = [json.loads(line) for line in WORLD.open(encoding="utf-8")]
    return [
        r
        for r in records
        if r.get("authors")
        and r.get("title")
        and r.get("year")
        and r.get("venue_full")
        and all(tex(x) for x in [r["title"], *r["authors"], r["venue_full"]])
    ]


def generate(templates: list[str], seed: int, papers: int, cache: Path) -> list[tuple[Paper, Path]]:
    """Papers drawn from `seed`, `papers` per template, typeset under `cache` (reused when there)."""
    records = load_records()
    out = []
    for name in templates:
        for i in range(papers):
            rnd = random.Random(f"{seed}-{name}-{i}")
            paper = make_paper(rnd, records, TEMPLATES[name], i)
            d = cache / f"seed{seed}" / name / f"{i:03d}"
            if not (d / "p.pdf").exists() or not (d / "p.pos").exists() or not (d / "name").exists():
                pdf, why = typeset(paper, d, rnd)
                if pdf is None:
                    print(f"  {paper.name}: {why} (see {d}/p.log)", flush=True)
                    continue
                (d / "name").write_text(paper.name)
            out.append((paper, d / "p.pdf"))
    return out


def norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--papers", type=int, default=2, help="papers per template")
    ap.add_argument("--templates", default="held-out", help="comma-separated names, or 'held-out', 'train', 'all'")
    ap.add_argument("--cache", type=Path, help="keep typeset papers here and reuse them")
    ap.add_argument("--segmenter", choices=["auto", "rules-first", "rules", "model"], default="auto")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    print("command: python bench/latexpapers.py " + " ".join(sys.argv[1:]))
    if not shutil.which("pdflatex") or not shutil.which("bibtex"):
        print(
            "pdflatex/bibtex not found (Debian: texlive-latex-base texlive-latex-recommended texlive-latex-extra ...)"
        )
        return 0
    if not WORLD.exists():
        print(f"{WORLD} not found: no records to cite")
        return 0
    from citetracer.extract import InputError, read_references
    from extract import authors_recovered, title_pairs

    names = {"held-out": list(HELD_OUT), "train": list(TRAIN), "all": list(TEMPLATES)}.get(
        args.templates, args.templates.split(",")
    )
    cache = args.cache or Path(tempfile.mkdtemp(prefix="latexpapers-"))
    made = generate(names, args.seed, args.papers, cache)
    per: dict[str, list[tuple[int, int, int, int, int, int]]] = defaultdict(list)
    for paper, pdf in made:
        try:
            read = read_references(pdf, segmenter=args.segmenter)
            refs, warnings = read.references, read.warnings
        except InputError as exc:
            refs, warnings = [], [str(exc)]
        gold = [{"title": r["title"], "authors": [split_name(a)[1] for a in r["authors"]]} for r in paper.records]
        pairs = title_pairs([g["title"] for g in gold], refs)
        got, total = authors_recovered(gold, refs, pairs)
        per[paper.template].append((len(paper.records), len(refs), len(pairs), got, total, bool(warnings)))
        if args.verbose or len(refs) != len(paper.records) or len(pairs) < len(paper.records):
            warn = ("  warnings: " + "; ".join(warnings))[:200] if warnings else ""
            counts = f"typeset {len(paper.records):3d} extracted {len(refs):3d} titles {len(pairs):3d}"
            print(f"  {paper.name:60s} {counts}{warn}")
    print(f"{'template':18s} {'papers':>6s} {'exact count':>16s} {'title recall':>22s} {'authors':>20s}")
    rows = [(name, per[name]) for name in names if per[name]]
    everything = [r for _, group in rows for r in group]
    for name, group in [*rows, ("all", everything)]:
        n = len(group)
        exact = sum(1 for r in group if r[0] == r[1])
        gold = sum(r[0] for r in group)
        titles = sum(r[2] for r in group)
        got, total = sum(r[3] for r in group), sum(r[4] for r in group)
        print(
            f"{name:18s} {n:6d} {exact:5d} = {exact / n:7.1%} {titles:6d}/{gold:<6d} = {titles / max(gold, 1):6.1%}"
            f" {got:6d}/{total:<6d} = {got / max(total, 1):6.1%}"
        )
    if not args.cache:
        shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
