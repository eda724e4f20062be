"""Venue aliases, abbreviations and acronyms compare equal; different venues do not."""

from __future__ import annotations

from citetracer.match.venues import is_known, is_preprint, same_venue, venue_id


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
