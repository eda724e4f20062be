"""Letters of other scripts that look like Latin ones (Cyrillic 'а' for Latin 'a'): found, and folded for search.

What we decided, and why:
- a title or name that mixes them into Latin words is not the same text as its look-alike: an honest
  copy never swaps a Latin letter for a Cyrillic one inside a word, so the matcher compares the letters
  as written (normalize/text.py folds case, accents and ligatures, never scripts) and such a title is a
  near miss of the real one, never an exact match;
- but it must not escape a search either: a title written in look-alikes would find nothing and read as
  "no such work" where the work it imitates exists. The store's index reads a mostly-Latin text through
  `latin_skeleton`, so the look-alike is found and compared (store/ranking.py: index_tokens);
- the readers warn about each such word, naming the letters (`mixed_script_words`), so that a report's
  reader can see what the eye cannot.

The table is data (data/homoglyphs.tsv: Unicode's confusables.txt, UTS #39). Pure functions.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from citetracer import data


@cache
def _table() -> dict[str, str]:
    return {cols[0]: cols[1] for cols in (line.split("\t") for line in data.lines("homoglyphs.tsv"))}


def _is_latin(ch: str) -> bool:
    return ch.isalpha() and (ch.isascii() or unicodedata.name(ch, "").startswith("LATIN"))


@lru_cache(maxsize=65536)
def latin_skeleton(text: str) -> str:
    """`text` with its look-alike letters read as the Latin letters they imitate, when its letters are
    mostly Latin (a Russian or Greek title is left as it is); plain ASCII comes back unchanged."""
    if text.isascii():
        return text
    table = _table()
    if not any(ch in table for ch in text):
        return text
    latin = sum(1 for ch in text if _is_latin(ch))
    other = sum(1 for ch in text if ch.isalpha() and not _is_latin(ch))
    if latin <= other:
        return text
    return "".join(table.get(ch, ch) for ch in text)


def mixed_script_words(text: str) -> list[tuple[str, list[str]]]:
    """Each word of `text` that mixes Latin letters with look-alikes from another script, with those
    letters as "U+0430 CYRILLIC SMALL LETTER A"; a text whose letters are mostly Latin also reports a
    word made of look-alikes only ('Dеер' and 'ре' in 'Dеер ре Learning')."""
    if text.isascii():
        return []
    table = _table()
    mostly_latin = latin_skeleton(text) != text
    out = []
    for word in text.split():
        odd = [ch for ch in word if ch in table]
        if not odd:
            continue
        if any(_is_latin(ch) for ch in word) or mostly_latin:
            names = [f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in dict.fromkeys(odd)]
            out.append((word, names))
    return out
