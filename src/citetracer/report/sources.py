"""Where a report finds an input's entries again: the .bib files behind it and each key's line.

Citations carry their key (`id`) but not where it is written; SARIF needs the file and line,
the corrected BibTeX needs the text. Both read the input again, bounded as the extractor
bounds it.
"""

from __future__ import annotations

import re
from pathlib import Path

from citetracer.extract import MAX_TEXT_BYTES, bibliography_files_inside, decode_text, looks_like_bibtex
from citetracer.extract.readers.bibtex import parse_bibtex

Location = tuple[Path, int | None]


def read_text_file(path: Path) -> str | None:
    """The text of a bibliography source file, or None when it is too large, unreadable or binary."""
    try:
        if path.stat().st_size > MAX_TEXT_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\x00" in data[:65536]:
        return None
    return decode_text(data)[0]


_BIBITEM = re.compile(r"\\bibitem\s*(?:\[(?:[^\[\]]|\[[^\]]*\])*\])?\s*\{([^}]*)\}")


def entry_locations(path: Path) -> dict[str, Location]:
    """Where each entry key of an input is written: (file, 1-based line); empty for other inputs."""
    suffix = path.suffix.lower()
    if suffix not in (".bib", ".tex", ".bbl", ".ltx"):
        return {}
    text = read_text_file(path)
    if text is None:
        return {}
    out: dict[str, Location] = {}
    if suffix == ".bib" or (suffix != ".bbl" and "\\bibitem" not in text and looks_like_bibtex(text)):
        for entry in parse_bibtex(text).entries:
            out.setdefault(entry.key, (path, entry.line))
        return out
    if "\\bibitem" in text:
        for m in _BIBITEM.finditer(text):
            out.setdefault(m.group(1).strip(), (path, text.count("\n", 0, m.start()) + 1))
        return out
    for bib in bibliography_files_inside(text, path)[0]:
        for key, loc in entry_locations(bib).items():
            out.setdefault(key, loc)
    return out


def bib_sources(path: Path) -> list[Path]:
    """The .bib files behind an input: itself, or the ones a .tex names; [] for other inputs."""
    suffix = path.suffix.lower()
    if suffix == ".bib":
        return [path]
    if suffix == ".tex":
        text = read_text_file(path)
        if text and "\\bibitem" not in text:
            return [p for p in bibliography_files_inside(text, path)[0] if p.is_file()]
    return []
