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
import itertools
from functools import lru_cache

from rapidfuzz import fuzz

from citetracer.data import lexicon
from citetracer.normalize.text import title_words

#: Content words that must be swapped one for one, the rest of the title kept in place, to call it rewritten.
SWAPPED_WORDS = 2
#: Content words the two titles must keep in place: the frame that shows one was made from the other.
KEPT_WORDS = 2
#: The longest phrase a rewrite puts in place of another (a name, an adjective and its noun).
PHRASE_WORDS = 3
#: Two words at least this alike (edit-distance ratio) are one word spelt two ways, not a swap.
_SPELLING = 0.8
_STOP = lexicon.words("title-stop")


def _swap(u: str, v: str) -> bool:
    """Whether `v` in place of `u` is a swap of content words, not a spelling or a function word."""
    if not u or u in _STOP or v in _STOP:
        return False
    return fuzz.ratio(u, v) / 100.0 < _SPELLING


@lru_cache(maxsize=65536)
def swapped_in_place(cited: str, found: str) -> tuple[tuple[str, str], ...]:
    """The content words by which the cited title rewrites the found one in place ((cited, found) pairs), when it
    does; empty when the difference is anything else (words added or dropped, a phrase recast, words moved,
    spellings): what a renamed version may be.

    In place: titles of one length compared word by word, or, of lengths apart, every difference a phrase of at
    most PHRASE_WORDS words put in place of another that short (no word added or dropped alone). A rewrite puts
    at least SWAPPED_WORDS content words the found title lacks (a word moved within it is no new one) and keeps
    KEPT_WORDS content words, at least half of the found title's."""
    x, y = title_words(cited), title_words(found)
    if x == y:
        return ()
    pairs = _aligned(x, y)
    if pairs is None:
        return ()
    present = set(y)
    swaps = [(u, v) for u, v in pairs if u != v and u not in present and _swap(u, v)]
    words = set(x)
    kept = sum(1 for w in y if w not in _STOP and w in words)
    content = sum(1 for w in y if w not in _STOP)
    if len(swaps) < SWAPPED_WORDS or kept < max(KEPT_WORDS, content / 2):
        return ()
    return tuple(swaps)


def _aligned(x: tuple[str, ...], y: tuple[str, ...]) -> list[tuple[str, str]] | None:
    """The words of two titles paired where they stand (a phrase paired with a phrase word by word, the shorter one
    padded with ""), or None when a word is added or dropped alone or a phrase put in another's place is long."""
    if len(x) == len(y):
        pairs = list(zip(x, y, strict=True))
        held, present = sum(u == v for u, v in pairs), set(y)
        if held >= max(KEPT_WORDS, sum(u != v and u in present for u, v in pairs)):
            return pairs  # the frame in place: words swapped where they stand, not the title reordered
    pairs = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=x, b=y, autojunk=False).get_opcodes():
        if op == "equal":
            pairs.extend(zip(x[i1:i2], y[j1:j2], strict=True))
        elif op == "replace" and max(i2 - i1, j2 - j1) <= PHRASE_WORDS:
            pairs.extend(itertools.zip_longest(x[i1:i2], y[j1:j2], fillvalue=""))
        else:
            return None
    return pairs
