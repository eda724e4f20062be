"""Sequence labelling of a reference string with a CRF (python-crfsuite).

The rule parser reads identifiers, years and author lists well, but where a
title ends and a venue starts depends on the style in ways rules plateau on.
A linear-chain CRF learns those boundaries from token shapes, their
neighbours, the sentence-like segment each token sits in (its size, whether
it reads as a list of names, holds a year, opens with "In", is quoted) and the
rule parser's own reading. It is trained by scripts/train_parser.py on the
labelled reference strings under ../shared/data/refstrings (optionally with
citations rendered in CSL styles from real records).

Tokens are whitespace-separated pieces of the string (punctuation stays on
its word: a trailing period or comma is a strong boundary cue). The same
`tokens` and `features` functions serve training and labelling. Title and
container runs are trained as a first token and continuing ones
(`split_runs`), so the model weighs "the title goes on past this period"
on its own; labelling joins them back.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from citetracer.data import lines
from citetracer.data.lexicon import words

#: Labels the model predicts, one per token.
LABELS = (
    "author",
    "title",
    "container",
    "year",
    "volume",
    "issue",
    "pages",
    "doi",
    "url",
    "publisher",
    "location",
    "editor",
    "edition",
    "genre",
    "note",
    "collection",
    "other",
)
MODEL_NAME = "parser.crfsuite"
#: Longest input labelled; a longer string is cut (reference strings are a few hundred characters).
MAX_TOKENS = 200

_TOKEN = re.compile(r"\S+")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CORE = re.compile(r"^[^\w]*(.*?)[^\w]*$", re.UNICODE)
_OPEN_QUOTES = '“"‘«„'
_CLOSE_QUOTES = '”"’»'
#: Words whose lower case is useful as a feature; anything else is described by its shape only.
_MAX_WORD_LEN = 25
#: Word classes that cue a field in every style (a class, not a list of venues or names: unseen venues are
#: recognised by the structure around these words, not by memorising them). The open classes are lexicon files
#: (data/lexicon/*.txt, read by the rules too); a word in two of them takes the later one ("trans": a role).
LEXICON_CLASSES = ("month", "venue", "publisher", "institution", "place", "genre", "access", "role", "series")
#: The closed classes of function words a reference's numbers and lists are written with.
_FUNCTION_WORDS = {
    "pages": "pp p pages page s",
    "volume": "vol volume vols no nos issue number nr bd",
    "and": "and & und et y",
    "in": "in",
    "etal": "al al.",
}
_CLASS_OF = {w: name for name in LEXICON_CLASSES for w in words(name)} | {
    w: name for name, ws in _FUNCTION_WORDS.items() for w in ws.split()
}
#: Words that end in a period without ending a sentence (the rules' sentence ends and the CRF's segments).
ABBREVIATIONS = words("abbreviation")


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int


#: Where text pulled from PDFs glued two words ("detectorClass", "inAmerican", "polynomials.J.Math", "Rev.D57",
#: "Models,1st", "networksarXiv:1606", "2013Interferometer", "J.Real-time"): a word of lower-case letters (or a
#: year) ends and a capitalised word starts; a word ends in a period or colon and a capital or digit follows; a comma
#: is followed by a word; an initial is followed by a capitalised word. The token is split there for the model only:
#: the text the rules read (authors' names such as "MacDonald") is left as it is, and every piece keeps its offsets
#: into it.
_GLUE = re.compile(
    r"(?<=[a-z]{2})(?=[A-Z][a-z]{2})|(?<=[a-z]{2}[.:])(?=[A-Z\d])|(?<=[a-z)][,;])(?=[\w(])|(?<=\w)(?=arXiv)"
    r"|(?<=\d\d)(?=[A-Z][a-z]{2})|(?<=\b[A-Z]\.)(?=[A-Z][a-z]{2})"
)


def _glue_cuts(word: str) -> list[int]:
    """Offsets inside `word` where two glued words meet ("arXiv" itself is one word)."""
    if len(word) <= 4:
        return []
    return [
        c.start()
        for c in _GLUE.finditer(word)
        if 0 < c.start() < len(word) and word[c.start() - 2 : c.start() + 3] != "arXiv"
    ]


def tokens(text: str) -> list[Token]:
    """Whitespace tokens with their character offsets, glued words split (see _GLUE); at most MAX_TOKENS."""
    out: list[Token] = []
    for m in _TOKEN.finditer(text):
        word, start = m.group(0), m.start()
        cuts = _glue_cuts(word)
        for a, b in zip([0, *cuts], [*cuts, len(word)], strict=True):
            out.append(Token(word[a:b], start + a, start + b))
        if len(out) >= MAX_TOKENS:
            break
    return out[:MAX_TOKENS]


def _shape(word: str) -> str:
    s = re.sub(r"[A-Z]", "A", word)
    s = re.sub(r"[a-z]", "a", s)
    s = re.sub(r"\d", "0", s)
    s = re.sub(r"[^\W\d_Aa]", "u", s)  # other letters (accents, other scripts); "A" and "a" are kept
    return re.sub(r"(.)\1{2,}", r"\1\1", s)


def _word_features(tok: str) -> dict[str, Any]:
    core = _CORE.match(tok)
    word = core.group(1) if core else tok
    lower = word.lower()
    lead = tok[: len(tok) - len(tok.lstrip("([{“\"‘«'"))]
    trail = tok[len(tok.rstrip(".,;:)]}”\"’»'?!")) :]
    feats: dict[str, Any] = {
        "w": lower if len(lower) <= _MAX_WORD_LEN else "<long>",
        "shape": _shape(tok)[:12],
        "lead": lead[:2],
        "trail": trail[-2:],
        "p3": lower[:3],
        "s3": lower[-3:],
    }
    if word[:1].isupper():
        feats["cap"] = 1
    if word.isupper() and len(word) > 1:
        feats["allcaps"] = 1
    if re.fullmatch(r"[A-Z]\.?(?:-?[A-Z]\.?)*", word + ("." if tok.endswith(".") else "")):
        feats["initial"] = 1
    if re.fullmatch(r"(?:1[5-9]|20)\d\d[a-z]?", word):
        feats["year"] = 1
    elif re.search(r"(?<!\d)(?:1[5-9]|20)\d\d(?!\d)", tok):
        feats["hasyear"] = 1
    if word.isdigit():
        feats["digits"] = min(len(word), 5)
    elif any(c.isdigit() for c in tok):
        feats["hasdigit"] = 1
    if re.search(r"\d\s*[-–—]\s*\d", tok):
        feats["range"] = 1
    if re.search(r"10\.\d{4,9}/", tok) or lower.startswith("doi"):
        feats["doi"] = 1
    if re.match(r"(?:https?:|www\.)", lower):
        feats["url"] = 1
    if tok.endswith("-") and len(tok) > 2:
        feats["hyphen_end"] = 1
    cls = _CLASS_OF.get(lower)
    if cls:
        feats["class"] = cls
    if trail[:1] == "." and lower in ABBREVIATIONS:
        feats["abbr"] = 1  # "Phys.", "Nucl.", "Proc.": a journal word, not a sentence end
    if word[:1].islower():
        feats["lower"] = 1
    return feats


#: The ends `_ends_sentence` looks for, matched on the reversed token (anchored there, so a long token
#: costs linear time: the forward patterns `\S*...$` backtracked quadratically, 298 s on 100k chars).
_QUOTE_END = re.compile(r"\W*[”\"’]")
_WORD_END = re.compile(r"[.?!][)\]]?[^\W\d_]{4}")
_YEAR_END = re.compile(r"\.\)?[a-z]?\d{4}")
_SPACE = re.compile(r"\s")


def _ends_sentence(tok: str) -> bool:
    """A token that closes a sentence-like segment: a word (not an initial or short abbreviation) and a period,
    a closing quote, or a year in parentheses."""
    rev = tok[::-1]
    if _QUOTE_END.match(rev) or re.fullmatch(r"\(\d{4}[a-z]?\)[.,:]?", tok):
        return True
    if tok.rstrip(".").lstrip("([").lower() in ABBREVIATIONS:
        return False  # "Proc." "Trans." "Univ."
    return bool(_WORD_END.match(rev) or _YEAR_END.match(rev)) and not _SPACE.search(tok)


def _token_marks(toks: list[Token], marks: list[str] | None) -> list[str]:
    """The rules' reading of each token: the mark most of its letters and digits carry."""
    if marks is None:
        return ["none"] * len(toks)
    out = []
    for t in toks:
        counts = Counter(marks[k] for k in range(t.start, min(t.end, len(marks))))
        out.append(counts.most_common(1)[0][0] if counts else "other")
    return out


def features(toks: list[Token], marks: list[str] | None = None) -> list[dict[str, Any]]:
    """One feature dict per token: the word, its shape, its neighbours, where it sits and, when `marks` (one
    per character of the text) are given, what the rule parser read there."""
    words = [_word_features(t.text) for t in toks]
    rules = _token_marks(toks, marks)
    n = len(toks)
    segs = _segments(toks, words)
    out: list[dict[str, Any]] = []
    in_quote = False
    depth = 0
    seen_year = False
    seen_colon = False
    segment = 0
    for i, tok in enumerate(toks):
        f: dict[str, Any] = {"bias": 1.0}
        for k, v in words[i].items():
            f[k] = v
        f["pos"] = min(i, 6) if i < 6 else f"r{min(10 * i // max(n, 1), 9)}"
        if i == n - 1:
            f["last"] = 1
        if tok.text[:1] in _OPEN_QUOTES:
            in_quote = True
        if in_quote:
            f["inq"] = 1
        opened = tok.text.count("(") + tok.text.count("[")
        if depth > 0 or opened:
            f["inparen"] = 1
        depth = max(0, min(3, depth + opened - tok.text.count(")") - tok.text.count("]")))
        f["chars"] = min(9, 10 * tok.start // max(toks[-1].end, 1))
        if tok.text.rstrip(".,;:")[-1:] in _CLOSE_QUOTES:
            in_quote = False
        # Sentence-like segments so far ("Authors. Title. Venue, 12, 1-9."): the structure every style shares,
        # which generalises to venues and titles whose words were never seen in training.
        f["seg"] = min(segment, 4)
        f["seg|cap"] = f"{min(segment, 4)}|{'cap' in words[i]}"
        if i and _ends_sentence(toks[i - 1].text):
            f["starts_segment"] = 1
        if seen_year:
            f["after_year"] = 1
        if seen_colon:
            f["after_colon"] = 1
        if "year" in words[i] or "hasyear" in words[i]:
            seen_year = True
        if tok.text.endswith(":"):
            seen_colon = True
        if _ends_sentence(tok.text):
            segment += 1
        for off in (-2, -1, 1, 2):
            j = i + off
            if 0 <= j < n:
                nb = words[j]
                f[f"{off}:w"] = nb["w"]
                f[f"{off}:shape"] = nb["shape"]
                f[f"{off}:trail"] = nb["trail"]
                if "class" in nb:
                    f[f"{off}:class"] = nb["class"]
                if "cap" in nb:
                    f[f"{off}:cap"] = 1
            else:
                f[f"{off}:edge"] = 1
        for off in (-3, 3):
            j = i + off
            if 0 <= j < n:
                f[f"{off}:trail"] = words[j]["trail"]
                f[f"{off}:shape"] = words[j]["shape"][:4]
        for off in (-2, 2):
            j = i + off
            f[f"{off}:r"] = rules[j] if 0 <= j < n else "edge"
        f.update(segs[i])
        if i:
            f["-1w|w"] = f"{words[i - 1]['w']}|{words[i]['w']}"
        f["r"] = rules[i]
        f["r|-1r"] = f"{rules[i]}|{rules[i - 1] if i else '^'}"
        f["r|+1r"] = f"{rules[i]}|{rules[i + 1] if i + 1 < n else '$'}"
        f["r|trail"] = f"{rules[i]}|{words[i]['trail']}"
        f["-1:trail|w"] = f"{words[i - 1]['trail'] if i else '^'}|{words[i]['shape'][:2]}"
        out.append(f)
    return out


#: Lower-case words a name holds ("van der", "de la"): data/name_particles.txt, as the author reader reads them.
_PARTICLES = frozenset(lines("name_particles.txt"))
#: Most words of one name in a list (given names, initials and family name, particles aside).
_NAME_WORDS = 4


def _name_list(toks: list[Token], ws: list[dict[str, Any]]) -> bool:
    """Whether a segment reads as a list of two or more names: pieces cut at commas and "and", each one to four
    capitalised words or initials (particles aside). "Li Chen, Rasmus Kyng, ..., Maximilian Probst Gutenberg,
    and Sushant Sachdeva." is one; "Maximum Flow and Minimum-Cost Flow in Almost-Linear Time, April 2022." is
    not (a lower-case word, a year)."""
    pieces: list[int] = [0]
    for tok, w in zip(toks, ws, strict=True):
        if w.get("class") == "and":
            if pieces[-1]:
                pieces.append(0)
            continue
        core = tok.text.strip(".,;:")
        if core.lower() in _PARTICLES and core[:1].islower():
            continue
        if not ("cap" in w or "initial" in w) or any(c.isdigit() for c in core):
            return False
        pieces[-1] += 1
        if pieces[-1] > _NAME_WORDS:
            return False
        if tok.text.endswith((",", ";")):
            pieces.append(0)
    named = [n for n in pieces if n]
    return len(named) >= 2


#: Word classes that name a segment by its first word ("In ...", "Ed. ...", "Journal ...", "Thesis ...").
_CUE_CLASSES = ("in", "role", "venue", "genre")


def _segments(toks: list[Token], words: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What each token's sentence-like segment looks like as a whole: its size, whether it reads as a list of
    names (initials and capitalised words), holds a year or digits, opens with "In", sits in quotes; and what
    came before it (a segment opening with "In", a closed quote). Segment-level shape tells an author list from
    a title and a title from a venue where the token alone cannot."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for i, tok in enumerate(toks):
        if _ends_sentence(tok.text) or i == len(toks) - 1:
            bounds.append((start, i + 1))
            start = i + 1
    out: list[dict[str, Any]] = [{} for _ in toks]
    seen_in = seen_quote = False
    for k, (a, b) in enumerate(bounds):
        ws = words[a:b]
        size = b - a
        initials = sum(1 for w in ws if "initial" in w)
        caps = sum(1 for w in ws if "cap" in w)
        lowers = sum(1 for w in ws if "lower" in w and w.get("class") != "and")
        first = ws[0]
        seg: dict[str, Any] = {
            "seg_len": min(size, 12) if size < 12 else "long",
            "seg_names": f"{min(initials, 3)}|{'many' if lowers == 0 and caps * 2 >= size else 'few'}",
            "seg_lower": min(lowers * 4 // max(size, 1), 3),
            "seg_first": first["w"] if first.get("class") in _CUE_CLASSES else first["shape"][:2],
        }
        if any("year" in w or "hasyear" in w for w in ws):
            seg["seg_year"] = 1
        if any(w.get("class") == "series" for w in ws):
            seg["seg_series"] = 1
        if _name_list(toks[a:b], ws):
            seg["seg_namelist"] = 1
        if any("digits" in w or "hasdigit" in w for w in ws):
            seg["seg_digit"] = 1
        if first.get("class") == "in":
            seg["seg_in"] = 1
        if toks[a].text[:1] in _OPEN_QUOTES:
            seg["seg_quoted"] = 1
        if seen_in:
            seg["after_in"] = 1
        if seen_quote:
            seg["after_quote"] = 1
        seg["segk"] = f"{min(k, 4)}|{min(len(bounds) - k - 1, 4)}"
        for i in range(a, b):
            out[i] = dict(seg, seg_at=min(i - a, 3) if i < b - 1 else "end")
        seen_in = seen_in or first.get("class") == "in"
        seen_quote = seen_quote or any(re.search(r"[”\"]\W*$", t.text) for t in toks[a:b])
    return out


#: Labels split into a first token and the tokens that continue a run ("title" then "title+"), so a weight can
#: say "a title goes on past this period" apart from "a title starts after this period" (a first-order CRF
#: conditions transitions on nothing else). Split for training, joined back when labelling.
CONTINUED = ("title", "container")


def split_runs(labels: list[str]) -> list[str]:
    """Training labels with the continuation tokens of CONTINUED runs marked by a trailing '+'."""
    return [f"{lab}+" if lab in CONTINUED and i and labels[i - 1] == lab else lab for i, lab in enumerate(labels)]


class Labeller:
    """A loaded CRF model; thread-safe (one tagger per thread)."""

    def __init__(self, path: str) -> None:
        import pycrfsuite

        self._path = path
        self._local = threading.local()
        self._tagger_cls = pycrfsuite.Tagger
        self._tagger()  # fail now, not on first use, when the file is unreadable

    def _tagger(self) -> Any:
        tagger = getattr(self._local, "tagger", None)
        if tagger is None:
            tagger = self._tagger_cls()
            tagger.open(self._path)
            self._local.tagger = tagger
        return tagger

    def label(self, text: str, marks: list[str] | None = None) -> list[tuple[Token, str]]:
        """Labels of the tokens of `text`; `marks`: the rule parser's reading, one per character (see features)."""
        # Lone surrogates (broken astral characters from PDF text) cannot be encoded for crfsuite; the same-length
        # replacement keeps every offset valid for the caller's text.
        toks = tokens(text)
        if not toks:
            return []
        clean = [Token(_SURROGATE.sub("\ufffd", t.text), t.start, t.end) for t in toks]
        labels = [lab.rstrip("+") for lab in self._tagger().tag(features(clean, marks))]
        return list(zip(toks, labels, strict=True))


@lru_cache(maxsize=1)
def default_labeller() -> Labeller | None:
    """The packaged model, or None when python-crfsuite or the model file is missing (rules only then)."""
    try:
        ref = resources.files("citetracer.data").joinpath(MODEL_NAME)
        if not ref.is_file():
            return None
        with resources.as_file(ref) as path:
            return Labeller(str(path))
    except (ImportError, OSError, RuntimeError, ValueError):
        return None


def spans(labelled: list[tuple[Token, str]], text: str) -> dict[str, str]:
    """The longest run of each label, as text; a title run may bridge one stray "other" token.

    The longest rather than the first run: a stray token labelled title among the authors must not
    hide the real title that follows.
    """
    best: dict[str, tuple[int, str]] = {}
    i = 0
    n = len(labelled)
    while i < n:
        label = labelled[i][1]
        j = i
        while j + 1 < n and (
            labelled[j + 1][1] == label
            or (label == "title" and j + 2 < n and labelled[j + 1][1] == "other" and labelled[j + 2][1] == label)
        ):
            j += 1
        size = j - i + 1
        if label not in best or size > best[label][0]:
            best[label] = (size, text[labelled[i][0].start : labelled[j][0].end])
        i = j + 1
    return {label: value for label, (_, value) in best.items()}
