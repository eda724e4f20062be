"""`--help` explains every argument and the exit codes; `python -m citetracer` is the same program."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from citetracer.cli import _parser, main


def subparsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    out = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out.extend(subparsers(sub))
    return out


def test_every_argument_has_a_help_text() -> None:
    missing = [
        f"{p.prog}: {'/'.join(a.option_strings) or a.dest}"
        for p in subparsers(_parser())
        for a in p._actions
        if not isinstance(a, argparse._SubParsersAction) and not a.help
    ]
    assert missing == []


@pytest.mark.parametrize("command", [[], ["check"], ["scan"]])
def test_help_states_the_exit_codes(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*command, "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "exit codes:" in text and "1  at least one citation is Hallucinated" in text


def test_python_m_citetracer_is_the_same_program(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    ours = capsys.readouterr().out
    run = subprocess.run([sys.executable, "-m", "citetracer", "--version"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout == ours
    env = {**os.environ, "CITETRACER_STORE": str(tmp_path / "store.sqlite")}
    bad = subprocess.run(
        [sys.executable, "-m", "citetracer", "check", "/no/such.bib", "--offline"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert bad.returncode == 2 and "no such file" in bad.stderr
