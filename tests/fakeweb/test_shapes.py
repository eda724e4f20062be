"""The fake web's records carry what the real services hold beyond the common fields, in their real shapes.

bench/realonline.py serves one work as each service renders it (OpenAlex's arXiv copy beside DBLP's
proceedings record, a Crossref deposit with only its print date, an author list cut at a page size);
each case here reads a rendered reply back with our own connector's parser, as a check would.
"""

from __future__ import annotations

from citetracer.collect.connectors.crossref import from_work as crossref_candidate
from citetracer.collect.connectors.openalex import from_work as openalex_candidate
from citetracer.collect.connectors.semanticscholar import from_paper
from tests.fakeweb import shapes
from tests.fakeweb.corpus import Corpus

WORK = {
    "title": "Deep Learning of Things",
    "authors": ["Ada Lovelace", "Alan Turing"],
    "year": 2013,
    "venue": "Neuron",
    "doi": "10.1016/j.neuron.2013.05.001",
    "type": "article",
}


def one(**fields: object) -> Corpus:
    return Corpus.from_objects([{**WORK, **fields}])


def test_crossref_issued_is_the_earlier_of_print_and_online() -> None:
    [rec] = one(published_print=[2015, 3], published_online=[2013, 6, 1]).records
    work = shapes.crossref_work(rec)
    assert work["issued"] == {"date-parts": [[2013, 6, 1]]}
    assert work["published-print"] == {"date-parts": [[2015, 3]]}
    cand = crossref_candidate(work)
    assert cand is not None and cand.year == 2013


def test_crossref_deposit_with_the_print_date_only_is_issued_in_the_issue_year() -> None:
    [rec] = one(published_print=2015).records
    work = shapes.crossref_work(rec)
    assert "published-online" not in work
    cand = crossref_candidate(work)
    assert cand is not None and cand.year == 2015


def test_crossref_without_dates_is_issued_in_the_record_year_as_before() -> None:
    [rec] = one().records
    work = shapes.crossref_work(rec)
    assert work["issued"] == {"date-parts": [[2013]]} and "published-print" not in work
    assert work["type"] == "journal-article"


def test_openalex_arxiv_copy_is_a_preprint_in_a_repository() -> None:
    [rec] = one(venue="arXiv (Cornell University)", venue_type="repository", type="preprint").records
    work = shapes.openalex_work(rec)
    assert work["type"] == "preprint"
    source = work["primary_location"]["source"]
    assert (source["display_name"], source["type"]) == ("arXiv (Cornell University)", "repository")
    cand = openalex_candidate(work)
    assert cand is not None and cand.venue == "arXiv (Cornell University)" and cand.type == "preprint"


def test_openalex_marks_an_author_list_it_cut() -> None:
    [rec] = one(authors_truncated=True).records
    assert shapes.openalex_work(rec)["is_authors_truncated"] is True
    [plain] = one().records
    assert shapes.openalex_work(plain)["is_authors_truncated"] is False


def test_semantic_scholar_venue_and_journal_name_differ_as_they_do_for_conference_papers() -> None:
    [rec] = one(
        venue="Neural Information Processing Systems",
        journal="ArXiv",
        type="inproceedings",
        publication_types=["JournalArticle", "Conference"],
    ).records
    paper = shapes.s2_paper(rec)
    assert paper["venue"] == "Neural Information Processing Systems"
    assert paper["journal"] == {"name": "ArXiv"}
    assert paper["publicationVenue"]["name"] == "Neural Information Processing Systems"
    assert paper["publicationTypes"] == ["JournalArticle", "Conference"]
    cand = from_paper(paper)
    assert cand is not None and cand.venue == "Neural Information Processing Systems" and cand.venue_full == "ArXiv"


def test_one_arxiv_id_rendered_by_two_services_is_found_in_each() -> None:
    corpus = Corpus.from_objects(
        [
            {
                **WORK,
                "id": "oa",
                "arxiv_id": "1706.03762",
                "services": ["openalex"],
                "venue": "arXiv (Cornell University)",
            },
            {**WORK, "id": "ax", "arxiv_id": "1706.03762", "services": ["arxiv"], "venue": None},
        ]
    )
    assert corpus.arxiv("1706.03762", "arxiv").rid == "ax"  # type: ignore[union-attr]
    assert corpus.arxiv("1706.03762", "openalex").rid == "oa"  # type: ignore[union-attr]
    assert corpus.arxiv("1706.03762", "semanticscholar") is None


def test_openalex_source_search_lists_only_venues_of_records_openalex_holds() -> None:
    corpus = Corpus.from_objects(
        [
            {**WORK, "id": "oa", "venue": "Neural Information Processing Systems", "services": ["openalex"]},
            {**WORK, "id": "db", "venue": "Neural Inf. Process. Syst. Workshop", "services": ["dblp"]},
        ]
    )
    assert corpus.venues("neural") == ["Neural Information Processing Systems"]


def test_dblp_corr_copy_is_an_informal_publication_with_its_arxiv_volume() -> None:
    [rec] = Corpus.from_objects(
        [
            {
                **WORK,
                "venue": "CoRR",
                "type": "preprint",
                "arxiv_id": "2106.09685",
                "doi": None,
                "dblp_key": "journals/corr/abs-2106-09685",
                "services": ["dblp"],
            }
        ]
    ).records
    info = shapes.dblp_info(rec)
    assert info["type"] == "Informal and Other Publications"
    assert info["volume"] == "abs/2106.09685" and info["ee"] == "https://arxiv.org/abs/2106.09685"
