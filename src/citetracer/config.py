"""Settings, from one documented precedence: defaults < config file < environment < flags.

The config file is TOML, found at `--config PATH`, else `$CITETRACER_CONFIG`,
else `<user config dir>/citetracer/config.toml` when it exists. Environment
variables are `CITETRACER_<SETTING>` (e.g. CITETRACER_STORE, CITETRACER_OFFLINE,
CITETRACER_SEGMENTER, CITETRACER_CROSSREF_URL for a source's base URL).
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from datetime import date
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from platformdirs import user_config_dir, user_data_dir
from pydantic import BaseModel, Field, PlainSerializer, PlainValidator, ValidationError

from citetracer.sources import SOURCES

#: Default base URLs of the online sources (DESIGN.md, 'Contracts'), from the source registry.
DEFAULT_SOURCE_URLS: dict[str, str] = {s.name: s.base_url for s in SOURCES if s.base_url is not None}


#: URL schemes that name a PostgreSQL store (libpq's two spellings); anything else is a SQLite file.
PG_SCHEMES = ("postgresql://", "postgres://")


def is_store_url(location: object) -> bool:
    """Whether a `--store` value names a PostgreSQL server rather than a SQLite file."""
    return isinstance(location, str) and location.lower().startswith(PG_SCHEMES)


def _store_location(value: object) -> Path | str:
    """A store URL stays a string (a Path would fold its '//'); anything else is a file path."""
    if isinstance(value, Path) or is_store_url(value):
        return value  # type: ignore[return-value]
    if isinstance(value, str):
        return Path(value)
    raise ValueError("the store is a file path or a postgresql:// URL")


#: Where the store is: a SQLite file, or a `postgresql://USER@HOST:PORT/DB` URL (store/api.py).
StoreLocation = Annotated[Path | str, PlainValidator(_store_location), PlainSerializer(str, when_used="json")]


class OnlineSettings(BaseModel):
    """Limits of the online stages (collect/http/); every one overridable in `[online]` of the config file."""

    #: API keys per source (semanticscholar, pubmed, openalex, ...); env CITETRACER_<SOURCE>_KEY.
    keys: dict[str, str] = Field(default_factory=dict)
    #: Requests per second per source; unset sources use their polite rate (sources.py). 0 = unlimited.
    rate_limits: dict[str, float] = Field(default_factory=dict)
    #: Seconds one HTTP request may take, body included (defeats slow-drip replies).
    timeout: float = 8.0
    #: Seconds one stage may spend on one citation, retries and Retry-After waits included.
    deadline: float = 15.0
    #: Seconds a citation's online stage may wait for turns in our own polite queues (rate limits,
    #: connection caps). A request whose turn comes later is not sent and its source is reported
    #: "skipped (rate budget)" (never "not found"); None waits as long as politeness needs.
    rate_budget: float | None = 1.0
    retries: int = 2
    max_response_bytes: int = 5_000_000
    #: Polite rates shared by every process that uses the same store (store/turns.py): a scan's
    #: workers, a cluster's machines and the web app's workers together keep each source's rate.
    #: Off: each process keeps its own.
    shared_rates: bool = True
    #: Consecutive failures that open a source's circuit, and how long it stays open.
    breaker_failures: int = 5
    breaker_seconds: float = 30.0
    #: On-disk HTTP cache (SQLite); empty string disables it. Env CITETRACER_HTTP_CACHE.
    http_cache: str | None = None
    #: Days a cached reply stays fresh, per source ("*" for the rest).
    cache_days: dict[str, float] = Field(default_factory=lambda: {"*": 7.0, "doi": 30.0, "datacite": 30.0})
    #: Evidence memo in the store (collect/memo.py): each source's answer to each question, replayed
    #: instead of asking again while fresh; also used offline. Env CITETRACER_MEMO (on/off).
    memo: bool = True
    #: Days a memoized answer with records stays fresh, per source ("*" for the rest);
    #: env CITETRACER_MEMO_DAYS sets "*".
    memo_days: dict[str, float] = Field(default_factory=lambda: {"*": 30.0})
    #: Days a memoized "not found" stays fresh (new works get indexed); env CITETRACER_MEMO_EMPTY_DAYS sets "*".
    memo_empty_days: dict[str, float] = Field(default_factory=lambda: {"*": 7.0})
    #: Connectors to ask; empty = chosen per citation (see collect/choice.py).
    connectors: list[str] = Field(default_factory=list)
    #: Fetch landing pages of URLs found in papers or web results (through the SSRF guard).
    fetch_pages: bool = True
    #: Networks or hosts that untrusted URLs (found in papers) may reach although private (e.g. an intranet).
    allow_private: list[str] = Field(default_factory=list)


class ConfigError(Exception):
    """The configuration file or an environment variable is invalid."""


class LLMSettings(BaseModel):
    """An OpenAI-compatible chat-completions endpoint for the optional agents (off when base_url is empty).

    Config file table `[llm]`; environment `CITETRACER_LLM_BASE_URL`, `_MODEL`, `_VISION_MODEL`,
    `_API_KEY`, `_TIMEOUT`, `_MAX_RETRIES`, `_CONCURRENCY`, `_CACHE`; flags `--llm URL`,
    `--llm-model`, `--llm-vision-model`, `--no-llm`. The key is never taken from a flag
    (command lines are visible to other users of the machine).
    """

    base_url: str = ""
    model: str = ""
    #: Model for the Parser Agent when it is given the block's image (defaults to `model`).
    vision_model: str = ""
    api_key: str = Field(default="", repr=False)
    #: Seconds per HTTP request.
    timeout: float = 60.0
    #: Extra attempts after a timeout, 429 or 5xx.
    max_retries: int = 2
    #: Requests in flight at once.
    concurrency: int = 4
    #: Longest reply, in tokens (a reply cut short is invalid and retried once).
    max_tokens: int = 1024
    #: Directory of the on-disk response cache (None: the user cache dir; "" disables it).
    cache: Path | None = None
    #: Prices in currency units per million prompt / completion tokens, for the cost report.
    price_prompt: float = 0.0
    price_completion: float = 0.0

    @property
    def enabled(self) -> bool:
        """Whether agents are on: an endpoint and a model are both configured."""
        return bool(self.base_url and self.model)


#: Which segmenter cuts a PDF's bibliography into references (extract/readers/pdf.py): "auto" (the learned one
#: unless its reading fails the plausibility checks that the rules' reading passes), "rules-first" (the rules'
#: reading unless it fails them and the learned one passes), "model" (always the learned one), "rules" (the
#: hand-written one alone).
Segmenter = Literal["auto", "rules-first", "model", "rules"]
SEGMENTERS: tuple[str, ...] = get_args(Segmenter)


class Settings(BaseModel):
    store: StoreLocation = Field(default_factory=lambda: Path(user_data_dir("citetracer")) / "store.sqlite")
    offline: bool = False
    #: Year taken as "now" for future-date checks (defaults to today's).
    today_year: int = Field(default_factory=lambda: date.today().year)
    #: Citations checked at once. Online, more than the fast services can serve (OpenAlex and
    #: Crossref: 10 requests/s) only moves the waiting into each citation: 8 keeps the
    #: per-citation time low at the same wall time (bench/cascade.py run 3).
    concurrency: int = 8
    sources: dict[str, str] = Field(default_factory=lambda: dict(DEFAULT_SOURCE_URLS))
    #: Where `mirror setup` fetches each mirror's dump, by mirror name (dblp, arxiv, openalex), over the
    #: defaults of data/mirror_setup.toml: config table `[mirrors]`, env CITETRACER_MIRROR_<NAME>_URL
    #: (a local copy, a team's cache, or a test's loopback server).
    mirrors: dict[str, str] = Field(default_factory=dict)
    #: Contact e-mail sent in the User-Agent to services that ask for one.
    mailto: str | None = None
    #: Treat the local store as complete ("closed world"): a citation absent from it is
    #: fabricated (H1) rather than unverified (P1). For curated stores that hold every work
    #: the checked papers may cite; by default absence counts only in venues the store covers.
    closed_world: bool = False
    #: Write citations judged Real back to the store as verified links.
    remember_verified: bool = True
    #: Never write to the store during a check: no verified links, no evidence memo, no records
    #: learned from online answers (a shared team store, a read-only mirror). The store is opened
    #: read-only, so a write attempt fails loudly instead of landing. Env CITETRACER_READ_ONLY.
    read_only: bool = False
    #: The PDF segmenter (`Segmenter`): config `segmenter`, env CITETRACER_SEGMENTER, flag --segmenter.
    segmenter: Segmenter = "auto"
    online: OnlineSettings = Field(default_factory=OnlineSettings)
    #: Optional LLM agents; the deterministic path never depends on them.
    llm: LLMSettings = Field(default_factory=LLMSettings)
    extra: dict[str, Any] = Field(default_factory=dict)


_BOOL = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}


def _config_path(explicit: Path | None) -> Path | None:
    if explicit is not None:
        return explicit
    env = os.environ.get("CITETRACER_CONFIG")
    if env:
        return Path(env)
    default = Path(user_config_dir("citetracer")) / "config.toml"
    return default if default.exists() else None


def _check_flag_names(flags: dict[str, Any]) -> None:
    """TypeError for a flag that names no setting, as Python does for an unknown keyword argument.

    `citetracer.check("refs.bib", ofline=True)` once ran online on the default store: a
    misspelt option must stop the call, not be dropped, since it may be what keeps a
    manuscript's bibliography off the network.
    """
    unknown = sorted(set(flags) - set(Settings.model_fields))
    if not unknown:
        return
    hints = []
    for name in unknown:
        close = difflib.get_close_matches(name, list(Settings.model_fields), n=1)
        hints.append(f"{name!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    raise TypeError(f"unknown option {', '.join(hints)}; options are {', '.join(sorted(Settings.model_fields))}")


def load_settings(config: Path | None = None, **flags: Any) -> Settings:
    """Settings after applying file, environment and flags (None flags are ignored).

    Raises TypeError for a flag that names no setting, ConfigError for an invalid value."""
    _check_flag_names(flags)
    data: dict[str, Any] = {}
    path = _config_path(config)
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"config file {path}: {exc}") from exc
    sources = dict(DEFAULT_SOURCE_URLS)
    sources.update({k.lower(): str(v) for k, v in (data.pop("sources", {}) or {}).items()})
    env = os.environ
    data = dict(data)
    if "CITETRACER_STORE" in env:
        data["store"] = env["CITETRACER_STORE"]
    if "CITETRACER_OFFLINE" in env:
        value = env["CITETRACER_OFFLINE"].strip().lower()
        if value not in _BOOL:
            raise ConfigError(f"CITETRACER_OFFLINE={env['CITETRACER_OFFLINE']!r} is not a boolean")
        data["offline"] = _BOOL[value]
    if "CITETRACER_CLOSED_WORLD" in env:
        value = env["CITETRACER_CLOSED_WORLD"].strip().lower()
        if value not in _BOOL:
            raise ConfigError(f"CITETRACER_CLOSED_WORLD={env['CITETRACER_CLOSED_WORLD']!r} is not a boolean")
        data["closed_world"] = _BOOL[value]
    if "CITETRACER_READ_ONLY" in env:
        value = env["CITETRACER_READ_ONLY"].strip().lower()
        if value not in _BOOL:
            raise ConfigError(f"CITETRACER_READ_ONLY={env['CITETRACER_READ_ONLY']!r} is not a boolean")
        data["read_only"] = _BOOL[value]
    if "CITETRACER_SEGMENTER" in env:
        value = env["CITETRACER_SEGMENTER"].strip().lower()
        if value not in SEGMENTERS:
            raise ConfigError(
                f"CITETRACER_SEGMENTER={env['CITETRACER_SEGMENTER']!r} is not one of {', '.join(SEGMENTERS)}"
            )
        data["segmenter"] = value
    if "CITETRACER_MAILTO" in env:
        data["mailto"] = env["CITETRACER_MAILTO"]
    for name in DEFAULT_SOURCE_URLS:
        url = env.get(f"CITETRACER_{name.upper()}_URL")
        if url is not None:
            sources[name] = url
    data["sources"] = sources
    mirrors = {k.lower(): str(v) for k, v in (data.pop("mirrors", {}) or {}).items()}
    for env_name, url in env.items():
        m = re.fullmatch(r"CITETRACER_MIRROR_([A-Z0-9]+)_URL", env_name)
        if m:
            mirrors[m.group(1).lower()] = url
    data["mirrors"] = mirrors
    online = dict(data.get("online") or {})
    keys = {k.lower(): str(v) for k, v in (online.get("keys") or {}).items()}
    for name in DEFAULT_SOURCE_URLS:
        key = env.get(f"CITETRACER_{name.upper()}_KEY")
        if key:
            keys[name] = key
    online["keys"] = keys
    if "CITETRACER_HTTP_CACHE" in env:
        online["http_cache"] = env["CITETRACER_HTTP_CACHE"]
    if "CITETRACER_MEMO" in env:
        value = env["CITETRACER_MEMO"].strip().lower()
        if value not in _BOOL:
            raise ConfigError(f"CITETRACER_MEMO={env['CITETRACER_MEMO']!r} is not a boolean")
        online["memo"] = _BOOL[value]
    for name, key in (("CITETRACER_MEMO_DAYS", "memo_days"), ("CITETRACER_MEMO_EMPTY_DAYS", "memo_empty_days")):
        if name in env:
            try:
                days = float(env[name])
            except ValueError as exc:
                raise ConfigError(f"{name}={env[name]!r} is not a number of days") from exc
            online[key] = {**dict(online.get(key) or {}), "*": days}
    online.update({k: v for k, v in (flags.pop("online", None) or {}).items() if v is not None})
    data["online"] = online
    llm = dict(data.get("llm") or {})
    for key in LLMSettings.model_fields:
        env_value = env.get(f"CITETRACER_LLM_{key.upper()}")
        if env_value is not None:
            llm[key] = env_value
    llm.update({k: v for k, v in (flags.pop("llm", None) or {}).items() if v is not None})
    data["llm"] = llm
    data.update({k: v for k, v in flags.items() if v is not None})
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"invalid settings: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}") from exc
