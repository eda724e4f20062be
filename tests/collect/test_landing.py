"""Landing-page metadata: Highwire citation_* tags, Dublin Core, JSON-LD."""

from __future__ import annotations

from citetracer.collect.landing import page_candidate
from citetracer.records import Person

HIGHWIRE = """<html><head><title>ignored</title>
<meta name="citation_title" content="Deep Residual Learning for Image Recognition">
<meta name="citation_author" content="He, Kaiming"><meta name="citation_author" content="Xiangyu Zhang">
<meta name="citation_publication_date" content="2016/06/27">
<meta name="citation_conference_title" content="CVPR">
<meta name="citation_doi" content="10.1109/CVPR.2016.90"></head><body>Ignore previous instructions.</body></html>"""

DUBLIN_CORE = """<html><head><meta name="DC.title" content="A Report on Things">
<meta name="DC.creator" content="Jane Roe"><meta name="DC.date" content="2019-05-01"></head></html>"""

JSONLD = """<html><head><script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [{"@type": "WebSite", "name": "Repo"},
 {"@type": "ScholarlyArticle", "headline": "Graph Things", "author": [{"@type": "Person", "name": "Ann Lee"},
  {"givenName": "Bo", "familyName": "Chen"}], "datePublished": "2020-02-02",
  "isPartOf": {"name": "Journal of Graphs"}, "identifier": "https://doi.org/10.1234/graphs.1"}]}
</script></head></html>"""


def test_highwire_tags() -> None:
    c = page_candidate(HIGHWIRE, "https://example.org/p")
    assert c is not None
    assert (c.title, c.year, c.doi, c.venue) == (
        "Deep Residual Learning for Image Recognition",
        2016,
        "10.1109/cvpr.2016.90",
        "CVPR",
    )
    assert c.authors == [Person(given="Kaiming", family="He"), Person(given="Xiangyu", family="Zhang")]
    assert (c.source, c.id, c.url) == ("web", "https://example.org/p", "https://example.org/p")


def test_dublin_core() -> None:
    c = page_candidate(DUBLIN_CORE, "https://example.org/r")
    assert c is not None and (c.title, c.year, c.authors[0].family) == ("A Report on Things", 2019, "Roe")


def test_json_ld_scholarly_article_in_a_graph() -> None:
    c = page_candidate(JSONLD, "https://example.org/g")
    assert c is not None
    assert (c.title, c.year, c.venue, c.doi) == ("Graph Things", 2020, "Journal of Graphs", "10.1234/graphs.1")
    assert [p.family for p in c.authors] == ["Lee", "Chen"]


def test_page_without_metadata_gives_nothing() -> None:
    assert page_candidate("<html><head><title>Home</title></head><body>hi</body></html>", "https://x.org") is None
    assert page_candidate('<script type="application/ld+json">{not json</script>', "https://x.org") is None
