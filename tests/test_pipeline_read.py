"""`Checker.read`: the one reading of an input every front end uses (a file, a paper fetched by its identifier
from a fake source on 127.0.0.1, a text), with `ref_pages` passed on to the PDF reader; `Checker.check` of what
it read is the report `Checker.check` gives for the input itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from citetracer.config import Settings
from citetracer.extract import InputError
from citetracer.pipeline import Checker, Paper
from citetracer.records import CitationResult
from tests.collect.test_paperfetch import Site, sites  # noqa: F401  (the fixture: a fake arXiv on 127.0.0.1)
from tests.scan.conftest import make_pdf

ROOT = Path(__file__).resolve().parents[1]
BIB = ROOT / "examples" / "references.bib"
TEXT = "[1] A. Author. A title of a paper. Some Venue, 2020.\n[2] B. Author. Another title. Other Venue, 2021.\n"


def offline(tmp_path: Path) -> Checker:
    return Checker(Settings(store=tmp_path / "store.sqlite", offline=True))


def test_a_file_is_read_under_its_path_with_its_warnings(tmp_path: Path) -> None:
    with offline(tmp_path) as checker:
        paper = checker.read(BIB)
        assert isinstance(paper, Paper) and paper.name == str(BIB) and paper.references
        named = checker.read(str(BIB), name="refs.bib")
        assert named.name == "refs.bib" and len(named.references) == len(paper.references)
        pages = checker.read(BIB, (1, 2))  # --ref-pages is for PDFs: said, and ignored
        assert any("--ref-pages applies to PDF input only" in w for w in pages.warnings)


def test_ref_pages_choose_a_pdfs_bibliography(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "paper.pdf", 1)  # its three references are on page 2
    with offline(tmp_path) as checker:
        assert checker.read(pdf).read.pages == [2] and len(checker.read(pdf).references) == 3
        assert checker.read(pdf, (1, 1)).references == []  # page 1 holds no reference


def test_a_missing_file_is_an_input_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.bib"
    with offline(tmp_path) as checker:
        with pytest.raises(InputError, match=r"nope\.bib: no such file"):
            checker.read(str(missing))
        with pytest.raises(FileNotFoundError):  # check() of a path keeps the API's contract
            checker.check(str(missing))
        with pytest.raises(TypeError):
            checker.read()
        with pytest.raises(TypeError):
            checker.read(BIB, text=TEXT)


def test_a_text_is_read_as_references(tmp_path: Path) -> None:
    with offline(tmp_path) as checker:
        paper = checker.read(text=TEXT)
        assert paper.name == "<text>" and [r.year for r in paper.references] == [2020, 2021]
        with pytest.raises(InputError, match="no references found"):
            checker.read(text="no references here")


def test_a_paper_named_by_its_identifier_is_fetched_and_read_with_ref_pages(
    tmp_path: Path,
    sites: tuple[Site, Site],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source, _ = sites
    monkeypatch.setenv("CITETRACER_ARXIV_URL", source.url)
    (tmp_path / "config.toml").write_text("")
    with Checker(store=tmp_path / "store.sqlite", config=tmp_path / "config.toml", offline=False) as checker:
        paper = checker.read(" arXiv:1706.03762 ")
        assert paper.name == "arXiv:1706.03762" and len(paper.references) == 3 and paper.read.pages == [2]
        assert "/pdf/1706.03762" in source.hits
        assert checker.read("arXiv:1706.03762", ref_pages=(1, 1)).references == []  # ref_pages reach the reader
    offline_checker = offline(tmp_path / "off")
    with offline_checker, pytest.raises(InputError):  # offline, nothing is fetched: an input error, as the CLI says
        offline_checker.read("arXiv:1706.03762")


def test_checking_what_was_read_is_checking_the_input(tmp_path: Path) -> None:
    """check(read(x)) is check(x), and with on_result the citations come one by one, in order, none kept."""
    with offline(tmp_path) as checker:
        whole = checker.check(BIB)
        paper = checker.read(BIB)
        again = checker.check(paper)
        got: list[CitationResult] = []
        streamed = checker.check(checker.read(BIB), on_result=got.append)
    assert [(c.id, c.verdict.code) for c in again.citations] == [(c.id, c.verdict.code) for c in whole.citations]
    assert again.input == whole.input == str(BIB)
    assert streamed.citations == [] and [(c.id, c.verdict.code) for c in got] == [
        (c.id, c.verdict.code) for c in whole.citations
    ]
    with offline(tmp_path) as checker, pytest.raises(TypeError):
        checker.check(paper, text=TEXT)
