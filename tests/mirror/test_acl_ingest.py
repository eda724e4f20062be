"""ACL Anthology collection files into the store."""

from __future__ import annotations

from pathlib import Path

from citetracer.mirror.acl import ingest_acl
from citetracer.records import Person
from citetracer.store.db import Store

P99 = """<?xml version='1.0' encoding='UTF-8'?>
<collection id="P99">
  <volume id="1">
    <meta>
      <booktitle>Proceedings of the 99th Annual Meeting of the Association for Computational Linguistics</booktitle>
      <publisher>Association for Computational Linguistics</publisher>
      <year>2099</year>
    </meta>
    <frontmatter><url>P99-1000</url></frontmatter>
    <paper id="1">
      <title>Probabilistic <fixed-case>F</fixed-case>ast<fixed-case>T</fixed-case>ext for Tiny Tests</title>
      <author><first>Ana</first><last>García</last></author>
      <author><first>Bo</first><last>Li</last></author>
      <pages>1–11</pages>
      <abstract>Not stored.</abstract>
      <url>P99-1001</url>
      <doi>10.18653/v1/P99-1001</doi>
    </paper>
    <paper id="2">
      <title>A Second Paper</title>
      <author><first>Cy</first><last>Doe</last></author>
      <url>P99-1002</url>
    </paper>
  </volume>
</collection>
"""


def test_papers_fields_and_idempotent_reingest(tmp_path: Path) -> None:
    xml = tmp_path / "P99.xml"
    xml.write_text(P99, encoding="utf-8")
    with Store(tmp_path / "s.sqlite") as store:
        report = ingest_acl(store, [tmp_path])
        assert (report.added, report.files, report.errors) == (2, 1, [])
        recs = {r.id: r for r in store.all_records()}
        paper = recs["P99-1001"]
        assert paper.title == "Probabilistic FastText for Tiny Tests"
        assert paper.authors == [Person(given="Ana", family="García"), Person(given="Bo", family="Li")]
        assert paper.venue == "ACL"
        assert paper.venue_full.startswith("Proceedings of the 99th Annual Meeting")  # type: ignore[union-attr]
        assert (paper.year, paper.pages, paper.doi) == (2099, "1-11", "10.18653/v1/p99-1001")
        assert paper.url == "https://aclanthology.org/P99-1001"
        ingest_acl(store, [xml])
        assert store.stats()["by_source"] == {"acl": 2}
        assert store.index.count() == 2


def test_doctype_and_broken_files_are_reported_and_skipped(tmp_path: Path) -> None:
    good = tmp_path / "P99.xml"
    good.write_text(P99, encoding="utf-8")
    evil = tmp_path / "E99.xml"
    evil.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE collection [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        '<collection id="E99"><volume id="1"><paper id="1"><title>&x;</title></paper></volume></collection>',
        encoding="utf-8",
    )
    broken = tmp_path / "W99.xml"
    broken.write_text(P99.replace("P99", "W99")[: len(P99) // 2], encoding="utf-8")
    with Store(tmp_path / "s.sqlite") as store:
        report = ingest_acl(store, [tmp_path])
        assert len(report.errors) == 2
        assert any("DOCTYPE" in e and "E99.xml" in e for e in report.errors)
        assert any("W99.xml" in e for e in report.errors)
        titles = {r.title for r in store.all_records()}
        assert "Probabilistic FastText for Tiny Tests" in titles
        assert not any("root:" in (t or "") for t in titles)
