"""Parser Agent: only broken drafts are sent; only values found in the block are taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from citetracer.config import LLMSettings, Settings
from citetracer.extract import read_references
from citetracer.extract.agent.parser_agent import LLMParserAgent, needs_repair
from citetracer.extract.agent.repair import RepairRequest, repair_references
from citetracer.extract.fields import parser as fields
from citetracer.llm.client import LLMClient
from citetracer.pipeline import Checker
from citetracer.records import Person, Reference
from citetracer.store.db import Store
from tests.llm.fakellm import FakeLLM, Reply, reply_json

TEXT = "[3] A. Vaswani, N. Shazeer. Attention is all you need. In NIPS, pages 5998-6008, 2017."
BROKEN = Reference(
    raw=TEXT,
    label="3",
    page=4,
    title=None,
    authors=[Person(given="A.", family="Vaswani"), Person(given="N.", family="Shazeer")],
    year=2017,
)
SOUND = BROKEN.model_copy(update={"title": "Attention is all you need", "venue": "NIPS"})
REPAIRED = {
    "title": "Attention is all you need",
    "authors": [{"given": "A.", "family": "Vaswani"}, {"given": "N.", "family": "Shazeer"}],
    "venue": "NIPS",
    "year": 2017,
    "pages": "5998-6008",
    "doi": "10.5555/invented.123",  # not in the block: must not be taken
    "continues_previous": False,
}


def agent(fake: FakeLLM, tmp_path: Path, **kw: object) -> LLMParserAgent:
    opts: dict[str, object] = {"base_url": fake.url, "model": "text-1", "cache": "", "max_retries": 0, **kw}
    return LLMParserAgent(LLMClient(LLMSettings.model_validate(opts)))


def test_needs_repair() -> None:
    assert needs_repair(SOUND, TEXT) is None
    assert needs_repair(BROKEN, TEXT) == "no title"
    assert needs_repair(SOUND, TEXT + " doi:10.1000/xyz") == "a DOI in the text the draft missed"


def test_text_file_through_the_pipeline(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The rules alone (no CRF model) misread the first reference's title as "NIPS 25": a broken draft whatever
    # the packaged model's accuracy, so the repair path is exercised.
    monkeypatch.setattr(fields, "default_labeller", lambda: None)
    text = tmp_path / "refs.txt"
    text.write_text(
        "[1] Krizhevsky A, Sutskever I, Hinton GE (2012) NIPS 25, pp 1097-1105, "
        "ImageNet classification with deep convolutional neural networks\n"
        "[2] Sepp Hochreiter and Jurgen Schmidhuber. Long short-term memory. Neural Computation 9(8), 1997.\n",
        encoding="utf-8",
    )
    fixed = {
        "title": "ImageNet classification with deep convolutional neural networks",
        "authors": [
            {"given": "A", "family": "Krizhevsky"},
            {"given": "I", "family": "Sutskever"},
            {"given": "GE", "family": "Hinton"},
        ],
        "venue": "NIPS",
        "year": 2012,
        "pages": "1097-1105",
    }
    base = {"store": store.path, "offline": True, "today_year": 2026, "remember_verified": False}
    checker = Checker(Settings.model_validate(base), store=store)
    before = checker.check_read(read_references(text), str(text))
    with FakeLLM() as fake:
        fake.add(reply_json(fixed))
        llm = {"base_url": fake.url, "model": "m", "cache": "", "max_retries": 0}
        checker = Checker(Settings.model_validate({**base, "llm": llm}), store=store)
        after = checker.check_read(read_references(text), str(text))
    assert before.citations[0].reference.title == "NIPS 25"  # the deterministic parser's draft
    assert after.citations[0].reference.title == fixed["title"]
    assert after.citations[0].verdict.class_ == "Real"
    assert [a.agent for a in after.citations[0].cost.agents] == ["parser"]
    assert after.citations[1].cost.agents == [] and len(fake.requests) == 1  # the sound draft was not sent


def test_sound_drafts_cost_nothing(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        a = agent(fake, tmp_path)
        assert a.repair(RepairRequest(text=TEXT, draft=SOUND, image_png=None)) is None
    assert fake.requests == [] and a.calls == [[]]


def test_broken_draft_is_repaired_with_grounded_values_only(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(reply_json(REPAIRED))
        a = agent(fake, tmp_path)
        fixed, warnings = repair_references(None, [BROKEN], a)
    ref = fixed[0]
    assert (ref.title, ref.venue, ref.pages, ref.year) == ("Attention is all you need", "NIPS", "5998-6008", 2017)
    assert ref.doi is None  # invented by the model, not in the block
    assert (ref.raw, ref.label, ref.page) == (TEXT, "3", 4)
    assert warnings == [] and a.calls[0][0].status == "ok" and a.calls[0][0].agent == "parser"
    user = fake.requests[0]["messages"][1]["content"]
    assert isinstance(user, str) and "<untrusted-block>" in user and "Attention is all you need" in user


def test_failed_agent_keeps_the_draft_and_warns(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(Reply("I think the title is Attention."), Reply("Still prose."))
        fixed, warnings = repair_references(None, [BROKEN], agent(fake, tmp_path))
    assert fixed == [BROKEN]
    assert len(warnings) == 1 and "parser agent invalid" in warnings[0] and "draft kept" in warnings[0]


def test_image_goes_to_the_vision_model_only(tmp_path: Path) -> None:
    png = b"\x89PNG\r\n\x1a\nfake"
    with FakeLLM() as fake:
        fake.add(reply_json(REPAIRED), reply_json(REPAIRED))
        agent(fake, tmp_path, vision_model="vision-1").repair(RepairRequest(text=TEXT, draft=BROKEN, image_png=png))
        agent(fake, tmp_path).repair(RepairRequest(text=TEXT, draft=BROKEN, image_png=png))
    with_image, text_only = fake.requests
    assert with_image["model"] == "vision-1"
    parts = with_image["messages"][1]["content"]
    assert parts[1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert text_only["model"] == "text-1" and isinstance(text_only["messages"][1]["content"], str)


def test_continuation_is_reported(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(reply_json({**REPAIRED, "continues_previous": True}))
        a = agent(fake, tmp_path)
        a.repair(RepairRequest(text=TEXT, draft=BROKEN, image_png=None))
    assert a.continuations == [0]


def test_the_parser_agent_rereads_the_file_whatever_name_the_report_gives_it(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A web job names its report after the upload ('My paper (v2)'), not the file on disk: the Parser Agent
    still rereads the file read."""
    monkeypatch.setattr(fields, "default_labeller", lambda: None)
    text = tmp_path / "upload-1234.txt"
    text.write_text(
        "[1] Krizhevsky A, Sutskever I, Hinton GE (2012) NIPS 25, pp 1097-1105, "
        "ImageNet classification with deep convolutional neural networks\n",
        encoding="utf-8",
    )
    fixed = {"title": "ImageNet classification with deep convolutional neural networks", "venue": "NIPS", "year": 2012}
    base = {"store": store.path, "offline": True, "today_year": 2026, "remember_verified": False}
    with FakeLLM() as fake:
        fake.add(reply_json(fixed))
        llm = {"base_url": fake.url, "model": "m", "cache": "", "max_retries": 0}
        checker = Checker(Settings.model_validate({**base, "llm": llm}), store=store)
        report = checker.check(checker.read(text, name="My paper (v2)"))
    assert report.input == "My paper (v2)"
    assert report.citations[0].reference.title == fixed["title"]
    assert len(fake.requests) == 1
