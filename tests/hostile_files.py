"""Hostile input files, written by hand, for the tests of every reader and for bench/hostile.py.

Each function writes one file (or folder) into the path given and returns it: PDFs built object by
object (so a test controls exactly what is damaged: nesting, page tree, xref, an image's stream),
BibTeX and LaTeX that attack the reader's macros and braces, and mirror inputs (JSONL, gzip) that
attack the ingest. The bench runs the same files through the CLI, the tests through the CLI, `scan`
and the web app.
"""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

# ------------------------------------------------------------------ PDFs


def pdf_bytes(objects: list[bytes], root: int = 1, xref: bool = True, trailer_extra: bytes = b"") -> bytes:
    """A PDF of `objects` numbered from 1, with a correct xref table (unless `xref` is False)."""
    out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
    offsets = []
    for k, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
    start = len(out)
    if xref:
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
        out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<</Size %d/Root %d 0 R%s>>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        root,
        trailer_extra,
        start,
    )
    return out


def _stream(content: bytes, extra: bytes = b"") -> bytes:
    return b"<</Length %d%s>>stream\n" % (len(content), extra) + content + b"\nendstream"


FONT = b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>"
TEXT = b"BT /F1 10 Tf 72 700 Td (References) Tj 0 -14 Td ([1] A. Writer. A title of a paper. In Proc. X, 2019.) Tj ET"


def _page(contents: int, resources: bytes = b"/Font<</F1 4 0 R>>") -> bytes:
    return b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Resources<<%s>>/Contents %d 0 R>>" % (
        resources,
        contents,
    )


def pdf_nested_arrays(path: Path, depth: int = 200_000) -> Path:
    """A page whose content stream is fine but whose /Annots is an array nested `depth` deep."""
    nested = b"[" * depth + b"]" * depth
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Resources<</Font<</F1 4 0 R>>>>/Contents 5 0 R/Annots "
        + nested
        + b">>",
        FONT,
        _stream(TEXT),
    ]
    path.write_bytes(pdf_bytes(objects))
    return path


def pdf_nested_dicts(path: Path, depth: int = 200_000) -> Path:
    """A resources dictionary nested `depth` deep (<</A <</A ... >> >>)."""
    nested = b"<</A " * depth + b"1" + b">>" * depth
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        _page(5, b"/Font<</F1 4 0 R>>/Properties " + nested),
        FONT,
        _stream(TEXT),
    ]
    path.write_bytes(pdf_bytes(objects))
    return path


def pdf_many_pages(path: Path, pages: int = 300_000) -> Path:
    """A page tree of `pages` pages that all point to one page object and one content stream (a small file)."""
    kids = b" ".join([b"3 0 R"] * pages)
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[" + kids + b"]/Count %d>>" % pages,
        _page(5),
        FONT,
        _stream(b"BT /F1 10 Tf 72 700 Td (Filler page of text, which says nothing much at all.) Tj ET"),
    ]
    path.write_bytes(pdf_bytes(objects))
    return path


def pdf_count_lie(path: Path) -> Path:
    """One page whose page tree claims 2,147,483,647."""
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 2147483647>>",
        _page(5),
        FONT,
        _stream(TEXT),
    ]
    path.write_bytes(pdf_bytes(objects))
    return path


def pdf_page_tree_loop(path: Path) -> Path:
    """A page tree whose node lists itself among its kids."""
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[2 0 R 3 0 R]/Count 2>>",
        _page(5),
        FONT,
        _stream(TEXT),
    ]
    path.write_bytes(pdf_bytes(objects))
    return path


def pdf_flate_bomb(path: Path, side: int = 40_000) -> Path:
    """A one-page scan: a `side` x `side` greyscale image (1.6 GB at 40,000) whose Flate stream is a
    couple of MB of zeros, and no text: the reader must render the page to OCR it."""
    packer = zlib.compressobj(9)
    row = bytes(side)
    chunks = [packer.compress(row) for _ in range(side)]
    data = b"".join(chunks) + packer.flush()
    image = _stream(
        data,
        b"/Type/XObject/Subtype/Image/Width %d/Height %d/ColorSpace/DeviceGray/BitsPerComponent 8/Filter/FlateDecode"
        % (side, side),
    )
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        _page(5, b"/XObject<</Im1 4 0 R>>"),
        image,
        _stream(b"q 595 0 0 842 0 0 cm /Im1 Do Q"),
    ]
    path.write_bytes(pdf_bytes(objects))
    return path


def _jbig2_segment(number: int, kind: int, page: int, data: bytes) -> bytes:
    # Header: number (4), flags (1: type), referred-to count/retain (1), page association (1), data length (4).
    return number.to_bytes(4, "big") + bytes([kind, 0, page]) + len(data).to_bytes(4, "big") + data


def pdf_jbig2_bomb(path: Path, side: int = 60_000) -> Path:
    """A page image in JBIG2 whose page and region declare `side` x `side` pixels (450 MB as a bitmap at
    60,000) over a few bytes of generic-region data."""
    page_info = side.to_bytes(4, "big") * 2 + (0).to_bytes(4, "big") * 2 + bytes([0]) + (0).to_bytes(2, "big")
    region = side.to_bytes(4, "big") * 2 + (0).to_bytes(4, "big") * 2 + bytes([0])  # region info + flags
    region += bytes([0])  # generic region flags: arithmetic, template 0
    region += bytes([3, 0xFF, 0xFD, 0xFF, 2, 0xFE, 0xFE, 0xFE])  # AT pixels
    region += b"\x00" * 64
    data = _jbig2_segment(0, 48, 1, page_info) + _jbig2_segment(1, 38, 1, region)
    image = _stream(
        data,
        b"/Type/XObject/Subtype/Image/Width %d/Height %d/ColorSpace/DeviceGray/BitsPerComponent 1/Filter/JBIG2Decode"
        % (side, side),
    )
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        _page(5, b"/XObject<</Im1 4 0 R>>"),
        image,
        _stream(b"q 595 0 0 842 0 0 cm /Im1 Do Q"),
    ]
    path.write_bytes(pdf_bytes(objects))
    return path


def pdf_bad_xref(path: Path, how: str) -> Path:
    """A small text PDF with its cross-reference damaged: `garbage` offsets, `past-eof` startxref, a
    `loop` of /Prev sections, a `huge-size` xref stream (/Size 2**31), or `none` at all."""
    objects = [b"<</Type/Catalog/Pages 2 0 R>>", b"<</Type/Pages/Kids[3 0 R]/Count 1>>", _page(5), FONT, _stream(TEXT)]
    good = pdf_bytes(objects)
    body = good[: good.index(b"xref\n")]
    if how == "garbage":
        data = body + b"xref\n0 6\n" + b"".join(b"%010d 00000 n \n" % (999_999_999 - k) for k in range(6))
        data += b"trailer\n<</Size 6/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % len(body)
    elif how == "past-eof":
        data = good[: good.rindex(b"startxref")] + b"startxref\n99999999999\n%%EOF\n"
    elif how == "loop":
        start = len(body)
        section = b"xref\n0 1\n0000000000 65535 f \ntrailer\n<</Size 6/Root 1 0 R/Prev %d>>\n" % start
        data = body + section + b"startxref\n%d\n%%%%EOF\n" % start
    elif how == "huge-size":
        xs = b"<</Type/XRef/Size 2147483647/W[1 4 2]/Index[0 2147483647]/Root 1 0 R/Length 7>>stream\n"
        xs += b"\x00" * 7 + b"\nendstream"
        start = len(body)
        data = body + b"6 0 obj\n" + xs + b"\nendobj\nstartxref\n%d\n%%%%EOF\n" % start
    elif how == "none":
        data = body + b"%%EOF\n"
    else:
        raise ValueError(how)
    path.write_bytes(data)
    return path


def pdf_encrypted(path: Path, password: str = "secret") -> Path:
    """A one-page text PDF that needs a password to open (fpdf2's AES encryption)."""
    from tests.extract.conftest import build_pdf

    return build_pdf(path, [[(72, 80, "References", 14), (72, 100, "[1] A. Writer. A title. 2019.", 10)]], password)


def html_as_pdf(path: Path, with_marker: bool = False) -> Path:
    """An HTML page saved as .pdf (a download that went wrong); `with_marker` puts '%PDF-' in its first KB."""
    head = "<!-- %PDF-1.7 -->\n" if with_marker else ""
    path.write_text(
        head + "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
        "<script>window.location='/challenge'</script><p>Checking your browser</p></body></html>\n",
        encoding="utf-8",
    )
    return path


# ------------------------------------------------------------------ BibTeX and LaTeX

ENTRY = "@article{{{key}, title={{{title}}}, author={{Writer, Ann}}, journal={{Journal of Tests}}, year={{2019}}}}\n"


def bib_string_doubling(path: Path, levels: int = 40) -> Path:
    """@string macros that each concatenate the previous one twice: 2**levels copies of 16 characters,
    then an entry whose title is the last macro, and a good entry after it."""
    lines = ['@string{m0 = "sixteen chars.. "}']
    lines += [f"@string{{m{i} = m{i - 1} # m{i - 1}}}" for i in range(1, levels + 1)]
    lines.append(f"@article{{bomb, title = m{levels}, author={{Writer, Ann}}, year={{2019}}}}")
    text = "\n".join(lines) + "\n" + ENTRY.format(key="good", title="A good title after the bomb")
    path.write_text(text, encoding="utf-8")
    return path


def bib_string_recursion(path: Path) -> Path:
    """@string macros that name themselves and each other, used in a title; and a good entry."""
    text = '@string{a = a # " x"}\n@string{b = c}\n@string{c = b # b}\n'
    text += "@article{loop, title = a # b # c, author={Writer, Ann}, year={2019}}\n"
    text += ENTRY.format(key="good", title="A good title after the loop")
    path.write_text(text, encoding="utf-8")
    return path


def bib_deep_braces(path: Path, depth: int = 9_000) -> Path:
    """A title nested `depth` braces deep (under the value cap), then a good entry."""
    title = "{" * depth + "Deep" + "}" * depth
    path.write_text(ENTRY.format(key="deep", title=title) + ENTRY.format(key="good", title="A good title"))
    return path


def bib_huge_field(path: Path, chars: int = 1_000_000) -> Path:
    """An entry whose abstract is `chars` characters, then one whose title is, then a good entry."""
    text = (
        "@article{abs, title={A title with a long abstract}, author={Writer, Ann}, year={2019}, abstract={"
        + "word " * (chars // 5)
        + "}}\n"
    )
    text += ENTRY.format(key="huge", title="x" * chars) + ENTRY.format(key="good", title="A good title")
    path.write_text(text, encoding="utf-8")
    return path


def bib_mixed_encodings(path: Path) -> Path:
    """A .bib mostly in UTF-8 with one entry pasted in Latin-1 (and one stray invalid byte)."""
    utf8 = ENTRY.format(key="utf", title="Übersetzung und Schönheit").encode("utf-8")
    latin = ENTRY.format(key="latin", title="Réseaux de neurones profonds").encode("latin-1")
    stray = ENTRY.format(key="stray", title="A title with a stray byte \udcff here").encode("utf-8", "surrogateescape")
    path.write_bytes(utf8 + latin + stray)
    return path


BBL_ITEM = "\\bibitem{{{key}}} A. Writer. {title}. In Proc. of Tests, 2019.\n"


def bbl_hostile(path: Path, outside: Path, open_items: int = 5000) -> Path:
    """A .bbl of a good item beside hostile ones: braces 200,000 deep, a 2-million-character item,
    `open_items` items with unbalanced braces, an optional label of 100,000 '[', bytes that are not UTF-8, and
    \\input/\\include of a file outside its folder (a .bbl is read alone: never followed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    head = "\\begin{thebibliography}{9}\n" + f"\\input{{{outside}}}\n\\include{{{outside.with_suffix('')}}}\n"
    text = head + BBL_ITEM.format(key="good", title="A good title in a bbl")
    text += "\\bibitem{deep} A. B. " + "{" * 200_000 + "x" + "}" * 200_000 + " 2019.\n"
    text += "\\bibitem{huge} A. B. " + "word " * 400_000 + "2019.\n"
    text += "".join(f"\\bibitem{{open{i}}} A. B. {{{{{{ An open title, 2019.\n" for i in range(open_items))
    text += "\\bibitem[" + "[" * 100_000 + "]{label} A. Title. 2019.\n"
    data = text.encode("utf-8") + b"\\bibitem{bytes} M. M\xfcller. A title \xff\xfe\xc3( with bad bytes. 2019.\n"
    path.write_bytes(data + b"\\end{thebibliography}\n")
    return path


def tex_includes(folder: Path, outside: Path) -> Path:
    """A .tex that \\input's and \\include's a file outside its folder and names a \\bibliography there
    (absolute and through '..'), plus a good .bib beside it that it also names."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "good.bib").write_text(ENTRY.format(key="good", title="A good title beside the tex"), encoding="utf-8")
    stem = outside.with_suffix("")
    tex = folder / "paper.tex"
    tex.write_text(
        "\\documentclass{article}\\begin{document}\n"
        f"\\input{{{outside}}}\n\\include{{{stem}}}\n\\InputIfFileExists{{{outside}}}{{}}{{}}\n"
        "Text \\cite{good}.\n"
        f"\\bibliography{{good,{stem},../{outside.parent.name}/{stem.name}}}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    return tex


# ------------------------------------------------------------------ mirror inputs


def jsonl_good(n: int, prefix: str = "g") -> list[str]:
    return [
        json.dumps(
            {"id": f"{prefix}{i}", "title": f"A good record number {i}", "authors": ["Ann Writer"], "year": 2019}
        )
        for i in range(n)
    ]


def jsonl_deep_nesting(path: Path, depth: int = 200_000) -> Path:
    """JSON lines: a good record, a line of `depth` nested arrays, a record with a deeply nested field, good ones."""
    lines = jsonl_good(1, "a")
    lines.append("[" * depth + "]" * depth)
    lines.append('{"id": "x", "title": "Nested", "authors": ' + "[" * depth + "]" * depth + "}")
    lines += jsonl_good(2, "b")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def jsonl_giant_line(path: Path, size: int = 3 * 2**30) -> Path:
    """A good record, then a line of `size` bytes without a newline (a sparse file: no disk used), then
    a good record. The giant line is NUL bytes, which JSON never holds."""
    with path.open("wb") as fh:
        fh.write(("\n".join(jsonl_good(1, "a")) + "\n").encode())
        fh.seek(size, 1)
        fh.write(("\n" + "\n".join(jsonl_good(1, "b")) + "\n").encode())
    return path


def gzip_truncated(path: Path, lines: list[str], keep: float = 0.5) -> Path:
    """`lines` gzip'd, cut at `keep` of the compressed bytes."""
    data = gzip.compress(("\n".join(lines) + "\n").encode())
    path.write_bytes(data[: max(20, int(len(data) * keep))])
    return path


def gzip_corrupt(path: Path, lines: list[str]) -> Path:
    """`lines` gzip'd, with bytes in the middle of the deflate stream overwritten."""
    data = bytearray(gzip.compress(("\n".join(lines) + "\n").encode(), compresslevel=1))
    mid = len(data) // 2
    data[mid : mid + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    return path


def arxiv_broken_records(path: Path, good: list[str]) -> Path:
    """An arXiv snapshot: `good` lines, with records of every wrong shape among them (fields of the wrong
    type, missing ids, nesting, a list for an object), each a line of its own."""
    broken = [
        {"id": "2101.00001", "title": ["not", "a", "string"], "authors": 5, "versions": "v1"},
        {"id": None, "title": "No id at all", "authors": "A. Writer"},
        {"id": "2101.00002", "title": "Authors parsed wrongly", "authors_parsed": [[1, 2, 3], "x", None]},
        {"id": "2101.00003", "title": "Versions wrongly", "versions": [{"created": 12}, None, "v2"]},
        {"id": "2101.00004", "title": "Dates wrongly", "update_date": "yesterday", "versions": [{"created": "soon"}]},
        {"id": "2101.00005", "title": "Deep", "authors_parsed": json.loads("[" * 500 + "]" * 500)},
        {"id": "2101.00006", "title": "x" * 200_000, "authors": "A. Writer"},
    ]
    lines = [good[0], *(json.dumps(b) for b in broken), "[" * 100_000 + "]" * 100_000, "not json", *good[1:]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def openalex_broken_records(path: Path, good: list[str]) -> Path:
    """An OpenAlex works part: `good` lines, with records of every wrong shape among them."""
    broken = [
        {"id": "https://openalex.org/W1", "title": 5, "authorships": "many", "publication_year": "soon"},
        {"id": None, "display_name": "No id"},
        {"id": "https://openalex.org/W2", "display_name": "Bad authorships", "authorships": [None, 3, {"author": 7}]},
        {"id": "https://openalex.org/W3", "display_name": "Bad location", "primary_location": [1, 2], "locations": 4},
        {"id": "https://openalex.org/W4", "display_name": "Bad ids", "ids": "doi", "doi": 10},
        {"id": "https://openalex.org/W5", "display_name": "Deep", "authorships": json.loads("[" * 500 + "]" * 500)},
    ]
    lines = [good[0], *(json.dumps(b) for b in broken), "[" * 100_000 + "]" * 100_000, "{", *good[1:]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def jsonl_path(path: Path, n: int, prefix: str = "g") -> Path:
    """`jsonl_good(n, prefix)` written to `path`."""
    path.write_text("\n".join(jsonl_good(n, prefix)) + "\n", encoding="utf-8")
    return path


def xz_file(path: Path, lines: list[str], damage: str | None = None) -> Path:
    """`lines` xz'd: whole, `truncated` at half its bytes, or `corrupt` (bytes of its middle overwritten)."""
    import lzma

    data = bytearray(lzma.compress(("\n".join(lines) + "\n").encode()))
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "corrupt":
        mid = len(data) // 2
        data[mid : mid + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    return path
