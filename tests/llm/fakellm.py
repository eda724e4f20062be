"""A fake OpenAI-compatible chat-completions server on 127.0.0.1 with scripted replies.

Real HTTP on a loopback port, answering `POST /v1/chat/completions` in the
shapes OpenAI documents (chat.completion objects with `usage`, error objects
`{"error": {"message", "type", "param", "code"}}`, 429 with Retry-After).
Three kinds of server, by what `response_format` they take: `json_schema`
(OpenAI, vLLM), `json_object` only (older llama.cpp servers: a json_schema
request is a 400) or `none` (any response_format is a 400).

Replies come from `script` (a queue of actions, consumed one per request that
passes the format check) and, when it is empty, from `policy(body)`.
`echo_rules_policy` is a model that agrees with the rules: the bench uses it
to measure how often agents are called without changing any verdict.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from citetracer.llm.untrusted import unquote


@dataclass
class Reply:
    content: str | None
    refusal: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int = 20


@dataclass
class Status:
    code: int
    message: str = "error"
    retry_after: str | None = None


@dataclass
class Sleep:
    """Wait before answering (longer than the client's timeout: a timeout)."""

    seconds: float
    then: Reply | Status | None = None


Action = Reply | Status | Sleep


def reply_json(obj: Any, **kw: Any) -> Reply:
    return Reply(json.dumps(obj), **kw)


class FakeLLM:
    def __init__(
        self,
        accepts: str = "json_schema",
        policy: Callable[[dict[str, Any]], Action] | None = None,
        reject_status: int = 400,
        extra_keys: bool = True,
    ) -> None:
        assert accepts in ("json_schema", "json_object", "none")
        self.accepts = accepts
        #: Status of a refused response_format: 400 (OpenAI, vLLM) or 500 (llama-cpp-python's server).
        self.reject_status = reject_status
        #: Whether json_object may carry a schema (llama.cpp) or must be bare (strict servers).
        self.extra_keys = extra_keys
        self.policy = policy
        self.script: deque[Action] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def add(self, *actions: Action) -> FakeLLM:
        self.script.extend(actions)
        return self

    def _next(self, body: dict[str, Any]) -> Action:
        with self._lock:
            if self.script:
                return self.script.popleft()
        if self.policy is not None:
            return self.policy(body)
        return Status(500, "the fake has no reply scripted for this request")

    def _format_error(self, body: dict[str, Any]) -> str | None:
        fmt = (body.get("response_format") or {}).get("type")
        if fmt is None or self.accepts == "json_schema":
            return None
        if self.accepts == "json_object" and fmt == "json_object":
            if "schema" in body["response_format"] and not self.extra_keys:
                return "response_format: extra inputs are not permitted (schema)"
            return None
        return f"response_format type '{fmt}' is not supported by this server"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _send(self, code: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout)

            def _error(self, code: int, message: str, headers: dict[str, str] | None = None) -> None:
                kind = "invalid_request_error" if code < 500 else "server_error"
                kind = "rate_limit_exceeded" if code == 429 else kind
                self._send(code, {"error": {"message": message, "type": kind, "param": None, "code": None}}, headers)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._error(404, f"unknown path {self.path}")
                    return
                with fake._lock:
                    fake.requests.append(body)
                    fake.headers.append(dict(self.headers))
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                try:
                    problem = fake._format_error(body)
                    if problem:
                        self._error(fake.reject_status, problem)
                        return
                    self._act(fake._next(body), body)
                finally:
                    with fake._lock:
                        fake.in_flight -= 1

            def _act(self, action: Action | None, body: dict[str, Any]) -> None:
                if isinstance(action, Sleep):
                    time.sleep(action.seconds)
                    self._act(action.then, body)
                elif isinstance(action, Status):
                    headers = {"Retry-After": action.retry_after} if action.retry_after is not None else None
                    self._error(action.code, action.message, headers)
                elif isinstance(action, Reply):
                    prompt_chars = sum(len(json.dumps(m.get("content"))) for m in body.get("messages", []))
                    pt = action.prompt_tokens if action.prompt_tokens is not None else prompt_chars // 4
                    message = {"role": "assistant", "content": action.content, "refusal": action.refusal}
                    self._send(
                        200,
                        {
                            "id": f"chatcmpl-fake{len(fake.requests)}",
                            "object": "chat.completion",
                            "created": int(time.time()),
                            "model": body.get("model"),
                            "choices": [{"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}],
                            "usage": {
                                "prompt_tokens": pt,
                                "completion_tokens": action.completion_tokens,
                                "total_tokens": pt + action.completion_tokens,
                            },
                        },
                    )

        return Handler


def system_text(body: dict[str, Any]) -> str:
    return str(body["messages"][0]["content"])


def user_text(body: dict[str, Any]) -> str:
    content = body["messages"][1]["content"]
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content)


def echo_rules_policy(body: dict[str, Any]) -> Action:
    """A model that agrees with the rules: the matcher repeats the rules' residuals for the best
    candidate, a judger repeats the rules' verdict when its class is one it may return."""
    system = system_text(body)
    case = unquote("case", user_text(body)) or {}
    candidates = case.get("candidates") or []
    rules = case.get("rules_verdict") or {}
    if "Role: Matcher Agent" in system:
        labels = []
        if candidates:
            best = candidates[0]
            for name, status in (best.get("rules") or {}).items():
                if status == "mismatch":
                    labels.append({"field": name, "label": "contradiction", "candidate_ids": [best["id"]]})
                elif status == "missing":
                    labels.append({"field": name, "label": "candidate_missing", "candidate_ids": [best["id"]]})
        return reply_json({"fields": labels})
    allowed = {
        "Role: Valid judger": ("Real", "Potential"),
        "Role: Potential judger": ("Potential",),
        "Role: Hallucinated judger": ("Hallucinated", "Potential"),
    }
    classes = next((v for k, v in allowed.items() if k in system), ("Potential",))
    code = str(rules.get("code") or "P1")
    cls = {"R": "Real", "P": "Potential", "H": "Hallucinated"}[code[0]]
    support = [candidates[0]["id"]] if candidates and code not in ("H1", "P1", "P2") else []
    if cls not in classes:
        cls, code = "Potential", "P3" if candidates else "P1"
        support = [candidates[0]["id"]] if candidates else []
    return reply_json(
        {
            "class": cls,
            "code": code,
            "codes": [c for c in rules.get("codes") or [] if c[0] == code[0]],
            "offending_fields": rules.get("fields") or [],
            "supporting_candidate_ids": support,
            "rationale": "Agrees with the rule matcher's finding.",
        }
    )
