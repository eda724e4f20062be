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
from citetracer.data.lexicon import words
from citetracer.records import Person

_PARTICLES = frozenset(lines("name_particles.txt"))
_INIT_DOTTED = re.compile(
    r"^(?:(?:[A-Z]|Ch|Th|Ph|Sh|Zh|Kh|Ts|Yu|Ya)\.[-–]?){1,4}[A-Z]?$|^[A-Z]\.?[-–][A-Z]\.?$|^-[A-Z]\.$"
)  # "J.", "J.-P.", "M.S.A", "J.–A.", "-P." (of "J. -P.")
#: Capitalised words that open titles and are not names (checked only where a name would start).
TITLE_OPENERS = words("title-opener")
_INIT_BARE = re.compile(r"^[A-Z]{1,3}$|^[A-Z]{1,2}-[A-Z]{1,2}$")
#: A contributor's role ("(Ed.)", "eds.", "Hrsg.", "trans.", "(dir.)"): data/lexicon/role.txt.
_ROLE_MARK = re.compile(r"^\(?([^\W\d_]+)\.?\)?$")
_ROLES = words("role")
_ABBREVIATIONS = words("abbreviation")
_TITLE_STOP = words("title-stop")
_AND = frozenset({"and", "&", "und", "et", "y", "e", "a", "dan"})  # lower case only but "and", "und", "&"
_SUFFIX = frozenset({"jr", "sr", "ii", "iii", "iv", "2nd", "3rd"})
MAX_NAME_TOKENS = 4  # words of one name besides its particles ("G. L. Van der Heijde" is four)
#: Words of one name that a list closes explicitly (a comma, "and"): Portuguese and Spanish names run to five or
#: six ("João Lucas Luz Lima Sarcinelli and Diego Furtado Silva").
LONG_NAME_TOKENS = 6
_GLUED_PARTICLE = re.compile(r"^(?:de|da|di|du|del|van|von|le|la)[A-Z][a-z]")
#: Initials in parentheses after the surname (French: "Blancquaert (G.), Deschodt (L.).", "ARNAUD (A.-F.),").
_BRACKETED_INITIALS = re.compile(r"^\(((?:[A-Z][a-z]?\.?[-–]?){1,4})\)([,.;:]*)$")
_GLUED_INITIAL = re.compile(r"^(?:[A-Z]\.){1,3}(?=[A-Z][a-z]{2,}[,.;:]?$)")

INIT, NAME, PARTICLE, AND, ETAL, EDITOR, SUFFIX, OTHER = range(8)


def _capitals(tok: str | None) -> bool:
    """A word in capitals without a period ("MÉE", "CRUZ,"), not an initial ("A.")."""
    return tok is not None and "." not in tok and tok.rstrip(",;:").isupper()


def _is_role(core: str) -> bool:
    m = _ROLE_MARK.match(core)
    return m is not None and m.group(1).lower() in _ROLES


def _case_shape(word: str) -> str:
    """Letters as "A" (capital, any script) or "a": "IÖ" -> "AA", so initials of every alphabet read alike."""
    return "".join("A" if c.isupper() else "a" if c.isalpha() else c for c in word)


def _kind(core: str, nxt: str | None) -> int:
    low = core.lower()
    if low in ("et", "et.") and nxt is not None and nxt.lower().startswith("al"):
        return ETAL
    if low in _AND and (core.islower() or low in ("and", "und", "&")):
        return AND  # "E" and "Y" upper case are initials
    if len(core.rstrip(".")) == 1 and core[:1].isupper():
        return INIT  # "Y", "E.": never a particle or a conjunction when capitalised
    if low.rstrip(".") in _SUFFIX and (core[:1].isupper() or core[:1].isdigit()):
        return SUFFIX
    if _is_role(core):
        return EDITOR
    if low in _PARTICLES:
        return PARTICLE
    if _INIT_DOTTED.match(core) or _INIT_DOTTED.match(_case_shape(core)) or _INIT_BARE.match(_case_shape(core)):
        return INIT
    if _GLUED_PARTICLE.match(core):
        return NAME  # "deBros", "deFazio", "vanDyke"
    letters = re.sub(r"['’\-]", "", core)
    if (
        len(letters) >= 2
        and core[0].isupper()
        and letters.isalpha()
        and (any(c.islower() for c in letters) or len(letters) >= 4)
    ):
        return NAME
    return OTHER


def _kind_here(
    core: str,
    tok: str,
    nxt: str | None,
    prev: str | None,
    cur: list[tuple[str, int]],
    pieces: list[list[tuple[str, int]]] | None = None,
) -> int:
    """The kind of a token where it stands: words that are particles, editor marks, suffixes or initials
    elsewhere are names or initials by what surrounds them."""
    kind = _kind(core, nxt)
    closed = tok != tok.rstrip(",.;:")
    if (
        core.isupper()
        and len(core) <= 4
        and cur
        and cur[-1][1] == NAME
        and not cur[-1][0].isupper()
        and not (pieces and pieces[-1][-1][0].isupper() and len(pieces[-1][-1][0]) > 1)
    ):
        return INIT  # "Kempen GIJM", "Drake AL" (Vancouver); not after "Emma SMITH," ("Damian HOY")
    nxt_kind = _kind(nxt.rstrip(",.;:"), None) if nxt is not None else None
    if kind == PARTICLE and core.isupper() and not closed and nxt_kind in (NAME, INIT) and _capitals(nxt):
        return PARTICLE  # "LE MÉE, René", "DE LA CRUZ": capitals after a capitalised particle are the surname
    if kind == INIT and "." not in core and cur and cur[-1][1] == PARTICLE:
        return NAME  # the "MÉE" of "LE MÉE"
    if kind == PARTICLE and core[:1].isupper() and (closed or nxt_kind not in (NAME, PARTICLE)):
        return NAME  # "Quoc V. Le and", "Le, Q. V.", "Wenyu Du,", "Le QV": a surname, not a particle
    if kind == EDITOR and core in ("Ed", "Eds") and not closed and nxt_kind in (INIT, NAME):
        return NAME  # "Ed H. Chi": a given name
    if kind == SUFFIX and core.isupper() and core.rstrip(".") in ("JR", "SR") and not (prev or "a").isupper():
        return INIT  # "Piva SR", "Jett, JR," (Vancouver initials); "ELLIS, JR." in a list in capitals is a suffix
    if kind == INIT and cur and cur[-1][1] == INIT and cur[-1][0].endswith(".") and "." not in core:
        return NAME if core.isupper() and len(core) >= 2 else kind  # "QUOC V. LE", "A. Y. NG"
    if not cur and (tok.strip(",;") in ("…", "...") or core.lower() == "others"):
        return ETAL  # "Ferrandis, C. M., ... & de Vries, H.", "Smith, J., others": names left out
    return kind


def split_names(text: str) -> tuple[list[Person], bool, int]:
    """(people, et al., index in `text` where the rest of the reference starts)."""
    toks = []
    for m in re.finditer(r"\S+", text):
        glued = _GLUED_INITIAL.match(m.group())  # "K.Ueno", "R. H.Nilsson": initials glued to the surname
        if glued:
            toks.append((m.start(), m.start() + glued.end(), glued.group()))
            toks.append((m.start() + glued.end(), m.end(), m.group()[glued.end() :]))
        else:
            toks.append((m.start(), m.end(), m.group()))
    pieces: list[list[tuple[str, int]]] = []
    cur: list[tuple[str, int]] = []
    et_al = False
    good_end, good_pieces, good_etal = 0, 0, False
    joined = follows_and = after_and = False  # the piece being read (joins the list, follows "and"); the next
    i = 0
    while i < len(toks):
        _start, end, tok = toks[i]
        tok = tok.lstrip("*")  # "*Scaggs, M.": a mark for students or corresponding authors
        bracketed = _BRACKETED_INITIALS.match(tok) if cur else None
        if bracketed:
            tok = bracketed.group(1) + bracketed.group(2)
        bare = tok.rstrip(",.;:")
        if tok[:1] in "([\"“«`'" and not _is_role(bare):
            # A year, a bracket or a quote right after a name ends the list: "Jin-yi Cai (1990), ...".
            if cur and _acceptable(cur, pieces, joined):
                pieces.append(cur)
                cur = []
                good_end, good_pieces, good_etal = toks[i - 1][1], len(pieces), et_al
            break
        trail = tok[len(bare) :]
        # Initials keep their dots ("J.", "J.-P."); the punctuation after the token decides what it closes.
        dotted = tok.rstrip(",;:")
        core = dotted if _INIT_DOTTED.match(dotted) or _INIT_DOTTED.match(_case_shape(dotted)) else bare
        nxt = toks[i + 1][2] if i + 1 < len(toks) else None
        nxt2 = toks[i + 2][2] if i + 2 < len(toks) else None
        kind = _kind_here(core, tok, nxt, toks[i - 1][2] if i else None, cur, pieces)
        if kind == ETAL:
            if cur:
                pieces.append(cur)
                cur = []
            et_al = True
            i += 2 if core.lower() in ("et", "et.") else 1  # "et" "al.", "others", "..."
            good_end, good_pieces, good_etal = toks[min(i, len(toks)) - 1][1], len(pieces), True
            continue
        if kind == AND:
            if cur:
                pieces.append(cur)
                cur = []
            if nxt is not None and nxt.rstrip(",.;:").lower() == "others":
                et_al = True  # "and others"
                i += 2
                good_end, good_pieces, good_etal = toks[i - 1][1], len(pieces), True
                continue
            if nxt is not None and nxt.isdigit() and nxt2 is not None and nxt2.rstrip(",.;:").lower() == "others":
                et_al = True  # "and 12 others": ACL's natbib style for the names it leaves out
                i += 3
                good_end, good_pieces, good_etal = toks[i - 1][1], len(pieces), True
                continue
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
            if "," in trail and cur and _acceptable(cur, pieces, joined):
                pieces.append(cur)  # "Modis L Jr, Nemeth G.": the suffix closes its name
                cur = []
                good_end, good_pieces, good_etal = end, len(pieces), et_al
            elif cur or pieces:
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
        if (
            kind == OTHER
            or (sum(k != PARTICLE for _, k in cur) >= MAX_NAME_TOKENS and (pieces or not _long_name(toks, i, cur)))
            or (not cur and core.lower() in TITLE_OPENERS and not _name_in_list(toks, i, pieces))
        ):
            cut = _title_after_initials(cur, pieces)
            if cut:
                # "J. Rizos, K. Tamvakis Singularity-free cosmological ...": physics styles put no period after
                # the names; the initials and one surname are the last name, the title starts after them.
                pieces.append(cur[:cut])
                good_end, good_pieces, good_etal = toks[i - len(cur) + cut - 1][1], len(pieces), et_al
            break
        if not cur:
            # "and" joins a name to a list read so far, not to unconfirmed pieces ("Key, Politics, Parties, and ...")
            joined, follows_and, after_and = after_and and good_pieces == len(pieces), after_and, False
        cur.append((core, kind))
        last = i + 1 == len(toks)
        if trail[:1] == ":" and kind != INIT:
            # "Kallien, Hubert und Irmtraud Schnell: Title", "Kallien, Hubert: Title" (German styles) end the list
            # with the name; "Rethinking Architecture: A Reader", "..., Black Labour: Tuberculosis" are titles.
            inverted = (
                bool(pieces)
                and _family_only(pieces[-1])
                and (len(pieces) < 2 or not _family_only(pieces[-2]))
                and _given_only(cur)
            )
            if _acceptable(cur, pieces, joined) and (follows_and or inverted):
                pieces.append(cur)
                good_end, good_pieces, good_etal = end, len(pieces), et_al
            break
        if "," in trail or ";" in trail:
            if not _acceptable(cur, pieces, joined):
                names_only = all(k in (NAME, PARTICLE) for _, k in cur)
                if names_only and _next_kind(nxt, nxt2, tok, []) == INIT:
                    # Initials follow: "Silva Leite, F.", "Mc Clernon, J. F." is one family name (its first words
                    # are marked like particles, which join the family name).
                    cur = [(w, PARTICLE) for w, _ in cur[:-1]] + cur[-1:]
                elif not (names_only and len(cur) <= 3 and (nxt or "").lower() in ("and", "&") and nxt2 is not None):
                    break  # unless "and" joins the name: "Charles, M., Glynis Jones, and J. G. Hodgson"
            pieces.append(cur)
            # "Surname," is only a name once its initials follow (else "..., Macroscopic, neat, ..." is a title).
            provisional = _family_only(cur) and (
                len(pieces) == 1
                or any(all(k == INIT for _, k in p) for p in pieces[:-1])
                or _initials_first(pieces[:-1])
            )
            cur = []
            if not provisional or (last and len(pieces) > 1):
                good_end, good_pieces, good_etal = end, len(pieces), et_al
        elif trail[:1] in (".", ":") or last:
            if not (
                (last and not trail) or _closes(cur, pieces, kind, core, nxt, nxt2, _next_kind(nxt, nxt2, tok, cur))
            ) or not _acceptable(cur, pieces, joined):
                if trail[:1] != "." or last:
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


def _name_in_list(toks: list[tuple[int, int, str]], i: int, pieces: list[list[tuple[str, int]]]) -> bool:
    """Whether a word that opens titles ("An") is a given name here: inside a list of names (one read before it,
    closed by a comma), followed by a short surname that a comma closes ("..., Chaojun Xu, An He, Xintong Lv,
    ..."). A one-word title after it would be a longer word ("..., An Introduction, Springer")."""
    if not pieces or i == 0 or not toks[i - 1][2].endswith(",") or toks[i][2] != toks[i][2].rstrip(",.;:"):
        return False
    nxt = (toks[i + 1][2] if i + 1 < len(toks) else "").removesuffix(",")
    return len(nxt) <= 3 and toks[i + 1][2].endswith(",") and _kind(nxt, None) == NAME


def _long_name(toks: list[tuple[int, int, str]], i: int, cur: list[tuple[str, int]]) -> bool:
    """Whether the list's first name goes on past MAX_NAME_TOKENS words to an "and" that joins another name:
    the words from `i` on are capitalised names, no word is a title's function word, the name stays within
    LONG_NAME_TOKENS words, and after "and" comes a name of two words or more closed by a period or comma
    ("João Lucas Luz Lima Sarcinelli and Diego Furtado Silva."). Only the first: after a name the list already
    read, so many capitalised words are a title ("Jane Smith, Robust Deep Graph Neural Networks and Large
    Models."); a title in capitals otherwise ends in a colon, a comma or words no name has."""
    if any(k != NAME for _, k in cur) or any(w.lower() in _TITLE_STOP for w, _ in cur):
        return False
    words = len(cur)
    for j in range(i, len(toks)):
        tok = toks[j][2]
        if tok != tok.rstrip(",.;:") or _kind(tok, None) != NAME or tok.lower() in _TITLE_STOP:
            return False
        words += 1
        if words > LONG_NAME_TOKENS:
            return False
        if j + 1 < len(toks) and toks[j + 1][2].lower() in ("and", "&"):
            return _a_name_follows(toks, j + 2)
    return False


def _a_name_follows(toks: list[tuple[int, int, str]], j: int) -> bool:
    """Whether one to MAX_NAME_TOKENS capitalised names or initials from `j` make a name a period or comma closes."""
    for k in range(j, min(j + MAX_NAME_TOKENS, len(toks))):
        tok = toks[k][2]
        bare = tok.rstrip(",.;:")
        if _kind(bare, None) not in (NAME, INIT, PARTICLE):
            return False
        if tok != bare:
            return k > j and tok[len(bare) :][:1] in (".", ",")
    return False


def _title_after_initials(cur: list[tuple[str, int]], pieces: list[list[tuple[str, int]]]) -> int:
    """How many tokens of `cur` are a name when a title follows a list of initials-first names without a
    boundary ("K. Tamvakis Singularity-free"): the initials and the surname after them, else 0."""
    k = 0
    while k < len(cur) and cur[k][1] == INIT:
        k += 1
    if k == 0 or len(cur) < k + 2 or cur[k][1] != NAME or not pieces or not _initials_first(pieces):
        return 0
    return k + 1


def _acceptable(cur: list[tuple[str, int]], pieces: list[list[tuple[str, int]]], joined: bool = False) -> bool:
    """Is this piece a name here? Several capitalised words without initials, in a list written with
    initials, are a title ("Card, S. K., The Information Visualizer, ..."), unless "and" joins them to the
    list ("Sokol, B. J., and Mary Sokol")."""
    kinds = [k for _, k in cur]
    if _given_only(cur) and pieces and _family_only(pieces[-1]):
        return True  # "Walt, S. J. van der": the given names, then the family name's particles
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
    nxt_kind: int | None,
) -> bool:
    """Does a period after this token finish the name being read? (`nxt_kind`: the next token's kind there.)"""
    if kind != INIT:
        return True  # "Lifschitz." or "Team."
    if nxt is not None and nxt_kind == INIT and _INIT_DOTTED.match(nxt.rstrip(",;:")):
        return False  # "G. E." goes on
    inverted = bool(pieces) and _family_only(pieces[-1]) and (len(pieces) < 2 or not _family_only(pieces[-2]))
    if inverted and nxt is not None and nxt[:1].islower() and nxt.rstrip(",.;:") in _PARTICLES:
        return False  # "Walt, S. J. van der,": the family name's particles follow the given names
    if all(k == INIT for _, k in cur):
        # "Smith, J." closes; a leading "J." of "J. Smith" does not.
        return inverted
    if not core.endswith("."):
        return True  # "Peters OA." (Vancouver)
    # "James J." closes an inverted name ("Alpigini, James J."); "David R." of "David R. Cheriton" does not,
    # but "Lipeck U. W." (family first, dotted initials) does: tell them apart by what follows.
    if inverted:
        return True
    if (
        nxt_kind == PARTICLE
        and nxt is not None
        and nxt[:1].islower()
        and ((nxt2 or "")[:1].isupper() or (nxt2 or "").rstrip(",.;:") in _PARTICLES)
    ):
        # "Erik M. van Mulligen", "Tycho F.A. van der Ouderaa": the family name follows with its particles
        return False
    if nxt is None or nxt_kind != NAME:
        return True
    if pieces and len(pieces[-1]) >= 2 and pieces[-1][0][1] == NAME and pieces[-1][-1][1] == NAME:
        return False  # after "Darren J. Kriticos", "Nadilia N. Gómez Raboteaux" is given-first too
    name_follows = nxt[-1:] in ",.;:" or nxt2 is None or nxt2.lower() in _AND or nxt2.startswith("(")
    return not name_follows


def _next_kind(nxt: str | None, nxt2: str | None, tok: str, cur: list[tuple[str, int]]) -> int | None:
    """The kind the token after `tok` takes where it stands."""
    if nxt is None:
        return None
    bare = nxt.rstrip(",.;:")
    dotted = nxt.rstrip(",;:")
    core = dotted if _INIT_DOTTED.match(dotted) or _INIT_DOTTED.match(_case_shape(dotted)) else bare
    return _kind_here(core, nxt, nxt2, tok, cur)


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
    # "Smith, J., Doe, K." is caught by commas; a period followed by a new "Surname," is a list going on:
    # "Schumann, CM. Barnes, CC.", and in capitals with a given name, "LABOUSSET, Hélène. SIEBERT, Carole."
    if not tok.endswith(",") or _kind(core, nxt) != NAME or nxt is None:
        return False
    given = nxt.rstrip(",.;:")
    return _kind(given, None) == INIT or (
        core.isupper()
        and len(core) > 2
        and given[:1].isupper()
        and not given.isupper()
        and nxt[-1:] in ".,"
        and given.lower() not in _ABBREVIATIONS
    )


def _family_only(piece: list[tuple[str, int]]) -> bool:
    kinds = [k for _, k in piece]
    return kinds[-1] == NAME and all(k == PARTICLE for k in kinds[:-1])


def _given_names(piece: list[tuple[str, int]]) -> bool:
    """Several given names and initials ("Antônio Carlos Ribeiro da", "R. Scott"): after the first author's family
    name they can only be that author's given names."""
    kinds = [k for _, k in piece]
    while len(kinds) > 1 and kinds[-1] == PARTICLE:
        kinds.pop()
    return len(kinds) <= 3 and all(k in (NAME, INIT) for k in kinds)


def _given_only(piece: list[tuple[str, int]]) -> bool:
    """Given names alone ("J. K.", "Mary", "Mary K."), perhaps followed by the family name's particles
    ("S. J. van der", as some styles invert "van der Walt")."""
    kinds = [k for _, k in piece]
    while len(kinds) > 1 and kinds[-1] == PARTICLE:
        kinds.pop()
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
        if nxt is not None and _family_only(piece) and (_given_only(nxt) or (i == 0 and _given_names(nxt))):
            cut = len(nxt)
            while cut > 1 and nxt[cut - 1][1] == PARTICLE:
                cut -= 1
            out.append(Person(given=_join(nxt[:cut]), family=_join(nxt[cut:] + piece)))
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
    if kinds[-1] == INIT and not _case_shape(piece[-1][0]).rstrip(".").isupper() and kinds[-2] == NAME:
        # "Dong Yu.": a two-letter surname that looks like a transliterated initial ("Yu. A. Kuznetsov").
        kinds[-1] = NAME
        piece = [*piece[:-1], (piece[-1][0].rstrip("."), NAME)]
    if kinds[-1] == INIT and kinds[0] in (NAME, PARTICLE) and all(k != INIT for k in kinds[: kinds.index(INIT)]):
        # Vancouver: "Pérez-Higueras JJ", "de la Macorra JC".
        cut = kinds.index(INIT)
        return Person(given=" ".join(piece[j][0] for j in range(cut, len(piece))), family=_join(piece[:cut]))
    if kinds == [PARTICLE, NAME] and piece[0][0][:1].isupper():
        return Person(given=piece[0][0], family=piece[1][0])  # "Bin Xiao", "Van Nguyen": a given name
    last = max(j for j, k in enumerate(kinds) if k == NAME)
    first = last
    while first > 0 and kinds[first - 1] == PARTICLE:
        first -= 1
    given = _join(piece[:first]) + (" " + _join(piece[last + 1 :]) if last + 1 < len(piece) else "")
    return Person(given=given.strip() or None, family=_join(piece[first : last + 1]))
