"""Given names: how a cited given name relates to the one a record holds.

A citation may write a given name in full, as initials, as a known nickname ("Bill" for "William",
from the nickname table `data/nicknames.tsv`, compiled from the `nicknames` package, Apache-2.0),
or cut short where no convention explains it ("Lin" for "Linchao", "Sau." for "Saurabh"): the first
two are the same name written differently, the third a known variant, the last unexplained.

Names are folded the way `names.name_keys` folds them (case, diacritics, LaTeX, punctuation and
hyphens: "Jean-Pierre" = "Jean Pierre"; two or three capitals are initials: "JP"), so that this
module and the author-list comparison never disagree on what a written name is. Chinese given names
written joined or hyphenated are one name ("Xiao-Wei" = "Xiaowei"), and German umlauts may be
written out ("Jürgen" = "Juergen").
"""

from __future__ import annotations

from typing import Literal

from citetracer.normalize.names import is_nickname, name_keys
from citetracer.records import Person

GivenRelation = Literal["equal", "initial", "nickname", "fragment", "different"]
_ORDER: tuple[GivenRelation, ...] = ("equal", "initial", "nickname", "fragment", "different")
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_MAX_NAME = 200


def given_tokens(given: str) -> tuple[str, ...]:
    """The folded words of a given name, as `names.name_keys` reads them ("J.-P." -> ("j", "p"))."""
    if not given or len(given) > _MAX_NAME:
        return ()
    return name_keys(Person(given=given, family="x")).given


def _token_relation(cited: str, found: str) -> GivenRelation:
    if cited == found:
        return "equal"
    if (len(cited) == 1 and found.startswith(cited)) or (len(found) == 1 and cited.startswith(found)):
        return "initial"
    if is_nickname(cited, found):
        return "nickname"
    short, long_ = sorted((cited, found), key=len)
    if len(short) >= 3 and long_.startswith(short) and not (short.endswith("n") and long_ == short + "g"):
        return "fragment"
    return "different"


def _splits(joined: str, initials: tuple[str, ...]) -> bool:
    """Whether a name written as one word can be split into parts of two letters or more that begin
    with the given initials, in order ("xiaowei" with "x", "w": "xiao" + "wei")."""
    if not initials:
        return not joined
    if not joined.startswith(initials[0]):
        return False
    if len(initials) == 1:
        return len(joined) >= 1
    return any(_splits(joined[cut:], initials[1:]) for cut in range(2, len(joined) - 1))


def _relation(c: tuple[str, ...], f: tuple[str, ...]) -> GivenRelation:
    if c == f or "".join(c) == "".join(f):
        return "equal"
    if all(len(t) == 1 for t in c) and len(f) == 1 and len(c) > 1 and _splits(f[0], c):
        return "initial"  # "X.-W." for "Xiaowei"
    if all(len(t) == 1 for t in f) and len(c) == 1 and len(f) > 1 and _splits(c[0], f):
        return "initial"
    jc, jf = "".join(c), "".join(f)
    if len(c) != len(f) and min(map(len, c + f)) >= 2 and not (jc.startswith(jf) or jf.startswith(jc)):
        return _token_relation(jc, jf)  # split differently ("Xiao-Wei" / "Xiaowen"): compared whole
    worst = max((_token_relation(x, y) for x, y in zip(c, f, strict=False)), key=_ORDER.index)
    if worst == "equal" and len(c) != len(f):
        return "initial"  # a middle name left out on one side ("Jean" for "Jean Pierre")
    return worst


def given_relation(cited: str, found: str) -> GivenRelation:
    """How a cited given name relates to a record's given name.

    - "equal": the same name after folding ("Jean-Pierre" / "Jean Pierre", "Xiao-Wei" / "Xiaowei");
    - "initial": the cited name is the record's initials ("J.", "J. P.", "JP" for "Jean Pierre"),
      or either side leaves out a middle name or gives only initials; a side with no given name at
      all states nothing to contradict and is counted here too;
    - "nickname": the nickname table pairs them, in either direction ("Bill" / "William");
    - "fragment": one is a proper prefix of the other, of three letters or more, that is neither an
      initial nor a nickname ("Lin" for "Linchao", "Sau." for "Saurabh"); shorter prefixes and the
      Pinyin pairs in -n/-ng ("Li"/"Lin", "Jian"/"Jiang", "Xin"/"Xing") are different names, as
      `names` reads them;
    - "different": anything else ("John" / "Peter").

    Several words are compared in order and the pair reads as its least exact word. Symmetric
    except that "fragment" and "initial" name which side is shorter only in their description."""
    c, f = given_tokens(cited), given_tokens(found)
    if not c or not f:
        return "initial"
    best = _relation(c, f)
    if best != "equal" and any(ch in _UMLAUTS_CHARS for ch in cited + found):
        alt = _relation(given_tokens(cited.translate(_UMLAUTS)), given_tokens(found.translate(_UMLAUTS)))
        best = min(best, alt, key=_ORDER.index)
    return best


_UMLAUTS_CHARS = frozenset("äöüÄÖÜ")
