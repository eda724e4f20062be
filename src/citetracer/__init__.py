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

import importlib
from typing import TYPE_CHECKING, Any

from citetracer.version import __version__

if TYPE_CHECKING:
    from citetracer.config import Settings, load_settings
    from citetracer.pipeline import Checker, Paper, check
    from citetracer.records import CitationResult, Reference, Report, Verdict

#: The API's names and their modules, imported on first use (PEP 562): every `import citetracer.x`, the CLI's
#: too, runs this file, and importing the whole checker (judge, cascade, matcher, connectors) here made
#: `citetracer mirror dblp` and the other commands that check nothing load it before they read a byte.
_LAZY = {
    "Settings": "citetracer.config",
    "load_settings": "citetracer.config",
    "Checker": "citetracer.pipeline",
    "Paper": "citetracer.pipeline",
    "check": "citetracer.pipeline",
    "CitationResult": "citetracer.records",
    "Reference": "citetracer.records",
    "Report": "citetracer.records",
    "Verdict": "citetracer.records",
}

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


def __getattr__(name: str) -> Any:
    """An API name, imported from its module the first time it is asked for."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'citetracer' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
