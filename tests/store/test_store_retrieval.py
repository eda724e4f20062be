"""Retrieval among near neighbours: the true record first for slightly wrong titles, and by authors + year."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from citetracer.records import Person, WorkRecord
from citetracer.store import ranking
from citetracer.store.api import StoreAPI, open_store
from citetracer.store.bulk import BulkBuild
from citetracer.store.ranking import Retrieval
from tests.conftest import pg_location
from tests.store.conftest import BACKENDS

Store = StoreAPI

TRUE = [
    ("Attention Is All You Need", "Vaswani", 2017),
    ("Deep Residual Learning for Image Recognition", "He", 2016),
    ("BERT Pre-training of Deep Bidirectional Transformers for Language Understanding", "Devlin", 2019),
    ("Generative Adversarial Nets", "Goodfellow", 2014),
    ("Neural Machine Translation by Jointly Learning to Align and Translate", "Bahdanau", 2015),
]
FILLER = "learning deep neural network model image language graph data robust efficient via for of the".split()


class _Build:
    """A module's store on one backend: a bulk build for SQLite (as `mirror dblp` makes it), upserts
    (COPY batches) for PostgreSQL."""

    def __init__(self, request: pytest.FixtureRequest, folder: Path) -> None:
        self.location: Path | str
        if request.param == "postgresql":
            self.location, self.bulk, self.rows = pg_location(request.getfixturevalue("pg_server")), None, []
        else:
            self.location = folder / "s.sqlite"
            self.bulk, self.rows = BulkBuild(self.location), []

    def add(self, record: WorkRecord) -> None:
        if self.bulk is not None:
            self.bulk.add(record)
        else:
            self.rows.append(record)


def _committed(build: _Build) -> Iterator[Store]:
    """Finish a fixture's build and open the store for the module's tests."""
    if build.bulk is not None:
        build.bulk.commit()
    s = open_store(build.location)
    if build.rows:
        s.upsert(build.rows)
    yield s
    s.close()


@pytest.fixture(scope="module", params=BACKENDS)
def store(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Store]:
    """The true records among near neighbours (two or three of their words replaced) and random titles."""
    folder = tmp_path_factory.mktemp("retrieval")
    rng = random.Random(3)
    build = _Build(request, folder)
    n = 0
    for title, surname, year in TRUE:
        build.add(
            WorkRecord(source="t", id=f"true-{surname}", title=title, authors=[Person(family=surname)], year=year)
        )
        words = title.split()
        for _ in range(60):
            variant = list(words)
            for j in rng.sample(range(len(words)), min(len(words) - 1, rng.choice((2, 3)))):
                variant[j] = rng.choice(FILLER)
            build.add(
                WorkRecord(
                    source="t",
                    id=f"n{n}",
                    title=" ".join(variant),
                    authors=[Person(family=surname)],
                    year=year + rng.choice((-1, 0, 1)),
                )
            )
            n += 1
    for i in range(3000):
        title = " ".join(
            rng.choice([*FILLER, "attention", "residual", "adversarial"]) for _ in range(rng.randint(4, 9))
        )
        build.add(WorkRecord(source="t", id=f"r{i}", title=title, year=rng.randint(1990, 2024)))
    yield from _committed(build)


def _top(store: Store, rids: list[int]) -> str:
    return store.records(rids[:1])[rids[0]].id if rids else ""


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Attention Is All You Need", "true-Vaswani"),
        ("Attention Is All We Need", "true-Vaswani"),  # a wrong word
        ("Deep Residual Learning for Recognition", "true-He"),  # a missing word
        ("Generative Adversarial Neural Nets", "true-Goodfellow"),  # an extra word
        ("BERT: Pre-Training of Deep Bidirectional Transformers for Language Understanding.", "true-Devlin"),
        ("Neural Translation by Jointly Learning to Align and Translate Sentences", "true-Bahdanau"),  # two words
    ],
)
def test_true_record_ranks_first_for_slightly_wrong_titles(store: Store, query: str, expected: str) -> None:
    assert _top(store, store.index.by_title(query, 10)) == expected


def test_fabricated_title_with_real_authors_and_year_still_finds_the_work(store: Store) -> None:
    rids = store.index.by_authors(["vaswani"], 2017, 10, title="Attention Mechanisms Are Everything You Need")
    assert "true-Vaswani" in {store.records(rids)[r].id for r in rids}
    assert _top(store, rids) == "true-Vaswani"  # the shared title words put it first among 60 by the same author


def test_author_search_respects_the_year_window(store: Store) -> None:
    rids = store.index.by_authors(["goodfellow"], 2005, 10)
    assert rids == []


@pytest.fixture(scope="module", params=BACKENDS)
def common_words_store(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Store]:
    """Two titles that differ only in a common word ("of" / "for"), among titles full of common words."""
    folder = tmp_path_factory.mktemp("common")
    rng = random.Random(5)
    build = _Build(request, folder)
    build.add(WorkRecord(source="t", id="of", title="Sparse Coding of Natural Images", year=2001))
    build.add(WorkRecord(source="t", id="for", title="Sparse Coding for Natural Images", year=2002))
    build.add(
        WorkRecord(
            source="t",
            id="variant",
            title="A Survey of Graph Kernels",
            variants=[WorkRecord(source="t", id="variant-v", title="Graph Kernels: A Survey of Methods")],
            year=2010,
        )
    )
    for i in range(3000):  # "of" and "for" each in over a thousand titles: common words
        words = [rng.choice(FILLER) for _ in range(rng.randint(3, 7))] + [("of", "for")[i % 2]]
        rng.shuffle(words)
        build.add(WorkRecord(source="t", id=f"f{i}", title=" ".join(words), year=2000))
    yield from _committed(build)


def test_common_words_still_decide_between_near_neighbours(common_words_store: Store) -> None:
    s = common_words_store
    assert min(s.index.doc_freq("of"), s.index.doc_freq("for")) > s.index.common_df()  # left out of the first pass
    assert _top(s, s.index.by_title("Sparse Coding for Natural Images", 10)) == "for"
    assert _top(s, s.index.by_title("Sparse coding of natural images.", 10)) == "of"
    assert _top(s, s.index.by_title("Sparse Coding of Natural Scenes", 10)) == "of"  # and one word wrong


def test_a_rendering_s_title_counts_in_the_ranking(common_words_store: Store) -> None:
    s = common_words_store
    assert _top(s, s.index.by_title("Graph Kernels: A Survey of Methods", 10)) == "variant"


def test_ranking_fields_read_titles_of_the_record_and_its_renderings(common_words_store: Store) -> None:
    s = common_words_store
    rid = s.rid_of_key("t:variant")
    assert rid is not None
    fields = s.ranking_fields([rid, 10**9])
    assert list(fields) == [rid]
    assert fields[rid].titles == ["A Survey of Graph Kernels", "Graph Kernels: A Survey of Methods"]
    assert fields[rid].year == 2010
    assert s.ranking_fields([]) == {}


def test_without_stored_fields_the_index_ranks_by_itself(common_words_store: Store) -> None:
    s = common_words_store
    s.index.fields_of = None
    try:
        assert _top(s, s.index.by_title("Sparse Coding for Natural Images", 10)) == "for"
    finally:
        s.index.fields_of = s.ranking_fields


@pytest.fixture(scope="module", params=BACKENDS)
def citation_store(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Store]:
    """A real work among neighbours whose titles are closer to a garbled citation than its own title is."""
    folder = tmp_path_factory.mktemp("citation")
    rng = random.Random(7)
    build = _Build(request, folder)
    real = [Person(given="Weicheng", family="Kuo"), Person(given="Bharath", family="Hariharan")]
    build.add(WorkRecord(source="t", id="real", title="Learning to Propose Objects", authors=real, year=2015))
    # Same title, same authors, another decade: the cited year tells them apart.
    build.add(WorkRecord(source="t", id="old", title="Learning to Propose Objects", authors=real, year=1995))
    others = [Person(family=f"Author{i}") for i in range(40)]
    for i in range(30):  # titles that share the garbled citation's words, by other people
        build.add(
            WorkRecord(
                source="t",
                id=f"near{i}",
                title=f"Heterogeneous Learning to {rng.choice(FILLER)} Objects",
                authors=[rng.choice(others)],
                year=2015,
            )
        )
    for i in range(2000):
        words = [rng.choice(FILLER) for _ in range(rng.randint(3, 8))]
        build.add(WorkRecord(source="t", id=f"r{i}", title=" ".join(words), authors=[rng.choice(others)], year=2015))
    yield from _committed(build)


def test_cited_authors_and_year_put_the_real_work_first_when_two_title_words_are_wrong(citation_store: Store) -> None:
    s = citation_store
    garbled = "Heterogeneous Learning to Objects"  # "Propose" replaced, "Heterogeneous" added
    by_title_alone = [s.records([r])[r].id for r in s.index.by_title(garbled, 10)]
    assert by_title_alone[0].startswith("near")  # by its title alone a neighbour is closer
    rids = s.index.search(garbled, ["kuo", "hariharan"], 2015, 10)
    assert _top(s, rids) == "real"


def test_the_cited_year_decides_between_same_title_same_authors(citation_store: Store) -> None:
    s = citation_store
    assert _top(s, s.index.search("Learning to Propose Objects", ["kuo"], 2015, 10)) == "real"
    assert _top(s, s.index.search("Learning to Propose Objects", ["kuo"], 1996, 10)) == "old"  # within a year


def test_a_fabricated_title_with_rare_real_surnames_still_reaches_the_work(citation_store: Store) -> None:
    s = citation_store
    rids = s.index.search("Quantum Gravity of Sparse Manifolds", ["hariharan"], 2015, 10)
    assert {s.records(rids)[r].id for r in rids} >= {"real"}


@pytest.fixture(scope="module", params=BACKENDS)
def coauthor_store(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Store]:
    """One common surname's many works of a year, a few with a rarer co-author, and titles sharing words."""
    build = _Build(request, tmp_path_factory.mktemp("coauthors"))
    rng = random.Random(5)
    for i in range(300):
        authors = [Person(family="Wang")] + ([Person(family="Okonkwo")] if i % 50 == 0 else [])
        title = " ".join(rng.choice(FILLER) for _ in range(rng.randint(4, 8)))
        build.add(WorkRecord(source="t", id=f"w{i}", title=title, authors=authors, year=2020 + i % 3))
    build.add(WorkRecord(source="t", id="target", title="Sparse kernels for graph attention",
                         authors=[Person(family="Wang")], year=2021))  # fmt: skip
    yield from _committed(build)


def test_the_author_pass_ranks_shared_surnames_then_title_words_alike_on_both_backends(
    coauthor_store: Store,
) -> None:
    """The co-authored works (two cited surnames) and the work sharing the title's rare words lead the 100
    works of the common surname; the title words are scored on the authors' works alone (PostgreSQL)."""
    store = coauthor_store
    rids = store.index.by_authors(["wang", "okonkwo"], 2021, 10, title="Sparse kernels for attention on graphs")
    ids = [store.records(rids)[r].id for r in rids]
    assert set(ids[:7]) == {f"w{i}" for i in range(0, 300, 50)} | {"target"}
    alone = store.index.by_authors(["wang"], 2021, 3, title="Sparse kernels for attention on graphs")
    assert store.records(alone)[alone[0]].id == "target"
    assert store.index.by_authors(["okonkwo"], 1990, 10, title="graph attention") == []


@pytest.fixture(scope="module", params=BACKENDS)
def budget_store(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Store]:
    """A common surname's 60 works of a year among 260, and a rarer surname's two: with another author, then
    with the common one (the same number of authors: tantivy's BM25 weighs the length of the author list)."""
    build = _Build(request, tmp_path_factory.mktemp("budget"))
    rng = random.Random(9)
    build.add(WorkRecord(source="t", id="solo", title="Quantum error correction codes",
                         authors=[Person(family="Okonkwo"), Person(family="Zedillo")], year=2021))  # fmt: skip
    for i in range(260):
        title = " ".join(rng.choice(FILLER) for _ in range(6))
        author = Person(family="Wang") if i < 60 else Person(family=f"Author{i:03d}".replace("0", "o"))
        build.add(WorkRecord(source="t", id=f"w{i}", title=title, authors=[author], year=2021))
    build.add(WorkRecord(source="t", id="pair", title="Surface code decoders",
                         authors=[Person(family="Okonkwo"), Person(family="Wang")], year=2021))  # fmt: skip
    yield from _committed(build)


def test_the_author_pass_reads_the_rarest_surnames_within_its_postings_and_still_ranks_by_all(
    budget_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `PASS_POSTINGS` a common surname's works are not read (on PostgreSQL each posting costs), but it
    still counts for the works that are: the co-authored work leads the rarer author's solo one."""
    store = budget_store
    everyone = store.index.by_authors(["wang", "okonkwo"], 2021, 10)
    ids = [store.records([rid])[rid].id for rid in everyone]
    assert ids[:2] == ["pair", "solo"] and len(ids) == 10  # then eight of the common surname's works
    monkeypatch.setattr(ranking, "PASS_POSTINGS", 10)
    rids = store.index.by_authors(["wang", "okonkwo"], 2021, 10)
    assert [store.records([rid])[rid].id for rid in rids] == ["pair", "solo"]


class _Frequencies(Retrieval):
    """A `Retrieval` over a table of document frequencies that records what its first pass is asked."""

    def __init__(self, df: dict[str, int], total: int) -> None:
        self.df, self.total = df, total
        self.asked: list[list[str]] = []

    def count(self) -> int:
        return self.total

    def doc_freq(self, term: str | int, field: str = "title") -> int:
        return self.df.get(str(term), 0)

    def first_pass(self, words: Sequence[str], surnames: Sequence[str], limit: int) -> list[int]:
        self.asked.append(list(words))
        return []


def test_the_first_pass_reads_five_terms_then_only_as_many_more_as_its_postings_allow() -> None:
    """In a store of 20M works, 5% is a million postings a word. Five terms hold three right ones when two are
    wrong: with two cited surnames the three rarest words are read whatever they cost, and more only while
    their lists stay within `PASS_POSTINGS` in all; a citation without authors reads five words as before."""
    df = {"alpha": 900, "beta": 5_000, "gamma": 12_000, "delta": 20_000, "eps": 30_000, "zeta": 400_000}
    index = _Frequencies({**df, "okafor": 300, "ndiaye": 700}, 20_000_000)
    index.fields_of = lambda rids: {}
    title = "alpha beta gamma delta eps zeta"
    index.search(title, ["okafor", "ndiaye"], limit=10)
    assert index.asked == [["alpha", "beta", "gamma", "delta"]]  # 37,900 postings; with eps 67,900
    index.asked.clear()
    index.search("zeta eps delta", ["okafor", "ndiaye"], limit=10)  # the three rarest whatever they cost
    assert index.asked == [["delta", "eps", "zeta"]]
    index.asked.clear()
    index.search(title, limit=10)  # no surnames: the words stand in for them
    assert index.asked == [["alpha", "beta", "gamma", "delta", "eps"]]


class _AuthorChoice(_Frequencies):
    """A `Retrieval` over a table of frequencies that records what its author pass is asked."""

    def author_pass(
        self, surnames: Sequence[str], year: int | None, words: Sequence[str], limit: int, also: Sequence[str] = ()
    ) -> list[int]:
        self.asked.append([*surnames, "|", *words, "|", *also])
        return []


def test_the_author_pass_scores_with_the_rarer_terms_within_its_postings() -> None:
    """At 20M works a common word or surname holds hundreds of thousands of postings: past the surnames it
    reads, the author pass scores with the other surnames, then the title words, rarest first while their
    lists stay within `AUTHOR_PASS_POSTINGS` in all; a word in more than 5% of titles never counts."""
    df = {"chang": 150_000, "huang": 310_000, "chen": 650_000, "h1n1": 80_000, "dual": 280_000, "of": 5_000_000}
    index = _AuthorChoice(df, 20_000_000)
    index.by_authors(["chang", "huang", "chen"], 2011, 10, "Dual H1N1 of")
    assert index.asked == [["chang", "|", "h1n1", "|", "huang"]]  # 390,000 in all; chen or dual: over 400,000
    index.asked.clear()
    index.by_authors(["okafor", "huang"], 2011, 10, "Dual H1N1 of")  # a rare author: read; the rest within budget
    assert index.asked == [["okafor", "|", "h1n1", "|", "huang"]]
    index.asked.clear()
    small = _AuthorChoice({"chang": 1_500, "huang": 3_100, "chen": 6_500, "dual": 2_800, "of": 50_000}, 200_000)
    small.by_authors(["chang", "huang", "chen"], 2011, 10, "Dual of")  # a small store: every term counts
    assert small.asked == [["chang", "huang", "chen", "|", "dual", "|"]]


def test_ranking_fields_read_after_a_write_are_the_new_ones(tmp_path: Path) -> None:
    # Ranking fields are cached per row, like records: a write to the store forgets them.
    s = open_store(tmp_path / "s.sqlite")
    try:
        s.upsert([WorkRecord(source="t", id="w", title="Sparse Coding of Natural Images", year=2001)])
        rid = s.rid_of_key("t:w")
        assert rid is not None
        assert s.ranking_fields([rid])[rid].titles == ["Sparse Coding of Natural Images"]
        s.upsert([WorkRecord(source="t", id="w", title="Sparse Coding for Natural Images", year=2002)])
        assert s.rid_of_key("t:w") == rid
        again = s.ranking_fields([rid])[rid]
        assert (again.titles, again.year) == (["Sparse Coding for Natural Images"], 2002)
    finally:
        s.close()
