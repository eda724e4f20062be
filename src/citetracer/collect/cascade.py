"""The Cascading Evidence Collector's driver: cheapest stage first, stop once Real.

After every stage the rule matcher and the judgers run on the cumulative
bundle; the cascade stops at the first stage whose evidence supports Real,
so a citation found in the local store costs no connector call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from citetracer.collect.stage import EvidenceBundle, Stage
from citetracer.judge.context import JudgeContext
from citetracer.judge.router import judge, supports_real
from citetracer.match.rules import Assessment, assess_all
from citetracer.records import Reference, Verdict


@dataclass
class CascadeOutcome:
    verdict: Verdict
    bundle: EvidenceBundle
    assessments: list[Assessment]


ContextFactory = Callable[[Reference, list[Assessment], EvidenceBundle, str], JudgeContext]


async def run_cascade(reference: Reference, stages: Sequence[Stage], make_context: ContextFactory) -> CascadeOutcome:
    bundle = EvidenceBundle()
    verdict: Verdict | None = None
    assessments: list[Assessment] = []
    for stage in stages:
        await stage.collect(reference, bundle)
        assessments = assess_all(reference, bundle.candidates)
        verdict = judge(make_context(reference, assessments, bundle, stage.name))
        if supports_real(verdict):
            break
    if verdict is None:  # no stage configured at all
        verdict = judge(make_context(reference, assessments, bundle, "none"))
    return CascadeOutcome(verdict=verdict, bundle=bundle, assessments=assessments)
