"""The agents' hook into the cascade: which citations they see, and which judger gets each.

The rules always judge first (judge.router.judge). `rules_unresolved` names
the verdicts the rules could not settle with confidence; only those reach the
Matcher Agent and then one LLM judger, chosen by `route` from the residual
profile. Everything else keeps its rule verdict and costs no LLM call.

The review runs once per citation, after the cascade, on the cumulative
bundle: an agent is the most expensive step, so it never runs between stages.
"""

from __future__ import annotations

from citetracer.judge import agent_guardrails as guardrails
from citetracer.judge.agents import JUDGERS, ask_judger
from citetracer.judge.context import JudgeContext
from citetracer.judge.facts.identity import work_of
from citetracer.judge.router import CONFIDENCE, evidence_entry
from citetracer.llm.client import LLMClient
from citetracer.llm.schemas import FieldLabel, JudgerReply
from citetracer.match.agent import label_residuals, rule_profile, shown_candidates
from citetracer.match.rules import Assessment
from citetracer.records import AgentCall, Verdict
from citetracer.taxonomy import class_of
from citetracer.thresholds import (
    MAX_AGENT_CONFIDENCE,
    NEAR_MISS_CERTAIN,
    NEIGHBOUR_TITLE_SIMILARITY,
    SAME_AUTHORS_OVERLAP,
)

#: Fields whose contradiction sends a case to the Hallucinated judger.
IDENTITY_FIELDS = frozenset({"title", "authors", "venue", "year", "doi", "arxiv_id"})


def rules_unresolved(ctx: JudgeContext, verdict: Verdict) -> str | None:
    """Why the rules' verdict needs a second look, or None when the rules settled it.

    Unresolved:
    - P3: a real work matches with conflicts an honest author could cause.
    - P1 with candidates: nothing has the cited title, but a candidate is close
      (title similarity >= 0.5, or by the cited authors).
    - H2 below NEAR_MISS_CERTAIN: a near-miss title that is only fairly similar.
    - H1 resting only on author-year neighbours: the cited authors' other works
      were found, none with this title.
    - H3 from given-name conflicts alone: every cited family name is an author.
    Settled, never sent: every Real verdict, future dates, identifier (DOI, arXiv)
    contradictions, chimeras, placeholder or substituted authors with no overlap,
    H1 with no candidate at all, P1 and P2 without candidates.
    """
    codes = set(verdict.codes)
    if verdict.class_ == "Real" or guardrails.identifier_contradiction(ctx, verdict) or "H6" in codes:
        return None
    ref = ctx.reference
    if ref.year is not None and ref.year > ctx.today_year:
        return None
    code = verdict.code
    if code == "P3":
        return "the rules found a matching work with conflicts an honest author could cause (P3)"
    if code == "P1":
        near = [
            a
            for a in ctx.assessments
            if a.title_similarity >= NEIGHBOUR_TITLE_SIMILARITY
            or (a.authors is not None and a.authors.overlap >= SAME_AUTHORS_OVERLAP)
        ]
        return "no record has the cited title, but close candidates exist (P1)" if near else None
    if code == "H2":
        best = max((a.title_similarity for a in ctx.assessments), default=0.0)
        return "the near-miss title is only fairly similar (H2)" if best < NEAR_MISS_CERTAIN else None
    if code == "H1":
        return "the fabrication verdict rests only on the cited authors' other works (H1)" if verdict.evidence else None
    if code == "H3":
        work = work_of(ctx)
        cmp = work.authors if work else None
        if cmp is not None and cmp.given_conflicts >= 1 and cmp.matched + cmp.given_conflicts >= cmp.cited:
            return "the author conflict is only in given names (H3)"
    return None


def route(labels: list[FieldLabel]) -> str:
    """The judger for a residual profile: contradictions -> hallucinated, only benign -> valid, else potential."""
    if any(lab.label == "contradiction" and lab.field in IDENTITY_FIELDS for lab in labels):
        return "hallucinated"
    if labels and all(lab.label != "contradiction" for lab in labels) and any(lab.candidate_ids for lab in labels):
        return "valid"
    return "potential"


class AgentReviewer:
    """Reviews the rules' verdict of an unresolved citation with the Matcher Agent and one judger."""

    def __init__(self, client: LLMClient) -> None:
        self.client = client

    async def review(self, ctx: JudgeContext, verdict: Verdict) -> tuple[Verdict, list[AgentCall]]:
        """The agents' verdict for a citation the rules left unresolved (Matcher Agent, then one judger), else the
        rules' verdict unchanged; with every agent call made.
        """
        why = rules_unresolved(ctx, verdict)
        if why is None:
            return verdict, []
        shown = shown_candidates(ctx.assessments)
        labels, matcher_call = await label_residuals(self.client, ctx.reference, shown, verdict)
        calls = [matcher_call]
        notes = []
        if labels is None:
            labels = rule_profile(shown)
            notes.append(f"Matcher Agent: {matcher_call.status}, rule residuals used")
        spec = JUDGERS[route(labels)]
        reply, judger_call = await ask_judger(self.client, spec, ctx.reference, shown, labels, verdict)
        calls.append(judger_call)
        if reply is None:
            notes.append(f"{spec.name} judger: {judger_call.status} ({judger_call.detail}); the rules' verdict stands")
            return _annotated(verdict, notes), calls
        decision = guardrails.check_judgement(reply, ctx, shown, labels, verdict)
        if decision.code is None:
            judger_call.status, judger_call.detail = "rejected", decision.refused
            notes.append(f"{spec.name} judger said {reply.code}, refused: {decision.refused}")
            notes.append("the rules' verdict stands")
            return _annotated(verdict, notes), calls
        if (class_of(decision.code), decision.code) == (verdict.class_, verdict.code):
            # Agreement: the rules' verdict keeps its evidence and reason; the judger's is added.
            who = f"LLM {spec.name} judger ({judger_call.prompt}, {judger_call.model})"
            notes.append(f"{who} agrees: {' '.join(reply.rationale.split())}")
            return _annotated(verdict, notes), calls
        return _agent_verdict(reply, decision.code, ctx, shown, verdict, judger_call, notes), calls


def _annotated(verdict: Verdict, notes: list[str]) -> Verdict:
    return verdict.model_copy(update={"rationale": f"{verdict.rationale} [agents: {'; '.join(notes)}]"})


def _agent_verdict(
    reply: JudgerReply,
    code: str,
    ctx: JudgeContext,
    shown: dict[str, Assessment],
    rules: Verdict,
    call: AgentCall,
    notes: list[str],
) -> Verdict:
    codes = [code] + [c for c in reply.all_codes() if c != reply.code and c != code and class_of(c) == class_of(code)]
    support = [shown[i].candidate for i in reply.supporting_candidate_ids]
    who = f"LLM {call.agent.replace('_', ' ')}, prompt {call.prompt}, model {call.model}"
    extra = f"; {'; '.join(notes)}" if notes else ""
    rationale = " ".join(reply.rationale.split())
    return Verdict(
        **{"class": class_of(code)},
        code=code,
        codes=codes,
        fields=list(dict.fromkeys(reply.offending_fields)),
        evidence=[evidence_entry(c) for c in support],
        stage=ctx.stage,
        rationale=f"{code}: {rationale} [{who}; the rules said {rules.code}{extra}]",
        confidence=min(CONFIDENCE[code], MAX_AGENT_CONFIDENCE),
    )
