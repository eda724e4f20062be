"""The pre-commit hooks run what they say: `citetracer check` on changed .bib files, offline by default."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def hooks() -> dict[str, dict]:
    return {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}


def run_hook(hook: dict, files: list[Path], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """As pre-commit runs it: the entry, the hook's args, then the changed files that match `files`."""
    argv = shlex.split(hook["entry"]) + list(hook.get("args", []))
    matching = [str(f) for f in files if re.search(hook["files"], str(f))]
    assert argv[0] == "citetracer"
    return subprocess.run(
        [sys.executable, "-m", "citetracer", *argv[1:], *matching], capture_output=True, text=True, timeout=120, env=env
    )


def test_the_default_hook_is_offline_and_only_for_bib_files() -> None:
    h = hooks()
    assert set(h) == {"citetracer", "citetracer-online"}
    assert "--offline" in shlex.split(h["citetracer"]["entry"])
    assert "--offline" not in shlex.split(h["citetracer-online"]["entry"])
    for hook in h.values():
        assert hook["language"] == "python" and hook["pass_filenames"] is True
        assert re.search(hook["files"], "paper/refs.bib") and not re.search(hook["files"], "paper/main.tex")


def test_the_hook_fails_a_commit_with_hallucinated_citations(tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    env = {**os.environ, "CITETRACER_STORE": str(store)}
    seed = subprocess.run(
        [sys.executable, "-m", "citetracer", "mirror", "add", str(EXAMPLES / "records.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert seed.returncode == 0, seed.stderr
    good = tmp_path / "good.bib"
    good.write_text(
        "@article{ok, title={Long Short-Term Memory}, author={Hochreiter, Sepp and Schmidhuber, "
        'J{\\"u}rgen}, journal={Neural Computation}, year=1997}\n'
    )
    hook = hooks()["citetracer"]
    passed = run_hook(hook, [good, tmp_path / "notes.md"], env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    failed = run_hook(hook, [good, EXAMPLES / "references.bib"], env)
    assert failed.returncode == 1 and "Hallucinated" in failed.stdout
