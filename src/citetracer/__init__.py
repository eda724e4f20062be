"""citetracer: find hallucinated references in scientific papers.

Python API (settings read like the CLI's: config file, environment, then keyword flags)::

    import citetracer
    report = citetracer.check("paper.bib", offline=True)
    for c in report.citations:
        print(c.id, c.verdict.class_, c.verdict.code, c.verdict.rationale)

    with citetracer.Checker(store="store.sqlite") as checker:   # one store, many papers
        reports = [checker.check(path) for path in ("a.pdf", "b.bib")]
        paper = checker.read("arXiv:1706.03762")                  # read, then check citation by citation
        checker.check(paper, on_result=lambda c: print(c.id, c.verdict.code))
"""

from __future__ import annotations

from citetracer.config import Settings, load_settings
from citetracer.pipeline import Checker, Paper, check
from citetracer.records import CitationResult, Reference, Report, Verdict
from citetracer.version import __version__

__all__ = [
    "Checker",
    "CitationResult",
    "Paper",
    "Reference",
    "Report",
    "Settings",
    "Verdict",
    "__version__",
    "check",
    "load_settings",
]
