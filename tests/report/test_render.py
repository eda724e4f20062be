"""Human-readable reports show every citation's verdict and reason, with untrusted text kept literal."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from citetracer.records import CitationResult, Reference, Report, Verdict
from citetracer.report.held import HeldText
from citetracer.report.render import print_table, write_markdown


def _report() -> Report:
    ref = Reference(title="[bold]Injected[/bold] | markup", label="k1", year=2020)
    verdict = Verdict(
        **{"class": "Hallucinated"}, code="H1", codes=["H1"], rationale="H1: no work [x:y] has this title."
    )
    return Report(version="t", input="in.bib", citations=[CitationResult(id="k1", reference=ref, verdict=verdict)])


def test_terminal_table_keeps_brackets_literal() -> None:
    buf = io.StringIO()
    print_table(_report(), Console(file=buf, width=120, color_system=None))
    out = buf.getvalue()
    assert "[bold]Injected[/bold]" in out and "[x:y]" in out
    assert "1 citations: 0 Real, 0 Potential, 1 Hallucinated" in out


def test_markdown_escapes_table_pipes() -> None:
    buf = io.StringIO()
    write_markdown(_report(), buf)
    assert "markup \\| " not in buf.getvalue().split("|---|")[0]
    assert "\\| markup" in buf.getvalue()


def test_markdown_keeps_html_and_markdown_of_titles_and_venues_inert() -> None:
    ref = Reference(
        title='<img src="http://e.example/x.png"> and [click](http://e.example)',
        venue="![i](x)",
        label="k<1>",
        year=2020,
    )
    verdict = Verdict(
        **{"class": "Hallucinated"},
        code="H1",
        codes=["H1"],
        rationale="H1: no work titled '<script>x</script>' in **Venue** `v`.",
    )
    report = Report(
        version="t", input="<b>in</b>.bib", citations=[CitationResult(id="k<1>", reference=ref, verdict=verdict)]
    )
    report.warnings = ["see [here](http://e.example)"]
    buf = io.StringIO()
    write_markdown(report, buf)
    text = buf.getvalue()
    for raw in ("<img", "<script", "<b>", "](http", "![", "**Venue**", "`v`", "k<1>"):
        assert raw not in text, raw
    assert "&lt;img src=" in text and "\\[click\\]\\(http://e.example\\)" in text
    assert "**Hallucinated**" in text  # the report's own emphasis stays


def test_markdown_rows_spilled_to_disk_read_as_kept_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows wait in a temporary file for the counts that head the comment: past its memory size
    they are on disk, and the comment is the same."""
    refs = [Reference(title=f"Päper {i} | ü", label=f"k{i}", year=2020) for i in range(300)]
    citations = [
        CitationResult(
            id=f"k{i}",
            reference=r,
            verdict=Verdict(
                **{"class": "Hallucinated" if i % 3 else "Real"},
                code="H1" if i % 3 else "R1",
                codes=["H1" if i % 3 else "R1"],
                rationale="H1: none.",
            ),
        )
        for i, r in enumerate(refs)
    ]
    report = Report(version="t", input="in.bib", citations=citations, warnings=["w"])
    in_memory = io.StringIO()
    write_markdown(report, in_memory)
    monkeypatch.setattr(HeldText, "LIMIT", 100)
    spilled = io.StringIO()
    write_markdown(report, spilled)
    assert spilled.getvalue() == in_memory.getvalue()
    text = in_memory.getvalue()
    assert "300 citations: 100 Real, 0 Potential, 200 Hallucinated." in text
    assert text.count("| **Hallucinated** |") == 200 and "Not listed: 100 Real." in text


def test_jsonl_lines_of_a_pdf_carry_its_reading_and_a_pdf_without_a_list_is_one_line() -> None:
    """JSONL is read line by line, so each line of a PDF's citations carries its paper's reading beside the CITATION's
    own keys (which stay as they were); a PDF in which no list was found is one line saying so, not no line."""
    import json

    from citetracer.records import ReadingSummary
    from citetracer.report.render import write_jsonl

    report = _report()
    report.reading = ReadingSummary(
        pages=[9, 10], references=1, low_confidence=1, summary="1 reference from pages 9-10"
    )
    out = io.StringIO()
    write_jsonl(report, out)
    (line,) = map(json.loads, out.getvalue().splitlines())
    assert line["id"] == "k1" and line["verdict"]["code"] == "H1"
    assert line["reading"] == {**report.reading.model_dump(), "searched": []}
    none = Report(version="t", input="slides.pdf", warnings=["no bibliography found"])
    none.reading = ReadingSummary(searched=[1, 2], summary="no reference list found in the PDF (pages 1-2 searched)")
    out = io.StringIO()
    write_jsonl(none, out)
    (line,) = map(json.loads, out.getvalue().splitlines())
    assert "id" not in line and line["input"] == "slides.pdf" and line["reading"]["references"] == 0
    assert line["reading"]["searched"] == [1, 2] and line["warnings"] == ["no bibliography found"]


def test_markdown_and_table_say_no_list_was_found_instead_of_an_empty_table() -> None:
    from citetracer.records import ReadingSummary

    none = Report(version="t", input="slides.pdf")
    none.reading = ReadingSummary(searched=[1, 2], summary="no reference list found in the PDF (pages 1-2 searched)")
    md = io.StringIO()
    write_markdown(none, md)
    assert "**No reference list found in the PDF \\(pages 1-2 searched\\): nothing was checked" in md.getvalue()
    assert "0 citations" not in md.getvalue()
    buf = io.StringIO()
    print_table(none, Console(file=buf, width=200, color_system=None))
    assert "slides.pdf: No reference list found in the PDF (pages 1-2 searched)" in buf.getvalue()
    assert "┃ id" not in buf.getvalue() and "0 citations" not in buf.getvalue()
