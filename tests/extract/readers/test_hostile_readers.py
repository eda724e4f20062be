"""Hostile BibTeX, LaTeX, JSONL and encodings through `check` in its own process (tests/hostile_files.py).

Found by these tests: @string macros that each join the one before twice took 24 GB in 2 KB of
BibTeX; a .tex read the .bib files it named anywhere (an absolute path, '..'); a .bib in UTF-8 with
one Latin-1 entry was read whole as Latin-1 ("Ãbersetzung"); JSON nested deeper than Python's stack
ended `check` with an internal error.
"""

from __future__ import annotations

import json
from pathlib import Path

from citetracer.extract import decode_text
from citetracer.extract.readers.bibtex import MAX_VALUE_CHARS, parse_bibtex
from tests import hostile_files as H
from tests.cliproc import one_clear_error, run_cli

CAP = 2 * 2**30


def checked(tmp_path: Path, path: Path) -> tuple[dict[str, dict], str]:
    """{id: citation} of `check --offline --format jsonl` on `path`, and its stderr (exit 0, no traceback)."""
    proc = run_cli(tmp_path, "check", str(path), "--offline", "--format", "jsonl", memory_cap=CAP, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return {c["id"]: c for c in map(json.loads, proc.stdout.splitlines())}, proc.stderr


def test_string_macros_that_double_stop_at_the_value_cap_and_the_rest_is_read(tmp_path: Path) -> None:
    got, err = checked(tmp_path, H.bib_string_doubling(tmp_path / "bomb.bib", levels=40))
    assert list(got) == ["good"]  # the bomb's entry is skipped, not read as a title 'm40'
    assert f"value longer than {MAX_VALUE_CHARS:,} characters once its @string macros are joined" in err
    assert "uses @string 'm40', which was skipped" in err


def test_the_parser_itself_never_builds_a_value_past_the_cap() -> None:
    text = '@string{m0 = "' + "x" * 15_000 + '"}\n@string{m1 = m0 # m0}\n@article{a, title = m1 # m1}\n'
    parsed = parse_bibtex(text)
    assert parsed.entries == []
    assert len(parsed.errors) == 2


def test_string_macros_that_name_themselves_are_read_once(tmp_path: Path) -> None:
    got, _ = checked(tmp_path, H.bib_string_recursion(tmp_path / "loop.bib"))
    assert set(got) == {"loop", "good"}
    assert len(got["loop"]["reference"]["title"]) < 40


def test_braces_nested_thousands_deep_are_stripped_not_recursed(tmp_path: Path) -> None:
    got, _ = checked(tmp_path, H.bib_deep_braces(tmp_path / "deep.bib"))
    assert got["deep"]["reference"]["title"] == "Deep"
    assert "good" in got


def test_million_character_fields_skip_their_entry_with_one_line_each(tmp_path: Path) -> None:
    got, err = checked(tmp_path, H.bib_huge_field(tmp_path / "huge.bib"))
    assert list(got) == ["good"]
    assert err.count("value too long (unbalanced braces?); entry skipped") == 2


def test_a_latin1_entry_in_a_utf8_bib_keeps_both_encodings_right(tmp_path: Path) -> None:
    got, err = checked(tmp_path, H.bib_mixed_encodings(tmp_path / "mixed.bib"))
    assert got["utf"]["reference"]["title"] == "Übersetzung und Schönheit"
    assert got["latin"]["reference"]["title"] == "Réseaux de neurones profonds"
    assert got["stray"]["reference"]["title"] == "A title with a stray byte ÿ here"
    assert "not valid UTF-8 from byte" in err


def test_decoding_is_utf8_where_it_can_be() -> None:
    assert decode_text("naïve".encode()) == ("naïve", None)
    text, problem = decode_text("Ü ".encode() + b"\x93quoted\x94 \x81")
    assert text == "Ü “quoted” \x81" and problem is not None


def test_fix_keeps_the_utf8_entries_of_a_mixed_file(tmp_path: Path) -> None:
    bib = H.bib_mixed_encodings(tmp_path / "mixed.bib")
    fixed = tmp_path / "fixed.bib"
    proc = run_cli(tmp_path, "check", str(bib), "--offline", "--fix", str(fixed), "--format", "json", "-o", "/dev/null")
    assert proc.returncode == 0, proc.stderr
    text = fixed.read_text(encoding="utf-8")
    assert "Übersetzung und Schönheit" in text and "Réseaux de neurones profonds" in text


def test_a_tex_opens_no_file_outside_its_folder(tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "secret.bib"
    secret.parent.mkdir()
    secret.write_text(H.ENTRY.format(key="secret", title="A secret title outside"), encoding="utf-8")
    tex = H.tex_includes(tmp_path / "paper", secret)
    got, err = checked(tmp_path, tex)
    assert list(got) == ["good"]
    assert "secret" not in json.dumps(got)
    assert err.count("outside the folder of paper.tex; not read (give it on the command line to check it)") == 2


def test_a_tex_whose_every_bib_is_outside_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "paper").mkdir()
    tex = tmp_path / "paper" / "paper.tex"
    tex.write_text("\\bibliography{/etc/passwd}\n", encoding="utf-8")
    proc = run_cli(tmp_path, "check", str(tex), "--offline")
    assert proc.returncode == 2
    assert "every .bib file it names is outside its folder" in one_clear_error(proc)


def test_a_link_out_of_the_folder_is_outside_too(tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "secret.bib"
    secret.parent.mkdir()
    secret.write_text(H.ENTRY.format(key="secret", title="A secret title outside"), encoding="utf-8")
    (tmp_path / "paper").mkdir()
    (tmp_path / "paper" / "refs.bib").symlink_to(secret)
    tex = tmp_path / "paper" / "paper.tex"
    tex.write_text("\\bibliography{refs}\n", encoding="utf-8")
    proc = run_cli(tmp_path, "check", str(tex), "--offline")
    assert proc.returncode == 2 and "secret" not in proc.stdout
    one_clear_error(proc)


def test_jsonl_nested_deeper_than_the_stack_is_skipped_line_by_line(tmp_path: Path) -> None:
    got, err = checked(tmp_path, H.jsonl_deep_nesting(tmp_path / "deep.jsonl"))
    assert len(got) == 3
    assert err.count("JSON nested too deep; skipped") == 2


def test_a_hostile_bbl_is_read_in_bounds_and_opens_no_other_file(tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "secret.tex"
    secret.parent.mkdir()
    secret.write_text("\\bibitem{secret} S. Secret. A secret title outside. 2019.\n", encoding="utf-8")
    bbl = H.bbl_hostile(tmp_path / "paper" / "refs.bbl", secret, open_items=300)
    got, err = checked(tmp_path, bbl)
    assert "secret" not in json.dumps(got) and "secret" not in err
    assert got["good"]["reference"]["title"] == "A good title in a bbl"
    assert {"deep", "huge", "bytes"} <= set(got) and sum(k.startswith("open") for k in got) == 300
    assert "\\bibitem 'huge' is 2,000,0" in err and "only its first 6,000 were read" in err
    assert "not valid UTF-8 from byte" in err
    assert got["bytes"]["reference"]["authors"][0]["family"] == "Müller"
