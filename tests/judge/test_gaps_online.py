"""A gap in the answers is not a fact about the work: online, against a fake web shaped like the real one.

Each honest citation below meets one way the real services answer that held out ICLR 2026 papers
showed to end in false accusations (a published paper whose OpenAlex record is its arXiv version, a
proceedings version under another title, ...). Beside each, the fabrication of the same shape that
must still be caught. Real pipeline, real HTTP, an empty store, a fake web on 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakeweb.checking import check, serve
from tests.fakeweb.server import FakeWeb

ARXIV = "arXiv (Cornell University)"

#: One work as each service holds it: `services` says which services serve that record.
RECORDS: list[dict[str, Any]] = [
    # A published ICML paper: OpenAlex and Semantic Scholar hold only its arXiv version, DBLP both.
    {"id": "flat-arxiv", "title": "Sharpness-aware training widens flat minima in transformers",
     "authors": ["Ana Mora", "Li Wei", "Tom Berg"], "year": 2023, "venue": ARXIV, "type": "preprint",
     "arxiv_id": "2301.04321", "services": ["openalex", "semanticscholar", "arxiv"]},
    {"id": "flat-corr", "title": "Sharpness-aware training widens flat minima in transformers",
     "authors": ["Ana Mora", "Li Wei", "Tom Berg"], "year": 2023, "venue": "CoRR", "type": "article",
     "dblp_key": "journals/corr/abs-2301-04321", "services": ["dblp"]},
    {"id": "flat-icml", "title": "Sharpness-aware training widens flat minima in transformers",
     "authors": ["Ana Mora", "Li Wei", "Tom Berg"], "year": 2023, "venue": "ICML", "type": "inproceedings",
     "dblp_key": "conf/icml/MoraWB23", "services": ["dblp"]},
    # A preprint renamed in its proceedings version (ICLR 2024): the indexes hold the arXiv title only.
    {"id": "widgets-arxiv", "title": "Graph widgets learn sparse attention maps",
     "authors": ["Rui Costa", "Ines Duarte"], "year": 2024, "venue": ARXIV, "type": "preprint",
     "arxiv_id": "2402.01234", "services": ["openalex", "semanticscholar", "arxiv"]},
    {"id": "widgets-corr", "title": "Graph widgets learn sparse attention maps",
     "authors": ["Rui Costa", "Ines Duarte"], "year": 2024, "venue": "CoRR", "type": "article",
     "dblp_key": "journals/corr/abs-2402-01234", "services": ["dblp"]},
    {"id": "widgets-iclr", "title": "Sparse attention maps from graph widgets",
     "authors": ["Rui Costa", "Ines Duarte"], "year": 2024, "venue": "ICLR", "type": "inproceedings",
     "dblp_key": "conf/iclr/CostaD24", "services": ["dblp"]},
    # A preprint that never appeared at a conference: every index, DBLP included, holds the arXiv version.
    {"id": "lonely-arxiv", "title": "Contrastive lattice priors for monocular depth completion",
     "authors": ["Kai Holm", "Sara Lind"], "year": 2023, "venue": ARXIV, "type": "preprint",
     "arxiv_id": "2305.05555", "services": ["openalex", "semanticscholar", "arxiv"]},
    {"id": "lonely-corr", "title": "Contrastive lattice priors for monocular depth completion",
     "authors": ["Kai Holm", "Sara Lind"], "year": 2023, "venue": "CoRR", "type": "article",
     "dblp_key": "journals/corr/abs-2305-05555", "services": ["dblp"]},
    {"id": "lonely-other", "title": "Self-supervised stereo from rolling shutter video",
     "authors": ["Kai Holm", "Sara Lind"], "year": 2023, "venue": "CVPR", "type": "inproceedings",
     "dblp_key": "conf/cvpr/HolmL23", "services": ["dblp", "openalex", "semanticscholar"]},
    # A preprint DBLP holds with no other work of its authors that year: its list echoes a title search.
    {"id": "solo-arxiv", "title": "Spectral pruning of recurrent world models for planning under uncertainty",
     "authors": ["Ola Brun", "Pia Dahl"], "year": 2022, "venue": ARXIV, "type": "preprint",
     "arxiv_id": "2207.07777", "services": ["openalex", "semanticscholar", "arxiv"]},
    {"id": "solo-corr", "title": "Spectral pruning of recurrent world models for planning under uncertainty",
     "authors": ["Ola Brun", "Pia Dahl"], "year": 2022, "venue": "CoRR", "type": "article",
     "dblp_key": "journals/corr/abs-2207-07777", "services": ["dblp"]},
    # A preprint DBLP does not hold at all (its authors unknown to it): no list of theirs can be read.
    {"id": "unlisted-arxiv", "title": "Prompted reward shaping for sparse robotic manipulation tasks",
     "authors": ["Noor Haddad", "Elif Kaya"], "year": 2023, "venue": ARXIV, "type": "preprint",
     "arxiv_id": "2306.06666", "services": ["openalex", "semanticscholar", "arxiv"]},
    # A 1955 classic whose index records carry its 2010 re-deposit as their year.
    {"id": "classic", "title": "Diffusion of heat in stratified granular beds under periodic forcing",
     "authors": ["Harold Whitcombe", "Edith Marlow"], "year": 2010, "venue": "Journal of Applied Mechanics",
     "type": "article", "doi": "10.1115/1.4011234"},
    # A 2013 journal article (its DOI says so) whose index records say 2015.
    {"id": "neuron", "title": "Dendritic gating of place cell bursts in the dorsal hippocampus",
     "authors": ["Mira Stolz", "Owen Pike", "Lena Farr"], "year": 2015, "venue": "Neuron", "type": "article",
     "doi": "10.1016/j.neuron.2013.05.012"},
    # A conference paper: DBLP's year is its first appearance.
    {"id": "ranking", "title": "Learning to rank from partially ordered implicit feedback streams",
     "authors": ["Yara Quist", "Bo Lindqvist"], "year": 2015, "venue": "KDD", "type": "inproceedings",
     "dblp_key": "conf/kdd/QuistL15"},
    # Venues as the services spell them: a journal's short name, a reprint's original venue.
    {"id": "philtrans", "title": "Nonlinear dispersion of tidal currents over rippled sand beds",
     "authors": ["Agnes Thornby", "Wen Hao"], "year": 2014,
     "venue": "Philosophical Transactions of the Royal Society A",
     "type": "article", "doi": "10.1098/rsta.2014.0123"},
    {"id": "fusion", "title": "Fusion, propagation, and structuring in belief networks",
     "authors": ["Judea Pearl"], "year": 1986, "venue": "Artificial Intelligence", "type": "article",
     "doi": "10.1016/0004-3702(86)90072-x"},
    {"id": "jacm", "title": "A relational calculus for quantified constraint satisfaction over trees",
     "authors": ["Petra Vogt", "Emil Strand"], "year": 2009, "venue": "Journal of the ACM", "type": "article",
     "doi": "10.1145/1502793.1502799"},
    # The authors' own variant of their title, same journal and year.
    {"id": "peer", "title": "Challenges, experiments, and computational solutions in peer review",
     "authors": ["Nihar B. Shah"], "year": 2022, "venue": "Communications of the ACM", "type": "article",
     "doi": "10.1145/3528086"},
    # A record listing the first 8 of a long author list.
    {"id": "cut8", "title": "A multi-site benchmark of foundation models for retinal imaging",
     "authors": ["Ada Quinn", "Bo Reyes", "Cai Sato", "Dee Tan", "Eli Uhl", "Fay Vo", "Gus Wren", "Hal Xu"],
     "year": 2024, "venue": "Nature Medicine", "type": "article", "doi": "10.1038/s41591-024-01234-5"},
    # OpenAlex's record of a long author list, cut at its first 8 names with no marker.
    {"id": "cut8-oa", "title": "Federated calibration of wearable glucose sensors across clinical sites",
     "authors": ["Ana Lund", "Ben Moss", "Cai Zhang", "Dan Ruiz", "Eva Holm", "Finn Berg", "Gia Tran", "Hugo Lam"],
     "year": 2023, "venue": "npj Digital Medicine", "type": "article", "services": ["openalex"]},
    # OpenAlex's record of a two-author paper: a short list, no service's cut length.
    {"id": "short2-oa", "title": "Predicting the containment time of wildfires from satellite burn scars",
     "authors": ["Shashank Bhardwaj", "Mina Okafor"], "year": 2025, "type": "article",
     "venue": "Remote Sensing of Environment", "services": ["openalex"]},
    # One title held by two works: a 2022 article by some people, and the 2025 "Towards ..." version of
    # that title by others (a later paper of the same project).
    {"id": "fields22", "title":
     "High resolution, annual maps of field boundaries for smallholder-dominated croplands at national scales",
     "authors": ["Lyndon Estes", "Su Ye", "Lei Song", "Boka Luo"], "year": 2022,
     "venue": "Frontiers in Artificial Intelligence", "type": "article", "services": ["openalex"]},
    {"id": "fields25", "title":
     "Towards high-resolution annual maps of field boundaries for smallholder-dominated croplands at national scales",
     "authors": ["Sara Khallaghi", "Rahebe Abedi", "Hanan Abou Ali", "Mary Dziedzorm Asipunu"], "year": 2025,
     "type": "preprint", "services": ["openalex"]},
    # One work as OpenAlex and Crossref both hold it: two records, one title, four authors.
    {"id": "puncta", "title": "Extraction of fluorescent cell puncta by adaptive fuzzy segmentation",
     "authors": ["Tuan D. Pham", "Denis I. Crane", "Tuan H. Tran", "Tam H. Nguyen"], "year": 2004,
     "venue": "Bioinformatics", "type": "article", "doi": "10.1093/bioinformatics/bth213",
     "services": ["openalex", "crossref"]},
    # A whole list (DBLP) that a fabrication pads inside.
    {"id": "whole3", "title": "Sublinear regret for adversarial bandits with delayed graph feedback",
     "authors": ["Iris Olsen", "Jon Park", "Kim Lund"], "year": 2019, "venue": "COLT", "type": "inproceedings",
     "dblp_key": "conf/colt/OlsenPL19"},
    # Regrouped names: the record lists Dag Arne Osvik, Adi Shamir, Eran Tromer.
    {"id": "aes", "title": "Cache attacks and countermeasures: the case of AES",
     "authors": ["Dag Arne Osvik", "Adi Shamir", "Eran Tromer"], "year": 2006, "venue": "CT-RSA",
     "type": "inproceedings", "dblp_key": "conf/ctrsa/OsvikST06", "doi": "10.1007/11605805_1"},
    # A book, and a chapter of the same generic title by others.
    {"id": "nnpr-chapter", "title": "Neural networks for pattern recognition",
     "authors": ["Mark Oldfield", "Sue Pike"], "year": 1993, "venue": "Advances in Computers", "type": "article",
     "doi": "10.1016/s0065-2458(08)60404-0"},
    {"id": "bishop-other", "title": "Pattern recognition and machine learning", "authors": ["Christopher M. Bishop"],
     "year": 2006, "venue": "Springer", "type": "book"},
    # A work the indexes hold under its main title only (the subtitle dropped).
    {"id": "sins", "title": "The seven habits of episodic forgetting",
     "authors": ["Daniel Lowry"], "year": 1999, "venue": "American Psychologist", "type": "article",
     "doi": "10.1037/0003-066x.54.3.999", "services": ["openalex", "semanticscholar"]},
    # A generic head title with a subtitle, by others, years after a textbook of that head title.
    {"id": "fea", "title": "Finite element analysis: Method, verification and validation",
     "authors": ["Barna Szabo", "Ivo Babuska"], "year": 2021, "venue": "Wiley", "type": "book",
     "services": ["openalex", "semanticscholar"]},
    # This year's preprint, its authors' other work of the year, and ICLR 2026 as DBLP lists it (NeurIPS
    # 2026 it does not list yet).
    {"id": "now-arxiv", "title": "Annealed token routing for sparse mixture-of-experts decoders",
     "authors": ["Lena Okafor", "Raj Pillai"], "year": 2026, "venue": ARXIV, "type": "preprint",
     "arxiv_id": "2602.01111", "services": ["openalex", "semanticscholar", "arxiv"]},
    {"id": "now-corr", "title": "Annealed token routing for sparse mixture-of-experts decoders",
     "authors": ["Lena Okafor", "Raj Pillai"], "year": 2026, "venue": "CoRR", "type": "article",
     "dblp_key": "journals/corr/abs-2602-01111", "services": ["dblp"]},
    {"id": "now-other", "title": "Calibrated early exits for speculative decoding on edge devices",
     "authors": ["Lena Okafor", "Raj Pillai"], "year": 2026, "venue": "AAAI", "type": "inproceedings",
     "dblp_key": "conf/aaai/OkaforP26", "services": ["dblp", "openalex", "semanticscholar"]},
    # Last year's preprint and its authors' other work of that year: NeurIPS of last December, which DBLP does
    # not list yet.
    {"id": "last-arxiv", "title": "Sparse reward relabelling for long-horizon robotic assembly",
     "authors": ["Tomas Brenner", "Ayla Demir"], "year": 2025, "venue": ARXIV, "type": "preprint",
     "arxiv_id": "2507.02222", "services": ["openalex", "semanticscholar", "arxiv"]},
    {"id": "last-corr", "title": "Sparse reward relabelling for long-horizon robotic assembly",
     "authors": ["Tomas Brenner", "Ayla Demir"], "year": 2025, "venue": "CoRR", "type": "article",
     "dblp_key": "journals/corr/abs-2507-02222", "services": ["dblp"]},
    {"id": "last-other", "title": "Tactile servoing with learned contact manifolds",
     "authors": ["Tomas Brenner", "Ayla Demir"], "year": 2025, "venue": "ICRA", "type": "inproceedings",
     "dblp_key": "conf/icra/BrennerD25", "services": ["dblp", "openalex", "semanticscholar"]},
    # A software manual whose only record an index dates by an arXiv identifier of a later year.
    {"id": "qlang", "title": "Qlang: A language and environment for statistical computing",
     "authors": ["Qlang Core Team"], "year": 2021, "venue": ARXIV, "type": "preprint",
     "arxiv_id": "2107.04152", "services": ["openalex", "semanticscholar", "arxiv"]},
    *[{"id": f"iclr26-{i}", "title": f"Benchmark study number {i} of iterative graph sparsifiers",
       "authors": [f"Ida Vance{i}"], "year": 2026, "venue": "ICLR", "type": "inproceedings",
       "dblp_key": f"conf/iclr/Vance{i}26", "services": ["dblp"]} for i in range(25)],
    # A journal article whose DOI a PDF's line break cuts in two.
    {"id": "cogsci", "title": "Controlled and automatic processing of visual search targets",
     "authors": ["Walter Schnell", "Jason Chen"], "year": 2003, "venue": "Cognitive Science", "type": "article",
     "doi": "10.1207/s15516709cog2703_9"},
    # A DOI-less proceedings paper: OpenAlex names its conference alone; DBLP's volume names the city and
    # the publisher (on the volume's record only, as DBLP writes them).
    {"id": "fjord", "title": "Incremental checkpointing of fjord streams on wimpy nodes",
     "authors": ["Olga Petrenko", "Mads Krog"], "year": 2012, "venue": "EuroSys Workshops", "type": "inproceedings",
     "dblp_key": "conf/eurosys/PetrenkoK12", "crossref": "conf/eurosys/2012w", "publisher": "ACM",
     "proceedings_title": "Proceedings of the EuroSys 2012 Workshops, Bern, Switzerland, April 10, 2012",
     "services": ["openalex", "dblp"]},
    # A conference paper whose year OpenAlex states alone; DBLP's volume dates the meeting.
    {"id": "lattice", "title": "Sparse lattice hashing for streaming join estimation",
     "authors": ["Ines Moura", "Tarek Haddou"], "year": 2015, "venue": "KDD", "type": "inproceedings",
     "dblp_key": "conf/kdd/MouraH15", "crossref": "conf/kdd/2015", "publisher": "ACM",
     "proceedings_title": "Proceedings of the 21th ACM SIGKDD International Conference on Knowledge Discovery and "
     "Data Mining, Sydney, NSW, Australia, August 10-13, 2015", "services": ["openalex", "dblp"]},
    # A paper of a conference no venue list knows: OpenAlex types it "article", DBLP as a conference paper.
    {"id": "gossip", "title": "Bounded gossip for quorum repair in wide-area object stores",
     "authors": ["Lotte Brenner", "Kofi Mensah"], "year": 2015, "venue": "WADOS", "type": "inproceedings",
     "dblp_key": "conf/wados/BrennerM15", "services": ["dblp"]},
    {"id": "gossip-oa", "title": "Bounded gossip for quorum repair in wide-area object stores",
     "authors": ["Lotte Brenner", "Kofi Mensah"], "year": 2015, "type": "inproceedings",
     "venue": "9th International Conference on Wide-Area Distributed Object Stores, WADOS 2015",
     "services": ["openalex"]},
    # A journal article DBLP holds whose Crossref record carries the year, two after DBLP's
    # (the volume's year, which DBLP dates its articles by).
    {"id": "hammer-cr", "title": "Iterative identification of sampled Hammerstein systems with sparse output gaps",
     "authors": ["Lina Xiang", "Rui Deng"], "year": 2015, "venue": "European Journal of Operational Research",
     "type": "article", "volume": "90", "doi": "10.1016/j.ejor.2015.01.991", "services": ["crossref", "openalex"]},
    {"id": "hammer-dblp", "title": "Iterative identification of sampled Hammerstein systems with sparse output gaps",
     "authors": ["Lina Xiang", "Rui Deng"], "year": 2013, "venue": "Eur. J. Oper. Res.", "type": "article",
     "volume": "90", "dblp_key": "journals/eor/XiangD13", "services": ["dblp"]},
    # OpenAlex's record names the first two of three authors; DBLP's, of the same proceedings paper, all three.
    {"id": "quill-oa", "title": "Adaptive quill sampling for sparse neural radiance caches",
     "authors": ["Noor Haddad", "Ilse Brandt"], "year": 2019, "venue": "ICCV", "type": "inproceedings",
     "services": ["openalex"]},
    {"id": "quill-dblp", "title": "Adaptive quill sampling for sparse neural radiance caches",
     "authors": ["Noor Haddad", "Ilse Brandt", "Pavel Orlov"], "year": 2019, "venue": "ICCV",
     "type": "inproceedings", "dblp_key": "conf/iccv/HaddadBO19", "services": ["dblp"]},
    # A paper of a symposium no venue list knows, typed "article" as OpenAlex types proceedings papers.
    {"id": "apnoms", "title": "Handover self-tuning from cell traces with gradient-boosted policies",
     "authors": ["Wen Shu", "Chien Lee"], "year": 2014, "type": "article",
     "venue": "The 16th Asia-Pacific Network Operations and Management Symposium, APNOMS 2014",
     "services": ["openalex", "crossref"], "doi": "10.1109/apnoms.2014.6996512"},
    # A workshop paper of a conference the venue table knows, under the workshop's own acronym.
    {"id": "cvprw", "title": "Thermal saliency priors for drone footage under fog",
     "authors": ["Ana Kovac", "Pim Steen"], "year": 2020, "type": "article",
     "venue": "IEEE/CVF Conference on Computer Vision and Pattern Recognition Workshops, CVPRW 2020",
     "services": ["openalex", "crossref"], "doi": "10.1109/cvprw50498.2020.00123"},
    # A deposit listing the first 8 of 9 authors.
    {"id": "iedb8", "title": "The immune epitope catalogue: a decade of curated assays",
     "authors": ["Randa Vitt", "Sam Mahal", "Jim Overby", "Sandy Dhan", "Silvia Marti", "Jay Cantor", "Derek Wheel",
                 "Alex Setta"],
     "year": 2019, "venue": "Nucleic Acids Research", "type": "article", "doi": "10.1093/nar/gky9999",
     "services": ["crossref", "doi"]},
]  # fmt: skip


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FakeWeb]:
    yield from serve(RECORDS, tmp_path_factory.mktemp("gaps"))


def test_a_published_paper_whose_index_records_are_its_preprint_is_not_accused(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Ana Mora, Li Wei, and Tom Berg. Sharpness-aware training widens flat minima in transformers. "
        "In International Conference on Machine Learning, 2023.",
    )
    assert r.verdict.class_ == "Real", r.verdict.rationale
    assert any(e["id"] == "conf/icml/MoraWB23" for e in r.verdict.evidence), r.verdict.evidence


def test_a_proceedings_version_under_another_title_is_no_fabrication(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Rui Costa and Ines Duarte. Graph widgets learn sparse attention maps. In The Twelfth International "
        "Conference on Learning Representations (ICLR), 2024.",
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale
    assert "conf/iclr/CostaD24" in r.verdict.rationale


def test_a_preprint_the_venue_lister_does_not_hold_is_not_confirmed_not_accused(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Noor Haddad and Elif Kaya. Prompted reward shaping for sparse robotic manipulation tasks. "
        "In Conference on Robot Learning (CoRL), 2023.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P3"), r.verdict.rationale
    assert "published version is not confirmed" in r.verdict.rationale


def test_a_preprint_cited_as_published_where_dblp_lists_the_authors_year_is_caught(
    web: FakeWeb, tmp_path: Path
) -> None:
    r = check(
        web,
        tmp_path,
        "Kai Holm and Sara Lind. Contrastive lattice priors for monocular depth completion. "
        "In IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR), 2023.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "listed every work of the cited authors in that year" in (r.verdict.basis or "")


def test_this_years_venue_dblp_already_lists_witnesses_a_preprint_cited_as_published(
    web: FakeWeb, tmp_path: Path
) -> None:
    """This year's proceedings may not be in DBLP yet; a venue-year it already lists (ICLR 2026 here) is read
    whole, so a preprint cited there is caught, while one cited at a venue-year it does not list yet is not."""
    cited = "Lena Okafor and Raj Pillai. Annealed token routing for sparse mixture-of-experts decoders. In {}, 2026."
    r = check(web, tmp_path, cited.format("International Conference on Learning Representations (ICLR)"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    r = check(web, tmp_path, cited.format("Advances in Neural Information Processing Systems (NeurIPS)"))
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P3"), r.verdict.rationale
    assert "may not list the proceedings of 2026 yet" in r.verdict.rationale


def test_last_years_venue_dblp_does_not_list_yet_witnesses_nothing(web: FakeWeb, tmp_path: Path) -> None:
    """DBLP ingests a proceedings volume weeks to months after the meeting: last December's conference may not
    be in it yet, so its list of the authors' works of that year lacking the paper proves nothing."""
    r = check(
        web,
        tmp_path,
        "Tomas Brenner and Ayla Demir. Sparse reward relabelling for long-horizon robotic assembly. In Advances "
        "in Neural Information Processing Systems (NeurIPS), 2025.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P3"), r.verdict.rationale
    assert "may not list the proceedings of 2025 yet" in r.verdict.rationale


def test_a_preprint_cited_by_its_arxiv_id_at_a_later_revisions_year_is_that_revision(
    web: FakeWeb, tmp_path: Path
) -> None:
    """arXiv keeps every revision of a work under one identifier, and an author cites the version read (Adam's
    ninth version is of 2017, its first of 2014): a year after the identifier was issued is a revision's. A year
    before it was issued is no version's."""
    cited = "Tomas Brenner and Ayla Demir. Sparse reward relabelling for long-horizon robotic assembly, {}. URL https://arxiv.org/abs/2507.02222."
    r = check(web, tmp_path, cited.format(2026))
    assert (r.verdict.class_, r.verdict.code) == ("Real", "R2"), r.verdict.rationale
    assert "later revision" in r.verdict.rationale
    r = check(web, tmp_path, cited.format(2022))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "arXiv identifier" in r.verdict.rationale


def test_an_arxiv_identifier_dates_no_software_manual(web: FakeWeb, tmp_path: Path) -> None:
    """A manual or software appears elsewhere first and goes on under one name, cited by the year of the version
    used: an arXiv identifier of a later year is no proof that the cited year is before the work existed."""
    r = check(
        web,
        tmp_path,
        "Qlang Core Team. (2019). Qlang: A language and environment for statistical computing. Qlang Foundation "
        "for Statistical Computing. https://www.qlang-project.org/",
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_record_year_that_is_a_re_deposit_is_no_proof_of_a_wrong_year(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Whitcombe, H. and Marlow, E. (1955). Diffusion of heat in stratified granular beds under periodic "
        "forcing. Journal of Applied Mechanics, 22, 41-48.",
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_year_the_doi_carries_is_the_works_year(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Stolz, M., Pike, O., & Farr, L. (2013). Dendritic gating of place cell bursts in the dorsal hippocampus. "
        "Neuron, 79(2), 312-325. doi:10.1016/j.neuron.2013.05.012",
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_year_before_a_conference_papers_first_appearance_is_caught(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Yara Quist and Bo Lindqvist. Learning to rank from partially ordered implicit feedback streams. In "
        "Proceedings of the ACM SIGKDD International Conference on Knowledge Discovery and Data Mining, 2012.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "first appearance" in (r.verdict.basis or ""), r.verdict.basis


@pytest.mark.parametrize(
    "text",
    [
        "Agnes Thornby and Wen Hao. Nonlinear dispersion of tidal currents over rippled sand beds. Philosophical "
        "Transactions of the Royal Society of London A: Mathematical, Physical and Engineering Sciences, "
        "372:20140123, 2014.",
        "Judea Pearl. Fusion, propagation, and structuring in belief networks. In Probabilistic and Causal "
        "Inference: The Works of Judea Pearl, pages 139-188. 2022.",
        "Petra Vogt and Emil Strand. A relational calculus for quantified constraint satisfaction over trees. "
        "Journal of the Association, 56(3), 2009.",
    ],
    ids=["extended-journal-name", "collection-title", "name-cut-short"],
)
def test_a_venue_like_a_known_one_is_never_no_venue(web: FakeWeb, tmp_path: Path, text: str) -> None:
    r = check(web, tmp_path, text)
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_venue_like_nothing_known_is_still_caught(web: FakeWeb, tmp_path: Path) -> None:
    """A journal name like none of any list nor of OpenAlex's sources (which hold journals whole)."""
    r = check(
        web,
        tmp_path,
        "Petra Vogt and Emil Strand. A relational calculus for quantified constraint satisfaction over trees. "
        "International Journal of Neural Scaling Laws, 2009.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale


def test_a_conference_name_no_list_holds_is_a_gap_online(web: FakeWeb, tmp_path: Path) -> None:
    """OpenAlex's sources are no list of every conference (CEUR-WS volumes, society meetings), and DBLP's holds
    computer science only: another field's paper cited at a conference they lack is not confirmed."""
    r = check(
        web,
        tmp_path,
        "Harold Whitcombe and Edith Marlow. Diffusion of heat in stratified granular beds under periodic forcing. "
        "In Proceedings of the Symposium on Coastal Sediment Dynamics, 2010.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P3"), r.verdict.rationale


def test_the_authors_own_variant_of_their_title_is_the_same_work(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Nihar B. Shah. An overview of challenges, experiments, and computational solutions in peer review. "
        "Communications of the ACM, 65(6):76-87, 2022.",
    )
    assert r.verdict.class_ == "Real", r.verdict.rationale


def test_a_title_one_word_off_by_the_same_authors_is_still_a_near_miss(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Nihar B. Shah. Challenges, experiments, and computational remedies in peer review. Communications of the "
        "ACM, 65(6):76-87, 2022.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H2"), r.verdict.rationale


def test_names_beyond_a_record_cut_at_eight_are_not_padding(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Ada Quinn, Bo Reyes, Cai Sato, Dee Tan, Eli Uhl, Fay Vo, Gus Wren, Hal Xu, Ivo Young, Jia Zhou, Kai Abe, "
        "Lea Berg, et al. A multi-site benchmark of foundation models for retinal imaging. Nature Medicine, 2024.",
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


@pytest.mark.parametrize("tail", [", et al.", ", and Lea Berg."])
def test_a_long_list_a_service_cut_identifies_the_work_and_leaves_the_rest_unchecked(
    web: FakeWeb, tmp_path: Path, tail: str
) -> None:
    """The record's eight names are the cited list's first eight, in order: a long list a service cut. Its names
    identify the work and say nothing of the names past its end: Real R3 (the record lacks them), not P3."""
    r = check(
        web,
        tmp_path,
        "Ada Quinn, Bo Reyes, Cai Sato, Dee Tan, Eli Uhl, Fay Vo, Gus Wren, Hal Xu, Ivo Young, Jia Zhou, Kai Abe"
        f"{tail} A multi-site benchmark of foundation models for retinal imaging. Nature Medicine, 2024.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Real", "R3"), r.verdict.rationale
    assert "cut short" in r.verdict.rationale, r.verdict.rationale


@pytest.mark.parametrize(
    ("cited", "first_name"),
    [
        # It skips the record's third and fourth names: its ninth stands where the work's eleventh may.
        (
            "Ada Quinn, Bo Reyes, Eli Uhl, Fay Vo, Gus Wren, Hal Xu, Kai Abe, and Lea Berg. A multi-site benchmark "
            "of foundation models for retinal imaging. Nature Medicine, 2024.",
            "Bo Reyes",
        ),
        # It skips 'Cai Zhang' and 'Dan Ruiz' and names a 'Tom Zhang' (another person of that surname, a
        # given-name conflict): 'Ivo Park' may lie past OpenAlex's cut.
        (
            "Ana Lund, Ben Moss, Eva Holm, Finn Berg, Gia Tran, Hugo Lam, Ivo Park, and Tom Zhang. Federated "
            "calibration of wearable glucose sensors across clinical sites. npj Digital Medicine, 2023.",
            "Ben Moss",
        ),
    ],
    ids=["names-skipped", "a-name-paired-by-surname-only"],
)
def test_a_cited_selection_reaches_past_a_record_cut_by_the_names_it_skips(
    web: FakeWeb, tmp_path: Path, cited: str, first_name: str
) -> None:
    """A cited selection reaches as many names further into the work's list as it skips of the record's
    (a record name a cited one matches by surname only may be one of them), so a name past the record's
    cut is no padding (P3 names the skipped ones); a stranger among the record's first names is still H3."""
    r = check(web, tmp_path, cited)
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale
    r = check(web, tmp_path, cited.replace(first_name, "Nora Falk"))
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H3"), r.verdict.rationale


def test_an_invented_name_inside_a_whole_list_is_still_padding(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Iris Olsen, Aria Lin, Jon Park, and Kim Lund. Sublinear regret for adversarial bandits with delayed graph "
        "feedback. In Conference on Learning Theory (COLT), 2019.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H3"), r.verdict.rationale
    assert "Aria Lin" in r.verdict.rationale


def test_a_name_appended_to_a_short_list_no_service_cuts_is_padding(web: FakeWeb, tmp_path: Path) -> None:
    """Services cut long lists at round lengths, or leave many names out; a short list continued by one or two
    names is a fabrication's padding (CiteAudit: 'Bhardwaj Shashank and Sarah Thompson'). Three names or more
    beyond it read as a cut list, not padding."""
    title = "Predicting the containment time of wildfires from satellite burn scars. Remote Sensing of Environment, "
    title += "2025."
    r = check(web, tmp_path, f"Shashank Bhardwaj, Mina Okafor, and Sarah Thompson. {title}")
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H3"), r.verdict.rationale
    assert "Sarah Thompson" in r.verdict.rationale
    r = check(web, tmp_path, f"Shashank Bhardwaj, Mina Okafor, Ivo Park, Lea Berg, and Kai Abe. {title}")
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_the_authors_own_title_with_framing_words_is_no_chimera(web: FakeWeb, tmp_path: Path) -> None:
    """The cited title is a 2022 work's by others, and, with "Towards" before it, the cited authors' own 2025
    work: that is their work cited under another of its titles, not their names put on someone else's title.
    Their names on a title that is not theirs in any form are still an accusation (H3 or H6)."""
    title = "High-resolution annual maps of field boundaries for smallholder-dominated croplands at national scales"
    r = check(web, tmp_path, f"[12] Sara Khallaghi et al. {title}, 2025. Frontiers in Artificial Intelligence. 2")
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale
    r = check(
        web,
        tmp_path,
        "Sara Khallaghi, Rahebe Abedi, and Hanan Abou Ali. A relational calculus for quantified constraint "
        "satisfaction over trees. Journal of the ACM, 2025.",
    )
    assert r.verdict.class_ == "Hallucinated" and r.verdict.code in ("H3", "H6"), r.verdict.rationale


def test_another_record_of_the_same_work_is_no_other_title_of_theirs(web: FakeWeb, tmp_path: Path) -> None:
    """Crossref's record of the very work OpenAlex holds (the same title) is not "the cited authors' own work under
    another title": a made-up name added to the list is still padding (bench/fields.py author-added, online)."""
    r = check(
        web,
        tmp_path,
        "Tuan D. Pham, Denis I. Crane, Tuan H. Tran, Aria Petrov, and Tam H. Nguyen. Extraction of fluorescent cell "
        "puncta by adaptive fuzzy segmentation. Bioinformatics, 20(14):2189-2196, 2004.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H3"), r.verdict.rationale


def test_names_regrouped_by_extraction_are_not_invented_authors(web: FakeWeb, tmp_path: Path) -> None:
    bib = """@inproceedings{osvik, title = {Cache attacks and countermeasures: the case of {AES}},
      author = {Dag Arne Osvik Shamir and Adi and Eran Tromer}, booktitle = {CT-RSA}, year = {2006}}"""
    r = check(web, tmp_path, bib)
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_book_is_not_a_chapter_of_the_same_generic_title_by_others(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web, tmp_path, "Christopher M. Bishop. Neural networks for pattern recognition. Oxford University Press, 1995."
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


# ---------------------------------------------------------------- issue 39: detection given back


def test_a_citation_naming_no_venue_is_a_paper_for_absence(web: FakeWeb, tmp_path: Path) -> None:
    """Authors, a specific title and a year, no venue: what LLMs write most. Two broad indexes complete for
    papers answered and hold nothing of it: proven absent, and the rationale says why it was read a paper."""
    r = check(
        web,
        tmp_path,
        "Yoonwoo Lee, Jaehyeong Kang, Namil Kim, Jinwoo Shin, and Honglak Lee. Structured fast fourier transform "
        "attention for vision transformers. 2022.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H1"), r.verdict.rationale


def test_a_real_work_cited_without_a_venue_is_still_real(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Ana Mora, Li Wei, and Tom Berg. Sharpness-aware training widens flat minima in transformers. 2023.",
    )
    assert r.verdict.class_ == "Real", r.verdict.rationale


def test_software_named_without_a_venue_is_not_read_as_a_paper(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Ana Mora and Li Wei. Widgetflow: a library for differentiable widget pipelines. "
        "https://github.com/amora/widgetflow, 2023.",
    )
    assert r.verdict.class_ == "Potential", r.verdict.rationale


def test_a_conference_paper_cited_in_a_journal_held_whole_by_crossref_is_caught(web: FakeWeb, tmp_path: Path) -> None:
    """Science registers a Crossref DOI for every article: OpenAlex and Crossref answering a title search with
    no version of the work there is a fact (issue 46, 'completeness that is real')."""
    r = check(
        web,
        tmp_path,
        "Iris Olsen, Jon Park, and Kim Lund. Sublinear regret for adversarial bandits with delayed graph "
        "feedback. Science, 2019.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "every article" in (r.verdict.basis or ""), r.verdict.basis


def test_a_journal_is_no_spelling_of_a_conference_no_list_knows(web: FakeWeb, tmp_path: Path) -> None:
    """A symposium in no venue list against Physical Review Letters, held whole by Crossref: a journal and a
    conference, not one venue written two ways, so the journal's silence is a fact; the symposium's own
    name stays Real."""
    cite = "Wen Shu and Chien Lee. Handover self-tuning from cell traces with gradient-boosted policies. %s, 2014."
    r = check(web, tmp_path, cite % "Physical Review Letters")
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert "a journal" in r.verdict.rationale
    honest = check(web, tmp_path, cite % "In Asia-Pacific Network Operations and Management Symposium (APNOMS)")
    assert honest.verdict.class_ == "Real", honest.verdict.rationale


def test_a_journal_no_source_declares_whole_stays_a_gap(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Iris Olsen, Jon Park, and Kim Lund. Sublinear regret for adversarial bandits with delayed graph "
        "feedback. Journal of Applied Probability, 2019.",
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_list_holding_only_the_works_own_preprint_is_no_witness(web: FakeWeb, tmp_path: Path) -> None:
    """DBLP's answer to the authors-year question counts as their list of works only when it holds another of
    their works: an answer that is only what a title search finds may be a replay of one, not a list."""
    r = check(
        web,
        tmp_path,
        "Ola Brun and Pia Dahl. Spectral pruning of recurrent world models for planning under uncertainty. In "
        "International Conference on Machine Learning (ICML), 2022.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Potential", "P3"), r.verdict.rationale


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        (
            "Li Chen, Rasmus Kyng, Yang P. Liu, Richard Peng, Maximilian Probst Gutenberg, and Sushant Sachdeva. "
            "Maximum Flow and Minimum-Cost Flow in Almost-Linear Time, April 2022.",
            "Maximilian Probst Gutenberg, and Sushant Sachdeva",
        ),
        (
            "Sébastien Bubeck. Convex Optimization: Algorithms and Complexity, November 2015. Comment: A previous "
            "version of the manuscript was titled \\u201dTheory of Convex Optimization for Machine Learning\\u201d.",
            "Comment: A previous version of the manuscript was titled",
        ),
        (
            "Tycho F.A. van der Ouderaa and Mark van der Wilk. Learning invariant weights in neural networks. In James "
            "Cussens and Kun Zhang (eds.), Proceedings of the Thirty-Eighth Conference on Uncertainty in Artificial "
            "Intelligence, 2022.",
            "van der Ouderaa and Mark van der Wilk. Learning invariant weights in neural networks",
        ),
    ],
    ids=["names-read-as-title", "note-read-as-title", "two-fields-run-together"],
)
def test_absence_of_a_title_the_parser_cut_wrongly_is_no_proof(
    web: FakeWeb, tmp_path: Path, text: str, cut: str
) -> None:
    """Each cut is one the field parser really made on these strings in real papers (the parser reads them right
    now, so the misreading is set here): a title that reads as names, a note or two fields is no title whose
    absence proves anything."""
    r = check(web, tmp_path, text, title=cut)
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_title_whose_indexes_hold_only_its_main_title_is_not_absent(web: FakeWeb, tmp_path: Path) -> None:
    """OpenAlex matches every query word: a search for the whole title cannot find a record holding only the
    main title, so the main title is searched too before an absence is read."""
    r = check(
        web,
        tmp_path,
        "Daniel Lowry. The seven habits of episodic forgetting: Insights from psychology and cognitive neuroscience. "
        "American Psychologist, 54(3):999, 1999.",
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale
    assert any(c.found == "The seven habits of episodic forgetting" for c in r.comparisons if c.field == "title")


def test_a_record_without_the_cited_subtitle_still_shows_an_invented_author(web: FakeWeb, tmp_path: Path) -> None:
    """The record's specific main title identifies the work: a name it does not list is still caught."""
    r = check(
        web,
        tmp_path,
        "Ann Frey and Daniel Lowry. The seven habits of episodic forgetting: Insights from psychology and cognitive "
        "neuroscience. American Psychologist, 54(3):999, 1999.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H3"), r.verdict.rationale


def test_a_cited_title_that_is_only_a_records_generic_head_identifies_nothing(web: FakeWeb, tmp_path: Path) -> None:
    r = check(web, tmp_path, "SS Bhavikatti. Finite element analysis. New Age International, 2005.")
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_fabricated_title_with_a_subtitle_is_still_absent(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Daniel Lowry and Ann Frey. Recurrent consolidation of procedural traces: Evidence from sleep-deprived "
        "rodents. American Psychologist, 54(3):1001, 1999.",
    )
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H1"), r.verdict.rationale


def test_a_ninth_name_after_a_deposit_of_eight_is_not_padding(web: FakeWeb, tmp_path: Path) -> None:
    r = check(
        web,
        tmp_path,
        "Randa Vitt, Sam Mahal, Jim Overby, Sandy Dhan, Silvia Marti, Jay Cantor, Derek Wheel, Alex Setta, and "
        "Bjorn Peters. The immune epitope catalogue: a decade of curated assays. Nucleic Acids Research, "
        "47(D1):D339-D343, 2019. doi: 10.1093/nar/gky9999",
    )
    assert r.verdict.class_ != "Hallucinated", r.verdict.rationale


def test_a_collective_author_is_no_person_for_the_kind_of_work(web: FakeWeb, tmp_path: Path) -> None:
    """ "Vemeko FPGA Team" is a team, not a person: with no venue, the citation is of an unknown kind (a web
    page, a manual), which no index holds whole; a person's citation of the same shape stays a paper."""
    r = check(web, tmp_path, "Vemeko FPGA Team. What are hardware description languages in modern chip design?, 2024.")
    assert r.verdict.class_ == "Potential", r.verdict.rationale
    r = check(web, tmp_path, "Vera Komm. What are hardware description languages in modern chip design?, 2024.")
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H1"), r.verdict.rationale


def test_a_doi_cut_by_a_line_break_is_no_proof_of_a_missing_doi(web: FakeWeb, tmp_path: Path) -> None:
    """The text runs on past a space with more of the DOI's suffix: the DOI read is cut, and doi.org's "no
    such DOI" for the cut one says nothing of the cited one; a made-up DOI read whole is still caught."""
    cited = (
        "Walter Schnell and Jason Chen. Controlled and automatic processing of visual search targets. Cognitive "
        "Science, 27(3):525-559, 2003. doi: {doi}."
    )
    r = check(web, tmp_path, cited.format(doi="10.1207/s15516709c og2703_9"))
    assert r.verdict.code != "H5", r.verdict.rationale
    r = check(web, tmp_path, cited.format(doi="10.1207/s15516709cog2703_77"))
    assert r.verdict.code == "H5", r.verdict.rationale


FJORD = (
    "@inproceedings{petrenko2012, title = {Incremental checkpointing of fjord streams on wimpy nodes}, author = "
    "{Petrenko, Olga and Krog, Mads}, booktitle = {EuroSys Workshops}, year = {2012}, %s}"
)


def test_a_place_and_publisher_only_the_proceedings_volume_states_are_read_from_it(
    web: FakeWeb, tmp_path: Path
) -> None:
    """OpenAlex identifies the work and states neither: DBLP's volume (two requests) does, so the honest
    details stay Real and invented ones are contradictions, not gaps."""
    honest = check(web, tmp_path, FJORD % "address = {Bern, Switzerland}, publisher = {ACM}")
    assert honest.verdict.class_ == "Real", honest.verdict.rationale
    assert any(o.source == "dblp" and o.question == "volume" for o in honest.cost.sources)
    place = check(web, tmp_path, FJORD % "address = {Lisbon, Portugal}")
    assert (place.verdict.class_, place.verdict.code) == ("Hallucinated", "H4"), place.verdict.rationale
    assert "location" in place.verdict.fields
    publisher = check(web, tmp_path, FJORD % "publisher = {Elsevier}")
    assert (publisher.verdict.class_, publisher.verdict.code) == ("Hallucinated", "H4"), publisher.verdict.rationale
    assert "publisher" in publisher.verdict.fields


def test_a_citation_stating_no_publisher_or_place_costs_no_volume_request(web: FakeWeb, tmp_path: Path) -> None:
    r = check(web, tmp_path, FJORD % "pages = {1--6}")
    assert r.verdict.class_ == "Real", r.verdict.rationale
    assert not any(o.question == "volume" for o in r.cost.sources)


LATTICE = (
    "@inproceedings{moura, title = {Sparse lattice hashing for streaming join estimation}, author = {Moura, Ines "
    "and Haddou, Tarek}, booktitle = {ACM SIGKDD International Conference on Knowledge Discovery and Data Mining}, "
    "year = {%d}}"
)


def test_a_year_before_the_meeting_is_read_from_the_proceedings_volume(web: FakeWeb, tmp_path: Path) -> None:
    """A year one off the records' is excused as a conference's and its proceedings' only where no volume
    dates the meeting: DBLP's volume 'KDD, Sydney, August 10-13, 2015' (read when OpenAlex alone dates the
    work) dates no paper of it in 2014, nor in 2016: proceedings of an August meeting are printed for it
    (P3, the year named)."""
    for year in (2014, 2016):
        off = check(web, tmp_path, LATTICE % year)
        assert (off.verdict.class_, off.verdict.code) == ("Potential", "P3"), off.verdict.rationale
        assert "year" in off.verdict.fields
        assert any(o.source == "dblp" and o.question == "volume" for o in off.cost.sources)
    r = check(web, tmp_path, LATTICE % 2015)
    assert r.verdict.class_ == "Real", r.verdict.rationale


GOSSIP = (
    "Lotte Brenner and Kofi Mensah. Bounded gossip for quorum repair in wide-area object stores. In 9th "
    "International Conference on Wide-Area Distributed Object Stores, WADOS, %d."
)


@pytest.mark.parametrize("year", [2013, 2017])
def test_a_conference_paper_two_years_off_is_caught_whatever_one_index_types_it(
    web: FakeWeb, tmp_path: Path, year: int
) -> None:
    """OpenAlex types a proceedings paper "article" as it does a journal's; DBLP's search answers the
    paper's kind in words ("Conference and Workshop Papers"). Read as DBLP's record tag, the conference
    that prints a paper once dates it: two years off either way is H4, not a journal's later review."""
    r = check(web, tmp_path, GOSSIP % year)
    assert (r.verdict.class_, r.verdict.code) == ("Hallucinated", "H4"), r.verdict.rationale
    assert check(web, tmp_path, GOSSIP % 2015).verdict.class_ == "Real"


HAMMER = (
    "@article{xiang, title = {Iterative identification of sampled Hammerstein systems with sparse output gaps}, "
    "author = {Xiang, Lina and Deng, Rui}, journal = {European Journal of Operational Research}, "
    "volume = {90}, year = {%d}}"
)


def test_a_year_years_off_every_index_record_is_dated_by_the_listers_record(web: FakeWeb, tmp_path: Path) -> None:
    """Crossref's and OpenAlex's 2015 may be an issue's or a re-deposit's year; DBLP, asked because the cited
    year is years off theirs, dates the article by its volume: the volume's 2013 is Real, and 2011 with that
    volume is H4 (it appeared in 2013)."""
    honest = check(web, tmp_path, HAMMER % 2013)
    assert honest.verdict.class_ == "Real", honest.verdict.rationale
    assert any(o.source == "dblp" and o.status == "answered" for o in honest.cost.sources)
    early = check(web, tmp_path, HAMMER % 2011)
    assert (early.verdict.class_, early.verdict.code) == ("Hallucinated", "H4"), early.verdict.rationale


QUILL = (
    "@inproceedings{haddad2019, title = {Adaptive quill sampling for sparse neural radiance caches}, author = {%s}, "
    "booktitle = {IEEE/CVF International Conference on Computer Vision}, year = {2019}}"
)


def test_a_name_a_cut_list_lacks_is_padding_where_a_whole_list_of_the_work_lacks_it_too(
    web: FakeWeb, tmp_path: Path
) -> None:
    """OpenAlex's two names may be a cut list (a gap); DBLP's whole list of the same work is the fact: the
    real third author is Real, an invented one padding (H3)."""
    honest = check(web, tmp_path, QUILL % "Haddad, Noor and Brandt, Ilse and Orlov, Pavel")
    assert honest.verdict.class_ == "Real", honest.verdict.rationale
    (tmp_path / "padded").mkdir()  # a store of its own: the honest check's verified link is no evidence here
    padded = check(web, tmp_path / "padded", QUILL % "Haddad, Noor and Brandt, Ilse and Castellanos, Elena")
    assert (padded.verdict.class_, padded.verdict.code) == ("Hallucinated", "H3"), padded.verdict.rationale


def test_a_conference_naming_itself_by_another_acronym_is_another_conference(web: FakeWeb, tmp_path: Path) -> None:
    """APNOMS, which no list knows, against WWW, which the venue table knows with its acronyms: two conferences.
    A CVPR workshop ("CVPRW") cited as CVPR shares the acronym: never read as another conference."""
    cite = "Wen Shu and Chien Lee. Handover self-tuning from cell traces with gradient-boosted policies. %s, 2014."
    r = check(web, tmp_path, cite % "In Proceedings of the International World Wide Web Conference (WWW)")
    assert r.verdict.class_ == "Hallucinated" and "venue" in r.verdict.fields, r.verdict.rationale
    assert "APNOMS" in r.verdict.rationale
    workshop = check(
        web,
        tmp_path,
        "Ana Kovac and Pim Steen. Thermal saliency priors for drone footage under fog. In Proceedings of the IEEE/CVF "
        "Conference on Computer Vision and Pattern Recognition (CVPR), 2020.",
    )
    assert workshop.verdict.class_ != "Hallucinated", workshop.verdict.rationale
