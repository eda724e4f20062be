"""Small DBLP-layout dumps and a small DTD written by the tests themselves."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import pg_location

FIXTURES = Path(__file__).parent / "fixtures"

DTD = """<!-- a cut-down dblp.dtd: the element model and a few of its character entities -->
<!ENTITY % field "author|editor|title|booktitle|pages|year|journal|volume|number|url|ee|crossref|publisher|school">
<!ELEMENT dblp (article|inproceedings|proceedings|book|incollection|phdthesis|mastersthesis|www)*>
<!ELEMENT article (%field;)*>
<!ATTLIST article key CDATA #REQUIRED mdate CDATA #IMPLIED publtype CDATA #IMPLIED>
<!ELEMENT inproceedings (%field;)*>
<!ATTLIST inproceedings key CDATA #REQUIRED mdate CDATA #IMPLIED>
<!ELEMENT proceedings (%field;)*>
<!ATTLIST proceedings key CDATA #REQUIRED mdate CDATA #IMPLIED>
<!ELEMENT phdthesis (%field;)*>
<!ATTLIST phdthesis key CDATA #REQUIRED mdate CDATA #IMPLIED>
<!ELEMENT www (%field;)*>
<!ATTLIST www key CDATA #REQUIRED mdate CDATA #IMPLIED>
<!ENTITY eacute "&#233;">
<!ENTITY uuml "&#252;">
<!ENTITY ouml "&#246;">
"""

HEAD = '<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n'

RECORDS = """<inproceedings mdate="2019-03-01" key="conf/nips/AmbiteW19">
<author>Jos&eacute; Luis Ambite</author><author>Wei Wang 0001</author>
<title>Learning to Rank <i>Sparse</i> Bibliographic Graphs.</title>
<pages>1-9</pages><year>2019</year><booktitle>NeurIPS</booktitle>
<ee>https://doi.org/10.5555/3454287.3454288</ee><ee>https://arxiv.org/abs/1905.01234</ee>
<crossref>conf/nips/2019</crossref></inproceedings>
<article mdate="2020-05-02" key="journals/corr/abs-2001-00001">
<author>J&uuml;rgen M&ouml;ller</author><title>A Preprint about Graphs</title>
<journal>CoRR</journal><volume>abs/2001.00001</volume><year>2020</year>
<ee type="oa">http://arxiv.org/abs/2001.00001</ee></article>
<article mdate="2018-01-01" key="journals/jmlr/SmithV18">
<author>Anna Smith</author><author>Ludwig van Beethoven</author>
<title>Sparse Coding for Music Transcription</title><journal>J. Mach. Learn. Res.</journal>
<volume>19</volume><number>4</number><pages>1-30</pages><year>2018</year>
<ee>http://dx.doi.org/10.1234/JMLR.2018.19.4</ee></article>
<www mdate="2017-01-01" key="homepages/00/0001"><author>Wei Wang 0001</author><title>Home Page</title></www>
<phdthesis mdate="2015-01-01" key="phd/Doe15"><author>Jane Doe</author>
<title>Bibliographies at Scale</title><school>University of Trier</school><year>2015</year></phdthesis>
<proceedings mdate="2019-12-01" key="conf/nips/2019"><editor>Hanna Wallach</editor>
<title>Advances in Neural Information Processing Systems 32, NeurIPS 2019</title>
<booktitle>NeurIPS</booktitle><year>2019</year><publisher>Curran</publisher></proceedings>
"""

DumpWriter = Callable[..., Path]


def write_dump(path: Path, body: str, *, head: str = HEAD, tail: str = "</dblp>\n", gz: bool = True) -> Path:
    data = (head + body + tail).encode("latin-1", errors="xmlcharrefreplace")
    if gz:
        with gzip.open(path, "wb") as fh:
            fh.write(data)
    else:
        path.write_bytes(data)
    return path


def many_records(n: int, start: int = 0, title: str = "Synthetic Paper Number") -> str:
    return "".join(
        f'<article mdate="2016-01-01" key="journals/x/P{i}"><author>Author {i % 97} Person</author>'
        f"<title>{title} {i} about topic {i % 13}</title><journal>J. X</journal>"
        f"<year>{1990 + i % 30}</year></article>\n"
        for i in range(start, start + n)
    )


@pytest.fixture
def dtd(tmp_path: Path) -> Path:
    path = tmp_path / "dblp.dtd"
    path.write_text(DTD, encoding="utf-8")
    return path


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    return write_dump(tmp_path / "dblp.xml.gz", RECORDS)


@pytest.fixture
def make_dump(tmp_path: Path) -> DumpWriter:
    """write_dump(name, body, ...) into the test's directory."""

    def make(name: str, body: str, **kw: object) -> Path:
        return write_dump(tmp_path / name, body, **kw)  # type: ignore[arg-type]

    return make


@pytest.fixture
def records_body() -> Callable[..., str]:
    return many_records


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """The store a dump is ingested into: a SQLite file (rebuilt and swapped) or a PostgreSQL store (COPY batches)."""
    if request.param == "postgresql":
        return pg_location(request.getfixturevalue("pg_server"))
    return tmp_path / "store.sqlite"


def write_openalex(root: Path, parts: dict[str, list[str]], entity: str = "works", day: str = "2024-01-10") -> Path:
    """An OpenAlex snapshot folder as the bucket lays it out: `data/<entity>/updated_date=<day>/part_NNN.gz`
    and the Redshift manifest listing them (s3:// URLs, content lengths, record counts); returns `root`."""
    folder = root / "data" / entity
    entries = []
    for name, lines in parts.items():
        part = folder / f"updated_date={day}" / name
        part.parent.mkdir(parents=True, exist_ok=True)
        part.write_bytes(gzip.compress("".join(line + "\n" for line in lines).encode()))
        entries.append(
            {
                "url": f"s3://openalex/data/{entity}/updated_date={day}/{name}",
                "meta": {"content_length": part.stat().st_size, "record_count": len(lines)},
            }
        )
    total = {"content_length": sum(e["meta"]["content_length"] for e in entries),  # type: ignore[index]
             "record_count": sum(e["meta"]["record_count"] for e in entries)}  # type: ignore[index]  # fmt: skip
    (folder / "manifest").write_text(json.dumps({"entries": entries, "meta": total}))
    return root


def fixture_lines(name: str) -> list[str]:
    return (FIXTURES / "openalex" / name).read_text(encoding="utf-8").splitlines()


@pytest.fixture
def openalex_snapshot(tmp_path: Path) -> Path:
    """The fixture works (two parts) and sources as a snapshot folder."""
    root = tmp_path / "openalex-snapshot"
    works = {"part_000.gz": fixture_lines("works-part_000.jsonl"), "part_001.gz": fixture_lines("works-part_001.jsonl")}
    write_openalex(root, works)
    write_openalex(root, {"part_000.gz": fixture_lines("sources.jsonl")}, "sources", "2024-01-03")
    return root
