"""The packaged reference-string CRF: it loads, labels common styles, and the parser falls back to rules."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from citetracer.extract.fields import crf
from citetracer.extract.fields import parser as fields
from citetracer.extract.fields.crf import Labeller, default_labeller, features, spans, tokens
from citetracer.extract.fields.parser import model_input, parse_reference_string


@pytest.fixture
def labeller() -> Labeller:
    model = default_labeller()
    assert model is not None, "the model file src/citetracer/data/parser.crfsuite should be installed"
    return model


def labelled(labeller: Labeller, raw: str) -> dict[str, str]:
    text, marks = model_input(raw)
    return spans(labeller.label(text, marks), text)


@pytest.mark.parametrize(
    ("text", "title", "venue"),
    [
        (  # APA
            "Garcia, M., & Okafor, T. (2019). Sparse attention for long documents. Journal of Machine Learning "
            "Research, 20(4), 113-140.",
            "Sparse attention for long documents",
            "Journal of Machine Learning Research",
        ),
        (  # IEEE, quoted title
            "M. Garcia and T. Okafor, “Sparse attention for long documents,” in Proc. Int. Conf. Learning "
            "Representations, 2019, pp. 1-9.",
            "Sparse attention for long documents",
            "Proc. Int. Conf. Learning Representations",
        ),
        (  # ACL: year after the authors
            "Maria Garcia and Tunde Okafor. 2019. Sparse attention for long documents. In Proceedings of the "
            "Annual Meeting of the Association for Computational Linguistics, pages 113-140.",
            "Sparse attention for long documents",
            "Proceedings of the Annual Meeting of the Association for Computational Linguistics",
        ),
        (  # BibTeX plain: no year before the title
            "Maria Garcia and Tunde Okafor. Sparse attention for long documents. In Advances in Neural "
            "Information Processing Systems, pages 113-140, 2019.",
            "Sparse attention for long documents",
            "Advances in Neural Information Processing Systems",
        ),
    ],
)
def test_labels_title_and_container(labeller: Labeller, text: str, title: str, venue: str) -> None:
    found = labelled(labeller, text)
    assert found["title"].strip(" .,“”") == title
    # Whether "In" belongs to the container is a labelling convention (anystyle includes it); the parser drops it.
    # A series that stands for the proceedings ("Advances in Neural Information Processing Systems", TEI level="s")
    # may be labelled as the collection; the parser then reads it as the venue.
    container = found.get("container") or found["collection"]
    assert re.sub(r"^[Ii]n:?\s+", "", container.strip(" .,")) == venue


def test_labels_authors_year_and_pages(labeller: Labeller) -> None:
    text = "Garcia, M., & Okafor, T. (2019). Sparse attention for long documents. Neural Computation, 31, 113-140."
    by_token = {t.text: label for t, label in labeller.label(*model_input(text))}
    assert by_token["Garcia,"] == "author"
    assert by_token["Okafor,"] == "author"
    assert by_token["(2019)."] == "year"
    assert by_token["113-140."] == "pages"


def test_parser_takes_title_and_venue_from_the_model() -> None:
    ref = parse_reference_string(
        "Maria Garcia and Tunde Okafor. Sparse attention for long documents. In Advances in Neural "
        "Information Processing Systems, pages 113-140, 2019."
    )
    assert ref.title == "Sparse attention for long documents"
    assert ref.venue == "Advances in Neural Information Processing Systems"
    assert [p.family for p in ref.authors] == ["Garcia", "Okafor"]
    assert ref.year == 2019
    assert ref.pages == "113-140"


def test_empty_and_oversized_input(labeller: Labeller) -> None:
    assert labeller.label("   ") == []
    long = "word " * 5000
    assert len(labeller.label(long)) == crf.MAX_TOKENS
    assert len(tokens(long)) == crf.MAX_TOKENS


def test_rules_only_when_the_model_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = "Hinton, G. E., & Nowlan, S. J. (1987). How learning can guide evolution. Complex Systems, 1, 495-502."
    monkeypatch.setattr(fields, "default_labeller", lambda: None)
    ref = parse_reference_string(raw)
    assert ref.title == "How learning can guide evolution"
    assert ref.year == 1987
    assert [p.family for p in ref.authors] == ["Hinton", "Nowlan"]


def test_default_labeller_is_none_without_model_or_library(monkeypatch: pytest.MonkeyPatch) -> None:
    default_labeller.cache_clear()
    try:
        monkeypatch.setattr(crf, "MODEL_NAME", "no-such-model.crfsuite")
        assert default_labeller() is None
        default_labeller.cache_clear()
        monkeypatch.setattr(crf, "MODEL_NAME", "parser.crfsuite")
        monkeypatch.setitem(sys.modules, "pycrfsuite", None)  # import fails as if not installed
        assert default_labeller() is None
    finally:
        default_labeller.cache_clear()


def test_unreadable_model_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.crfsuite"
    bad.write_text("not a model")
    with pytest.raises(ValueError, match="Invalid model"):
        Labeller(str(bad))


def _labelled(text: str, labels: str) -> tuple[list[dict[str, object]], list[str]]:
    names = {"a": "author", "y": "year", "t": "title", "c": "container", "p": "pages"}
    toks = tokens(text)
    assert len(toks) == len(labels.split())
    return features(toks), [names[x] for x in labels.split()]


def test_a_model_trained_from_labelled_strings_labels_a_new_one(tmp_path: Path) -> None:
    import pycrfsuite

    train = [
        ("Hinton, G. (1987). How learning can guide evolution. Complex Systems, 1-9.", "a a y t t t t t c c p"),
        ("Smith, J. (2001). A study of sparse graphs. Journal of Graphs, 11-19.", "a a y t t t t t c c c p"),
        ("Okafor, T. (2015). Fast parsing of references. Neural Computation, 4-8.", "a a y t t t t c c p"),
        ("Garcia, M. (2019). Attention for long documents. Machine Learning, 113-140.", "a a y t t t t c c p"),
        ("Lee, K. (2003). Kernels on strings. Data Mining Letters, 20-29.", "a a y t t t c c c p"),
    ]
    trainer = pycrfsuite.Trainer(verbose=False)
    for text, labels in train:
        trainer.append(*_labelled(text, labels))
    trainer.set_params({"c1": 0.0, "c2": 0.01, "max_iterations": 50})
    path = tmp_path / "tiny.crfsuite"
    trainer.train(str(path))
    text = "Brown, A. (1999). Learning to rank documents. Information Retrieval, 5-15."
    found = spans(Labeller(str(path)).label(text), text)
    assert found["author"] == "Brown, A."
    assert found["year"] == "(1999)."
    assert found["title"] == "Learning to rank documents."
    assert found["container"] == "Information Retrieval,"


@pytest.mark.parametrize(
    ("raw", "title", "venue", "volume", "pages", "year"),
    [
        (  # MLA: quoted title, venue after the quote, "vol., no." numbers
            'Okonkwo, Adaeze. "Harbour Towns and the Salt Trade." Journal of Maritime History, vol. 31, no. 2, '
            "2017, pp. 88-104.",
            "Harbour Towns and the Salt Trade",
            "Journal of Maritime History",
            "31",
            "88-104",
            2017,
        ),
        (  # Vancouver: "Surname IJ" authors, year before the volume
            "Brandt KL, Osei P, Varga T. Sleep loss and insulin resistance in adolescents. Pediatr Res. "
            "2012;71(3):245-51.",
            "Sleep loss and insulin resistance in adolescents",
            "Pediatr Res",
            "71",
            "245-51",
            2012,
        ),
        (  # physics: no title at all
            "T. Haraldsen and M. Quist, Phys. Rev. Lett. 84, 2211 (2000).",
            None,
            "Phys. Rev. Lett",
            "84",
            "2211",
            2000,
        ),
        (  # Chicago author-date book: publisher and place, no venue
            "Lindgren, Sofia. 2009. The Grammar of Rivers. Chicago: University of Chicago Press.",
            "The Grammar of Rivers",
            None,
            None,
            None,
            2009,
        ),
        (  # IEEE conference, quoted title, abbreviated proceedings (the venue's last word is not the volume)
            'R. Dube, K. Ivanova, and J. Park, "Low-power sensing for soil moisture," in Proc. IEEE Int. Conf. '
            "Sensors, 2016, pp. 12-15.",
            "Low-power sensing for soil moisture",
            "Proc. IEEE Int. Conf. Sensors",
            None,
            "12-15",
            2016,
        ),
    ],
)
def test_parser_styles_with_model(
    labeller: Labeller,
    raw: str,
    title: str | None,
    venue: str | None,
    volume: str | None,
    pages: str | None,
    year: int,
) -> None:
    ref = parse_reference_string(raw, labeller=labeller)
    assert ref.title == title
    assert ref.venue == venue
    assert ref.volume == volume
    assert ref.pages == pages
    assert ref.year == year


def test_text_with_lone_surrogates_is_labelled(labeller: Labeller) -> None:
    # PDF text layers can hold half of an astral character ("H\ud835\udefc" for a math alpha).
    raw = "Epinat, B. (2008). GHASP: an H\ud835\udefc kinematic survey. Monthly Notices, 388(2), 500-550."
    text, marks = model_input(raw)
    labelled = labeller.label(text, marks)
    assert [t.text for t, _ in labelled] == text.split()
    assert parse_reference_string(raw).year == 2008


def test_runs_split_for_training_and_joined_when_labelling(labeller: Labeller) -> None:
    labels = ["author", "author", "title", "title", "title", "container", "container", "year"]
    split = ["author", "author", "title", "title+", "title+", "container", "container+", "year"]
    assert crf.split_runs(labels) == split
    text, marks = model_input("Garcia, M. (2019). Sparse attention. Journal of Learning, 20(4), 113-140.")
    assert {label for _, label in labeller.label(text, marks)} <= set(crf.LABELS)


def test_segment_features_describe_the_whole_segment() -> None:
    text = "Maria Garcia and Tunde Okafor. Sparse attention for long documents. In Proc. of the Workshop, 2019."
    feats = features(tokens(text))
    words = text.split()
    names = feats[words.index("Tunde")]
    title = feats[words.index("attention")]
    venue = feats[words.index("Workshop,")]
    assert names["seg_names"] == "0|many" and title["seg_names"] == "0|few"
    assert title["seg_lower"] > names["seg_lower"]
    # "Proc." is an abbreviation, not a sentence end: "In Proc. of the Workshop, 2019." is one segment.
    assert venue.get("seg_in") == 1 and "seg_in" not in title
    assert venue["seg_len"] == 6 and feats[words.index("Proc.")]["seg_at"] == 1
    assert venue.get("seg_year") == 1 and "seg_year" not in title
    # Every token of a segment shares its summary; only the position within it differs.
    first, last = feats[words.index("Sparse")], feats[words.index("documents.")]
    assert {k: v for k, v in first.items() if k.startswith("seg_") and k != "seg_at"} == {
        k: v for k, v in last.items() if k.startswith("seg_") and k != "seg_at"
    }
    assert last["seg_at"] == "end"


def test_word_shape_keeps_case() -> None:
    assert crf._shape("Garcia,") == "Aaa,"
    assert crf._shape("IEEE") == "AA"
    assert crf._shape("Élodie") == "uaa"  # other letters are "u"
    assert crf._shape("2019.") == "00."


def test_glued_words_are_split_for_the_model_only() -> None:
    """Words that PDF text extraction glued together become separate tokens, with offsets into the unchanged
    text, so a title run can end where the venue starts inside one whitespace-free piece."""
    text = "Monolithic anti-spring bladesNucl. Phys.Rev.D57, inAmerican Meeting networksarXiv:1606.05510 2013Design"
    words = [t.text for t in tokens(text)]
    assert words == [
        "Monolithic", "anti-spring", "blades", "Nucl.", "Phys.", "Rev.", "D57,", "in", "American", "Meeting",
        "networks", "arXiv:", "1606.05510", "2013", "Design",
    ]  # fmt: skip
    assert all(text[t.start : t.end] == t.text for t in tokens(text))
    # An initial glued to the title after it ("Dudley, J.Real-time ...") is split off.
    assert [t.text for t in tokens("Dudley, J.Real-time measurements, H.C.High power")] == [
        "Dudley,", "J.", "Real-time", "measurements,", "H.C.", "High", "power",
    ]  # fmt: skip
    # Names with inner capitals, initials and abbreviations stay whole.
    assert [t.text for t in tokens("McEuen, P. DeSalvo, R. U.S.A. e.g. LaTeX iPhone")] == [
        "McEuen,", "P.", "DeSalvo,", "R.", "U.S.A.", "e.g.", "LaTeX", "iPhone",
    ]  # fmt: skip


def test_glued_title_and_journal_are_read_apart(labeller: Labeller) -> None:
    raw = "Bertolini A and Takamori A 2006 Monolithic geometric anti-spring bladesNucl. Instrum. Methods A 540 475-94"
    ref = parse_reference_string(raw)
    assert ref.title == "Monolithic geometric anti-spring blades"
