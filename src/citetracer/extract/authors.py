"""The author list at the start of a reference string, read by the shapes of names.

Tokens are classified as initials ("J.", "J.-P.", "JJ"), name words
("Smith", "O'Hara", "Pérez-Higueras", "COLLMAN"), particles ("van", "de"),
conjunctions ("and", "&", "et"), "et al." and editor marks. Names are built
from runs of such tokens; commas and periods close them. The list ends at
the last point where a name was closed by punctuation before something that
is not a name (a year, a quote, a lowercase word, a fifth capitalised word
in a row): that is the boundary the title starts after.

Pairs "Surname," + "I." / "Given I." are one person (inverted form); a
piece "Surname IJ" is Vancouver style; anything else is "Given Surname".
"""

from __future__ import annotations

import re

from citetracer.data import lines
from citetracer.records import Person

_PARTICLES = frozenset(lines("name_particles.txt"))
_INIT_DOTTED = re.compile(r"^(?:(?:[A-Z]|Ch|Th|Ph|Sh|Zh|Kh|Ts|Yu|Ya)\.-?){1,4}$|^[A-Z]\.?-[A-Z]\.?$")
#: Capitalised words that open titles and are not names (checked only where a name would start).
TITLE_OPENERS = frozenset(
    "the on in an towards toward using from for how what why when where is are do does can beyond between "
    "through via some new notes note introduction proceedings about against all analysis".split()
)
_INIT_BARE = re.compile(r"^[A-Z]{1,3}$|^[A-Z]{1,2}-[A-Z]{1,2}$")
_EDITOR = re.compile(
    r"^\(?(?:eds?|editors?|hrsg|coords?|dir|director|trans|translator|comp|compiler|producer)\.?\)?$", re.IGNORECASE
)
_AND = frozenset({"and", "&", "und", "et", "y", "e"})
_SUFFIX = frozenset({"jr", "sr", "ii", "iii", "iv"})
MAX_NAME_TOKENS = 4

INIT, NAME, PARTICLE, AND, ETAL, EDITOR, SUFFIX, OTHER = range(8)


def _kind(core: str, nxt: str | None) -> int:
    low = core.lower()
    if low in ("et", "et.") and nxt is not None and nxt.lower().startswith("al"):
        return ETAL
    if low in _AND:
        return AND
    if low.rstrip(".") in _SUFFIX and core[:1].isupper():
        return SUFFIX
    if _EDITOR.match(core):
        return EDITOR
    if low in _PARTICLES:
        return PARTICLE
    if _INIT_DOTTED.match(core) or _INIT_BARE.match(core):
        return INIT
    letters = re.sub(r"['’\-]", "", core)
    if (
        len(letters) >= 2
        and core[0].isupper()
        and letters.isalpha()
        and (any(c.islower() for c in letters) or len(letters) >= 4)
    ):
        return NAME
    return OTHER


def split_names(text: str) -> tuple[list[Person], bool, int]:
    """(people, et al., index in `text` where the rest of the reference starts)."""
    toks = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", text)]
    pieces: list[list[tuple[str, int]]] = []
    cur: list[tuple[str, int]] = []
    et_al = False
    good_end, good_pieces, good_etal = 0, 0, False
    joined = after_and = False  # the piece being read / the next one follows "and"
    i = 0
    while i < len(toks):
        _start, end, tok = toks[i]
        bare = tok.rstrip(",.;:")
        if tok[:1] in "([\"“«`'" and not _EDITOR.match(bare):
            # A year, a bracket or a quote right after a name ends the list: "Jin-yi Cai (1990), ...".
            if cur and _acceptable(cur, pieces, joined):
                pieces.append(cur)
                cur = []
                good_end, good_pieces, good_etal = toks[i - 1][1], len(pieces), et_al
            break
        trail = tok[len(bare) :]
        # Initials keep their dots ("J.", "J.-P."); the punctuation after the token decides what it closes.
        core = tok.rstrip(",;:") if _INIT_DOTTED.match(tok.rstrip(",;:")) else bare
        nxt = toks[i + 1][2] if i + 1 < len(toks) else None
        kind = _kind(core, nxt)
        if kind == ETAL:
            if cur:
                pieces.append(cur)
                cur = []
            et_al = True
            i += 2  # "et" "al."
            good_end, good_pieces, good_etal = toks[min(i, len(toks)) - 1][1], len(pieces), True
            continue
        if kind == AND:
            if cur:
                pieces.append(cur)
                cur = []
            after_and = True
            i += 1
            continue
        if kind == EDITOR:
            if cur:
                pieces.append(cur)
                cur = []
            good_end, good_pieces, good_etal = end, len(pieces), et_al
            i += 1
            continue
        if kind == SUFFIX:
            if cur or pieces:
                good_end = end if trail else good_end
            i += 1
            continue
        if (
            kind == OTHER
            and cur
            and re.fullmatch(r"(?:1[5-9]|20)\d\d[a-z]?[.,:]?", tok)
            and _acceptable(cur, pieces, joined)
        ):
            # "Boas, Franz 1935 Kwakiutl Culture ...": a bare year right after a name ends the list.
            pieces.append(cur)
            cur = []
            good_end, good_pieces, good_etal = toks[i - 1][1], len(pieces), et_al
            break
        if kind == OTHER or len(cur) >= MAX_NAME_TOKENS or (not cur and core.lower() in TITLE_OPENERS):
            break
        if not cur:
            # "and" joins a name to a list read so far, not to unconfirmed pieces ("Key, Politics, Parties, and ...")
            joined, after_and = after_and and good_pieces == len(pieces), False
        cur.append((core, kind))
        if trail[:1] == ":" and kind != INIT:
            break  # "Rethinking Architecture: A Reader" is a title
        if "," in trail or ";" in trail:
            if not _acceptable(cur, pieces, joined):
                break
            pieces.append(cur)
            # "Surname," is only a name once its initials follow (else "..., Macroscopic, neat, ..." is a title).
            provisional = _family_only(cur) and (
                len(pieces) == 1
                or any(all(k == INIT for _, k in p) for p in pieces[:-1])
                or _initials_first(pieces[:-1])
            )
            cur = []
            if not provisional:
                good_end, good_pieces, good_etal = end, len(pieces), et_al
        elif trail[:1] in (".", ":"):
            if not (
                _closes(cur, pieces, kind, core, nxt, toks[i + 2][2] if i + 2 < len(toks) else None)
                and _acceptable(cur, pieces, joined)
            ):
                if trail[:1] != ".":
                    break  # "Attribute Grammars: Definitions" is a title, not a name
                i += 1
                continue
            pieces.append(cur)
            cur = []
            good_end, good_pieces, good_etal = end, len(pieces), et_al
            if trail[:1] == ":" or not _continues(toks, i + 1):
                break
        i += 1
    people = _people(pieces[:good_pieces])
    if not people:
        return [], False, 0
    return people, good_etal, good_end


def _acceptable(cur: list[tuple[str, int]], pieces: list[list[tuple[str, int]]], joined: bool = False) -> bool:
    """Is this piece a name here? Several capitalised words without initials, in a list written with
    initials, are a title ("Card, S. K., The Information Visualizer, ..."), unless "and" joins them to the
    list ("Sokol, B. J., and Mary Sokol")."""
    kinds = [k for _, k in cur]
    if NAME not in kinds and not all(k == INIT for k in kinds):
        return False
    if INIT not in kinds and kinds.count(NAME) >= 2 and not joined:
        return not any(all(k == INIT for _, k in p) for p in pieces) and not _initials_first(pieces)
    return True


def _initials_first(pieces: list[list[tuple[str, int]]]) -> bool:
    """Is the list so far written "I. Surname, J. K. Surname"? Then a piece without initials that follows is a
    title ("N. W. Ashcroft and N. D. Mermin, Solid State Physics", "V. O. Key, Politics, Parties, ...")."""
    return (
        bool(pieces)
        and pieces[0][0][1] == INIT
        and all((p[0][1] == INIT and any(k == NAME for _, k in p)) or _family_only(p) for p in pieces)
    )


def _closes(
    cur: list[tuple[str, int]],
    pieces: list[list[tuple[str, int]]],
    kind: int,
    core: str,
    nxt: str | None,
    nxt2: str | None,
) -> bool:
    """Does a period after this token finish the name being read?"""
    if kind != INIT:
        return True  # "Lifschitz." or "Team."
    if nxt is not None and _kind(nxt.rstrip(",;:"), None) == INIT and _INIT_DOTTED.match(nxt.rstrip(",;:")):
        return False  # "G. E." goes on
    inverted = bool(pieces) and _family_only(pieces[-1]) and (len(pieces) < 2 or not _family_only(pieces[-2]))
    if all(k == INIT for _, k in cur):
        # "Smith, J." closes; a leading "J." of "J. Smith" does not.
        return inverted
    if not core.endswith("."):
        return True  # "Peters OA." (Vancouver)
    # "James J." closes an inverted name ("Alpigini, James J."); "David R." of "David R. Cheriton" does not,
    # but "Lipeck U. W." (family first, dotted initials) does: tell them apart by what follows.
    if inverted:
        return True
    if nxt is None or _kind(nxt.rstrip(",.;:"), nxt2) != NAME:
        return True
    name_follows = nxt[-1:] in ",.;:" or (nxt2 is not None and (nxt2.lower() in _AND or nxt2.startswith("(")))
    return not name_follows


def _continues(toks: list[tuple[int, int, str]], j: int) -> bool:
    """After a name closed by a period, does the list go on ("..., E. and Smith, J.")?"""
    if j >= len(toks):
        return False
    tok = toks[j][2]
    if tok.lower() in _AND:
        return True
    core = tok.rstrip(",.;:")
    nxt = toks[j + 1][2] if j + 1 < len(toks) else None
    if _kind(core, nxt) in (ETAL, EDITOR):
        return True
    # "Smith, J., Doe, K." is caught by commas; a period followed by a new "Surname," is a list going on.
    return (
        tok.endswith(",")
        and _kind(core, nxt) == NAME
        and nxt is not None
        and bool(_INIT_DOTTED.match(nxt.rstrip(",.;:")))
    )


def _family_only(piece: list[tuple[str, int]]) -> bool:
    kinds = [k for _, k in piece]
    return kinds[-1] == NAME and all(k == PARTICLE for k in kinds[:-1])


def _given_only(piece: list[tuple[str, int]]) -> bool:
    kinds = [k for _, k in piece]
    if all(k == INIT for k in kinds):
        return True
    names = sum(1 for k in kinds if k == NAME)
    return names == 1 and kinds[0] == NAME and all(k == INIT for k in kinds[1:]) and len(kinds) <= 3


def _people(pieces: list[list[tuple[str, int]]]) -> list[Person]:
    out: list[Person] = []
    i = 0
    while i < len(pieces):
        piece = pieces[i]
        nxt = pieces[i + 1] if i + 1 < len(pieces) else None
        if nxt is not None and _family_only(piece) and _given_only(nxt):
            out.append(Person(given=_join(nxt), family=_join(piece)))
            i += 2
            continue
        person = _person(piece)
        if person is not None:
            out.append(person)
        i += 1
    return out


def _join(piece: list[tuple[str, int]]) -> str:
    return " ".join(w for w, _ in piece)


def _person(piece: list[tuple[str, int]]) -> Person | None:
    kinds = [k for _, k in piece]
    if NAME not in kinds:
        return None
    if kinds[-1] == INIT and kinds[0] in (NAME, PARTICLE) and all(k != INIT for k in kinds[: kinds.index(INIT)]):
        # Vancouver: "Pérez-Higueras JJ", "de la Macorra JC".
        cut = kinds.index(INIT)
        return Person(given=" ".join(piece[j][0] for j in range(cut, len(piece))), family=_join(piece[:cut]))
    last = max(j for j, k in enumerate(kinds) if k == NAME)
    first = last
    while first > 0 and kinds[first - 1] == PARTICLE:
        first -= 1
    given = _join(piece[:first]) + (" " + _join(piece[last + 1 :]) if last + 1 < len(piece) else "")
    return Person(given=given.strip() or None, family=_join(piece[first : last + 1]))
