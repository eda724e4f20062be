"""The fake web serves a record's publication details in each service's own reply shape.

Pages, volume, issue, publisher and the conference's city are what a citation's other fields are
checked against (issue 46); the fake services must give them where the real ones do:
Crossref `page`/`volume`/`issue`/`publisher`/`event.location`, OpenAlex `biblio` and
`primary_location.source.host_organization_name`, DBLP `info.pages/volume/number` and the
proceedings record its papers' `<crossref>` names, Semantic Scholar `journal.pages/volume`.
A record without them keeps the former shape (a Crossref publisher is never absent).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citetracer.collect.connectors.crossref import from_work as crossref_candidate
from citetracer.collect.connectors.dblp import from_hit, from_record_xml
from citetracer.collect.connectors.openalex import from_work as openalex_candidate
from citetracer.collect.connectors.semanticscholar import from_paper
from tests.fakeweb.server import FakeWeb

PAPER = {
    "id": "p1",
    "title": "Microsoft COCO: Common Objects in Context",
    "authors": ["Tsung-Yi Lin", "Michael Maire"],
    "year": 2014,
    "venue": "ECCV",
    "venue_full": "Computer Vision - ECCV 2014 - 13th European Conference",
    "proceedings_title": "Computer Vision - ECCV 2014 - 13th European Conference, Zurich, Switzerland, September 6-12,"
    " 2014, Proceedings, Part V",
    "doi": "10.1007/978-3-319-10602-1_48",
    "type": "inproceedings",
    "dblp_key": "conf/eccv/LinMBHPRDZ14",
    "pages": "740-755",
    "publisher": "Springer",
    "location": "Zurich, Switzerland",
    "crossref": "conf/eccv/2014-5",
    "series_volume": "8693",
}
ARTICLE = {
    "id": "p2",
    "title": "LIBSVM: A library for support vector machines",
    "authors": ["Chih-Chung Chang", "Chih-Jen Lin"],
    "year": 2011,
    "venue": "ACM Trans. Intell. Syst. Technol.",
    "doi": "10.1145/1961189.1961199",
    "type": "article",
    "dblp_key": "journals/tist/ChangL11",
    "pages": "27:1-27:27",
    "volume": "2",
    "issue": "3",
    "publisher": "Association for Computing Machinery (ACM)",
}
BARE = {"id": "p3", "title": "A record without details", "authors": ["Ann Example"], "year": 2020,
        "venue": "Journal of Examples", "doi": "10.1234/bare", "type": "article"}  # fmt: skip


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FakeWeb]:
    records = tmp_path_factory.mktemp("details") / "records.jsonl"
    records.write_text("".join(json.dumps(r) + "\n" for r in (PAPER, ARTICLE, BARE)))
    with FakeWeb(records) as server:
        yield server


def get(web: FakeWeb, source: str, path: str) -> bytes:
    with urllib.request.urlopen(web.sources()[source] + path, timeout=10) as resp:
        body: bytes = resp.read()
        return body


def get_json(web: FakeWeb, source: str, path: str) -> Any:
    return json.loads(get(web, source, path))


def test_crossref_work_has_page_volume_issue_publisher_and_event_location(web: FakeWeb) -> None:
    paper = get_json(web, "crossref", "/works/10.1007/978-3-319-10602-1_48")["message"]
    assert (paper["page"], paper["publisher"]) == ("740-755", "Springer")
    assert paper["event"] == {"name": PAPER["venue_full"], "location": "Zurich, Switzerland"}
    article = get_json(web, "crossref", "/works/10.1145/1961189.1961199")["message"]
    assert (article["page"], article["volume"], article["issue"]) == ("27:1-27:27", "2", "3")
    assert article["publisher"] == "Association for Computing Machinery (ACM)" and "event" not in article
    bare = get_json(web, "crossref", "/works/10.1234/bare")["message"]
    assert bare["publisher"] == "Fake Publisher" and not {"page", "volume", "issue", "event"} & set(bare)
    found = get_json(web, "crossref", "/works?query.bibliographic=COCO+common+objects+context")["message"]["items"]
    assert found[0]["page"] == "740-755"


def test_openalex_work_has_biblio_and_host_organization(web: FakeWeb) -> None:
    article = get_json(web, "openalex", "/works/doi:10.1145/1961189.1961199")
    assert article["biblio"] == {"volume": "2", "issue": "3", "first_page": "27:1", "last_page": "27:27"}
    source = article["primary_location"]["source"]
    assert source["host_organization_name"] == "Association for Computing Machinery (ACM)"
    assert source["host_organization"].startswith("https://openalex.org/P") and source["type"] == "journal"
    paper = get_json(web, "openalex", "/works/doi:10.1007/978-3-319-10602-1_48")
    assert (paper["biblio"]["first_page"], paper["biblio"]["last_page"]) == ("740", "755")
    bare = get_json(web, "openalex", "/works/doi:10.1234/bare")
    assert bare["biblio"] == {"volume": None, "issue": None, "first_page": None, "last_page": None}
    assert bare["primary_location"]["source"]["host_organization_name"] is None


def test_semantic_scholar_journal_has_pages_and_volume(web: FakeWeb) -> None:
    article = get_json(web, "semanticscholar", "/paper/DOI:10.1145/1961189.1961199?fields=journal")
    assert article["journal"] == {"name": ARTICLE["venue"], "pages": "27:1-27:27", "volume": "2"}
    bare = get_json(web, "semanticscholar", "/paper/DOI:10.1234/bare?fields=journal")
    assert bare["journal"] == {"name": "Journal of Examples"}


def test_dblp_search_hit_has_pages_volume_number(web: FakeWeb) -> None:
    hits = get_json(web, "dblp", "/search/publ/api?q=LIBSVM+library+support+vector&format=json")
    info = hits["result"]["hits"]["hit"][0]["info"]
    assert (info["pages"], info["volume"], info["number"]) == ("27:1-27:27", "2", "3")


def test_dblp_record_names_its_proceedings_whose_record_has_title_publisher_and_series_volume(web: FakeWeb) -> None:
    paper = ET.fromstring(get(web, "dblp", "/rec/conf/eccv/LinMBHPRDZ14.xml"))[0]
    assert (paper.findtext("pages"), paper.findtext("crossref")) == ("740-755", "conf/eccv/2014-5")
    volume = ET.fromstring(get(web, "dblp", "/rec/conf/eccv/2014-5.xml"))[0]
    assert volume.tag == "proceedings" and volume.get("key") == "conf/eccv/2014-5"
    assert volume.findtext("title") == PAPER["proceedings_title"]
    assert (volume.findtext("publisher"), volume.findtext("volume")) == ("Springer", "8693")
    with pytest.raises(urllib.error.HTTPError):
        get(web, "dblp", "/rec/conf/eccv/2099.xml")


def test_doi_content_negotiation_has_page_publisher_and_event_place(web: FakeWeb) -> None:
    csl = get_json(web, "doi", "/_transform/10.1007/978-3-319-10602-1_48")
    assert (csl["page"], csl["publisher"], csl["event-place"]) == ("740-755", "Springer", "Zurich, Switzerland")


def test_the_connectors_read_the_details_they_parse(web: FakeWeb) -> None:
    """What each connector makes of the served details (the shapes above, through the connectors' parsers)."""
    cross = crossref_candidate(get_json(web, "crossref", "/works/10.1145/1961189.1961199")["message"])
    assert cross is not None
    assert (cross.pages, cross.volume, cross.issue, cross.publisher) == ("27:1-27:27", "2", "3", ARTICLE["publisher"])
    alex = openalex_candidate(get_json(web, "openalex", "/works/doi:10.1007/978-3-319-10602-1_48"))
    assert alex is not None and alex.pages == "740-755"
    s2 = from_paper(get_json(web, "semanticscholar", "/paper/DOI:10.1145/1961189.1961199?fields=journal"))
    assert s2 is not None and (s2.pages, s2.volume) == ("27:1-27:27", "2")
    hit = get_json(web, "dblp", "/search/publ/api?q=LIBSVM+library+support+vector&format=json")
    dblp = from_hit(hit["result"]["hits"]["hit"][0])
    assert dblp is not None and (dblp.pages, dblp.volume) == ("27:1-27:27", "2")
    [rec] = from_record_xml(ET.fromstring(get(web, "dblp", "/rec/conf/eccv/LinMBHPRDZ14.xml")))
    assert rec.pages == "740-755"


def test_a_dblp_search_hit_is_of_the_kind_its_record_is(web: FakeWeb) -> None:
    """DBLP's search answers a type in words ("Journal Articles"); its record's XML, a tag ("article"): one
    paper read either way is one kind, which the judge reads (a conference prints a paper once)."""
    hit = get_json(web, "dblp", "/search/publ/api?q=LIBSVM+library+support+vector&format=json")
    assert hit["result"]["hits"]["hit"][0]["info"]["type"] == "Journal Articles"
    article = from_hit(hit["result"]["hits"]["hit"][0])
    assert article is not None and article.type == "article"
    hit = get_json(web, "dblp", "/search/publ/api?q=Microsoft+COCO+common+objects&format=json")
    [paper] = [from_hit(h) for h in hit["result"]["hits"]["hit"] if h["info"]["key"] == "conf/eccv/LinMBHPRDZ14"]
    [rec] = from_record_xml(ET.fromstring(get(web, "dblp", "/rec/conf/eccv/LinMBHPRDZ14.xml")))
    assert paper is not None and paper.type == rec.type == "inproceedings"


def test_another_version_does_not_inherit_the_details(tmp_path: Path) -> None:
    from tests.fakeweb.corpus import records_of

    main, preprint = records_of({**PAPER, "variants": [{"venue": "CoRR", "arxiv_id": "1405.0312"}]})
    assert (main.pages, main.publisher, main.location) == ("740-755", "Springer", "Zurich, Switzerland")
    assert (preprint.pages, preprint.publisher, preprint.location, preprint.crossref) == (None, None, None, None)
    assert main.proceedings_title == PAPER["proceedings_title"] and preprint.proceedings_title is None
