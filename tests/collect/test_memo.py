"""The evidence memo through the real pipeline, against the fake web: replay, freshness, failures, offline."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from citetracer.collect.memo import citation_subject, records_to_keep
from citetracer.config import ConfigError, load_settings
from citetracer.pipeline import Checker
from citetracer.records import Candidate, CitationResult, Person, Reference, SourceOutcome
from citetracer.store.db import Store
from tests.fakeweb.server import FakeWeb, Fault

DAY = 86400.0
#: Not in the fake web's corpus, but its first author is: the broad search returns that
#: author's real works (an answer with records), DBLP's title search returns nothing.
FABRICATED = Reference(
    title="Recursive attention lattices for zero-shot protein folding",
    authors=[Person(given="Ilya", family="Sutskever")],
    year=2019,
    venue="NeurIPS",
)
#: A near-miss of a real title: OpenAlex answers with the real work, DBLP with nothing.
NEAR_MISS = Reference(
    title="Sequence to sequence learning with recurrent networks",
    authors=[Person(given="Ilya", family="Sutskever")],
    year=2014,
    venue="NeurIPS",
)
#: A fabrication with a real DOI: URL Fetch resolves the DOI to another work.
WRONG_DOI = Reference(
    title="Hierarchical gradient sketches for federated retrieval",
    authors=[Person(given="Jane", family="Doe")],
    year=2016,
    doi="10.1109/cvpr.2016.90",
)


def check(settings: Any, refs: list[Reference]) -> list[CitationResult]:
    checker = Checker(settings)
    try:
        return asyncio.run(checker.check_references(refs))
    finally:
        checker.close()


def outcomes(result: CitationResult) -> dict[str, SourceOutcome]:
    return {o.source: o for o in result.cost.sources if o.status != "skipped"}


def age_memo(settings: Any, days: float) -> None:
    with Store(settings.store) as store:
        store.db.execute("UPDATE memo SET fetched_at = fetched_at - ?", (days * DAY,))


def test_a_recheck_replays_the_memo_without_calls(make_settings: Any, web: FakeWeb) -> None:
    settings = make_settings()
    [first] = check(settings, [FABRICATED])
    assert first.verdict.class_ == "Hallucinated" and first.cost.connector_calls >= 2
    asked = set(outcomes(first))
    before = dict(web.hits)
    [again] = check(settings, [FABRICATED])
    assert dict(web.hits) == before and again.cost.connector_calls == 0
    assert (again.verdict.class_, again.verdict.code) == (first.verdict.class_, first.verdict.code)
    replayed = outcomes(again)
    assert asked - {"memory"} <= set(replayed)
    for source in asked - {"memory"}:
        assert replayed[source].status == "answered" and replayed[source].fetched_at
        assert "evidence memo" in (replayed[source].detail or "")


def test_the_report_names_the_memo_and_the_date_of_the_answer(make_settings: Any) -> None:
    settings = make_settings()
    check(settings, [FABRICATED])
    [again] = check(settings, [FABRICATED])
    doc = again.to_json_dict()
    openalex = next(s for s in doc["cost"]["sources"] if s["source"] == "openalex")
    assert openalex["status"] == "answered" and openalex["fetched_at"].startswith(time.strftime("%Y-", time.gmtime()))
    assert openalex["fetched_at"][:10] in openalex["detail"] and "replayed" in openalex["detail"]


def test_an_expired_answer_is_asked_again(make_settings: Any, web: FakeWeb) -> None:
    # OpenAlex (answers with records) and DBLP (its "not found"), configured so that both are asked.
    settings = make_settings(connectors=["openalex", "dblp"])
    [first] = check(settings, [NEAR_MISS])
    assert first.verdict.class_ != "Real"
    # 10 days later: answers with records (30 days) are fresh, "not found" (7 days) is not.
    age_memo(settings, 10)
    before = dict(web.hits)
    [again] = check(settings, [NEAR_MISS])
    o = outcomes(again)
    assert o["openalex"].fetched_at is not None and web.hits["openalex"] == before.get("openalex", 0)
    assert o["dblp"].fetched_at is None and web.hits["dblp"] > before.get("dblp", 0)
    # 40 days later everything is stale.
    age_memo(settings, 40)
    [late] = check(settings, [NEAR_MISS])
    assert all(x.fetched_at is None for x in late.cost.sources) and late.cost.connector_calls >= 2
    assert web.hits["openalex"] > before.get("openalex", 0)


def test_freshness_is_configurable_per_source(make_settings: Any, web: FakeWeb) -> None:
    settings = make_settings(memo_days={"*": 30.0, "openalex": 0.0}, connectors=["openalex", "dblp"])
    check(settings, [NEAR_MISS])
    before = dict(web.hits)
    [again] = check(settings, [NEAR_MISS])
    assert web.hits["openalex"] > before["openalex"] and outcomes(again)["openalex"].fetched_at is None
    assert outcomes(again)["dblp"].fetched_at is not None  # DBLP's "not found" is under the default


def test_failures_are_not_memoized(make_settings: Any, web: FakeWeb) -> None:
    settings = make_settings(connectors=["openalex"], retries=0)
    web.faults["openalex"] = Fault(mode="status", status=500)
    [failed] = check(settings, [FABRICATED])
    assert failed.verdict.code == "P1" and outcomes(failed)["openalex"].status == "failed"
    with Store(settings.store) as store:
        row = store.memo.get("openalex", citation_subject(FABRICATED))
        assert row is not None and row.status == "failed" and "500" in (row.detail or "")
    web.faults.clear()
    before = web.hits["openalex"]
    [again] = check(settings, [FABRICATED])
    assert web.hits["openalex"] > before
    assert outcomes(again)["openalex"].status == "answered"
    # One broad index configured: its answer alone never proves absence (two are needed), and says so.
    assert again.verdict.code == "P1" and "only openalex answered a title search" in again.verdict.rationale
    with Store(settings.store) as store:
        row = store.memo.get("openalex", citation_subject(FABRICATED))
        assert row is not None and row.status == "answered"


def test_offline_replays_the_memo_and_never_calls(make_settings: Any, web: FakeWeb) -> None:
    settings = make_settings()
    [online] = check(settings, [FABRICATED])
    offline = settings.model_copy(update={"offline": True})
    before = dict(web.hits)
    [replayed, unseen] = check(offline, [FABRICATED, WRONG_DOI])
    assert dict(web.hits) == before
    assert (replayed.verdict.class_, replayed.verdict.code) == (online.verdict.class_, online.verdict.code)
    assert outcomes(replayed)["openalex"].fetched_at is not None
    skipped = [o for o in unseen.cost.sources if o.status == "skipped" and "offline" in (o.detail or "")]
    assert skipped and not any(o.status == "failed" for o in unseen.cost.sources)
    assert "failed" not in unseen.verdict.rationale  # a source not asked is not a source that failed


def test_offline_without_a_memo_is_memory_only(make_settings: Any) -> None:
    offline = make_settings().model_copy(update={"offline": True})
    assert [s.name for s in Checker(offline).stages] == ["memory"]


def test_identifier_lookups_are_shared_by_citations(make_settings: Any, web: FakeWeb) -> None:
    settings = make_settings(connectors=["openalex"])
    [first] = check(settings, [WRONG_DOI])
    assert outcomes(first)["crossref"].fetched_at is None
    other = WRONG_DOI.model_copy(update={"title": "A different fabricated title about lattices"})
    before = dict(web.hits)
    [second] = check(settings, [other])
    assert outcomes(second)["crossref"].fetched_at is not None and web.hits["crossref"] == before["crossref"]
    assert web.hits["openalex"] > before["openalex"]  # the search is about the new title: asked


def test_memo_can_be_switched_off(make_settings: Any, web: FakeWeb) -> None:
    settings = make_settings(memo=False)
    check(settings, [FABRICATED])
    before = dict(web.hits)
    [again] = check(settings, [FABRICATED])
    assert again.cost.connector_calls >= 2 and web.hits["openalex"] > before["openalex"]
    with Store(settings.store) as store:
        assert len(store.memo) == 0


def test_online_records_of_a_fabricated_citation_are_kept_as_records(make_settings: Any) -> None:
    settings = make_settings()
    [r] = check(settings, [WRONG_DOI])
    assert r.verdict.class_ == "Hallucinated"
    with Store(settings.store) as store:
        assert store.rids_by_doi("10.1109/cvpr.2016.90")  # the real work behind the wrong DOI
        assert store.verified_link("x") is None


def test_untrusted_pages_never_become_records() -> None:
    page = Candidate(source="web", id="https://example.org/p", title="A page's own claim")
    service = Candidate(source="crossref", id="10.1/x", title="A real record", work="crossref:10.1/x")
    kept = records_to_keep([page, service, service])
    assert [(k.source, k.id) for k in kept] == [("crossref", "10.1/x")]


def test_the_subject_ignores_case_and_spacing_but_not_content() -> None:
    same = FABRICATED.model_copy(update={"title": "  RECURSIVE attention   lattices for zero-shot protein folding"})
    other_year = FABRICATED.model_copy(update={"year": 2020})
    assert citation_subject(same) == citation_subject(FABRICATED)
    assert citation_subject(other_year) != citation_subject(FABRICATED)
    assert citation_subject(FABRICATED.model_copy(update={"raw": "[3] anything"})) == citation_subject(FABRICATED)


#: Two citations carrying arXiv ids: the URL Fetch stage batches them in one prefetch request.
ARXIV_PAIR = [
    Reference(title="The large N limit of superconformal field theories", arxiv_id="hep-th/9711200", year=1997),
    Reference(title="A fabricated preprint on lattice sketches", arxiv_id="1409.3215", year=2014),
]


def test_the_arxiv_prefetch_skips_memoized_ids_and_never_runs_offline(make_settings: Any, web: FakeWeb) -> None:
    settings = make_settings(connectors=["openalex"])
    check(settings, ARXIV_PAIR)
    before = dict(web.hits)
    assert before.get("arxiv", 0) >= 1
    results = check(settings, ARXIV_PAIR)
    assert web.hits["arxiv"] == before["arxiv"]
    assert all(outcomes(r)["arxiv"].fetched_at for r in results if "arxiv" in outcomes(r))
    fresh = [
        r.model_copy(update={"arxiv_id": a}) for r, a in zip(ARXIV_PAIR, ("1706.03762", "1512.03385"), strict=True)
    ]
    offline = settings.model_copy(update={"offline": True})
    check(offline, fresh)
    assert dict(web.hits) == before


def test_a_replayed_unresolvable_doi_is_still_h5(make_settings: Any, web: FakeWeb) -> None:
    """The resolver's 'no such DOI' is an answer with its question in the detail (judge/codes.py reads it)."""
    ref = WRONG_DOI.model_copy(update={"doi": "10.1109/cvpr.2016.99999"})
    settings = make_settings(connectors=["openalex"])
    [first] = check(settings, [ref])
    before = dict(web.hits)
    [again] = check(settings, [ref])
    assert dict(web.hits) == before and again.cost.connector_calls == 0
    assert first.verdict.code == "H5" and again.verdict.code == "H5"
    assert again.verdict.rationale == first.verdict.rationale


def test_memo_settings_from_file_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[online]\nmemo_days = { "*" = 10.0, dblp = 60.0 }\n', encoding="utf-8")
    monkeypatch.setenv("CITETRACER_MEMO_EMPTY_DAYS", "2")
    settings = load_settings(config)
    assert settings.online.memo and settings.online.memo_days == {"*": 10.0, "dblp": 60.0}
    assert settings.online.memo_empty_days == {"*": 2.0}
    monkeypatch.setenv("CITETRACER_MEMO_DAYS", "45")
    monkeypatch.setenv("CITETRACER_MEMO", "off")
    settings = load_settings(config)
    assert not settings.online.memo and settings.online.memo_days == {"*": 45.0, "dblp": 60.0}
    monkeypatch.setenv("CITETRACER_MEMO_DAYS", "a month")
    with pytest.raises(ConfigError):
        load_settings(config)


@pytest.mark.usefixtures("cli_on_fake_web")
def test_cli_recheck_and_offline_check_replay_the_memo(web: FakeWeb, tmp_path: Path) -> None:
    import json

    from citetracer.cli import main

    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@inproceedings{fake, title={Sequence to sequence learning with recurrent networks}, "
        "author={Sutskever, Ilya}, booktitle={NeurIPS}, year={2014}}\n"
    )
    store = str(tmp_path / "s.sqlite")

    def run(*flags: str) -> dict[str, Any]:
        out = tmp_path / "report.json"
        args = ["check", str(bib), "--store", store, "--no-http-cache", "--format", "json", "-o", str(out)]
        assert main([*args, *flags]) == 1
        return json.loads(out.read_text())["citations"][0]

    first = run()
    before = dict(web.hits)
    for again in (run(), run("--offline")):
        assert dict(web.hits) == before
        assert again["verdict"]["code"] == first["verdict"]["code"] == "H2"
        assert again["cost"]["connector_calls"] == 0
        openalex = next(s for s in again["cost"]["sources"] if s["source"] == "openalex")
        assert openalex["fetched_at"] and "evidence memo" in openalex["detail"]


def test_memoized_answers_are_replayed_whatever_the_rate_budget(make_settings: Any, web: FakeWeb) -> None:
    """A source whose answer is replayed waits in no queue: with the budget already spent, a second check
    of the same citation asks nothing and reaches the same verdict from the memo."""
    settings = make_settings()
    [first] = check(settings, [FABRICATED])
    assert outcomes(first)["semanticscholar"].status == "answered"
    dblp = next(o for o in first.cost.sources if o.source == "dblp")
    assert dblp.status == "skipped" and "ingest dblp" in (dblp.detail or "")  # Semantic Scholar answered for it
    late = make_settings(rate_budget=-1.0)  # every queue counts as full: the budget is already spent
    before = dict(web.hits)
    [again] = check(late, [FABRICATED])
    assert dict(web.hits) == before and again.cost.connector_calls == 0
    assert outcomes(again)["semanticscholar"].fetched_at is not None
    assert again.verdict.code == first.verdict.code


def test_a_run_without_network_leaves_no_source_states_in_later_offline_runs(make_settings: Any) -> None:
    """Issue 29: after one online run without a network, every later offline P1 listed ~700 characters of
    source states: the run's failure rows (kept for diagnosis, never replayed) counted as a memo, so offline
    checks ran the replay stages and reported every source as skipped."""
    from citetracer.report.views import coverage_note
    from tests.fakeweb.server import closed_url

    settings = make_settings(retries=0)
    offline = settings.model_copy(update={"offline": True})
    [before] = check(offline, [FABRICATED])
    no_network = settings.model_copy(update={"sources": {name: closed_url() for name in settings.sources}})
    [failed] = check(no_network, [FABRICATED])
    assert any(o.status == "failed" for o in failed.cost.sources)
    with Store(settings.store) as store:
        assert store.memo.counts().get("failed") and not store.memo.counts().get("answered")
    with Checker(offline) as replaying:
        assert [s.name for s in replaying.stages] == ["memory"]
    [after] = check(offline, [FABRICATED])
    assert after.verdict.code == before.verdict.code == "P1"
    assert [o.source for o in after.cost.sources] == ["memory"]
    assert coverage_note(after) == coverage_note(before)
    assert len(coverage_note(after) or "") < 200


def test_offline_sources_without_a_memo_answer_are_counted_not_listed(make_settings: Any) -> None:
    """A memo holding answers for some citations: the others' P1 notes count the sources not asked
    (their states stay in cost.sources) instead of listing each with its detail."""
    from citetracer.report.views import coverage_note

    settings = make_settings()
    check(settings, [FABRICATED])
    offline = settings.model_copy(update={"offline": True})
    unseen = Reference(title="An unseen work on nothing at all", authors=[Person(family="Nobody")], year=2020)
    [result] = check(offline, [unseen])
    assert result.verdict.code == "P1"
    assert sum(o.status == "skipped" for o in result.cost.sources) >= 5  # the evidence keeps every state
    note = coverage_note(result) or ""
    assert "other sources not asked" in note and "online sources were not asked (offline)" in note
    assert "no fresh memo" not in note and len(note) < 200
