"""The decision thresholds, in one place: the numbers a verdict turns on.

Each is a measure the rules and the agents' guardrails compare with; they are
read here by name so that "why is 0.75 a near miss?" has one answer. Size and
time bounds of readers (bytes, characters, seconds) stay beside the reader they
bound: they protect the process, they do not decide a verdict.
"""

from __future__ import annotations

# ----------------------------------------------------------------- titles and authors (judge/)

#: Title similarity from which a differing title reads as a corrupted copy of a real one (H2) ...
#: (HALLMARK's near misses are 0.86 and up; below, a title by the same people is as likely another
#: version's: renamed between arXiv versions, or a conference paper against its journal extension)
NEAR_MISS_SIMILARITY = 0.85
#: ... and from which a title change is one anywhere, not only where the search covers the venue.
NEAR_MISS_CERTAIN = 0.9
#: Share of cited authors that must be a work's authors to call them "the same authors".
SAME_AUTHORS_OVERLAP = 0.5
#: A cited year this far in the future is not a date but a number read as one (review-copy line numbers).
IMPLAUSIBLE_FUTURE = 20
#: A title names one work when it has at least this many content words and at most SHARED_TITLES
#: stored works have a title holding all of them (the work itself and its versions). Others
#: ("Deep Learning", "Random Forests", "Literate Programming", "GenBank", "Collaborative Filtering
#: Recommender Systems") are shared by many works and need the year and venue to agree as well.
SPECIFIC_TITLE_WORDS, SHARED_TITLES = 3, 3
#: A title this long and this rare names one work even when the cited year is wrong.
UNIQUE_TITLE_WORDS, UNIQUE_SHARED = 5, 2
#: A preprint and its published version, or a work's printings, are at most this many years apart.
VERSION_YEARS = 1
#: A journal article deposited online first (its DOI dated so) is printed in an issue at most this many years later.
ONLINE_FIRST_YEARS = 2
#: A work of the same authors at the cited venue, with a title this alike, may be the version a citation
#: means (a conference paper and its journal extension: "Laplacian Eigenmaps and Spectral Techniques for
#: Embedding and Clustering", NIPS 2001, and "Laplacian Eigenmaps for Dimensionality Reduction and Data
#: Representation", Neural Computation 2003, are 0.57 alike).
VERSION_TITLE_SIMILARITY = 0.5
#: Where the store is not declared complete, a title by the cited people of that year and venue this alike
#: may be the cited work under another of its titles (renamed between arXiv versions): no proof of absence.
RENAMED_TITLE_SIMILARITY = 0.6
#: Share of one author list found in the other (either way) from which two records name the same people.
SAME_PEOPLE_OVERLAP = 0.8
#: Of a long author list (this many or more), a share this large matching the record means the rest
#: are renderings of names (transliterations, compound surnames), not substituted people.
LONG_LIST, LONG_LIST_MATCHED = 10, 0.75

# ------------------------------------------------------------------------- fields (match/)

#: Publisher names read the same from this rapidfuzz token-set ratio (0-100) on.
PUBLISHER_RATIO = 90

# ------------------------------------------------------------------------ evidence (collect/)

#: Broad indexes that must have answered a title search before a source skipped for the rate
#: budget stops counting as failed (see evidence.EvidenceBundle.failed_sources).
BROAD_QUORUM = 2
#: A venue-year (that very year, from a complete source whose snapshot covers it) with at least
#: this many records in the store counts as covered: absence from it is evidence, not a gap.
MIN_VENUE_RECORDS = 20

# ------------------------------------------------------------------- LLM agents (judge/agent_*)

#: A Real verdict from an agent needs a supporting candidate at least this similar in title
#: (rules' measure) ...
VALID_TITLE_SIMILARITY = 0.85
#: ... and sharing at least this share of the cited authors, when both list authors.
VALID_AUTHOR_OVERLAP = 0.5
#: An author neighbour (P1/H1 evidence) is worth a second look from this title similarity on.
NEIGHBOUR_TITLE_SIMILARITY = 0.5
#: Agent verdicts are never reported as surer than this.
MAX_AGENT_CONFIDENCE = 0.8
#: Records DBLP must hold at a venue in a year for that venue-year to count as listed (ingested whole): a
#: proceedings volume holds dozens to thousands of papers; a handful may be early records.
VENUE_YEAR_LISTED = 20
#: Years after which DBLP may still not list a venue-year: it ingests a proceedings volume weeks to months
#: after the meeting, so a conference of last December may be missing in the autumn.
LISTER_LAG_YEARS = 1
