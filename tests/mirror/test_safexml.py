"""Hostile dumps: entity expansion, external entities, foreign DTDs, corrupt and truncated streams."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from citetracer.mirror import safexml
from citetracer.mirror.dblp import ingest_dblp
from citetracer.mirror.safexml import Chunk, DumpError, iter_chunks, parse_chunk, parser_for
from citetracer.store.db import Store

LAUGHS = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">\n' for i in range(1, 10))
RECORD = '<article key="a/1"><author>A B</author><title>T &lol9;</title><year>2000</year></article>'


def _store_untouched(tmp_path: Path) -> None:
    assert not (tmp_path / "store.sqlite").exists()
    assert not [p for p in tmp_path.iterdir() if "building" in p.name]


def test_billion_laughs_in_internal_subset_is_refused(tmp_path: Path, dtd: Path, make_dump) -> None:
    head = f'<?xml version="1.0"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd" [\n<!ENTITY lol0 "lol">\n{LAUGHS}]>\n<dblp>\n'
    bomb = make_dump("bomb.xml.gz", RECORD, head=head)
    with pytest.raises(DumpError, match="internal subset"):
        ingest_dblp(tmp_path / "store.sqlite", bomb, dtd, parallel=False)
    _store_untouched(tmp_path)


def test_billion_laughs_in_the_dtd_is_refused(tmp_path: Path, make_dump) -> None:
    evil_dtd = tmp_path / "evil.dtd"
    evil_dtd.write_text('<!ENTITY lol0 "lol">\n' + LAUGHS, encoding="utf-8")
    dump = make_dump("d.xml.gz", RECORD)
    with pytest.raises(DumpError, match="lol1"):
        ingest_dblp(tmp_path / "store.sqlite", dump, evil_dtd, parallel=False)
    _store_untouched(tmp_path)


@pytest.mark.parametrize(
    "decl", ['<!ENTITY xxe SYSTEM "file:///etc/passwd">', '<!ENTITY xxe PUBLIC "-//x" "http://127.0.0.1/x">']
)
def test_external_entity_in_the_dtd_is_refused(tmp_path: Path, dtd: Path, make_dump, decl: str) -> None:
    evil_dtd = tmp_path / "evil.dtd"
    evil_dtd.write_text(dtd.read_text() + decl + "\n", encoding="utf-8")
    dump = make_dump("d.xml.gz", '<article key="a/1"><title>T &xxe;</title></article>')
    with pytest.raises(DumpError, match="external"):
        ingest_dblp(tmp_path / "store.sqlite", dump, evil_dtd, parallel=False)
    _store_untouched(tmp_path)


def test_external_entity_in_the_dump_is_refused(tmp_path: Path, dtd: Path, make_dump) -> None:
    head = (
        '<?xml version="1.0"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd" [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<dblp>\n'
    )
    dump = make_dump("d.xml.gz", '<article key="a/1"><title>T &xxe;</title></article>', head=head)
    with pytest.raises(DumpError):
        ingest_dblp(tmp_path / "store.sqlite", dump, dtd, parallel=False)
    _store_untouched(tmp_path)


def test_a_dtd_named_elsewhere_is_answered_with_the_local_one(tmp_path: Path, dtd: Path, make_dump) -> None:
    """The DOCTYPE may point anywhere: only the user's local DTD is ever loaded (no network, no other file)."""
    head = '<?xml version="1.0"?>\n<!DOCTYPE dblp SYSTEM "http://127.0.0.1:9/elsewhere/dblp.dtd">\n<dblp>\n'
    dump = make_dump(
        "d.xml.gz", '<article key="a/1"><author>Jos&eacute; B</author><title>T</title></article>', head=head
    )
    ingest_dblp(tmp_path / "store.sqlite", dump, dtd, parallel=False)
    with Store(tmp_path / "store.sqlite") as store:
        assert next(store.all_records()).authors[0].given == "José"


def test_a_non_dtd_system_resource_is_refused(tmp_path: Path, dtd: Path, make_dump) -> None:
    head = '<?xml version="1.0"?>\n<!DOCTYPE dblp SYSTEM "file:///etc/passwd">\n<dblp>\n'
    dump = make_dump("d.xml.gz", '<article key="a/1"><title>T</title></article>', head=head)
    with pytest.raises(DumpError):
        ingest_dblp(tmp_path / "store.sqlite", dump, dtd, parallel=False)
    _store_untouched(tmp_path)


def test_undeclared_entity_is_a_clear_error(tmp_path: Path, dtd: Path, make_dump) -> None:
    dump = make_dump("d.xml.gz", '<article key="a/1"><title>T &nosuch;</title></article>')
    with pytest.raises(DumpError, match="nosuch"):
        ingest_dblp(tmp_path / "store.sqlite", dump, dtd, parallel=False)


def test_truncated_and_corrupt_gzip(tmp_path: Path, dtd: Path, dump: Path) -> None:
    data = dump.read_bytes()
    truncated = tmp_path / "t.xml.gz"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(DumpError, match="truncated"):
        ingest_dblp(tmp_path / "store.sqlite", truncated, dtd, parallel=False)
    corrupt = tmp_path / "c.xml.gz"
    corrupt.write_bytes(data[:20] + bytes(b ^ 0xFF for b in data[20:60]) + data[60:])
    with pytest.raises(DumpError, match=r"corrupt|malformed|truncated"):
        ingest_dblp(tmp_path / "store.sqlite", corrupt, dtd, parallel=False)
    _store_untouched(tmp_path)


def test_plain_xml_and_truncated_xml(tmp_path: Path, dtd: Path, make_dump) -> None:
    plain = make_dump("d.xml", '<article key="a/1"><author>A B</author><title>T</title></article>', gz=False)
    ingest_dblp(tmp_path / "store.sqlite", plain, dtd, parallel=False)
    cut = make_dump("cut.xml", '<article key="a/1"><author>A B</author><title>T</tit', tail="", gz=False)
    with pytest.raises(DumpError, match=r"truncated|malformed"):
        ingest_dblp(tmp_path / "store.sqlite", cut, dtd, parallel=False)


def test_gzip_of_garbage(tmp_path: Path, dtd: Path) -> None:
    junk = tmp_path / "j.xml.gz"
    junk.write_bytes(gzip.compress(b"\x00\x01 not xml at all"))
    with pytest.raises(DumpError):
        ingest_dblp(tmp_path / "store.sqlite", junk, dtd, parallel=False)
    _store_untouched(tmp_path)


def _chunks_of(data: bytes, chunk_bytes: int) -> list[Chunk]:
    return list(iter_chunks(io.BytesIO(data), Path("d.xml"), ("article", "www"), chunk_bytes))


def test_chunks_cut_only_where_a_record_starts_a_line_outside_comments(dtd: Path) -> None:
    body = "".join(f'<article key="a/{i}"><title>T{i}</title>\n<author>A{i} B</author></article>\n' for i in range(200))
    # A comment spanning lines that holds what looks like a record start must not be cut.
    body += '<!-- a note\n<article key="fake/1"><title>F</title></article>\n-->\n'
    body += "".join(f'<article key="b/{i}"><title>U{i}</title></article>\n' for i in range(200))
    data = ('<?xml version="1.0"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n' + body + "</dblp>\n").encode()
    chunks = _chunks_of(data, 500)
    assert len(chunks) > 10
    assert b"".join(c.body for c in chunks) + chunks[-1].suffix == data[len(chunks[0].prefix) :].rstrip()
    parser = parser_for(dtd)
    keys = [
        el.get("key") for c in chunks for el in parse_chunk(c, Path("d.xml"), parser).getroot() if el.tag == "article"
    ]
    assert keys == [f"a/{i}" for i in range(200)] + [f"b/{i}" for i in range(200)]


def test_chunks_of_a_dump_without_its_root_end_tag_are_refused() -> None:
    data = b'<?xml version="1.0"?>\n<dblp>\n' + b'<article key="a/1"><title>T</title></article>\n' * 50
    with pytest.raises(DumpError, match="truncated"):
        _chunks_of(data, 100)
    assert _chunks_of(b"<?xml version='1.0'?>\n<dblp/>\n", 100) == []


def test_parallel_ingest_over_many_chunks_keeps_dump_order_and_counts(
    tmp_path: Path, dtd: Path, make_dump, records_body, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small chunks: records are parsed by several processes; the last of two same keys still wins."""
    body = records_body(3000) + records_body(1, start=5, title="Replaced Title")
    dump = make_dump("many.xml.gz", body)
    monkeypatch.setattr(safexml, "CHUNK_BYTES", 4000)
    a = ingest_dblp(tmp_path / "a.sqlite", dump, dtd, parallel=True)
    b = ingest_dblp(tmp_path / "b.sqlite", dump, dtd, parallel=False)
    assert a.by_type == b.by_type == {"article": 3001}
    with Store(tmp_path / "a.sqlite") as sa, Store(tmp_path / "b.sqlite") as sb:
        ra, rb = list(sa.all_records()), list(sb.all_records())
        assert ra == rb and len(ra) == 3000
        assert next(r for r in ra if r.id == "journals/x/P5").title == "Replaced Title 5 about topic 5"
        assert sa.stats()["by_source_and_type"] == {"dblp": {"article": 3000}}


SUBSET = '[\n<!ENTITY inj "INJECTED">\n]'


@pytest.mark.parametrize(
    "head",
    [
        # the DOCTYPE after more than the first 64 KB the old check read
        f'<?xml version="1.0"?>\n<!--{"x" * 70_000}-->\n<!DOCTYPE dblp SYSTEM "dblp.dtd" {SUBSET}>\n<dblp>\n',
        # a '>' inside the system id ended the old check's DOCTYPE before its subset
        f'<?xml version="1.0"?>\n<!DOCTYPE dblp SYSTEM "a>b/dblp.dtd" {SUBSET}>\n<dblp>\n',
        f"<?xml version=\"1.0\"?>\n<!DOCTYPE dblp PUBLIC '-//x>y//EN' 'dblp.dtd' {SUBSET}>\n<dblp>\n",
    ],
)
@pytest.mark.parametrize("parallel", [False, True])
def test_an_internal_subset_is_refused_wherever_the_doctype_hides_it(
    tmp_path: Path, dtd: Path, make_dump, head: str, parallel: bool
) -> None:
    dump = make_dump("d.xml.gz", '<article key="a/1"><author>A B</author><title>T &inj;</title></article>', head=head)
    with pytest.raises(DumpError, match="internal subset"):
        ingest_dblp(tmp_path / "store.sqlite", dump, dtd, parallel=parallel)
    _store_untouched(tmp_path)
