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

from citetracer.data import lexicon, lines
from citetracer.normalize.text import tokens

#: Words that carry no venue identity (boilerplate around the name).
_BOILERPLATE = frozenset("proceedings proc the of in annual volume vol part pp edition ed eds".split())
#: Societies and publishers that some renderings of a name include and others omit.
_SOCIETIES = frozenset("ieee cvf acm usenix siam".split())
#: Words that may surround a venue's name without changing which venue it is.
_FRAME = frozenset(
    "conference international meeting symposium on and for at "
    # publishers and series printed next to the venue ("..., PMLR", "Curran Associates, Inc.")
    "pmlr lncs lecture notes computer science springer curran associates inc openreview net press "
    "publishing publishers society computer mit kaufmann morgan elsevier".split()
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
    """Folded venue words without years, ordinals and boilerplate (and societies, when enough remains)."""
    words = [
        tok for tok in tokens(text) if tok not in _BOILERPLATE and not _ORDINAL.match(tok) and tok not in _ORDINAL_WORDS
    ]
    without_societies = [w for w in words if w not in _SOCIETIES]
    return tuple(without_societies if len(without_societies) >= 2 else words)


def _is_acronym_like(alias: str) -> bool:
    """A one-word alias distinctive enough to find inside a longer string (CVPR, NeurIPS, arXiv)."""
    word = alias.strip()
    if " " in word or len(word) < 3:
        return False
    upper = sum(ch.isupper() for ch in word)
    return upper >= 2 or any(ch.isupper() for ch in word[1:])


@lru_cache(maxsize=1)
def _alias_table() -> tuple[dict[str, str], dict[str, str], tuple[tuple[str, str], ...]]:
    """Exact aliases, acronym-like one-word aliases, and multi-word aliases (longest first)."""
    exact: dict[str, str] = {}
    acronyms: dict[str, str] = {}
    for line in lines("venues.tsv"):
        venue_id, _kind, aliases = line.split("\t", 2)
        vid = venue_id.strip()
        for alias in aliases.split("|"):
            key = " ".join(clean(alias))
            if not key:
                continue
            exact.setdefault(key, vid)
            if _is_acronym_like(alias):
                acronyms.setdefault(key, vid)
    multi = tuple(sorted(((k, v) for k, v in exact.items() if " " in k), key=lambda kv: -len(kv[0])))
    return exact, acronyms, multi


@lru_cache(maxsize=4096)
def acronyms_of(venue: str) -> frozenset[str]:
    """The acronyms of the table's venue `venue` (an id of `venue_id`), folded: "www", "thewebconf"."""
    return frozenset(word for word, vid in _alias_table()[1].items() if vid == venue)


#: "X at Y", "X co-located with Y": X is the venue, Y only hosts it.
_HOSTED = re.compile(r"\s(?:at|@|co-?located with|in conjunction with|held with|held at)\s.*$", re.IGNORECASE)


@lru_cache(maxsize=65536)
def venue_id(text: str | None) -> str | None:
    """The canonical id of a known venue named in `text`, or None. A venue held at another one ("Conference
    on Natural Language Learning at HLT-NAACL 2003") is the first, never its host."""
    if not text:
        return None
    # A workshop is named by its host ("Workshop on X at NeurIPS" is a NeurIPS workshop); anything else
    # held at a host is a venue of its own.
    words = clean(text if "workshop" in text.lower() else _HOSTED.sub("", text))
    if not words:
        return None
    key = " ".join(words)
    exact, acronyms, multi = _alias_table()
    if key in exact:
        return exact[key]
    workshop = "workshop" in words or "workshops" in words
    found: str | None = None
    # An acronym inside a longer name: "Proceedings of CVPR 2021", "... Recognition (CVPR)".
    for word in words:
        if word in acronyms:
            found = acronyms[word]
            break
    if found is None:
        # A full name inside a longer string, when what surrounds it is only framing words.
        padded = f" {key} "
        for alias, vid in multi:
            if f" {alias} " in padded:
                rest = padded.replace(f" {alias} ", " ", 1).split()
                if all(w in _FRAME or w in acronyms for w in rest):
                    found = vid
                    break
    if found is None:
        return None
    if workshop and "workshop" not in found:
        return f"{found}-workshop"
    return found


@lru_cache(maxsize=1)
def _kinds() -> dict[str, str]:
    return {line.split("\t", 2)[0].strip(): line.split("\t", 2)[1].strip() for line in lines("venues.tsv")}


_JOURNAL_WORDS = lexicon.words("journal-word")
_CONFERENCE_WORDS = lexicon.words("conference-word")


def venue_kind(text: str | None, record_type: str | None = None) -> str | None:
    """'conference', 'journal', 'workshop' or 'preprint', from the alias table, the name or the entry type."""
    if not text:
        return None
    vid = venue_id(text)
    if vid is not None:
        return "workshop" if vid.endswith("-workshop") else _kinds().get(vid)
    words = set(tokens(text))
    if "workshop" in words or "workshops" in words:
        return "workshop"
    if is_preprint(text):
        return "preprint"
    if words & _JOURNAL_WORDS or record_type == "article":
        return "journal"
    if words & _CONFERENCE_WORDS or record_type == "inproceedings":
        return "conference"
    return None


def is_known(text: str | None) -> bool:
    return venue_id(text) is not None


@lru_cache(maxsize=65536)
def is_preprint(text: str | None) -> bool:
    """Whether a venue is a preprint server, or says it is a preprint. Cached: the matcher asks it of every
    candidate's venue that differs from the cited one, and the same records' venues come back again and again."""
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


#: Words that say what kind of venue a name is, or frame it, without naming which one.
_KIND_WORDS = _JOURNAL_WORDS | _CONFERENCE_WORDS | {"workshop", "workshops", "proceedings", "series", "notices"}
_GENERIC = _FRAME | _KIND_WORDS | _BOILERPLATE | _STOP | _SOCIETIES | {"advances", "acm", "ieee", "cvf", "iacr"}
_MONTHS = frozenset("january february march april may june july august september october november december".split())


def _core(text: str) -> list[str]:
    """The words of a venue name that say which venue it is (no kind, frame, year, month or ordinal)."""
    return [w for w in clean(text) if w not in _GENERIC and w not in _MONTHS and not w.isdigit() and len(w) > 1]


def _word_in(word: str, names: set[str]) -> bool:
    """A cited venue word written as a name's word, or as its abbreviation ("Comput." for "Computational")."""
    return word in names or any(
        (len(word) >= 3 and n.startswith(word))
        or (len(n) >= 3 and word.startswith(n))
        or (len(word) >= 7 and len(n) >= 7 and word[:6] == n[:6])  # one stem: "Networks" / "Networking"
        for n in names
    )


def _acronyms(text: str) -> set[str]:
    """Acronym-like words as the name writes them ("SIGCSE", "MobiCom", "WWW")."""
    words = re.findall(r"[A-Za-z][A-Za-z-]*", text or "")
    return {w.replace("-", "").casefold() for w in words if _is_acronym_like(w.replace("-", ""))}


@lru_cache(maxsize=65536)
def spells(cited: str, name: str) -> bool:
    """Whether `cited` can be a way of writing the venue named `name` (a short form, a full
    proceedings title, a name cut short by extraction, or the name with ordinals, years, places,
    societies and "Proceedings of the" around it).

    Real venue spellings are endless, so this errs towards "yes": it says "no" only when the cited
    name carries words the venue's name does not (a different topic), names a different known
    venue, or names a journal where the venue is a conference without sharing its acronym.
    """
    if not cited or not name:
        return False
    a_id, b_id = venue_id(cited), venue_id(name)
    if a_id and b_id:
        return a_id == b_id or a_id.removesuffix("-workshop") == b_id.removesuffix("-workshop")
    if same_venue(cited, name):
        return True
    shared_acronym = bool(_acronyms(cited) & (_acronyms(name) | set(tokens(name))))
    a_kind, b_kind = venue_kind(cited), venue_kind(name)
    if a_kind and b_kind and a_kind != b_kind and {a_kind, b_kind} == {"journal", "conference"} and not shared_acronym:
        return False
    a, b = _core(cited), _core(name)
    if not a or not b:
        return shared_acronym
    initials = "".join(w[0] for w in b)
    a_words, b_words = set(a), set(b)
    if all(_word_in(w, b_words) or w == initials for w in a):
        return True  # the cited name is the venue's name, shortened, abbreviated or cut off
    if b_words <= _acronyms(name) and b_words <= set(tokens(cited)) | _acronyms(cited):
        return True  # the venue's acronym written inside the cited name ("... Technology (TIST)")
    if _contains_phrase(clean(cited), clean(name)) and b:
        return True  # the venue's whole name within a longer cited spelling (places, dates, societies)
    return shared_acronym and len(a_words - b_words) <= 1


def _contains_phrase(longer: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    """Whether `phrase` occurs as consecutive words of `longer` ("Conference on Machine Learning" does
    not occur in "Conference on Quantum Machine Learning": an inserted word names another topic)."""
    words = tuple(w for w in phrase if w not in _STOP)
    seq = tuple(w for w in longer if w not in _STOP)
    n = len(words)
    return n > 0 and any(seq[i : i + n] == words for i in range(len(seq) - n + 1))


def spells_any(cited: str, names: list[str]) -> bool:
    return any(spells(cited, n) for n in names if n)
