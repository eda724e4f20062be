"""LLM settings: config file table, environment and flags, with the usual precedence."""

from __future__ import annotations

from pathlib import Path

import pytest

from citetracer.config import ConfigError, load_settings


def test_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BASE_URL", "MODEL"):
        monkeypatch.delenv(f"CITETRACER_LLM_{name}", raising=False)
    assert not load_settings(Path("/dev/null")).llm.enabled
    assert not load_settings(Path("/dev/null"), llm={"base_url": "http://x/v1"}).llm.enabled  # no model


def test_file_then_environment_then_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "c.toml"
    config.write_text(
        '[llm]\nbase_url = "http://file/v1"\nmodel = "file-model"\napi_key = "sk-file"\n'
        "concurrency = 3\nprice_prompt = 0.5\n",
        encoding="utf-8",
    )
    s = load_settings(config)
    assert (s.llm.base_url, s.llm.model, s.llm.concurrency) == ("http://file/v1", "file-model", 3)
    assert s.llm.price_prompt == 0.5
    assert s.llm.enabled and "sk-file" not in repr(s)
    monkeypatch.setenv("CITETRACER_LLM_MODEL", "env-model")
    monkeypatch.setenv("CITETRACER_LLM_TIMEOUT", "7.5")
    s = load_settings(config)
    assert (s.llm.model, s.llm.timeout, s.llm.api_key) == ("env-model", 7.5, "sk-file")
    s = load_settings(config, llm={"model": "flag-model", "base_url": None})
    assert (s.llm.model, s.llm.base_url) == ("flag-model", "http://file/v1")
    assert not load_settings(config, llm={"base_url": ""}).llm.enabled  # --no-llm


def test_bad_value_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITETRACER_LLM_CONCURRENCY", "many")
    with pytest.raises(ConfigError, match="concurrency"):
        load_settings(Path("/dev/null"))
