"""Matcher Agent: labels the residual differences the rule matcher left, citing candidates.

It sees the reference and the best few candidates with the rules' own field
statuses (all quoted as data), and returns, per field that still differs, one
of normalizable / candidate_missing / reference_missing / contradiction with
the candidate ids it is about. Labels citing unknown candidates are dropped.
Without a valid reply the deterministic residuals of the rule matcher stand
(`rule_profile`), exactly as when no LLM is configured.
"""

from __future__ import annotations

from typing import Any

from citetracer.llm.client import LLMClient
from citetracer.llm.prompts import load_prompt
from citetracer.llm.schemas import FieldLabel, MatcherReply
from citetracer.llm.untrusted import quote, reference_data
from citetracer.match.rules import Assessment
from citetracer.records import AgentCall, Candidate, Reference, Verdict

#: Candidates shown to the agents: the best by the rules' identity score.
MAX_CANDIDATES = 5


def shown_candidates(assessments: list[Assessment]) -> dict[str, Assessment]:
    """Short ids (C1, C2, ...) for the candidates the agents may cite."""
    return {f"C{i}": a for i, a in enumerate(assessments[:MAX_CANDIDATES], 1)}


def candidate_data(cid: str, a: Assessment) -> dict[str, Any]:
    """A candidate as the agents are shown it: its id for citing, its fields and the rules' field statuses."""
    c: Candidate = a.candidate
    record = {
        "id": cid,
        "source": c.source,
        "title": c.title,
        "authors": [p.display() for p in c.authors] + (["et al."] if c.authors_truncated else []),
        "venue": c.venue_full or c.venue,
        "year": c.year,
        "doi": c.doi,
        "arxiv_id": c.arxiv_id,
        "pages": c.pages,
        "type": c.type,
        "rules": {name: cmp.status.value for name, cmp in a.fields.items()},
        "title_similarity": round(a.title_similarity, 2),
    }
    return {k: v for k, v in record.items() if v not in (None, "", [])}


def case_data(ref: Reference, shown: dict[str, Assessment], rules: Verdict) -> dict[str, Any]:
    """The whole case the agents see: the reference, the shown candidates and the rules' verdict with its reasons."""
    return {
        "reference": reference_data(ref),
        "candidates": [candidate_data(cid, a) for cid, a in shown.items()],
        "rules_verdict": {"code": rules.code, "codes": rules.codes, "fields": rules.fields, "why": rules.rationale},
    }


def rule_profile(shown: dict[str, Assessment]) -> list[FieldLabel]:
    """The rule matcher's own residual labels for the best candidate (the no-LLM profile)."""
    if not shown:
        return []
    cid, best = next(iter(shown.items()))
    return [
        FieldLabel(field=name, label=cmp.residual.value, candidate_ids=[cid], note=cmp.note or "")
        for name, cmp in best.fields.items()
        if cmp.residual is not None
    ]


async def label_residuals(
    client: LLMClient, ref: Reference, shown: dict[str, Assessment], rules: Verdict
) -> tuple[list[FieldLabel] | None, AgentCall]:
    """The agent's residual profile (None without a valid reply) and the call's record."""
    prompt = load_prompt("matcher")
    user = "Label the residual differences of this case.\n" + quote("case", case_data(ref, shown, rules))
    result = await client.ask("matcher", prompt, MatcherReply, user)
    if result.value is None:
        return None, result.call
    labels = [
        lab.model_copy(update={"candidate_ids": [i for i in lab.candidate_ids if i in shown]})
        for lab in result.value.fields
    ]
    return [lab for lab in labels if lab.candidate_ids or lab.label == "reference_missing"], result.call
