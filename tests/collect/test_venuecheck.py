"""Venue check (collect/venuecheck.py): a cited venue no local list knows is asked of OpenAlex's list of sources.

OpenAlex's sources hold journals whole (every ISSN): a journal name they hold nothing like is no journal
(H4), one they hold is a gap (P3), and a failure of the list is a gap too. They are no list of every
conference (CEUR-WS volumes, society meetings are missing): a computer-science conference name is also
asked of DBLP's list of venues, which holds that field's venues whole; any other conference name they
lack stays a gap.
"""

from __future__ import annotations

import asyncio
from typing import Any

from citetracer.pipeline import Checker
from citetracer.records import CitationResult, Person, Reference
from tests.fakeweb.server import FakeWeb, Fault

RESNET_AUTHORS = [
    Person(given=g, family=f)
    for g, f in (("Kaiming", "He"), ("Xiangyu", "Zhang"), ("Shaoqing", "Ren"), ("Jian", "Sun"))
]


def cite(venue: str) -> Reference:
    return Reference(
        title="Deep Residual Learning for Image Recognition", authors=RESNET_AUTHORS, year=2016, venue=venue
    )


def check(settings: Any, ref: Reference) -> CitationResult:
    checker = Checker(settings)
    try:
        [r] = asyncio.run(checker.check_references([ref]))
        return r
    finally:
        checker.close()


def test_a_journal_name_openalex_does_not_list_is_no_venue(web: FakeWeb, make_settings: Any) -> None:
    r = check(make_settings(), cite("International Journal of Neural Scaling Laws"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "OpenAlex's list of sources" in r.verdict.rationale
    venue_asks = [o for o in r.cost.sources if o.source == "openalex" and "list of sources" in (o.detail or "")]
    assert len(venue_asks) == 1 and venue_asks[0].status == "answered"


def test_a_computing_conference_name_neither_list_holds_is_no_venue(web: FakeWeb, make_settings: Any) -> None:
    r = check(make_settings(), cite("Symposium on Neural Scaling Laws"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "DBLP's list of computer-science venues" in r.verdict.rationale


def test_another_fields_conference_name_no_list_holds_is_only_unconfirmed(web: FakeWeb, make_settings: Any) -> None:
    """A hydrology paper cited at a hydrology symposium no list holds: neither DBLP (computer science) nor
    OpenAlex's sources (journals) hold every such meeting."""
    ref = Reference(
        title="Flood Forecasting with Ensemble Kalman Filters in Urban Catchments",
        authors=[Person(given="Maria", family="Lopez"), Person(given="Kenji", family="Sato")],
        year=2018,
        venue="Symposium on Coastal Sediment Dynamics",
    )
    r = check(make_settings(), ref)
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P3"), r.verdict.rationale


def test_a_real_venue_the_local_lists_lack_is_only_unconfirmed(web: FakeWeb, make_settings: Any) -> None:
    # The fake web's corpus holds a paper of the International Conference on Hydroinformatics: OpenAlex lists
    # the conference, which no local list knows; whether ResNet appeared there too is not for the lists to say.
    r = check(make_settings(), cite("International Conference on Hydroinformatics"))
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale
    assert "the online lists of venues have 'International Conference on Hydroinformatics'" in r.verdict.rationale


def test_a_failed_list_is_a_gap_not_proof(web: FakeWeb, make_settings: Any) -> None:
    web.faults["openalex"] = Fault(mode="status", status=503, every=1)
    r = check(make_settings(retries=0), cite("Symposium on Neural Scaling Laws"))
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_venue_of_a_known_list_is_never_asked_online(web: FakeWeb, make_settings: Any) -> None:
    r = check(make_settings(), cite("ICML"))
    assert r.verdict.code == "H4"  # ResNet is a CVPR paper: ICML is another known conference
    assert not [o for o in r.cost.sources if "list of sources" in (o.detail or "")]
