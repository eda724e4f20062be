"""The Parser Agent hook: let a configured LLM re-read a reference and repair its draft record.

The deterministic parser's record is a draft. When an LLM is configured
(another part of citetracer provides it), the agent receives what a human
checker would look at: the reference's block rendered from the page as a
PNG, its text, and the draft. It returns a corrected record or None to keep
the draft. Provenance (raw text, page, boxes, label) always stays the
extractor's: an agent can fix fields, never move a reference.

Without an agent nothing here runs. `crop_png` is usable on its own (e.g. to
show an auditor the reference as printed).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from citetracer.extract.fields.normalizers import clean_reference
from citetracer.records import Reference

#: Resolution of the crops sent to the agent: legible for a vision model, small enough to send.
CROP_DPI = 150
#: Largest crop, in pixels (width x height): a reference is a few lines, never a page of them.
MAX_CROP_PIXELS = 4_000_000


@dataclass
class RepairRequest:
    text: str
    draft: Reference
    #: The block as printed (PNG bytes), or None when it could not be rendered (e.g. a text input).
    image_png: bytes | None


class AgentError(Exception):
    """The agent failed on one reference (timeout, invalid answer); the draft is kept."""


class ParserAgent(Protocol):
    def repair(self, request: RepairRequest) -> Reference | None:
        """A corrected record for the request, or None to keep the draft."""
        ...


def crop_png(pdf: Path, ref: Reference, dpi: int = CROP_DPI) -> bytes | None:
    """The reference's boxes rendered and stacked top to bottom as one PNG."""
    if not ref.boxes:
        return None
    from PIL import Image

    from citetracer.extract.readers.pdfdoc import Document, PdfError

    try:
        doc = Document(pdf)
    except PdfError:
        return None
    parts = []
    with doc:
        for box in ref.boxes:
            if not 1 <= box.page <= len(doc):
                continue
            pad = 2.0
            parts.append(doc.render(box.page - 1, dpi, (box.x0 - pad, box.y0 - pad, box.x1 + pad, box.y1 + pad)))
    if not parts:
        return None
    width = max(p.width for p in parts)
    height = sum(p.height for p in parts)
    if width * height > MAX_CROP_PIXELS:
        return None
    sheet = Image.new("L", (width, height), 255)
    y = 0
    for p in parts:
        sheet.paste(p, (0, y))
        y += p.height
    buf = io.BytesIO()
    sheet.save(buf, format="PNG")
    return buf.getvalue()


def repair_references(pdf: Path | None, refs: list[Reference], agent: ParserAgent) -> tuple[list[Reference], list[str]]:
    """Each reference offered to the agent; its answers merged under the extractor's provenance."""
    out: list[Reference] = []
    warnings: list[str] = []
    for ref in refs:
        image = crop_png(pdf, ref) if pdf is not None else None
        try:
            fixed = agent.repair(RepairRequest(text=ref.raw or "", draft=ref, image_png=image))
        except AgentError as exc:
            warnings.append(f"reference {ref.label}: the parser agent failed ({exc}); draft kept")
            fixed = None
        if fixed is None:
            out.append(ref)
            continue
        # The agent's fields are cleaned like the parser's (a model copies ligatures and split accents from the text).
        fixed = clean_reference(fixed)
        out.append(
            fixed.model_copy(
                update={
                    "raw": ref.raw,
                    "page": ref.page,
                    "boxes": ref.boxes,
                    "label": ref.label,
                    "confidence": ref.confidence,
                }
            )
        )
    return out, warnings
