"""Papers for scan tests: small .bib files and PDFs built on the fly, and a store seeded with the examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from citetracer.cli import main
from tests.extract.conftest import build_pdf, column

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

REAL_BIB = """@inproceedings{he2016deep,
  title     = {Deep Residual Learning for Image Recognition},
  author    = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR},
  year      = {2016}
}
"""

REFERENCES = [
    "References",
    "[1] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image",
    ">recognition. In CVPR, pages 770-778, 2016.",
    "[2] A. Vaswani, N. Shazeer, N. Parmar, et al. Attention is all you need. In",
    ">Advances in Neural Information Processing Systems, 2017.",
    "[3] J. Devlin, M.-W. Chang, K. Lee, and K. Toutanova. BERT: Pre-training of",
    ">deep bidirectional transformers for language understanding. In NAACL-HLT, 2019.",
]


def make_pdf(path: Path, n: int) -> Path:
    """A two-page paper (body, then its references) that differs from its siblings by its number."""
    body = [(72, 100, f"A study of things, number {n}", 16), (72, 130, "Some text that cites [1], [2] and [3].", 10)]
    return build_pdf(path, [body, column(REFERENCES, 72, 90, indent=12)])


def make_pdf_without_list(path: Path) -> Path:
    """A two-page PDF with text and no reference list (slides, a cover letter): read, with nothing to check."""
    body = ["A study of things", "We measure how things behave under load and write it down.", "Conclusion"]
    return build_pdf(path, [column(body, 72, 90), column(["Appendix", "More of the method."], 72, 90)])


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    store = tmp_path / "store.sqlite"
    assert main(["mirror", "add", str(EXAMPLES / "records.jsonl"), "--source", "example", "--store", str(store)]) == 0
    return store


@pytest.fixture
def papers(tmp_path: Path) -> Path:
    """A folder: the example bibliography (with Hallucinated entries), an all-Real one, a PDF, an empty file."""
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "examples.bib").write_text((EXAMPLES / "references.bib").read_text())
    (folder / "clean.bib").write_text(REAL_BIB)
    (folder / "empty.bib").write_text("")
    make_pdf(folder / "paper.pdf", 1)
    return folder
