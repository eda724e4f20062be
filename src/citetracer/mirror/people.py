"""Author names as mirrors write them ("Given Family"), read into a Person's fields fast.

DBLP's author strings and OpenAlex's display names put the given names first, particles
lower-case ("Ludwig van Beethoven"). A dump holds millions of them, and the general
reader (`normalize.names.parse_person`: LaTeX, commas, "Family, Given" order) costs
tens of microseconds each; a plain name takes a fast path that gives what it gives.
"""

from __future__ import annotations

import re

from citetracer.normalize.names import parse_person

#: A name with nothing for `parse_person` to read (no LaTeX, no comma): the fast path.
PLAIN_NAME = re.compile(r"^[^{}\\,$~]+$")


def person_fields(name: str) -> dict[str, str] | None:
    """A "Given Family" name as a Person's JSON fields (`given` only when there is one); None for no name.

    Plain names take the fast path; anything with LaTeX-looking characters or commas goes
    through `parse_person` itself.
    """
    name = name.strip()
    if not name:
        return None
    if PLAIN_NAME.match(name):
        words = name.split()
        if len(words) == 1:
            return {"family": words[0]}
        von = next((i for i, w in enumerate(words[:-1]) if i > 0 and w[0].islower()), None)
        cut = von if von is not None else len(words) - 1
        return {"given": " ".join(words[:cut]), "family": " ".join(words[cut:])}
    parsed = parse_person(name)
    if parsed is None:
        return None
    return parsed.model_dump(exclude_none=True)
