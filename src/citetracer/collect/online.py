"""The online stages (URL Fetch, Scholar Connectors in two tiers, Web Search), sharing one HTTP client per run.

`pipeline.Checker` calls `online_stages(settings)` unless offline; the stages
hold the shared client, which the pipeline closes after each run (`aclose`)
and whose cache it closes with the checker (`close`); closing twice is harmless.
"""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_cache_dir

from citetracer.collect.http import HttpClient
from citetracer.collect.scholar import ScholarStage
from citetracer.collect.stage import Stage
from citetracer.collect.urlfetch import UrlFetchStage
from citetracer.collect.websearch import WebSearchStage
from citetracer.config import Settings


def default_cache() -> str:
    return str(Path(user_cache_dir("citetracer")) / "http.sqlite")


def online_stages(settings: Settings, http: HttpClient | None = None) -> list[Stage]:
    if http is None:
        online = settings.online
        if online.http_cache is None:
            online = online.model_copy(update={"http_cache": default_cache()})
        http = HttpClient(online, settings.mailto)
    url_stage = UrlFetchStage(settings, http)
    if settings.llm.enabled:
        from citetracer.agents.client import LLMClient
        from citetracer.agents.web_agent import WebAgent

        url_stage.page_reader = WebAgent(LLMClient.shared(settings.llm)).read_page
    stages: list[Stage] = [url_stage, ScholarStage(settings, http), ScholarStage(settings, http, broad=False)]
    if settings.sources.get("searxng"):
        stages.append(WebSearchStage(settings, http, url_stage))
    return stages
