"""The cascade driver (cascade.py): cheapest stage first, match and judge after each, stop once Real."""

from __future__ import annotations

import asyncio

from citetracer.cascade import CascadeOutcome, Review, run_cascade
from citetracer.collect.stage import AGENT_CALLS, Stage
from citetracer.evidence import EvidenceBundle
from citetracer.judge.context import JudgeContext
from citetracer.match.rules import Assessment
from citetracer.normalize.names import parse_person
from citetracer.records import AgentCall, Candidate, Reference, SourceOutcome, Verdict

TITLE = "Attention Is All You Need"
AUTHORS = [p for p in (parse_person(n) for n in ("Ashish Vaswani", "Noam Shazeer")) if p is not None]
REF = Reference(title=TITLE, authors=AUTHORS, year=2017, venue="NeurIPS")
RECORD = Candidate(source="memory", id="t", title=TITLE, authors=AUTHORS, year=2017, venue="NeurIPS")
CALL = AgentCall(agent="web", prompt="web@v1", model="m", status="ok")


class ScriptedStage(Stage):
    """A stage that adds the given candidates (and, optionally, records one agent call)."""

    def __init__(self, name: str, found: list[Candidate], agent_call: bool = False) -> None:
        self.name, self.found, self.agent_call, self.asked = name, found, agent_call, 0

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        self.asked += 1
        for c in self.found:
            bundle.add(c)
        bundle.outcomes.append(SourceOutcome(source=self.name, status="answered", candidates=len(self.found)))
        ledger = AGENT_CALLS.get()
        if self.agent_call and ledger is not None:
            ledger.append(CALL)


def make_context(ref: Reference, assessments: list[Assessment], bundle: EvidenceBundle, stage: str) -> JudgeContext:
    return JudgeContext(ref, assessments, bundle, today_year=2026, stage=stage)


def run(stages: list[ScriptedStage], review: Review | None = None) -> CascadeOutcome:
    return asyncio.run(run_cascade(REF, stages, make_context, review))


def test_stops_at_the_first_stage_whose_evidence_supports_real() -> None:
    cheap, dear = ScriptedStage("memory", [RECORD]), ScriptedStage("scholar", [])
    out = run([cheap, dear])
    assert (out.verdict.code, out.verdict.stage) == ("R1", "memory")
    assert (cheap.asked, dear.asked) == (1, 0)
    assert out.by_rules and out.assessments[0].candidate is out.bundle.candidates[0]


def test_later_stages_run_on_the_cumulative_bundle() -> None:
    empty, found = ScriptedStage("memory", []), ScriptedStage("scholar", [RECORD.model_copy(update={"source": "s2"})])
    out = run([empty, found])
    assert (out.verdict.code, out.verdict.stage) == ("R1", "scholar")
    assert [o.source for o in out.bundle.outcomes] == ["memory", "scholar"]


def test_without_evidence_every_stage_runs_and_the_verdict_is_the_last_stages() -> None:
    stages = [ScriptedStage("memory", []), ScriptedStage("url", []), ScriptedStage("scholar", [])]
    out = run(stages)
    assert all(s.asked == 1 for s in stages)
    assert out.verdict.class_ == "Potential" and out.verdict.stage == "scholar"


def test_no_stage_at_all_still_gives_a_verdict() -> None:
    out = run([])
    assert out.verdict.class_ == "Potential" and out.verdict.stage == "none" and not out.assessments


def test_agent_calls_of_stages_are_counted_per_citation() -> None:
    out = run([ScriptedStage("url", [], agent_call=True), ScriptedStage("scholar", [RECORD])])
    assert out.agent_calls == [CALL]
    assert AGENT_CALLS.get() is None  # the ledger is the citation's, not left behind


def test_a_review_sees_the_final_rule_verdict_once_and_may_replace_it() -> None:
    seen: list[tuple[str | None, str]] = []
    review_call = CALL.model_copy(update={"agent": "valid-judger"})

    async def review(ctx: JudgeContext, verdict: Verdict) -> tuple[Verdict, list[AgentCall]]:
        seen.append((ctx.stage, verdict.code))
        return verdict.model_copy(update={"code": "P3", "class_": "Potential"}), [review_call]

    out = run([ScriptedStage("memory", []), ScriptedStage("scholar", [], agent_call=True)], review)
    assert seen == [("scholar", "P1")]
    assert out.verdict.code == "P3" and not out.by_rules
    assert out.agent_calls == [CALL, review_call]

    async def agree(ctx: JudgeContext, verdict: Verdict) -> tuple[Verdict, list[AgentCall]]:
        return verdict, []

    assert run([ScriptedStage("memory", [RECORD])], agree).by_rules
