"""One client for any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama,
llama.cpp server, LiteLLM proxy), returning schema-validated replies.

Why plain httpx and not the openai SDK: we need one POST to
`{base_url}/chat/completions` and control over exactly the parts servers
disagree on (which `response_format` they accept, how they signal rate limits,
how big a reply may be); the SDK adds ~46 MB and its own retry policy on top
of ours. httpx is already the project's HTTP client.

What it guarantees to callers:
- A reply is returned only if it parses as JSON and validates against the
  agent's pydantic schema. An invalid reply (bad JSON, wrong schema, a refusal)
  is retried once, telling the model what was wrong; after that the caller gets
  `value=None` and keeps its deterministic result. The AgentCall says which.
- Timeouts, 429 and 5xx are retried (`max_retries`, honouring Retry-After up to
  a cap); an endpoint that stays down is `failed`, never an answer.
- `response_format` degrades json_schema -> json_object -> none the first time
  a server rejects one (HTTP 400/422/501 naming the format, or any 5xx naming
  `response_format`, which is how llama-cpp-python's server refuses json_schema),
  and the client remembers the mode that worked. json_object is tried first with
  the schema attached (llama.cpp's servers then constrain decoding to it), then
  bare. The schema is always in the system prompt too, so models behind any
  mode know the shape.
- At most `concurrency` requests in flight; tokens and cost counted per call
  and per agent; valid replies cached on disk (see `cache`).
"""

from __future__ import annotations

import asyncio
import json
import re
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import httpx
from platformdirs import user_cache_dir
from pydantic import BaseModel, ValidationError

from citetracer.config import LLMSettings
from citetracer.llm.cache import ResponseCache, cache_key
from citetracer.llm.prompts import Prompt
from citetracer.records import AgentCall

T = TypeVar("T", bound=BaseModel)

MODES = ("json_schema", "json_object+schema", "json_object", "none")
#: Largest HTTP reply body read from the endpoint.
MAX_REPLY_BYTES = 2_000_000
#: Longest wait honoured from a Retry-After header, in seconds.
MAX_RETRY_AFTER = 20.0
_FORMAT_ERROR = re.compile(r"response_format|json_schema|json_object|schema|format", re.IGNORECASE)
Content = str | list[dict[str, Any]]


class LLMUnavailable(Exception):
    """The endpoint did not answer usefully (down, timed out, rate limited, rejected the request)."""


class InvalidReply(Exception):
    """The endpoint answered, but not with a valid reply (bad JSON, wrong schema, a refusal)."""


@dataclass
class Structured(Generic[T]):
    """A validated reply (or None) and the record of what getting it cost."""

    value: T | None
    call: AgentCall


@dataclass
class AgentTotals:
    uses: int = 0
    requests: int = 0
    tokens: int = 0
    cost: float = 0.0
    statuses: dict[str, int] = field(default_factory=dict)


def parse_reply(content: str, schema: type[T]) -> T:
    """The reply's JSON object validated against `schema` (code fences and chatter around it dropped)."""
    text = content.strip()
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise InvalidReply("the reply contains no JSON object")
    try:
        data = json.loads(text[start : end + 1])
    except json.JSONDecodeError as exc:
        raise InvalidReply(f"the reply is not valid JSON ({exc.msg} at {exc.pos})") from exc
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise InvalidReply(f"the reply does not match the schema ({where}: {first['msg']})") from exc


class LLMClient:
    def __init__(self, settings: LLMSettings) -> None:
        if not settings.enabled:
            raise ValueError("LLM agents need a base URL and a model")
        self.settings = settings
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        self.mode = 0
        cache_dir = settings.cache if settings.cache is not None else Path(user_cache_dir("citetracer")) / "llm"
        self.cache = ResponseCache(cache_dir) if str(cache_dir) not in ("", ".") else None
        self.totals: dict[str, AgentTotals] = {}
        self._semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )

    @classmethod
    def shared(cls, settings: LLMSettings) -> LLMClient:
        """One client per endpoint configuration in a process, so every agent shares its
        concurrency limit, its learned response_format mode and its totals."""
        key = settings.model_dump_json()
        client = _SHARED.get(key)
        if client is None:
            client = _SHARED[key] = cls(settings)
        return client

    @property
    def response_format_mode(self) -> str:
        """The structured-output mode the endpoint accepted (degraded from json_schema on refusal)."""
        return MODES[self.mode]

    def model_for(self, vision: bool) -> str:
        """The model to ask: the vision model for block images when one is set, else the text model."""
        return (self.settings.vision_model or self.settings.model) if vision else self.settings.model

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        sem = self._semaphores.get(loop)
        if sem is None:
            sem = self._semaphores[loop] = asyncio.Semaphore(max(1, self.settings.concurrency))
        return sem

    async def ask(
        self, agent: str, prompt: Prompt, schema: type[T], user: Content, vision: bool = False
    ) -> Structured[T]:
        """One structured question to the model: a validated reply, or None and why in the AgentCall."""
        model = self.model_for(vision)
        system = f"{prompt.text}\n{json.dumps(schema.model_json_schema(by_alias=True), separators=(',', ':'))}"
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        call = AgentCall(agent=agent, prompt=prompt.id, model=model, status="failed")
        key = cache_key(model, prompt.id, schema.__name__, messages)
        if self.cache is not None:
            cached = self.cache.get(key)
            if cached is not None:
                try:
                    value = parse_reply(cached, schema)
                except InvalidReply:
                    pass
                else:
                    call.status = "cached"
                    return self._done(Structured(value, call))
        convo = list(messages)
        error = ""
        for _ in range(2):  # the first try and one retry
            content: str | None = None
            try:
                content = await self._complete(model, convo, schema, call)
                value = parse_reply(content, schema)
            except LLMUnavailable as exc:
                call.status, call.detail = "failed", str(exc)[:300]
                return self._done(Structured(None, call))
            except InvalidReply as exc:
                error = str(exc)
                convo = [
                    *messages,
                    *([{"role": "assistant", "content": content[:2000]}] if content else []),
                    {
                        "role": "user",
                        "content": f"That reply was not valid: {error[:300]}. "
                        "Answer again with only the JSON object that matches the schema.",
                    },
                ]
                continue
            if self.cache is not None:
                self.cache.put(key, content, {"model": model, "prompt": prompt.id, "schema": schema.__name__})
            call.status = "ok"
            return self._done(Structured(value, call))
        call.status, call.detail = "invalid", f"no valid reply after a retry: {error}"[:300]
        return self._done(Structured(None, call))

    def _done(self, result: Structured[T]) -> Structured[T]:
        call = result.call
        t = self.totals.setdefault(call.agent, AgentTotals())
        t.uses += 1
        t.requests += call.attempts
        t.tokens += call.prompt_tokens + call.completion_tokens
        t.cost += call.cost
        t.statuses[call.status] = t.statuses.get(call.status, 0) + 1
        return result

    def _body(self, model: str, messages: list[dict[str, Any]], schema: type[BaseModel]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": model,
            "messages": messages,
            "temperature": 0,
            "max_tokens": self.settings.max_tokens,
        }
        mode = MODES[self.mode]
        if mode == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema(by_alias=True)},
            }
        elif mode == "json_object+schema":
            body["response_format"] = {"type": "json_object", "schema": schema.model_json_schema(by_alias=True)}
        elif mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        return body

    async def _complete(
        self, model: str, messages: list[dict[str, Any]], schema: type[BaseModel], call: AgentCall
    ) -> str:
        """The content of one chat completion, after transport retries and format degradation."""
        retries = 0
        while True:
            mode = self.mode
            try:
                async with self._semaphore():
                    call.attempts += 1
                    status, headers, text = await self._post(self._body(model, messages, schema))
            except httpx.HTTPError as exc:
                if retries >= self.settings.max_retries:
                    raise LLMUnavailable(f"{type(exc).__name__} after {retries + 1} attempts") from exc
                retries += 1
                await asyncio.sleep(min(MAX_RETRY_AFTER, 0.25 * 2**retries))
                continue
            if status == 200:
                return self._content(text, call)
            refused = (status in (400, 422, 501) and _FORMAT_ERROR.search(text[:2000])) or (
                status >= 500 and "response_format" in text[:2000]
            )
            if refused and MODES[mode] != "none":
                if self.mode == mode:
                    self.mode += 1  # this server does not take that response_format: use the next one
                continue
            if status in (408, 409, 429) or status >= 500:
                if retries >= self.settings.max_retries:
                    raise LLMUnavailable(f"HTTP {status} after {retries + 1} attempts")
                retries += 1
                await asyncio.sleep(_retry_after(headers.get("retry-after"), retries))
                continue
            raise LLMUnavailable(f"HTTP {status}: {_error_message(text)}")

    async def _post(self, body: dict[str, Any]) -> tuple[int, httpx.Headers, str]:
        headers = {"Content-Type": "application/json"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        timeout = httpx.Timeout(self.settings.timeout)
        async with (
            httpx.AsyncClient(timeout=timeout, trust_env=False) as http,
            http.stream("POST", self.url, json=body, headers=headers) as resp,
        ):
            chunks, size = [], 0
            async for chunk in resp.aiter_bytes():
                size += len(chunk)
                if size > MAX_REPLY_BYTES:
                    raise LLMUnavailable(f"reply larger than {MAX_REPLY_BYTES} bytes")
                chunks.append(chunk)
            return resp.status_code, resp.headers, b"".join(chunks).decode("utf-8", errors="replace")

    def _content(self, text: str, call: AgentCall) -> str:
        try:
            data = json.loads(text)
            message = data["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise InvalidReply("the endpoint's answer is not a chat completion") from exc
        usage = data.get("usage") if isinstance(data, dict) else None
        if isinstance(usage, dict):
            p, c = _int(usage.get("prompt_tokens")), _int(usage.get("completion_tokens"))
            call.prompt_tokens += p
            call.completion_tokens += c
            call.cost = round(
                call.cost + (p * self.settings.price_prompt + c * self.settings.price_completion) / 1e6, 8
            )
        if not isinstance(message, dict):
            raise InvalidReply("the endpoint's answer has no message")
        refusal = message.get("refusal")
        if refusal:
            raise InvalidReply(f"the model refused ({str(refusal)[:200]})")
        content = message.get("content")
        if not isinstance(content, str) or not content.strip():
            raise InvalidReply("the reply is empty")
        return content

    def ask_sync(
        self, agent: str, prompt: Prompt, schema: type[T], user: Content, vision: bool = False
    ) -> Structured[T]:
        """`ask` for synchronous callers (the extractor); not for use inside a running event loop."""
        return asyncio.run(self.ask(agent, prompt, schema, user, vision))


_SHARED: dict[str, LLMClient] = {}


def _int(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def _retry_after(value: str | None, attempt: int) -> float:
    try:
        return max(0.0, min(MAX_RETRY_AFTER, float(value))) if value is not None else min(8.0, 0.5 * 2**attempt)
    except ValueError:
        return min(8.0, 0.5 * 2**attempt)


def _error_message(text: str) -> str:
    try:
        data = json.loads(text)
        return str(data["error"]["message"])[:200]
    except (ValueError, KeyError, TypeError):
        return text[:200]
