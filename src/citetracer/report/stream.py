"""JSON and JSONL reports written citation by citation, as they are judged.

Why: holding every judged citation until the end cost ~20 KB each (20,000
citations: 430 MB), and the JSON document was then built whole once more.
These writers take each citation as the pipeline hands it over
(`Checker.check_read(on_result=...)`), write it and keep only the counts, so a
report costs the memory of the citations in flight. The JSON document is the
contract's (DESIGN.md: `citetracer`, `input`, `summary`, `warnings`,
`citations`, `llm` when agents ran); its keys come in another order (the
summary follows the citations it counts), which JSON readers ignore.
"""

from __future__ import annotations

import json
from typing import IO, Any

from citetracer.records import CitationResult, Report


class _Paper:
    """What is kept of one input's citations: counts, and the costs of those an agent reviewed."""

    def __init__(self, version: str, name: str) -> None:
        self.report = Report(version=version, input=name)
        self.counts = {"total": 0, "real": 0, "potential": 0, "hallucinated": 0}
        #: Citations an agent reviewed (a few per cent, only with an LLM): the `llm` totals read them.
        self.reviewed: list[CitationResult] = []

    def add(self, c: CitationResult) -> None:
        self.counts["total"] += 1
        self.counts[c.verdict.class_.lower()] += 1
        if c.cost.agents:
            self.reviewed.append(c)

    def llm(self) -> dict[str, Any] | None:
        if not self.reviewed:
            return None
        return self.report.model_copy(update={"citations": self.reviewed}).llm_totals()


class JsonlStream:
    """One CITATION per line (DESIGN.md), each written as soon as it is judged."""

    def __init__(self, out: IO[str], version: str) -> None:
        self.out = out
        self.version = version
        self.paper: _Paper | None = None
        self.hallucinated = False

    def begin(self, name: str) -> None:
        self.paper = _Paper(self.version, name)

    def citation(self, c: CitationResult) -> None:
        assert self.paper is not None
        self.paper.add(c)
        self.hallucinated = self.hallucinated or c.verdict.class_ == "Hallucinated"
        self.out.write(json.dumps(c.to_json_dict(), ensure_ascii=False) + "\n")

    def end(self, warnings: list[str]) -> None:
        self.out.flush()

    def close(self) -> None:
        self.out.flush()


class JsonStream(JsonlStream):
    """The JSON document of one input, or a list of them for several inputs, written as it goes."""

    def __init__(self, out: IO[str], version: str, many: bool) -> None:
        super().__init__(out, version)
        self.many = many
        self.papers = 0
        self.first = True
        if many:
            out.write("[\n")

    def begin(self, name: str) -> None:
        super().begin(name)
        if self.papers:
            self.out.write(",\n")
        self.papers += 1
        head = json.dumps({"citetracer": self.version, "input": name}, ensure_ascii=False, indent=2)
        self.out.write(head[:-2] + ',\n  "citations": [')
        self.first = True

    def citation(self, c: CitationResult) -> None:
        assert self.paper is not None
        self.paper.add(c)
        self.hallucinated = self.hallucinated or c.verdict.class_ == "Hallucinated"
        text = json.dumps(c.to_json_dict(), ensure_ascii=False, indent=2).replace("\n", "\n    ")
        self.out.write(("\n    " if self.first else ",\n    ") + text)
        self.first = False

    def end(self, warnings: list[str]) -> None:
        assert self.paper is not None
        tail: dict[str, Any] = {"summary": self.paper.counts, "warnings": warnings}
        llm = self.paper.llm()
        if llm is not None:
            tail["llm"] = llm
        rest = json.dumps(tail, ensure_ascii=False, indent=2)
        self.out.write(("\n  ]" if not self.first else "]") + ",\n" + rest[2:])
        self.out.flush()

    def close(self) -> None:
        self.out.write("\n]\n" if self.many else "\n")
        self.out.flush()
