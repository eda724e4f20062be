"""Versioned prompt files: `<name>.txt` whose first line is `version: N`.

Changing a prompt's wording means raising its version: the version is part of
the response-cache key (old answers are not reused for a new prompt) and is
written into every AgentCall of the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class Prompt:
    name: str
    version: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.name}@v{self.version}"


@cache
def load_prompt(name: str) -> Prompt:
    """The prompt `name` followed by the shared rules (`_common`), which end where the schema goes."""
    common = _read("_common")
    own = _read(name)
    return Prompt(name=name, version=f"{own.version}.{common.version}", text=f"{own.text}\n\n{common.text}")


def _read(name: str) -> Prompt:
    raw = resources.files(__package__).joinpath(f"{name}.txt").read_text(encoding="utf-8")
    head, _, body = raw.partition("\n")
    if not head.startswith("version:"):
        raise ValueError(f"prompt {name}.txt must start with 'version: N'")
    return Prompt(name=name, version=head.split(":", 1)[1].strip(), text=body.strip())
