"""The README's first screen: exactly the two commands, then how to check one's own PDF, which the demo
makes possible by installing the pdf extra (issue 29: the extra was on line 472 of 536)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_opens_with_the_two_commands_and_says_how_to_check_a_pdf() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```bash\n(.*?)```", text, re.S)
    assert first is not None
    commands = [line.split("#")[0].strip() for line in first.group(1).splitlines()]
    assert commands == ["bash scripts/demo.sh", "bash scripts/test.sh"]
    screen = "\n".join(text.splitlines()[:40])
    assert "pip install 'citetracer[pdf]'" in screen and "check path/to/paper.pdf" in screen


def test_the_demo_installs_the_pdf_extra() -> None:
    demo = (ROOT / "scripts" / "demo.sh").read_text(encoding="utf-8")
    installs = [line for line in demo.splitlines() if "pip install" in line and not line.lstrip().startswith("#")]
    assert installs and all('".[pdf]"' in line for line in installs)


def test_the_readme_names_the_codes_as_the_reports_legend_does() -> None:
    """Every report prints views.LEGEND; the README's paragraph on it and its taxonomy table must say the same
    (issue 46 widened H4 to publication details: a legend left at 'venue or year' would be untrue)."""
    from citetracer.report.views import LEGEND
    from citetracer.taxonomy import CODES

    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    paragraph = text[text.index("Every report says what its letters mean") :]
    paragraph = paragraph[: paragraph.index("`--show flagged`")]
    h_codes = re.search(r"\(H1 .*\)$", LEGEND)
    assert h_codes is not None
    for code, words in re.findall(r"(H\d) ([^,)]+)", h_codes.group(0)):
        assert f"**{code}** {words}" in paragraph, code
    for code, c in CODES.items():  # one row per code, in its class
        assert re.search(rf"\| {code} \| {c.verdict_class} \| [^|]+ \|", text), code
    h4 = re.search(r"\| H4 \| Hallucinated \| ([^|]+) \|", text)
    assert h4 is not None and h4.group(1).startswith(CODES["H4"].name + ":")
    for detail in ("pages", "volume", "issue", "publisher", "location"):
        assert detail in h4.group(1) and detail in CODES["H4"].meaning


def test_ci_runs_the_readmes_test_command_as_written() -> None:
    """CI (.ci/run) runs README's second command, the very line, from the repository root: if one of them
    changes without the other, CI would no longer test what a user runs."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```bash\n(.*?)```", text, re.S)
    assert first is not None
    test_line = first.group(1).splitlines()[1].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [line.strip() for line in ci if line.strip() and not line.lstrip().startswith("#")]
    assert commands == ["set -euo pipefail", 'cd "$(dirname "$0")/.."', test_line]
