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
        "[1] S. Hochreiter and J. Schmidhuber. Long short-term memory. Neural Computation, 9(8):1735-1780, 1997.\n",
        settings,
    )
    assert text_report.citations[0].verdict.class_ == "Real"
    with pytest.raises(InputError):
        citetracer.check("no references here", settings)
