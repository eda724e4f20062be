"""Publishers as references write them: recognised in a knowledge base, and compared.

The knowledge base is data: `data/publishers.tsv` (each publisher, imprint, society, printer and
service with the names it is written by, and the group it belongs to), `data/publisher_relations.tsv`
(pairs that publish the same works without being one group, each with its reason) and
`data/publisher_words.tsv` (company words that say nothing of which company: "Inc.", "Verlag").

A publisher field is read segment by segment (split at commas, semicolons, colons, slashes and
brackets): within a segment, the longest listed names are found left to right, so "Springer-Verlag
New York", "IEEE Signal Processing Society" and "Springer, Berlin, Heidelberg" each name one
publisher, and "AAAI Press / The MIT Press" names two. A segment with no listed name is read once
more as an abbreviation of one ("Assoc. for Computational Linguistics") or with a typo ("American
Institue of Physics"). Segments that are places ("New York", "Cham") are not publishers.

How two fields relate (`publisher_relation`), and why:

- "same": they name one publisher, or two members of one group: an imprint and its house
  (Birkhäuser and Springer; North-Holland, Academic Press and Elsevier; Routledge, CRC Press and
  Taylor & Francis), a society and its own press (IEEE Computer Society and IEEE). A group sells one
  work under any of its imprints, reprints it under another, and the imprints' names change with
  acquisitions (Kluwer is Springer since 2004), so a citation naming another imprint of the group
  is right about the publisher.
- "related": a printer and a society (Curran Associates prints NeurIPS', ICML's and ACL's
  proceedings: the same volume carries both names), or a pair the relations table lists (the MIT
  Press published NIPS 8-19; PMLR publishes ICML; ICLR's proceedings are on OpenReview; ACM and IEEE
  co-publish). Not a contradiction: the caller treats it as a variant it can name.
- "different": both fields name listed publishers, and none of the first relates to any of the
  second, and neither field holds a segment the lists do not know. Only then is it a contradiction.
- "unknown": either field names no listed publisher, or holds a segment the lists do not know (a
  co-publisher we do not list could be the link): a gap in the lists, never a contradiction.

A preprint server against a publisher ("arXiv" against "Springer") is "different": two versions of
a work, which the caller must tell apart before comparing publishers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

from rapidfuzz import fuzz, process

from citetracer.data import lines
from citetracer.normalize.places import parse_place
from citetracer.normalize.text import fold

Relation = Literal["same", "related", "different", "unknown"]

#: Segments of a publisher field: "Springer, Berlin", "AAAI Press / MIT Press", "New York: Wiley" (a slash
#: without spaces joins one name: "Benjamin/Cummings", "Chapman & Hall/CRC"; within a segment every listed
#: name is found anyway: "IEEE/ACM").
_SEGMENTS = re.compile(r"[,;:()\[\]]|\s/\s|\s[-–—]\s|\son behalf of\s")
_TOKEN = re.compile(r"[^\W_]+")
#: Least similarity (0-100) of a segment to a listed name for a typo to be read, and shortest segment.
_TYPO_SCORE = 92
_TYPO_MIN_CHARS = 12
_MAX_FIELD = 500


@dataclass(frozen=True)
class Publisher:
    """A listed publisher: its id, the name it is listed under first, its group's id and its role."""

    id: str
    name: str
    group: str
    role: str  # publisher, society, printer, service


@dataclass(frozen=True)
class _Name:
    key: tuple[str, ...]
    acronym: bool  # written in capitals in the list: match only capitals
    ids: tuple[str, ...]


class _KB:
    """The lists, indexed by folded name key."""

    def __init__(self) -> None:
        self.ignore: frozenset[str] = frozenset()
        self.expand: dict[str, str] = {}
        words: set[str] = set()
        for line in lines("publisher_words.tsv"):
            kind, word, *rest = line.split("\t")
            if kind == "ignore":
                words.add(word)
            elif kind == "expand" and rest:
                self.expand[word] = rest[0]
        self.ignore = frozenset(words)
        self.publishers: dict[str, Publisher] = {}
        self.names: dict[tuple[str, ...], list[_Name]] = {}
        self.longest = 1
        for line in lines("publishers.tsv"):
            pid, group, role, names = line.split("\t")
            shown = names.split("|")[0].strip()
            self.publishers[pid] = Publisher(pid, shown, group, role)
            for name in (n.strip() for n in names.split("|")):
                key = tuple(w for w, _ in self.words(name))
                if not key:
                    continue
                acronym = len(key) == 1 and name.replace(".", "").isupper() and len(key[0]) <= 5
                entries = self.names.setdefault(key, [])
                same = next((e for e in entries if e.acronym == acronym), None)
                if same is None:
                    entries.append(_Name(key, acronym, (pid,)))
                elif pid not in same.ids:
                    entries[entries.index(same)] = _Name(key, acronym, (*same.ids, pid))
                self.longest = max(self.longest, len(key))
        self.related: dict[str, set[str]] = {}
        for line in lines("publisher_relations.tsv"):
            a, b, _why = line.split("\t")
            for x, y in ((a, b), (b, a)):
                self.related.setdefault(x, set()).add(y)
        self.by_length: dict[int, list[tuple[str, ...]]] = {}
        for key in self.names:
            self.by_length.setdefault(len(key), []).append(key)
        self.joined = {" ".join(k): k for k in self.names if len(" ".join(k)) >= _TYPO_MIN_CHARS - 2}

    def words(self, text: str) -> list[tuple[str, str]]:
        """(folded word, word as written) pairs, company words left out and abbreviations expanded."""
        out = []
        for written in _TOKEN.findall(text):
            for word in _TOKEN.findall(fold(written)):
                for part in self.expand.get(word, word).split():
                    if part not in self.ignore:
                        out.append((part, written))
        return out


@cache
def _kb() -> _KB:
    return _KB()


def _matches(name: _Name, written: list[str], whole: bool) -> bool:
    if name.acronym and not all(w.isupper() for w in written):
        return False
    return whole or len(name.key) > 1 or len(name.key[0]) > 2


def _segment_mentions(segment: str) -> list[tuple[str, ...]]:
    """The publishers one segment names, each as the ids its name may stand for, left to right."""
    kb = _kb()
    pairs = kb.words(segment)
    words = [w for w, _ in pairs]
    written = [o for _, o in pairs]
    out: list[tuple[str, ...]] = []
    i = 0
    while i < len(words):
        for n in range(min(kb.longest, len(words) - i), 0, -1):
            key = tuple(words[i : i + n])
            hits = [e for e in kb.names.get(key, ()) if _matches(e, written[i : i + n], whole=n == len(words))]
            if hits:
                out.append(tuple(dict.fromkeys(pid for e in hits for pid in e.ids)))
                i += n
                break
        else:
            i += 1
    if not out and words:
        guess = _abbreviated(tuple(words)) or _typo(" ".join(words))
        if guess is not None:
            out.append(tuple(dict.fromkeys(pid for e in kb.names[guess] for pid in e.ids)))
    return out


def _abbreviated(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The listed name whose words the segment's words begin, in order ("assoc for comput linguistics"),
    when exactly one listed name fits; one word abbreviated at least, none shorter than three letters."""
    if len(words) < 2:
        return None
    fits = []
    for key in _kb().by_length.get(len(words), ()):
        if key != words and all(k == w or (len(w) >= 3 and k.startswith(w)) for w, k in zip(words, key, strict=True)):
            fits.append(key)
    return fits[0] if len(fits) == 1 else None


def _typo(text: str) -> tuple[str, ...] | None:
    """The listed name a long segment misspells ("american institue of physics"), if one is that close."""
    if len(text) < _TYPO_MIN_CHARS:
        return None
    kb = _kb()
    best = process.extractOne(text, list(kb.joined), scorer=fuzz.ratio, score_cutoff=_TYPO_SCORE)
    return kb.joined[best[0]] if best else None


def _read(text: str) -> tuple[list[tuple[str, ...]], bool]:
    """The publishers a field names (each mention as its candidate ids), and whether some segment of
    it is neither a listed publisher, nor a place, nor only company words."""
    if not text or len(text) > _MAX_FIELD:
        return [], bool(text and text.strip())
    segments = [s.strip() for s in _SEGMENTS.split(text) if s and s.strip()]
    mentions: list[tuple[str, ...]] = []
    unknown = False
    # Each segment without its company words, as written: "Berlin Ltd." is a place.
    plain = [" ".join(dict.fromkeys(o for _, o in _kb().words(s))) for s in segments]
    for n, segment in enumerate(segments):
        found = _segment_mentions(segment)
        if found:
            mentions.extend(found)
        elif plain[n] and parse_place(", ".join(p for p in plain[n:] if p)) is None:
            unknown = True
    return mentions, unknown


def recognise_publishers(text: str) -> tuple[Publisher, ...]:
    """Every listed publisher a publisher field may name, in the order written (an acronym that names
    two bodies gives both: "AMS")."""
    kb = _kb()
    mentions, _ = _read(text)
    ids = dict.fromkeys(pid for mention in mentions for pid in mention)
    return tuple(kb.publishers[pid] for pid in ids)


def recognise_publisher(text: str) -> Publisher | None:
    """The listed publisher a publisher field names first, or None when it names none.

    Tolerant of case, punctuation, accents, company words and places: "Springer, Berlin, Heidelberg",
    "Springer-Verlag New York", "ACM Press", "Assoc. for Computational Linguistics"."""
    found = recognise_publishers(text)
    return found[0] if found else None


def _related(a: Publisher, b: Publisher) -> bool:
    kb = _kb()
    if {a.role, b.role} == {"printer", "society"}:
        return True
    links = kb.related.get(a.id, set()) | kb.related.get(a.group, set())
    return bool(links & {b.id, b.group})


def publisher_relation(cited: str, found: str) -> Relation:
    """How a cited publisher relates to a record's (see the module's docstring for why): "same",
    "related", "different" or "unknown". Symmetric."""
    kb = _kb()
    cited_mentions, cited_unknown = _read(cited)
    found_mentions, found_unknown = _read(found)
    if not cited_mentions or not found_mentions:
        return "unknown"
    a = [kb.publishers[p] for m in cited_mentions for p in m]
    b = [kb.publishers[p] for m in found_mentions for p in m]
    if any(x.id == y.id or x.group == y.group for x in a for y in b):
        return "same"
    if any(_related(x, y) for x in a for y in b):
        return "related"
    return "unknown" if cited_unknown or found_unknown else "different"


def publisher_count() -> tuple[int, int]:
    """How many publishers the lists hold, and how many names they are written by (for reports)."""
    kb = _kb()
    return len(kb.publishers), sum(len(v) for v in kb.names.values())
