"""The learned line segmenter (extract/segmentation/linecrf.py) and what surrounds it: layouts the rules met badly
(AAAI's flush list with no gaps, a full-page figure inside the list, a lettered appendix heading after
it), --ref-pages across a figure page, the rule path as fallback, and warnings that name what they saw."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from citetracer.extract import read_references
from citetracer.extract.layout.markers import Markers
from citetracer.extract.layout.page import Fragment, Line
from citetracer.extract.readers.pdf import choose, what_was_seen
from citetracer.extract.segmentation import plausibility
from citetracer.extract.segmentation.linecrf import (
    blocks_from_labels,
    close_at_back_matter,
    default_segmenter,
    features,
    sequence,
)
from citetracer.extract.segmentation.segment import Block
from tests.extract.conftest import Item

BODY: list[Item] = [
    (72, 100 + 14 * i, f"Body text line {i} of the paper, which talks about many things.", 10) for i in range(20)
]

#: AAAI's list: flush left, no hanging indent, no space between entries; each reference two or three lines.
FLUSH = [
    ["Abbas, A.; and Swoboda, P. 2021. Combinatorial Optimization for", "Panoptic Segmentation. In NeurIPS."],
    [
        "Bishop, C. M. 2006. Pattern Recognition and Machine Learning.",
        "Information Science and Statistics.",
        "Springer.",
    ],
    [
        "Chen, T.; Kornblith, S.; Norouzi, M.; and Hinton, G. 2020. A Simple",
        "Framework for Contrastive Learning. In ICML.",
    ],
    [
        "Devlin, J.; Chang, M.; Lee, K.; and Toutanova, K. 2019. BERT: Pre-",
        "training of Deep Bidirectional Transformers. In NAACL.",
    ],
    ["Goodfellow, I.; Bengio, Y.; and Courville, A. 2016. Deep Learning.", "MIT Press."],
    [
        "He, K.; Zhang, X.; Ren, S.; and Sun, J. 2016. Deep Residual Learning",
        "for Image Recognition. In CVPR, 770-778.",
    ],
    ["Kingma, D. P.; and Ba, J. 2015. Adam: A Method for Stochastic", "Optimization. In ICLR."],
    ["Vaswani, A.; Shazeer, N.; Parmar, N.; et al. 2017. Attention Is All", "You Need. In NeurIPS, 5998-6008."],
]


def flush_list(refs: list[list[str]], x: float, y: float, leading: float = 10.0, size: float = 9.0) -> list[Item]:
    out: list[Item] = []
    for ref in refs:
        for text in ref:
            out.append((x, y, text, size))
            y += leading
    return out


@pytest.fixture
def model_only() -> None:
    """The tests that take it read with `segmenter="model"` (the setting `segmenter`), which needs the model."""
    if default_segmenter() is None:
        pytest.skip("no segmenter model in the package")


def test_flush_list_with_no_gap_and_no_indent_is_cut_into_its_references(
    make_pdf: Callable[..., Path], model_only: None
) -> None:
    items = [*BODY, (72, 420, "References", 11, "B"), *flush_list(FLUSH, 72, 440)]
    refs = read_references(make_pdf([items]), segmenter="model").references
    assert len(refs) == len(FLUSH)
    assert [r.year for r in refs] == [2021, 2006, 2020, 2019, 2016, 2016, 2015, 2017]


def test_a_figure_page_inside_the_list_does_not_end_it_and_a_lettered_appendix_does(
    make_pdf: Callable[..., Path], model_only: None
) -> None:
    first = [*BODY, (72, 420, "References", 11, "B"), *flush_list(FLUSH[:4], 72, 440, leading=11, size=10)]
    figure: list[Item] = [(100 + 40 * k, 300 + 30 * (k % 3), f"{k * 0.5:.1f}", 8) for k in range(10)]
    figure += [(120, 600, "Figure 4: Training curves of all methods over ten random seeds.", 10)]
    rest = flush_list(FLUSH[4:], 72, 80, leading=11, size=10)
    rest += [(72, 200, "A Linear Algebra and Probability Theory", 12, "B")]
    rest += [
        (72, 220 + 12 * k, f"In this appendix we prove Lemma {k} with the tools of Section 3.", 10) for k in range(6)
    ]
    refs = read_references(make_pdf([first, figure, rest]), segmenter="model").references
    assert len(refs) == len(FLUSH)
    assert not any("appendix" in (r.raw or "") or "Figure 4" in (r.raw or "") for r in refs)


def test_ref_pages_read_the_pages_given_past_a_figure_page(make_pdf: Callable[..., Path]) -> None:
    """--ref-pages 2-4 names the pages the list spans: the figure set in larger type on page 3 does not
    end it (it did: the rules' region ended at the figure's caption, and the list came out cut short)."""
    hanging = [[ref[0], *(">" + t for t in ref[1:])] for ref in FLUSH]
    from tests.extract.conftest import column

    first = column([t for ref in hanging[:4] for t in ref], 72, 440, indent=18)
    figure: list[Item] = [(120, 200, "Accuracy", 14, "B"), (120, 600, "Figure 4: Training curves of all methods.", 12)]
    rest = column([t for ref in hanging[4:] for t in ref], 72, 80, indent=18)
    path = make_pdf([BODY, [(72, 420, "References", 11, "B"), *first], figure, rest])
    refs = read_references(path, ref_pages=(2, 4), segmenter="rules").references
    assert len(refs) == len(FLUSH)
    assert not any("Figure 4" in (r.raw or "") for r in refs)


def _line(text: str, page: int, y: float, x: float = 72.0) -> Line:
    return Line(text=text, page=page, column=0, x0=x, y0=y, x1=x + 300, y1=y + 9, size=9.0)


def test_the_warning_names_the_empty_page_and_where_the_list_ends() -> None:
    lines = [
        _line("Smith, J. 2020. A title. In Venue.", 6, 100),
        _line("Lee, K. 2019. Another title. In Venue.", 8, 100),
        _line("A Proofs", 8, 300),
    ]
    blocks = [Block([lines[0]]), Block([lines[1]])]
    seen = what_was_seen(lines, blocks)
    assert any("page(s) 8," in s or "page(s) 8 " in s for s in seen)
    assert any("'A Proofs' on page 9" in s for s in seen)
    assert any("spans pages 7-9" in s for s in seen)
    markers = Markers(numbers=set(range(1, 31)))
    warnings = plausibility.check([], markers, [7, 9], seen)
    assert warnings and "which hold no reference" in warnings[0] and "--ref-pages" in warnings[0]


def test_the_rules_stay_the_fallback_when_the_model_reading_is_implausible() -> None:
    """auto: the learned blocks unless the plausibility checks object to them and not to the rules'."""
    lines = [
        _line(f"[{k}] Author, A. {2000 + k}. Title number {k}. Journal {k}, 1-9.", 0, 100 + 12 * k)
        for k in range(1, 21)
    ]
    rules = [Block([ln]) for ln in lines]
    collapsed = [Block(lines)]
    markers = Markers(numbers=set(range(1, 21)))
    assert choose(rules, collapsed, markers, "auto") is rules
    assert choose(rules, collapsed, markers, "model") is collapsed
    assert choose(rules, rules[:19], markers, "auto") == rules[:19]


def test_blocks_from_labels_skip_other_lines_and_keep_labels() -> None:
    lines = [_line(t, 0, 100 + 12 * k) for k, t in enumerate(["[1] A. B. 2020.", "Title.", "Figure 2", "[2] C. D."])]
    blocks = blocks_from_labels(lines, ["B", "I", "O", "B"])
    assert [len(b.lines) for b in blocks] == [2, 1]
    assert [b.label for b in blocks] == ["1", "2"]
    # An O line inside a reference (a float) does not end it; an I with no reference open opens one.
    assert [b.lines for b in blocks_from_labels(lines, ["I", "O", "O", "I"])] == [[lines[0], lines[3]]]


def test_features_are_one_dict_per_line_with_the_rules_as_features() -> None:
    lines = [
        _line("References", 0, 80),
        *(_line(f"[{k}] Author, A. {2000 + k}. Title.", 0, 100 + 12 * k) for k in range(1, 6)),
    ]
    feats = features(lines)
    assert len(feats) == len(lines)
    assert feats[0].get("rule_bibheading") == 1.0
    assert all(f.get("open=label") for f in feats[1:])
    assert all(f.get("label_next") for f in feats[1:])


def test_a_year_opening_a_line_is_no_list_label() -> None:
    """An author-year entry's title line may open with its year ("2021. Are Neural Rankers ...",
    "(2024). CHRONOS ..."): read as the list label 2021 it made the model start a reference there."""
    lines = [
        _line("Qin, Z.; Yan, L.; Zhuang, H.; and Najork, M.", 0, 100),
        _line("2021. Are Neural Rankers still Outperformed by Gradient Boosted", 0, 112),
        _line("Chang, M.; and Roukos, S.", 0, 124),
        _line("(2024). CHRONOS: A Schema-Based Event Understanding System.", 0, 136),
        _line("[12] Lee, K. A title. In Venue, 2019.", 0, 148),
    ]
    feats = features(lines)
    for k in (1, 3):
        assert "open=label" not in feats[k] and "label_next" not in feats[k]
        assert feats[k].get("open=year")
    assert feats[4].get("open=label")


def test_a_review_line_number_at_a_line_end_hides_no_period() -> None:
    """A review copy's line number glued to a line's end ("Learning Representations. 123") still lets the
    next line see that the line before it ends with a period."""
    lines = [_line("In International Conference on Learning Representations. 123", 0, 100)]
    lines.append(_line("Miguel Bautista, Pengsheng Guo, and Samira Abnar. 2022. A title", 0, 112))
    assert features(lines)[1].get("prev_end=period")


def test_a_year_at_a_line_end_is_no_review_line_number() -> None:
    """elsarticle's first page ends with the preprint's date ("December 3, 2026") under the list's first
    entries: read as a line number after a comma, the date made the next page's "[2] ..." look like a
    continuation (the model labelled it O and its lines joined reference [1])."""
    lines = [_line("December 3, 2026", 0, 773), _line("[2] J. U. Allingham, F. Wenzel, Z. E. Mariet,", 1, 85)]
    assert features(lines)[1].get("prev_end=year")
    lines = [_line("Learning Representations, 2021. 123", 0, 100), _line("[3] A. Author, Title.", 0, 112)]
    assert features(lines)[1].get("prev_end=year")


def test_page_furniture_is_left_out_of_what_the_model_labels() -> None:
    """A running head set apart at the top of a page (LNCS: 'A Study of Things 13') and a page number
    are no part of any reference: the model does not label them (they are O) and the lines around them
    follow each other for it."""
    lines = [
        _line("1. Author, A. A title of a paper. In: Proceedings of Things,", 0, 700),
        _line("pp. 1-9 (2021)", 0, 712, x=90),
        _line("7", 0, 790),
        _line("A Study of Things 13", 1, 60),
        _line("2. Dehghani, M., Djolonga, J. Scaling vision transformers.", 1, 100),
        _line("In: ICML. pp. 1-9 (2023)", 1, 112, x=90),
    ]
    order, feats = sequence(lines)
    assert order == [0, 1, 4, 5]
    assert feats[2].get("-1:fill=" + next(k[5:] for k in feats[1] if k.startswith("fill=")))
    assert feats[2].get("open=label") and feats[2].get("label_next")


def test_a_list_of_a_few_lines_is_read_by_the_rules() -> None:
    """auto: a list both read in fewer than SHORT_LIST lines is the rules' (three one-line entries show no
    habit of indentation or pitch for the model to weigh a line against); a model that reads on past
    where the rules stopped (a table among the references) is not held to it."""
    lines = [
        _line(f"Doe, J. ({2000 + k}). Study {k}. Journal of Things, 1(2), 3-4.", 1, 100 + 12 * k) for k in range(3)
    ]
    rules = [Block([ln]) for ln in lines]
    merged = [Block(lines[:2]), Block(lines[2:])]
    assert choose(rules, merged, Markers(), "auto") is rules
    assert choose(rules, merged, Markers(), "model") is merged
    longer = [*merged, *(Block([_line(f"Roe, R. ({2010 + k}). More.", 2, 100 + 12 * k)]) for k in range(12))]
    assert choose(rules, longer, Markers(), "auto") is longer


#: Flush author-year entries whose first line ends with the year: the title opens the next line.
YEAR_BREAKS = [
    [
        "Alan Nawzad Amin, Eli N. Weinstein, and Debora S. Marks. 2021.",
        "A Generative Nonparametric Bayesian Model",
        "for Whole Genomes. In Advances in Neural Information Processing",
        "Systems.",
    ],
    [
        "Spyros Angelopoulos and Malachi Voss. 2021. Online Search with",
        "Maximum Clearance. In AAAI Conference on Artificial Intelligence.",
    ],
    [
        "Marco Bagatella, Sammy Joe Christen, and Otmar Hilliges. 2022.",
        "SFP: State-free Priors for Exploration in Off-Policy Reinforcement",
        "Learning. In Transactions on Machine Learning Research.",
    ],
    [
        "Zhen Qin, Le Yan, Honglei Zhuang, Yi Tay, Rama Kumar Pa-",
        "sumarthi, Xuanhui Wang, Michael Bendersky, and Marc Najork.",
        "2021. Are Neural Rankers still Outperformed by Gradient Boosted",
        "Decision Trees? In International Conference on Learning Repre-",
        "sentations.",
    ],
    [
        "Kyle Richardson and Ashish Sabharwal. 2022. Pushing the Lim-",
        "its of Rule Reasoning in Transformers through Natural Language",
        "Satisfiability. In AAAI Conference on Artificial Intelligence.",
    ],
    [
        "Yu Su, Diyi Yang, Shunyu Yao, and Tao Yu. 2024. Language",
        "Agents: Foundations, Prospects, and Risks. In Conference on Em-",
        "pirical Methods in Natural Language Processing.",
    ],
    [
        "Zifeng Wang, Shao-Lun Huang, Ercan Engin Kuruoglu, Jimeng",
        "Sun, Xi Chen, and Yefeng Zheng. 2022. PAC-Bayes Information",
        "Bottleneck. In International Conference on Learning Representa-",
        "tions.",
    ],
]


def test_an_author_year_flush_list_does_not_start_a_reference_after_each_year(
    make_pdf: Callable[..., Path], model_only: None
) -> None:
    """In an author-year list the year follows the names, so a line ending in a year (or one opening with
    it) is inside a reference, where in a numbered list the year often ends one. The model sees the list's
    style; a reference read with no year is joined to the piece that holds it (`join_split_entries`).
    These 7 were read as 8 ('... and Marc Najork.' apart from '2021. Are Neural Rankers ...')."""
    items = [*BODY, (72, 420, "References", 11, "B"), *flush_list(YEAR_BREAKS, 72, 440)]
    refs = read_references(make_pdf([items]), segmenter="model").references
    assert len(refs) == len(YEAR_BREAKS)
    assert [r.year for r in refs] == [2021, 2021, 2022, 2021, 2022, 2024, 2022]
    feats = features([_line(t, 0, 100 + 10 * k) for k, t in enumerate(t for ref in YEAR_BREAKS for t in ref)])
    assert feats[1].get("prev_end=year|ay") and feats[1].get("open=upper1|flush")


def test_an_appendix_heading_with_its_letter_closes_the_list_in_the_lists_own_type() -> None:
    """elsarticle sets "Appendix A. Hyperparameters and Training Setup" in the list's size and face right
    after it, and the model read it and the appendix's text as one more reference: a heading that names
    the appendix and its letter closes the list whatever its type; a reference line that mentions an
    appendix does not."""
    lines = [
        _line("[54] A. Author, Estimating treatment effects over time in the presence of hidden", 0, 100),
        _line("confounders, in: International Conference on Machine Learning, 2021.", 0, 112, x=90),
        _line("[55] B. Writer, Appendix B of the report on things, Tech. Rep., 2019.", 0, 124),
        _line("Appendix A. Hyperparameters and Training Setup", 0, 150),
        _line("We study a problem that matters and evaluate on standard benchmarks", 0, 170),
    ]
    assert close_at_back_matter(lines, ["B", "I", "B", "B", "I"]) == ["B", "I", "B", "O", "O"]


def test_a_running_head_over_two_columns_does_not_close_the_list() -> None:
    """ICML sets the paper's title in bold across the top of each page ("A Study of Things 13": read as a
    lettered appendix heading it closed the list after one reference of 18); an appendix heading inside a
    column still closes it."""

    def at(text: str, page: int, y: float, column: int, bold: bool = False) -> Line:
        frags = [Fragment(text, 72, y, 300, y + 9, 9.0, bold=bold)]
        return Line(text=text, page=page, column=column, x0=72, y0=y, x1=300, y1=y + 9, size=9.0, fragments=frags)

    lines = [
        at("Adams, J., and Zhang, K. Identification of Partially Observed", 0, 696, 2),
        at("Linear Causal Models. In NeurIPS, 2021.", 0, 708, 2),
        at("A Study of Things 13", 1, 48, 0, bold=True),
        at("Cai, Y., and Zheng, W. Finite-Time Last-Iterate Convergence.", 1, 70, 1),
        at("In Advances in Neural Information Processing Systems, 2022.", 1, 82, 1),
        at("A Proofs of the Main Results", 1, 110, 1, bold=True),
        at("We prove the theorem by induction on the number of rounds.", 1, 130, 1),
    ]
    got = close_at_back_matter(lines, ["B", "I", "O", "B", "I", "B", "I"])
    assert got == ["B", "I", "O", "B", "I", "O", "O"]


def test_the_segmenter_is_a_setting_from_config_env_and_flag(
    make_pdf: Callable[..., Path], model_only: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`segmenter` is read where the other settings are (config file < CITETRACER_SEGMENTER < --segmenter) and
    reaches the PDF reader: the list the rules end at a figure page is read whole by the model, whichever way it is
    chosen. A value that names no segmenter is a usage error, not a silent "auto"."""
    import json

    from citetracer.cli import main
    from citetracer.config import ConfigError, load_settings

    first = [*BODY, (72, 420, "References", 11, "B"), *flush_list(FLUSH[:4], 72, 440, leading=11, size=10)]
    figure: list[Item] = [(120, 600, "Figure 4: Training curves of all methods over ten random seeds.", 10)]
    figure += [(100 + 40 * k, 300 + 30 * (k % 3), f"{k * 0.5:.1f}", 8) for k in range(10)]
    pdf = make_pdf([first, figure, flush_list(FLUSH[4:], 72, 80, leading=11, size=10)])
    rules = len(read_references(pdf, segmenter="rules").references)
    assert rules != len(FLUSH)  # the rules end the list at the figure page

    def extracted(*args: str) -> int:
        out = tmp_path / "out.json"
        assert main(["extract", str(pdf), "--format", "json", "-o", str(out), *args]) == 0
        return len(json.loads(out.read_text(encoding="utf-8"))["references"])

    config = tmp_path / "c.toml"
    config.write_text('segmenter = "rules"\n', encoding="utf-8")
    monkeypatch.delenv("CITETRACER_SEGMENTER", raising=False)
    assert load_settings(config).segmenter == "rules"
    assert extracted("--config", str(config)) == rules
    assert extracted("--config", str(config), "--segmenter", "model") == len(FLUSH)
    monkeypatch.setenv("CITETRACER_SEGMENTER", "Model")
    assert load_settings(config).segmenter == "model"
    assert extracted("--config", str(config)) == len(FLUSH)
    assert extracted("--segmenter", "rules") == rules
    monkeypatch.setenv("CITETRACER_SEGMENTER", "learned")
    with pytest.raises(ConfigError, match="CITETRACER_SEGMENTER"):
        load_settings()
