"""Screening many papers: `citetracer scan PATH... -o DIR`.

`inputs.py` finds the papers (folders, list files, zip/tar archives), `journal.py` keeps the
finished ones across runs, `pool.py` runs the workers, `work.py` is one paper inside a worker
(the pipeline's own `Checker.read` and `Checker.check`), `outputs.py` builds the reports, and `runner.py`
puts them in that order.
"""

from __future__ import annotations

from citetracer.scan.runner import ScanError, ScanOptions, ScanOutcome, run_scan

__all__ = ["ScanError", "ScanOptions", "ScanOutcome", "run_scan"]
