"""The command line's parser: argparse that suggests the nearest command, option or choice on a typo.

`citetracer chek` said "invalid choice: 'chek' (choose from ...)" and `--ofline` only "unrecognized
arguments: --ofline", leaving the user to spot the difference (the Python API already suggests the
flag it is closest to). argparse knows the words it would accept; this subclass names the nearest.
"""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Sequence
from typing import NoReturn

#: How close a word must be to be suggested (difflib's ratio).
CUTOFF = 0.6
_INVALID = re.compile(r"invalid choice: '?(?P<given>[^']*)'? \(choose from (?P<choices>.*)\)")


def nearest(word: str, candidates: Sequence[str]) -> str | None:
    """The candidate closest to `word`, when one is close enough to be what was meant."""
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=CUTOFF)
    return found[0] if found else None


class SuggestingParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors add "did you mean ...?" (its subcommands' parsers are of this class too:
    argparse makes them of their parent's class)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        # A leaf command (no subcommands) knows its options: an unknown one is said here, with the nearest of
        # them, not by the top parser, which knows only --version.
        if extras and self._subparsers is None:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        hint = self._suggestion(message)
        super().error(message + (f"; did you mean {hint}?" if hint else ""))

    def _suggestion(self, message: str) -> str | None:
        invalid = _INVALID.search(message)
        if invalid:
            choices = [c.strip().strip("'") for c in invalid["choices"].split(",")]
            found = nearest(invalid["given"], choices)
            return f"'{found}'" if found else None
        if message.startswith("unrecognized arguments: "):
            options = [o for o in self._option_string_actions if o.startswith("--")]
            for word in message.removeprefix("unrecognized arguments: ").split():
                if word.startswith("--") and (found := nearest(word.split("=", 1)[0], options)):
                    return found
        return None
