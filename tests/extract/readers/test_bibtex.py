"""The BibTeX reader copes with real-world files and reports what it cannot read."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citetracer.extract import read_text
from citetracer.extract.readers.bibtex import entry_to_reference, parse_bibtex


def test_strings_concatenation_and_month_macros() -> None:
    text = """@string{nips = "Advances in Neural Information Processing Systems"}
    @inproceedings{a, title = {T}, booktitle = nips # " 35", month = jun, year = 2022}"""
    (entry,) = parse_bibtex(text).entries
    assert entry.fields["booktitle"] == "Advances in Neural Information Processing Systems 35"
    assert entry.fields["month"] == "6"


def test_crossref_inherits_venue_and_year() -> None:
    text = """@inproceedings{child, title={Child Paper}, author={Doe, J.}, crossref={conf}}
    @proceedings{conf, title={Proceedings of the Big Conference}, year={2020}, publisher={ACM}}"""
    result = parse_bibtex(text)
    child = entry_to_reference(result.entries[0])
    assert child.venue == "Proceedings of the Big Conference"
    assert child.year == 2020
    assert child.publisher == "ACM"


def test_malformed_entry_is_reported_and_reading_resumes() -> None:
    text = """@article{broken, title = {Missing brace, year = 2020
}
@article{ok, title = {Fine}, year = 2021}
@misc{alsook, title = "Quoted {Title}", author = "A. B. Smith and others"}"""
    result = parse_bibtex(text)
    assert [e.key for e in result.entries] == ["ok", "alsook"]
    assert len(result.errors) == 1
    assert "line 1" in result.errors[0]


def test_parentheses_comments_and_preamble() -> None:
    text = """% a comment line
    @preamble{"\\newcommand{\\noop}[1]{}"}
    @comment{ignored {nested} text}
    @article(paren, title = {Parenthesised}, year = 1999)"""
    result = parse_bibtex(text)
    assert [e.key for e in result.entries] == ["paren"]
    assert result.errors == []


def test_latex_fields_become_text_and_identifiers_canonical() -> None:
    text = r"""@inproceedings{k,
      title = {Flash{A}ttention: Fast and Memory-Efficient Exact Attention with {IO}-Awareness},
      author = {Dao, Tri and Fu, Daniel Y. and R{\'e}, Christopher and others},
      booktitle = {NeurIPS}, year = {2022},
      doi = {https://doi.org/10.48550/arXiv.2205.14135}, pages = {16344--16359}}"""
    (ref,) = read_text(text, suffix=".bib").references
    assert ref.title == "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness"
    assert [p.family for p in ref.authors] == ["Dao", "Fu", "Ré"]
    assert ref.et_al is True
    assert ref.doi == "10.48550/arxiv.2205.14135"
    assert ref.arxiv_id == "2205.14135"
    assert ref.pages == "16344-16359"
    assert ref.label == "k"


def test_arxiv_eprint_fields() -> None:
    text = "@misc{k, title={T}, eprint={2001.08361}, archivePrefix={arXiv}, year=2020}"
    (ref,) = read_text(text, suffix=".bib").references
    assert ref.arxiv_id == "2001.08361"


def test_unbalanced_file_end_does_not_hang() -> None:
    text = "@article{k, title = {never closed " + "x" * 50_000
    result = parse_bibtex(text)
    assert result.entries == []
    assert result.errors


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='@{}(),="#%\\ \naticlerow0123456789', max_size=300))
def test_any_text_parses_without_raising(text: str) -> None:
    result = parse_bibtex(text)
    for entry in result.entries:
        entry_to_reference(entry)
