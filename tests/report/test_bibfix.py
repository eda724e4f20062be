"""Corrected BibTeX: keys kept, Real entries completed from their record, flagged entries marked, none dropped."""

from __future__ import annotations

import io
from pathlib import Path

from citetracer.config import Settings
from citetracer.extract.readers.bibtex import parse_bibtex
from citetracer.pipeline import Checker
from citetracer.records import Report
from citetracer.report.bibfix import MARK, BibFixer, entry_comment
from citetracer.store.db import Store
from tests.report.conftest import BIB


def fix(reports: list[Report], sources: list[Path]) -> str:
    fixer = BibFixer()
    for r in reports:
        for c in r.citations:
            fixer.add(c)
    buf = io.StringIO()
    fixer.write(sources, buf)
    return buf.getvalue()


def entry_text(bib: str, key: str) -> str:
    entry = next(e for e in parse_bibtex(bib).entries if e.key == key)
    return bib[entry.start : entry.end]


def comment_before(bib: str, key: str) -> str | None:
    lines = bib.splitlines()
    i = next(n for n, line in enumerate(lines) if "{" + key + "," in line)
    return lines[i - 1] if i and lines[i - 1].startswith(MARK) else None


def test_keys_kept_real_completed_flagged_marked(checked_bib: tuple[Path, Report]) -> None:
    bib, report = checked_bib
    fixed = fix([report], [bib])
    before, after = parse_bibtex(BIB), parse_bibtex(fixed)
    assert [e.key for e in after.entries] == [e.key for e in before.entries]  # none dropped, none injected
    assert not after.errors
    # Real: the record's DOI is added; the author's own fields (and the @string macro) stay as written
    resnet = entry_text(fixed, "resnet")
    assert "doi       = {10.1109/CVPR.2016.90}" in resnet
    assert "booktitle = cvpr," in resnet
    assert comment_before(fixed, "resnet") == f"{MARK}Real R1: added doi from test:resnet."
    # Hallucinated: unchanged, marked with the reason
    assert entry_text(fixed, "lstm_wrong_authors") == entry_text(BIB, "lstm_wrong_authors")
    mark = comment_before(fixed, "lstm_wrong_authors")
    assert mark and mark.startswith(f"{MARK}HALLUCINATED (H3): 2 of 3 cited authors did not write this work")
    assert entry_text(fixed, "fabricated") == entry_text(BIB, "fabricated")
    # Potential: unchanged, with a note to check it
    assert (comment_before(fixed, "thesis") or "").startswith(f"{MARK}Potential (P1): ")
    # Real with nothing to add: no comment, entry unchanged
    assert comment_before(fixed, "evil_link") is None and entry_text(fixed, "evil_link") == entry_text(BIB, "evil_link")
    # everything outside the entries is kept
    assert fixed.startswith("% a comment the fixer must keep\n@string{cvpr = ")


def test_fixing_a_fixed_file_changes_no_entry_and_piles_up_no_comments(
    checked_bib: tuple[Path, Report], hostile_store: Store, tmp_path: Path
) -> None:
    bib, report = checked_bib
    once = tmp_path / "once.bib"
    once.write_text(fix([report], [bib]), encoding="utf-8")
    settings = Settings(store=hostile_store.path, offline=True, today_year=2026, remember_verified=False)
    again = Checker(settings, store=hostile_store).check(once)
    twice = fix([again], [once])
    first = once.read_text(encoding="utf-8")
    for e in parse_bibtex(first).entries:
        assert entry_text(twice, e.key) == entry_text(first, e.key)
    flagged = sum(1 for c in report.citations if c.verdict.class_ != "Real")
    assert twice.count(MARK) == flagged  # the Real entry is complete now: its note is gone, none doubled


def test_the_fixed_file_checks_real_where_it_was_real(
    checked_bib: tuple[Path, Report], hostile_store: Store, tmp_path: Path
) -> None:
    bib, report = checked_bib
    fixed = tmp_path / "fixed.bib"
    fixed.write_text(fix([report], [bib]), encoding="utf-8")
    settings = Settings(store=hostile_store.path, offline=True, today_year=2026, remember_verified=False)
    again = Checker(settings, store=hostile_store).check(fixed)
    assert {c.id: c.verdict.class_ for c in again.citations} == {c.id: c.verdict.class_ for c in report.citations}
    resnet = next(c for c in again.citations if c.id == "resnet")
    assert resnet.reference.doi == "10.1109/cvpr.2016.90"


def test_a_comment_never_starts_an_entry(checked_bib: tuple[Path, Report]) -> None:
    _, report = checked_bib
    c = next(c for c in report.citations if c.verdict.class_ == "Hallucinated")
    hostile = c.model_copy(
        update={"verdict": c.verdict.model_copy(update={"rationale": "H1: see\n@misc{evil, title={x}}"})}
    )
    comment = entry_comment(hostile, [])
    assert comment is not None and comment.count("\n") == 1 and "@" not in comment
    assert not parse_bibtex(comment).entries


def test_a_real_citation_of_another_version_is_left_as_cited(tmp_path: Path, store: Store) -> None:
    """The arXiv version cited, the published one found: its pages or venue must not be mixed in."""
    bib = tmp_path / "a.bib"
    text = (
        "@article{adam,\n  title = {Adam: A Method for Stochastic Optimization},\n"
        "  author = {Kingma, Diederik P. and Ba, Jimmy},\n  journal = {arXiv preprint arXiv:1412.6980},\n"
        "  year = {2014}\n}\n"
    )
    bib.write_text(text)
    settings = Settings(store=store.path, offline=True, today_year=2026, remember_verified=False)
    report = Checker(settings, store=store).check(bib)
    assert report.citations[0].verdict.class_ == "Real"
    assert any(fc.status == "mismatch" for fc in report.citations[0].comparisons)
    assert fix([report], [bib]) == text


def test_a_flagged_entry_says_what_the_record_has(checked_bib: tuple[Path, Report]) -> None:
    bib, report = checked_bib
    mark = comment_before(fix([report], [bib]), "lstm_wrong_authors") or ""
    assert "The record test:lstm has authors = Sepp Hochreiter; Jürgen Schmidhuber." in mark
    # a fabricated work's nearest record is another work: nothing is suggested from it
    assert "The record" not in (comment_before(fix([report], [bib]), "fabricated") or "")
