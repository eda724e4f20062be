"""Pydantic models of every agent reply: what a model must return to be listened to.

A reply that does not validate is an invalid reply (retried once, then the
deterministic result stands). The models bound every string and list, so a
runaway model cannot blow up a report, and tie each code to its class.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from citetracer.records import FIELDS
from citetracer.taxonomy import CODES, class_of

FieldName = Literal[
    "title", "authors", "venue", "year", "doi", "arxiv_id", "pages", "volume", "issue", "publisher", "location", "url"
]
assert set(FieldName.__args__) == set(FIELDS)  # type: ignore[attr-defined]
Label = Literal["normalizable", "candidate_missing", "reference_missing", "contradiction"]
CodeName = Literal["R1", "R2", "R3", "P1", "P2", "P3", "H1", "H2", "H3", "H4", "H5", "H6"]
assert set(CodeName.__args__) == set(CODES)  # type: ignore[attr-defined]

Short = Field(default="", max_length=400)


class Reply(BaseModel):
    """Base of every reply: unknown keys are ignored, known ones must be right."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)


# ------------------------------------------------------------------ Matcher Agent


class FieldLabel(Reply):
    field: FieldName
    label: Label
    candidate_ids: list[str] = Field(default_factory=list, max_length=10)
    note: str = Short


class MatcherReply(Reply):
    """The residual field-status profile: one label per field that still differs."""

    fields: list[FieldLabel] = Field(max_length=24)


# ---------------------------------------------------------------------- judgers


class JudgerReply(Reply):
    """(class, codes, offending fields, supporting candidate ids, one-sentence rationale)."""

    class_: Literal["Real", "Potential", "Hallucinated"] = Field(alias="class")
    code: CodeName
    codes: list[CodeName] = Field(default_factory=list, max_length=12)
    offending_fields: list[FieldName] = Field(default_factory=list, max_length=12)
    supporting_candidate_ids: list[str] = Field(default_factory=list, max_length=10)
    rationale: str = Field(min_length=1, max_length=600)

    @model_validator(mode="after")
    def _code_fits_class(self) -> JudgerReply:
        if class_of(self.code) != self.class_:
            raise ValueError(f"code {self.code} is not a {self.class_} code")
        return self

    def all_codes(self) -> list[str]:
        """The primary code and the other codes of the reply's own class, each once."""
        return list(dict.fromkeys([self.code, *(c for c in self.codes if class_of(c) == self.class_)]))


# Each judger's schema names only the classes and codes it may return, so a server that
# constrains decoding to the schema (llama.cpp) cannot even produce another judger's code.
PotentialCode = Literal["P1", "P2", "P3"]


class ValidJudgerReply(JudgerReply):
    class_: Literal["Real", "Potential"] = Field(alias="class")
    code: Literal["R1", "R2", "R3"] | PotentialCode
    codes: list[Literal["R1", "R2", "R3"] | PotentialCode] = Field(  # type: ignore[assignment]
        default_factory=list, max_length=12
    )


class PotentialJudgerReply(JudgerReply):
    class_: Literal["Potential"] = Field(alias="class")
    code: PotentialCode
    codes: list[PotentialCode] = Field(default_factory=list, max_length=12)  # type: ignore[assignment]


class HallucinatedJudgerReply(JudgerReply):
    class_: Literal["Hallucinated", "Potential"] = Field(alias="class")
    code: Literal["H1", "H2", "H3", "H4", "H5", "H6"] | PotentialCode
    codes: list[Literal["H1", "H2", "H3", "H4", "H5", "H6"] | PotentialCode] = Field(  # type: ignore[assignment]
        default_factory=list, max_length=12
    )


# ------------------------------------------------------------ Parser / Web Agent


class PersonOut(Reply):
    given: str | None = Field(default=None, max_length=200)
    family: str = Field(min_length=1, max_length=200)


class RecordOut(Reply):
    """A bibliographic record as an agent reads it from a block or a page."""

    title: str | None = Field(default=None, max_length=1000)
    authors: list[PersonOut] = Field(default_factory=list, max_length=200)
    venue: str | None = Field(default=None, max_length=500)
    year: int | None = Field(default=None, ge=1000, le=2999)
    doi: str | None = Field(default=None, max_length=300)
    arxiv_id: str | None = Field(default=None, max_length=100)
    pages: str | None = Field(default=None, max_length=100)
    volume: str | None = Field(default=None, max_length=100)
    issue: str | None = Field(default=None, max_length=100)
    publisher: str | None = Field(default=None, max_length=300)
    location: str | None = Field(default=None, max_length=300)
    url: str | None = Field(default=None, max_length=2000)
    type: str | None = Field(default=None, max_length=50)


class ParserReply(RecordOut):
    continues_previous: bool = False


class WebReply(RecordOut):
    is_record: bool
