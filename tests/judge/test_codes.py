"""Every one of the 12 codes is reachable from evidence, and each says why."""

from __future__ import annotations

import asyncio

from citetracer.collect.stage import Stage
from citetracer.config import Settings
from citetracer.evidence import EvidenceBundle
from citetracer.extract import read_text
from citetracer.normalize.text import canonical_doi
from citetracer.pipeline import Checker
from citetracer.records import Reference, SourceOutcome, WorkRecord
from citetracer.store.db import Store
from tests.conftest import people, run_check

RESNET = "He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian"


def verdict(store: Store, bib: str, **settings: object) -> tuple[str, str, list[str], str]:
    results = run_check(store, bib, **settings)
    assert len(results) == 1
    v = next(iter(results.values())).verdict
    return v.class_, v.code, v.codes, v.rationale


def test_r1_every_field_matches(store: Store) -> None:
    cls, code, _, why = verdict(
        store,
        f"""@inproceedings{{k, title={{Deep Residual Learning for Image Recognition}},
        author={{{RESNET}}}, booktitle={{CVPR}}, year=2016, doi={{10.1109/CVPR.2016.90}}}}""",
    )
    assert (cls, code) == ("Real", "R1")
    assert "test:resnet" in why


def test_r2_abbreviations_initials_and_case(store: Store) -> None:
    cls, code, _, _ = verdict(
        store,
        """@inproceedings{k, title={deep residual learning for image recognition},
        author={K. He and X. Zhang and S. Ren and J. Sun},
        booktitle={Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition}, year=2016}""",
    )
    assert (cls, code) == ("Real", "R2")


def test_r2_preprint_version_of_a_published_work(store: Store) -> None:
    cls, code, _, _ = verdict(
        store,
        """@article{k, title={Adam: A Method for Stochastic Optimization},
        author={Kingma, Diederik P. and Ba, Jimmy}, journal={arXiv preprint arXiv:1412.6980}, year=2014}""",
    )
    assert (cls, code) == ("Real", "R2")


def test_r3_record_lacks_cited_fields(store: Store) -> None:
    cls, code, _, why = verdict(
        store,
        """@inproceedings{k, title={A Record Without Any Venue Information At All},
        author={Lovelace, Ada}, booktitle={Some Workshop}, year=2020}""",
    )
    assert (cls, code) == ("Real", "R3")
    assert "venue" in why


def test_p1_unindexed_kind_not_found(store: Store) -> None:
    cls, code, _, _ = verdict(
        store,
        """@phdthesis{k, title={On Things Nobody Indexed}, author={Doe, Jane},
        school={University of Somewhere}, year=2019}""",
    )
    assert (cls, code) == ("Potential", "P1")


def test_p1_not_found_outside_coverage_is_not_hallucinated(store: Store) -> None:
    cls, code, _, _ = verdict(
        store,
        """@article{k, title={A Paper in a Journal the Store Does Not Cover},
        author={Doe, Jane}, journal={Journal of Obscure Results}, year=2019}""",
    )
    assert (cls, code) == ("Potential", "P1")


def test_p2_software_with_url(store: Store) -> None:
    cls, code, _, _ = verdict(
        store,
        """@misc{k, title={PyTorch}, howpublished={\\url{https://pytorch.org}},
        year=2024}""",
    )
    assert (cls, code) == ("Potential", "P2")


def test_p3_year_off_by_one(store: Store) -> None:
    cls, code, _, why = verdict(
        store,
        """@article{k, title={Long Short-Term Memory},
        author={Hochreiter, Sepp and Schmidhuber, J{\\"u}rgen}, journal={Neural Computation}, year=1998}""",
    )
    assert (cls, code) == ("Potential", "P3")
    assert "1997" in why


def test_p3_one_given_name_differs(store: Store) -> None:
    cls, code, _, _ = verdict(
        store,
        """@inproceedings{k, title={Deep Residual Learning for Image Recognition},
        author={He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Wei}, booktitle={CVPR}, year=2016}""",
    )
    assert (cls, code) == ("Potential", "P3")


def test_h1_absent_from_a_covered_venue(store: Store) -> None:
    cls, code, _, why = verdict(
        store,
        """@inproceedings{k, title={Quantum Gradient Routing for Federated Graphs},
        author={Marchetti, Elena and Okafor, Chidi}, booktitle={Conference on Covered Topics}, year=2021}""",
    )
    assert (cls, code) == ("Hallucinated", "H1")
    assert "covered" in why.lower() or "records of this venue" in why


def test_h1_in_closed_world_anywhere(store: Store) -> None:
    bib = """@article{k, title={Quantum Gradient Routing for Federated Graphs}, author={Marchetti, Elena},
        journal={Journal of Obscure Results}, year=2021}"""
    assert verdict(store, bib)[:2] == ("Potential", "P1")
    assert verdict(store, bib, closed_world=True)[:2] == ("Hallucinated", "H1")


def test_h1_real_authors_fabricated_title_needs_coverage(store: Store) -> None:
    bib = """@inproceedings{k, title={Recurrent Alignment Networks for Speech},
        author={Bahdanau, Dzmitry and Cho, Kyunghyun and Bengio, Yoshua}, booktitle={ICLR}, year=2015}"""
    cls, code, _, why = verdict(store, bib)
    assert (cls, code) == ("Potential", "P1")  # ICLR is not covered by this small store
    assert "Neural Machine Translation" in why
    cls, code, _, why = verdict(store, bib, closed_world=True)
    assert (cls, code) == ("Hallucinated", "H1")
    assert "Neural Machine Translation" in why


def test_h2_near_miss_title(store: Store) -> None:
    cls, code, _, why = verdict(
        store,
        """@inproceedings{k,
        title={Sequence to Sequence Learning with Recurrent Networks},
        author={Sutskever, Ilya and Vinyals, Oriol and Le, Quoc V.}, booktitle={NeurIPS}, year=2014}""",
    )
    assert (cls, code) == ("Hallucinated", "H2")
    assert "Sequence to Sequence Learning with Neural Networks" in why


def test_h3_substituted_authors(store: Store) -> None:
    cls, code, _, why = verdict(
        store,
        """@inproceedings{k, title={Deep Residual Learning for Image Recognition},
        author={He, Kaiming and Girshick, Ross and Doll{\\'a}r, Piotr}, booktitle={CVPR}, year=2016}""",
    )
    assert (cls, code) == ("Hallucinated", "H3")
    assert "Girshick" in why


def test_a_name_added_to_a_long_whole_list_renders_no_one(store: Store) -> None:
    """Of a long list, a stray name may render a record author no other cited name matches (a transliteration): a
    doubt. Where every record author is matched, it renders no one: a padded list (H3), named."""
    names = [
        "Andreas Fischer",
        "Thomas Kittel",
        "Bojan Kolosnjaji",
        "Tamas K. Lengyel",
        "Waseem Mandarawi",
        "Hermann de Meer",
        "Tilo Müller",
        "Mykola Protsenko",
        "Hans P. Reiser",
        "Benjamin Taubmann",
        "Eva Weishäupl",
    ]

    def record(cut: bool = False) -> WorkRecord:
        return WorkRecord(
            source="dblp",  # a source that holds every author of each record
            id="conf/otm/FischerKKLMMMPRTW15",
            title="CloudIDEA: A Malware Defense Architecture for Cloud Data Centers",
            authors=people(*names),
            authors_truncated=cut,
            year=2015,
            venue="OTM Conferences",
            type="inproceedings",
        )

    store.upsert([record()])
    entry = """@inproceedings{{k, title={{CloudIDEA: A Malware Defense Architecture for Cloud Data Centers}},
        author={{{authors}}}, booktitle={{OTM Conferences}}, year=2015}}"""
    padded = " and ".join([*names, "Rahul Castellanos"])
    cls, code, _, why = verdict(store, entry.format(authors=padded))
    assert (cls, code) == ("Hallucinated", "H3") and "Rahul Castellanos" in why, why
    # A record whose list is not known whole ("and others"): the stray name may be past its end, never H3
    # (Constitutional AI's CiteAudit string, cut so).
    store.upsert([record(cut=True)])
    cut = " and ".join([*names[:9], "Rahul Castellanos", "others"])
    assert verdict(store, entry.format(authors=cut))[0] != "Hallucinated"
    store.upsert([record()])
    # One record author written so that no rule explains it: a rendering, a doubt, never an accusation.
    rendered = " and ".join([*names[:6], "Tilo Mueller-Schmidt", *names[7:]])
    assert verdict(store, entry.format(authors=rendered))[0] != "Hallucinated"


def test_dropped_authors_are_never_h3_alone(store: Store) -> None:
    # The record's first authors, without 'et al.': a partial list (P3, the names left out named), never
    # formatting; with "and others" the list says it is cut.
    cut = """@inproceedings{k, title={Deep Residual Learning for Image Recognition},
        author={He, Kaiming and Zhang, Xiangyu}, booktitle={CVPR}, year=2016}"""
    cls, code, _, why = verdict(store, cut)
    assert (cls, code) == ("Potential", "P3")
    assert "omits 2 of the record's 4 authors (Shaoqing Ren, Jian Sun)" in why
    assert verdict(store, cut.replace("Zhang, Xiangyu}", "Zhang, Xiangyu and others}"))[0] == "Real"
    # Authors dropped from the middle: a preprint with fewer authors, an export that lost a name.
    middle = """@inproceedings{k, title={Deep Residual Learning for Image Recognition},
        author={He, Kaiming and Sun, Jian}, booktitle={CVPR}, year=2016}"""
    cls, code, _, why = verdict(store, middle)
    assert (cls, code) == ("Potential", "P3")
    assert "omits 2 of the record's 4 authors (Xiangyu Zhang, Shaoqing Ren)" in why


def test_h3_placeholder_authors(store: Store) -> None:
    cls, code, _, _ = verdict(
        store,
        """@inproceedings{k, title={Deep Residual Learning for Image Recognition},
        author={Smith, John and Doe, Jane}, booktitle={CVPR}, year=2016}""",
    )
    assert (cls, code) == ("Hallucinated", "H3")


def test_h4_future_year(store: Store) -> None:
    cls, code, _, why = verdict(
        store,
        f"""@inproceedings{{k, title={{Deep Residual Learning for Image Recognition}},
        author={{{RESNET}}}, booktitle={{CVPR}}, year=2031}}""",
    )
    assert (cls, code) == ("Hallucinated", "H4")
    assert "future" in why


def test_h4_wrong_conference(store: Store) -> None:
    cls, code, _, why = verdict(
        store,
        f"""@inproceedings{{k, title={{Deep Residual Learning for Image Recognition}},
        author={{{RESNET}}}, booktitle={{ICML}}, year=2016}}""",
    )
    assert (cls, code) == ("Hallucinated", "H4")
    assert "CVPR" in why


def test_journal_version_of_a_conference_paper_needs_coverage(store: Store) -> None:
    bib = f"""@article{{k, title={{Deep Residual Learning for Image Recognition}},
        author={{{RESNET}}}, journal={{IEEE Transactions on Pattern Analysis and Machine Intelligence}}, year=2016}}"""
    # An extended journal version may keep the title: not an error unless the journal is covered.
    assert verdict(store, bib)[:2] == ("Potential", "P3")
    assert verdict(store, bib, closed_world=True)[:2] == ("Hallucinated", "H4")


def test_unrecognised_venue_is_a_gap_unless_a_list_is_complete_for_its_kind(store: Store) -> None:
    bib = f"""@inproceedings{{k, title={{Deep Residual Learning for Image Recognition}},
        author={{{RESNET}}}, booktitle={{Symposium on Neural Scaling Laws}}, year=2016}}"""
    # No list of this store holds every conference: a name no list knows is a gap, never proof.
    cls, code, _, why = verdict(store, bib)
    assert (cls, code) == ("Potential", "P3")
    assert "venue is not confirmed" in why and "none of the venue lists" in why
    # Declared complete, the store's names are every venue there is, and nothing is close to this one.
    cls, code, _, why = verdict(store, bib, closed_world=True)
    assert (cls, code) == ("Hallucinated", "H4")
    assert "no conference named 'Symposium on Neural Scaling Laws'" in why


def test_a_journal_name_no_list_holds_is_a_gap_offline_and_caught_in_a_closed_world(store: Store) -> None:
    # The journal list (JabRef, ~43,000 of well over 100,000 journals) is complete for no kind: a name it
    # lacks is not confirmed (P3, the lists searched named); a store declared complete proves it invented.
    bib = f"""@article{{k, title={{Deep Residual Learning for Image Recognition}},
        author={{{RESNET}}}, journal={{Journal of Neural Architecture and Optimization}}, year=2016}}"""
    cls, code, _, why = verdict(store, bib)
    assert (cls, code) == ("Potential", "P3")
    assert "journal list" in why
    cls, code, _, why = verdict(store, bib, closed_world=True)
    assert (cls, code) == ("Hallucinated", "H4")


def test_h4_preprint_cited_as_published(store: Store) -> None:
    bib = """@inproceedings{k, title={Scaling Laws for Neural Language Models},
        author={Kaplan, Jared and McCandlish, Sam and Henighan, Tom and Brown, Tom B.}, booktitle={ICML}, year=2020}"""
    cls, code, _, why = verdict(store, bib, closed_world=True)
    assert (cls, code) == ("Hallucinated", "H4")
    assert "preprint" in why
    assert verdict(store, bib)[:2] == ("Potential", "P3")


def test_r2_published_work_cited_as_its_preprint(store: Store) -> None:
    cls, code, _, why = verdict(
        store,
        f"""@article{{k, title={{Deep Residual Learning for Image Recognition}},
        author={{{RESNET}}}, journal={{arXiv preprint arXiv:1512.03385}}, year=2015}}""",
    )
    assert (cls, code) == ("Real", "R2")
    assert "preprint" in why


def test_h4_wrong_year(store: Store) -> None:
    cls, code, _, _ = verdict(
        store,
        f"""@inproceedings{{k, title={{Deep Residual Learning for Image Recognition}},
        author={{{RESNET}}}, booktitle={{CVPR}}, year=2019}}""",
    )
    assert (cls, code) == ("Hallucinated", "H4")


def test_h5_doi_of_another_work(store: Store) -> None:
    cls, _, codes, why = verdict(
        store,
        """@article{k, title={Sequence to Sequence Learning with Neural Networks},
        author={Sutskever, Ilya and Vinyals, Oriol and Le, Quoc V.}, year=2014, doi={10.1162/neco.1997.9.8.1735}}""",
    )
    assert cls == "Hallucinated"
    assert "H5" in codes or "H6" in codes
    assert "Long Short-Term Memory" in why


def test_a_doi_deposited_under_another_spelling_of_the_title_is_the_records(store: Store) -> None:
    """IEEE numbers each document once: "10.1109/cvpr.2009.5206848" and the record's "cvprw" spelling are one
    document (ImageNet, cited so in real papers); another number under the same title is not confirmed."""
    store.upsert(
        [
            WorkRecord(
                source="test",
                id="imagenet",
                title="ImageNet: A large-scale hierarchical image database",
                authors=people("Jia Deng", "Wei Dong", "Richard Socher", "Li-Jia Li", "Kai Li", "Li Fei-Fei"),
                year=2009,
                venue="CVPR",
                type="inproceedings",
                doi="10.1109/CVPRW.2009.5206848",
            )
        ]
    )
    entry = """@inproceedings{{k, title={{ImageNet: A large-scale hierarchical image database}},
        author={{Deng, Jia and Dong, Wei and Socher, Richard and Li, Li-Jia and Li, Kai and Fei-Fei, Li}},
        booktitle={{2009 IEEE Conference on Computer Vision and Pattern Recognition}}, year=2009, doi={{{doi}}}}}"""
    cls, _, _, why = verdict(store, entry.format(doi="10.1109/CVPR.2009.5206848"))
    assert cls == "Real", why
    cls, code, _, why = verdict(store, entry.format(doi="10.1109/CVPR.2009.5206849"))
    assert (cls, code) == ("Potential", "P3") and "could not be resolved" in why


def test_a_year_the_works_doi_carries_is_its_deposit_not_a_year_off(store: Store) -> None:
    """A publisher that dates its DOIs ("10.1109/mci.2022.3155327") wrote the year of the first deposit; a record of
    an issue one or two years later carries the issue's. A year one off that nothing dates stays P3, as does one the
    DOI does not hold, or a deposit three years before the record."""

    def record(year: int) -> WorkRecord:
        return WorkRecord(
            source="test",
            id="bnn",
            title="Hands-On Bayesian Neural Networks: A Tutorial for Deep Learning Users",
            authors=people("Laurent Valentin Jospin", "Hamid Laga", "Farid Boussaid", "Wray Buntine"),
            year=year,
            venue="IEEE Computational Intelligence Magazine",
            type="article",
            doi="10.1109/MCI.2022.3155327",
        )

    entry = """@article{{k, title={{Hands-On Bayesian Neural Networks: A Tutorial for Deep Learning Users}},
        author={{Jospin, Laurent Valentin and Laga, Hamid and Boussaid, Farid and Buntine, Wray}},
        journal={{IEEE Computational Intelligence Magazine}}, year={year}}}"""
    store.upsert([record(2023)])
    cls, _, _, why = verdict(store, entry.format(year=2022))
    assert cls == "Real" and "DOI" in why, why
    cls, code, _, why = verdict(store, entry.format(year=2024))
    assert (cls, code) == ("Potential", "P3") and "year differs by one" in why
    store.upsert([record(2024)])
    assert verdict(store, entry.format(year=2022))[0] == "Real"
    store.upsert([record(2025)])
    assert verdict(store, entry.format(year=2022))[0] == "Potential"


def test_h5_unknown_registrant(store: Store) -> None:
    bib = """@inproceedings{k, title={Neural Machine Translation by Jointly Learning to
        Align and Translate}, author={Bahdanau, Dzmitry and Cho, Kyunghyun and Bengio, Yoshua}, booktitle={ICLR},
        year=2015, doi={10.88412/iclr.2015.0471}}"""
    cls, code, _, why = verdict(store, bib, closed_world=True)
    assert (cls, code) == ("Hallucinated", "H5")
    assert "10.88412" in why
    # A small store that does not cover ICLR knows few registrants: a doubt, not a verdict.
    cls, code, _, why = verdict(store, bib)
    assert (cls, code) == ("Potential", "P3")
    assert "registrant" in why


def test_h5_wrong_doi_for_the_work(store: Store) -> None:
    bib = f"""@inproceedings{{k, title={{Deep Residual Learning for Image Recognition}},
        author={{{RESNET}}}, booktitle={{CVPR}}, year=2016, doi={{10.1109/CVPR.2016.99}}}}"""
    cls, code, _, why = verdict(store, bib, closed_world=True)
    assert (cls, code) == ("Hallucinated", "H5")
    assert "10.1109/cvpr.2016.90" in why
    # Without coverage the cited DOI may be another version's (a journal extension): P3.
    cls, code, _, why = verdict(store, bib)
    assert (cls, code) == ("Potential", "P3")
    assert "could not be resolved" in why


def test_h6_title_of_one_work_authors_of_another(store: Store) -> None:
    cls, code, _, why = verdict(
        store,
        """@inproceedings{k,
        title={ImageNet Classification with Deep Convolutional Neural Networks},
        author={Mikolov, Tomas and Sutskever, Ilya and Chen, Kai and Corrado, Greg and Dean, Jeffrey},
        booktitle={NIPS}, year=2012}""",
    )
    assert (cls, code) == ("Hallucinated", "H6")
    assert "Distributed Representations" in why


class FailingStage(Stage):
    """A source that times out: its failure must lower certainty, never accuse."""

    name = "connectors"

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        bundle.outcomes.append(SourceOutcome(source="crossref", status="failed", detail="timeout"))


def test_failed_source_turns_absence_into_p1_not_h1(store: Store) -> None:
    from citetracer.collect.memory import MemoryStage

    settings = Settings(store=store.path, offline=True, today_year=2026, closed_world=True, remember_verified=False)
    checker = Checker(settings, store=store, stages=[MemoryStage(store, closed_world=True), FailingStage()])
    read = read_text(
        """@article{k, title={Entirely Unknown Work on Things}, author={Doe, Jane}, year=2020}""", suffix=".bib"
    )
    result = asyncio.run(checker.check_references(read.references))[0]
    assert (result.verdict.class_, result.verdict.code) == ("Potential", "P1")
    assert "crossref" in result.verdict.rationale
    assert [o.status for o in result.cost.sources] == ["answered", "failed"]


def test_real_verdict_is_remembered_as_a_link_to_the_evidence(store: Store) -> None:
    bib = f"""@inproceedings{{k, title={{Deep Residual Learning for Image Recognition}},
        author={{{RESNET}}}, booktitle={{CVPR}}, year=2016}}"""
    run_check(store, bib, remember_verified=True)
    rows = store.db.execute("SELECT source, source_id, code FROM verified").fetchall()
    assert rows == [("test", "resnet", "R1")]
    second = run_check(store, bib)["k"]
    assert second.verdict.evidence[0]["found_by"] == "verified-link"


class OnlineStage(Stage):
    """Stands in for a connector that answers with a record the store does not hold."""

    name = "connectors"

    def __init__(self) -> None:
        self.calls = 0

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        from citetracer.records import Candidate, Person

        self.calls += 1
        bundle.connector_calls += 1
        bundle.add(
            Candidate(
                source="crossref",
                id="10.1000/xyz",
                title="A Work Only Crossref Knows",
                authors=[Person(given="Jane", family="Doe")],
                year=2020,
                doi="10.1000/xyz",
            )
        )
        bundle.outcomes.append(SourceOutcome(source="crossref", status="answered", candidates=1))


def test_online_evidence_is_stored_and_linked_then_found_in_memory(store: Store) -> None:
    from citetracer.collect.memory import MemoryStage

    online = OnlineStage()
    settings = Settings(store=store.path, offline=True, today_year=2026, remember_verified=True)
    checker = Checker(settings, store=store, stages=[MemoryStage(store), online])
    bib = "@article{k, title={A Work Only Crossref Knows}, author={Doe, Jane}, year=2020, doi={10.1000/xyz}}"
    first = asyncio.run(checker.check_references(read_text(bib, suffix=".bib").references))[0]
    assert (first.verdict.class_, first.verdict.stage, first.cost.connector_calls) == ("Real", "connectors", 1)
    row = store.db.execute("SELECT source, source_id, verified_at FROM verified").fetchone()
    assert row[0] == "crossref" and row[1] == "10.1000/xyz" and row[2].startswith("20")
    second = asyncio.run(checker.check_references(read_text(bib, suffix=".bib").references))[0]
    assert (second.verdict.class_, second.verdict.stage, second.cost.connector_calls) == ("Real", "memory", 0)
    assert online.calls == 1


def test_coverage_needs_a_complete_source_and_never_holds_for_preprint_servers(store: Store) -> None:
    bib = """@inproceedings{k, title={Quantum Gradient Routing for Federated Graphs},
        author={Marchetti, Elena and Okafor, Chidi}, booktitle={Conference on Covered Topics}, year=2021}"""
    assert verdict(store, bib)[:2] == ("Hallucinated", "H1")
    store.set_source_complete("test", False)  # a partial record file: its venue-years prove nothing
    assert verdict(store, bib)[:2] == ("Potential", "P1")
    store.set_source_complete("test")
    preprint = bib.replace("booktitle={Conference on Covered Topics}", "journal={arXiv preprint arXiv:2101.00001}")
    assert verdict(store, preprint)[0] == "Potential"


def test_misparsed_reference_string_is_matched_through_its_raw_text(store: Store) -> None:
    """A field parser that cut a PDF reference wrongly must not turn a real citation into an accusation."""
    from citetracer.records import Person

    ref = Reference(
        raw="He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image recognition. "
        "In CVPR (pp. 770-778). https://doi.org/10.1109/CVPR.2016.90",
        title="& Sun, J",  # what a confused parser might produce
        authors=[Person(given="K.", family="He"), Person(given="X.", family="Zhang"), Person(given="S.", family="Ren")],
        et_al=True,
        venue="Deep residual learning for image recognition",
        year=2016,
        doi="10.1109/cvpr.2016.90",
    )
    settings = Settings(store=store.path, offline=True, today_year=2026, remember_verified=False)
    result = asyncio.run(Checker(settings, store=store).check_references([ref]))[0]
    assert result.verdict.class_ == "Real"
    notes = {c.field: c.note for c in result.comparisons}
    assert "reference text" in (notes["title"] or "")


def test_record_author_list_cut_mid_name_is_treated_as_truncated() -> None:
    from citetracer.normalize.names import compare_author_lists
    from tests.conftest import people

    record = people("John Jumper", "Richard Evans", "Z")
    cited = people("J. Jumper", "R. Evans", "A. Zidek", "A. Potapenko")
    cmp = compare_author_lists(cited, record, False, False)
    assert cmp.complete and cmp.hidden == 2


class DoiResolverStage(Stage):
    """The URL Fetch stage's record of a DOI that neither its agency nor the resolver knows."""

    name = "url"

    async def collect(self, reference: Reference, bundle: EvidenceBundle) -> None:
        from citetracer.collect.lookups import answered

        doi = canonical_doi(reference.doi) or ""
        for source in ("crossref", "doi"):
            bundle.outcomes.append(
                SourceOutcome(
                    source=source,
                    status="answered",
                    candidates=0,
                    detail=f"DOI {reference.doi}",
                    lookups=[answered(source, "doi", doi, [])],
                )
            )


def test_h5_doi_that_the_resolver_does_not_know(store: Store) -> None:
    from citetracer.collect.memory import MemoryStage

    settings = Settings(store=store.path, offline=True, today_year=2026, remember_verified=False)
    checker = Checker(settings, store=store, stages=[MemoryStage(store), DoiResolverStage()])
    bib = """@inproceedings{k, title={Neural Machine Translation by Jointly Learning to Align and Translate},
        author={Bahdanau, Dzmitry and Cho, Kyunghyun and Bengio, Yoshua}, booktitle={ICLR}, year=2015,
        doi={10.1109/iclr.2015.12345}}"""
    result = asyncio.run(checker.check_references(read_text(bib, suffix=".bib").references))[0]
    assert (result.verdict.class_, result.verdict.code) == ("Hallucinated", "H5")
    assert "does not exist" in result.verdict.rationale


def test_book_cited_in_another_edition_is_not_an_accusation(store: Store) -> None:
    """DBLP lists some books as a journal item (a review) in another year: editions differ honestly."""
    store.upsert(
        [
            WorkRecord(
                source="test",
                id="rlbook",
                title="Reinforcement Learning: An Introduction",
                authors=people("Richard S. Sutton", "Andrew G. Barto"),
                year=1998,
                venue="IEEE Trans. Neural Networks",
                type="article",
            )
        ]
    )
    cls, code, _, _ = verdict(
        store,
        """@book{k, title={Reinforcement Learning: An Introduction},
        author={Sutton, Richard S. and Barto, Andrew G.}, publisher={MIT Press}, year=2018}""",
    )
    assert cls != "Hallucinated"
    cls, code, _, _ = verdict(
        store,
        """@inproceedings{k, title={Reinforcement Learning: An Introduction},
        author={Sutton, Richard S. and Barto, Andrew G.}, booktitle={MIT Press}, year=2018}""",
    )
    assert (cls, code) == ("Potential", "P3")


def test_h3_a_cited_doi_names_the_work_whatever_its_title_shares(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """HALLMARK's merged citations online: a short title, the authors of another paper, another year, and the
    work's own DOI. The DOI names one work, so 'another work with this title is as likely' is no doubt here;
    without the DOI the same citation stays withheld."""
    import json

    from citetracer.mirror.jsonl import add_jsonl

    record = {
        "id": "r1", "title": "Planning and Learning with Adaptive Lookahead", "year": 2023, "venue": "AAAI",
        "authors": ["Aviv Rosenberg", "Assaf Hallak", "Shie Mannor", "Gal Chechik", "Gal Dalal"],
        "doi": "10.1609/aaai.v37i8.26149", "type": "inproceedings",
    }  # fmt: skip
    (tmp_path / "r.jsonl").write_text(json.dumps(record) + "\n")
    cited = """@inproceedings{k, title={Planning and Learning with Adaptive Lookahead},
        author={Dongdong Chen and Juli\\'an Tachella and Mike E. Davies}, booktitle={AAAI}, year=2021%s}"""
    with Store(tmp_path / "s.sqlite") as store:
        add_jsonl(store, tmp_path / "r.jsonl", "crossref")
        cls, code, _, why = verdict(store, cited % ", doi={10.1609/AAAI.V37I8.26149}")
        assert (cls, code) == ("Hallucinated", "H3"), why
        assert "the cited DOI, which is the record's" in why
        cls, _, _, why = verdict(store, cited % "")
        assert cls == "Potential" and "another work with this title is as likely" in why, why


def test_h4_not_on_a_year_slip_when_the_text_states_the_works_year(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """ml/neurips-mlcpd-dataset cites CodeSearchNet as '(1909). ... (2019). arXiv preprint arXiv:1909.09436.':
    the year 1909 is the arXiv id's month read as a year, and the text itself says 2019. A year the text
    does not state stays an H4."""
    import json

    from citetracer.mirror.jsonl import add_jsonl

    record = {
        "id": "1909.09436", "title": "CodeSearchNet Challenge: Evaluating the State of Semantic Code Search",
        "authors": ["Hamel Husain", "Ho-Hsiang Wu", "Tiferet Gazit", "Miltiadis Allamanis", "Marc Brockschmidt"],
        "year": 2019, "arxiv_id": "1909.09436", "venue": "arXiv", "type": "article",
    }  # fmt: skip
    (tmp_path / "r.jsonl").write_text(json.dumps(record) + "\n")
    names = "Husain, H., Wu, H. H., Gazit, T., Allamanis, M., & Brockschmidt, M."
    title = "CodeSearchNet Challenge: Evaluating the State of Semantic Code Search."
    with Store(tmp_path / "s.sqlite") as store:
        add_jsonl(store, tmp_path / "r.jsonl", "arxiv")
        settings = Settings(store=store.path, offline=True, today_year=2026, remember_verified=False)
        checker = Checker(settings, store=store)
        slip = f"{names} (1909). {title}(2019). arXiv preprint arXiv:1909.09436.\n"
        wrong = f"{names} (1909). {title} arXiv preprint.\n"
        refs = read_text(slip + "\n" + wrong, suffix=".txt").references
        first, second = asyncio.run(checker.check_references(refs))
    assert first.verdict.class_ == "Potential" and "is written in the reference's text" in first.verdict.rationale
    assert second.verdict.code == "H4", second.verdict.rationale
