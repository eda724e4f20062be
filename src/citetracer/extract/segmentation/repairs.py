"""Rules that repair the line segmenter's reading of a list where its own evidence says the model cut wrong.

The model (linecrf.py) labels each line B, I or O from layout features; on a template it was not trained on it
still makes a few kinds of mistake that the entries themselves give away, and each rule here mends one kind,
from the labels and the lines' text and positions alone:

- `drop_stray_feet`: a foot printed on one page only, read into the reference above it, is O;
- `join_split_entries`: a piece of an entry read as a reference of its own (in an author-year list, one with no
  year; in any unnumbered list, one that is names alone) joins the piece it belongs to;
- `split_run_together`: two author-year entries read as one are cut apart where the second one's names open;
- `rejoin_after_floats`: the rest of a reference after a float among the references is read into it again.

`linecrf._overrule` applies them, in that order, after `close_at_back_matter`; each leaves a numbered list as
read where its evidence would not hold there. They are rules, not features, because each needs the entry as a
whole (its year, its title, the line before a float), which a line's features do not see.
"""

from __future__ import annotations

import html
import itertools
import re
from collections import defaultdict
from collections.abc import Sequence

from citetracer.data import lines as data_lines
from citetracer.extract.layout.page import Line, body_size
from citetracer.extract.segmentation.shapes import (
    _ALPHA_LABEL,
    _FULL_NAME,
    _LABEL,
    _OPENS_YEAR,
    _RUN_ON,
    _SURNAME_INITIALS,
    _YEAR,
    _list_habits,
)

#: A year as an author-year entry states it (or its stand-in when the work has none).
_ENTRY_YEAR = re.compile(r"(?:19|20)\d\d|\bn\.\s?d\.", re.IGNORECASE)
#: A reference of names and a year with nothing after it ("Zhuofeng Wu, V. G. Vinod Vydiswaran, and Yizhe Zhang.
#: 2024."): in an author-year list, the head of an entry whose title was cut off from it.
_NAMES_YEAR_ONLY = re.compile(r"^[^.]*?(?:[A-Z]\.[^.]*?)*[,.]\s*\(?(?:19|20)\d\d[a-z]?\)?\.?$")
#: A line that stops inside a name list or a phrase: a comma or semicolon, a hyphen, a name's initial
#: ("Thomas L."), a word a phrase runs on after ("and", "for"), or a capitalised word with no stop after it
#: (a name broken off: "Shuangfei").
_RUN_ON_WORD = "|".join(sorted(_RUN_ON))
_OPEN_END = re.compile(rf"(?:[,;\-\u00ad]|(?:^|[\s.\-])[A-Z]\.|\b(?:{_RUN_ON_WORD})|\b[A-Z][a-z]+)$")


def join_split_entries(lines: Sequence[Line], labels: list[str]) -> list[str]:
    """The labels with the entries of an author-year list that the model cut in two joined again. In such
    a list every entry states its year after its names ("Names. 2021. Title. Venue."), so a reference read
    with no year is a piece of one: its names broken off before the year (it ends inside them: "Michael
    Chang, ..., Thomas L." before "Griffiths, ..., and Amy Zhang. 2023. Title"; or the next piece opens with
    the year: "... Marc Najork." before "2021. Are Neural Rankers ..."), which joins the next reference; or the
    rest of a title that a float interrupted (the reference before it ends mid-phrase: "... Regularization
    for", a table, "Sparsely Activated Transformers. In ..."), or the title and venue of a reference before that
    was read as its names and year alone ("..., and Yizhe Zhang. 2024." before "Divide-or-Conquer? Which Part
    ..."), which joins the one before. A numbered list, or
    one where the year closes the entry, is left as read: there a line may end on a year or a name.

    In any list but a numbered one, a reference read as names alone (`_names_only`) that stops open is the head
    of a long name list and joins the next piece: a line opening "Borgwardt, Guoyuan An, ..." after "..., Karsten"
    reads as a new entry's "Surname, Given", and no reference is names with no title."""
    starts = [k for k, label in enumerate(labels) if label == "B"]
    if len(starts) < 2:
        return labels
    blocks = [[k for k in range(a, b) if labels[k] != "O"] for a, b in itertools.pairwise([*starts, len(labels)])]
    kept = [k for block in blocks for k in block]
    style, _indent = _list_habits([lines[k] for k in kept], [])
    text = [" ".join(lines[k].text.strip() for k in block) for block in blocks]
    if _numbered(text):
        return labels
    out = list(labels)
    for j in range(len(blocks) - 1):
        if _names_only(text[j]) and _OPEN_END.search(lines[blocks[j][-1]].text.strip()):
            out[blocks[j + 1][0]] = "I"  # a long name list cut where a line opens "Surname, Given"
    if style != "ay" and not names_before_year(text):
        return out
    dated = [_ENTRY_YEAR.search(t) is not None for t in text]
    for j in range(len(blocks)):
        if dated[j]:
            continue
        last = lines[blocks[j][-1]].text.strip()
        nxt = lines[blocks[j + 1][0]].text.strip() if j + 1 < len(blocks) else ""
        if j + 1 < len(blocks) and (_OPEN_END.search(last) or _OPENS_YEAR.match(nxt)):
            out[blocks[j + 1][0]] = "I"  # the names run on into the next piece, which holds the year
        elif j and (_OPEN_END.search(lines[blocks[j - 1][-1]].text.strip()) or _NAMES_YEAR_ONLY.match(text[j - 1])):
            out[blocks[j][0]] = "I"  # the rest of the reference before, after a float, a break or its year
    return out


#: Lower-case surname particles (data/name_particles.txt: "van", "de", "la"), and the elided ones that run into the
#: surname ("d'Amore", "dell'Olio"; an apostrophe a .bib left as the entity "&apos;" included).
_PARTICLES = "|".join(sorted((w for w in data_lines("name_particles.txt") if w.islower()), key=len, reverse=True))
_ELIDED = r"(?:d|l|dell|dall|degl|all)(?:['’]|&apos;|&#39;)"
#: A full name whose surname carries particles: "Ludwig van Beethoven,", "Jean de la Fontaine and", "Dario
#: d'Amore,". `_FULL_NAME` wants every word capitalised, and the model's name feature with it: a flush list's
#: entry opening so was read as more of the entry above (held-out aaai).
_PARTICLE_NAME = re.compile(
    rf"^[A-Z][\w'’\-]+(?:\s[A-Z]\.)*(?:\s[A-Z][\w'’\-]+)?(?:\s(?:{_PARTICLES}))*\s(?:(?:{_PARTICLES})\s|{_ELIDED})"
    r"[A-Z][\w'’\-]+(?:,|\s+and\s|\.\s)"
)
#: An initial inside a name ("Oliver F. Lange", "J.-P. Müller"): a period that ends no sentence.
_NAME_INITIAL = re.compile(r"(?<![^\s.\-])[A-Z]\.")
#: Fewest names (comma-separated) that make a piece a run of names rather than a short title.
NAMES_ONLY = 4


def _names_only(text: str) -> bool:
    """The text is a run of names and nothing else: at least NAMES_ONLY parts between commas, no period but an
    initial's, no digit (a year, a volume) and no other stop, as a title or a venue would show."""
    bare = _NAME_INITIAL.sub("", html.unescape(text))
    return len(bare.split(",")) >= NAMES_ONLY and not re.search(r"[.?!:;()\d]", bare)


#: A line opening with names in an author-year list: "Girdhar, R., El-Nouby, A.,", "Rohit Girdhar, Alaaeldin",
#: "Ludwig van Beethoven, Clara".
_NAMES_OPEN = (_SURNAME_INITIALS, _FULL_NAME, _PARTICLE_NAME)
#: A names-then-year opening: its names (commas between them, no sentence) and its year within this many lines
#: (a consortium's names fill several: "Kemal Brown, ..., and 207 others. 2021.").
NEW_ENTRY_LINES = 8
_NAMES_THEN_YEAR = re.compile(r"^[^.]*?(?:[A-Z]\.[^.]*?)*[,.]\s*\(?(?:19|20)\d\d[a-z]?\)?[.,:]")


def _names_then_year(text: str) -> bool:
    """The text opens as an author-year entry does: names with no sentence between them, its year, and a title
    after the year, not more names ("Springer, Berlin, 2021." closing an entry, before the next one's names, is
    no opening)."""
    m = _NAMES_THEN_YEAR.match(text)
    if m is None:
        return False
    rest = _LINKS.sub(" ", text[m.end() :]).strip()
    return len(re.findall(r"[A-Za-z]{2,}", rest)) >= 3 and not _NAMES_THEN_YEAR.match(rest)


def split_run_together(lines: Sequence[Line], labels: list[str]) -> list[str]:
    """The labels with two entries of an author-year list that the model read as one cut apart again (the
    counterpart of `join_split_entries`, seen on flush lists where no indent marks a start). Inside a reference
    that has stated its year, a line that follows one closing a sentence ("... Machine Learning Research.")
    and opens with names ("Girdhar, R., El-Nouby, A., Liu, Z., Singh, M.,") that run, sentence-free, into a
    year of their own ("Alwala, K. V., Joulin, A., and Misra, I. (2023). ImageBind ...") starts the next one.
    A numbered list, or one where the year closes the entry, is left as read."""
    starts = [k for k, label in enumerate(labels) if label == "B"]
    if len(starts) < 2:
        return labels
    blocks = [[k for k in range(a, b) if labels[k] != "O"] for a, b in itertools.pairwise([*starts, len(labels)])]
    style, _indent = _list_habits([lines[k] for block in blocks for k in block], [])
    text = [" ".join(lines[k].text.strip() for k in block) for block in blocks]
    if _numbered(text) or (style != "ay" and not names_before_year(text)):
        return labels
    out = list(labels)
    for block in blocks:
        dated = False
        for j, k in enumerate(block):
            before = lines[block[j - 1]].text.strip() if j else ""
            opening = lines[k].text.strip()
            if (
                dated
                and before.endswith(".")
                and not _OPEN_END.search(before)
                and any(shape.match(opening) for shape in _NAMES_OPEN)
                and _names_then_year(" ".join(lines[i].text.strip() for i in block[j : j + NEW_ENTRY_LINES]))
            ):
                out[k] = "B"
            dated = dated or _ENTRY_YEAR.search(opening) is not None
    return out


#: Share of an author-year list's dated entries that go on with a title after their year.
NAMES_FIRST_SHARE = 0.7
#: What may follow a year that closes an entry: an identifier or a link, not a title.
_LINKS = re.compile(r"\b(?:URL|doi|arXiv)\b:?|https?://\S+|\S+\.(?:org|com)/\S*", re.IGNORECASE)


def _numbered(entries: Sequence[str]) -> bool:
    """Most entries open with a label ("[12]", "12.", "[Smi20]"): a new entry shows its label, not its names."""
    return sum(1 for t in entries if _LABEL.match(t) or _ALPHA_LABEL.match(t)) > len(entries) // 2


def names_before_year(entries: Sequence[str]) -> bool:
    """The entries (as read, one text each) are an author-year list: no numbered labels, and nearly every one
    that states a year goes on after it with words (a title and a venue: "Names. 2022. Title. In Venue.")
    where an entry that closes on its year has at most a link or an identifier after it. What the lines show
    (`_list_habits`: a year with text after it on its line) misses the lists that set "Names. 2022." at a
    line's end, as AAAI and ACM do for every entry whose names fill the line; a whole entry shows it."""
    if _numbered(entries):
        return False
    after = [_LINKS.sub(" ", t[m.end() :]) for t in entries if (m := _YEAR.search(t))]
    titled = sum(1 for rest in after if len(re.findall(r"[A-Za-z]{2,}", rest)) >= 3)
    return len(after) >= 3 and titled >= NAMES_FIRST_SHARE * len(after)


def drop_stray_feet(lines: Sequence[Line], labels: list[str]) -> list[str]:
    """The labels with a page's last line read inside a reference set to O when it starts where no line of the
    list on its page and column starts (more than a type size from each): a foot printed on one page only
    ("Preprint submitted to Elsevier    December 7, 2026", split by the gutter, its date at the right
    column's foot), which no running-text test sees, is no part of the reference above it."""
    out = list(labels)
    for k, ln in enumerate(lines):
        if labels[k] != "I" or (k + 1 < len(lines) and lines[k + 1].page == ln.page):
            continue
        xs = [
            o.x0
            for j, o in enumerate(lines)
            if j != k and labels[j] in ("B", "I") and (o.page, o.column) == (ln.page, ln.column)
        ]
        if len(xs) >= 3 and all(abs(ln.x0 - x) > ln.size for x in xs):
            out[k] = "O"
    return out


#: A float's caption: never the rest of a reference, wherever it sits.
_CAPTION = re.compile(r"^(?:Figure|Fig\.|Table|Algorithm|Listing)\s*[A-Z]?\d", re.IGNORECASE)
#: How far (points) a line may sit from the list's continuation lines on its page and column and still be one.
CONTINUATION_X = 1.5


def rejoin_after_floats(lines: Sequence[Line], labels: list[str]) -> list[str]:
    """The labels with the rest of a reference that a float interrupted read into it again. The model reads a
    table or a figure among the references as O, rightly, and often the first line or two after it as well
    ("Perturbation and Gradient Based Explanations. In ..." after a table; "Bandits. In International ..." at
    the top of the next column): the reference before then loses its end silently. Lines read as O just before
    the next reference's line, after a float, are the interrupted reference's rest when it stopped open (a
    comma, a word a phrase runs on after, a name broken off, a colon) and they sit where the list's
    continuation lines sit: in the list's type size, at the x of lines read inside references on the same page
    and column, and not a caption."""
    inside = [k for k, label in enumerate(labels) if label in ("B", "I")]
    if len(inside) < 2:
        return labels
    size = body_size([lines[k] for k in inside])
    at: dict[tuple[int, int], list[float]] = defaultdict(list)
    for k in inside:
        if labels[k] == "I":
            at[(lines[k].page, lines[k].column)].append(lines[k].x0)

    def continues(ln: Line) -> bool:
        xs = at.get((ln.page, ln.column), [])
        return (
            abs(ln.size - size) <= 0.1 * size
            and not _CAPTION.match(ln.text.strip())
            and any(abs(ln.x0 - x) <= CONTINUATION_X for x in xs)
        )

    out = list(labels)
    k = inside[0]
    while k < len(labels):
        if labels[k] != "O":
            k += 1
            continue
        a = k
        while k < len(labels) and labels[k] == "O":
            k += 1
        if k == len(labels):
            break
        last = lines[a - 1].text.strip()
        if not (_OPEN_END.search(last) or last.endswith(":")):
            continue
        t = k
        while t > a and continues(lines[t - 1]):
            t -= 1
        if a < t < k:  # a float between, then the rest
            out[t:k] = ["I"] * (k - t)
    return out
