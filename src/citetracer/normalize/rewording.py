"""Words swapped in place: a title rewritten word for word is not another title of a work.

Papers are renamed between versions, so a record of the cited authors under a title alike the cited one may be
the cited work under another of its titles (judge/gate.py withholds absence then). A renaming adds a name or a
subtitle, drops framing words, reorders, or recasts a phrase. What it does not do is keep every other word in its
place and swap several content words one for one: "Tyche: A Hybrid Computation Framework of Illumination Pattern
for Satellite Beam Hopping" does not become "Tyche: A Unidirectional Computation Framework of Illumination
Features for Ground Beam Hopping". That is how a title is made up from a real one (a near miss). A spelling
("modelling"/"modeling", "network"/"networks") and a function word ("a"/"an", "with"/"via") are no swap, and
neither is one content word: a version may well trade "generation" for "synthesis".
"""

from __future__ import annotations

import difflib
from functools import lru_cache

from rapidfuzz import fuzz

from citetracer.data import lexicon
from citetracer.normalize.text import title_words

#: Content words that must be swapped one for one, the rest of the title kept in place, to call it rewritten.
SWAPPED_WORDS = 2
#: Content words the two titles must keep in place: the frame that shows one was made from the other.
KEPT_WORDS = 2
#: Two words at least this alike (edit-distance ratio) are one word spelt two ways, not a swap.
_SPELLING = 0.8
_STOP = lexicon.words("title-stop")


def _swap(u: str, v: str) -> bool:
    """Whether `v` in place of `u` is a swap of content words, not a spelling or a function word."""
    if u in _STOP or v in _STOP:
        return False
    return fuzz.ratio(u, v) / 100.0 < _SPELLING


@lru_cache(maxsize=65536)
def swapped_in_place(cited: str, found: str) -> tuple[tuple[str, str], ...]:
    """The content words by which the cited title rewrites the found one word for word ((cited, found) pairs),
    when it does: both titles of the same length, every difference a one-for-one swap at the same place, at
    least SWAPPED_WORDS content words swapped and KEPT_WORDS kept. Empty when the difference is anything else
    (words added or dropped, a phrase recast to another length, spellings): what a renamed version may be."""
    x, y = title_words(cited), title_words(found)
    if len(x) != len(y) or x == y:
        return ()
    swaps: list[tuple[str, str]] = []
    kept = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=x, b=y, autojunk=False).get_opcodes():
        if op == "equal":
            kept += sum(1 for w in x[i1:i2] if w not in _STOP)
        elif op == "replace" and i2 - i1 == j2 - j1:
            swaps.extend((u, v) for u, v in zip(x[i1:i2], y[j1:j2], strict=True) if _swap(u, v))
        else:
            return ()
    if len(swaps) < SWAPPED_WORDS or kept < KEPT_WORDS:
        return ()
    return tuple(swaps)
