"""What a reference line's text shows: a list label, names in one of their shapes, a year, a word a phrase runs
on after; and the list's habits read from those (author-year or numbered, flush or hanging).

Shared by the line segmenter's features (linecrf.py), which weigh these shapes, and the rules that repair its
reading (repairs.py), which test them; kept apart so that neither imports the other's internals.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from citetracer.extract.layout.page import Line

_LABEL = re.compile(r"^\s*(?:\[(\d{1,4})\]|(\d{1,4})\.(?:\s|$)|\((\d{1,4})\)|(\d{1,4})\s+(?=[A-Z]))")
_ALPHA_LABEL = re.compile(r"^\s*\[[A-Za-z][A-Za-z+\-.]{0,12}\s?\d{0,4}[a-z]?\]")
_SURNAME_INITIALS = re.compile(r"^[A-Z][\w'’\-]+(?:\s[A-Z][\w'’\-]+)?,\s*(?:[A-Z]\.|[A-Z][a-z])")
_INITIALS_SURNAME = re.compile(r"^[A-Z]\.\s?(?:[A-Z]\.\s?)*[A-Z][\w'’\-]+")
_FULL_NAME = re.compile(r"^[A-Z][\w'’\-]+(?:\s[A-Z]\.)*(?:\s[A-Z][\w'’\-]+){1,2}(?:,|\s+and\s|\.\s)")
_UPPER_RUN = re.compile(r"^[A-Z][A-Z'’\-]{2,}(?:,|\s)")
_YEAR = re.compile(r"\b(?:19|20)\d\d[a-z]?\b")
_OPENS_YEAR = re.compile(r"^\(?(?:19|20)\d\d")
#: A year between an entry's names and its title ("Li, H. 2021. Title", "Li, H. (2021). Title", a line opening
#: "2021. Title"): the mark of an author-year list, where a line ending in a year does not end the entry.
_MID_YEAR = re.compile(r"(?:^|[.,]\s|\()(?:19|20)\d\d[a-z]?\)?[.,:]?\s+\S")
#: Words a title or venue runs on after, never ends with.
_RUN_ON = frozenset("a an and at by for from in into of on or the to via with without".split())


def _bin(value: float, edges: Sequence[float], names: Sequence[str]) -> str:
    """The name of the first bin whose upper edge `value` stays under (the last name past every edge): a ratio
    as a feature value the model can weigh."""
    for edge, name in zip(edges, names, strict=False):
        if value < edge:
            return name
    return names[-1]


def _list_habits(head: Sequence[Line], offsets: list[int]) -> tuple[str, str]:
    """The list's style as its first lines show it: author-year ("ay": the year sits between names and
    title), numbered ("num") or between; and its indentation: "flush" when nearly every line starts at
    the same offset (no hanging indent: only the words tell where an entry starts), else "hang"."""
    with_year = sum(1 for ln in head if _YEAR.search(ln.text))
    mid = sum(1 for ln in head if _MID_YEAR.search(ln.text))
    style = _bin(mid / with_year if with_year else 0.0, (0.3, 0.6), ("num", "mixed", "ay"))
    at_first = Counter(offsets).most_common(1)[0][1] if offsets else 0
    indent = "flush" if offsets and at_first >= 0.85 * len(offsets) else "hang"
    return style, indent
