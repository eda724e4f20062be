"""Venue check: ask a complete online list of venues about a cited venue no local list knows.

Offline, a venue name in none of the venue knowledge base's lists (normalize/venue_kb.py)
is no venue only where a list is complete for its kind: the journal list for journals, a
complete DBLP mirror for computer-science conferences. Online with an empty store there
is no such conference list, so "Symposium on Neural Scaling Laws" cited for a real NeurIPS
paper stayed unconfirmed. OpenAlex's list of sources (about 250,000 journals, conference
series and repositories) is asked instead: one request, and only for a citation whose work
was identified by its title while its venue is in no local list and close to nothing there.
For a conference name, DBLP's list of venues (every computer-science venue it indexes) is asked
too: OpenAlex's sources hold journals whole, not conferences. The names they answer are the facts
the judge reads (judge/facts/venue.py); a failure is a gap. Which source plays each part is a fact of
data/source_facts.tsv ("venue list"), not named here.

A list of venues is not the record of the work's publication: when neither list knows the cited venue
and every record found is a preprint, the publisher's deposits are asked for the title before the
judge may read the venue as invented. Many real proceedings (a society's second meeting, a regional
IEEE conference) are in no list of venues, while their papers' records are in Crossref, which holds
deposited publishers' records whole ("details" in data/source_facts.tsv). One request, only then.
"""

from __future__ import annotations

import time
from typing import cast

from citetracer.collect.connectors import VenueList
from citetracer.collect.consult import consult
from citetracer.collect.http import Call, HttpClient
from citetracer.collect.scholar import DETAILS_ORDER, REGISTRY, only_preprints, search_title, unasked_source
from citetracer.collect.stage import HttpStage
from citetracer.config import Settings
from citetracer.evidence import EvidenceBundle
from citetracer.normalize.text import title_form
from citetracer.normalize.venue_kb import VenueKB, alike_venues, venue_keys
from citetracer.normalize.venues import is_preprint, venue_kind
from citetracer.records import Candidate, Reference
from citetracer.sources import venue_list

#: Kinds of venue whose names OpenAlex's sources list holds (workshops it does not).
LISTED_KINDS = ("journal", "conference")
PUBLISHED_WHY = (
    "a witness of the cited venue: no list of venues knows it and the records found are preprints only, "
    "while the publisher's deposit of the published version would be here"
)
#: The source whose list of sources (journals, conference series, repositories) is asked first, and the one
#: whose list of every computer-science venue is asked about a conference name (data/source_facts.tsv
#: "venue list": OpenAlex, DBLP).
SOURCES_LIST, COMPUTING_LIST = venue_list("sources"), venue_list("computing")


class VenueStage(HttpStage):
    name = "venues"

    def __init__(self, settings: Settings, http: HttpClient, kb: VenueKB) -> None:
        self.settings = settings
        self.http = http
        self.kb = kb
        self.sources_list = cast(VenueList, REGISTRY[SOURCES_LIST])
        self.computing_list = cast(VenueList, REGISTRY[COMPUTING_LIST])

    def wanted(self, reference: Reference, bundle: EvidenceBundle) -> bool:
        """Whether the cited venue needs the online list: a journal or conference name of a work found by its
        title, in no local list and close to nothing there, not asked yet."""
        venue = (reference.venue or "").strip()
        if not venue or venue in bundle.venue_answers or is_preprint(venue):
            return False
        if venue_kind(venue, reference.type) not in LISTED_KINDS:
            return False
        title = reference.title or ""
        if not any(c.title and title_form(title, c.title) is not None for c in bundle.candidates):
            return False
        return self.kb.recognise(venue) is None and self.kb.nearest(venue) is None

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        base = self.settings.sources.get(SOURCES_LIST, "")
        if not base or not self.wanted(reference, bundle):
            return
        venue = (reference.venue or "").strip()
        names: list[str] = []

        # The venue's own words, without the years, ordinals, societies, places and dates a cited name carries
        # ("2021 IEEE 41st International Conference on Distributed Computing Systems (ICDCS)"): a search of
        # all of them finds nothing even where the venue is listed.
        query = (venue_keys(venue) or (venue,))[0] or venue

        async def ask(call: Call) -> list[Candidate]:
            names.extend(await self.sources_list.venues(query, call))
            return []

        deadline = time.monotonic() + self.settings.online.deadline
        why = "the cited venue is in no local venue list: OpenAlex's list of sources"
        # The answer is venue names, not candidates: it is not replayed from the evidence memo.
        if await consult(self.http, SOURCES_LIST, base, ask, bundle, deadline, why, memo=False) is not None:
            bundle.venue_answers[venue] = names
        computing = self.settings.sources.get(COMPUTING_LIST, "")
        if computing and venue_kind(venue, reference.type) == "conference":
            listed: list[str] = []

            async def ask_computing(call: Call) -> list[Candidate]:
                listed.extend(await self.computing_list.venues(query, call))
                return []

            why = "the cited conference is in no local venue list: DBLP's list of computer-science venues"
            answer = await consult(
                self.http, COMPUTING_LIST, computing, ask_computing, bundle, deadline, why, memo=False
            )
            if answer is not None:
                bundle.computing_venues[venue] = listed
        await self._ask_deposits(reference, bundle, deadline)

    async def _ask_deposits(self, reference: Reference, bundle: EvidenceBundle, deadline: float) -> None:
        """Ask the source of publishers' deposits for the cited title when the lists of venues answered without
        the cited venue and every record with the cited title is a preprint: its record of the published
        version, where there is one, names the venue the lists lack."""
        venue = (reference.venue or "").strip()
        answered = [bundle.venue_answers.get(venue), bundle.computing_venues.get(venue)]
        if all(a is None for a in answered) or not only_preprints(reference, bundle):
            return
        if any(alike_venues(venue, n) for a in answered for n in a or ()):
            return
        name = unasked_source(self.settings, self.http, reference, bundle, DETAILS_ORDER)
        if name is None:
            return
        await search_title(self.http, self.settings, name, reference, bundle, deadline, PUBLISHED_WHY)
