"""Venue names: aliases, abbreviations and acronyms of one venue compare equal.

"NeurIPS", "NIPS 2021", "Advances in Neural Information Processing Systems 34"
and "Proc. of the 35th Conference on Neural Information Processing Systems"
name one venue; "ICML" and "NeurIPS" do not. Known aliases come from the data
table `venues.tsv`; unknown venues are compared by ISO 4 abbreviation rules,
acronyms and token overlap.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz import fuzz

from citetracer.data import lines
from citetracer.match.normalize import tokens

#: Words that carry no venue identity (publishers' society names, boilerplate).
_NOISE = frozenset(
    "proceedings proc the of in ieee cvf acm usenix siam annual volume vol part pp edition ed eds".split()
)
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$|^\d+$")
_ORDINAL_WORDS = frozenset(
    (
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
        "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth fortieth fiftieth"
    ).split()
)
PREPRINT_IDS = frozenset({"arxiv", "biorxiv", "medrxiv", "ssrn"})
_STOP = frozenset(["of", "the", "and", "on", "for", "in", "a", "an", "at", "to", "de"])


def clean(text: str) -> tuple[str, ...]:
    """Folded venue words without years, ordinals and boilerplate."""
    out = []
    for tok in tokens(text):
        if tok in _NOISE or _ORDINAL.match(tok) or tok in _ORDINAL_WORDS:
            continue
        out.append(tok)
    return tuple(out)


@lru_cache(maxsize=1)
def _alias_table() -> tuple[dict[str, str], tuple[tuple[str, str], ...]]:
    exact: dict[str, str] = {}
    for line in lines("venues.tsv"):
        venue_id, _, aliases = line.partition("\t")
        for alias in aliases.split("|"):
            key = " ".join(clean(alias))
            if key:
                exact.setdefault(key, venue_id.strip())
    by_length = tuple(sorted(exact.items(), key=lambda kv: -len(kv[0])))
    return exact, by_length


@lru_cache(maxsize=65536)
def venue_id(text: str | None) -> str | None:
    """The canonical id of a known venue named in `text`, or None."""
    if not text:
        return None
    words = clean(text)
    if not words:
        return None
    key = " ".join(words)
    exact, by_length = _alias_table()
    if key in exact:
        return exact[key]
    padded = f" {key} "
    for alias, vid in by_length:
        if f" {alias} " in padded:
            if "workshop" in words or "workshops" in words:
                return None if "workshop" in alias else f"{vid}-workshop"
            return vid
    return None


def is_known(text: str | None) -> bool:
    return venue_id(text) is not None


def is_preprint(text: str | None) -> bool:
    vid = venue_id(text)
    if vid in PREPRINT_IDS:
        return True
    return bool(text) and "preprint" in tokens(text or "")


def _content_words(words: tuple[str, ...]) -> list[str]:
    return [w for w in words if w not in _STOP]


def _is_abbreviation(short: str, full: str) -> bool:
    """ISO 4 style: every abbreviated word is a prefix of the next full content word."""
    short_words = _content_words(clean(short))
    full_words = _content_words(clean(full))
    if not short_words or len(short_words) != len(full_words):
        return False
    return all(f.startswith(s) for s, f in zip(short_words, full_words, strict=True))


def _is_acronym(short: str, full: str) -> bool:
    words = clean(short)
    if len(words) != 1 or len(words[0]) < 2:
        return False
    initials = "".join(w[0] for w in _content_words(clean(full)))
    return len(initials) >= 2 and initials == words[0]


@lru_cache(maxsize=65536)
def same_venue(cited: str, found: str) -> bool:
    """True when two venue strings name the same venue."""
    a_id, b_id = venue_id(cited), venue_id(found)
    if a_id and b_id:
        return a_id == b_id
    a, b = clean(cited), clean(found)
    if not a or not b:
        return False
    if a == b:
        return True
    if _is_abbreviation(cited, found) or _is_abbreviation(found, cited):
        return True
    if _is_acronym(cited, found) or _is_acronym(found, cited):
        return True
    if a_id or b_id:
        # One side is a known venue, the other is not one of its aliases.
        return False
    return fuzz.token_sort_ratio(" ".join(a), " ".join(b)) >= 92
