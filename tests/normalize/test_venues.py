"""Venue aliases, abbreviations and acronyms compare equal; different venues do not."""

from __future__ import annotations

from citetracer.normalize.venues import is_known, is_preprint, same_venue, spells, venue_id


def test_aliases_of_known_venues() -> None:
    for alias in (
        "NeurIPS",
        "NIPS 2017",
        "Advances in Neural Information Processing Systems 30",
        "Proceedings of the 35th Conference on Neural Information Processing Systems",
    ):
        assert venue_id(alias) == "neurips", alias
    long_name = "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"
    assert venue_id(long_name) == "cvpr"
    assert venue_id("CVPR Workshops") == "cvprw"
    assert venue_id("ICML Workshop on Something") == "icml-workshop"


def test_same_and_different_venues() -> None:
    assert same_venue("J. Mach. Learn. Res.", "Journal of Machine Learning Research")
    assert same_venue("Frontiers in cardiovascular medicine", "Frontiers in Cardiovascular Medicine")
    assert same_venue("J. Comput. Chem. Biol.", "Journal of Computational Chemistry and Biology")
    assert same_venue("JCCB", "Journal of Computational Chemistry and Biology")
    assert not same_venue("ICML", "NeurIPS")
    assert not same_venue("Symposium on Neural Scaling Laws", "NeurIPS")
    assert not same_venue("Nature", "Nature Communications")


def test_known_and_preprint() -> None:
    assert is_known("AAAI") and not is_known("Conference on Reward Learning and Alignment")
    assert is_preprint("arXiv preprint arXiv:2001.08361") and is_preprint("CoRR")
    assert not is_preprint("ICLR")


def test_spellings_of_a_venue_that_no_table_lists() -> None:
    """Real venue names from real reference lists, against the names DBLP gives the venue."""
    www = "Proceedings of the 16th International Conference on World Wide Web, WWW 2007, Banff, Alberta, Canada"
    assert spells("16th International Conference on World Wide Web", www)
    assert spells(
        "Annual cryptology conference", "Advances in Cryptology - CRYPTO 2012 - 32nd Annual Cryptology Conference"
    )
    assert spells("ACM SIGCSE Bulletin", "Proceedings of the 6th Annual SIGCSE Conference on Innovation and Technology")
    assert spells("Cryptology ePrint Archive", "IACR Cryptology ePrint Archive")
    assert spells("ACM Transactions on Intelligent Systems and Technology (TIST)", "ACM TIST")
    assert spells("Computational Biology", "J. Comput. Biol.")  # cut short by extraction
    assert spells("Sixth Annual International Conference on Mobile Computing and Networks (Mobi-COM '00)", "MOBICOM")


def test_other_venues_are_not_spellings() -> None:
    assert not spells("ICML", "NeurIPS")
    assert not spells(
        "International Journal of Representation Learning", "International Conference on Learning Representations"
    )
    assert not spells(
        "International Conference on Quantum Machine Learning", "International Conference on Machine Learning"
    )
    assert not spells(
        "Symposium on Neural Scaling Laws", "Proceedings of the 32nd International Conference on Machine Learning"
    )
    assert not spells(
        "Pacific Rim Symposium on Neural Information Systems", "Advances in Neural Information Processing Systems"
    )


def test_a_venue_held_at_another_is_not_its_host() -> None:
    from citetracer.normalize.venues import venue_id

    # CoNLL 2003 met at HLT-NAACL: read as NAACL, its covered year made a real CoNLL paper "absent" (H1).
    assert venue_id("Proceedings of the Seventh Conference on Natural Language Learning at HLT-NAACL 2003") != "naacl"
    assert venue_id("HLT-NAACL 2003") == "naacl"
    assert venue_id("Workshop on Representation Learning at NeurIPS 2020") == "neurips-workshop"
