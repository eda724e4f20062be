"""The kind of work a citation names, from everything it carries (normalize/kinds.py; issue 39)."""

from __future__ import annotations

import pytest

from citetracer.extract import read_text
from citetracer.normalize.kinds import names_a_thing, work_kind


def kind(text: str, suffix: str = "") -> str:
    [ref] = read_text(text, suffix).references
    return work_kind(ref)[0]


@pytest.mark.parametrize(
    "text",
    [
        "Yoonwoo Lee, Jaehyeong Kang, Namil Kim, Jinwoo Shin, and Honglak Lee. Structured fast fourier transform "
        "attention for vision transformers. 2022.",
        "Kang-Chung Yang and Shinsheng Yuan. Exploring Cumulative Effects in Survival Data Using Deep Learning "
        "Networks. 2025.",
        # Three content words are a paper's title too (GPTZero-style fabrications: "Prompt injection in practice").
        'B. Greshake, et al., "Prompt injection in practice," 2023.',
    ],
)
def test_people_a_specific_title_and_a_year_with_no_venue_are_a_paper(text: str) -> None:
    assert kind(text) == "paper"


@pytest.mark.parametrize(
    ("text", "suffix", "expected"),
    [
        (
            "Wenbin Li, Shangge Liu, and Borui Kang. LibContinual: A Comprehensive Library towards Realistic "
            "Continual Learning. 2025.",
            "",
            "unknown",
        ),
        (
            "@misc{d, author = {James Betker and Gabriel Goh}, "
            "title = {\\url{https://openai.com/dall-e-3}}, year = {2023}}",
            ".bib",
            "web page",
        ),
        (
            "@article{r, title={Language models are unsupervised multitask learners}, author={Radford, Alec and Wu, "
            "Jeffrey}, journal={OpenAI Blog}, year={2019}}",
            ".bib",
            "web page",
        ),
        ("Smith, J. Deep learning. 2019.", "", "unknown"),
        ("Daniel Zeman and Joakim Nivre. Universal Dependencies 2.12. 2023.", "", "unknown"),
    ],
    ids=["a-library-by-its-title", "a-url-as-title", "a-blog-as-journal", "a-two-word-title", "a-release"],
)
def test_what_marks_another_kind_or_too_little_is_no_paper(text: str, suffix: str, expected: str) -> None:
    assert kind(text, suffix) == expected


@pytest.mark.parametrize(
    ("title", "thing"),
    [
        ("Interpreto: A Visualization Library for Transformers", True),
        ("Tyee: A Unified, Modular, and Fully-Integrated Configurable Toolkit for Physiological Health Care", True),
        ("Diffprivlib: the IBM differential privacy library", True),
        ("A Python package for topological data analysis", True),
        ("Qwen2.5-72B technical report", True),
        ("Low-throughput analysis of snap-through stability limits of monostable beams in a rotating platform", False),
        ("TagLabel: RFID Based Orientation and Material Sensing for Automated Package Inspection", False),
        ("A Reproducibility Study on a Standard Image Dataset", False),
    ],
)
def test_a_thing_is_named_by_the_head_of_its_title_not_by_what_a_study_is_of(title: str, thing: bool) -> None:
    """Software and data are named by the head phrase of the title or subtitle; a thing word after a
    preposition is what a paper studies, and such a citation with people, a year and no venue is a paper."""
    assert names_a_thing(title) is thing


def test_a_journal_named_for_software_is_still_a_journal() -> None:
    bib = (
        "@article{x, title={Empirical software engineering at scale}, author={Ames, Beth}, "
        "journal={IEEE Transactions on Software Engineering}, year={2019}}"
    )
    assert kind(bib, ".bib") == "article"


@pytest.mark.parametrize(
    ("title", "paper"),
    [
        ("Starling-{7B}: Improving LLM Helpfulness and Harmlessness with RLAIF", False),
        ("Qwen2.5-72B technical notes on instruction tuning and alignment", False),
        ("Sparse attention routing improves long context retrieval in decoders", True),
        ("Results on 3D point clouds across 2023 benchmarks for robots", True),
    ],
)
def test_a_model_size_in_the_title_marks_a_model_release_not_a_paper(title: str, paper: bool) -> None:
    """'7B', '72B', '350M': a model release (a blog, a model card), which no index holds whole."""
    ref = read_text(
        f"@misc{{k, title={{{title}}}, author={{Zhu, Banghua and Frick, Evan}}, year={{2023}}}}"
    ).references[0]
    assert (work_kind(ref)[0] == "paper") is paper


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A CiteAudit fabrication in a real journal whose name holds a thing's word: an article, so its absence counts.
        (
            "S. Selvaraj and H. Kaur. Ai in climate adaptation: Early warning systems for disasters. Environmental "
            "Modelling Software, 140:105005, 2021.",
            "article",
        ),
        (
            "Frank Buschmann and Kevlin Henney. Patterns of software architecture reconsidered. IEEE Software, "
            "24(4):32-39, 2007.",
            "article",
        ),
        # Beside them, citations of things whose venue is no journal's name stay things.
        ("Minseok Kwon et al. Cat-net tampercoco: Image splicing dataset. Kaggle, 2021.", "dataset"),
        ("Jane Doe and John Roe. Fastgraph: graph tools for everyone. Software, 2021.", "software"),
    ],
)
def test_a_journal_named_with_a_things_word_prints_articles(text: str, expected: str) -> None:
    assert kind(text) == expected
