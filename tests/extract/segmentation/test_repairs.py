"""The rules that repair the line segmenter's reading (extract/segmentation/repairs.py), on lines as the model
read them: each test gives labels with the model's mistake and, beside it, an honest reading of the same shape
that the rule must leave alone."""

from __future__ import annotations

from citetracer.extract.layout.page import Line
from citetracer.extract.segmentation.repairs import (
    drop_stray_feet,
    join_split_entries,
    rejoin_after_floats,
    split_run_together,
)


def _line(text: str, page: int, y: float, x: float = 72.0) -> Line:
    return Line(text=text, page=page, column=0, x0=x, y0=y, x1=x + 300, y1=y + 9, size=9.0)


def _read(entries: list[list[str]], starts: list[int]) -> tuple[list[Line], list[str]]:
    """The entries' lines, and labels that start a reference at the given line indices (as a model read them)."""
    lines = [_line(t, 0, 100 + 10 * k) for k, t in enumerate(t for entry in entries for t in entry)]
    return lines, ["B" if k in starts else "I" for k in range(len(lines))]


def test_an_author_year_reference_read_with_no_year_is_joined_to_the_piece_that_holds_it() -> None:
    """Pieces the model cut from AAAI-like flush entries (seen on held-out templates): names broken off at an
    initial or a comma before the line with the year, the names apart from a line opening with the year,
    and a title's end after a table that interrupted it (the piece before ends mid-phrase) are each one
    reference again; an entry with its year, and one with none that ends as entries end, stay apart."""
    entries = [
        ["Michael Chang, Alyssa L. Dayan, Franziska Meier, Thomas L.", "Griffiths, and Amy Zhang. 2023. A title."],
        ["John M. Abowd, Robert Ashmead, William Sexton,", "Ashley Simpson, and Pavel Zhuravlev. 2021. An", "Idea."],
        ["Zhen Qin, Le Yan, and Marc Najork.", "2021. Are Neural Rankers still Outperformed? In ICLR."],
        ["Rui Liu, and Hany Hassan. 2022. Gating Dropout: Regularization for", "Sparse Transformers. In ICML."],
        ["PyTorch Contributors. PyTorch documentation. Online manual."],
        ["Yuxuan Lu and Yuqing Kong. 2023. Calibrating Cheap Signals. In NeurIPS."],
    ]
    # the model's cuts: at each entry's first line and inside the first four (lines 1, 3, 6, 8)
    lines, labels = _read(entries, [0, 1, 2, 3, 5, 6, 7, 8, 9, 10])
    got = join_split_entries(lines, labels)
    assert [k for k, label in enumerate(got) if label == "B"] == [0, 2, 5, 7, 9, 10]
    # a numbered list is left as read: there the year closes an entry, and one without a year may end on a word
    numbered = [
        ["[1] A. Smith and B. Jones. A title. In ICML, 2021."],
        ["[2] R. Roe. PyTorch: An Online Manual"],
        ["[3] K. Lee. Another title. In NeurIPS, 2019."],
    ]
    lines, labels = _read(numbered, [0, 1, 2])
    assert join_split_entries(lines, labels) == labels


def test_an_author_year_reference_read_as_its_names_and_year_alone_takes_its_title_back() -> None:
    """AAAI breaks the line after "Names. 2024." when the names fill it, and the model read the next line
    ("Divide-or-Conquer? Which Part Should You Distill Your LLM? In") as a new reference (held-out aaai, seed 3).
    A reference of names and a year with nothing after them is the head of an entry: the undated piece after it
    is its title and venue. An undated piece after a reference with a title, one that ends on a year of
    publication, stays apart."""
    head = ["Zhuofeng Wu, Richard He Bai, Jiatao Gu, V. G. Vinod Vydiswaran,", "and Yizhe Zhang. 2024."]
    rest = ["Divide-or-Conquer? Which Part Should You Distill Your LLM? In", "Empirical Methods in NLP."]
    others = [
        ["Pulkit Verma and Siddharth Srivastava. 2021. Asking the Right", "Questions. In AAAI."],
        ["Rong Yin, Yong Liu, and Dan Meng. 2022. Randomized Sketches for", "Clustering. In NeurIPS."],
        ["Xikun Zhang and Jure Leskovec. 2022. GreaseLM: Graph Reasoning.", "In ICLR."],
    ]
    lines, labels = _read([others[0], head, rest, *others[1:]], [0, 2, 4, 6, 8])
    assert [k for k, label in enumerate(join_split_entries(lines, labels)) if label == "B"] == [0, 2, 6, 8]
    titled = ["Gao, K. 2020. Deep learning. Springer, Berlin, 2021."]
    manual = ["PyTorch Contributors. PyTorch documentation. Online manual."]
    lines, labels = _read([others[0], [titled[0]], manual, *others[1:]], [0, 2, 3, 4, 6])
    assert join_split_entries(lines, labels) == labels


def test_an_author_year_list_that_ends_its_lines_on_the_year_is_still_author_year() -> None:
    """AAAI and ACM set "Names. 2022." and break the line there whenever the names fill it: the lines show few
    years with text after them, so the list read as numbered and a long name list cut before its last names
    ("..., Chunfeng Wang," then "Xiang Yin, and Zhou Zhao. 2024.") stayed two references (held-out aaai)."""
    entries = [
        ["Ahmet Alacaoglu, Luca Viano, Niao He, and Volkan Cevher. 2022.", "A Natural Actor-Critic. In ICML."],
        ["Jason M. Altschuler, Sinho Chewi, and Austin J.", "Stromme. 2021. Averaging on the manifold. In NeurIPS."],
        ["Hossein Askari, Yasir Latif, and Hongfu Sun. 2023.", "MapFlow: latent transition. Machine Learning."],
        [
            "Ziyue Jiang, Jinglin Liu, Yi Ren, Jinzheng He, Zhenhui Ye,",
            "Chen Zhang, Pengfei Wei, Chunfeng Wang,",
            "Xiang Yin, and Zhou Zhao. 2024.",
            "Mega-TTS 2: Boosting Prompting. In ICLR.",
        ],
        ["Abhishek Kumar, Sunabha Chatterjee, and Piyush Rai. 2021.", "Bayesian Structural Adaptation. In ICML."],
    ]
    lines, labels = _read(entries, [0, 2, 4, 6, 8, 10])
    assert [k for k, label in enumerate(join_split_entries(lines, labels)) if label == "B"] == [0, 2, 4, 6, 10]
    # A list whose entries close on their year is left as read, even with an entry that has no year.
    closing = [
        ["Ahmet Alacaoglu and Volkan Cevher. A Natural Actor-Critic.", "In ICML, 2022."],
        ["PyTorch Contributors. PyTorch documentation. Online", "Manual"],
        ["Hossein Askari and Hongfu Sun. MapFlow: latent transition.", "Machine Learning, 2023."],
        ["Abhishek Kumar and Piyush Rai. Bayesian Structural Adaptation.", "In ICML, 2021."],
    ]
    lines, labels = _read(closing, [0, 2, 4, 6])
    assert join_split_entries(lines, labels) == labels


def test_two_author_year_entries_read_as_one_are_cut_apart_where_the_second_names_open() -> None:
    """A flush APA list (held-out article-apalike): the model read "Girdhar, R., ..." after an entry that had
    closed ("... Research.") as more of it. Names that open a line after a closed sentence, in a reference that
    has stated its year, and run into a year of their own with a title after it start the next reference; a
    publisher's line that closes on a year ("Springer, Berlin, 2021.") does not, nor does a numbered list."""
    entries = [
        ["Bach, F. and Jenatton, R. (2021). Problems with Group Sparse", "Regularization. In TMLR."],
        ["Gao, K. (2020). Deep learning.", "Springer, Berlin, 2021."],
        [
            "Girdhar, R., El-Nouby, A., Liu, Z., Singh, M.,",
            "Alwala, K. V., and Misra, I. (2023).",
            "ImageBind: One Embedding Space. In CVPR.",
        ],
        ["Guo, H. and Wang, S. (2021). Long-Tailed Recognition.", "In CVPR."],
    ]
    lines, labels = _read(entries, [0, 2, 7])  # "Girdhar" (line 4) read inside "Gao"'s reference
    assert [k for k, label in enumerate(split_run_together(lines, labels)) if label == "B"] == [0, 2, 4, 7]
    # A consortium's names fill several lines before its year (held-out aaai).
    consortium = [
        ["Kemal Brown, Fatima Moreauson, Anna Olsenova, Dana Quinn-", "son, Kemal Jensener, Anna Nakamurason,"],
        ["Ines Diazer, Emil Evans, Dana Olsenova, Goran Silvaova, Anna", "Hansenson, Hiro Abeer, Dana Silvaova,"],
        ["Lea Garciaer, Anna Jensenson, Hiro Abeson, and 207 others. 2021.", "Results of a large collaboration."],
    ]
    lines, labels = _read([entries[0], [t for part in consortium for t in part], entries[3]], [0, 8])
    assert [k for k, label in enumerate(split_run_together(lines, labels)) if label == "B"] == [0, 2, 8]
    numbered = [
        ["[1] Gao, K. (2020). Deep learning.", "Girdhar, R. and Misra, I. (2023). ImageBind: One Space. In CVPR."],
        ["[2] Guo, H. (2021). Long-Tailed Recognition. In CVPR."],
        ["[3] Han, K. (2022). Another title. In ICML."],
    ]
    lines, labels = _read(numbered, [0, 2, 3])
    assert split_run_together(lines, labels) == labels


def test_a_long_name_list_cut_where_a_line_opens_surname_given_is_joined_in_a_year_last_list() -> None:
    """A COLM list sets the year last ("Names. Title. Venue, 2023."); an entry of 39 authors was cut where a line
    opened "Borgwardt, Guoyuan An, ..." (a "Surname, Given" shape) after one that stopped on "Karsten" (held-out
    colm24, seed 11). A piece that is names alone and stops open is no reference: it joins the next piece. A
    piece with a title (a period after its names) that stops on a word, and a numbered list, are left as read."""
    entries = [
        ["Abubakar Abid, Mert Yuksekgonul, and James Zou. Meaningfully debugging model", "mistakes. In ICML, 2022."],
        [
            "Nicklas Hansen, Hao Su, Xiaolong Wang, Keyi Chen, Francesco Orabona, Matt",
            "Barnes, Oliver F. Lange, Shawn O'Banion, Matthias Fey, Karsten",
            "Borgwardt, Guoyuan An, Yuchi Huo, and Sung Eui Yoon. Dynamic Pricing and",
            "Learning with Bayesian Persuasion. In NeurIPS, 2023.",
        ],
        ["Po-Yao Huang, Hu Xu, and Christoph Feichtenhofer. Masked Autoencoders that", "Listen. In NeurIPS, 2022."],
    ]
    lines, labels = _read(entries, [0, 2, 4, 6])  # "Borgwardt" (line 4) read as a new reference
    assert [k for k, label in enumerate(join_split_entries(lines, labels)) if label == "B"] == [0, 2, 6]
    titled = [
        entries[0],
        ["Anna Lee, Ben Ito, Chen Wu, and Dana Roe. PyTorch documentation. Online", "Manual"],
        ["Borgwardt, Karsten, Guoyuan An, and Yuchi Huo. Graph Kernels. In NeurIPS, 2023."],
        entries[2],
    ]
    lines, labels = _read(titled, [0, 2, 4, 5])
    assert join_split_entries(lines, labels) == labels
    numbered = [
        ["[1] Nicklas Hansen, Hao Su, Xiaolong Wang, Keyi Chen, Matthias Fey, Karsten"],
        ["[2] Borgwardt, Guoyuan An, and Yuchi Huo. Graph Kernels. In NeurIPS, 2023."],
        ["[3] Po-Yao Huang and Hu Xu. Masked Autoencoders. In NeurIPS, 2022."],
    ]
    lines, labels = _read(numbered, [0, 1, 2])
    assert join_split_entries(lines, labels) == labels


def test_names_with_lower_case_particles_open_the_next_author_year_entry() -> None:
    """A flush AAAI list (held-out aaai): "Francesco d'Amore, Daniel Mitropolsky, ..." after an entry that had
    closed ("... Machine Learning.") stayed inside it, because a name read as a name only when each of its words
    is capitalised. A given name, lower-case particles ("van", "de la") or an elided one ("d'"), and a
    capitalised surname open a name as well; a title line of the same shape with no year after it ("Ludwig van
    Beethoven, a Life in Letters.") stays where it is."""
    closed = ["Yuning Cui and Alois Knoll. 2023. IRNeXt: Rethinking Network Design.", "In Machine Learning."]
    others = [["Ayan Das and Yi-Zhe Song. 2022. SketchODE: Learning sketches. In ICLR."]]
    others += [["Alireza Fallah and Asuman E. Ozdaglar. 2022. Bridging Privacy. In NeurIPS."]]
    for names in (
        "Dario d'Amore, Daniel Mitropolsky, and Christos H. Papadimitriou.",
        "Ludwig van Beethoven, Clara Schumann, and Johannes Brahms.",
        "Jean de la Fontaine and Charles Perrault.",
    ):
        entries = [closed, [names, "2022. Planning with Biological Neurons. In AAAI."], *others]
        lines, labels = _read(entries, [0, 4, 5])
        assert [k for k, label in enumerate(split_run_together(lines, labels)) if label == "B"] == [0, 2, 4, 5], names
    titled = [
        ["Roe, J. 2020. Letters.", "Ludwig van Beethoven, a Life in Letters. Oxford University Press."],
        *others,
        ["Kim, S. 2018. A third title. In Venue."],
    ]
    lines, labels = _read(titled, [0, 2, 3, 4])
    assert split_run_together(lines, labels) == labels


def test_the_rest_of_a_reference_after_a_float_is_read_into_it_again() -> None:
    """A table among the references (held-out acmart, acl-review): the model read the table as O, and the
    reference's last lines after it too, so "... Towards the Unification and Robustness of" lost "Perturbation
    and Gradient Based Explanations. In ICML." silently. Lines at the list's continuation x, in its size, after
    the float and before the next reference, join the reference that stopped open; a caption, a line elsewhere
    on the page, or the lines after a reference that ended as references end stay out."""
    entry = [
        _line("[5] Sushant Agarwal, Shahin Jabbari, and Himabindu Lakkaraju. 2021.", 0, 100, 57),
        _line("Towards the Unification and Robustness of", 0, 110, 69),
    ]
    table = [_line("Method Acc F1", 0, 120, 150), _line("Table 1: Results of baselines.", 0, 130, 69)]
    rest = [_line("Perturbation and Gradient Based Explanations. In", 0, 140, 69), _line("ICML.", 0, 150, 69)]
    after = [_line("[6] Shunta Akiyama and Taiji Suzuki. 2021. On Learnability", 0, 160, 57)]
    after += [_line("via Gradient Method. In ICML.", 0, 170, 69)]
    lines = [*entry, *table, *rest, *after]
    labels = ["B", "I", "O", "O", "O", "O", "B", "I"]
    assert rejoin_after_floats(lines, labels) == ["B", "I", "O", "O", "I", "I", "B", "I"]
    # the reference before the float ended as references end: the lines after it are not its rest
    closed = [entry[0], _line("Towards the Unification. In ICML.", 0, 110, 69), *table, *rest, *after]
    assert rejoin_after_floats(closed, labels) == labels
    # no float between: the model's O on text lines is left alone
    lines = [*entry, *rest, *after]
    labels = ["B", "I", "O", "O", "B", "I"]
    assert rejoin_after_floats(lines, labels) == labels


def test_a_foot_printed_on_one_page_only_is_no_part_of_the_reference_above_it() -> None:
    """elsarticle prints "Preprint submitted to Elsevier    December 7, 2026" at the first page's foot only, so no
    running-text test sees it; with the list on that page the date was read into the last reference there, and
    the next page's first reference into it as well (held-out elsarticle-harv). A page's last line that starts
    where no line of the list on its page starts is O; one at the list's own x stays in."""
    lines = [
        _line("Agarwal, A., Tan, Y.S., Yu, B., 2022. Hierarchical Shrinkage: Improving", 0, 100, 306),
        _line("the accuracy of tree-based models, in: ICML.", 0, 110, 316),
        _line("Booth, R., Varzinczak, I., 2021. Conditional Inference under Disjunc-", 0, 120, 306),
        _line("tive Rationality, in: AAAI Conference on Artificial Intelligence.", 0, 130, 316),
        _line("December 7, 2026", 0, 150, 491),
        _line("Cui, Y., Ren, W., Knoll, A., 2024. Omni-Kernel Network for Im-", 1, 80, 37),
    ]
    labels = ["B", "I", "B", "I", "I", "B"]
    assert drop_stray_feet(lines, labels) == ["B", "I", "B", "I", "O", "B"]
    lines[4] = _line("Learning.", 0, 140, 316)
    assert drop_stray_feet(lines, labels) == labels
