"""The Parser Agent hook: the agent sees the printed block and text; provenance stays the extractor's."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from citetracer.extract import read_references
from citetracer.extract.agent.repair import AgentError, RepairRequest, crop_png, repair_references
from citetracer.records import Reference
from tests.extract.conftest import column

REFS = [
    "Layek, G. C. 2015. An Introduction to Dynamical Systems and Chaos. New Delhi, India:",
    ">Springer India.",
    "Tomida, Akemi Galvez. 2008. Matlab Toolbox and GUI for Analyzing One-Dimensional",
    ">Chaotic Maps. Perugia, Italy: IEEE.",
]


class FixingAgent:
    """Scripted agent: records what it was shown; fixes the first title, fails on the second."""

    def __init__(self) -> None:
        self.seen: list[RepairRequest] = []

    def repair(self, request: RepairRequest) -> Reference | None:
        self.seen.append(request)
        if len(self.seen) == 1:
            return request.draft.model_copy(update={"title": "Fixed title", "page": 99, "raw": "tampered"})
        raise AgentError("scripted failure")


def test_agent_gets_png_crop_and_text_and_cannot_move_the_reference(make_pdf: Callable[..., Path]) -> None:
    path = make_pdf([[(72, 80, "References", 14), *column(REFS, 72, 110, indent=18)]])
    refs = read_references(path).references
    png = crop_png(path, refs[0])
    assert png is not None and png.startswith(b"\x89PNG")
    image = Image.open(io.BytesIO(png))
    assert 100 < image.width < 1200 and 20 < image.height < 80  # two lines of text at 150 dpi

    agent = FixingAgent()
    fixed, warnings = repair_references(path, refs, agent)
    assert agent.seen[0].image_png is not None and "Layek" in agent.seen[0].text
    assert fixed[0].title == "Fixed title"
    assert fixed[0].page == refs[0].page and fixed[0].raw == refs[0].raw and fixed[0].boxes == refs[0].boxes
    assert fixed[1] == refs[1]
    assert any("draft kept" in w for w in warnings)


def test_text_inputs_have_no_crop() -> None:
    assert crop_png(Path("nowhere.pdf"), Reference(raw="x")) is None
