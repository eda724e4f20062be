"""citetracer: find hallucinated references in scientific papers.

Python API::

    import citetracer
    report = citetracer.check("paper.bib")
    for c in report.citations:
        print(c.id, c.verdict.class_, c.verdict.code, c.verdict.rationale)
"""

from __future__ import annotations

__version__ = "0.1.0"

from citetracer.config import Settings, load_settings
from citetracer.pipeline import check
from citetracer.records import CitationResult, Reference, Report, Verdict

__all__ = ["CitationResult", "Reference", "Report", "Settings", "Verdict", "__version__", "check", "load_settings"]
