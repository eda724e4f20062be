"""SARIF 2.1.0: valid against the official schema, a rule per code, each entry at its file and line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema

from citetracer.config import Settings
from citetracer.pipeline import Checker
from citetracer.records import Report
from citetracer.report.sarif import RULES, SarifWriter
from citetracer.store.db import Store
from tests.report.conftest import BIB

SCHEMA = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def sarif_of(reports: list[Report], base: Path) -> dict:
    buf = io.StringIO()
    writer = SarifWriter(buf, base_dir=base)
    writer.begin()
    for r in reports:
        for c in r.citations:
            writer.add(r.input, c)
    writer.note("other.pdf: not checked")
    writer.end()
    return json.loads(buf.getvalue())


def validate(doc: dict) -> None:
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER).validate(doc)


def line_of(text: str, key: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if "{" + key + "," in line)


def test_bib_results_validate_and_point_at_each_entry(checked_bib: tuple[Path, Report]) -> None:
    bib, report = checked_bib
    doc = sarif_of([report], bib.parent)
    validate(doc)
    run = doc["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == list(RULES)
    assert set(RULES) == {"P1", "P2", "P3", "H1", "H2", "H3", "H4", "H5", "H6"}
    flagged = [c for c in report.citations if c.verdict.class_ != "Real"]
    assert len(run["results"]) == len(flagged)  # Real citations give no result
    by_key = {r["message"]["text"].split(":")[0]: r for r in run["results"]}
    for c in flagged:
        result = by_key[c.id]
        assert result["ruleId"] == c.verdict.code
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == c.verdict.code
        assert result["level"] == ("error" if c.verdict.class_ == "Hallucinated" else "warning")
        loc = result["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": "refs.bib", "uriBaseId": "SRCROOT"}
        assert loc["region"]["startLine"] == line_of(BIB, c.id)
    assert by_key["lstm_wrong_authors"]["properties"]["fields"] == ["authors"]
    assert run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"] == "other.pdf: not checked"


def test_tex_naming_bib_files_points_into_the_bib(tmp_path: Path, hostile_store: Store) -> None:
    (tmp_path / "sub").mkdir()
    bib = tmp_path / "sub" / "library.bib"
    bib.write_text(BIB, encoding="utf-8")
    tex = tmp_path / "paper.tex"
    tex.write_text("\\documentclass{article}\\begin{document}\\cite{x}\\bibliography{sub/library}\\end{document}\n")
    settings = Settings(store=hostile_store.path, offline=True, today_year=2026, remember_verified=False)
    report = Checker(settings, store=hostile_store).check(tex)
    doc = sarif_of([report], tmp_path)
    validate(doc)
    fabricated = next(r for r in doc["runs"][0]["results"] if r["message"]["text"].startswith("fabricated:"))
    loc = fabricated["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "sub/library.bib"
    assert loc["region"]["startLine"] == line_of(BIB, "fabricated")


def test_a_bibitem_list_and_files_outside_the_base(tmp_path: Path, hostile_store: Store) -> None:
    bbl = tmp_path / "paper.bbl"
    bbl.write_text(
        "\\begin{thebibliography}{1}\n\n\\bibitem{ok}\nK. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for "
        "image recognition. In CVPR, 2016.\n\n\\bibitem{lstm}\nS. Hochreiter, Y. Bengio and Y. LeCun. Long "
        "short-term memory. Neural Computation, 9(8):1735-1780, 1997.\n\\end{thebibliography}\n"
    )
    settings = Settings(store=hostile_store.path, offline=True, today_year=2026, remember_verified=False)
    report = Checker(settings, store=hostile_store).check(bbl)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    doc = sarif_of([report], elsewhere)
    validate(doc)
    results = doc["runs"][0]["results"]
    assert results, [c.verdict for c in report.citations]
    loc = results[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == bbl.resolve().as_uri() and "uriBaseId" not in loc["artifactLocation"]
    assert loc["region"]["startLine"] == 6  # the line of \bibitem{lstm}


def test_the_validator_catches_a_broken_document(checked_bib: tuple[Path, Report]) -> None:
    """The schema check is real: a result without a message is refused."""
    bib, report = checked_bib
    doc = sarif_of([report], bib.parent)
    del doc["runs"][0]["results"][0]["message"]
    try:
        validate(doc)
    except jsonschema.ValidationError as exc:
        assert "message" in str(exc)
    else:
        raise AssertionError("an invalid SARIF document passed validation")


def test_a_pdfs_reading_is_in_the_run_properties_and_a_notification_at_the_pdf(tmp_path: Path) -> None:
    """Each PDF's reading goes in the run's property bag and is a notification at the PDF: `note` for a sure
    reading, `warning` when entries were read with low confidence, `error` when no list was found (the log stays
    valid SARIF 2.1.0)."""
    from citetracer.records import ReadingSummary
    from citetracer.report.sarif import READING_NOTE

    sure = ReadingSummary(pages=[9], references=3, summary="3 references from page 9")
    doubtful = ReadingSummary(pages=[9, 10], references=5, low_confidence=2, summary="5 references (2 read with...)")
    none = ReadingSummary(searched=[1, 2], summary="no reference list found in the PDF (pages 1-2 searched)")
    buf = io.StringIO()
    writer = SarifWriter(buf, base_dir=tmp_path)
    writer.begin()
    for name, reading in (("a.pdf", sure), ("b.pdf", doubtful), ("c.pdf", none)):
        writer.reading(str(tmp_path / name), reading)
    writer.end()
    doc = json.loads(buf.getvalue())
    validate(doc)
    run = doc["runs"][0]
    readings = run["properties"]["readings"]
    assert [(r["references"], r["low_confidence"], r["pages"]) for r in readings] == [
        (3, 0, [9]),
        (5, 2, [9, 10]),
        (0, 0, []),
    ]
    assert readings[2]["searched"] == [1, 2] and readings[0]["input"] == str(tmp_path / "a.pdf")
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [n["level"] for n in notes] == ["note", "warning", "error"]
    assert all(n["descriptor"]["id"] == READING_NOTE for n in notes)
    assert notes[2]["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "c.pdf", "uriBaseId": "SRCROOT"}
    assert notes[2]["message"]["text"].endswith("c.pdf: no reference list found in the PDF (pages 1-2 searched)")
