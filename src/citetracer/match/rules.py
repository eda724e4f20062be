"""Rule Field Matcher: compare a reference with each candidate, field by field.

Every field of every candidate gets `match`, `missing` or `mismatch` after the
normalizers of `normalize`, `names` and `venues`; differences those
normalizers remove are labelled `normalizable`. The assessment also keeps the
raw signals the judgers need (title similarity, author overlap, year delta).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz

from citetracer.normalize.names import AuthorListComparison, compare_name_lists, name_pairs, shown_names
from citetracer.normalize.text import (
    arxiv_from_doi,
    canonical_arxiv,
    canonical_doi,
    canonical_pages,
    fold,
    same_document_number,
    title_form,
    title_inside,
    title_key,
    title_similarity,
    title_words,
    tokens,
)
from citetracer.normalize.venue_kb import close_names, venue_keys
from citetracer.normalize.venues import is_preprint, same_venue, spells
from citetracer.records import Candidate, FieldComparison, FieldStatus, Reference, Residual, construct
from citetracer.thresholds import PUBLISHER_RATIO, VERSION_YEARS

M, MISS, X = FieldStatus.MATCH, FieldStatus.MISSING, FieldStatus.MISMATCH
#: Fields whose difference never contradicts a work's identity: versions and printings of one work
#: differ in them, and parsers misread them (an ISSN read as pages).
MINOR_FIELDS = frozenset(("pages", "volume", "issue"))


@dataclass
class Assessment:
    """How well one candidate supports one reference."""

    candidate: Candidate
    fields: dict[str, FieldComparison] = field(default_factory=dict)
    title_similarity: float = 0.0
    #: "exact", "subtitle" (one title is the other without its subtitle), "qualifier" (equal once
    #: an edition, a bracketed acronym or qualifier, a trailing year, a URL or entities are set
    #: aside: renderings of one work), "raw-text" (the record's title found whole in the
    #: reference's text), "variant" (one title inside the other with framing words around it, by the
    #: same authors in the same venue and year) or None.
    title_form: str | None = None
    authors: AuthorListComparison | None = None
    year_delta: int | None = None
    #: Fields the candidate records and the citation omits (not counted against either).
    reference_missing: dict[str, FieldComparison] = field(default_factory=dict)

    @property
    def same_title(self) -> bool:
        """Whether the titles are the same up to formatting (exact, subtitle dropped, or whole in the raw text)."""
        return self.title_form is not None

    def status(self, name: str) -> FieldStatus | None:
        """The comparison status of a field, or None when the citation does not give it."""
        comparison = self.fields.get(name)
        return comparison.status if comparison else None

    def mismatched(self) -> list[str]:
        """The fields that contradict the candidate, but for the minor ones (pages, volume, issue)."""
        return [n for n, c in self.fields.items() if c.status == X and n not in MINOR_FIELDS]

    def missing_in_candidate(self) -> list[str]:
        """The cited fields the candidate does not record."""
        return [n for n, c in self.fields.items() if c.residual == Residual.CANDIDATE_MISSING]

    @property
    def all_match(self) -> bool:
        """Whether every field the citation gives matches (formatting differences allowed), but for
        the minor ones: pages, volume and issue differ between versions and printings of one work,
        and no code says a work is fabricated on a page number."""
        return all(c.status == M for n, c in self.fields.items() if n not in MINOR_FIELDS)

    @property
    def authors_ok(self) -> bool:
        """Whether the authors match, or the citation names none."""
        return self.status("authors") in (M, None)

    @property
    def identity(self) -> float:
        """Ranking score: how likely this candidate is the cited work."""
        score = 3.0 * self.title_similarity
        if self.authors and self.authors.cited:
            score += 2.0 * self.authors.overlap
        if self.status("doi") == M or self.status("arxiv_id") == M:
            score += 2.5
        if self.year_delta == 0:
            score += 0.5
        if self.status("venue") == M:
            score += 0.3
        return score


def _cmp(
    name: str,
    status: FieldStatus,
    cited: object,
    found: object,
    residual: Residual | None = None,
    similarity: float | None = None,
    note: str | None = None,
) -> FieldComparison:
    # Built without validation: every value here comes from already-validated models.
    return construct(
        FieldComparison,
        {
            "field": name,
            "status": status,
            "residual": residual,
            "cited": None if cited is None else str(cited),
            "found": None if found is None else str(found),
            "similarity": similarity,
            "note": note,
        },
    )


def _compare_simple(name: str, cited: str | None, found: str | None) -> FieldComparison | None:
    if not cited:
        return None
    if not found:
        return _cmp(name, MISS, cited, None, residual=Residual.CANDIDATE_MISSING)
    same = " ".join(tokens(cited)) == " ".join(tokens(found))
    return _cmp(name, M if same else X, cited, found, residual=None if same else Residual.CONTRADICTION)


def assess(reference: Reference, cand: Candidate) -> Assessment:
    """Field-by-field comparison of one reference with one candidate: each comparer of COMPARERS in turn."""
    a = Assessment(candidate=cand)
    for name, compare in COMPARERS:
        comparison = compare(reference, cand, a)
        if comparison is not None:
            a.fields[name] = comparison
    _title_variant(reference, cand, a)
    for name in ("title", "venue", "year", "doi", "arxiv_id", "pages", "volume", "issue", "publisher"):
        cited_value = getattr(reference, name)
        found_value = getattr(cand, name)
        if cited_value in (None, "") and found_value not in (None, ""):
            a.reference_missing[name] = _cmp(
                name, MISS, None, found_value, residual=Residual.REFERENCE_MISSING, note="not given by the citation"
            )
    return a


def _same_people_spelt_apart(a: Assessment) -> bool:
    """The cited authors are the record's, every one of them, though a name may be spelt apart (a typo
    in a given or family name): the same people, both lists whole."""
    if a.status("authors") == M:
        return True
    cmp = a.authors
    return (
        cmp is not None
        and cmp.cited >= 2
        and cmp.cited == cmp.found
        and not cmp.unmatched_cited
        and cmp.matched + cmp.variants + cmp.given_conflicts == cmp.cited
    )


def _title_variant(reference: Reference, cand: Candidate, a: Assessment) -> None:
    """One title inside the other with framing words around it, by the same authors in the same venue and
    year, is the same work under a variant of its title (its authors' own rewording, a longer title in
    one version): one work, not a near miss."""
    if a.title_form is not None or not reference.title or not cand.title:
        return
    if not _same_people_spelt_apart(a) or a.year_delta != 0 or a.status("venue") not in (M, None):
        return
    if not title_inside(reference.title, cand.title):
        return
    a.title_form = "variant"
    a.fields["title"] = _cmp(
        "title",
        M,
        reference.title,
        cand.title,
        similarity=a.title_similarity,
        residual=Residual.NORMALIZABLE,
        note="a variant of the title (one inside the other) by the same authors, venue and year",
    )


#: A comparer of one field: the comparison of the cited value with the candidate's (None when the
#: citation does not give the field). It may record raw signals on the assessment (title
#: similarity and form, author comparison, year delta) for the judgers and the later comparers.
Comparer = Callable[[Reference, Candidate, Assessment], FieldComparison | None]


def compare_title(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """Same title up to formatting, the title without its subtitle, or found whole in the raw text."""
    if (
        cand.title
        and (not reference.title or title_form(reference.title, cand.title) is None)
        and _years_close(reference.year, cand.year)
        and _in_free_text(reference, cand.title)
    ):
        # The parser split a reference string wrongly, but the record's title is in it.
        a.title_similarity = 1.0
        a.title_form = "raw-text"
        return _cmp(
            "title",
            M,
            reference.title,
            cand.title,
            similarity=1.0,
            residual=Residual.NORMALIZABLE,
            note="title found in the reference text (the field parser split it differently)",
        )
    if not reference.title:
        return None
    if not cand.title:
        return _cmp("title", MISS, reference.title, None, residual=Residual.CANDIDATE_MISSING)
    a.title_similarity = title_similarity(reference.title, cand.title)
    a.title_form = title_form(reference.title, cand.title)
    if a.title_form == "exact":
        return _cmp("title", M, reference.title, cand.title, similarity=a.title_similarity)
    if a.title_form in ("subtitle", "qualifier"):
        shorter = "the record's title" if len(cand.title) < len(reference.title) else "the cited title"
        return _cmp(
            "title",
            M,
            reference.title,
            cand.title,
            similarity=a.title_similarity,
            residual=Residual.NORMALIZABLE,
            note=f"{shorter} omits the other's subtitle"
            if a.title_form == "subtitle"
            else "an edition, acronym or qualifier differs",
        )
    return _cmp("title", X, reference.title, cand.title, similarity=a.title_similarity, residual=Residual.CONTRADICTION)


def compare_authors(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """The same people (in order, in another order, some names spelt differently), or not."""
    if not reference.authors:
        return None
    cited = name_pairs(reference.authors)
    cited_names = shown_names(cited)
    if not cand.authors:
        return _cmp("authors", MISS, cited_names, None, residual=Residual.CANDIDATE_MISSING)
    found = name_pairs(cand.authors)
    cmp = compare_name_lists(cited, found, reference.et_al, cand.authors_truncated)
    a.authors = cmp
    found_names = shown_names(found)
    if cmp.complete:
        # The same people: exact, or written another way (a name spelt or cut differently, a nickname, another
        # order), which a note says.
        if cmp.variants:
            note = f"{cmp.variants} author name(s) spelt differently from the record (a typo, a name cut short)"
        elif cmp.nicknames:
            note = f"{cmp.nicknames} given name(s) written as a nickname of the record's"
        elif not cmp.in_order:
            note = "same authors in another order"
        else:
            return _cmp("authors", M, cited_names, found_names, similarity=1.0)
        return _cmp("authors", M, cited_names, found_names, similarity=1.0, residual=Residual.NORMALIZABLE, note=note)
    return _cmp(
        "authors",
        X,
        cited_names,
        found_names,
        similarity=cmp.overlap,
        residual=Residual.CONTRADICTION,
        note=_author_note(cmp),
    )


def compare_year(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """The same year, or the difference (kept as `year_delta` for the judgers)."""
    if reference.year is None:
        return None
    if cand.year is None:
        return _cmp("year", MISS, reference.year, None, residual=Residual.CANDIDATE_MISSING)
    a.year_delta = reference.year - cand.year
    same = a.year_delta == 0
    return _cmp("year", M if same else X, reference.year, cand.year, residual=None if same else Residual.CONTRADICTION)


def compare_venue(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """The same venue by name or abbreviation, a known spelling of it, or (after a raw-text
    title) found in the reference text; a published venue against a preprint server is noted."""
    if not reference.venue:
        return None
    found_venue = cand.venue or cand.venue_full
    if not found_venue:
        return _cmp("venue", MISS, reference.venue, None, residual=Residual.CANDIDATE_MISSING)
    if any(same_venue(reference.venue, v) for v in (cand.venue, cand.venue_full) if v):
        exact = fold(reference.venue) in (fold(cand.venue or ""), fold(cand.venue_full or ""))
        return _cmp(
            "venue",
            M,
            reference.venue,
            found_venue,
            residual=None if exact else Residual.NORMALIZABLE,
            note=None if exact else f"venue '{reference.venue}' names '{found_venue}'",
        )
    if any(spells(reference.venue, v) for v in (cand.venue, cand.venue_full) if v):
        return _cmp(
            "venue",
            M,
            reference.venue,
            found_venue,
            residual=Residual.NORMALIZABLE,
            note=f"venue '{reference.venue}' read as a spelling of '{cand.venue_full or found_venue}'",
        )
    if any(_abbreviated(reference.venue, v) for v in (cand.venue, cand.venue_full) if v):
        return _cmp(
            "venue",
            M,
            reference.venue,
            found_venue,
            residual=Residual.NORMALIZABLE,
            note=f"venue '{reference.venue}' read as a short form of '{cand.venue_full or found_venue}'",
        )
    if a.title_form == "raw-text" and any(
        _in_free_text(reference, v, tokens_only=True) for v in (cand.venue, cand.venue_full) if v
    ):
        return _cmp(
            "venue",
            M,
            reference.venue,
            found_venue,
            residual=Residual.NORMALIZABLE,
            note="venue found in the reference text (the field parser split it differently)",
        )
    note = "preprint cited as published" if is_preprint(found_venue) and not is_preprint(reference.venue) else None
    return _cmp("venue", X, reference.venue, found_venue, residual=Residual.CONTRADICTION, note=note)


def compare_doi(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """The same DOI in canonical form; an arXiv DOI matches the arXiv id, or is another version."""
    ref_doi = canonical_doi(reference.doi)
    if not ref_doi:
        return None
    cand_doi = canonical_doi(cand.doi)
    if cand_doi == ref_doi:
        return _cmp("doi", M, ref_doi, cand_doi)
    if arxiv_from_doi(ref_doi) and arxiv_from_doi(ref_doi) == canonical_arxiv(cand.arxiv_id):
        return _cmp("doi", M, ref_doi, cand.arxiv_id, residual=Residual.NORMALIZABLE, note="arXiv DOI")
    if not cand_doi:
        return _cmp("doi", MISS, ref_doi, None, residual=Residual.CANDIDATE_MISSING)
    if arxiv_from_doi(ref_doi) and not arxiv_from_doi(cand_doi):
        # An arXiv DOI for a work whose published version has another DOI: two versions.
        return _cmp(
            "doi",
            MISS,
            ref_doi,
            cand_doi,
            residual=Residual.CANDIDATE_MISSING,
            note="arXiv DOI of a work with a publisher DOI",
        )
    if same_document_number(ref_doi, cand_doi):
        return _cmp(
            "doi", M, ref_doi, cand_doi, residual=Residual.NORMALIZABLE, note="the registrant's same document number"
        )
    return _cmp("doi", X, ref_doi, cand_doi, residual=Residual.CONTRADICTION)


def compare_arxiv_id(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """The same arXiv id without its version (unless the cited DOI already is that arXiv DOI)."""
    ref_arxiv = canonical_arxiv(reference.arxiv_id)
    ref_doi = canonical_doi(reference.doi)
    if not ref_arxiv or (ref_doi and arxiv_from_doi(ref_doi) == ref_arxiv):
        return None
    cand_arxiv = canonical_arxiv(cand.arxiv_id) or arxiv_from_doi(canonical_doi(cand.doi))
    if cand_arxiv == ref_arxiv:
        return _cmp("arxiv_id", M, ref_arxiv, cand_arxiv)
    if not cand_arxiv:
        return _cmp("arxiv_id", MISS, ref_arxiv, None, residual=Residual.CANDIDATE_MISSING)
    return _cmp("arxiv_id", X, ref_arxiv, cand_arxiv, residual=Residual.CONTRADICTION)


def compare_pages(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """The same first page."""
    if not reference.pages:
        return None
    ref_pages, cand_pages = canonical_pages(reference.pages), canonical_pages(cand.pages)
    if not cand_pages:
        return _cmp("pages", MISS, reference.pages, None, residual=Residual.CANDIDATE_MISSING)
    if ref_pages and ref_pages[0] == cand_pages[0]:
        return _cmp("pages", M, reference.pages, cand.pages)
    return _cmp("pages", X, reference.pages, cand.pages, residual=Residual.CONTRADICTION)


def compare_volume(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """The same volume, word for word."""
    return _compare_simple("volume", reference.volume, cand.volume)


def compare_issue(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """The same issue, word for word."""
    return _compare_simple("issue", reference.issue, cand.issue)


def compare_publisher(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """A publisher that reads the same, else missing: publisher names vary too much to contradict."""
    return _compare_loose("publisher", reference.publisher, cand.publisher)


def compare_location(reference: Reference, cand: Candidate, a: Assessment) -> FieldComparison | None:
    """Candidates record no place: a cited location is only ever missing from them."""
    return _compare_loose("location", reference.location, None)


def _compare_loose(name: str, cited: str | None, found: str | None) -> FieldComparison | None:
    if not cited:
        return None
    if found and fuzz.token_set_ratio(fold(cited), fold(found)) >= PUBLISHER_RATIO:
        return _cmp(name, M, cited, found)
    # Publisher names and places vary too much to contradict anything on their own.
    return _cmp(name, MISS, cited, found, residual=Residual.CANDIDATE_MISSING)


#: The Field Matcher's table: each field the citation may give and how it is compared, in the
#: order of the report (venue after title: a title found in the raw text lets the venue be found there too).
COMPARERS: tuple[tuple[str, Comparer], ...] = (
    ("title", compare_title),
    ("authors", compare_authors),
    ("year", compare_year),
    ("venue", compare_venue),
    ("doi", compare_doi),
    ("arxiv_id", compare_arxiv_id),
    ("pages", compare_pages),
    ("volume", compare_volume),
    ("issue", compare_issue),
    ("publisher", compare_publisher),
    ("location", compare_location),
)


#: Characters that end a field of a reference string: a title found in the raw text must sit
#: between them, never inside a longer phrase ("Pattern Recognition" in "Pattern Recognition
#: and Machine Learning", "Reinforcement Learning: A Survey" in "Model-based reinforcement ...").
_FIELD_BREAKS = frozenset(".,;:?!()[]{}\"'“”‘’«»")


def _in_free_text(reference: Reference, text: str, tokens_only: bool = False) -> bool:
    """Whether `text` (a record's title or venue) occurs in the reference's own string.

    Only for references read from free text (PDF, .bbl, plain lists), where the field parser
    may have cut the string in the wrong places; BibTeX fields are taken as given. A title
    counts only as a whole field of the string (bounded by field punctuation or the string's
    ends): a short record title contained in a longer cited one is another work.
    """
    raw = reference.raw
    if not raw or raw.lstrip().startswith("@") or not text:
        return False
    if tokens_only:
        needle = " ".join(title_words(text))
        return len(needle) >= 4 and f" {needle} " in f" {' '.join(title_words(raw))} "
    words = title_words(text)
    if len(title_key(text)) < 12 or len(words) < 2:
        return False
    return _whole_field(fold(raw), words)


def _whole_field(folded_raw: str, words: tuple[str, ...]) -> bool:
    """Whether the word sequence occurs in the folded string as one whole field."""
    gap = r"[^0-9a-z]+"
    pattern = re.compile(r"(?<![0-9a-z])" + gap.join(map(re.escape, words)) + r"(?![0-9a-z])")
    for m in pattern.finditer(folded_raw):
        before = folded_raw[: m.start()].rstrip()
        after = folded_raw[m.end() :].lstrip()
        if (not before or before[-1] in _FIELD_BREAKS) and (not after or after[0] in _FIELD_BREAKS):
            return True
    return False


@lru_cache(maxsize=65536)
def _abbreviated(cited: str, found: str) -> bool:
    """Whether one venue name is the other abbreviated word by word, or with an acronym for a run of
    its words ("Computers & OR" for "Computers & Operations Research"); the cited one may also be
    the record's cut short (extraction cuts names), never the other way round. Cached: a paper's venues
    meet the same records' venues again and again (17,354 calls for 1,119 HALLMARK citations)."""
    ka, kb = (venue_keys(cited) or ("",))[0].split(), (venue_keys(found) or ("",))[0].split()
    return close_names(ka, kb) or close_names(kb, ka, cut=False)


def _years_close(cited: int | None, found: int | None) -> bool:
    """Years that do not rule out one work (unknown, or at most one apart: preprint and proceedings)."""
    return cited is None or found is None or abs(cited - found) <= VERSION_YEARS


def _author_note(cmp: AuthorListComparison) -> str:
    parts = [f"{cmp.matched} of {cmp.cited} cited authors are authors of this work"]
    if cmp.given_conflicts:
        parts.append(f"{cmp.given_conflicts} with a different given name")
    if cmp.uncited:
        parts.append(f"{cmp.uncited} of its authors not cited")
    return "; ".join(parts)


def assess_all(reference: Reference, candidates: list[Candidate]) -> list[Assessment]:
    """Assessments of every candidate, best identity first."""
    out = [assess(reference, c) for c in candidates]
    out.sort(key=lambda a: a.identity, reverse=True)
    return out
