"""The online stages (URL Fetch, Scholar Connectors in two tiers, Web Search), sharing one HTTP client per run.

`pipeline.Checker` calls `online_stages(settings, memo=...)` with its evidence memo;
offline (a memo with network=False, and only when the store holds memos) the stages
only replay it: no HTTP cache is opened, collect/consult.py never calls a source and
the arXiv prefetch does nothing. The stages hold
the shared client, which the pipeline closes after each run (`aclose`)
and whose cache it closes with the checker (`close`); closing twice is harmless.
"""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_cache_dir

from citetracer.collect.http import HttpClient
from citetracer.collect.memo import EvidenceMemo
from citetracer.collect.scholar import ScholarStage
from citetracer.collect.stage import Stage
from citetracer.collect.urlfetch import UrlFetchStage
from citetracer.collect.venuecheck import VenueStage
from citetracer.collect.websearch import WebSearchStage
from citetracer.config import Settings
from citetracer.normalize.venue_kb import VenueKB


def default_cache() -> str:
    """The HTTP cache file in the user's cache directory."""
    return str(Path(user_cache_dir("citetracer")) / "http.sqlite")


def online_stages(
    settings: Settings,
    http: HttpClient | None = None,
    memo: EvidenceMemo | None = None,
    venue_kb: VenueKB | None = None,
) -> list[Stage]:
    """The online stages; with an offline `memo` (network=False) they only replay it (no HTTP cache opened)."""
    if http is None:
        online = settings.online
        if memo is not None and not memo.network:
            online = online.model_copy(update={"http_cache": ""})
        elif online.http_cache is None:
            online = online.model_copy(update={"http_cache": default_cache()})
        turns = None
        if settings.online.shared_rates and memo is not None and memo.network and not settings.read_only:
            turns = memo.store.rate_turns()  # the polite rates are the whole fleet's (store/turns.py)
        http = HttpClient(online, settings.mailto, turns)
    url_stage = UrlFetchStage(settings, http)
    url_stage.memo = memo
    if settings.llm.enabled:
        from citetracer.collect.web_agent import WebAgent
        from citetracer.llm.client import LLMClient

        url_stage.page_reader = WebAgent(LLMClient.shared(settings.llm)).read_page
    stages: list[Stage] = [url_stage, ScholarStage(settings, http), ScholarStage(settings, http, broad=False)]
    if venue_kb is not None:
        stages.append(VenueStage(settings, http, venue_kb))
    if settings.sources.get("searxng"):
        stages.append(WebSearchStage(settings, http, url_stage))
    return stages
