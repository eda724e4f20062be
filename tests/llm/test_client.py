"""The LLM client against a real loopback server: validation, retries, degrade, limits, cache, accounting."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from citetracer.config import LLMSettings
from citetracer.llm.client import LLMClient, parse_reply
from citetracer.llm.prompts import Prompt, load_prompt
from citetracer.llm.schemas import MatcherReply
from tests.llm.fakellm import FakeLLM, Reply, Sleep, Status, reply_json

GOOD = {"fields": [{"field": "venue", "label": "normalizable", "candidate_ids": ["C1"], "note": "abbreviation"}]}


def client(fake: FakeLLM, tmp_path: Path, **kw: object) -> LLMClient:
    opts: dict[str, object] = {"base_url": fake.url, "model": "fake-1", "cache": tmp_path / "cache", "max_retries": 2}
    opts.update(kw)
    return LLMClient(LLMSettings.model_validate(opts))


def ask(c: LLMClient, user: str = "case", prompt: Prompt | None = None):  # type: ignore[no-untyped-def]
    return asyncio.run(c.ask("matcher", prompt or load_prompt("matcher"), MatcherReply, user))


def test_valid_reply_is_validated_and_accounted(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(reply_json(GOOD, prompt_tokens=1000, completion_tokens=50))
        c = client(fake, tmp_path, price_prompt=2.0, price_completion=10.0, api_key="sk-test")
        result = ask(c)
    assert result.value is not None and result.value.fields[0].label == "normalizable"
    call = result.call
    assert (call.status, call.attempts, call.prompt_tokens, call.completion_tokens) == ("ok", 1, 1000, 50)
    assert call.cost == pytest.approx((1000 * 2.0 + 50 * 10.0) / 1e6)
    assert call.prompt == "matcher@v1.1" and call.model == "fake-1"
    body = fake.requests[0]
    assert body["response_format"]["type"] == "json_schema" and body["max_tokens"] == 1024
    assert body["response_format"]["json_schema"]["schema"]["title"] == "MatcherReply"
    assert '"label"' in body["messages"][0]["content"]  # the schema is in the system prompt too
    assert fake.headers[0]["Authorization"] == "Bearer sk-test"
    assert c.totals["matcher"].tokens == 1050


def test_invalid_json_is_retried_once_with_the_error(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(Reply("{not json"), reply_json(GOOD))
        result = ask(client(fake, tmp_path))
    assert result.value is not None and result.call.attempts == 2
    retry = fake.requests[1]["messages"]
    assert retry[-2] == {"role": "assistant", "content": "{not json"}
    assert "not valid" in retry[-1]["content"]


@pytest.mark.parametrize(
    "bad",
    [
        reply_json({"fields": [{"field": "venue", "label": "maybe"}]}),  # wrong enum
        reply_json({"answer": "Real"}),  # wrong schema
        Reply(None, refusal="I can't help with that."),  # refusal
        Reply("Sure! The reference looks fine."),  # prose
    ],
)
def test_two_invalid_replies_leave_no_value(tmp_path: Path, bad: Reply) -> None:
    with FakeLLM() as fake:
        fake.add(bad, bad)
        result = ask(client(fake, tmp_path))
    assert result.value is None
    assert result.call.status == "invalid" and result.call.attempts == 2
    assert "no valid reply" in (result.call.detail or "")


def test_fenced_json_is_accepted() -> None:
    assert parse_reply("```json\n" + json.dumps(GOOD) + "\n```", MatcherReply).fields[0].field == "venue"


def test_429_is_retried_after_retry_after(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(Status(429, "Rate limit reached", retry_after="0"), reply_json(GOOD))
        result = ask(client(fake, tmp_path))
    assert result.value is not None and result.call.attempts == 2


def test_server_down_is_failed_not_an_answer(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(*[Status(503, "overloaded", retry_after="0")] * 3)
        result = ask(client(fake, tmp_path, max_retries=2))
    assert result.value is None and result.call.status == "failed" and result.call.attempts == 3
    assert "503" in (result.call.detail or "")


def test_timeout_is_failed(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(Sleep(1.5, reply_json(GOOD)))
        result = ask(client(fake, tmp_path, timeout=0.3, max_retries=0))
    assert result.value is None and result.call.status == "failed"
    assert "Timeout" in (result.call.detail or "")


def test_unauthorized_is_not_retried(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(Status(401, "Incorrect API key provided"))
        result = ask(client(fake, tmp_path))
    assert result.call.status == "failed" and result.call.attempts == 1
    assert "Incorrect API key" in (result.call.detail or "")


JO = "json_object"


@pytest.mark.parametrize(
    ("accepts", "status", "extra_keys", "modes"),
    [
        ("json_schema", 400, True, [("json_schema", False)]),
        ("json_object", 400, True, [("json_schema", False), (JO, True)]),
        ("json_object", 500, True, [("json_schema", False), (JO, True)]),  # llama-cpp-python's server
        ("json_object", 400, False, [("json_schema", False), (JO, True), (JO, False)]),
        ("none", 400, True, [("json_schema", False), (JO, True), (JO, False), (None, False)]),
    ],
)
def test_response_format_degrades_and_is_remembered(
    tmp_path: Path, accepts: str, status: int, extra_keys: bool, modes: list[tuple[str | None, bool]]
) -> None:
    with FakeLLM(accepts=accepts, reject_status=status, extra_keys=extra_keys) as fake:
        fake.add(reply_json(GOOD), reply_json(GOOD))
        c = client(fake, tmp_path, cache="")
        assert ask(c, "first").value is not None
        assert ask(c, "second").value is not None
    sent = [
        ((b.get("response_format") or {}).get("type"), "schema" in (b.get("response_format") or {}))
        for b in fake.requests
    ]
    assert sent == [*modes, modes[-1]]  # the second question starts with the mode that worked


def test_a_500_that_is_not_about_the_format_is_retried_not_degraded(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(Status(500, "CUDA out of memory", retry_after="0"), reply_json(GOOD))
        c = client(fake, tmp_path)
        assert ask(c).value is not None and c.response_format_mode == "json_schema"


def test_cache_is_keyed_by_model_and_prompt_version(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(reply_json(GOOD), reply_json(GOOD), reply_json(GOOD))
        c = client(fake, tmp_path)
        assert ask(c).call.status == "ok"
        again = ask(c)
        assert again.call.status == "cached" and again.value is not None
        assert (again.call.attempts, again.call.prompt_tokens) == (0, 0)
        assert len(fake.requests) == 1
        base = load_prompt("matcher")
        assert ask(c, prompt=Prompt(base.name, base.version + "-next", base.text)).call.status == "ok"
        assert ask(client(fake, tmp_path, model="fake-2")).call.status == "ok"
        assert len(fake.requests) == 3


def test_invalid_replies_are_not_cached(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(Reply("nope"), Reply("nope"), reply_json(GOOD))
        c = client(fake, tmp_path)
        assert ask(c).value is None
        assert ask(c).call.status == "ok"


def test_concurrency_limit(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(*[Sleep(0.2, reply_json(GOOD)) for _ in range(6)])
        c = client(fake, tmp_path, concurrency=2, cache="")

        async def many() -> list[object]:
            prompt = load_prompt("matcher")
            return await asyncio.gather(*(c.ask("matcher", prompt, MatcherReply, f"q{i}") for i in range(6)))

        results = asyncio.run(many())
    assert len(results) == 6 and fake.max_in_flight == 2


def test_oversized_reply_is_failed(tmp_path: Path) -> None:
    with FakeLLM() as fake:
        fake.add(Reply("x" * 2_100_000))
        result = ask(client(fake, tmp_path, max_retries=0))
    assert result.value is None and result.call.status == "failed"
