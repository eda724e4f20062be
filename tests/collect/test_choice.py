"""Which connectors a citation gets, and why."""

from __future__ import annotations

from citetracer.collect.choice import choose
from citetracer.records import Reference

ALL = {"openalex", "semanticscholar", "crossref", "dblp", "arxiv", "pubmed", "europepmc", "openreview", "datacite"}


def test_cs_venue_goes_to_dblp_and_openalex() -> None:
    ask = choose(Reference(title="t", venue="Advances in Neural Information Processing Systems"), ALL).ask
    assert set(ask) == {"openalex", "dblp"}
    assert "DBLP" in ask["dblp"]


def test_biomedical_venue_goes_to_pubmed_and_europepmc() -> None:
    for venue in ("BMC Medical Genomics", "The Lancet Oncology", "Frontiers in cardiovascular medicine"):
        ask = choose(Reference(title="t", venue=venue, type="article"), ALL).ask
        assert {"openalex", "pubmed", "europepmc", "crossref"} <= set(ask) and "dblp" not in ask


def test_preprint_server_and_software() -> None:
    assert "arxiv" in choose(Reference(title="t", venue="arXiv preprint arXiv:2101.00001"), ALL).ask
    assert "datacite" in choose(Reference(title="t", type="software"), ALL).ask


def test_only_available_sources_and_fixed_lists() -> None:
    assert set(choose(Reference(title="t", venue="ICML"), {"openalex"}).ask) == {"openalex"}
    fixed = choose(Reference(title="t", venue="ICML"), ALL, ["semanticscholar", "nope"]).ask
    assert fixed == {"semanticscholar": "configured"}
