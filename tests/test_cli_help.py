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


#: Modules of the checker and the readers, which `mirror` neither runs nor needs.
CHECKING = ("citetracer.pipeline", "citetracer.cascade", "citetracer.judge", "citetracer.match", "citetracer.extract")


def test_mirror_starts_without_the_checker(tmp_path: Path) -> None:
    """`mirror dblp` (its help, and the ingest path it imports) loads no checker, reader or HTTP module."""
    code = (
        "import sys\n"
        "from citetracer.cli import main\n"
        "try:\n    main(['mirror', 'dblp', '--help'])\nexcept SystemExit:\n    pass\n"
        "import citetracer.cli.ingest\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    loaded = run.stdout.split()
    assert "citetracer.mirror.dblp" not in loaded  # ingest imports its ingesters when one runs
    assert [m for m in loaded if m.startswith(CHECKING) or m == "httpx"] == []


def test_a_command_parses_alike_alone_and_among_all() -> None:
    """The parser built for the command a line names reads that line as the whole parser does."""
    for argv in (
        ["mirror", "dblp", "d.xml.gz", "--dtd", "x.dtd", "--store", "s.sqlite"],
        ["check", "x.bib", "--offline", "--show", "flagged"],
        ["review", "out"],
    ):
        assert _parser(argv[0]).parse_args(argv) == _parser().parse_args(argv)


def test_the_api_names_resolve_from_the_package() -> None:
    """`citetracer.Checker` and the other API names load on first use and are the modules' own."""
    import citetracer
    from citetracer.pipeline import Checker, check

    assert citetracer.Checker is Checker and citetracer.check is check
    assert set(citetracer.__all__) <= set(dir(citetracer))
    with pytest.raises(AttributeError):
        _ = citetracer.no_such_name  # type: ignore[attr-defined]
