"""Parser Agent: an LLM re-reads a reference block (image and text) and repairs the draft record.

Implements `extract.agent.repair.ParserAgent` (`repair(RepairRequest) -> Reference | None`),
so `extract.agent.repair.repair_references` drives it and keeps the extractor's
provenance (raw text, page, boxes, label). Two rules keep it cheap and honest:
- only drafts that look broken are sent (`needs_repair`: no title, no authors,
  no year and no identifier, a run-on title, a title that is a venue name or
  under three words, an identifier in the text the draft missed); a sound
  draft costs nothing;
- a value the model returns is kept only if it is in the block's text
  (`llm.untrusted.grounded`); otherwise the draft's value stays.
With a vision model configured and a crop available, the image goes along.
A failed or invalid reply raises `AgentError`: the extractor keeps the draft and
warns. `continues_previous` answers are collected in `continuations` (the
repair Protocol has no channel for merging blocks; see the report).
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any, Protocol

from citetracer.config import LLMSettings
from citetracer.llm.client import Content, LLMClient
from citetracer.llm.prompts import load_prompt
from citetracer.llm.schemas import ParserReply
from citetracer.llm.untrusted import grounded, quote, reference_data
from citetracer.normalize.text import clean_text, tokens
from citetracer.normalize.venues import is_known
from citetracer.records import FIELDS, AgentCall, Person, Reference

#: Longer "titles" are usually a title run into the venue or the next reference.
MAX_TITLE_CHARS = 250
#: Shorter "titles" are usually a venue or a fragment (one-word titles exist, and cost one call).
MIN_TITLE_WORDS = 3
_DOI = re.compile(r"\b10\.\d{4,9}/\S+")
_ARXIV = re.compile(r"arxiv", re.IGNORECASE)
#: The Reference fields that hold one string (authors and year are handled apart).
STRING_FIELDS = (*(f for f in FIELDS if f not in ("authors", "year")), "type")


class RequestLike(Protocol):
    """What `extract.agent.repair.RepairRequest` carries."""

    text: str
    draft: Reference
    image_png: bytes | None


class AgentFailed(Exception):
    """Raised when the extractor's own AgentError is unavailable (kept importable without extract)."""


def needs_repair(draft: Reference, text: str) -> str | None:
    """Why the draft looks broken, or None when it looks sound (and the agent is not asked)."""
    if not draft.title:
        return "no title"
    if not draft.authors:
        return "no authors"
    if draft.year is None and not (draft.doi or draft.arxiv_id):
        return "no year and no identifier"
    if len(draft.title) > MAX_TITLE_CHARS:
        return "run-on title"
    if len(tokens(draft.title)) < MIN_TITLE_WORDS or is_known(draft.title):
        return "the title looks like a venue or a fragment"
    if _DOI.search(text) and not draft.doi:
        return "a DOI in the text the draft missed"
    if _ARXIV.search(text) and not draft.arxiv_id and not draft.doi:
        return "an arXiv id in the text the draft missed"
    return None


class LLMParserAgent:
    def __init__(self, client: LLMClient) -> None:
        self.client = client
        #: AgentCalls per repair request, in request order (empty when the draft was sound).
        self.calls: list[list[AgentCall]] = []
        #: Indexes (request order) of blocks the agent read as continuations of the previous one.
        self.continuations: list[int] = []

    def repair(self, request: RequestLike) -> Reference | None:
        """The Parser Agent's repaired record for a draft that looks misparsed (None: keep the draft); its calls are
        kept per reference.
        """
        calls: list[AgentCall] = []
        self.calls.append(calls)
        if needs_repair(request.draft, request.text) is None:
            return None
        vision = request.image_png is not None and bool(self.client.settings.vision_model)
        content = self._content(request, vision)
        result = self.client.ask_sync("parser", load_prompt("parser"), ParserReply, content, vision)
        calls.append(result.call)
        if result.value is None:
            raise _agent_error(f"parser agent {result.call.status}: {result.call.detail}")
        if result.value.continues_previous:
            self.continuations.append(len(self.calls) - 1)
        return merge(request.draft, result.value, request.text)

    @staticmethod
    def _content(request: RequestLike, vision: bool) -> Content:
        data = {"block_text": request.text, "draft": reference_data(request.draft)}
        text = "Repair the draft record of this reference block.\n" + quote("block", data)
        if not vision or request.image_png is None:
            return text
        image = base64.b64encode(request.image_png).decode("ascii")
        return [
            {"type": "text", "text": text},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{image}"}},
        ]


def merge(draft: Reference, reply: ParserReply, text: str) -> Reference:
    """The draft with every reply value that is grounded in the block's text. The reply's strings are cleaned
    first (`clean_text`), as the block's text was: a model copies ligatures and split accents, or adds its own."""
    update: dict[str, Any] = {}
    for name in STRING_FIELDS:
        value = getattr(reply, name)
        value = clean_text(value) if isinstance(value, str) else value
        if value and value != getattr(draft, name) and grounded(value, text):
            update[name] = value
    if reply.year is not None and str(reply.year) in text:
        update["year"] = reply.year
    people = [
        Person(given=clean_text(p.given) if p.given else p.given, family=clean_text(p.family)) for p in reply.authors
    ]
    if people and all(p.family and grounded(p.family, text, 1.0) for p in people):
        update["authors"] = people
    return draft.model_copy(update=update)


def _agent_error(message: str) -> Exception:
    try:
        from citetracer.extract.agent.repair import AgentError
    except ImportError:  # pragma: no cover - the extractor without its repair hook
        return AgentFailed(message)
    return AgentError(message)


def repair_with_agent(
    settings: LLMSettings, path: Path, refs: list[Reference]
) -> tuple[list[Reference], list[str], list[list[AgentCall]]]:
    """Every reference of a PDF (crops) or text file offered to the Parser Agent, with its calls per reference."""
    from citetracer.extract.agent.repair import repair_references

    agent = LLMParserAgent(LLMClient.shared(settings))
    fixed, warnings = repair_references(path if path.suffix.lower() == ".pdf" else None, refs, agent)
    for i in agent.continuations:
        label = fixed[i].label or i + 1
        warnings.append(f"reference {label}: the parser agent reads it as the continuation of the previous one")
    return fixed, warnings, agent.calls
