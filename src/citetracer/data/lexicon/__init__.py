"""Word classes that cue a field in every citation style, one file per class, each with its provenance.

Both the rules (extract/fields/parser.py, extract/fields/authors.py, judge/codes.py) and the CRF's
features (extract/fields/crf.py) read these files, so a word list lives in one place and
a class the model weighs is the class the rules test. Each file holds one word a
line, lower case, after a `#` header that says where the words come from and who
reads them.
"""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def words(name: str) -> frozenset[str]:
    """The words of `name`.txt in this folder, lower-cased."""
    text = resources.files(__package__).joinpath(f"{name}.txt").read_text(encoding="utf-8")
    return frozenset(
        line.strip().lower() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    )
