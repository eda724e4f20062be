"""Each field's normalizer turns the span the tagger labelled into the field's value."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citetracer.extract.fields import normalizers


@pytest.mark.parametrize(
    ("span", "text", "title"),
    [
        ("Sparse attention for long documents.", "Garcia, M. (2019). Sparse attention for long documents. JMLR.",
         "Sparse attention for long documents"),
        # A quoted title is whole, periods and all, and ends at its closing quote.
        ('"Le Droit à la ville.', 'E. Pereira, "Le Droit à la ville. Cheminements." Revue 75, 2011.',
         "Le Droit à la ville. Cheminements"),
        ("“Monotone data flow analysis frameworks,” Acta", "J. Kam, “Monotone data flow analysis frameworks,” Acta",
         "Monotone data flow analysis frameworks"),
        ("", "Collman, J. P. Acc. Chem. Res. 10, 265 (1977).", None),
        ("Kernel {$k$}-means,", "A. B. Kernel {$k$}-means, 2004.", "Kernel k-means"),
    ],
)  # fmt: skip
def test_title(span: str, text: str, title: str | None) -> None:
    assert normalizers.title(span, text) == title


@pytest.mark.parametrize(
    ("span", "after_editors", "venue"),
    [
        ("In Proceedings of the 58th Annual Meeting of the ACL,", False, "58th Annual Meeting of the ACL"),
        ("In: Lecture Notes in Computer Science.", False, "Lecture Notes in Computer Science"),
        ("Journal of Machine Learning Research,", False, "Journal of Machine Learning Research"),
        ("Proceedings of the 2nd Conference on Simulation", True, "2nd Conference on Simulation"),
        ("Proceedings of the 2nd Conference on Simulation", False, "Proceedings of the 2nd Conference on Simulation"),
        ("In", False, None),
        ("12,", False, None),
    ],
)
def test_venue(span: str, after_editors: bool, venue: str | None) -> None:
    assert normalizers.venue(span, after_editors) == venue


@pytest.mark.parametrize(
    ("span", "pages"),
    [("pp. 113–140.", "113-140"), ("S. 3-9", "3-9"), ("p. A62.", "A62"), ("e1003118.", "e1003118"),
     ("1585-7.", "1585-7"), ("pages 1--9,", "1-9"), ("pp.", None)],
)  # fmt: skip
def test_pages(span: str, pages: str | None) -> None:
    assert normalizers.pages(span) == pages


@pytest.mark.parametrize(
    ("span", "volume", "issue"),
    [("Vol. 20(4),", "20", "4"), ("37(7):", "37", "7"), ("2000;355(9222):", "355", "9222"), ("1998;71:", "71", None),
     ("Bd. XII,", "XII", None), ("v. 19,", "19", None), ("no", None, None)],
)  # fmt: skip
def test_volume_and_issue(span: str, volume: str | None, issue: str | None) -> None:
    assert normalizers.volume(span) == volume
    assert normalizers.issue(span) == issue


@pytest.mark.parametrize(
    ("span", "year"),
    [("(2009, June 29).", 2009), ("1989 [1972].", 1989), ("2015a,", 2015), ("Jul. 1977", 1977), ("n.d.", None),
     ("(12345)", None), ("9(8):1735-1780, 1997.", 1997), ("1998-2001", None)],
)  # fmt: skip
def test_date(span: str, year: int | None) -> None:
    assert normalizers.date(span) == year


@given(st.text(max_size=80))
def test_normalizers_never_fail_and_return_their_span_s_own_text(span: str) -> None:
    for value in (normalizers.venue(span), normalizers.pages(span), normalizers.volume(span)):
        assert value is None or value.replace("-", "") in span.replace("-", "").replace("–", "") or value in span
    year = normalizers.date(span)
    assert year is None or str(year) in span
    normalizers.title(span, span)


@pytest.mark.parametrize(
    ("run", "title"),
    [
        ("Orden Mesostigmata. In: A Manual of Acarology", "Orden Mesostigmata"),
        ("The Europeans, in Novels, 1871–1880", "The Europeans"),
        ("Dom Casmurro, trans. John Gledson", "Dom Casmurro"),
        ("The Day after Tomorrow. Dir. Roland Emmerich", "The Day after Tomorrow"),
        ("Operationalizing the model, in: Technologies for homeland security", "Operationalizing the model"),
        ("Salinity processes. Retrieved from Australasian Digital Theses", "Salinity processes"),
        ("GPGPU at the LHCb Trigger, Technical Report CERN-LHCb-PUB-2014-034", "GPGPU at the LHCb Trigger"),
        ("Guided tour, https:/ /www.m5.ma.tum.de", "Guided tour,"),
        ("Molecular Quantum Electrodynamics (Dover", "Molecular Quantum Electrodynamics "),
        ("The Jacaranda atlas, 3rd edn,", "The Jacaranda atlas"),
        ("Lattice Models,1st", "Lattice Models"),
        ("Labyrinthe: Erscheinungsformen. Revised and expanded", "Labyrinthe: Erscheinungsformen"),
        # What is part of a title stays.
        ("In Memoriam A. H. H.", "In Memoriam A. H. H."),
        ("Coding in Practice, in Theory", "Coding in Practice"),
        ("Sorting in place", "Sorting in place"),
        ("Private Power, Online Information Flows and EU Law", "Private Power, Online Information Flows and EU Law"),
        ("Foundations (ICML) of learning", "Foundations (ICML) of learning"),
        ("A dissertation on the theory of dissertations", "A dissertation on the theory of dissertations"),
        ("History of Hanover, New Hampshire", "History of Hanover, New Hampshire"),
        ("Committee Assignments, 103rd to 112th Congresses", "Committee Assignments, 103rd to 112th Congresses"),
        ("The second edition of war", "The second edition of war"),
    ],
)
def test_a_title_run_is_cut_where_the_title_ends(run: str, title: str) -> None:
    assert normalizers.cut_run(run) == title


def test_a_nested_quotation_is_read_from_its_outer_quote() -> None:
    text = "Fahrni, Magda. “‘Elles sont partout’: les femmes et la ville, 1918-1920.” Revue d’histoire 58 (2004)."
    assert (
        normalizers.title("“‘Elles sont partout’: les femmes", text)
        == "‘Elles sont partout’: les femmes et la ville, 1918-1920"
    )
