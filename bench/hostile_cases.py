"""The second campaign's cases of bench/hostile.py (issue 41): the readers and the store, not only the web front.

Every input is made by tests/hostile_files.py, the same files the tests use: hand-written PDFs (nesting,
page trees, Flate and JBIG2 bombs, damaged xref tables, encryption, HTML saved as .pdf) through `check`
and `scan`; BibTeX and LaTeX (@string bombs, deep braces, million-character fields, \\input of files
outside, mixed encodings; a hostile .bbl); mirror inputs (deep JSON, a 3 GB line, compressed, broken arXiv and OpenAlex
records, truncated and corrupt gzip); hostile text in a store's records; a truncated store, and a full
disk (a file-size limit: RLIMIT_FSIZE) under `mirror add` and `check`.
Each case is (name, CLI arguments, what to do just before, the file-size limit or None).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import hostile_files as H  # noqa: E402

Case = tuple[str, list[str], Callable[[], None], int | None]
FIXTURES = ROOT / "tests" / "mirror" / "fixtures"
EXAMPLE_BIB = ROOT / "examples" / "references.bib"
EXAMPLE_RECORDS = ROOT / "examples" / "records.jsonl"


def _none() -> None:
    return None


def hostile_pdfs(folder: Path) -> dict[str, Path]:
    """The hand-written hostile PDFs, made in `folder`: {case name: path}."""
    folder.mkdir(parents=True, exist_ok=True)
    made = {
        "nested arrays, 200k deep": H.pdf_nested_arrays(folder / "nested-arrays.pdf"),
        "nested dictionaries, 200k deep": H.pdf_nested_dicts(folder / "nested-dicts.pdf"),
        "page tree of 300,000 pages": H.pdf_many_pages(folder / "many-pages.pdf"),
        "page count 2**31-1": H.pdf_count_lie(folder / "count-lie.pdf"),
        "page tree that loops": H.pdf_page_tree_loop(folder / "tree-loop.pdf"),
        "Flate bomb scan (1.6 GB image)": H.pdf_flate_bomb(folder / "flate-bomb.pdf"),
        "JBIG2 bomb scan (60,000 px square)": H.pdf_jbig2_bomb(folder / "jbig2-bomb.pdf"),
        "encrypted": H.pdf_encrypted(folder / "encrypted.pdf"),
        "HTML saved as .pdf": H.html_as_pdf(folder / "html.pdf"),
        "HTML with %PDF- in a comment": H.html_as_pdf(folder / "html-marker.pdf", True),
    }
    for how in ("garbage", "past-eof", "loop", "huge-size", "none"):
        made[f"xref {how}"] = H.pdf_bad_xref(folder / f"xref-{how}.pdf", how)
    return made


def pdf_cases(tmp: Path, off: list[str]) -> list[Case]:
    folder = tmp / "pdfs"
    made = hostile_pdfs(folder)
    out: list[Case] = [(f"PDF: {name}", ["check", str(path), *off], _none, None) for name, path in made.items()]
    out.append(
        (f"scan of the {len(made)} PDFs above", ["scan", str(folder), "-o", str(tmp / "pdf-scan"), *off], _none, None)
    )
    return out


def bibtex_cases(tmp: Path, off: list[str]) -> list[Case]:
    secret = tmp / "outside" / "secret.bib"
    secret.parent.mkdir()
    secret.write_text(H.ENTRY.format(key="secret", title="A secret title outside"), encoding="utf-8")
    made = {
        "BibTeX: @string doubling 40 times (16 TB)": H.bib_string_doubling(tmp / "string-doubling.bib", 40),
        "BibTeX: @string naming itself": H.bib_string_recursion(tmp / "string-recursion.bib"),
        "BibTeX: braces 9,000 deep": H.bib_deep_braces(tmp / "deep-braces.bib"),
        "BibTeX: million-character fields": H.bib_huge_field(tmp / "huge-field.bib"),
        "BibTeX: UTF-8 with a Latin-1 entry": H.bib_mixed_encodings(tmp / "mixed.bib"),
        "LaTeX: \\input and \\bibliography outside": H.tex_includes(tmp / "tex", secret),
        "JSONL references nested 200k deep": H.jsonl_deep_nesting(tmp / "deep-refs.jsonl"),
        ".bbl: deep, huge, unbalanced, bad bytes, \\input outside": H.bbl_hostile(tmp / "bbl" / "refs.bbl", secret),
    }
    return [(name, ["check", str(path), *off], _none, None) for name, path in made.items()]


def mirror_cases(tmp: Path, s: list[str]) -> list[Case]:
    arxiv = (FIXTURES / "arxiv-snapshot.jsonl").read_text(encoding="utf-8").splitlines()
    openalex = (FIXTURES / "openalex" / "works-part_000.jsonl").read_text(encoding="utf-8").splitlines()
    date = ["--date", "2024-01-01"]
    m = tmp / "mirror"
    m.mkdir()
    gz = m / "records.jsonl.gz"
    gz.write_bytes(b"\x1f\x8b\x08\x00" + os.urandom(4000))
    return [
        ("add: JSON nested 200k deep", ["mirror", "add", str(H.jsonl_deep_nesting(m / "deep.jsonl")), *s], _none, None),
        ("add: a 3 GB line (sparse)", ["mirror", "add", str(H.jsonl_giant_line(m / "giant.jsonl")), *s], _none, None),
        ("add: a gzip'd file", ["mirror", "add", str(gz), *s], _none, None),
        (
            "arxiv: broken records",
            ["mirror", "arxiv", str(H.arxiv_broken_records(m / "arxiv.json", arxiv)), *date, *s],
            _none,
            None,
        ),
        (
            "arxiv: truncated gzip",
            ["mirror", "arxiv", str(H.gzip_truncated(m / "arxiv-cut.json.gz", arxiv * 50)), *date, *s],
            _none,
            None,
        ),
        (
            "arxiv: corrupt gzip",
            ["mirror", "arxiv", str(H.gzip_corrupt(m / "arxiv-bad.json.gz", arxiv * 200)), *date, *s],
            _none,
            None,
        ),
        (
            "arxiv: truncated xz",
            ["mirror", "arxiv", str(H.xz_file(m / "arxiv-cut.json.xz", arxiv * 50, "truncated")), *date, *s],
            _none,
            None,
        ),
        (
            "arxiv: corrupt xz",
            ["mirror", "arxiv", str(H.xz_file(m / "arxiv-bad.json.xz", arxiv * 200, "corrupt")), *date, *s],
            _none,
            None,
        ),
        (
            "arxiv: a 3 GB line (sparse)",
            ["mirror", "arxiv", str(H.jsonl_giant_line(m / "arxiv-giant.json")), *date, *s],
            _none,
            None,
        ),
        (
            "openalex: broken records",
            ["mirror", "openalex", str(H.openalex_broken_records(m / "oa.jsonl", openalex)), *s],
            _none,
            None,
        ),
        (
            "openalex: truncated gzip",
            ["mirror", "openalex", str(H.gzip_truncated(m / "oa-cut.gz", openalex * 20)), *s],
            _none,
            None,
        ),
        (
            "openalex: corrupt gzip",
            ["mirror", "openalex", str(H.gzip_corrupt(m / "oa-bad.gz", openalex * 50)), *s],
            _none,
            None,
        ),
    ]


def text_cases(tmp: Path) -> list[Case]:
    """A store whose records hold terminal escapes, bidi controls and markup, checked in every report format."""
    folder = tmp / "text"
    folder.mkdir()
    records = [
        {
            "id": "evil1",
            "title": "Deep Residual\u202e Learning for \x1b[2J\x1b]0;pwned\x07Image Recognition",
            "authors": ["Kaiming He", "Xiangyu Zhang"],
            "year": 2016,
            "venue": "CVPR\x1b[31m",
        },
        {"id": "evil2", "title": "Attention <img src=x onerror=alert(1)> | is | all", "authors": ["A Vaswani"]},
    ]
    (folder / "evil.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    store = ["--store", str(folder / "s.sqlite")]
    bib = folder / "evil.bib"
    bib.write_text(
        "@inproceedings{he, title={Deep Residual Learning for Image Recognition}, author={He, Kaiming and Zhang, "
        "Xiangyu}, booktitle={CVPR}, year={2016}}\n"
        "@article{homo, title={D\u0435\u0435p R\u0435sidu\u0430l L\u0435\u0430rning}, author={He, Kaiming}, "
        "journal={CVPR}, year={2016}}\n",
        encoding="utf-8",
    )
    out: list[Case] = [("text: seed a store of hostile records", ["mirror", "add", str(folder / "evil.jsonl"), *store],
                        _none, None)]  # fmt: skip
    for fmt in ("table", "markdown", "html", "sarif", "csv"):
        args = ["check", str(bib), "--offline", *store, "--format", fmt, "-o", str(folder / f"r.{fmt}")]
        out.append((f"text: escapes, bidi, homoglyphs (--format {fmt})", args, _none, None))
    return out


def store_cases(tmp: Path) -> list[Case]:
    folder = tmp / "store-cases"
    folder.mkdir()
    truncated = folder / "truncated.sqlite"
    full = folder / "full.sqlite"
    big = H.jsonl_path(folder / "big.jsonl", 200_000, "big")

    def seed_then_truncate() -> None:
        from citetracer.mirror.jsonl import add_jsonl
        from citetracer.store.db import Store

        with Store(truncated) as store:
            add_jsonl(store, big, "big")
        for extra in ("-wal", "-shm"):
            Path(f"{truncated}{extra}").unlink(missing_ok=True)
        os.truncate(truncated, truncated.stat().st_size // 2)

    def seed_full() -> None:
        from citetracer.mirror.jsonl import add_jsonl
        from citetracer.store.db import Store

        shutil.rmtree(full.parent / "full.sqlite.index", ignore_errors=True)
        with Store(full) as store:
            add_jsonl(store, EXAMPLE_RECORDS, "example")

    cap = 3 * 2**20
    return [
        ("store: truncated SQLite, stats", ["mirror", "stats", "--store", str(truncated)], seed_then_truncate, None),
        (
            "store: truncated SQLite, check",
            ["check", str(EXAMPLE_BIB), "--offline", "--store", str(truncated)],
            _none,
            None,
        ),
        (
            "store: full disk (3 MB file limit), mirror add",
            ["mirror", "add", str(big), "--store", str(full)],
            seed_full,
            cap,
        ),
        (
            "store: full disk, check after it",
            ["check", str(EXAMPLE_BIB), "--offline", "--store", str(full)],
            _none,
            cap,
        ),
        ("store: the same add, room again (resumes)", ["mirror", "add", str(big), "--store", str(full)], _none, None),
    ]


def campaign_cases(tmp: Path, store: Path) -> list[Case]:
    """Every case of the second campaign, in the order the table lists them."""
    off = ["--offline", "--store", str(store)]
    return [
        *pdf_cases(tmp, off),
        *bibtex_cases(tmp, off),
        *mirror_cases(tmp, ["--store", str(tmp / "mirror.sqlite")]),
        *text_cases(tmp),
        *store_cases(tmp),
    ]
