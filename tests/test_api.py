"""The Python API is the same pipeline as the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

import citetracer
from citetracer.extract import InputError
from citetracer.store.db import Store
from tests.conftest import RECORDS


def test_check_path_and_text(tmp_path: Path) -> None:
    store_path = tmp_path / "s.sqlite"
    with Store(store_path) as s:
        s.upsert(RECORDS)
    settings = citetracer.Settings(store=store_path, offline=True, today_year=2026)
    bib = tmp_path / "a.bib"
    bib.write_text(
        "@article{lstm, title={Long Short-Term Memory}, author={Hochreiter, S. and Schmidhuber, J.}, "
        "journal={Neural Comput.}, year={1997}, volume={9}, number={8}, pages={1735--1780}}"
    )
    report = citetracer.check(bib, settings)
    assert report.summary() == {"total": 1, "real": 1, "potential": 0, "hallucinated": 0}
    assert report.citations[0].verdict.code in ("R1", "R2")
    text_report = citetracer.check(
        text="[1] S. Hochreiter and J. Schmidhuber. Long short-term memory. Neural Computation, 9(8):1735-1780, "
        "1997.\n",
        settings=settings,
    )
    assert text_report.citations[0].verdict.class_ == "Real"
    with pytest.raises(InputError):
        citetracer.check(text="no references here", settings=settings)


def test_check_and_checker_read_settings_like_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Config file < environment < keyword flags, exactly as the CLI reads them."""
    store_path = tmp_path / "env.sqlite"
    with Store(store_path) as s:
        s.upsert(RECORDS)
    config = tmp_path / "config.toml"
    config.write_text(f'store = "{tmp_path / "from-config.sqlite"}"\noffline = false\ntoday_year = 2030\n')
    monkeypatch.setenv("CITETRACER_CONFIG", str(config))
    monkeypatch.setenv("CITETRACER_STORE", str(store_path))
    monkeypatch.setenv("CITETRACER_OFFLINE", "1")
    with citetracer.Checker() as checker:
        assert checker.settings.store == store_path  # environment over the config file
        assert checker.settings.offline is True
        assert checker.settings.today_year == 2030  # the config file over the defaults
        assert [s.name for s in checker.stages] == ["memory"]  # offline: no online stage
    with citetracer.Checker(today_year=2026, closed_world=True) as checker:  # flags over both
        assert checker.settings.today_year == 2026 and checker.settings.closed_world
    other = tmp_path / "explicit.sqlite"
    with citetracer.Checker(store=other) as checker:
        assert checker.settings.store == other and checker.store.path == other

    bib = tmp_path / "a.bib"
    bib.write_text(
        "@article{lstm, title={Long Short-Term Memory}, author={Hochreiter, S. and Schmidhuber, J.}, "
        "journal={Neural Comput.}, year={1997}}"
    )
    report = citetracer.check(bib)  # the environment's store, offline: the record is found
    assert report.citations[0].verdict.class_ == "Real"
    assert citetracer.check(bib, store=other).citations[0].verdict.class_ == "Potential"  # an empty store
    with pytest.raises(TypeError):
        citetracer.Checker(citetracer.Settings(), offline=True)


def test_one_checker_for_many_inputs(tmp_path: Path) -> None:
    store_path = tmp_path / "s.sqlite"
    with Store(store_path) as s:
        s.upsert(RECORDS)
    seen: list[int] = []
    with citetracer.Checker(store=store_path, offline=True, today_year=2026) as checker:
        text = checker.check(
            text="[1] S. Hochreiter and J. Schmidhuber. Long short-term memory. Neural Computation, 1997.\n"
            "[2] K. He, X. Zhang, S. Ren, J. Sun. Deep residual learning for image recognition. "
            "CVPR, 2016.\n",
            on_done=seen.append,
        )
        assert [c.verdict.class_ for c in text.citations] == ["Real", "Real"]
        assert sorted(seen) == [0, 1]  # each citation reported as it was judged
        bib = tmp_path / "b.bib"
        bib.write_text(
            "@misc{x, title={Deep Residual Learning for Image Recognition}, author={He, Kaiming}, year=2016}"
        )
        assert checker.check(bib).input == str(bib)


def test_an_unknown_option_is_a_type_error_and_goes_nowhere(tmp_path: Path) -> None:
    """Issue 29: `check("refs.bib", ofline=True, storee="/x")` ran online on the default store."""
    bib = tmp_path / "a.bib"
    bib.write_text("@misc{x, title={Deep Residual Learning for Image Recognition}, author={He, Kaiming}, year=2016}")
    with pytest.raises(TypeError, match=r"'ofline' \(did you mean 'offline'\?\)"):
        citetracer.check(bib, ofline=True, storee=str(tmp_path / "x.sqlite"))
    with pytest.raises(TypeError, match="storee"):
        citetracer.Checker(store=tmp_path / "s.sqlite", storee="/x")
    with pytest.raises(TypeError, match="ofline"):
        citetracer.load_settings(ofline=True)
    assert not (tmp_path / "x.sqlite").exists()


def test_a_missing_path_is_file_not_found_and_text_is_explicit(tmp_path: Path) -> None:
    settings = citetracer.Settings(store=tmp_path / "s.sqlite", offline=True)
    with pytest.raises(FileNotFoundError) as missing:
        citetracer.check("nope.bib", settings)
    assert missing.value.filename == "nope.bib"
    with pytest.raises(FileNotFoundError, match="text="):
        citetracer.check("[1] A. Author. A title. Venue, 2020.\n[2] B. Author. Another. Venue, 2021.", settings)
    with pytest.raises(TypeError):
        citetracer.check(tmp_path / "a.bib", settings, text="[1] A. Author. A title. Venue, 2020.")
    with pytest.raises(TypeError):
        citetracer.check(settings=settings)


def test_the_api_goes_online_exactly_when_the_cli_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One rule for both front ends: online unless offline is asked for (flag, environment or config)."""
    from citetracer.cli import _parser
    from citetracer.cli.common import check_settings as _check_settings

    monkeypatch.setenv("CITETRACER_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("")
    monkeypatch.delenv("CITETRACER_OFFLINE", raising=False)
    store = str(tmp_path / "s.sqlite")

    def cli_offline(*flags: str) -> bool:
        return _check_settings(_parser().parse_args(["check", "x.bib", "--store", store, *flags])).offline

    def api_offline(**flags: object) -> bool:
        with citetracer.Checker(store=store, **flags) as checker:
            return checker.settings.offline

    assert cli_offline() is api_offline() is False
    assert cli_offline("--offline") is api_offline(offline=True) is True
    monkeypatch.setenv("CITETRACER_OFFLINE", "1")
    assert cli_offline() is api_offline() is True
    assert cli_offline("--online") is api_offline(offline=False) is False
    monkeypatch.delenv("CITETRACER_OFFLINE")
    (tmp_path / "none.toml").write_text("offline = true\n")
    assert cli_offline() is api_offline() is True


def test_an_offline_check_says_when_the_store_cannot_settle_anything(tmp_path: Path) -> None:
    bib = tmp_path / "a.bib"
    bib.write_text("@misc{x, title={Deep Residual Learning for Image Recognition}, author={He, Kaiming}, year=2016}")
    empty = citetracer.check(bib, store=tmp_path / "empty.sqlite", offline=True)
    # the store's warnings, apart from the paper's own (issue 47: never counted as the paper's)
    assert empty.store_warnings and empty.store_warnings[0].startswith("checks offline against an empty store")
    assert "citetracer mirror dblp" in empty.store_warnings[0] and empty.warnings == []
    partial = tmp_path / "partial.sqlite"
    with Store(partial) as s:
        s.upsert(RECORDS)
    [note] = citetracer.check(bib, store=partial, offline=True).store_warnings
    assert "holds no complete source" in note and "--complete-venues" in note
    with Store(partial) as s:
        s.set_source_complete(RECORDS[0].source)
    complete = citetracer.check(bib, store=partial, offline=True)
    assert complete.warnings == [] and complete.store_warnings == []


def test_plain_references_without_a_year_are_still_checked(tmp_path: Path) -> None:
    """Issue 29: 'has no year or identifier; not read as a reference' let a fabrication without a year escape."""
    store_path = tmp_path / "s.sqlite"
    with Store(store_path) as s:
        s.upsert(RECORDS)
    settings = citetracer.Settings(store=store_path, offline=True, today_year=2026)
    report = citetracer.check(
        text="S. Hochreiter and J. Schmidhuber. Long short-term memory. Neural Computation.\n"
        "E. Marchetti and C. Okafor. Quantum gradient routing for federated graph transformers. "
        "Journal of Machine Learning Research.\n"
        "We thank the anonymous reviewers for their helpful comments.\n",
        settings=settings,
    )
    real, invented = report.citations
    assert real.reference.year is None and real.verdict.class_ == "Real"
    assert invented.reference.year is None and invented.verdict.code == "P1"  # checked, not dropped, not accused
    assert any("2 entries have no year" in w for w in report.warnings)
    assert any("We thank the anonymous" in w and "not read as a reference" in w for w in report.warnings)
