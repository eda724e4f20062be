"""Online settings from the environment, the config file and CLI flags; the CLI end to end on the fake web."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citetracer.cli import main
from citetracer.config import load_settings
from tests.fakeweb.server import FakeWeb


def test_env_and_file_and_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        '[sources]\ncrossref = "http://mirror.example/crossref"\n'
        '[online]\ntimeout = 3.5\nrate_limits = {dblp = 1.0}\nkeys = {pubmed = "file-key"}\n'
    )
    monkeypatch.setenv("CITETRACER_SEMANTICSCHOLAR_KEY", "env-key")
    monkeypatch.setenv("CITETRACER_OPENALEX_URL", "http://proxy.example/openalex")
    monkeypatch.setenv("CITETRACER_HTTP_CACHE", "")
    s = load_settings(cfg, online={"connectors": ["dblp"], "http_cache": None}, mailto="me@example.org")
    assert s.sources["crossref"] == "http://mirror.example/crossref"
    assert s.sources["openalex"] == "http://proxy.example/openalex"
    assert s.online.timeout == 3.5 and s.online.rate_limits == {"dblp": 1.0}
    assert s.online.keys == {"pubmed": "file-key", "semanticscholar": "env-key"}
    assert s.online.connectors == ["dblp"] and s.online.http_cache == "" and s.mailto == "me@example.org"


@pytest.mark.usefixtures("cli_on_fake_web")
def test_cli_check_online_against_the_fake_web(web: FakeWeb, tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@inproceedings{seq, title={Sequence to Sequence Learning with Neural Networks}, "
        "author={Sutskever, Ilya and Vinyals, Oriol and Le, Quoc V.}, booktitle={NeurIPS}, year={2014}}\n"
        "@article{turing, title={Computing Machinery and Intelligence}, author={Turing, Alan M.}, journal={Mind}, "
        "year={1950}, doi={10.1093/mind/lix.236.433}}\n"
    )
    out = tmp_path / "report.json"
    code = main(
        [
            "check",
            str(bib),
            "--store",
            str(tmp_path / "s.sqlite"),
            "--no-http-cache",
            "--mailto",
            "cli@example.org",
            "--connectors",
            "openalex",
            "--format",
            "json",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    doc = json.loads(out.read_text())
    verdicts = {c["id"]: (c["verdict"]["class"], c["verdict"]["stage"]) for c in doc["citations"]}
    assert verdicts == {"seq": ("Real", "connectors"), "turing": ("Real", "url")}
    seq = next(c for c in doc["citations"] if c["id"] == "seq")
    asked = {o["source"]: o["status"] for o in seq["cost"]["sources"]}
    assert asked["openalex"] == "answered" and asked["crossref"] == "skipped"
    assert "mailto:cli@example.org" in web.last_headers["openalex"]["user-agent"]
