"""Every field a citation states is compared with the facts a source holds (issue 46), offline.

The store is a small DBLP-layout dump ingested as a mirror (whole venue-years thanks to filler
records), as in test_real_citations.py. Each fabricated field beside the honest sibling that must
stay Real: a year the author wrote in a BibTeX field, a venue name carrying the work's year, pages,
volumes, publishers and places.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from citetracer.config import Settings
from citetracer.extract import read_text
from citetracer.judge.facts.dates import printed_next_year
from citetracer.pipeline import Checker
from citetracer.records import CitationResult
from citetracer.store.db import Store
from tests.judge.test_real_citations import _filler, _rec, mirrored_store

RESNET = ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"]
FOCAL = ["Tsung-Yi Lin", "Priya Goyal", "Ross B. Girshick", "Kaiming He", "Piotr Dollár"]

RECORDS = "".join(
    [
        _rec(
            "inproceedings",
            "conf/cvpr/HeZRS16",
            RESNET,
            "Deep Residual Learning for Image Recognition.",
            2016,
            booktitle="CVPR",
            pages="770-778",
            crossref="conf/cvpr/2016",
            ee="https://doi.org/10.1109/CVPR.2016.90",
        ),
        _filler("CVPR", "cvpr", 2016, 30),
        _rec(
            "proceedings",
            "conf/cvpr/2016",
            [],
            "2016 IEEE Conference on Computer Vision and Pattern Recognition, CVPR 2016, Las Vegas, NV, USA, June "
            "27-30, 2016",
            2016,
            booktitle="CVPR",
            publisher="IEEE Computer Society",
        ),
        _filler("CVPR", "cvpr", 2018, 30),
        _rec(
            "inproceedings",
            "conf/nips/Mingolla90",
            ["Ennio Mingolla"],
            "Neural Dynamics of Motion Segmentation and Grouping.",
            1990,
            booktitle="NIPS",
            pages="342-348",
            crossref="conf/nips/1990",
        ),
        _filler("NIPS", "nips", 1990, 30),
        # One venue-year holding a paper and its poster under one title by one author, each with its own pages.
        _rec(
            "inproceedings",
            "conf/chi/Kay95",
            ["Jennifer S. Kay"],
            "STRIPE: remote driving using limited image data.",
            1995,
            booktitle="CHI",
            pages="59-60",
            crossref="conf/chi/1995",
        ),
        _rec(
            "inproceedings",
            "conf/chi/Kay95a",
            ["Jennifer S. Kay"],
            "STRIPE: remote driving using limited image data.",
            1995,
            booktitle="CHI",
            pages="107-108",
            crossref="conf/chi/1995",
        ),
        _filler("CHI", "chi", 1995, 30),
        # A title too short to name one work: its people, venue and year name it.
        _rec(
            "inproceedings",
            "conf/amast/BallandKM06",
            ["Emilie Balland", "Claude Kirchner", "Pierre-Etienne Moreau"],
            "Formal Islands.",
            2006,
            booktitle="AMAST",
            pages="51-65",
        ),
        _filler("AMAST", "amast", 2006, 30),
        _rec(
            "proceedings",
            "conf/nips/1990",
            [],
            "Advances in Neural Information Processing Systems 3, [NIPS Conference, Denver, Colorado, USA, November "
            "26-29, 1990]",
            1990,
            booktitle="NIPS",
            publisher="Morgan Kaufmann",
        ),
        _rec(
            "article",
            "journals/pami/LinGGHD20",
            FOCAL,
            "Focal Loss for Dense Object Detection.",
            2020,
            journal="IEEE Trans. Pattern Anal. Mach. Intell.",
            volume="42",
            number="2",
            pages="318-327",
        ),
        "".join(
            _rec(
                "article",
                f"journals/pami/Other{year}-{i}",
                [f"Pami{i} Author{year}"],
                f"Another transactions paper {i} of {year}",
                year,
                journal="IEEE Trans. Pattern Anal. Mach. Intell.",
                volume=str(year - 1978),
                pages=f"{10 * i + 1}-{10 * i + 10}",
            )
            for year in (2020, 2022)
            for i in range(30)
        ),
    ]
)


#: Journal articles as a Crossref sample holds them (not a complete source).
JOURNAL_RECORDS = [
    {"id": "philtrans", "title": "Nonlinear dispersion of tidal currents over rippled sand beds",
     "authors": ["Agnes Thornby", "Wen Hao"], "year": 2014,
     "venue": "Philosophical Transactions of the Royal Society A",
     "type": "article", "doi": "10.1098/rsta.2014.0123"},
    {"id": "iccs", "title": "Adaptive mesh refinement for coupled ocean and ice sheet models",
     "authors": ["Mara Iles", "Tobias Renn"], "year": 2019, "venue": "Computational Science - ICCS 2019",
     "type": "inproceedings", "publisher": "Springer", "pages": "301-314", "doi": "10.1007/978-3-030-22750-0_24"},
    {"id": "pace", "title": "PaCE: A Data-Flow Coordination Language for Asynchronous Network-Based Applications",
     "authors": ["Mauro Caporuscio", "Marco Funaro", "Carlo Ghezzi"], "year": 2012,
     "venue": "Software Composition, 11th International Conference, SC", "type": "inproceedings"},
    {"id": "boyd-talk", "title": "Convex Optimization", "authors": ["Stephen Boyd"], "year": 2011, "venue": "KDD",
     "type": "inproceedings"},
    {"id": "bentley", "title": "Literate Programming", "authors": ["Jon Bentley"], "year": 1986,
     "venue": "Communications of the ACM", "type": "article"},
    {"id": "jacm", "title": "A relational calculus for quantified constraint satisfaction over trees",
     "authors": ["Petra Vogt", "Emil Strand"], "year": 2009, "venue": "Journal of the ACM", "type": "article"},
]  # fmt: skip


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    s = mirrored_store(tmp_path_factory.mktemp("dblp46"), RECORDS, JOURNAL_RECORDS, "2024-01-01")
    yield s
    s.close()


def check(store: Store, text: str, suffix: str = ".bib") -> CitationResult:
    settings = Settings(store=store.path, offline=True, today_year=2026, remember_verified=False)
    read = read_text(text, suffix)
    assert len(read.references) == 1, read.warnings
    return asyncio.run(Checker(settings, store=store).check_references(read.references))[0]


def resnet(year: int, booktitle: str = "IEEE Conference on Computer Vision and Pattern Recognition") -> str:
    return (
        "@inproceedings{he2016deep, title = {Deep Residual Learning for Image Recognition}, author = {He, Kaiming "
        f"and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}}, booktitle = {{{booktitle}}}, year = {{{year}}}}}"
    )


def focal(year: int, **extra: str) -> str:
    fields = "".join(f", {k} = {{{v}}}" for k, v in extra.items())
    return (
        "@article{lin2020focal, title = {Focal Loss for Dense Object Detection}, author = {Lin, Tsung-Yi and Goyal, "
        "Priya and Girshick, Ross and He, Kaiming and Doll{\\'a}r, Piotr}, journal = {IEEE Transactions on Pattern "
        f"Analysis and Machine Intelligence}}, year = {{{year}}}{fields}}}"
    )


# ------------------------------------------------------------------------------------ years


def test_the_honest_year_is_real(store: Store) -> None:
    assert check(store, resnet(2016)).verdict.class_ == "Real"
    assert (
        check(
            store, resnet(2016, "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)")
        ).verdict.class_
        == "Real"
    )


def test_a_year_field_two_off_is_caught_although_the_venue_name_carries_the_true_year(store: Store) -> None:
    """The venue's own year is no excuse for the year field: the citation contradicts itself."""
    r = check(store, resnet(2018, "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "year" in r.verdict.fields


@pytest.mark.parametrize(
    "booktitle",
    [
        "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
        "IEEE Conference on Computer Vision and Pattern Recognition, CVPR '16",
        "Proceedings of CVPR’16",
    ],
)
def test_a_year_field_one_off_against_the_venue_names_year_is_caught(store: Store, booktitle: str) -> None:
    """A meeting names its year in full or after an apostrophe ("CVPR '16"): either way the year field
    that says 2017 contradicts the citation's own venue, which names the work's year."""
    r = check(store, resnet(2017, booktitle))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "names 2016" in (r.verdict.basis or ""), r.verdict.basis
    assert check(store, resnet(2016, booktitle)).verdict.class_ == "Real"


def test_a_year_two_off_at_the_same_conference_is_caught(store: Store) -> None:
    r = check(store, resnet(2018))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale


def mingolla(year: int) -> str:
    return (
        "@inproceedings{mingolla, title = {Neural Dynamics of Motion Segmentation and Grouping}, author = "
        f"{{Mingolla, Ennio}}, booktitle = {{Advances in Neural Information Processing Systems}}, year = {{{year}}}}}"
    )


def test_a_year_before_the_meeting_its_proceedings_title_names_is_no_slip(store: Store) -> None:
    """A conference and its proceedings may be a year apart, the proceedings after the meeting, never
    before it: the volume 'CVPR 2016, Las Vegas, June 27-30, 2016' dates no paper of it in 2015 (P3, the
    year named), nor, printed for a June meeting, in 2017; the 1991 printing of the 1990 meeting's
    'Advances in NIPS 3' (a volume no record here dates) stays Real."""
    for text in (resnet(2015), resnet(2017), mingolla(1989)):
        r = check(store, text)
        assert (r.verdict.class_, r.verdict.code) == ("Potential", "P3"), r.verdict.rationale
        assert "year" in r.verdict.fields, r.verdict.rationale
        assert "date the meeting in" in r.verdict.rationale, r.verdict.rationale  # says why no excuse applies
    for text in (mingolla(1991), mingolla(1990), resnet(2016)):
        r = check(store, text)
        assert r.verdict.class_ == "Real", r.verdict.rationale


@pytest.mark.parametrize(
    ("title", "later"),
    [
        ("Advances in Neural Information Processing Systems 18, NIPS 2005, December 5-8, 2005, Vancouver", True),
        (
            "Euro-Par 2010 Parallel Processing Workshops, Ischia, Italy, August 31-September 3, 2010, "
            "Revised Selected Papers",
            True,
        ),
        ("Algebraic Methodology and Software Technology, 11th International Conference, AMAST 2006", True),
        ("Proceedings of the 21th ACM SIGKDD, Sydney, NSW, Australia, August 10-13, 2015", False),
        ("ICML 2021, 18-24 July 2021, Virtual Event", False),
        ("Marseille, France, Sept. 3-5, 2012", False),
    ],
)
def test_proceedings_bear_the_next_year_only_after_a_late_meeting_or_a_revision(title: str, later: bool) -> None:
    """Proceedings are printed for the meeting; the next year's date is theirs only for a meeting at the
    year's end, papers revised after it, or a title that names no month ("Marseille" is no March)."""
    assert printed_next_year(title) is later


def test_a_journal_year_two_later_where_the_store_lists_that_volume_is_caught(store: Store) -> None:
    r = check(store, focal(2022))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale


def test_a_journal_year_two_later_where_no_source_lists_that_volume_is_not_proof(store: Store) -> None:
    r = check(store, focal(2023))
    assert r.verdict.class_ == "Potential", r.verdict.rationale


def test_a_two_page_item_under_a_works_title_in_a_later_volume_is_no_proof(store: Store) -> None:
    """A journal prints a review or a notice under a work's title years later ('Reinforcement learning: An
    introduction', IEEE TNN 16:285-286, 2005, a review of the 1998 book), and a venue-year DBLP holds whole
    may leave such items out; an article-length citation of that later year is still caught."""
    r = check(store, focal(2022, pages="285--286"))
    assert r.verdict.class_ == "Potential", r.verdict.rationale
    assert "short item" in r.verdict.rationale
    r = check(store, focal(2022, pages="318--327"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale


def test_a_journal_volume_the_author_wrote_pins_the_year(store: Store) -> None:
    """Volume 42 of TPAMI appeared in 2020 (DBLP dates a record by its volume): a citation of that volume
    dated 2018, or 2023, contradicts it; without a volume an earlier year may be an online-first date."""
    for year in (2018, 2023):
        r = check(store, focal(year, volume="42"))
        assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
        assert "volume 42" in (r.verdict.basis or ""), r.verdict.basis
    assert check(store, focal(2018)).verdict.class_ == "Potential"


def test_a_year_the_doi_carries_settles_the_year(store: Store) -> None:
    """The record's date is the record's: a DOI that carries the cited year shows the citation right."""
    bib = resnet(2014).replace("year = {2014}", "year = {2014}, doi = {10.1109/CVPR.2014.90}")
    r = check(store, bib)
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


# ------------------------------------------------------------------------------------ venues


@pytest.mark.parametrize(
    "text",
    [
        "Agnes Thornby and Wen Hao. Nonlinear dispersion of tidal currents over rippled sand beds. Philosophical "
        "Transactions of the Royal Society of London A: Mathematical, Physical and Engineering Sciences, "
        "372:20140123, 2014.",
        "Petra Vogt and Emil Strand. A relational calculus for quantified constraint satisfaction over trees. "
        "Journal of the Association, 56(3), 2009.",
    ],
    ids=["extended-journal-name", "name-cut-short"],
)
def test_a_journal_name_like_a_listed_one_is_not_fabricated_offline(store: Store, text: str) -> None:
    """The journal list holds some 43,000 of well over 100,000 journals: a name it lacks is a gap, and one
    like a listed name (extended, cut short) is that name written another way."""
    r = check(store, text, ".txt")
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


# ------------------------------------------------------------------------------- author names


def resnet_by(authors: str) -> str:
    return (
        "@inproceedings{he2016deep, title = {Deep Residual Learning for Image Recognition}, author = {"
        f"{authors}}}, booktitle = {{IEEE Conference on Computer Vision and Pattern Recognition}}, year = {{2016}}}}"
    )


def test_initials_are_exact_but_a_given_name_cut_to_a_fragment_is_not(store: Store) -> None:
    assert check(store, resnet_by("He, K. and Zhang, X. and Ren, S. and Sun, J.")).verdict.class_ == "Real"
    r = check(store, resnet_by("He, Kai and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian"))
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P3"), r.verdict.rationale
    assert "given names differ" in r.verdict.rationale


def test_a_known_nickname_is_a_variant_and_another_given_name_a_doubt() -> None:
    from citetracer.match.rules import assess
    from citetracer.normalize.names import parse_person
    from citetracer.records import Candidate, Reference

    def people(*names: str) -> list:  # type: ignore[type-arg]
        return [p for p in map(parse_person, names) if p is not None]

    record = Candidate(
        source="dblp", id="k", title="Big Transfer (BiT): General Visual Representation Learning", year=2020,
        authors=people("Alexander Kolesnikov", "Lucas Beyer", "Xiaohua Zhai"), venue="ECCV",
    )  # fmt: skip
    nick = Reference(title=record.title, year=2020, authors=people("Alex Kolesnikov", "Lucas Beyer", "Xiaohua Zhai"))
    a = assess(nick, record)
    assert a.status("authors") == "match" and a.fields["authors"].residual == "normalizable"
    assert "nickname" in (a.fields["authors"].note or "")
    cut = Reference(title=record.title, year=2020, authors=people("Alexander Kolesnikov", "Luc Beyer", "Xiaohua Zhai"))
    assert assess(cut, record).status("authors") == "mismatch"


def test_an_author_list_that_stops_without_et_al_is_partial_not_formatting(store: Store) -> None:
    r = check(store, resnet_by("He, Kaiming and Zhang, Xiangyu"))
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P3"), r.verdict.rationale
    assert "omits 2 of the record's 4 authors" in r.verdict.rationale
    assert check(store, resnet_by("He, Kaiming and Zhang, Xiangyu and others")).verdict.class_ == "Real"


def test_an_invented_name_added_to_a_whole_list_is_padding(store: Store) -> None:
    r = check(store, resnet_by("He, Kaiming and Zhang, Xiangyu and Lin, Aria and Ren, Shaoqing and Sun, Jian"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H3"), r.verdict.rationale
    assert "Aria Lin" in r.verdict.rationale


# ----------------------------------------------------------------------- publication details


def resnet_with(**extra: str) -> str:
    fields = "".join(f", {k} = {{{v}}}" for k, v in extra.items())
    return resnet(2016)[:-1] + fields + "}"


@pytest.mark.parametrize(
    "pages",
    ["770--778", "pp. 770-778", "770\u2013778".encode().decode("unicode_escape"), "770", "e770", "12", "9 pp."],
)
def test_pages_written_otherwise_or_that_are_no_range_stay_real(store: Store, pages: str) -> None:
    """The same range written differently, a first page, an article or e-locator number, a page count: none
    states a range to contradict (a lone number is as often a volume or an issue the parser read)."""
    r = check(store, resnet_with(pages=pages))
    assert r.verdict.class_ == "Real", r.verdict.rationale


def test_a_page_range_wholly_apart_from_the_same_versions_is_h4(store: Store) -> None:
    r = check(store, resnet_with(pages="1023--1031"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert r.verdict.fields == ["pages"] and "770-778" in r.verdict.rationale


def islands(authors: str, pages: str) -> str:
    return (
        f"@inproceedings{{islands, author = {{{authors}}}, title = {{Formal Islands}}, booktitle = {{Algebraic "
        f"Methodology and Software Technology, AMAST}}, year = {{2006}}, pages = {{{pages}}}}}"
    )


def test_a_short_title_by_all_the_cited_people_at_the_cited_venue_year_states_its_pages(store: Store) -> None:
    """'Formal Islands' is too short a title to name one work alone; with every cited author the record's, at
    the cited venue and year, the record is the cited version and its pages contradict a range apart. Cited
    at another year, the record is not the cited version: its pages are not compared."""
    everyone = "Balland, Emilie and Kirchner, Claude and Moreau, Pierre-Etienne"
    r = check(store, islands(everyone, "252--266"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert r.verdict.fields == ["pages"], r.verdict.fields
    assert check(store, islands(everyone, "51--65")).verdict.class_ == "Real"
    other_year = check(store, islands(everyone, "252--266").replace("2006", "2007"))
    assert "pages" not in other_year.verdict.fields, other_year.verdict.rationale


def test_a_page_range_against_another_version_is_no_contradiction(store: Store) -> None:
    # Cited at another venue (its preprint): the proceedings' pages are another version's.
    bib = resnet_with(pages="1--12").replace(
        "booktitle = {IEEE Conference on Computer Vision and Pattern Recognition}", "journal = {arXiv preprint}"
    )
    assert check(store, bib).verdict.class_ != "Hallucinated"


@pytest.mark.parametrize("pages", ["1--9", "1-8", "pp 1-10"])
def test_the_works_own_pagination_is_no_contradiction(store: Store, pages: str) -> None:
    """A copy paginated on its own (the author's PDF, a library's download) numbers the record's 770-778 as
    1-9: the same nine pages, found on a real paper's citation of a workshop paper ('pp 1-6' for 308-313)."""
    r = check(store, resnet_with(pages=pages))
    assert r.verdict.class_ == "Real", r.verdict.rationale


@pytest.mark.parametrize("pages", ["1--30", "1--3", "2--10"])
def test_a_range_from_page_one_of_another_length_is_still_h4(store: Store, pages: str) -> None:
    r = check(store, resnet_with(pages=pages))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale


def test_a_journal_volume_the_record_states_otherwise_is_h4(store: Store) -> None:
    assert check(store, focal(2020, volume="42", pages="318--327")).verdict.class_ == "Real"
    r = check(store, focal(2020, volume="39", pages="318--327"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "volume" in r.verdict.fields


def test_a_proceedings_series_volume_is_not_a_journal_volume(store: Store) -> None:
    assert check(store, resnet_with(volume="9908", series="Lecture Notes in Computer Science")).verdict.class_ == "Real"


def test_a_conference_city_the_proceedings_name_otherwise_is_h4(store: Store) -> None:
    assert check(store, resnet_with(address="Las Vegas, Nevada, USA")).verdict.class_ == "Real"
    assert check(store, resnet_with(address="Las Vegas, NV")).verdict.class_ == "Real"
    r = check(store, resnet_with(address="Seattle, WA, USA"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "location" in r.verdict.fields


ICCS = (
    "@inproceedings{iles2019, title = {Adaptive mesh refinement for coupled ocean and ice sheet models}, "
    "author = {Iles, Mara and Renn, Tobias}, booktitle = {Computational Science - ICCS 2019}, year = {2019}, "
    "pages = {301--314}, publisher = {%s}}"
)


@pytest.mark.parametrize("publisher", ["Springer", "Springer International Publishing", "Springer, Cham"])
def test_the_publisher_written_another_way_stays_real(store: Store, publisher: str) -> None:
    assert check(store, ICCS % publisher).verdict.class_ == "Real"


def test_another_recognised_publisher_is_h4_and_an_unknown_one_a_gap(store: Store) -> None:
    r = check(store, ICCS % "IEEE")
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "publisher" in r.verdict.fields
    assert check(store, ICCS % "Hypothetical Lab Press of Nowhere").verdict.class_ != "Hallucinated"


def test_a_publisher_stated_only_on_the_proceedings_volume_is_a_fact(store: Store) -> None:
    """DBLP names a paper's publisher on its volume's record only: read through the crossref, it is checked."""
    assert check(store, resnet(2016)[:-1] + ", publisher = {IEEE}}").verdict.class_ == "Real"
    r = check(store, resnet(2016)[:-1] + ", publisher = {Springer}}")
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "publisher" in r.verdict.fields and "IEEE Computer Society" in r.verdict.rationale


NIPS90 = (
    "@inproceedings{mingolla1990, title = {Neural Dynamics of Motion Segmentation and Grouping}, author = "
    "{Mingolla, Ennio}, booktitle = {Advances in Neural Information Processing Systems 3}, year = {1990}, "
    "pages = {342--348}, publisher = {%s}}"
)


def test_the_venues_printer_named_for_an_old_volume_is_no_contradiction(store: Store) -> None:
    """Curran Associates prints NeurIPS: named for NIPS 1990 (Morgan Kaufmann's volume) it is a slip about
    the right venue; a publisher with no tie to the venue or the volume is still another publisher."""
    assert check(store, NIPS90 % "Morgan Kaufmann").verdict.class_ == "Real"
    assert check(store, NIPS90 % "Curran Associates, Inc.").verdict.class_ == "Real"
    r = check(store, NIPS90 % "Springer")
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale


def test_a_volume_read_from_free_text_is_no_fact(store: Store) -> None:
    """Our parser places lone numbers (a page, an issue, a year read as the volume): only a volume the author
    wrote as a field contradicts ("Cryptology ePrint Archive, 2012. 2" is no volume 2)."""
    r = check(
        store,
        "Tsung-Yi Lin, Priya Goyal, Ross Girshick, Kaiming He, and Piotr Dollár. Focal loss for dense object "
        "detection. IEEE Transactions on Pattern Analysis and Machine Intelligence, 39:318-327, 2020.",
        ".txt",
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_venue_name_is_not_read_as_a_place(store: Store) -> None:
    """Only a DBLP proceedings title or an event location states a city: 'SC' closing a venue name is no
    South Carolina against a conference held in Prague."""
    bib = (
        "@inproceedings{pace, title = {PaCE: A Data-Flow Coordination Language for Asynchronous Network-Based "
        "Applications}, author = {Caporuscio, Mauro and Funaro, Marco and Ghezzi, Carlo}, booktitle = {Software "
        "Composition, 11th International Conference, SC}, year = {2012}, address = {Prague, Czech Republic}}"
    )
    assert check(store, bib).verdict.class_ != "Hallucinated"


# ----------------------------------------------------------------------- famous works (issue 47)


@pytest.mark.parametrize(
    "text",
    [
        "Boyd, S., & Vandenberghe, L. (2004). Convex optimization. Cambridge University Press.",
        "Knuth, D. E. (1984). Literate programming. The Computer Journal, 27(2), 97-111.",
    ],
    ids=["book-against-a-talk-of-its-title", "short-title-by-others"],
)
def test_a_short_title_shared_with_another_work_is_not_that_work(store: Store, text: str) -> None:
    """A record sharing only a short title (and none of the authors, or another kind of work) is another work:
    the citation is unverified (P1), never P3 with that work's authors and year against it."""
    r = check(store, text, ".txt")
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P1"), r.verdict.rationale
    assert "other works" in r.verdict.rationale, r.verdict.rationale


#: The records the 98 real PDFs met in DBLP-large: a talk whose title goes on past a book's short title, and
#: a column that names no authors; with its venue-year whole, as a DBLP mirror holds it.
FAMOUS = "".join(
    [
        _rec(
            "inproceedings",
            "conf/kdd/Boyd11",
            ["Stephen Boyd"],
            "Convex optimization: from embedded real-time to large-scale distributed.",
            2011,
            booktitle="KDD",
            crossref="conf/kdd/2011",
        ),
        _filler("KDD", "kdd", 2011, 30),
        _rec("article", "journals/login/X05g", [], "Software.", 2005, journal="LOG IN", volume="25"),
        _rec("article", "journals/login/X05h", [], "Editorial.", 2005, journal="LOG IN", volume="25"),
        _rec(
            "article",
            "journals/cise/X19",
            [],
            "Report of the working group on persistent identifiers for research software.",
            2019,
            journal="Computing in Science and Engineering",
        ),
    ]
)


@pytest.fixture(scope="module")
def famous(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    s = mirrored_store(tmp_path_factory.mktemp("famous47"), FAMOUS, [], "2016-01-01")
    yield s
    s.close()


def _title_alone(r: CitationResult) -> bool:
    return r.verdict.code == "P1" and "records with its title are other works" in r.verdict.rationale


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (
            "Stephen P. Boyd and Lieven Vandenberghe. Convex Optimization. Cambridge University Press, Cambridge, "
            "UK ; New York, 2004. ISBN 978-0-521-83378-3.",
            "the cited work is a book and they are not",
        ),
        ("Tummers, B. (2006). Software. DataThief: Vol. NA. https://datathief.org", "name none of its authors"),
    ],
    ids=["book-title-the-head-of-a-talk-title", "software-against-an-unsigned-column"],
)
def test_a_short_title_shared_with_an_unsigned_or_longer_title_is_another_work(
    famous: Store, text: str, why: str
) -> None:
    """The short title two works share is the shorter of their titles ("Convex Optimization" against a talk
    that goes on past it), and a record naming no authors shares none of the cited ones: neither is the
    cited work, so the citation is unverified, never P3 against them."""
    r = check(famous, text, ".txt")
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P1"), r.verdict.rationale
    assert why in r.verdict.rationale, r.verdict.rationale


@pytest.mark.parametrize(
    "text",
    [
        "Stephen Boyd. Convex optimization. In Proceedings of the 17th ACM SIGKDD International Conference on "
        "Knowledge Discovery and Data Mining (KDD), 2011.",
        "Mueller, K. (2005). Editorial. LOG IN, 25(1), 3-4.",
        "Katz, D. S., & Chue Hong, N. P. (2019). Report of the working group on persistent identifiers for "
        "research software. Computing in Science and Engineering.",
    ],
    ids=["its-author-drops-the-subtitle", "unsigned-short-title-in-its-venue-and-year", "unsigned-specific-title"],
)
def test_the_honest_siblings_keep_their_record(famous: Store, text: str) -> None:
    """The same record by its own author without its subtitle, an unsigned record whose venue and year are the
    cited ones, and an unsigned record of a specific title stay the cited work."""
    r = check(famous, text, ".txt")
    assert not _title_alone(r), r.verdict.rationale
    assert r.verdict.evidence, r.verdict.rationale


def test_invented_authors_under_the_talks_whole_title_are_still_caught(famous: Store) -> None:
    """The fabrication beside them: the talk's whole, specific title with invented authors is H3."""
    r = check(
        famous,
        "Jane Doe and Rick Roe. Convex optimization: from embedded real-time to large-scale distributed. In "
        "Proceedings of the 17th ACM SIGKDD International Conference on Knowledge Discovery and Data Mining "
        "(KDD), 2011.",
        ".txt",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H3"), r.verdict.rationale


@pytest.mark.parametrize(("pages", "real"), [("59--60", True), ("107--108", True), ("211--212", False)])
def test_pages_are_contradicted_only_by_every_record_of_the_cited_version(store: Store, pages: str, real: bool) -> None:
    """A venue-year may hold two records of one title by the same people (a paper and its poster in the conference
    companion), each with its own pages: the cited pages of either are no contradiction; pages of neither are."""
    r = check(
        store,
        "@inproceedings{kay95, author = {Kay, Jennifer S.}, title = {STRIPE: remote driving using limited image data}, "
        f"booktitle = {{CHI 95 Conference Companion}}, pages = {{{pages}}}, year = {{1995}}}}",
    )
    assert (r.verdict.class_ == "Real") == real, r.verdict.rationale
    if not real:
        assert r.verdict.class_ == "Hallucinated" and "pages" in r.verdict.fields, r.verdict.rationale
