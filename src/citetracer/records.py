"""The data model every stage imports and no stage redefines.

A *Reference* is what a paper cites; a *Candidate* is a record some source
returned as evidence; a *FieldComparison* says how one field of a reference
compares with one candidate; a *Verdict* is the judgement with its codes and
evidence; a *CitationResult* bundles all of that with the cost; a *Report* is
what `check()` returns for one input.

The JSON shapes follow the contracts of DESIGN.md ('Contracts'): absent fields
are null, `class` is spelled `class` on the wire.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict  # pydantic validates typing.TypedDict only from Python 3.12

#: The bibliographic fields a reference may carry, in report order.
FIELDS: tuple[str, ...] = (
    "title",
    "authors",
    "venue",
    "year",
    "doi",
    "arxiv_id",
    "pages",
    "volume",
    "issue",
    "publisher",
    "location",
    "url",
)

_Model = TypeVar("_Model", bound=BaseModel)
_set = object.__setattr__


def construct(cls: type[_Model], values: dict[str, Any]) -> _Model:
    """`cls.model_construct(**values)` for already-validated values that name every field of `cls`, in
    its field order: the same object without model_construct's per-field loop (2.5 us, not 6: the
    matcher builds one per field per candidate). A model with aliases, extras or a post-init hook
    needs model_construct itself."""
    model = cls.__new__(cls)
    _set(model, "__dict__", values)
    _set(model, "__pydantic_fields_set__", set(values))
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", None)
    return model


class Person(BaseModel):
    """One author or editor, split into given and family names."""

    model_config = ConfigDict(frozen=True)

    given: str | None = None
    family: str

    def display(self) -> str:
        """The name as written in a report: 'Given Family', or the family name alone."""
        return f"{self.given} {self.family}" if self.given else self.family


class Box(BaseModel):
    """A rectangle on a PDF page (points, origin top-left) where a reference sits."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float


class Work(BaseModel):
    """The bibliographic fields a citation and an evidence record have in common."""

    title: str | None = None
    authors: list[Person] = Field(default_factory=list)
    venue: str | None = None
    year: int | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    pages: str | None = None
    volume: str | None = None
    issue: str | None = None
    publisher: str | None = None
    url: str | None = None
    #: Entry kind (BibTeX type such as "inproceedings", "article", "misc"; "preprint").
    type: str | None = None


class Reference(Work):
    """One cited work as the paper gives it: untrusted, possibly wrong."""

    raw: str | None = None
    #: True when the author list ends in "et al." / "and others" (truncated on purpose).
    et_al: bool = False
    location: str | None = None
    #: Citation label or BibTeX key, when the input has one.
    label: str | None = None
    page: int | None = None
    boxes: list[Box] = Field(default_factory=list)
    #: A PDF's: how sure its reader is of where this reference starts and ends, in [0, 1]
    #: (extract/segmentation/confidence.py); None for other inputs, and without the line segmenter's model.
    #: Below its LOW_CONFIDENCE the reading warns too.
    confidence: float | None = None

    def provided_fields(self) -> list[str]:
        """The bibliographic fields this reference actually states."""
        return [name for name in FIELDS if getattr(self, name) not in (None, "", [])]


class Candidate(Work):
    """A record returned by an evidence source, believed to describe a real work."""

    source: str
    id: str
    #: True when the source itself truncated the author list ("others").
    authors_truncated: bool = False
    venue_full: str | None = None
    #: Identifier of the work this record renders; versions of one work share it.
    work: str | None = None
    #: How the candidate was found (doi, arxiv, title, author-year, verified-link, ...).
    found_by: str | None = None
    #: Where the conference was held, when the source states it (Crossref's `event.location`, a CSL
    #: `event-place`); a DBLP record carries it inside its proceedings title (`venue_full`).
    location: str | None = None


class Version(BaseModel):
    """One version of a preprint as its server lists it (arXiv's v1, v2, ...) and the day it was submitted."""

    version: str
    date: str | None = None


class WorkRecord(Candidate):
    """A record as the local store keeps it: one rendering of a work plus its other renderings (versions)."""

    variants: list[Candidate] = Field(default_factory=list)
    #: A preprint's versions with their dates (an arXiv mirror's records), oldest first.
    versions: list[Version] = Field(default_factory=list)


class FieldStatus(StrEnum):
    """Outcome of comparing one field of a reference with one candidate."""

    MATCH = "match"
    MISSING = "missing"
    MISMATCH = "mismatch"


class Residual(StrEnum):
    """What a remaining difference means, as the matcher labels it."""

    NORMALIZABLE = "normalizable"
    CANDIDATE_MISSING = "candidate_missing"
    REFERENCE_MISSING = "reference_missing"
    CONTRADICTION = "contradiction"


class FieldComparison(BaseModel):
    field: str
    status: FieldStatus
    residual: Residual | None = None
    cited: str | None = None
    found: str | None = None
    similarity: float | None = None
    note: str | None = None


class EvidenceEntry(TypedDict, total=False):
    """One record a verdict rests on, as the report shows it (the JSON contract's evidence item)."""

    source: str
    id: str
    url: str | None
    title: str | None
    #: Display names ("Given Family").
    authors: list[str]
    venue: str | None
    year: int | None
    doi: str | None
    arxiv_id: str | None
    found_by: str | None


class Verdict(BaseModel):
    """The judgement of one citation: class, codes, offending fields, evidence."""

    model_config = ConfigDict(populate_by_name=True)

    class_: Literal["Real", "Potential", "Hallucinated"] = Field(alias="class")
    code: str
    codes: list[str]
    fields: list[str] = Field(default_factory=list)
    evidence: list[EvidenceEntry] = Field(default_factory=list)
    stage: str | None = None
    rationale: str
    confidence: float = 0.5
    #: For a Hallucinated verdict: the positive evidence about this cited work it rests on (the
    #: work's identity, or its covered absence, and the contradiction); see judge/gate.py.
    basis: str | None = None


#: The kinds of identifier a citation carries that a registry can be asked about.
IdentifierKind = Literal["doi", "arxiv", "pmid", "url"]


class IdentifierLookup(BaseModel):
    """What one registry answered about one cited identifier, as a typed fact (not report text).

    `answer`: "work" (the registry holds the identifier: `record` is its record's key,
    source:id), "none" (the registry's own reply that no such identifier exists: doi.org's or
    Crossref's 404, arXiv's empty feed, a complete mirror that lacks it), "failed" (no answer:
    timeout, 429, 5xx, a malformed or off-topic reply). A failure is never "none".
    `complete` says whether this registry holds every identifier of this kind in this range, so
    that its "none" is about the identifier and not a gap in the registry; `why` says so in
    words (collect/lookups.py decides both; judges read them, never `SourceOutcome.detail`).
    """

    kind: IdentifierKind
    #: The identifier in canonical form (canonical_doi, canonical_arxiv, digits of a PMID, the URL).
    value: str
    #: Who answered: a source name (`doi`, `crossref`, `arxiv`, ...), or `memory:<source>` for the
    #: local store (the mirror whose claim makes its absence a fact, or the record's source).
    registry: str
    answer: Literal["work", "none", "failed"]
    record: str | None = None
    complete: bool = False
    why: str = ""


class SourceOutcome(BaseModel):
    """What one source did for one citation: answered, failed or skipped.

    `detail` is for people; what a registry answered about a cited identifier is in `lookups`
    (empty for searches and for sources skipped, which were not asked).
    """

    source: str
    status: Literal["answered", "failed", "skipped"]
    candidates: int = 0
    detail: str | None = None
    lookups: list[IdentifierLookup] = Field(default_factory=list)
    #: When the source gave this answer (ISO 8601, UTC), for an answer replayed from the
    #: store's evidence memo instead of asked again (collect/memo.py); None when asked now.
    fetched_at: str | None = None
    #: For a search: how many works the service said match (OpenAlex meta.count, Crossref
    #: total-results, Semantic Scholar total, DBLP hits@total), as it counts them.
    hits: int | None = None
    #: What the source was asked when it was not a search for the citation's title: "authors-year"
    #: (every work the cited authors published in the cited year: where the work appeared, whatever
    #: its title there; collect/scholar.py).
    question: str | None = None


class AgentCall(BaseModel):
    """One use of an LLM agent for one citation: which prompt version, what it cost, how it ended.

    status: `ok` (valid reply), `cached` (valid reply from the response cache, no tokens spent),
    `invalid` (no valid reply after the retry: the deterministic result stood), `failed`
    (endpoint unreachable, timed out or refused after retries), `rejected` (a valid reply a
    guardrail overruled).
    """

    agent: str
    prompt: str
    model: str
    status: Literal["ok", "cached", "invalid", "failed", "rejected"]
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    detail: str | None = None


class Cost(BaseModel):
    connector_calls: int = 0
    #: Requests sent to the LLM endpoint (cache hits not counted) and the tokens they used.
    llm_calls: int = 0
    llm_tokens: int = 0
    llm_cost: float = 0.0
    agents: list[AgentCall] = Field(default_factory=list)

    def add_agent_calls(self, calls: list[AgentCall]) -> None:
        """Count these agent calls into the citation's LLM requests, tokens and cost."""
        self.agents.extend(calls)
        self.llm_calls += sum(c.attempts for c in calls)
        self.llm_tokens += sum(c.prompt_tokens + c.completion_tokens for c in calls)
        self.llm_cost = round(self.llm_cost + sum(c.cost for c in calls), 8)

    seconds: float = 0.0
    sources: list[SourceOutcome] = Field(default_factory=list)


class Decision(BaseModel):
    """A person's call on a citation (a program chair's, issue 44), kept beside the reports and applied
    to every later run of the same folder (report/decisions.py).

    `dismissed`: the citation is fine (the reason says why: "checked by hand", "known book"); its
    verdict is kept as judged and the reports count it apart. `confirmed`: the citation is wrong; a
    confirmed fabrication stays Hallucinated whatever a later run says. `judged`: what this run made of
    the citation ("Potential P3"), so a report shows the call beside the run's own verdict."""

    action: Literal["dismissed", "confirmed"]
    reason: str = ""
    by: str = ""
    #: When the call was made (ISO 8601, UTC).
    at: str = ""
    judged: str = ""


class CitationResult(BaseModel):
    id: str
    reference: Reference
    verdict: Verdict
    cost: Cost = Field(default_factory=Cost)
    comparisons: list[FieldComparison] = Field(default_factory=list)
    #: A person's call on this citation, when one was made (absent from the JSON otherwise).
    decision: Decision | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """The CITATION object of the JSON contract (DESIGN.md), with 'class' for the class."""
        data = self.model_dump(mode="json", by_alias=True)
        if data.get("decision") is None:
            data.pop("decision", None)
        return data


class ReadingSummary(BaseModel):
    """What a PDF's reading says of itself: the pages its list was read from (1-based), how many references it
    read, how many of them with low confidence (`Reference.confidence`), and the one line that says so. When it read
    no reference, `searched` names the pages it looked through, so a report can say plainly that the PDF shows no
    list there rather than print an empty table (and the user can point `--ref-pages` elsewhere)."""

    pages: list[int] = Field(default_factory=list)
    references: int = 0
    low_confidence: int = 0
    summary: str = ""
    searched: list[int] = Field(default_factory=list)

    @property
    def no_list(self) -> bool:
        """Whether no reference list was found: nothing of the PDF can be checked."""
        return self.references == 0


class Report(BaseModel):
    """Everything `check()` found for one input."""

    version: str
    input: str
    citations: list[CitationResult] = Field(default_factory=list)
    #: The paper's own warnings: what its reading found amiss, and the run's problems (no source answered).
    warnings: list[str] = Field(default_factory=list)
    #: What the store cannot confirm offline (empty, no complete source, cited years past its newest snapshot):
    #: a warning about the store, not the paper, so reports say it once and never count it as the paper's.
    store_warnings: list[str] = Field(default_factory=list)
    #: A PDF's reading: its list's pages, entry count and doubtful entries (None for inputs without layout).
    reading: ReadingSummary | None = None

    def summary(self) -> dict[str, int]:
        """The contract's summary: total, real, potential and hallucinated counts."""
        counts = {"total": len(self.citations), "real": 0, "potential": 0, "hallucinated": 0}
        for c in self.citations:
            counts[c.verdict.class_.lower()] += 1
        return counts

    def llm_totals(self) -> dict[str, Any]:
        """Agent calls, tokens and cost over every citation, in total and per agent."""
        per_agent: dict[str, dict[str, Any]] = {}
        for c in self.citations:
            for call in c.cost.agents:
                row = per_agent.setdefault(call.agent, {"uses": 0, "tokens": 0, "cost": 0.0, "prompt": call.prompt})
                row["uses"] += 1
                row["tokens"] += call.prompt_tokens + call.completion_tokens
                row["cost"] += call.cost
        return {
            "citations_with_agents": sum(1 for c in self.citations if c.cost.agents),
            "llm_calls": sum(c.cost.llm_calls for c in self.citations),
            "llm_tokens": sum(c.cost.llm_tokens for c in self.citations),
            "llm_cost": round(sum(c.cost.llm_cost for c in self.citations), 6),
            "agents": per_agent,
        }

    @property
    def has_hallucinated(self) -> bool:
        """Whether any citation is Hallucinated (exit code 1)."""
        return any(c.verdict.class_ == "Hallucinated" for c in self.citations)

    def to_json_dict(self) -> dict[str, Any]:
        """The JSON contract's document of a checked input."""
        doc: dict[str, Any] = {
            "citetracer": self.version,
            "input": self.input,
            "summary": self.summary(),
            "warnings": self.warnings,
            "store_warnings": self.store_warnings,
            "citations": [c.to_json_dict() for c in self.citations],
        }
        if self.reading is not None:
            doc["reading"] = self.reading.model_dump(mode="json")
        if any(c.cost.agents for c in self.citations):
            doc["llm"] = self.llm_totals()
        return doc
