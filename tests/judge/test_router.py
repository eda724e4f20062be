"""The judge router (judge/router.py): which judger a case goes to, and what its verdict carries."""

from __future__ import annotations

from citetracer.evidence import EvidenceBundle
from citetracer.judge.context import JudgeContext
from citetracer.judge.router import CONFIDENCE, evidence_entry, judge, supports_real
from citetracer.match.rules import assess_all
from citetracer.normalize.names import parse_person
from citetracer.records import Candidate, Person, Reference, SourceOutcome, Verdict
from citetracer.taxonomy import CODES, class_of

TITLE = "Attention Is All You Need"


def people(*names: str) -> list[Person]:
    out = [parse_person(n) for n in names]
    return [p for p in out if p is not None]


AUTHORS = people("Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit")
RECORD = Candidate(
    source="test", id="transformer", title=TITLE, authors=AUTHORS, year=2017, venue="NeurIPS", url="https://x.test/t"
)


def context(ref: Reference, candidates: list[Candidate], bundle: EvidenceBundle | None = None) -> JudgeContext:
    bundle = bundle or EvidenceBundle()
    for c in candidates:
        bundle.add(c)
    return JudgeContext(ref, assess_all(ref, bundle.candidates), bundle, today_year=2026, stage="memory")


def cite(**kw: object) -> Reference:
    fields: dict[str, object] = dict(title=TITLE, authors=AUTHORS, year=2017, venue="NeurIPS")
    fields.update(kw)
    return Reference.model_validate(fields)


def test_an_exact_match_goes_to_the_valid_judger_and_stops_the_cascade() -> None:
    ctx = context(cite(), [RECORD])
    v = judge(ctx)
    assert (v.class_, v.code, v.codes) == ("Real", "R1", ["R1"])
    assert v.stage == "memory" and v.confidence == CONFIDENCE["R1"]
    assert v.evidence == [evidence_entry(RECORD)] and v.evidence[0]["url"] == "https://x.test/t"
    assert supports_real(v, ctx)


def test_no_evidence_in_an_uncovered_search_is_potential_never_an_accusation() -> None:
    v = judge(context(cite(), []))
    assert (v.class_, v.code) == ("Potential", "P1") and not v.evidence
    assert not supports_real(v)


def test_a_failed_source_makes_an_absence_unverified() -> None:
    covered = EvidenceBundle(covered=True, store_covered=True, coverage_notes=["the store holds NeurIPS 2017"])
    assert judge(context(cite(), [], covered)).code == "H1"
    failed = EvidenceBundle(covered=True, store_covered=True, coverage_notes=["the store holds NeurIPS 2017"])
    failed.outcomes.append(SourceOutcome(source="crossref", status="failed", detail="HTTP 503"))
    v = judge(context(cite(), [], failed))
    assert (v.class_, v.code) == ("Potential", "P1") and "crossref failed" in v.rationale


def test_an_accusation_carries_its_basis_and_every_code_that_fired() -> None:
    ctx = context(cite(authors=people("Alice Invented", "Bob Madeup")), [RECORD])
    v = judge(ctx)
    assert v.class_ == "Hallucinated" and v.code == "H3" and v.basis
    assert "authors" in v.fields and v.evidence[0]["id"] == "transformer"
    assert v.rationale.startswith("H3: ")
    assert all(class_of(c) for c in v.codes) and v.codes[0] == v.code


def test_the_verdict_is_one_of_the_taxonomy_codes_with_its_class() -> None:
    for ref in (cite(), cite(year=2030), cite(venue="ICML"), cite(title="Attention Is Not What You Need")):
        v = judge(context(ref, [RECORD]))
        assert v.code in CODES and class_of(v.code) == v.class_ and v.code in v.codes


def test_an_incomplete_real_match_goes_on_while_a_cited_identifier_is_unconfirmed() -> None:
    r3 = Verdict.model_validate({"class": "Real", "code": "R3", "codes": ["R3"], "rationale": "strong identity"})
    with_doi = cite(doi="10.5555/3295222.3295349")
    assert not supports_real(r3, context(with_doi, [RECORD]))
    assert supports_real(r3, context(with_doi, [RECORD.model_copy(update={"doi": "10.5555/3295222.3295349"})]))
    assert supports_real(r3, context(cite(), [RECORD]))
    potential = Verdict.model_validate({"class": "Potential", "code": "P3", "codes": ["P3"], "rationale": "x"})
    assert not supports_real(potential, context(cite(), [RECORD]))


def test_a_doi_a_record_holds_is_known_whatever_the_registrant_table_says() -> None:
    """A cited DOI under a prefix the packaged registrant table lacks (NDSS's 10.14722) is no doubt when a
    record carries it: identity is strong, and a publisher the record names otherwise is a gap (R3)."""
    doi = "10.14722/ndss.2018.23198"
    ref = cite(doi=doi, publisher="Internet Society", venue="NDSS")
    record = RECORD.model_copy(
        update={"doi": doi, "venue": "NDSS", "publisher": "Fake Publisher", "source": "crossref"}
    )
    v = judge(context(ref, [record]))
    assert v.class_ == "Real", v.rationale


def test_a_year_after_a_preprints_first_version_is_a_later_version() -> None:
    """arXiv papers are revised and published after their first version: cited a year later, no conflict."""
    preprint = RECORD.model_copy(update={"venue": "arXiv", "type": "preprint", "year": 2016})
    v = judge(context(cite(venue=None, year=2017), [preprint]))
    assert (v.class_, v.code) == ("Real", "R2"), v.rationale
    assert judge(context(cite(venue=None, year=2019), [preprint])).class_ != "Real"


def test_a_books_series_cited_as_its_venue_is_no_venue_question() -> None:
    book = Candidate(
        source="test", id="prml", title="Pattern Recognition and Machine Learning", year=2006, venue="Springer",
        authors=people("Christopher M. Bishop"), type="book",
    )  # fmt: skip
    ref = Reference(
        title=book.title, authors=people("C. M. Bishop"), year=2006, venue="Information Science and Statistics"
    )
    v = judge(context(ref, [book]))
    assert v.class_ == "Real", v.rationale
