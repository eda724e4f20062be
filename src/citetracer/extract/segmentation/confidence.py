"""How sure the PDF reader is of each reference it cut from a list, and whether the list's DOIs add up.

A reference read wrong (two entries run together, one cut in two, one lost to a figure) turns into a
citation that seems fabricated downstream, so the reader says where it is unsure instead of passing
the doubt on silently:

- each reference gets a confidence: the line segmenter's own probability (its marginals,
  `linecrf.Reading`) of the reading that was finally taken, whichever segmenter made it, over the
  reference's lines and the line that follows it (a reference cut short or run on shows there). The
  weakest line sets the figure: one doubtful line is one doubtful boundary;
- a list that prints DOIs must keep every one of them: a DOI set among the list's lines that no
  reference carries is an entry (or part of one) lost, and a reference that carries several
  different DOIs is likely several entries run together. Either is said in a warning that names the DOIs
  lost; the plain-text reader (readers/text.py) keeps the same count over its entries.
"""

from __future__ import annotations

from collections.abc import Sequence

from citetracer.extract.fields.parser import DOI_PATTERN
from citetracer.extract.layout.page import Line
from citetracer.extract.segmentation.plausibility import HINT, PREFIX
from citetracer.extract.segmentation.segment import Block, join_lines
from citetracer.normalize.text import canonical_doi
from citetracer.records import Reference

#: A reference read with less confidence than this is named in a warning.
LOW_CONFIDENCE = 0.5


def entry_confidence(
    window: Sequence[Line], marginals: Sequence[dict[str, float]], blocks: Sequence[Block]
) -> list[float]:
    """One confidence in [0, 1] per block: the lowest probability the segmenter gives the label the reading
    put on each line from the block's first line to the next block's first line (inclusive), or to the
    line after the block's last for the last one. Lines of a block that are not in `window` are ignored."""
    index = {id(ln): k for k, ln in enumerate(window)}
    assigned = ["O"] * len(window)
    spans: list[tuple[int, int]] = []
    for block in blocks:
        ks = sorted(index[id(ln)] for ln in block.lines if id(ln) in index)
        if not ks:
            spans.append((-1, -1))
            continue
        for j, k in enumerate(ks):
            assigned[k] = "I" if j else "B"
        spans.append((ks[0], ks[-1]))
    starts = sorted(a for a, _b in spans if a >= 0)
    out = []
    for first, last in spans:
        if first < 0:
            out.append(0.0)
            continue
        later = [s for s in starts if s > first]
        stop = later[0] if later else last + 1
        span = range(first, min(stop, len(window) - 1) + 1)
        out.append(round(min(marginals[k].get(assigned[k], 0.0) for k in span), 3))
    return out


def low_confidence_warning(refs: Sequence[Reference], confidence: Sequence[float]) -> str | None:
    """A warning naming the references read with less than LOW_CONFIDENCE, or None."""
    low = [(r, c) for r, c in zip(refs, confidence, strict=True) if c < LOW_CONFIDENCE]
    if not low:
        return None
    pages = sorted({r.page for r, _c in low if r.page})
    where = ", ".join(str(p) for p in pages)
    first, c = min(low, key=lambda rc: rc[1])
    return (
        f"{PREFIX}: {len(low)} of {len(refs)} references were read with low confidence (below {LOW_CONFIDENCE:.0%})"
        f" on page(s) {where}; the least sure ({c:.0%}): {(first.raw or '')[:70]!r}; they may be cut, merged or"
        f" mixed with other text ({HINT})"
    )


def list_dois(lines: Sequence[Line]) -> list[str]:
    """The DOIs printed in `lines` (joined as one reference's text is, so a DOI broken over lines counts
    once), canonical and in order of appearance, each once."""
    return _distinct(_dois(join_lines([ln.text for ln in lines])))


def _dois(text: str) -> list[str]:
    return [d for m in DOI_PATTERN.finditer(text) if (d := canonical_doi(m.group(1).rstrip(".,;")))]


def _distinct(dois: list[str]) -> list[str]:
    """Each DOI once, in order; a DOI that another one extends (the same one cut short by a bracket or a line
    end) counts as that one."""
    out: list[str] = []
    for d in sorted(dict.fromkeys(dois), key=len, reverse=True):
        if not any(o.startswith(d) for o in out):
            out.append(d)
    return sorted(out, key=dois.index)


def furniture_dois(furniture: Sequence[Line], pages: set[int]) -> list[tuple[int, str]]:
    """(page, DOI) for each DOI printed in a line the layout left out as a running head, foot or page number
    (`furniture`) on one of `pages`, unless the same DOI is printed that way on two pages or more: a journal's
    foot that cites the paper itself (JOSE's, on every page) is furniture, a DOI on one page's foot is the
    end of an entry set where a foot would be."""
    found = [(ln.page, d) for ln in furniture for d in _dois(ln.text)]
    pages_of: dict[str, set[int]] = {}
    for page, d in found:
        pages_of.setdefault(d, set()).add(page)
    return [(page, d) for page, d in found if page in pages and len(pages_of[d]) == 1]


def _carries(carried: Sequence[str], doi: str) -> bool:
    return any(c.startswith(doi) or doi.startswith(c) for c in carried)


def doi_warnings(listed: Sequence[Line], refs: Sequence[Reference], furniture: Sequence[Line] = ()) -> list[str]:
    """Warnings when the DOIs printed among the list's lines (`listed`: from its first reference's first line
    to its last reference's last line, whatever the reading kept) and those its references carry disagree;
    `furniture`: the lines the layout left out as running heads and feet (a DOI there, on a page of the list,
    that no reference carries is an entry's end taken for a foot)."""
    printed = list_dois(listed)
    at_foot = furniture_dois(furniture, {ln.page for ln in listed})
    carried_dois = [d for ref in refs for d in _dois(ref.raw or "") + ([ref.doi] if ref.doi else [])]
    out = []
    dropped = [(page, doi) for page, doi in at_foot if not _carries(carried_dois, doi)]
    if dropped:
        pages = ", ".join(str(p + 1) for p in sorted({p for p, _d in dropped}))
        out.append(
            f"{PREFIX}: {len(dropped)} DOI(s) printed at the top or foot of page(s) {pages} (first: {dropped[0][1]})"
            f" were left out as running heads or feet, and no reference carries them: an entry (or its end) may"
            f" have been lost ({HINT})"
        )
    return out + doi_count_warnings(printed, refs)


def text_dois(texts: Sequence[str]) -> list[str]:
    """The DOIs printed in `texts` (each an entry's text as its reference is read), canonical, each once."""
    return _distinct([d for text in texts for d in _dois(text)])


def doi_count_warnings(printed: Sequence[str], refs: Sequence[Reference], hint: str = HINT) -> list[str]:
    """Warnings when the DOIs a list prints (`printed`, canonical) and those its references carry disagree: a
    printed DOI that no reference carries (an entry, or its end, lost: each such DOI is named, up to three) and
    a reference that carries two DOIs or more (several entries read as one)."""
    if not printed:
        return []
    carried: dict[str, int] = {}
    several = []
    for k, ref in enumerate(refs):
        distinct = _distinct(_dois(ref.raw or "") + ([ref.doi] if ref.doi else []))
        for d in distinct:
            carried[d] = k
        if len(distinct) >= 2:
            several.append(ref)
    out = []
    lost = [d for d in printed if not _carries(list(carried), d)]
    if lost:
        named = ", ".join(lost[:3]) + (", ..." if len(lost) > 3 else "")
        out.append(
            f"{PREFIX}: the list prints {len(printed)} DOIs but the {len(refs)} references read carry"
            f" {len(printed) - len(lost)} of them; {len(lost)} ({named}) {'is' if len(lost) == 1 else 'are'} in no"
            f" reference: an entry may have been lost ({hint})"
        )
    if several:
        first = several[0]
        where = f" on page {first.page}" if first.page else ""
        out.append(
            f"{PREFIX}: {len(several)} reference(s) read carry two or more DOIs (first: {(first.raw or '')[:70]!r}"
            f"{where}); several entries may have been read as one ({hint})"
        )
    return out
