"""The venue knowledge base: what a cited venue string is, and which list says so.

The honest spellings come from real reference lists (the cases where a real journal or
conference was read as no venue at all); the fabricated names from HALLMARK's
nonexistent_venue entries. Both must come out right from the same rules.
"""

from __future__ import annotations

import gzip
from importlib import resources

import pytest

from citetracer.normalize.venue_kb import VenueKB, alike_names, close_names, listed_keys, venue_keys


@pytest.fixture(scope="module")
def kb() -> VenueKB:
    store_names = [
        ("computers & or", "Computers & OR"),
        ("jasist", "JASIST"),
        ("sc", "SC"),
        ("sc", "Proceedings of the 1996 ACM/IEEE Conference on Supercomputing, Pittsburgh, PA, USA, November 17-22"),
        ("icpads", "ICPADS"),
        ("icpads", "17th IEEE International Conference on Parallel and Distributed Systems, ICPADS 2011, Tainan"),
    ]
    return VenueKB(store_names=lambda: store_names)


@pytest.mark.parametrize(
    ("name", "same_as"),
    [
        # A conference with its ordinal in words, its year, its society and "Proceedings of the".
        ("Proceedings of the Twenty-First International Conference on Machine Learning", "ICML"),
        ("The Thirty-ninth Annual Conference on Neural Information Processing Systems", "NeurIPS"),
        ("Advances in Neural Information Processing Systems, 37:38267–", "NeurIPS"),
        ("First Conference on Language Modeling", "COLM"),
        ("1996 ACM/IEEE Conference on Supercomputing", "SC"),
        ("2011 IEEE 17th international conference on parallel and distributed systems", "ICPADS"),
        # Journals spelled in full where a list abbreviates them, and the other way round.
        ("Computers & Operations Research", "Comput. Oper. Res."),
        ("J. Mach. Learn. Res.", "Journal of Machine Learning Research"),
        ("Nucleic acids research", "Nucleic Acids Res"),
    ],
)
def test_honest_spellings_are_one_venue(kb: VenueKB, name: str, same_as: str) -> None:
    a, b = kb.recognise(name), kb.recognise(same_as)
    assert a is not None and b is not None, (a, b)
    assert a.ids & b.ids


@pytest.mark.parametrize(
    ("cited", "record"),
    [
        ("Computers & Operations Research", "Computers & OR"),
        ("Information Systems Management", "IS Management"),
        ("IEEE Transactions on Pattern Analysis and Machine Intelligence", "IEEE Trans. Pattern Anal. Mach. Intell."),
    ],
)
def test_abbreviations_and_acronym_runs_are_close(cited: str, record: str) -> None:
    a, b = venue_keys(cited)[0].split(), venue_keys(record)[0].split()
    assert close_names(a, b) or close_names(b, a, cut=False)


@pytest.mark.parametrize(
    "name",
    [
        "Symposium on Neural Scaling Laws",
        "International Conference on Quantum Machine Learning",
        "Journal of Neural Architecture and Optimization",
        "Journal of Statistical Machine Learning Theory",
        "Annual Conference on Spatial Intelligence",
        "International Symposium on AI for Science",
        "Transactions on Meta-Learning and Adaptation",
    ],
)
def test_fabricated_names_are_in_no_list_and_close_to_nothing(kb: VenueKB, name: str) -> None:
    assert kb.recognise(name) is None
    assert kb.nearest(name) is None


def test_another_topic_word_is_another_venue() -> None:
    icml = venue_keys("International Conference on Machine Learning")[0].split()
    quantum = venue_keys("International Conference on Quantum Machine Learning")[0].split()
    assert not close_names(quantum, icml)
    assert not close_names(icml, quantum, cut=False)


@pytest.mark.parametrize("name", ["ACM; Association for Computing Machinery (ACM)", "1–8", "pp. 12-19"])
def test_publishers_and_page_ranges_are_no_venue(kb: VenueKB, name: str) -> None:
    assert kb.recognise(name) is None


def test_packaged_journal_keys_agree_with_the_code() -> None:
    """data/journals.tsv.gz carries keys computed by scripts/build_venues.py: a change to the
    normaliser must come with a rebuilt list (python scripts/build_venues.py)."""
    raw = resources.files("citetracer.data").joinpath("journals.tsv.gz").read_bytes()
    rows = [line.split("\t") for line in gzip.decompress(raw).decode().splitlines() if not line.startswith("#")]
    assert len(rows) > 40_000
    for _gid, name, keys in rows[:: len(rows) // 2000]:
        assert tuple(k for k in keys.split("|") if k) == listed_keys(name), name


@pytest.mark.parametrize(
    ("cited", "listed"),
    [
        (
            "Philosophical Transactions of the Royal Society of London A: Mathematical, Physical and Engineering "
            "Sciences",
            "Philosophical Transactions of the Royal Society A",
        ),
        ("Journal of the Association", "Journal of the Association for Computing Machinery"),
        (
            "Proceedings of the National Academy of Sciences of the United States of America",
            "Proceedings of the National Academy of Sciences",
        ),
    ],
    ids=["extended-with-place-and-subtitle", "cut-after-one-word", "extended-with-country"],
)
def test_a_name_extended_or_cut_short_is_like_the_listed_one(cited: str, listed: str) -> None:
    a, b = venue_keys(cited)[0].split(), venue_keys(listed)[0].split()
    assert alike_names(a, b)


@pytest.mark.parametrize(
    ("cited", "listed"),
    [
        ("International Conference on Quantum Machine Learning", "International Conference on Machine Learning"),
        ("Journal of Statistical Machine Learning Theory", "Machine Learning"),
        ("International Symposium on AI for Science", "AI for Science"),
    ],
    ids=["topic-word-inside", "topic-word-before", "another-kind"],
)
def test_a_topic_word_put_inside_or_another_kind_is_not_alike(cited: str, listed: str) -> None:
    a, b = venue_keys(cited)[0].split(), venue_keys(listed)[0].split()
    assert not alike_names(a, b, listed_kind="journal" if "Conference" not in listed else "conference")


_ASKED = [
    "Proc. of the Intl. Conf. on Machine Lern.",
    "J. Mach. Learn. Res.",
    "Journal of Artificial Intelligence Reseach",
    "International Conference on Quantum Cheese Modelling",
    "Trans. Pattern Anal.",
    "",
]


def test_nearest_remembered_answers_are_the_computed_ones() -> None:
    """`nearest` remembers its answer per cited key: asked twice, and by another writing with the same key,
    it answers as a fresh knowledge base that computes it."""
    fresh = [VenueKB().nearest(name) for name in _ASKED]
    remembering = VenueKB()
    assert [remembering.nearest(name) for name in _ASKED] == fresh
    assert [remembering.nearest(name) for name in _ASKED] == fresh
    assert [remembering.nearest(name.upper() + " ") for name in _ASKED] == fresh


def test_nearest_forgets_when_the_lists_grow() -> None:
    """A name listed after a question was answered is found by the next one (the memo is cleared)."""
    names: list[tuple[str, str]] = []
    kb = VenueKB(store_names=lambda: names)
    cited = "Zorblax Symposium on Quibbling Flumes"
    assert kb.nearest(cited) is None
    kb._add("store:zsqf", "Zorblax Symposium on Quibbling Flumes and Gadgets", "conference")
    assert kb.nearest(cited) == "Zorblax Symposium on Quibbling Flumes and Gadgets"


def test_store_names_get_their_kind_when_asked() -> None:
    """A store name's kind is worked out on first use, and it is the kind its name says."""
    from citetracer.normalize.venues import venue_kind

    names = [("zq", "Zorblax Symposium on Quibbling Flumes"), ("jzq", "Journal of Zorblax Quibbling"), ("x", "ZQF")]
    kb = VenueKB(store_names=lambda: names)
    assert kb.recognise("Journal of Zorblax Quibbling") is not None
    store = [len(kb._lists.entries) + n for n, e in enumerate(kb._entries) if e[0].startswith("store:")]
    assert [kb._entry(n)[2] for n in store] == [venue_kind(name) for _, name in names]
    assert kb.nearest("Zorblax Symp. on Quibbling Flumes") == "Zorblax Symposium on Quibbling Flumes"


def test_nearest_memo_is_bounded_and_answers_as_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import citetracer.normalize.venue_kb as venue_kb

    monkeypatch.setattr(venue_kb, "NEAREST_MEMO_SIZE", 3)
    fresh = VenueKB(store_names=lambda: [("jasist", "JASIST")])
    names = ["Journal of Machine Learning Research", "Made Up Journal of Things", "ICML", "JASIST", "Nature"]
    first = [fresh.nearest(n) for n in names]
    assert len(fresh._nearest) <= 3
    assert [fresh.nearest(n) for n in names] == first
    assert [VenueKB(store_names=lambda: [("jasist", "JASIST")]).nearest(n) for n in names] == first


def test_packaged_lists_are_read_once_and_shared() -> None:
    """Every knowledge base uses the one copy of the packaged lists a process reads (a web server's checkers,
    a scan worker's threads), and finds in it what a knowledge base of its own would."""
    from citetracer.normalize.venue_kb import packaged_kb, packaged_lists

    first, second = VenueKB(store_names=lambda: [("jasist", "JASIST")]), VenueKB()
    assert first.recognise("ICML") == second.recognise("ICML") == packaged_kb().recognise("ICML")
    assert first._lists is second._lists is packaged_lists() is packaged_lists()


def test_store_names_stay_with_their_knowledge_base() -> None:
    """A store's names, listed after the shared packaged ones, are known to its own knowledge base only:
    another store's, or the packaged lists alone, never see them."""
    from citetracer.normalize.venue_kb import packaged_kb

    cited = "Zorblax Symposium on Quibbling Flumes"
    mine = VenueKB(store_names=lambda: [("zsqf", cited)])
    other = VenueKB(store_names=lambda: [("jasist", "JASIST")])
    venue = mine.recognise(cited)
    assert venue is not None and venue.ids == frozenset({"store:zsqf"}) and venue.name == cited
    assert mine.nearest("Zorblax Symp. on Quibbling Flumes") == cited
    assert other.recognise(cited) is None and packaged_kb().recognise(cited) is None
    assert other.nearest("Zorblax Symp. on Quibbling Flumes") is None
    assert other.recognise("JASIST") is not None and mine.recognise("JASIST") is None
    # Packaged names keep their answers beside a store's.
    assert mine.recognise("Journal of Machine Learning Research") == packaged_kb().recognise(
        "Journal of Machine Learning Research"
    )
