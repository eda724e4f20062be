"""What kind of work a citation names: a journal article, a proceedings paper, a preprint, a book, a
thesis, a report, software, a dataset, a model, a web page or a standard.

A source's silence is evidence only for the kinds of work it is complete for (data/source_facts.tsv):
the broad indexes hold journal articles, proceedings papers and preprints whole, and no index holds
software, datasets, reports, theses, books or web pages whole (DESIGN.md, "Accuse on what a source
knows"). The kind is read from what the citation itself says, never from what was found.
"""

from __future__ import annotations

import re

from citetracer.data import lexicon
from citetracer.normalize.names import is_collective
from citetracer.normalize.text import arxiv_from_doi, canonical_arxiv, canonical_doi, tokens
from citetracer.normalize.venue_kb import packaged_kb
from citetracer.normalize.venues import is_preprint, venue_kind
from citetracer.records import Reference

#: Words of a "venue" that is really a publisher, a society or a place of publication.
PUBLISHER_WORDS = lexicon.words("publisher") | lexicon.words("publisher-venue")
#: Kinds of work the scholarly indexes hold whole (as data/source_facts.tsv names them).
SCHOLARLY_KINDS = frozenset({"article", "paper", "preprint"})
KIND_NAMES = {"article": "journal articles", "paper": "proceedings papers", "preprint": "preprints"}
#: Kinds named by things other than scholarly works: confirmed by their URL or the web, if at all (P2).
NON_SCHOLARLY_KINDS = frozenset({"software", "dataset", "model", "web page", "standard"})
_HOSTS = (
    (re.compile(r"github\.com|gitlab\.|bitbucket\.org|pypi\.org|cran\.r-project|crates\.io|npmjs\.com"), "software"),
    (re.compile(r"huggingface\.co/(?!datasets|papers)"), "model"),
    (re.compile(r"huggingface\.co/datasets|kaggle\.com|zenodo\.org|figshare\.com|dataverse|data\.gov"), "dataset"),
    (re.compile(r"arxiv\.org|biorxiv\.org|medrxiv\.org|ssrn\.com"), "preprint"),
    (re.compile(r"doi\.org|aclanthology\.org|openreview\.net|proceedings\.|dl\.acm\.org|ieeexplore"), ""),
)
_THESIS = r"\b(ph\.?\s?d\.?|doctoral|master'?s|bachelor'?s)\s+(thesis|dissertation)\b|\bdissertation\b|\bthesis\b"
_REPORT = r"\btech(nical|\.)?\s+rep(ort|\.)|\bwhite\s*paper\b|\btechnical\s+note\b|\bworking\s+paper\b"
#: Words that say what a citation names, read outside its title (a title may be about a "library").
_WORDS = (
    (re.compile(_THESIS, re.I), "thesis"),
    (re.compile(_REPORT, re.I), "report"),
    (re.compile(r"\bmodel\s+card\b|\bsystem\s+card\b|\bhugging\s?face\b", re.I), "model"),
    (re.compile(r"\b(github|gitlab|software|python package|r package|source code)\b", re.I), "software"),
    (re.compile(r"\b(dataset|data set|kaggle|zenodo)\b", re.I), "dataset"),
    (re.compile(r"\b(blog|website|web page|accessed|retrieved)\b", re.I), "web page"),
    (re.compile(r"\b(iso|iec|ieee std|rfc)\s*\d", re.I), "standard"),
)
#: Words in a venue's name that say what is cited whatever the entry type ("OpenAI Blog" is no journal):
#: not software or data words, which journals carry in their names ("Journal of Software Engineering").
_VENUE_WORDS = tuple((p, k) for p, k in _WORDS if k in ("thesis", "report", "web page", "standard"))
_ISBN = re.compile(r"\bISBN(?:-1[03])?[:\s]", re.I)
_URL_TITLE = re.compile(r"https?://|\bwww\.", re.I)
#: ... and the ones a title itself may carry ("GPT-4 Technical Report", "Llama 3 Model Card").
_TITLE_WORDS = (
    (re.compile(_REPORT, re.I), "report"),
    (re.compile(r"\bmodel\s+card\b|\bsystem\s+card\b", re.I), "model"),
)
#: A publishing house named where a venue would be: a book.
_BOOK_HOUSE = re.compile(
    r"\b[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*\s+(?:University\s+)?Press\b|\b(?:Springer|Wiley|Addison[- ]Wesley|"
    r"O'Reilly|Prentice[- ]Hall|McGraw[- ]Hill|Morgan Kaufmann|Cambridge University|Oxford University)\b"
)
_TYPE_KINDS = {
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "thesis": "thesis",
    "techreport": "report",
    "report": "report",
    "book": "book",
    "inbook": "book",
    "incollection": "book",
    "proceedings": "book",
    "booklet": "book",
    "manual": "software",
    "software": "software",
    "dataset": "dataset",
    "online": "web page",
    "electronic": "web page",
    "www": "web page",
    "webpage": "web page",
    "standard": "standard",
}


def work_kind(ref: Reference) -> tuple[str, str]:
    """What kind of work a citation names, and from what: its identifiers, its URL's host, its entry type,
    its venue's kind, the words around its title (a report, a thesis, a repository), its title's own."""
    arxiv_doi = arxiv_from_doi(canonical_doi(ref.doi))
    if canonical_arxiv(ref.arxiv_id) or arxiv_doi or is_preprint(ref.venue) or (ref.type or "").lower() == "preprint":
        return "preprint", "it names an arXiv identifier or a preprint server"
    url = (ref.url or "").lower()
    for pattern, kind in _HOSTS:
        if url and pattern.search(url):
            if not kind:
                break  # a landing page of a scholarly work
            return kind, f"its URL is on {pattern.pattern.split('|')[0].replace(chr(92), '')}"
    typed = _TYPE_KINDS.get((ref.type or "").lower())
    if typed is not None:
        return typed, f"its entry type is {ref.type}"
    if _URL_TITLE.search(ref.title or ""):
        return "web page", "its title is a URL"
    for pattern, kind in _VENUE_WORDS:
        found = pattern.search(ref.venue or "")
        if found:
            return kind, f"its venue says '{found.group(0)}'"
    venue = venue_kind(ref.venue, ref.type) if ref.venue else None
    if venue == "journal":
        return "article", f"'{ref.venue}' is a journal"
    if venue in ("conference", "workshop"):
        return "paper", f"'{ref.venue}' is a conference"
    if ref.venue and packaged_kb().journal_named(ref.venue):
        # A journal's name may hold a thing's word ("Environmental Modelling & Software", "Scientific Data"): what
        # it prints is articles, read before the words around the title that name software or data.
        return "article", f"'{ref.venue}' is a journal of the journal list"
    raw = "" if (ref.raw or "").lstrip().startswith("@") else (ref.raw or "").replace(ref.title or "\0", " ")
    around = " ".join(x for x in (ref.venue, ref.publisher, raw) if x)
    for pattern, kind in _WORDS:
        found = pattern.search(around)
        if found:
            return kind, f"it says '{found.group(0)}'"
    for pattern, kind in _TITLE_WORDS:
        found = pattern.search(ref.title or "")
        if found:
            return kind, f"its title says '{found.group(0)}'"
    if (ref.type or "").lower() == "article":
        return "article", "its entry type is article"
    if (ref.type or "").lower() in ("inproceedings", "conference"):
        return "paper", f"its entry type is {ref.type}"
    if ref.venue and is_book_venue(ref.venue):
        return "book", f"'{ref.venue}' names a publisher"
    isbn = _ISBN.search(f"{ref.raw or ''} {ref.venue or ''}")
    if isbn:
        return "book", "it gives an ISBN"
    if not ref.venue and (ref.publisher or _BOOK_HOUSE.search(around)):
        return "book", f"it names a publisher ('{ref.publisher or _BOOK_HOUSE.search(around).group(0)}') and no venue"  # type: ignore[union-attr]
    if ref.url and not ref.doi:
        return "web page", "it is cited by its URL"
    if ref.doi:
        return "article", "it names a DOI"
    if ref.venue:
        return "paper", f"it names the venue '{ref.venue}'"
    if _reads_as_paper(ref):
        return "paper", (
            "it names people as authors, a title of several words and a year, and nothing that marks a book, "
            "a report, a thesis, software or data"
        )
    return "unknown", "it names no venue, type or identifier"


#: Words by which a title names software, data or a model rather than a study of something (a paper may be about a
#: library; without a venue, nothing else tells the two apart, and no index holds software whole).
_THING = re.compile(
    r"\b(library|libraries|toolkit|toolbox|package|software|dataset|data set|corpus|platform|plugin|sdk|api)\b", re.I
)
#: A model's size in parameters ("Starling-7B", "Qwen2.5-72B"): a model release, often a blog or a model card.
_MODEL_SIZE = re.compile(r"\b\d+(?:\.\d+)?[bm]\b", re.I)
#: Where a title's (or its subtitle's) head phrase ends: what it names comes before ("Interpreto: A Visualization
#: Library for ...", "Tyee: A Unified, Modular, and Fully-Integrated Configurable Toolkit for ..."); a thing word
#: after it is what a study is of or on ("analysis of ... in a fixed rotating platform", "Sensing for Automated
#: Package Inspection").
_HEAD_END = re.compile(r"\b(?:for|of|on|in|with|to|from|via|using|through|towards?|by|at|under|over|into)\b", re.I)
_PARTS = re.compile(r"\s*(?::|\s[-\u2013\u2014]\s)\s*")


#: A release: a name of one to three words and a dotted version ("Universal Dependencies 2.12", "spaCy 3.7.2").
_RELEASE = re.compile(r"^(?:[^\W\d_][\w-]*\s+){1,3}v?\d+\.\d+(?:\.\d+)?$")


def names_a_thing(title: str) -> bool:
    """Whether a title names software, data or a model, by the words that head it or its subtitle, or by being a
    name and a version number."""
    if _MODEL_SIZE.search(title) or _RELEASE.match(title.strip()):
        return True
    return any(_THING.search(_HEAD_END.split(part, maxsplit=1)[0]) for part in _PARTS.split(title) if part.strip())


#: Content words from which a title names a piece of research rather than a thing (a "Manual", "Python").
PAPER_TITLE_WORDS = 3
_STOP = frozenset("a an the of for and in on to with by from at via its is are as or into using".split())


def _reads_as_paper(ref: Reference) -> bool:
    """A citation that names no venue but carries what a paper's citation carries (people as authors, a
    title of PAPER_TITLE_WORDS content words or more, a year) and nothing another kind's would (checked
    before: a code or data host, a publisher, report, thesis, software or data words) is a paper: what
    LLM-written bibliographies list most, and what two broad indexes hold whole."""
    people = [p for p in ref.authors if p.given and p.family and not is_collective(p)]
    words = [w for w in tokens(ref.title or "") if w not in _STOP]
    if names_a_thing(ref.title or ""):
        return False  # "LibContinual: A Comprehensive Library ...": a thing of software or data, named by its title
    return bool(people) and len(words) >= PAPER_TITLE_WORDS and ref.year is not None


def is_book_venue(venue: str) -> bool:
    words = set(tokens(venue))
    return bool(words) and words <= PUBLISHER_WORDS | {"and", "of", "the", "university", "mit", "verlag", "co"}
