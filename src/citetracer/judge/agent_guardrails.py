"""Guardrails that hold whatever the judger agents say.

- Untrusted text enters a prompt only through `llm.untrusted.quote` (as data); the
  checks below make obeying an injected instruction useless anyway.
- `check_judgement`: an LLM verdict is accepted only if it meets its judger's
  evidence threshold against the rules' own comparisons: Real needs a supporting
  candidate that exists in the bundle and is the same work by the rules' measures;
  nothing contradicted by an identifier becomes Real; Hallucinated needs a
  contradiction the rules can see, by the evidence the code's definition asks
  for (H2: a near-miss title by the cited authors; H3/H4: the cited work itself;
  H5: an identifier mismatch; H6: two works), or for H1 a covered search that
  did not fail; and every accusation then passes the rules' accusation gate (judge/gate.py), so an
  agent cannot accuse on less proof than the rules may. Potential codes are held to their definitions too: P1 needs
  incomplete coverage, P2 a non-scholarly reference, P3 a matching candidate.
"""

from __future__ import annotations

from dataclasses import dataclass

from citetracer.judge import gate
from citetracer.judge.codes import Finding, p2_non_scholarly
from citetracer.judge.context import UNINDEXED_TYPES, JudgeContext
from citetracer.judge.facts.identity import work_of
from citetracer.llm.schemas import FieldLabel, JudgerReply
from citetracer.match.rules import Assessment
from citetracer.records import FieldStatus, Verdict
from citetracer.thresholds import NEAR_MISS_SIMILARITY, VALID_AUTHOR_OVERLAP, VALID_TITLE_SIMILARITY

IDENTIFIER_FIELDS = ("doi", "arxiv_id")


def identifier_contradiction(ctx: JudgeContext, verdict: Verdict) -> bool:
    """Whether the rules found a DOI or arXiv id that names another work (or none)."""
    if "H5" in verdict.codes or any(f in verdict.fields for f in IDENTIFIER_FIELDS):
        return True
    work = work_of(ctx)
    return work is not None and any(work.status(f) == FieldStatus.MISMATCH for f in IDENTIFIER_FIELDS)


@dataclass
class Decision:
    """A checked judgement: the code to report (R1 is the rules' alone) or the reason it was refused."""

    code: str | None
    refused: str | None = None


def check_judgement(
    reply: JudgerReply,
    ctx: JudgeContext,
    shown: dict[str, Assessment],
    labels: list[FieldLabel],
    rules: Verdict,
) -> Decision:
    """A judger agent's reply, accepted (as a verdict) only when the evidence it cites meets its code's bar, else
    refused with the reason the rules' verdict stands.
    """
    unknown = [i for i in reply.supporting_candidate_ids if i not in shown]
    if unknown:
        return Decision(None, f"it cites candidates that are not in the evidence ({', '.join(unknown[:3])})")
    support = [shown[i] for i in reply.supporting_candidate_ids]
    if reply.class_ == "Real":
        if identifier_contradiction(ctx, rules):
            return Decision(None, "the rules found an identifier contradiction, which no agent can overrule into Real")
        same_work = [a for a in support if _same_work(a)]
        if not same_work:
            return Decision(
                None,
                "Real needs a supporting candidate from the evidence that is the same work "
                f"(title similarity >= {VALID_TITLE_SIMILARITY:.0%}, shared authors)",
            )
        # R1 means every field matched by the rules; the rules did not say so, so at most R2.
        return Decision("R2" if reply.code == "R1" else reply.code)
    if reply.class_ == "Hallucinated":
        if not reply.offending_fields:
            return Decision(None, "Hallucinated needs the offending fields")
        if reply.code == "H1":
            if ctx.title_matches:
                return Decision(None, "H1 contradicts a candidate with the cited title")
            if ctx.failed_sources or not ctx.bundle.covered:
                return Decision(None, "H1 needs a search that covered the citation and did not fail")
            return _through_gate(reply, ctx, support)
        contradicted = {lab.field for lab in labels if lab.label == "contradiction"}
        showing = [
            a
            for a in support
            if any(a.status(f) == FieldStatus.MISMATCH or f in contradicted for f in reply.offending_fields)
        ]
        if not showing:
            return Decision(None, f"{reply.code} needs a supporting candidate that contradicts an offending field")
        missing = _code_evidence(reply.code, showing, support)
        if missing:
            return Decision(None, f"{reply.code} needs {missing}")
        return _through_gate(reply, ctx, showing + [a for a in support if a not in showing])
    if reply.code == "P3" and not support:
        return Decision(None, "P3 needs the candidate that matches")
    if reply.code == "P1" and not (
        ctx.failed_sources or not ctx.bundle.covered or ctx.reference.type in UNINDEXED_TYPES
    ):
        return Decision(None, "P1 needs incomplete coverage (a failed source, an uncovered venue or an unindexed kind)")
    if reply.code == "P2" and p2_non_scholarly(ctx) is None:
        return Decision(None, "P2 needs a reference that looks non-scholarly (its type, or a bare URL)")
    return Decision(reply.code)


def _through_gate(reply: JudgerReply, ctx: JudgeContext, support: list[Assessment]) -> Decision:
    """An agent's accusation passes the same accusation gate as the rules' (judge/gate.py)."""
    finding = Finding(
        reply.code, reply.rationale, fields=list(reply.offending_fields), evidence=[a.candidate for a in support]
    )
    decision = gate.admit(ctx, finding)
    if not decision.admitted:
        return Decision(None, f"the accusation gate withholds {reply.code}: {decision.basis}")
    return Decision(reply.code)


def _code_evidence(code: str, showing: list[Assessment], support: list[Assessment]) -> str | None:
    """What the code's definition asks of the contradicting candidate that is missing, or None."""
    same_people = [a for a in showing if a.authors is None or a.authors.overlap >= VALID_AUTHOR_OVERLAP]
    same_title = [a for a in showing if a.same_title or a.title_similarity >= VALID_TITLE_SIMILARITY]
    if code == "H2" and not any(a.title_similarity >= NEAR_MISS_SIMILARITY for a in same_people):
        return f"a work by the cited authors with a title at least {NEAR_MISS_SIMILARITY:.0%} similar"
    if code in ("H3", "H4") and not same_title:
        return "a candidate that is the cited work (same title) with other authors, venue or year"
    if code == "H5" and not any(a.status(f) == FieldStatus.MISMATCH for a in showing for f in IDENTIFIER_FIELDS):
        return "a candidate whose DOI or arXiv id differs from the cited one"
    if code == "H6" and len({a.candidate.work or a.candidate.id for a in support}) < 2:
        return "two different real works whose fields were combined"
    return None


def _same_work(a: Assessment) -> bool:
    by_title = a.same_title or a.title_similarity >= VALID_TITLE_SIMILARITY
    by_id = any(a.status(f) == FieldStatus.MATCH for f in IDENTIFIER_FIELDS)
    authors_ok = a.authors is None or a.authors.overlap >= VALID_AUTHOR_OVERLAP
    no_id_conflict = not any(a.status(f) == FieldStatus.MISMATCH for f in IDENTIFIER_FIELDS)
    return (by_title or by_id) and authors_ok and no_id_conflict
