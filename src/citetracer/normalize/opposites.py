"""Words that say the opposite of each other: a title that swaps one for the other claims the opposite of a work.

Papers are renamed between versions, so a record of the cited authors under a title alike the cited one may be
the cited work under another of its titles (judge/gate.py withholds absence then). Renaming rewords, adds and
drops; it does not turn a finding into its opposite: a version of "Efficient Bit-Flip Attacks on Multimodal LLMs"
is not called "Inefficient Bit-Flip Defenses on Unimodal LLMs", nor "Two-dimensional ..." "Three-dimensional ...".
Such a swap is what a fabrication made from a real title looks like, and it is equally what separates two real
works of one group ("Upper bounds ..." and "Lower bounds ..."): either way the record is not the cited work.
"""

from __future__ import annotations

import difflib
from functools import cache, lru_cache

from citetracer.data import lexicon
from citetracer.normalize.text import NEGATORS, title_words

#: Prefixes that negate the word they open ("efficient"/"inefficient", "bounded"/"unbounded").
_NEGATION = ("non", "un", "in", "im", "ir", "il", "dis")
#: Endings of the adjectives and participles such prefixes negate: a prefix on any other word is no negation
#: ("formation"/"information", "solution"/"dissolution", "version"/"inversion").
_ADJECTIVE = (
    "able", "ible", "al", "ent", "ant", "ive", "ic", "ed", "ful", "ous", "ar", "ary", "ite", "ect", "ete", "ient",
)  # fmt: skip
#: Groups of prefixes that say opposite or different amounts of one thing ("multimodal"/"unimodal",
#: "overfitting"/"underfitting", "encoder"/"decoder"); within a group, a swap over one stem is opposed.
_PREFIX_GROUPS = (
    ("multi", "uni", "mono", "bi", "poly", "single", "omni", "tri"),
    ("over", "under"),
    ("hyper", "hypo"),
    ("pre", "post"),
    ("intra", "inter"),
    ("up", "down"),
    ("sub", "super"),
    ("micro", "macro"),
    ("homo", "hetero"),
    ("en", "de"),
    ("in", "out"),
)
#: Stem letters a prefix swap needs: shorter stems make chance pairs ("bit"/"unit").
_STEM = 4
_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve hundred thousand million billion "
    "i ii iii iv v vi vii viii ix x"
).split()


@cache
def _pairs() -> frozenset[frozenset[str]]:
    return frozenset(frozenset(line.split()) for line in lexicon.words("opposite") if len(line.split()) == 2)


def _number(word: str) -> bool:
    return word.isdigit() or word in _NUMBER_WORDS


def opposite(a: str, b: str) -> bool:
    """Whether two folded words say the opposite of each other, or name different numbers."""
    if a == b:
        return False
    if frozenset((a, b)) in _pairs():
        return True
    if _number(a) and _number(b):
        return True
    for short, long_ in ((a, b), (b, a)):
        for prefix in _NEGATION:
            if long_ == prefix + short and len(short) >= _STEM and short.endswith(_ADJECTIVE):
                return True
    for group in _PREFIX_GROUPS:
        pa = next((p for p in group if a.startswith(p) and len(a) - len(p) >= _STEM), None)
        pb = next((p for p in group if b.startswith(p) and len(b) - len(p) >= _STEM), None)
        if pa and pb and pa != pb and a[len(pa) :] == b[len(pb) :]:
            return True
    return False


@lru_cache(maxsize=65536)
def opposed_words(cited: str, found: str) -> tuple[str, str] | None:
    """The first pair of words by which one title says the opposite of the other, in place of each other
    ("inefficient", "efficient"), or a negator one adds ("non", ""); None when no swap says so."""
    x, y = title_words(cited), title_words(found)
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=x, b=y, autojunk=False).get_opcodes():
        if op == "replace":
            for u in x[i1:i2]:
                for v in y[j1:j2]:
                    if opposite(u, v):
                        return u, v
        elif op == "insert" and i1 < len(x) and set(y[j1:j2]) & NEGATORS:
            return "", next(w for w in y[j1:j2] if w in NEGATORS)
        elif op == "delete" and j1 < len(y) and set(x[i1:i2]) & NEGATORS:
            return next(w for w in x[i1:i2] if w in NEGATORS), ""
    return None
