"""The Cascading Evidence Collector's driver: cheapest stage first, stop once Real.

It sits above the stages (collect/, match/, judge/), beside the pipeline that calls it:
after every evidence stage the rule matcher and the judgers run on the cumulative
bundle; the cascade stops at the first stage whose evidence supports Real,
so a citation found in the local store costs no connector call.

With an evidence memo (collect/memo.py), the online stages replay what the
sources answered about this citation before, while fresh, instead of asking again.

An optional `review` (the LLM agents, when configured) sees the final rule
verdict and its context once, after the last stage; without one the rules'
verdict is the answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from citetracer.collect.memo import EvidenceMemo, citation_subject
from citetracer.collect.scholar import volume_unread
from citetracer.collect.stage import AGENT_CALLS, Stage
from citetracer.evidence import EvidenceBundle
from citetracer.judge.context import JudgeContext
from citetracer.judge.router import judge, supports_real
from citetracer.match.rules import Assessment, assess_all
from citetracer.records import AgentCall, Reference, Verdict


@dataclass
class CascadeOutcome:
    verdict: Verdict
    bundle: EvidenceBundle
    assessments: list[Assessment]
    #: LLM agent calls made for this citation (empty when no agent ran).
    agent_calls: list[AgentCall] = field(default_factory=list)
    #: Whether the verdict is the rules' own (False when an agent's judgement replaced it).
    by_rules: bool = True


ContextFactory = Callable[[Reference, list[Assessment], EvidenceBundle, str], JudgeContext]
Review = Callable[[JudgeContext, Verdict], Awaitable[tuple[Verdict, list[AgentCall]]]]


async def run_cascade(
    reference: Reference,
    stages: Sequence[Stage],
    make_context: ContextFactory,
    review: Review | None = None,
    memo: EvidenceMemo | None = None,
) -> CascadeOutcome:
    """Check one reference: each stage adds evidence, the rules assess and judge the cumulative bundle, and the cascade
    stops at the first stage whose evidence supports Real; then the optional review sees the final verdict once.
    """
    bundle = EvidenceBundle(memo=memo, subject=citation_subject(reference) if memo is not None else None)
    verdict: Verdict | None = None
    ctx: JudgeContext | None = None
    assessments: list[Assessment] = []
    stage_calls: list[AgentCall] = []
    token = AGENT_CALLS.set(stage_calls)
    try:
        for i, stage in enumerate(stages):
            await stage.collect(reference, bundle)
            assessments = assess_all(reference, bundle.candidates)
            ctx = make_context(reference, assessments, bundle, stage.name)
            verdict = judge(ctx)
            # A Real that leaves a cited publisher or place unread goes on to the stage reading the volume:
            # a detail no record states is a gap a later stage can close (a fabricated one, a contradiction).
            if supports_real(verdict, ctx) and not (
                any(s.witnesses_volumes for s in stages[i + 1 :]) and volume_unread(reference, bundle)
            ):
                break
    finally:
        AGENT_CALLS.reset(token)
    if verdict is None or ctx is None:  # no stage configured at all
        ctx = make_context(reference, assessments, bundle, "none")
        verdict = judge(ctx)
    outcome = CascadeOutcome(verdict=verdict, bundle=bundle, assessments=assessments, agent_calls=stage_calls)
    if review is not None:
        reviewed, review_calls = await review(ctx, verdict)
        outcome.agent_calls = [*stage_calls, *review_calls]
        outcome.by_rules = reviewed.code == verdict.code and reviewed.class_ == verdict.class_
        outcome.verdict = reviewed
    return outcome
