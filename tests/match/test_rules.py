"""The rule Field Matcher (match/rules.py): one comparison per cited field, each with its status and residual."""

from __future__ import annotations

from citetracer.match.rules import COMPARERS, assess, assess_all
from citetracer.normalize.names import parse_person
from citetracer.records import FIELDS, Candidate, FieldComparison, FieldStatus, Person, Reference, Residual

M, MISS, X = FieldStatus.MATCH, FieldStatus.MISSING, FieldStatus.MISMATCH

TITLE = "Deep Residual Learning for Image Recognition"


def people(*names: str) -> list[Person]:
    out = [parse_person(n) for n in names]
    assert all(p is not None for p in out)
    return [p for p in out if p is not None]


AUTHORS = people("Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun")


def record(**kw: object) -> Candidate:
    fields: dict[str, object] = dict(
        source="test",
        id="resnet",
        title=TITLE,
        authors=AUTHORS,
        year=2016,
        venue="CVPR",
        venue_full="IEEE Conference on Computer Vision and Pattern Recognition",
        doi="10.1109/CVPR.2016.90",
        pages="770-778",
    )
    fields.update(kw)
    return Candidate.model_validate(fields)


def cite(**kw: object) -> Reference:
    fields: dict[str, object] = dict(title=TITLE, authors=AUTHORS, year=2016, venue="CVPR")
    fields.update(kw)
    return Reference.model_validate(fields)


def test_the_table_compares_every_bibliographic_field_in_report_order() -> None:
    names = [name for name, _ in COMPARERS]
    assert len(set(names)) == len(names)
    assert set(names) == set(FIELDS) - {"url"}
    # Report order: the title, the people, then where and when, then identifiers and locators.
    assert names[:4] == ["title", "authors", "year", "venue"]


def test_only_the_fields_the_citation_gives_are_compared() -> None:
    a = assess(cite(), record())
    assert list(a.fields) == ["title", "authors", "year", "venue"]
    assert a.all_match and all(c.residual is None for c in a.fields.values())
    # What only the record gives is kept apart and counts against neither side.
    assert {"doi", "pages"} <= set(a.reference_missing)
    assert a.reference_missing["doi"].residual == Residual.REFERENCE_MISSING


def test_title_forms() -> None:
    exact = assess(cite(title="Deep residual learning for image-recognition."), record())
    assert exact.title_form == "exact" and exact.fields["title"].status == M
    assert exact.fields["title"].residual is None
    subtitle = assess(cite(title="Deep Residual Learning"), record(title="Deep Residual Learning: A Study of Depth"))
    assert subtitle.title_form == "subtitle"
    assert subtitle.fields["title"].note == "the cited title omits the other's subtitle"
    dropped = assess(cite(title="Deep Residual Learning: A Study of Depth"), record(title="Deep Residual Learning"))
    assert dropped.fields["title"].note == "the record's title omits the other's subtitle"
    assert subtitle.fields["title"].residual == Residual.NORMALIZABLE
    other = assess(cite(title="Deep Residual Learning for Speech Recognition"), record())
    assert other.fields["title"].status == X and other.fields["title"].residual == Residual.CONTRADICTION
    assert 0.75 < other.title_similarity < 1.0 and not other.same_title
    absent = assess(cite(), record(title=None))
    assert absent.fields["title"].status == MISS and absent.fields["title"].residual == Residual.CANDIDATE_MISSING


def test_a_record_title_found_whole_in_a_badly_split_reference_string() -> None:
    raw = f"K. He, X. Zhang, S. Ren, and J. Sun. {TITLE}. In CVPR, 2016."
    split_wrongly = cite(title="K. He, X. Zhang, S. Ren, and J. Sun", venue="Deep Residual Learning", raw=raw)
    a = assess(split_wrongly, record())
    assert a.title_form == "raw-text" and a.fields["title"].status == M
    assert a.fields["venue"].status == M and "reference text" in (a.fields["venue"].note or "")
    # BibTeX fields are taken as given, and a title inside a longer phrase is another work.
    bib = assess(split_wrongly.model_copy(update={"raw": "@inproceedings{k, " + raw + "}"}), record())
    assert bib.title_form is None
    longer = cite(title="x", raw=f"K. He. {TITLE} with Attention. In CVPR, 2016.")
    assert assess(longer, record()).title_form is None


def test_authors() -> None:
    reordered = assess(cite(authors=list(reversed(AUTHORS))), record())
    assert (
        reordered.fields["authors"].status == M and reordered.fields["authors"].note == "same authors in another order"
    )
    substituted = assess(cite(authors=people("Kaiming He", "Alice Invented", "Bob Madeup")), record())
    assert substituted.fields["authors"].status == X
    assert substituted.authors is not None and substituted.authors.matched == 1
    assert (substituted.fields["authors"].note or "").startswith("1 of 3 cited authors")
    assert assess(cite(), record(authors=[])).fields["authors"].status == MISS


def test_year_and_venue() -> None:
    late = assess(cite(year=2017), record())
    assert late.fields["year"].status == X and late.year_delta == 1
    spelled_out = assess(cite(venue="IEEE Conference on Computer Vision and Pattern Recognition"), record(venue="CVPR"))
    assert spelled_out.fields["venue"].status == M
    preprint = assess(cite(venue="NeurIPS"), record(venue="arXiv preprint", venue_full=None))
    assert preprint.fields["venue"].status == X and preprint.fields["venue"].note == "preprint cited as published"
    assert assess(cite(venue="ICML"), record()).fields["venue"].status == X


def test_identifiers() -> None:
    assert assess(cite(doi="https://doi.org/10.1109/cvpr.2016.90"), record()).fields["doi"].status == M
    wrong = assess(cite(doi="10.1109/CVPR.2016.91"), record())
    assert wrong.fields["doi"].status == X and wrong.fields["doi"].residual == Residual.CONTRADICTION
    assert assess(cite(doi="10.1109/CVPR.2016.90"), record(doi=None)).fields["doi"].status == MISS
    # An arXiv DOI names the arXiv id; beside a publisher DOI it is another version, not a contradiction.
    arxiv_doi = cite(doi="10.48550/arXiv.1512.03385")
    assert assess(arxiv_doi, record(doi=None, arxiv_id="1512.03385")).fields["doi"].status == M
    two_versions = assess(arxiv_doi, record()).fields["doi"]
    assert two_versions.status == MISS and two_versions.note == "arXiv DOI of a work with a publisher DOI"
    # arXiv ids compare without their version; an arXiv DOI that already says it is not compared twice.
    assert assess(cite(arxiv_id="1512.03385v3"), record(arxiv_id="1512.03385")).fields["arxiv_id"].status == M
    assert assess(cite(arxiv_id="1512.03386"), record(arxiv_id="1512.03385")).fields["arxiv_id"].status == X
    assert "arxiv_id" not in assess(cite(doi="10.48550/arXiv.1512.03385", arxiv_id="1512.03385"), record()).fields


def test_locators_and_loose_fields() -> None:
    assert assess(cite(pages="770--778"), record()).fields["pages"].status == M
    assert assess(cite(pages="771-778"), record()).fields["pages"].status == X
    assert assess(cite(volume="3"), record(volume="4")).fields["volume"].status == X
    assert assess(cite(issue="2"), record(issue=None)).fields["issue"].status == MISS
    # Publisher names and places vary too much to contradict anything.
    assert assess(cite(publisher="IEEE"), record(publisher="IEEE Computer Society")).fields["publisher"].status == M
    assert assess(cite(publisher="Springer"), record(publisher="IEEE")).fields["publisher"].status == MISS
    assert assess(cite(location="Las Vegas"), record()).fields["location"].status == MISS


def test_assess_all_ranks_the_cited_work_first() -> None:
    stranger = record(id="other", title="Image Recognition at Scale", authors=people("Ann Other"), doi=None)
    ranked = assess_all(cite(), [stranger, record()])
    assert [a.candidate.id for a in ranked] == ["resnet", "other"]
    assert ranked[0].identity > ranked[1].identity


def test_a_title_variant_by_the_same_people_with_a_name_spelt_apart_is_one_work() -> None:
    """'An overview of X' by the cited authors in the cited venue and year, one given name misspelt in the
    record ('Sangdo' for 'Sangdoo'): the authors' own variant of the title, not a near miss."""
    framed = record(
        title=f"An overview of {TITLE}", authors=people("Kaimin He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun")
    )
    assert assess(cite(), framed).title_form == "variant"
    stranger = record(
        title=f"An overview of {TITLE}", authors=people("Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Ada Lovelace")
    )
    assert assess(cite(), stranger).title_form is None


def test_a_comparison_is_the_object_model_construct_builds() -> None:
    # match/rules.py builds comparisons through records.construct, not model_construct: the same object.
    a = assess(cite(pages="1-9"), record(pages="770-778"))
    for name, built in a.fields.items():
        expected = FieldComparison.model_construct(**dict(built))
        assert built == expected and repr(built) == repr(expected), name
        assert built.model_fields_set == set(FieldComparison.model_fields)
        assert built.model_dump_json() == expected.model_dump_json()
