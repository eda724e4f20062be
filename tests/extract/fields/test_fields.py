"""The deterministic field parser on the reference styles papers actually use."""

from __future__ import annotations

import pytest

from citetracer.extract.fields.parser import parse_reference_string


def families(raw: str) -> list[str]:
    return [p.family for p in parse_reference_string(raw).authors]


@pytest.mark.parametrize(
    ("raw", "authors", "year", "title"),
    [
        (  # APA
            "Hinton, G. E., & Nowlan, S. J. (1987). How learning can guide evolution. Complex Systems, 1, 495-502.",
            ["Hinton", "Nowlan"],
            1987,
            "How learning can guide evolution",
        ),
        (  # Chicago author-date, inverted first author with full given name
            "Bradley, Elizabeth, and Holger Kantz. 2015. “Nonlinear Time-Series Analysis Revisited.” "
            "Chaos 25 (9):097610.",
            ["Bradley", "Kantz"],
            2015,
            "Nonlinear Time-Series Analysis Revisited",
        ),
        (  # IEEE, quoted title
            "[3] J. B. Kam and J. D. Ullman, “Monotone data flow analysis frameworks,” Acta Informatica, vol. 7, "
            "no. 3, pp. 305-317, Jul. 1977.",
            ["Kam", "Ullman"],
            1977,
            "Monotone data flow analysis frameworks",
        ),
        (  # ACL / NeurIPS: given names first, year after authors
            "Albert R. Meyer and Mitchell Wand. 1985. Continuation semantics in typed lambda calculi. "
            "In Proceedings of Logics of Programs, pages 219-224.",
            ["Meyer", "Wand"],
            1985,
            "Continuation semantics in typed lambda calculi",
        ),
        (  # Vancouver / Nature-biomed
            "1. Pérez-Higueras JJ, Arias A, de la Macorra JC, Peters OA. Differences in cyclic fatigue resistance "
            "between instruments. J Endod. 2013;39(12):1585-7.",
            ["Pérez-Higueras", "Arias", "de la Macorra", "Peters"],
            2013,
            "Differences in cyclic fatigue resistance between instruments",
        ),
        (  # "Surname, I." list ending at the period after the last initial
            "Ancona, D., and Zucca, E. An algebraic approach to mixins and modularity. In Proc. Conference on "
            "Algebraic and Logic Programming (Berlin, 1996).",
            ["Ancona", "Zucca"],
            1996,
            "An algebraic approach to mixins and modularity",
        ),
        (  # comma style with the venue after a comma
            "Feferman, S., Transfinite Recursive Progressions of Axiomatic Theories, J. Symbolic Logic, 27, "
            "259-316 (1962).",
            ["Feferman"],
            1962,
            "Transfinite Recursive Progressions of Axiomatic Theories",
        ),
        (  # semicolons between authors, month in the year parentheses
            "Levy, H.; Lessman, F. (Dec. 1992). Finite Difference Equations. Dover.",
            ["Levy", "Lessman"],
            1992,
            "Finite Difference Equations",
        ),
    ],
)
def test_styles(raw: str, authors: list[str], year: int, title: str) -> None:
    ref = parse_reference_string(raw)
    assert [p.family for p in ref.authors] == authors
    assert ref.year == year
    assert ref.title == title


def test_et_al_and_identifiers() -> None:
    ref = parse_reference_string(
        "Vaswani, A., et al. (2017). Attention is all you need. arXiv preprint arXiv:1706.03762v5. "
        "https://doi.org/10.48550/arXiv.1706.03762"
    )
    assert ref.et_al and families(ref.raw or "") == ["Vaswani"]
    assert ref.arxiv_id == "1706.03762"
    assert ref.doi == "10.48550/arxiv.1706.03762"
    assert ref.title == "Attention is all you need"


def test_initials_given_names_kept() -> None:
    ref = parse_reference_string(
        "Packard, N. H., J. P. Crutchfield, and R. S. Shaw. 1980. Geometry from a Time Series."
    )
    assert [(p.given, p.family) for p in ref.authors] == [
        ("N. H.", "Packard"),
        ("J. P.", "Crutchfield"),
        ("R. S.", "Shaw"),
    ]


def test_venue_volume_issue_pages() -> None:
    ref = parse_reference_string(
        "Hunter, J. D. (2007). Matplotlib: A 2D graphics environment. Computing in Science & Engineering, 9(3), 90–95."
    )
    assert ref.venue == "Computing in Science & Engineering"
    assert (ref.volume, ref.issue, ref.pages) == ("9", "3", "90-95")


def test_in_proceedings_venue() -> None:
    ref = parse_reference_string(
        "Smith, J. 2020. A study. In Proceedings of the 58th Annual Meeting of the ACL, pages 1-10."
    )
    assert ref.venue and ref.venue.startswith("58th Annual Meeting of the ACL")


def test_title_only_journal_reference_has_no_title() -> None:
    ref = parse_reference_string("J. P. Collman. Acc. Chem. Res. 10, 265 (1977).")
    assert ref.title is None
    assert ref.year == 1977
    assert families(ref.raw or "") == ["Collman"]


def test_pdf_spacing_is_repaired_before_parsing() -> None:
    ref = parse_reference_string("B. Buyens, J. Haegeman, Matrix product states ,Phys .Rev .Lett .113 ( 2014 ) 091601")
    assert ref.year == 2014
    assert ref.title == "Matrix product states"


def test_organisation_author_and_news_date() -> None:
    ref = parse_reference_string(
        "U.S. Army Corps of Engineers (2009, June 29). Selection of Design Earthquakes. EM 1110."
    )
    assert [p.family for p in ref.authors] == ["U.S. Army Corps of Engineers"]
    assert ref.year == 2009
    assert ref.title == "Selection of Design Earthquakes"


def test_bare_year_after_names_and_dash_placeholder() -> None:
    ref = parse_reference_string("Boas, Franz 1935 Kwakiutl Culture as Reflected in Mythology. New York.")
    assert families(ref.raw or "") == ["Boas"] and ref.year == 1935
    assert ref.title == "Kwakiutl Culture as Reflected in Mythology"
    same = parse_reference_string("———. 1983. The Fractal Geometry of Nature. New York, NY: Macmillan.")
    assert same.authors == [] and same.year == 1983 and same.title == "The Fractal Geometry of Nature"


def test_identifiers_broken_by_line_ends_and_ocr_spacing() -> None:
    ref = parse_reference_string("Doe, J. (2021). T. PLOS, 17(3), 1-26. https: //doi.org/10.1371/journal.pcbi. 1008770")
    assert ref.doi == "10.1371/journal.pcbi.1008770"
    ref = parse_reference_string("Doe, J. (2019). T. Journal. doi:10.1000/abc. Next thing")
    assert ref.doi == "10.1000/abc"


def test_editors_are_not_the_venue() -> None:
    ref = parse_reference_string(
        "Linden, A., & Weber, F. (1993). Implementing inner drive. In Roitblat, H. (Ed.), Proceedings of the "
        "2nd International Conference on Simulation of Adaptive Behavior. MIT Press."
    )
    assert ref.venue == "2nd International Conference on Simulation of Adaptive Behavior"


def test_decomposed_accents_are_composed_first() -> None:
    # "Pe\u0301rez": a letter and a combining accent, as some PDFs and files store it.
    ref = parse_reference_string("Pe\u0301rez, J., & Lo\u0301pez, A. (2010). Salt marsh birds. Wetlands, 4, 1-9.")
    assert [p.family for p in ref.authors] == ["Pérez", "López"]
    assert ref.year == 2010


def test_a_title_in_the_authors_place_is_not_read_as_an_organisation() -> None:
    # APA puts the title first when there is no author; lower-case content words mark it as a sentence.
    ref = parse_reference_string("Good chemistry. (1996, September). Wake Forest University Magazine, 44(1).", None)
    assert ref.authors == [] and ref.title == "Good chemistry" and ref.year == 1996
    org = parse_reference_string("Department of Health and Aged Care. (1999). Mental health. Canberra: AGPS.", None)
    assert [p.family for p in org.authors] == ["Department of Health and Aged Care"]


def test_closing_quote_glued_to_the_venue_is_spaced() -> None:
    from citetracer.extract.fields.parser import model_input

    assert model_input('A. Wall, "No dual?,"JHEP 1704, 134 (2017).')[0] == 'A. Wall, "No dual?," JHEP 1704, 134 (2017).'
    assert model_input("Narboux, Jean, L’illusion, Paris.")[0] == "Narboux, Jean, L’illusion, Paris."


def test_an_issue_before_the_pages_is_not_a_page() -> None:
    """ "6 (3):1–36" (a space before the issue, as real lists print it) gave pages "3"; the issue is not a page, and a
    range the span holds after it is the pages."""
    ref = parse_reference_string(
        "A. Smith and B. Jones. Learning things well. ACM Transactions on Probabilistic Machine Learning, 6 (3):1–36, "
        "2020."
    )
    assert (ref.volume, ref.issue, ref.pages) == ("6", "3", "1-36")


def test_a_books_house_after_its_title_is_its_publisher() -> None:
    """ "Authors. Title. House, Year." names a book by its publisher (CiteAudit strings): the house is kept as the
    publisher, which tells the work's kind, and a paper's venue is not taken for one."""
    book = parse_reference_string("Pauline M Doran. Bioprocess engineering principles. Elsevier, 1995.")
    assert (book.title, book.venue, book.publisher) == ("Bioprocess engineering principles", None, "Elsevier")
    paper = parse_reference_string("A. Vaswani and N. Shazeer. Attention is all you need. In NeurIPS, 2017.")
    assert (paper.venue, paper.publisher) == ("NeurIPS", None)


def test_a_title_opened_with_a_closing_quote_keeps_the_name_before_it() -> None:
    """Word processors write an opening quote typed after a comma as a closing one (a real PDF's list):
    the name before it stays an author, and a quote closed after an opening one is left alone."""
    ref = parse_reference_string(
        "Paetsch F., Eberlein A., Maurer F.,\u201dRequirements Engineering and Agile Software Development\u201d, "
        "Proceedings of the 12 IEEE International workshop, IEEE Computer society, 2003, pp 1-6"
    )
    assert [p.family for p in ref.authors] == ["Paetsch", "Eberlein", "Maurer"]
    assert ref.title == "Requirements Engineering and Agile Software Development"
    ieee = parse_reference_string("J. Smith and K. Lee, \u201cDeep learning for things,\u201d in Proc. CVPR, 2019.")
    assert [p.family for p in ieee.authors] == ["Smith", "Lee"] and ieee.title == "Deep learning for things"


@pytest.mark.parametrize(
    ("run", "expected"),
    [
        ('"Le Droit à la ville.', '"Le Droit à la ville. Cheminements géographiques."'),  # cut at a period inside
        (
            'Le Droit à la ville. Cheminements géographiques." Revue',
            'Le Droit à la ville. Cheminements géographiques."',
        ),
        ("Revue de géographie", "Revue de géographie"),  # not quoted: left alone
    ],
)
def test_a_quoted_title_runs_to_its_closing_quote(run: str, expected: str) -> None:
    from citetracer.extract.fields.normalizers import whole_quote as _whole_quote

    text = 'E. Pereira, "Le Droit à la ville. Cheminements géographiques." Revue de géographie 75, 2011.'
    assert _whole_quote(run, text) == expected


def test_an_apostrophe_is_not_a_closing_quote() -> None:
    from citetracer.extract.fields.normalizers import whole_quote as _whole_quote

    text = "R. Roberts, ‘Order and the Church’s Future’ (78-96), in Managing the Church?, Sheffield, 2000."
    assert _whole_quote("‘Order and", text) == "‘Order and the Church’s Future’"


def test_a_title_run_that_closes_a_quotation_starts_where_it_opens() -> None:
    from citetracer.extract.fields.normalizers import whole_quote as _whole_quote

    text = "“Curiosity Rover Report (August 2015): Three Years on Mars!” NASA’s Journey to Mars, 30 July 2015."
    assert _whole_quote("Three Years on Mars!”", text) == "“Curiosity Rover Report (August 2015): Three Years on Mars!”"


@pytest.mark.parametrize(
    ("raw", "authors"),
    [
        ("N. W. Ashcroft and N. D. Mermin, Solid State Physics (Cengage Learning, 1976).", ["Ashcroft", "Mermin"]),
        ("V. O. Key, Politics, Parties, and Pressure Groups (New York: Crowell, 1964).", ["Key"]),
        # Names without initials after names written with them in full stay names.
        ("Sokol, B. J., and Mary Sokol. Shakespeare, Law, and Marriage. Cambridge, 2003.", ["Sokol", "Sokol"]),
    ],
)
def test_words_without_initials_after_initials_first_names_are_the_title(raw: str, authors: list[str]) -> None:
    assert [p.family for p in parse_reference_string(raw, None).authors] == authors


def test_single_quoted_title_and_apostrophes() -> None:
    from citetracer.extract.fields.normalizers import whole_quote as _whole_quote

    text = "F. Green, Y. Zhu, 'Overqualification and the Returns', Oxford Economic Papers 62, 2010."
    assert _whole_quote("'Overqualification and the Returns', Oxford Economic Papers", text) == (
        "'Overqualification and the Returns'"
    )
    # An apostrophe inside a word opens nothing; one ending a word ("Teachers'") closes nothing.
    other = "O'Hara, J. Teachers' views of science. Journal of Education, 2001."
    assert _whole_quote("Hara, J. Teachers", other) == "Hara, J. Teachers"
    assert _whole_quote("Teachers' views of science.", other) == "Teachers' views of science."


@pytest.mark.parametrize(
    ("raw", "title"),
    [
        (
            "F. Green, Y. Zhu, 'Overqualification and the Returns', Oxford Economic Papers 62, 2010.",
            "Overqualification and the Returns",
        ),
        (
            "Roberts, R., ‘Order and the Church’s Future’, in Managing the Church?, Sheffield, 2000.",
            "Order and the Church’s Future",
        ),
        # Apostrophes are not quotes.
        ("O'Hara, J. (2001). Teachers' views of science. Journal of Education, 3, 1-9.", "Teachers' views of science"),
    ],
)
def test_rules_read_single_quoted_titles(raw: str, title: str) -> None:
    assert parse_reference_string(raw, None).title == title


def test_french_quotes_standing_apart_from_their_words_close_the_title() -> None:
    from citetracer.extract.fields.normalizers import whole_quote as _whole_quote

    text = "Adamson, Glenn. « When Craft Gets Sloppy ». Crafts no. 211. London: Crafts Council, 2008."
    assert _whole_quote("« When Craft Gets Sloppy ». Crafts no", text) == "« When Craft Gets Sloppy »"
    assert _whole_quote("When Craft Gets Sloppy ». Crafts no", text) == "When Craft Gets Sloppy »"


def test_names_the_model_reads_as_the_title_are_not_kept_as_authors() -> None:
    from citetracer.extract.fields.parser import _combine, _read_by_rules, prepare

    raw = "Randall Packard, White Plague, Black Labour: Tuberculosis and the political economy of health (1989)."
    ref, text, _marks = _read_by_rules(raw, prepare(raw))
    assert [p.family for p in ref.authors] == ["Packard", "Plague"]  # the rules alone cannot tell
    model_reading = {"author": "Randall Packard,", "title": "White Plague, Black Labour: Tuberculosis and the"}
    combined = _combine(ref, model_reading, text)
    assert [p.family for p in combined.authors] == ["Packard"]
    assert combined.title == "White Plague, Black Labour: Tuberculosis and the"


def test_a_title_the_model_read_on_into_the_names_is_kept_and_unread_names_are_not_a_title() -> None:
    """The model's author run may swallow a short title-case title; the author reader stops where the names end,
    and what it leaves is the rules' title. Names the reader cannot read (French "et", initials) stay no title."""
    from citetracer.extract.fields.parser import _combine, _read_by_rules, prepare

    raw = "Andreas, J., Rohrbach, M., Darrell, T., and Klein, D. Neural Module Networks, July 2017."
    ref, text, _marks = _read_by_rules(raw, prepare(raw))
    run_on = {
        "author": "Andreas, J., Rohrbach, M., Darrell, T., and Klein, D. Neural Module Networks,",
        "year": "July 2017.",
    }
    combined = _combine(ref, run_on, text)
    assert combined.title == "Neural Module Networks"
    assert [p.family for p in combined.authors] == ["Andreas", "Rohrbach", "Darrell", "Klein"]

    raw = "EINHORN, I. L. SOULIER, C. BACQUET et D. LELANDAIS. Can. J. Chem. 61, 584 (1983)."
    ref, text, _marks = _read_by_rules(raw, prepare(raw))
    names_only = {"author": "EINHORN, I. L. SOULIER, C. BACQUET et D. LELANDAIS.", "container": "Can. J. Chem."}
    assert _combine(ref, names_only, text).title is None


def test_a_name_before_an_editor_mark_is_still_read_as_the_author() -> None:
    raw = "Smith, John. Ed. Peter Washington. Ghost Stories. London: Verso, 2008."
    ref = parse_reference_string(raw, labeller=None)
    assert [p.family for p in ref.authors][:1] == ["Smith"]


#: Real citations whose parse made them look fabricated online (issue 40): the fields a checker searches by.
ML_PAPER_CITATIONS = [
    (  # a long list of full names, one of three words, then "Title, Month Year." and nothing else
        "Li Chen, Rasmus Kyng, Yang P. Liu, Richard Peng, Maximilian Probst Gutenberg, and Sushant Sachdeva. "
        "Maximum Flow and Minimum-Cost Flow in Almost-Linear Time, April 2022.",
        "Maximum Flow and Minimum-Cost Flow in Almost-Linear Time",
        ["Chen", "Kyng", "Liu", "Peng", "Gutenberg", "Sachdeva"],
    ),
    (
        "Yejin Bang, Ziwei Ji, Alan Schelten, Anthony Hartshorn, Tara Fowler, Cheng Zhang, Nicola Cancedda, and "
        "Pascale Fung. HalluLens: LLM Hallucination Benchmark, 2025.",
        "HalluLens: LLM Hallucination Benchmark",
        ["Bang", "Ji", "Schelten", "Hartshorn", "Fowler", "Zhang", "Cancedda", "Fung"],
    ),
    (  # a three-word title-case title the model reads on from the names (a .bbl with braces kept)
        "Andreas, J., Rohrbach, M., Darrell, T., and Klein, D. \\newblock Neural {Module} {Networks}, July 2017. "
        "\\newblock URL \\url{http://arxiv.org/abs/1511.02799}. \\newblock arXiv:1511.02799 [cs].",
        "Neural Module Networks",
        ["Andreas", "Rohrbach", "Darrell", "Klein"],
    ),
    (  # a reference manager's comment after the date is a note, not the title
        "Sébastien Bubeck. Convex Optimization: Algorithms and Complexity, November 2015. Comment: A previous "
        'version of the manuscript was titled "Theory of Convex Optimization for Machine Learning".',
        "Convex Optimization: Algorithms and Complexity",
        ["Bubeck"],
    ),
    (  # glued initials, then a family name of two particles
        "Tycho F.A. van der Ouderaa and Mark van der Wilk. Learning invariant weights in neural networks. In James "
        "Cussens and Kun Zhang (eds.), Proceedings of the Thirty-Eighth Conference on Uncertainty in Artificial "
        "Intelligence, volume 180 of Proceedings of Machine Learning Research, pp. 1992–2001. PMLR, 2022.",
        "Learning invariant weights in neural networks",
        ["van der Ouderaa", "van der Wilk"],
    ),
    (  # a book's series after its title
        "Dimitris Bertsimas and John N. Tsitsiklis. Introduction to Linear Optimization. Athena Scientific Series "
        "in Optimization and Neural Computation. Athena Scientific, Belmont, Mass, 1997.",
        "Introduction to Linear Optimization",
        ["Bertsimas", "Tsitsiklis"],
    ),
]


@pytest.mark.parametrize(("raw", "title", "families"), ML_PAPER_CITATIONS)
def test_citations_from_ml_papers_keep_their_title_and_authors(raw: str, title: str, families: list[str]) -> None:
    ref = parse_reference_string(raw)
    assert ref.title == title
    assert [p.family for p in ref.authors] == families
