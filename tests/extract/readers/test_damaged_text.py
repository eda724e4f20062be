"""Damaged reference text reads as the clean text does, in every input path (issue 38).

Each reference is real and written as text pulled from a PDF gives it: spacing accents beside their letter
("K-R M ¨uller", "Sch¨olkopf", "Richt ´ arik"), a ligature ("force ﬁelds"), soft hyphens and zero-width
spaces inside words, a word broken at a line end. For each reader the damaged input must give the fields the
clean input gives: the same authors, title, venue and numbers, and the raw text without the damage.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from citetracer.config import LLMSettings
from citetracer.extract import read_references, read_text
from citetracer.extract.agent.parser_agent import LLMParserAgent
from citetracer.extract.agent.repair import repair_references
from citetracer.llm.client import LLMClient
from citetracer.records import Person, Reference
from tests.extract.conftest import column
from tests.llm.fakellm import FakeLLM, reply_json

MULLER = (
    "K-R M ¨uller, S. Mika, G. R¨atsch, K. Tsuda, and B. Sch¨olkopf. An introduction to kernel-based learning "
    "algorithms. IEEE Transactions on Neural Networks, 12(2):181-201, 2001."
)
MULLER_CLEAN = MULLER.replace("M ¨u", "Mü").replace("R¨a", "Rä").replace("Sch¨o", "Schö")
UNKE = (
    "Oliver T. Unke, Stefan Chmiela, Huziel E. Sauceda, Michael Gastegger, Igor Poltavsky, Kristof T. Sch¨utt, "
    "Alexandre Tkatchenko, and Klaus-Robert M¨uller. Machine learning force ﬁelds. Chemical Reviews, "
    "121(16):10142–10186, 2021."
)
UNKE_CLEAN = UNKE.replace("Sch¨u", "Schü").replace("M¨u", "Mü").replace("ﬁ", "fi")
CHOLLET = (
    "Fran\u00adçois Chol\u200blet. Xception: Deep learning with depthwise separ\u00adable convolutions. In "
    "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition, pages 1251–1258, 2017."
)
CHOLLET_CLEAN = CHOLLET.replace("\u00ad", "").replace("\u200b", "")
RICHTARIK = (
    "Peter Richt ´ arik and Martin Tak ´ aˇc. Iteration complexity of randomized block-coordinate descent methods "
    "for minimizing a composite function. Mathematical Programming, 144(1):1–38, 2014."
)
RICHTARIK_CLEAN = RICHTARIK.replace("Richt ´ arik", "Richtárik").replace("Tak ´ aˇc", "Takáč")
DAMAGED = [MULLER, UNKE, CHOLLET, RICHTARIK]
CLEAN = [MULLER_CLEAN, UNKE_CLEAN, CHOLLET_CLEAN, RICHTARIK_CLEAN]

Fields = tuple[object, ...]


def fields_of(ref: Reference) -> Fields:
    """What search, matching and name comparison read of a reference."""
    people = tuple((p.given, p.family) for p in ref.authors)
    return (ref.title, people, ref.venue, ref.year, ref.volume, ref.issue, ref.pages, ref.publisher)


def all_fields(refs: list[Reference]) -> list[Fields]:
    return [fields_of(r) for r in refs]


def test_plain_text_list() -> None:
    damaged = read_text("\n".join(DAMAGED), suffix=".txt").references
    clean = read_text("\n".join(CLEAN), suffix=".txt").references
    assert all_fields(damaged) == all_fields(clean)
    assert [r.raw for r in damaged] == [r.raw for r in clean]  # the raw text is what is searched too
    assert [p.family for p in damaged[0].authors] == ["Müller", "Mika", "Rätsch", "Tsuda", "Schölkopf"]
    assert damaged[1].title == "Machine learning force fields"
    assert [p.family for p in damaged[2].authors] == ["Chollet"]
    assert [p.family for p in damaged[3].authors] == ["Richtárik", "Takáč"]


def test_plain_text_wrapped_with_words_broken_at_line_ends() -> None:
    """References pasted from a PDF with their lines: "learn-" / "ing" is one word, "Self-" / "Similarity" keeps
    its hyphen."""
    wrapped = (
        "K-R Müller, S. Mika, G. Rätsch, K. Tsuda, and B. Schölkopf. An introduction to kernel-based learn-\n"
        "ing algorithms. IEEE Transactions on Neural Networks, 12(2):181-201, 2001.\n\n"
        "Geoff Boeing. Visual Analysis of Nonlinear Dynamical Systems: Chaos, Fractals, Self-\n"
        "Similarity and the Limits of Prediction. Systems, 4(4):37, 2016.\n"
    )
    clean = (
        MULLER_CLEAN + "\n\nGeoff Boeing. Visual Analysis of Nonlinear Dynamical Systems: Chaos, Fractals, "
        "Self-Similarity and the Limits of Prediction. Systems, 4(4):37, 2016.\n"
    )
    assert all_fields(read_text(wrapped, suffix=".txt").references) == all_fields(
        read_text(clean, suffix=".txt").references
    )


def _bbl(entries: list[str]) -> str:
    items = "".join(f"\\bibitem{{r{k}}}\n{text}\n" for k, text in enumerate(entries))
    return f"\\begin{{thebibliography}}{{9}}\n{items}\\end{{thebibliography}}\n"


def test_bbl() -> None:
    damaged = read_text(_bbl(DAMAGED), suffix=".bbl").references
    clean = read_text(_bbl(CLEAN), suffix=".bbl").references
    assert all_fields(damaged) == all_fields(clean)
    assert [p.family for p in damaged[0].authors] == ["Müller", "Mika", "Rätsch", "Tsuda", "Schölkopf"]


UNKE_BIB = """@article{unke2021,
  author = {Oliver T. Unke and Stefan Chmiela and Huziel E. Sauceda and Michael Gastegger and Igor Poltavsky
            and Kristof T. Sch¨utt and Alexandre Tkatchenko and Klaus-Robert M ¨uller},
  title = {Machine Learning Force ﬁelds},
  journal = {Chemical Reviews},
  year = {2021}, volume = {121}, number = {16}, pages = {10142--10186}
}
@inproceedings{chollet2017,
  author = {Fran\u00adçois Chol\u200blet},
  title = {Xception: Deep Learning with Depthwise Separ\u00adable Convolutions},
  booktitle = {Proceedings of the IEEE Conference on Computer Vision and Pattern Recog-
               nition (CVPR)},
  year = {2017}
}
"""


def test_bibtex() -> None:
    clean_bib = (
        UNKE_BIB.replace("Sch¨u", "Schü")
        .replace("M ¨u", "Mü")
        .replace("ﬁ", "fi")
        .replace("\u00ad", "")
        .replace("\u200b", "")
        .replace("Recog-\n               nition", "Recognition")
    )
    damaged = read_text(UNKE_BIB, suffix=".bib").references
    clean = read_text(clean_bib, suffix=".bib").references
    assert all_fields(damaged) == all_fields(clean)
    assert damaged[0].authors[-1] == Person(given="Klaus-Robert", family="Müller")
    assert damaged[1].venue == "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR)"


def test_json_lines_with_the_damage_escaped() -> None:
    """JSON escapes ("\\ufb01", "\\u00ad") reach the fields only once decoded: the fields are cleaned too."""
    record = {
        "title": "Machine learning force \ufb01elds",
        "authors": [
            "Kristof T. Sch\u00a8utt",
            "Klaus-Robert M\u00adüller",
            {"given": "Oliver T.", "family": "Un\u200bke"},
        ],
        "venue": "Chemical Reviews",
        "year": 2021,
    }
    bibtex_like = {
        "bibtex_key": "unke2021",
        "bibtex_type": "article",
        "fields": {"author": "Sch\u00a8utt, Kristof T. and M ¨uller, Klaus-Robert", "title": "Force \ufb01elds"},
    }
    text = json.dumps(record) + "\n" + json.dumps(bibtex_like) + "\n"
    assert "\\ufb01" in text and "\\u00a8" in text  # escaped: the raw text holds no damage
    first, second = read_text(text, suffix=".jsonl").references
    assert first.title == "Machine learning force fields"
    assert [(p.given, p.family) for p in first.authors] == [
        ("Kristof T.", "Schütt"),
        ("Klaus-Robert", "Müller"),
        ("Oliver T.", "Unke"),
    ]
    assert second.title == "Force fields" and [p.family for p in second.authors] == ["Schütt", "Müller"]


def test_pdf(make_pdf: Callable[..., Path]) -> None:
    """The PDF's text layer gives the spacing accents as glyphs of their own beside the letters (the font draws
    them where the string puts them, over no letter): the block's text is cleaned before it is parsed."""
    lines = [
        "[1] K-R M ¨uller, S. Mika, G. R¨atsch, K. Tsuda, and B. Sch¨olkopf. An introduction to",
        ">kernel-based learning algorithms. IEEE Transactions on Neural Networks, 12(2):181-201, 2001.",
        "[2] Jos´e Miguel Hern´andez-Lobato and Ryan P. Adams. Probabilistic backpropagation for scal-",
        ">able learning of Bayesian neural networks. In International Conference on Machine Learning, 2015.",
    ]
    body = [(72, 100 + 14 * i, f"Body text line {i} of the paper, which cites [1] and [2].", 10) for i in range(5)]
    path = make_pdf([[*body, (72, 200, "References", 14), *column(lines, 72, 230, size=9, indent=12)]])
    refs = read_references(path).references
    assert [p.family for p in refs[0].authors] == ["Müller", "Mika", "Rätsch", "Tsuda", "Schölkopf"]
    assert [(p.given, p.family) for p in refs[1].authors] == [
        ("José Miguel", "Hernández-Lobato"),
        ("Ryan P.", "Adams"),
    ]
    assert refs[1].title == "Probabilistic backpropagation for scalable learning of Bayesian neural networks"
    assert "¨" not in (refs[0].raw or "") and "´" not in (refs[1].raw or "")


def test_parser_agent_answers_are_cleaned(tmp_path: Path) -> None:
    """A model copies the damage it reads (or adds its own): its fields are cleaned like the parser's."""
    text = "[7] Oliver T. Unke and Klaus-Robert Müller. Machine learning force fields. Chemical Reviews, 2021."
    draft = Reference(raw=text, label="7", authors=[Person(given="Oliver T.", family="Unke")], year=2021)
    answer = {
        "title": "Machine learning force \ufb01elds",
        "authors": [
            {"given": "Oliver T.", "family": "Un\u00adke"},
            {"given": "Klaus-Robert", "family": "Mül\u200bler"},
        ],
        "venue": "Chemical Re\u00adviews",
        "year": 2021,
        "continues_previous": False,
    }
    with FakeLLM() as fake:
        fake.add(reply_json(answer))
        settings = LLMSettings.model_validate({"base_url": fake.url, "model": "m", "cache": "", "max_retries": 0})
        fixed, _ = repair_references(None, [draft], LLMParserAgent(LLMClient(settings)))
    ref = fixed[0]
    assert (ref.title, ref.venue) == ("Machine learning force fields", "Chemical Reviews")
    assert [p.family for p in ref.authors] == ["Unke", "Müller"]


def test_a_doi_cut_twice_by_line_ends_is_joined() -> None:
    from citetracer.extract.fields.parser import parse_reference_string

    ref = parse_reference_string(
        "Yuanxin Liu and Lu Hou. Fetv: A benchmark for fine-grained evaluation of open-domain text-to-video "
        "generation. In NeurIPS 2023 Datasets and Benchmarks Track, December 2023. doi: 10.48550/arXiv. 2311. 01813."
    )
    assert ref.doi == "10.48550/arxiv.2311.01813"
