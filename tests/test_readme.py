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
