"""The three class-specialist LLM judgers: Valid, Potential, Hallucinated.

Each has its own prompt, its own reply schema (the classes it may return) and
its own evidence threshold, enforced by `guardrails.check_judgement`:

- valid judger: Real (R2, R3) or Potential. Real needs a cited candidate that is the
  same work by the rules' measures (title similarity >= 85% or a matching identifier,
  half the cited authors) and no identifier contradiction; R1 stays the rules' alone.
- potential judger: Potential (P1-P3). P3 needs a cited candidate.
- hallucinated judger: Hallucinated or Potential. H2-H6 need a cited candidate that
  contradicts an offending field, and what the code means (H2: a work by the cited
  authors with a title >= 75% similar; H3/H4: the cited work itself; H5: an identifier
  mismatch; H6: two different works); H1 needs a covered search that did not fail
  and no candidate with the cited title.

A judger's answer becomes the verdict only when it validates and meets its
threshold; otherwise the rules' verdict stands and its rationale says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from citetracer.llm.client import LLMClient
from citetracer.llm.prompts import load_prompt
from citetracer.llm.schemas import (
    FieldLabel,
    HallucinatedJudgerReply,
    JudgerReply,
    PotentialJudgerReply,
    ValidJudgerReply,
)
from citetracer.llm.untrusted import quote
from citetracer.match.agent import case_data
from citetracer.match.rules import Assessment
from citetracer.records import AgentCall, Reference, Verdict


@dataclass(frozen=True)
class JudgerSpec:
    name: str
    prompt: str
    schema: type[JudgerReply]


JUDGERS: dict[str, JudgerSpec] = {
    "valid": JudgerSpec("valid", "valid_judger", ValidJudgerReply),
    "potential": JudgerSpec("potential", "potential_judger", PotentialJudgerReply),
    "hallucinated": JudgerSpec("hallucinated", "hallucinated_judger", HallucinatedJudgerReply),
}


async def ask_judger(
    client: LLMClient,
    spec: JudgerSpec,
    ref: Reference,
    shown: dict[str, Assessment],
    labels: list[FieldLabel],
    rules: Verdict,
) -> tuple[JudgerReply | None, AgentCall]:
    """The judger's validated reply (None when it gave none) and the call's record."""
    case = case_data(ref, shown, rules)
    case["matcher_labels"] = [lab.model_dump() for lab in labels]
    user = "Judge this citation.\n" + quote("case", case)
    result = await client.ask(f"{spec.name}_judger", load_prompt(spec.prompt), spec.schema, user)
    return result.value, result.call
