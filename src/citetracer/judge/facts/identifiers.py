"""Identifier facts: what the registries answered about each identifier the citation carries.

Read from the typed answers the collectors record (SourceOutcome.lookups, collect/lookups.py), never
from an outcome's text: a registry complete for an identifier that answered "no such identifier"
(doi.org with the DOI's registration agency, arXiv's API, an arXiv mirror declared complete for the
ids issued before its snapshot) is a fact; a registry that failed, or one that holds only part of the
identifiers of its kind, is a gap.
"""

from __future__ import annotations

from dataclasses import dataclass

from citetracer.collect.lookups import proven_absent
from citetracer.judge.context import JudgeContext
from citetracer.judge.facts.reading import doi_cut
from citetracer.normalize.text import canonical_arxiv, canonical_doi


@dataclass(frozen=True)
class AbsentIdentifier:
    """A cited identifier a complete registry says does not exist."""

    kind: str
    value: str
    registry: str
    why: str

    def sentence(self) -> str:
        names = {"doi": "the DOI", "arxiv": "arXiv:"}
        shown = f"{names.get(self.kind, self.kind)}{'' if self.kind == 'arxiv' else ' '}{self.value}"
        return f"{shown} does not exist ({self.registry} answered so; {self.why})"


def absent_identifier(ctx: JudgeContext, kind: str) -> AbsentIdentifier | None:
    """The cited DOI (kind "doi") or arXiv id ("arxiv") when a registry complete for it answered that it
    does not exist and nothing holds it, else None."""
    value = canonical_doi(ctx.reference.doi) if kind == "doi" else canonical_arxiv(ctx.reference.arxiv_id)
    if not value or (kind == "doi" and doi_cut(ctx.reference, value)):
        return None
    answer = proven_absent(ctx.bundle, kind, value)
    if answer is None:
        return None
    return AbsentIdentifier(kind, value, answer.registry, answer.why)
