"""Router and the three class-specialist judgers (deterministic).

Every code function runs; the router then sends the case to one judger:
the Valid judger when a candidate supports the citation with nothing but
normalizable differences (R1, R2), the Hallucinated judger when a
contradiction or a covered absence was found (H1-H6), the Valid judger for
strong-identity-with-gaps (R3), and the Potential judger for the rest
(P1-P3). Each judger returns the class, the primary code and every other
code that fired, the offending fields, the evidence and a rationale.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from citetracer.judge import codes, gate
from citetracer.judge.codes import Finding
from citetracer.judge.context import JudgeContext
from citetracer.judge.facts.identity import work_of
from citetracer.normalize.text import canonical_arxiv, canonical_doi
from citetracer.records import Candidate, EvidenceEntry, Verdict
from citetracer.taxonomy import class_of, primary

CodeRule = Callable[[JudgeContext], Finding | None]

REAL_RULES: tuple[CodeRule, ...] = (codes.r1_exact, codes.r2_variant)
HALLUCINATED_RULES: tuple[CodeRule, ...] = (
    codes.h4_future,
    codes.h4_details,
    codes.h6_chimera,
    codes.h5_doi,
    codes.h5_arxiv,
    codes.h3_authors,
    codes.h2_near_miss,
    codes.h4_venue_or_year,
    codes.h1_fabricated,
)
INCOMPLETE_RULES: tuple[CodeRule, ...] = (codes.r3_incomplete,)
POTENTIAL_RULES: tuple[CodeRule, ...] = (
    codes.p3_ambiguous,
    codes.p2_non_scholarly,
    codes.p1_title_alone,
    codes.p1_unverified,
)

#: How often a verdict of each code is right, as a prior for the confidence field.
CONFIDENCE = {
    "R1": 0.97,
    "R2": 0.92,
    "R3": 0.85,
    "P1": 0.5,
    "P2": 0.55,
    "P3": 0.6,
    "H1": 0.8,
    "H2": 0.85,
    "H3": 0.88,
    "H4": 0.9,
    "H5": 0.9,
    "H6": 0.88,
}


def evidence_entry(c: Candidate) -> EvidenceEntry:
    """How a candidate the verdict rests on is cited in the report."""
    return {
        "source": c.source,
        "id": c.id,
        "url": c.url,
        "title": c.title,
        "authors": [p.display() for p in c.authors],
        "venue": c.venue,
        "year": c.year,
        "doi": c.doi,
        "arxiv_id": c.arxiv_id,
        "found_by": c.found_by,
    }


def _merge_same_code(findings: list[Finding]) -> list[Finding]:
    """One finding per code: two reasons for H4 read as one sentence."""
    merged: dict[str, Finding] = {}
    for f in findings:
        if f.code in merged:
            m = merged[f.code]
            basis = "; ".join(b for b in (m.basis, f.basis) if b)
            merged[f.code] = Finding(
                f.code, f"{m.reason}; {f.reason}", [*m.fields, *f.fields], [*m.evidence, *f.evidence], basis
            )
        else:
            merged[f.code] = f
    return list(merged.values())


def _sentences(ordered: list[Finding]) -> list[str]:
    """One sentence per finding, its proof after it; a finding that states a fact an earlier one stated
    (the same fields of the same records: a DOI of another work is both H6 and H5) says so in a few words."""
    out: list[str] = []
    said: list[tuple[set[str], set[tuple[str, str]], str]] = []
    for f in ordered:
        fields = set(f.fields)
        records = {(c.source, c.id) for c in f.evidence}
        earlier = next((code for fs, rs, code in said if fields and fields <= fs and records <= rs), None)
        if earlier is not None:
            out.append(f"{f.code}: the same fact as {earlier}.")
            continue
        said.append((fields, records, f.code))
        out.append(f"{f.code}: {f.reason}" + (f" (proof: {f.basis})." if f.basis else "."))
    return out


def _verdict(findings: list[Finding], stage: str | None) -> Verdict:
    findings = _merge_same_code(findings)
    codes_fired = list(dict.fromkeys(f.code for f in findings))
    main = primary(codes_fired)
    lead = next(f for f in findings if f.code == main)
    ordered = [lead] + [f for f in findings if f is not lead]
    fields = list(dict.fromkeys(name for f in ordered for name in f.fields))
    evidence: list[EvidenceEntry] = []
    seen = set()
    for f in ordered:
        for c in f.evidence:
            key = (c.source, c.id)
            if key not in seen:
                seen.add(key)
                evidence.append(evidence_entry(c))
    rationale = " ".join(_sentences(ordered))
    confidence = CONFIDENCE[main]
    if class_of(main) == "Hallucinated" and len(codes_fired) > 1:
        confidence = min(0.99, confidence + 0.04 * (len([c for c in codes_fired if c.startswith("H")]) - 1))
    return Verdict(
        **{"class": class_of(main)},
        code=main,
        codes=codes_fired,
        fields=fields,
        evidence=evidence,
        stage=stage,
        rationale=rationale,
        confidence=confidence,
        basis="; ".join(f.basis for f in ordered if f.basis) or None,
    )


def _run(rules: tuple[CodeRule, ...], ctx: JudgeContext) -> list[Finding]:
    return [f for f in (rule(ctx) for rule in rules) if f is not None]


def valid_judger(findings: list[Finding], ctx: JudgeContext) -> Verdict:
    """The Real verdict of the Real findings (R1, R2, or R3)."""
    return _verdict(findings, ctx.stage)


def hallucinated_judger(findings: list[Finding], ctx: JudgeContext) -> Verdict:
    """The Hallucinated verdict of the accusations the gate admitted, every code that fired with its basis."""
    return _verdict(findings, ctx.stage)


def potential_judger(findings: list[Finding], ctx: JudgeContext) -> Verdict:
    """The Potential verdict: the first finding and every P3 after it (withheld accusations say why they were
    withheld); P3 'unsettled' when nothing fired.
    """
    withheld = {name for f in findings if f.withheld_from for name in f.fields}
    kept = []
    work = work_of(ctx)
    for f in findings:
        if f.parts and withheld and work is not None:
            rest = codes.ambiguous(work, [(r, name) for r, name in f.parts if name not in withheld])
            if rest is None:
                continue  # every fact of this finding is in a withheld accusation's own words
            f = replace(rest, code=f.code)
        kept.append(f)
    findings = kept or [codes.p3_unsettled(ctx)]
    return _verdict(findings[:1] + [f for f in findings[1:] if f.code == "P3"], ctx.stage)


def gated(findings: list[Finding], ctx: JudgeContext) -> tuple[list[Finding], list[Finding]]:
    """The findings the accusation gate admits (with their basis), and the Potential findings that
    the withheld ones become (judge/gate.py)."""
    admitted, withheld = [], []
    for f in findings:
        decision = gate.admit(ctx, f)
        if decision.admitted:
            admitted.append(replace(f, basis=decision.basis))
        else:
            withheld.append(gate.withheld_finding(ctx, f, decision.basis))
    return admitted, withheld


def judge(ctx: JudgeContext) -> Verdict:
    """The verdict for one citation given the evidence gathered so far.

    Every Hallucinated finding passes the accusation gate first: what it does not admit is
    Potential, with the reason the accusation was withheld.
    """
    # A future year or a contradicted publication detail (pages, volume, publisher, place) blocks
    # Real whatever else matches: the title and authors matching is what makes the detail a fact.
    blocking, _ = gated([f for f in (codes.h4_future(ctx), codes.h4_details(ctx)) if f is not None], ctx)
    real = _run(REAL_RULES, ctx)
    if real and not blocking:
        return valid_judger(real[:1], ctx)
    wrong, withheld = gated(_run(HALLUCINATED_RULES, ctx), ctx)
    if wrong:
        return hallucinated_judger(wrong, ctx)
    incomplete = _run(INCOMPLETE_RULES, ctx)
    if incomplete:
        return valid_judger(incomplete, ctx)
    return potential_judger(_run(POTENTIAL_RULES, ctx) + withheld, ctx)


def supports_real(verdict: Verdict, ctx: JudgeContext | None = None) -> bool:
    """Whether the cascade may stop: Real, with every cited identifier confirmed.

    An R3 that rests on title, authors and year while the cited DOI or arXiv id is
    absent from the evidence goes on to the stages that can resolve the identifier:
    a fabricated DOI on a real paper is a hallucination of its own (H5).
    """
    if verdict.class_ != "Real":
        return False
    if verdict.code != "R3" or ctx is None:
        return True
    ref = ctx.reference
    doi, arxiv = canonical_doi(ref.doi), canonical_arxiv(ref.arxiv_id)
    dois = {canonical_doi(a.candidate.doi) for a in ctx.assessments}
    arxivs = {canonical_arxiv(a.candidate.arxiv_id) for a in ctx.assessments}
    return not ((doi and doi not in dois) or (arxiv and arxiv not in arxivs and not (doi and doi.endswith(arxiv))))
