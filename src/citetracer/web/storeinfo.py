"""What the server's store holds and cannot confirm, for the home page's card and each job's result.

"offline (local store only)" told a user nothing about why most of a paper came out P1: the store's
sources, their snapshot dates and the gaps (store/gaps.py, the words `mirror stats` and `mirror setup`
use) are what decide it. The facts are read once a minute at most (`StoreInfo.current`), off the event
loop, and never name the store's path (a server's folders are not the visitor's business).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from citetracer.report.html_report import esc
from citetracer.store.api import StoreAPI, open_store
from citetracer.store.gaps import StoreProfile

#: Seconds a reading of the store's facts is reused.
FRESH_SECONDS = 60.0


@dataclass(frozen=True)
class StoreFacts:
    holds: list[str]
    cannot_confirm: list[str]

    @classmethod
    def of(cls, store: StoreAPI) -> StoreFacts:
        profile = StoreProfile.of(store)
        return cls(profile.holds(), profile.cannot_confirm())

    def line(self) -> str:
        """One sentence for a job's result page (its notes)."""
        holds = "; ".join(self.holds) or "nothing"
        return f"The store holds {holds}. Offline it cannot confirm {'; '.join(self.cannot_confirm)}."

    def card(self) -> str:
        """The home page's card."""
        holds = "".join(f"<li>{esc(h)}</li>" for h in self.holds) or "<li>nothing: the store is empty</li>"
        gaps = "".join(f"<li>{esc(c)}</li>" for c in self.cannot_confirm)
        return (
            '<section class="card" id="store"><h2>The store</h2>\n'
            f'<p>Offline checks are answered by these records alone:</p><ul id="store-holds">{holds}</ul>\n'
            f"<p>Offline it cannot confirm (those citations come out P1, unconfirmed, not suspect):</p>"
            f'<ul id="store-gaps">{gaps}</ul></section>'
        )


@dataclass
class StoreInfo:
    """The store's facts, read at most every FRESH_SECONDS; None while the store does not answer."""

    location: Path | str
    _seen: tuple[float, StoreFacts | None] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def current(self) -> StoreFacts | None:
        with self._lock:
            if self._seen is None or time.monotonic() - self._seen[0] > FRESH_SECONDS:
                self._seen = (time.monotonic(), self._read())
            return self._seen[1]

    def _read(self) -> StoreFacts | None:
        try:
            with open_store(self.location, readonly=True) as store:
                return StoreFacts.of(store)
        except Exception:  # a store that does not answer: the page goes on without the card (/healthz says why)
            return None
