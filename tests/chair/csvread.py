"""Reading a CSV the tool wrote as the usual tools do: `csv.DictReader` and pandas (issue 44)."""

from __future__ import annotations

import csv
import importlib.util
import io
from pathlib import Path

#: pandas is a dev dependency (pyproject.toml); without it the CSVs are still read by `csv.DictReader`, and
#: tests/chair/test_plain_csv.py's pandas test is skipped, saying so.
HAVE_PANDAS = importlib.util.find_spec("pandas") is not None


def read_both(path: Path | str, columns: tuple[str, ...] | None = None) -> list[dict[str, str]]:
    """The rows of a CSV file (or its text) by `csv.DictReader`, after checking that pandas reads the same
    header and the same cells, and that the header is `columns` when given: a comment line before the header,
    or a row with a cell too many, fails here."""
    text = path.read_text(encoding="utf-8") if isinstance(path, Path) else path
    reader = csv.DictReader(io.StringIO(text, newline=""))
    rows = list(reader)
    header = list(reader.fieldnames or [])
    if columns is not None:
        assert header == list(columns), header
    assert all(None not in r for r in rows), "a row has more cells than the header"
    if not HAVE_PANDAS:
        return rows
    import pandas

    frame = pandas.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    assert list(frame.columns) == header
    assert len(frame) == len(rows)
    assert frame.to_dict("records") == rows
    return rows
