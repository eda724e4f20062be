"""The LLM service: one OpenAI-compatible client that the stages' agents call.

Off by default: nothing here runs unless `Settings.llm` names an endpoint and a
model, and the deterministic path never imports it. It knows no stage; each agent
lives in the stage it serves and holds the model to that stage's rules:

- here: `client.LLMClient` (one endpoint, structured replies, retries, degrade of
  `response_format`, concurrency limit, token and cost accounting), the response
  `cache`, the reply `schemas`, versioned `prompts/` (`name@vN` is part of the
  cache key and the report) and `untrusted` (how untrusted text enters a prompt);
- `extract/agent/parser_agent.py`: the Parser Agent repairs extracted records;
- `collect/web_agent.py`: the Web Agent reads records from web pages;
- `match/agent.py`: the Matcher Agent labels the rules' residual differences;
- `judge/agents.py`: the three class-specialist judgers; `judge/agent_review.py`:
  the hook the cascade calls, reviewing only what the rules could not settle
  (`rules_unresolved`); `judge/agent_guardrails.py`: what a judger's verdict must
  show before it is accepted.
"""
