"""Optional LLM agents over any OpenAI-compatible chat-completions endpoint.

Off by default: nothing here runs unless `Settings.llm` names an endpoint and a
model, and the deterministic path never imports this package. When on, agents
only review what the rules could not settle (`router.rules_unresolved`), and
`guardrails` hold whatever the model says.

- `client.LLMClient`: one endpoint, structured replies, retries, degrade of
  `response_format`, concurrency limit, token and cost accounting, response cache.
- `prompts/`: versioned prompt files; `name@vN` is part of the cache key and the report.
- `matcher_agent`, `judgers`, `router`: the Matcher Agent, the three class-specialist
  judgers and the hook the cascade calls.
- `parser_agent`, `web_agent`: repair of extracted records, records from web pages.
"""
