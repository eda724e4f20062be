"""A scholarly web that answers the way the real services do, for real cited works.

bench/realonline.py checks real citations online against the fake web (tests/fakeweb); a web
that serves each citation's own fields back is far too consistent. Here each cited work gets a
"true" record (from the gold entry, or the string's parse) and then the records each service
would really return for it, after one documented behaviour of the real services, drawn
deterministically from a hash of the work at a rate that can be set:

- arxiv-only: a published paper whose OpenAlex record is its arXiv version only ("arXiv (Cornell
  University)", type preprint, the arXiv year: the published year or one earlier); Semantic
  Scholar holds the published venue under its own name (with `journal.name` "ArXiv" now and
  then) or, in a share, the arXiv version too; DBLP holds the proceedings record in a share,
  its CoRR copy always; Crossref holds nothing for venues without DOIs.
- published-later: a paper cited as an arXiv preprint whose OpenAlex record is the published
  version of a year later (Semantic Scholar keeps the arXiv year, DBLP both).
- redeposit-year: an old work (before 1995) whose Crossref/OpenAlex records carry a re-deposit
  or digitisation year (2005-2015); a journal article whose records carry the issue year, one
  or two after the online-first year cited (Crossref with only `published-print`; a DOI made
  here carries the cited year, a cited DOI is kept).
- service-venue-names: the venue as each service spells it (OpenAlex's and Crossref's long
  formal names, "Lecture Notes in Computer Science" for LNCS papers, DBLP's abbreviations,
  Semantic Scholar's names); for works before 2000 in a share, a collection that reprints them.
- cut-authors: an author list the services cut at 8, 10, 20, 50 or 100 names with no marker
  (OpenAlex marks a cut at 100 with `is_authors_truncated`, as it does).
- title-variant: the record's title with or without leading framing words or a subtitle.
- generic-title: other records sharing a short generic title (other authors, other years, a
  chapter of that title, a review of the book in a journal), beside the work's own.
- absent: no service holds the work.
- baseline: clean records in every service that would hold the work.

Works of a kind no index holds (software, web pages, model cards without an identifier) are
"unindexed"; citations whose title the parser could not find are "unparsed" (no record).
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Behaviour classes in the order they are drawn (each at its rate among the works it applies to
#: that no earlier class took), then the two that are not drawn.
CLASSES = (
    "absent",
    "cut-authors",
    "generic-title",
    "redeposit-year",
    "arxiv-only",
    "published-later",
    "service-venue-names",
    "title-variant",
)
OTHER_CLASSES = ("baseline", "unindexed", "unparsed")
#: Default rates: the share of the works a class applies to (and no earlier class took) that meet it.
RATES = {
    "absent": 0.05,
    "cut-authors": 0.6,
    "generic-title": 0.6,
    "redeposit-year": 0.4,
    "arxiv-only": 0.45,
    "published-later": 0.3,
    "service-venue-names": 0.45,
    "title-variant": 0.1,
}
#: Shares inside a class (fixed; stated in the report).
SHARES = {
    "arxiv-only: Semantic Scholar holds the published venue": 0.6,
    "arxiv-only: Semantic Scholar's journal.name is 'ArXiv'": 0.5,
    "arxiv-only: DBLP holds the proceedings record": 0.5,
    "arxiv-only: arXiv year one before the published year": 0.5,
    "redeposit-year: Semantic Scholar keeps the first year (old works)": 0.5,
    "service-venue-names: a reprinting collection (works before 2000)": 0.3,
    "cut-authors: Semantic Scholar cut too": 0.5,
    "generic-title: the work itself only in OpenAlex": 0.25,
    "generic-title: the work itself in no index (only the others)": 0.25,
}

ARXIV_OA = "arXiv (Cornell University)"
SEARCH = ("openalex", "semanticscholar")


def draw(key: str, salt: str) -> float:
    """A number in [0, 1) fixed by the work and the purpose: the same run gives the same web."""
    return int(hashlib.sha1(f"{salt}\x00{key}".encode()).hexdigest()[:12], 16) / 16**12


def pick(key: str, salt: str, options: list[Any] | tuple[Any, ...]) -> Any:
    return options[int(draw(key, salt) * len(options))]


def work_key(title: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", title.casefold()))


# ---------------------------------------------------------------- venues


@dataclass(frozen=True)
class Venue:
    """How the services name one venue; `{y}` is the year, `{n}` a number made from the work."""

    pattern: str
    vclass: str
    openalex: str
    openalex_type: str
    s2: str
    dblp: str | None
    dblp_prefix: str | None
    crossref: str | None = None
    doi: str | None = None
    #: Crossref's short-container-title.
    short: str | None = None


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


#: The venues of today's ML/NLP/CV reference lists as OpenAlex, Crossref, Semantic Scholar and DBLP
#: name them (spellings as the services show them; years and ordinals filled in per work).
VENUES = [
    Venue(
        r"neurips|\bnips\b|neural information processing",
        "ml-conf",
        "Neural Information Processing Systems",
        "conference",
        "Neural Information Processing Systems",
        "NeurIPS",
        "conf/nips",
    ),
    Venue(
        r"\bicml\b|international conference on machine learning",
        "ml-conf",
        "International Conference on Machine Learning",
        "conference",
        "International Conference on Machine Learning",
        "ICML",
        "conf/icml",
    ),
    Venue(
        r"\biclr\b|learning representations",
        "ml-conf",
        "International Conference on Learning Representations",
        "conference",
        "International Conference on Learning Representations",
        "ICLR",
        "conf/iclr",
    ),
    Venue(
        r"aistats|artificial intelligence and statistics",
        "ml-conf",
        "International Conference on Artificial Intelligence and Statistics",
        "conference",
        "International Conference on Artificial Intelligence and Statistics",
        "AISTATS",
        "conf/aistats",
    ),
    Venue(
        r"\bcolt\b|conference on learning theory",
        "ml-conf",
        "Annual Conference Computational Learning Theory",
        "conference",
        "Annual Conference Computational Learning Theory",
        "COLT",
        "conf/colt",
    ),
    Venue(
        r"\buai\b|uncertainty in artificial intelligence",
        "ml-conf",
        "Conference on Uncertainty in Artificial Intelligence",
        "conference",
        "Conference on Uncertainty in Artificial Intelligence",
        "UAI",
        "conf/uai",
    ),
    Venue(
        r"mlsys|machine learning and systems",
        "ml-conf",
        "Proceedings of Machine Learning and Systems",
        "conference",
        "Conference on Machine Learning and Systems",
        "MLSys",
        "conf/mlsys",
    ),
    Venue(
        r"\bcorl\b|conference on robot learning",
        "ml-conf",
        "Conference on Robot Learning",
        "conference",
        "Conference on Robot Learning",
        "CoRL",
        "conf/corl",
    ),
    Venue(
        r"pmlr|proceedings of machine learning research",
        "ml-conf",
        "Proceedings of Machine Learning Research",
        "book series",
        "Proceedings of Machine Learning Research",
        None,
        None,
    ),
    Venue(
        r"\btmlr\b|transactions on machine learning research",
        "ml-journal",
        "Transactions on Machine Learning Research",
        "journal",
        "Trans. Mach. Learn. Res.",
        "Trans. Mach. Learn. Res.",
        "journals/tmlr",
    ),
    Venue(
        r"\bjmlr\b|journal of machine learning research",
        "ml-journal",
        "Journal of Machine Learning Research",
        "journal",
        "Journal of machine learning research",
        "J. Mach. Learn. Res.",
        "journals/jmlr",
    ),
    Venue(
        r"findings",
        "acl",
        "Findings of the Association for Computational Linguistics: ACL {y}",
        "conference",
        "Findings",
        "ACL (Findings)",
        "conf/acl",
        "Findings of the Association for Computational Linguistics: ACL {y}",
        "10.18653/v1/{y}.findings-acl.{n}",
    ),
    Venue(
        r"annual meeting of the association for computational linguistics|^acl\b|\bacl \d{4}|\(acl\)",
        "acl",
        "Proceedings of the {acl}th Annual Meeting of the Association for Computational Linguistics (Volume 1: Long "
        "Papers)",
        "conference",
        "Annual Meeting of the Association for Computational Linguistics",
        "ACL (1)",
        "conf/acl",
        "Proceedings of the {acl}th Annual Meeting of the Association for Computational Linguistics "
        "(Volume 1: Long Papers)",
        "10.18653/v1/{y}.acl-long.{n}",
    ),
    Venue(
        r"emnlp|empirical methods in natural language",
        "acl",
        "Proceedings of the {y} Conference on Empirical Methods in Natural Language Processing",
        "conference",
        "Conference on Empirical Methods in Natural Language Processing",
        "EMNLP",
        "conf/emnlp",
        "Proceedings of the {y} Conference on Empirical Methods in Natural Language Processing",
        "10.18653/v1/{y}.emnlp-main.{n}",
    ),
    Venue(
        r"naacl|north american chapter",
        "acl",
        "Proceedings of the {y} Conference of the North American Chapter of the Association for Computational "
        "Linguistics: Human Language Technologies",
        "conference",
        "North American Chapter of the Association for Computational Linguistics",
        "NAACL-HLT",
        "conf/naacl",
        "Proceedings of the {y} Conference of the North American Chapter of the Association for Computational "
        "Linguistics: Human Language Technologies",
        "10.18653/v1/{y}.naacl-main.{n}",
    ),
    Venue(
        r"transactions of the association for computational linguistics|\btacl\b",
        "acl",
        "Transactions of the Association for Computational Linguistics",
        "journal",
        "Transactions of the Association for Computational Linguistics",
        "Trans. Assoc. Comput. Linguistics",
        "journals/tacl",
        "Transactions of the Association for Computational Linguistics",
        "10.1162/tacl_a_{n}",
    ),
    Venue(
        r"semeval|semantic evaluation",
        "acl",
        "Proceedings of the 16th International Workshop on Semantic Evaluation (SemEval-{y})",
        "conference",
        "International Workshop on Semantic Evaluation",
        "SemEval@NAACL",
        "conf/semeval",
        "Proceedings of the 16th International Workshop on Semantic Evaluation (SemEval-{y})",
        "10.18653/v1/{y}.semeval-1.{n}",
    ),
    Venue(
        r"cvpr|computer vision and pattern recognition",
        "cv",
        "{y} IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
        "conference",
        "Computer Vision and Pattern Recognition",
        "CVPR",
        "conf/cvpr",
        "{y} IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
        "10.1109/cvpr.{y}.{n}",
    ),
    Venue(
        r"iccv|international conference on computer vision",
        "cv",
        "{y} IEEE/CVF International Conference on Computer Vision (ICCV)",
        "conference",
        "IEEE International Conference on Computer Vision",
        "ICCV",
        "conf/iccv",
        "{y} IEEE/CVF International Conference on Computer Vision (ICCV)",
        "10.1109/iccv.{y}.{n}",
    ),
    Venue(
        r"wacv|winter conference on applications of computer vision",
        "cv",
        "{y} IEEE/CVF Winter Conference on Applications of Computer Vision (WACV)",
        "conference",
        "IEEE Workshop/Winter Conference on Applications of Computer Vision",
        "WACV",
        "conf/wacv",
        "{y} IEEE/CVF Winter Conference on Applications of Computer Vision (WACV)",
        "10.1109/wacv.{y}.{n}",
    ),
    Venue(
        r"eccv|european conference on computer vision",
        "lncs",
        "Lecture Notes in Computer Science",
        "book series",
        "European Conference on Computer Vision",
        "ECCV",
        "conf/eccv",
        "Lecture Notes in Computer Science",
        "10.1007/978-3-031-{n}",
        "Lecture Notes in Computer Science",
    ),
    Venue(
        r"icdar|document analysis and recognition",
        "lncs",
        "Lecture Notes in Computer Science",
        "book series",
        "IEEE International Conference on Document Analysis and Recognition",
        "ICDAR",
        "conf/icdar",
        "Lecture Notes in Computer Science",
        "10.1007/978-3-031-{n}",
        "Lecture Notes in Computer Science",
    ),
    Venue(
        r"miccai|medical image computing",
        "lncs",
        "Lecture Notes in Computer Science",
        "book series",
        "International Conference on Medical Image Computing and Computer-Assisted Intervention",
        "MICCAI",
        "conf/miccai",
        "Lecture Notes in Computer Science",
        "10.1007/978-3-031-{n}",
        "Lecture Notes in Computer Science",
    ),
    Venue(
        r"lecture notes|\blncs\b",
        "lncs",
        "Lecture Notes in Computer Science",
        "book series",
        "Lecture Notes in Computer Science",
        "LNCS",
        "series/lncs",
        "Lecture Notes in Computer Science",
        "10.1007/978-3-030-{n}",
        "Lecture Notes in Computer Science",
    ),
    Venue(
        r"interspeech",
        "speech",
        "Interspeech {y}",
        "conference",
        "Interspeech",
        "INTERSPEECH",
        "conf/interspeech",
        "Interspeech {y}",
        "10.21437/interspeech.{y}-{n}",
    ),
    Venue(
        r"icassp|acoustics,? speech,? and signal",
        "speech",
        "ICASSP {y} - {y} IEEE International Conference on Acoustics, Speech and Signal Processing (ICASSP)",
        "conference",
        "IEEE International Conference on Acoustics, Speech, and Signal Processing",
        "ICASSP",
        "conf/icassp",
        "ICASSP {y} - {y} IEEE International Conference on Acoustics, Speech and Signal Processing (ICASSP)",
        "10.1109/icassp.{y}.{n}",
    ),
    Venue(
        r"\baaai\b",
        "conference",
        "Proceedings of the AAAI Conference on Artificial Intelligence",
        "journal",
        "AAAI Conference on Artificial Intelligence",
        "AAAI",
        "conf/aaai",
        "Proceedings of the AAAI Conference on Artificial Intelligence",
        "10.1609/aaai.v{aaai}i1.{n}",
    ),
    Venue(
        r"ijcai|international joint conference on artificial intelligence",
        "conference",
        "International Joint Conference on Artificial Intelligence",
        "conference",
        "International Joint Conference on Artificial Intelligence",
        "IJCAI",
        "conf/ijcai",
        "Proceedings of the {ijcai}th International Joint Conference on Artificial Intelligence",
        "10.24963/ijcai.{y}/{n}",
    ),
    Venue(
        r"\bkdd\b|knowledge discovery and data mining",
        "conference",
        "Proceedings of the {kdd}th ACM SIGKDD International Conference on Knowledge Discovery & Data Mining",
        "conference",
        "Knowledge Discovery and Data Mining",
        "KDD",
        "conf/kdd",
        "Proceedings of the {kdd}th ACM SIGKDD International Conference on Knowledge Discovery & Data Mining",
        "10.1145/{n}",
    ),
    Venue(
        r"pattern analysis and machine intelligence|\bt?pami\b",
        "journal",
        "IEEE Transactions on Pattern Analysis and Machine Intelligence",
        "journal",
        "IEEE Transactions on Pattern Analysis and Machine Intelligence",
        "IEEE Trans. Pattern Anal. Mach. Intell.",
        "journals/pami",
        "IEEE Transactions on Pattern Analysis and Machine Intelligence",
        "10.1109/tpami.{y}.{n}",
        "IEEE Trans. Pattern Anal. Mach. Intell.",
    ),
    Venue(
        r"pnas|proceedings of the national academy",
        "journal",
        "Proceedings of the National Academy of Sciences",
        "journal",
        "Proceedings of the National Academy of Sciences of the United States of America",
        None,
        None,
        "Proceedings of the National Academy of Sciences",
        "10.1073/pnas.{n}",
        "Proc. Natl. Acad. Sci. U.S.A.",
    ),
    Venue(
        r"philosophical transactions.*\ba\b|phil(os)?\.? trans.*\ba\b",
        "journal",
        "Philosophical Transactions of the Royal Society A Mathematical Physical and Engineering Sciences",
        "journal",
        "Philosophical Transactions of the Royal Society A",
        None,
        None,
        "Philosophical Transactions of the Royal Society A: Mathematical, Physical and Engineering Sciences",
        "10.1098/rsta.{y}.{n}",
        "Phil. Trans. R. Soc. A",
    ),
    Venue(
        r"royal statistical society.*\bb\b",
        "journal",
        "Journal of the Royal Statistical Society Series B (Statistical Methodology)",
        "journal",
        "Journal of the Royal Statistical Society: Series B (Methodological)",
        None,
        None,
        "Journal of the Royal Statistical Society Series B: Statistical Methodology",
        "10.1111/j.2517-6161.{y}.{n}.x",
        "J. R. Stat. Soc. Ser. B",
    ),
    Venue(
        r"annals of statistics",
        "journal",
        "Annals of Statistics",
        "journal",
        "Annals of Statistics",
        None,
        None,
        "The Annals of Statistics",
        "10.1214/aos/{n}",
        "Ann. Statist.",
    ),
    Venue(
        r"neural computation",
        "journal",
        "Neural Computation",
        "journal",
        "Neural Computation",
        "Neural Comput.",
        "journals/neco",
        "Neural Computation",
        "10.1162/neco.{y}.{n}",
        "Neural Computation",
    ),
    Venue(
        r"commun.*acm|communications of the acm",
        "journal",
        "Communications of the ACM",
        "journal",
        "Communications of the ACM",
        "Commun. ACM",
        "journals/cacm",
        "Communications of the ACM",
        "10.1145/{n}",
        "Commun. ACM",
    ),
]
_VENUE_RES = [(re.compile(v.pattern, re.I), v) for v in VENUES]

PREPRINT = re.compile(r"arxiv|\bcorr\b|preprint|biorxiv|medrxiv|\bssrn\b|openreview|techrxiv|chemrxiv", re.I)
BOOKISH = re.compile(r"\bpress\b|^springer|^wiley|publisher|publishing|^elsevier|^o'reilly|^cambridge|^oxford", re.I)
CONFERENCE = re.compile(r"proceedings|conference|symposium|workshop|\bproc\.|congress|meeting", re.I)
JOURNAL = re.compile(
    r"journal|transactions|review|letters|\bnature\b|^science$|annals|magazine|bulletin|quarterly|"
    r"\bj\.|trans\.|rev\.|lett\.",
    re.I,
)
CS = re.compile(
    r"comput|learning|neural|network|language|algorithm|graph|data|software|robot|vision|transformer|\bllms?\b|"
    r"agent|intelligen|machine|program|code|model|retriev|semantic|speech|token|reinforcement|optimi[sz]|embedding|"
    r"attention|diffusion|inference|benchmark|dataset|privacy|secur|crypt|encrypt|\bai\b|\bacm\b|\bieee\b",
    re.I,
)
BIOMED = re.compile(
    r"biorxiv|medrxiv|medicine|medical|clinical|health|biolog|genom|genet|cancer|cardio|f1000|wellcome|"
    r"plos|lancet|nature|cell|neuro|pharma|immun|epidem",
    re.I,
)
#: DOI registrants by words of a journal's name (the record DOIs made for works cited without one).
PUBLISHERS = [
    (r"\bieee\b", "10.1109"),
    (r"\bacm\b", "10.1145"),
    (r"nature", "10.1038"),
    (r"springer|lecture notes", "10.1007"),
    (r"royal society", "10.1098"),
    (r"plos", "10.1371"),
    (r"frontiers", "10.3389"),
    (r"remote sensing|sensors|applied sciences|mdpi|entropy|mathematics$", "10.3390"),
    (r"bmc|genome biology", "10.1186"),
    (r"bioinformatics|oxford|brain$", "10.1093"),
    (r"siam", "10.1137"),
    (r"physical review", "10.1103"),
    (r"psycholog", "10.1037"),
    (r"statistic", "10.1080"),
    (r"wiley|cognitive science", "10.1111"),
    (r"mit press|neural computation|computational linguistics", "10.1162"),
    (r"science$", "10.1126"),
]

#: DOI registrants of DataCite (software, data, figures, arXiv): no Crossref record, no search index for the kind.
DATACITE = ("10.5281/", "10.48550/", "10.6084/", "10.5061/", "10.17632/", "10.13140/")
#: Publishers that put articles online before the issue (the issue year is then a year or two later).
ONLINE_FIRST = (
    "10.1016/",
    "10.1007/",
    "10.1002/",
    "10.1111/",
    "10.1109/",
    "10.1080/",
    "10.1177/",
    "10.1093/",
    "10.1017/",
    "10.3758/",
    "10.1037/",
)

#: Collections that reprint classic papers (title, year): statistics, then computing.
STATISTICS = re.compile(r"statistic|probab|regression|estimat|likelihood|bayes|stochastic", re.I)
REPRINTS_STATISTICS = [("Breakthroughs in Statistics", 1992), ("Breakthroughs in Statistics", 1997)]
REPRINTS = [
    ("Readings in Machine Learning", 1990),
    ("Neurocomputing: Foundations of Research", 1988),
    ("Readings in Speech Recognition", 1990),
    ("Readings in Computer Vision", 1987),
    ("Probabilistic and Causal Inference: The Works of Judea Pearl", 2022),
    ("Ideas That Created the Future: Classic Papers of Computer Science", 2021),
]
#: Journals that review books, and names for the other works that share a generic title.
REVIEW_JOURNALS = [
    "SIAM Review",
    "Technometrics",
    "Journal of the American Statistical Association",
    "Biometrics",
    "Journal of the Royal Statistical Society Series A (Statistics in Society)",
]
DECOY_VENUES = [
    "Neurocomputing",
    "Pattern Recognition Letters",
    "Proceedings of the IEEE",
    "Information Sciences",
    "Handbook of Brain Theory and Neural Networks",
    "Encyclopedia of Machine Learning",
]
DECOY_NAMES = [
    "Maria Schneider",
    "Wei Zhang",
    "James O'Connor",
    "Priya Raman",
    "Kenji Watanabe",
    "Laura Bianchi",
    "Ahmed Hassan",
    "Olga Petrova",
    "Daniel Fischer",
    "Sofia Martinez",
    "Chen Li",
    "Thomas Becker",
    "Elena Rossi",
    "David Kim",
    "Hannah Weber",
    "Rafael Costa",
    "Yuki Tanaka",
    "Michael Brown",
    "Anna Kowalski",
    "Jorge Silva",
    "Fatima Ali",
    "Peter Novak",
    "Ingrid Larsen",
    "Samuel Okafor",
]
#: Leading words a title may carry or drop between versions, and subtitles added or dropped.
FRAMINGS = ["An overview of", "A survey of", "Towards", "On", "A study of", "Revisiting"]
SUBTITLES = ["A survey", "Methods and applications", "An empirical study", "Theory and practice", "A review"]
#: Author-list page sizes of the services.
CUTS = (8, 10, 20, 50, 100)


#: Workshops and co-located events, which the services name apart from their host conference.
WORKSHOP = re.compile(r"workshop|\bconll\b|natural language learning|shared task|student research|demonstration", re.I)


def venue_of(venue: str | None) -> Venue | None:
    if not venue or PREPRINT.search(venue):
        return None
    if WORKSHOP.search(venue) and not re.search(r"semeval|findings", venue, re.I):
        return None
    return next((v for rx, v in _VENUE_RES if rx.search(venue)), None)


def fill(template: str, year: int | None, n: int) -> str:
    y = year or 2020
    return template.format(y=y, n=n, acl=y - 1962, aaai=max(1, y - 1986), ijcai=max(1, y - 1991), kdd=max(1, y - 1994))


# ---------------------------------------------------------------- journals (JabRef's lists)


class Journals:
    """Full names and abbreviations of journals (JabRef's lists under ../shared, read when present): what a
    service spells in full when a citation abbreviates, and the abbreviation DBLP and Crossref's short
    container title use."""

    #: Lists read first win an ambiguous abbreviation (MEDLINE's, read last, spell "Science" as
    #: "Science (New York, N.Y.)").
    FIRST = ("general", "ieee", "ubc", "mathematics", "geology_physics", "lifescience", "acs", "aea", "ams")

    def __init__(self, folder: Path) -> None:
        self.full: dict[str, str] = {}
        self.abbrev: dict[str, str] = {}
        paths = sorted(folder.glob("*.csv")) if folder.is_dir() else []
        rank = {f"journal_abbreviations_{name}.csv": i for i, name in enumerate(self.FIRST)}
        for path in sorted(paths, key=lambda p: (rank.get(p.name, len(rank)), p.name)):
            with path.open(encoding="utf-8", errors="replace") as fh:
                for row in csv.reader(fh):
                    if len(row) < 2 or not row[0].strip() or not row[1].strip():
                        continue
                    full, short = row[0].strip(), row[1].strip()
                    self.full.setdefault(_fold(short), full)
                    self.abbrev.setdefault(_fold(full), short)

    def spelled_out(self, name: str) -> str:
        """The full name of an abbreviated journal name ("Commun. ACM"); a name that is not abbreviated as is."""
        if "." not in name and not (name.isupper() and len(name) <= 8):
            return name
        return self.full.get(_fold(name), name)

    def abbreviation(self, name: str) -> str | None:
        return self.abbrev.get(_fold(self.spelled_out(name)))


def _fold(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.casefold()))


def openalex_style(name: str) -> str:
    """A journal name as OpenAlex displays it: punctuation dropped, "&" as "and", words capitalised."""
    name = name.replace("&", " and ")
    name = re.sub(r"[:,.;()\[\]]", " ", name)
    small = {"of", "and", "the", "in", "on", "for", "to", "a", "an"}
    out = [w if (i and w.lower() in small) else (w[:1].upper() + w[1:]) for i, w in enumerate(name.split())]
    return " ".join(out)


# ---------------------------------------------------------------- works


@dataclass
class Work:
    """One real cited work as the world holds it (before any service renders it)."""

    key: str
    title: str
    authors: list[str]
    et_al: bool
    year: int | None
    venue: str | None
    kind: str
    doi: str | None
    arxiv: str | None
    vclass: str
    cs: bool
    named: Venue | None
    behaviour: str = "baseline"
    detail: str = ""
    #: The work's identity in the world (title key, first author, and a year when one title names two works):
    #: every draw and record id is made from it.
    ident: str = ""
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def held(self) -> bool:
        indexes = {"openalex", "semanticscholar", "crossref", "dblp", "arxiv"}
        return any(set(r["services"]) & indexes for r in self.records)

    @property
    def arxiv_year(self) -> int | None:
        """The year of the arXiv id's first version (its YYMM), the year arXiv and OpenAlex's arXiv copy carry."""
        found = re.match(r"(\d\d)(\d\d)\.\d{4,5}$|[a-z.-]+/(\d\d)\d{5}$", self.arxiv or "", re.I)
        if not found:
            return None
        yy = int(found.group(1) or found.group(3))
        return 2000 + yy if yy < 90 else 1900 + yy

    def rank(self) -> tuple[bool, bool, bool]:
        """Which of two citations of one work says more of it: published before preprint, a DOI, a venue."""
        return (self.vclass not in ("preprint", "paper", "other"), bool(self.doi), bool(self.venue))


def surname(w: Work) -> str:
    return work_key(w.authors[0].split()[-1]) if w.authors and w.authors[0].split() else ""


def same_work(a: Work, b: Work) -> bool:
    """Two citations of one title and first author are one work when their years are within one (a preprint
    and its proceedings version); further apart they are two (a software's versions, a book's editions), and
    so are two that name different arXiv ids or DOIs or mostly different authors (one of them is wrong, and
    which is not known here: the world serves each its own)."""
    if a.arxiv and b.arxiv and a.arxiv != b.arxiv:
        return False
    if a.doi and b.doi and a.doi.lower() != b.doi.lower():
        return False
    mine, theirs = surnames(a), surnames(b)
    if mine and theirs and len(mine & theirs) < 0.5 * min(len(mine), len(theirs)):
        return False  # author lists that mostly disagree: which is the work's is not known here
    return a.year is None or b.year is None or abs(a.year - b.year) <= 1


def surnames(w: Work) -> set[str]:
    return {work_key(a.split()[-1]) for a in w.authors if a.split()}


def merge(old: Work, new: Work) -> Work:
    """One work cited twice (as an arXiv preprint and as published, with and without a DOI): the fuller
    citation's fields, the identifiers of both, the longer author list."""
    base, other = (old, new) if old.rank() >= new.rank() else (new, old)
    doi = base.doi or (other.doi if other.doi and not other.doi.lower().startswith("10.48550/") else None)
    # The other citation's longer author list only when it extends this one (a list with other names in it,
    # "Jian Gau" for "Jianfeng Gao", is that citation's mistake, not the work's authors).
    mine, theirs = surnames(base), surnames(other)
    authors = other.authors if len(other.authors) > len(base.authors) and mine <= theirs else base.authors
    merged = make_work(
        title=base.title,
        authors=authors,
        et_al=base.et_al,
        year=base.year,
        venue=base.venue,
        kind=base.kind,
        doi=doi,
        arxiv=base.arxiv or other.arxiv,
    )
    merged.ident = old.ident
    return merged


#: What marks a citation of software, data, models or web pages (no search index holds them whole).
NOT_A_PAPER = re.compile(
    r"model card|\blibrary\b|\btoolkit\b|\bpackage\b|documentation|\bwebsite\b|\bblog\b|\bversion \d|"
    r"\bv\d+(\.\d+)+\b|\bsoftware\b|\bdataset card\b|\bleaderboard\b|technical report|system card",
    re.I,
)
CODE_HOSTS = re.compile(
    r"github\.com|gitlab|huggingface\.co|kaggle\.com|pypi\.org|readthedocs|zenodo|openai\.com|anthropic\.com|"
    r"blog|x\.ai|deepmind\.google|ai\.meta\.com|\.io/|cran\.r-project",
    re.I,
)


def _corporate(authors: Sequence[str]) -> bool:
    """A list of one author name that is not a person's (AI@Meta, OpenAI, R Core Team, Gemini Team)."""
    return len(authors) == 1 and (
        " " not in authors[0].strip() or bool(re.search(r"team|@|inc\b|ltd\b", authors[0], re.I))
    )


def classify(
    venue: str | None,
    kind: str,
    arxiv: str | None,
    doi: str | None,
    title: str,
    url: str | None = None,
    authors: Sequence[str] = (),
) -> tuple[str, Venue | None]:
    """The venue class of a cited work: preprint, ml-conf, ml-journal, acl, cv, lncs, speech, conference,
    journal, book, thesis, paper (a paper cited without a venue) or other (software, pages, reports)."""
    named = venue_of(venue)
    if named is not None:
        return named.vclass, named
    v = venue or ""
    if kind in ("phdthesis", "mastersthesis", "thesis"):
        return "thesis", None
    if PREPRINT.search(v) or (not v and arxiv) or (doi or "").lower().startswith("10.48550/"):
        return "preprint", None
    if kind in ("book", "inbook", "incollection") or BOOKISH.search(v):
        return "book", None
    if kind in ("software", "online", "manual", "dataset", "electronic", "webpage") and not doi:
        return "other", None
    # Software, data, models and pages: a venue that is a code host, a blog or a URL, or no venue at all and a
    # title, link or (corporate) author that says so ("LIBSVM: a library ..." in ACM TIST is a paper).
    hosted = bool(CODE_HOSTS.search(v) or re.match(r"\s*(https?:|www\.|\\url)", v))
    if (
        not doi
        and not arxiv
        and (hosted or (not v and (NOT_A_PAPER.search(title) or CODE_HOSTS.search(url or "") or _corporate(authors))))
    ):
        return "other", None
    if doi and doi.lower().startswith(DATACITE):
        return "other", None
    if CONFERENCE.search(v):
        return "conference", None
    if JOURNAL.search(v) or kind == "article":
        return "journal", None
    if not v:
        return ("paper" if len(title.split()) >= 3 else "other"), None
    return "journal", None


def make_work(
    title: str,
    authors: list[str],
    et_al: bool,
    year: int | None,
    venue: str | None,
    kind: str,
    doi: str | None,
    arxiv: str | None,
    url: str | None = None,
) -> Work:
    if not arxiv and doi and doi.lower().startswith("10.48550/arxiv."):
        arxiv = doi[len("10.48550/arxiv.") :]
    vclass, named = classify(venue, kind, arxiv, doi, title, url, authors)
    cs = vclass in ("ml-conf", "ml-journal", "acl", "cv", "lncs", "speech") or bool(CS.search(f"{title} {venue or ''}"))
    return Work(work_key(title), title, authors, et_al, year, venue, kind, doi, arxiv, vclass, cs, named)


# ---------------------------------------------------------------- behaviours


def applies(w: Work, cls: str) -> bool:
    """Whether a behaviour can happen to this work at all."""
    indexed = w.vclass != "other"
    if cls == "absent":
        return indexed
    if cls == "cut-authors":
        return indexed and len(w.authors) > CUTS[0]
    if cls == "generic-title":
        return indexed and 1 <= len([t for t in w.key.split() if t not in STOP]) <= 4
    if cls == "redeposit-year":
        return (
            indexed
            and w.year is not None
            and (
                (w.year < 1995 and w.vclass not in ("preprint", "thesis"))
                or (
                    w.vclass in ("journal", "ml-journal")
                    and 1995 <= w.year <= 2024
                    and (w.doi or publisher_prefix(w)).lower().startswith(ONLINE_FIRST)
                )
            )
        )
    if cls == "arxiv-only":
        return (
            w.vclass in ("ml-conf", "ml-journal", "acl", "cv", "lncs", "speech", "conference", "journal")
            and w.cs
            and (w.year or 0) >= 2008
        )
    if cls == "published-later":
        return w.vclass == "preprint" and w.cs and bool(w.arxiv) and (w.year or 0) >= 2010
    if cls == "service-venue-names":
        return w.vclass not in ("other", "paper", "thesis", "book") and (
            w.named is not None or w.vclass in ("journal", "conference", "preprint") or (w.year or 3000) < 2000
        )
    if cls == "title-variant":
        return indexed and len(w.key.split()) >= 3
    return False


STOP = frozenset("a an and the of for in on to with by at from is are as its via".split())


def assign(w: Work, rates: dict[str, float]) -> None:
    """The behaviour this work meets: the first class, in CLASSES order, that applies and is drawn."""
    if w.vclass == "other":
        w.behaviour = "unindexed"
        return
    for cls in CLASSES:
        if applies(w, cls) and draw(w.ident, cls) < rates.get(cls, 0.0):
            w.behaviour = cls
            return
    w.behaviour = "baseline"


def _n(w: Work, salt: str, digits: int = 5) -> int:
    return int(draw(w.ident, salt) * 10**digits)


def arxiv_id_of(w: Work, year: int) -> str:
    """The work's arXiv id: the cited one, or one made for its year (the citation does not carry it)."""
    if w.arxiv:
        return w.arxiv
    month = 1 + int(draw(w.ident, "arxiv-month") * 12)
    n = _n(w, "arxiv-n", 5 if year >= 2015 else 4)
    return f"{year % 100:02d}{month:02d}.{n:05d}" if year >= 2015 else f"{year % 100:02d}{month:02d}.{n:04d}"


def record_doi(w: Work, journals: Journals, cited_year: bool = False) -> str | None:
    """The DOI the work's publisher record carries: the cited one, else one made for venues that issue DOIs
    (none for NeurIPS, ICML, ICLR, PMLR, JMLR, TMLR, theses, preprints). `cited_year`: an online-first
    journal DOI carrying the year of first publication (10.1016/j.neuron.2013.05.001)."""
    if w.doi and not w.doi.lower().startswith("10.48550/"):
        return w.doi.lower()
    if w.vclass in ("ml-conf", "ml-journal", "preprint", "thesis", "other", "paper"):
        return None
    n = _n(w, "doi", 6)
    if w.named is not None and w.named.doi:
        return fill(w.named.doi, w.year, n).lower()
    venue = (w.venue or "").lower()
    prefix = publisher_prefix(w)
    if cited_year and w.year and prefix == "10.1016/":
        slug = "".join(re.findall(r"[a-z]", venue))[:6] or "j"
        return f"10.1016/j.{slug}.{w.year}.{1 + n % 12:02d}.{n % 1000:03d}"
    if cited_year and w.year and prefix == "10.1007/":
        return f"10.1007/s{10000 + n % 90000}-{w.year % 1000:03d}-{n % 100000:05d}-{n % 10}"
    if w.vclass == "book":
        return None if "mit press" in venue else f"{prefix}978-0-{n:06d}"
    return f"{prefix}{slug_of(w)}.{n}"


def publisher_prefix(w: Work) -> str:
    """The DOI registrant of the work's publisher, guessed from its venue's words (Elsevier when none says)."""
    venue = (w.venue or "").lower()
    return next((p for rx, p in PUBLISHERS if re.search(rx, venue)), "10.1016") + "/"


def slug_of(w: Work) -> str:
    return "".join(re.findall(r"[a-z]", (w.venue or "x").lower()))[:8] or "x"


def dblp_key(w: Work, prefix: str | None, year: int | None) -> str:
    surname = re.sub(r"[^A-Za-z]", "", (w.authors[0].split()[-1] if w.authors else "Anon")) or "Anon"
    base = prefix or f"journals/{slug_of(w)}"
    return f"{base}/{surname}{(year or 0) % 100:02d}-{_n(w, 'dblp', 4)}"


def _record(w: Work, rid: str, services: Iterable[str], **fields: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "id": rid,
        "title": w.title,
        "authors": list(w.authors),
        "year": w.year,
        "venue": w.venue,
        "venue_full": w.venue,
        "doi": None,
        "arxiv_id": None,
        "type": _type(w),
        "dblp_key": None,
    }
    rec.update(fields)
    rec["services"] = sorted(set(services))
    return rec


def _type(w: Work) -> str:
    """The record type (AAAI's and TACL's papers are journal articles to OpenAlex and Crossref)."""
    if w.vclass == "preprint":
        return "preprint"
    if w.vclass == "thesis":
        return "phdthesis"
    if w.vclass == "book":
        return "incollection" if w.kind in ("inbook", "incollection") else "book"
    if w.vclass in ("journal", "ml-journal", "paper") or (w.named is not None and w.named.openalex_type == "journal"):
        return "article"
    return "inproceedings"


def render(w: Work, journals: Journals) -> list[dict[str, Any]]:
    """The records each service holds for the work, after its behaviour."""
    if w.behaviour == "unparsed":
        return []
    if w.behaviour == "absent":  # no index holds it; a DOI it was registered under still resolves at doi.org
        return _doi_only(w)
    if w.behaviour == "unindexed":
        if w.doi:  # a software or data DOI resolves (DataCite / doi.org), no search index holds it
            agency = "datacite" if w.doi.lower().startswith(("10.48550/", "10.5281/")) else "crossref"
            return [
                _record(
                    w,
                    f"{hashlib.sha1(w.ident.encode()).hexdigest()[:12]}-doi",
                    ["doi", agency],
                    doi=w.doi.lower(),
                    type="software",
                )
            ]
        return []
    key = hashlib.sha1(w.ident.encode()).hexdigest()[:12]
    recs = _clean(w, key, journals)
    behaviour = w.behaviour
    if behaviour == "arxiv-only":
        recs = _arxiv_only(w, key, recs, journals)
    elif behaviour == "published-later":
        recs = _published_later(w, key, recs)
    elif behaviour == "redeposit-year":
        recs = _redeposit(w, key, recs, journals)
    elif behaviour == "service-venue-names":
        recs = _venue_names(w, key, recs, journals)
    elif behaviour == "cut-authors":
        recs = _cut_authors(w, recs)
    elif behaviour == "title-variant":
        recs = _title_variant(w, recs)
    elif behaviour == "generic-title":
        recs = _own_record_of_generic(w, recs) + _decoys(w, key)
    return _merge(recs)


def _clean(w: Work, key: str, journals: Journals) -> list[dict[str, Any]]:
    """Baseline: the work in every service that would hold it, spelled as cited (one record a service)."""
    recs: list[dict[str, Any]] = []
    year = w.year
    if w.vclass == "preprint":
        ident = arxiv_id_of(w, year or 2020) if (w.arxiv or re.search(r"arxiv|corr", w.venue or "", re.I)) else None
        # The arXiv copy carries its first version's year (a citation may give a later version's); the broad
        # indexes the earliest year of the work (a paper published before it was posted keeps that year).
        ax_year = w.arxiv_year or year
        year = min(y for y in (year, ax_year) if y) if (year or ax_year) else None
        doi = f"10.48550/arxiv.{ident}" if ident else (w.doi.lower() if w.doi else None)
        common = {
            "venue": "arXiv" if ident else w.venue,
            "venue_full": "arXiv" if ident else w.venue,
            "arxiv_id": ident,
            "doi": doi,
            "type": "preprint",
            "year": year,
        }
        recs.append(_record(w, f"{key}-oa", ["openalex"], **common, venue_type="repository"))
        recs.append(_record(w, f"{key}-s2", ["semanticscholar"], **common, publication_types=["JournalArticle"]))
        if ident:
            recs.append(
                _record(
                    w,
                    f"{key}-ax",
                    ["arxiv", "datacite", "doi"],
                    **{**common, "venue": None, "venue_full": None, "year": ax_year},
                )
            )
            if w.cs:
                recs.append(
                    _record(
                        w,
                        f"{key}-corr",
                        ["dblp"],
                        **{**common, "venue": "CoRR", "venue_full": "CoRR", "doi": None, "year": ax_year},
                        dblp_key=f"journals/corr/abs-{ident.replace('.', '-')}",
                    )
                )
        return recs
    doi = record_doi(w, journals)
    recs.append(_record(w, f"{key}-oa", ["openalex"], doi=doi, arxiv_id=w.arxiv))
    if w.vclass != "thesis":
        recs.append(_record(w, f"{key}-s2", ["semanticscholar"], doi=doi, arxiv_id=w.arxiv))
    if doi:
        services = ["crossref", "doi"] + (["acl"] if doi.startswith("10.18653/v1/") else [])
        if BIOMED.search(w.venue or "") and w.vclass == "journal":
            services += ["pubmed", "europepmc"]
        recs.append(_record(w, f"{key}-cr", services, doi=doi))
    if w.cs and w.vclass not in ("book", "thesis", "paper"):
        prefix = w.named.dblp_prefix if w.named else None
        recs.append(_record(w, f"{key}-dblp", ["dblp"], doi=doi, arxiv_id=w.arxiv, dblp_key=dblp_key(w, prefix, year)))
    if w.arxiv and w.cs:  # DBLP's CoRR copy beside the proceedings record
        recs.append(
            _record(
                w,
                f"{key}-corr",
                ["dblp"],
                venue="CoRR",
                venue_full="CoRR",
                type="preprint",
                arxiv_id=w.arxiv,
                year=w.arxiv_year or year,
                dblp_key=f"journals/corr/abs-{w.arxiv.replace('.', '-').replace('/', '-')}",
            )
        )
    if w.arxiv:
        recs.append(
            _record(
                w,
                f"{key}-ax",
                ["arxiv", "datacite", "doi"],
                doi=f"10.48550/arxiv.{w.arxiv}",
                arxiv_id=w.arxiv,
                type="preprint",
                venue=None,
                venue_full=None,
                year=w.arxiv_year or year,
            )
        )
    if w.named is not None and w.named.dblp in ("ICLR", "Trans. Mach. Learn. Res."):
        forum = hashlib.sha1(("or" + w.ident).encode()).hexdigest()[:10]
        recs.append(
            _record(
                w,
                f"{key}-or",
                ["openreview"],
                url=f"https://openreview.net/forum?id={forum}",
                venue="ICLR" if w.named.dblp == "ICLR" else "TMLR",
            )
        )
    return recs


def _by(recs: list[dict[str, Any]], service: str) -> dict[str, Any] | None:
    return next((r for r in recs if service in r["services"]), None)


def _arxiv_only(w: Work, key: str, recs: list[dict[str, Any]], journals: Journals) -> list[dict[str, Any]]:
    year = w.year or 2020
    earlier = draw(w.ident, "ax-year") < SHARES["arxiv-only: arXiv year one before the published year"]
    ax_year = w.arxiv_year or (year - 1 if earlier else year)
    ident = arxiv_id_of(w, ax_year)
    ax_doi = f"10.48550/arxiv.{ident}"
    details = [f"arXiv {ax_year}"]
    published = _by(recs, "crossref")
    pub_doi = published["doi"] if published else None
    out = [r for r in recs if not set(r["services"]) & {"openalex", "semanticscholar", "dblp", "arxiv"}]
    # OpenAlex: the arXiv version only.
    out.append(
        _record(
            w,
            f"{key}-oa",
            ["openalex"],
            year=ax_year,
            venue=ARXIV_OA,
            venue_full=ARXIV_OA,
            venue_type="repository",
            type="preprint",
            doi=ax_doi,
            arxiv_id=ident,
        )
    )
    # Semantic Scholar: the published venue under its own name (year: the first version's), or arXiv only.
    named = w.named
    if draw(w.ident, "ax-s2") < SHARES["arxiv-only: Semantic Scholar holds the published venue"]:
        s2_venue = named.s2 if named else (w.venue or "")
        journal = (
            "ArXiv"
            if draw(w.ident, "ax-s2j") < SHARES["arxiv-only: Semantic Scholar's journal.name is 'ArXiv'"]
            else ""
        )
        out.append(
            _record(
                w,
                f"{key}-s2",
                ["semanticscholar"],
                year=ax_year,
                venue=s2_venue,
                venue_full=s2_venue,
                journal=journal,
                arxiv_id=ident,
                doi=pub_doi,
                publication_types=["JournalArticle", "Conference"],
            )
        )
        details.append("S2 published venue" + (" (journal ArXiv)" if journal else ""))
    else:
        out.append(
            _record(
                w,
                f"{key}-s2",
                ["semanticscholar"],
                year=ax_year,
                venue="arXiv.org",
                venue_full="arXiv.org",
                journal="ArXiv",
                arxiv_id=ident,
                doi=ax_doi,
                type="preprint",
                publication_types=["JournalArticle"],
            )
        )
        details.append("S2 arXiv only")
    # DBLP: its CoRR copy, and the proceedings record in a share.
    if w.cs:
        out.append(
            _record(
                w,
                f"{key}-corr",
                ["dblp"],
                year=ax_year,
                venue="CoRR",
                venue_full="CoRR",
                type="preprint",
                arxiv_id=ident,
                dblp_key=f"journals/corr/abs-{ident.replace('.', '-')}",
            )
        )
        if draw(w.ident, "ax-dblp") < SHARES["arxiv-only: DBLP holds the proceedings record"]:
            dblp_venue = named.dblp if named and named.dblp else w.venue
            prefix = named.dblp_prefix if named else None
            out.append(
                _record(
                    w,
                    f"{key}-dblp",
                    ["dblp"],
                    venue=dblp_venue,
                    venue_full=dblp_venue,
                    dblp_key=dblp_key(w, prefix, w.year),
                    doi=pub_doi,
                )
            )
            details.append("DBLP proceedings")
        else:
            details.append("DBLP CoRR only")
    out.append(
        _record(
            w,
            f"{key}-ax",
            ["arxiv", "datacite", "doi"],
            year=ax_year,
            doi=ax_doi,
            arxiv_id=ident,
            type="preprint",
            venue=None,
            venue_full=None,
        )
    )
    details.append("Crossref " + ("holds the published DOI" if published else "nothing (no DOI)"))
    w.detail = "; ".join(details)
    return out


def _published_later(w: Work, key: str, recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cited as an arXiv preprint; OpenAlex holds the published version a year later."""
    year = (w.year or 2020) + 1
    named = pick(w.ident, "pl-venue", [v for v in VENUES if v.vclass == "ml-conf" and v.dblp])
    out = [r for r in recs if "openalex" not in r["services"] and "semanticscholar" not in r["services"]]
    out.append(
        _record(
            w,
            f"{key}-oa",
            ["openalex"],
            year=year,
            venue=named.openalex,
            venue_full=named.openalex,
            venue_type="conference",
            type="inproceedings",
            arxiv_id=w.arxiv,
        )
    )
    out.append(
        _record(
            w,
            f"{key}-s2",
            ["semanticscholar"],
            venue=named.s2,
            venue_full=named.s2,
            journal="ArXiv",
            arxiv_id=w.arxiv,
            publication_types=["JournalArticle", "Conference"],
            type="inproceedings",
        )
    )
    out.append(
        _record(
            w,
            f"{key}-dblp",
            ["dblp"],
            year=year,
            venue=named.dblp,
            venue_full=named.dblp,
            type="inproceedings",
            dblp_key=dblp_key(w, named.dblp_prefix, year),
        )
    )
    w.detail = f"published at {named.dblp} {year}"
    return out


def _redeposit(w: Work, key: str, recs: list[dict[str, Any]], journals: Journals) -> list[dict[str, Any]]:
    year = w.year or 2000
    if year < 1995:
        later = 2005 + int(draw(w.ident, "rd-year") * 11)
        s2_first = draw(w.ident, "rd-s2") < SHARES["redeposit-year: Semantic Scholar keeps the first year (old works)"]
        for r in recs:
            if "openalex" in r["services"] or "crossref" in r["services"]:
                r["year"] = later
                if "crossref" in r["services"]:
                    r["published_online"] = [later, 1 + _n(w, "rd-m", 2) % 12]
            if "semanticscholar" in r["services"] and not s2_first:
                r["year"] = later
        w.detail = f"re-deposit {later}" + ("" if s2_first else ", S2 too")
        return recs
    later = year + (1 if draw(w.ident, "rd-gap") < 0.75 else 2)
    doi = record_doi(w, journals, cited_year=True)
    for r in recs:
        services = set(r["services"])
        if r["type"] == "preprint" or not services & {"openalex", "semanticscholar", "crossref", "dblp"}:
            continue
        r["doi"] = doi
        if services & {"openalex", "crossref", "dblp"}:  # the issue year; Semantic Scholar keeps the first
            r["year"] = later
        if "crossref" in services:  # deposited with the print date only: `issued` is the issue's
            r["published_print"] = [later, 1 + _n(w, "rd-m", 2) % 12]
    if doi and not _by(recs, "crossref"):
        recs.append(_record(w, f"{key}-cr", ["crossref", "doi"], doi=doi, year=later, published_print=[later, 3]))
    w.detail = f"issue year {later} (DOI {doi})"
    return recs


def _venue_names(w: Work, key: str, recs: list[dict[str, Any]], journals: Journals) -> list[dict[str, Any]]:
    year = w.year or 2020
    n = _n(w, "vn", 4)
    if (
        year < 2000
        and draw(w.ident, "vn-reprint") < SHARES["service-venue-names: a reprinting collection (works before 2000)"]
    ):
        field = REPRINTS_STATISTICS if STATISTICS.search(f"{w.title} {w.venue or ''}") else REPRINTS if w.cs else []
        later = [(t, y) for t, y in field if y > year]
        if later:
            title, ryear = pick(w.ident, "vn-coll", later)
            chapter_doi = f"10.1007/978-1-4612-{n:04d}-{n % 10}_{1 + n % 40}"
            for r in recs:
                if "openalex" in r["services"] or "crossref" in r["services"]:
                    r.update(venue=title, venue_full=title, year=ryear, type="incollection", venue_type="book series")
                    r["doi"] = chapter_doi
            if not _by(recs, "crossref"):
                recs.append(
                    _record(
                        w,
                        f"{key}-cr",
                        ["crossref", "doi"],
                        venue=title,
                        venue_full=title,
                        year=ryear,
                        type="incollection",
                        doi=chapter_doi,
                    )
                )
            w.detail = f"reprinted in {title} ({ryear})"
            return recs
    named = w.named
    if w.vclass == "preprint":
        names = {"openalex": ARXIV_OA, "semanticscholar": "arXiv.org", "dblp": "CoRR", "crossref": None}
        oa_type = "repository"
    elif named is not None:
        names = {
            "openalex": fill(named.openalex, year, n),
            "semanticscholar": named.s2,
            "dblp": named.dblp or w.venue,
            "crossref": fill(named.crossref, year, n) if named.crossref else None,
        }
        oa_type = named.openalex_type
    else:
        full = journals.spelled_out(w.venue or "")
        abbrev = journals.abbreviation(full)
        if w.vclass == "conference":
            core = re.sub(r"^(proceedings of (the )?|proc\.? (of )?(the )?)", "", full, flags=re.I)
            formal = full if re.match(r"proceedings\b", full, re.I) else f"Proceedings of the {core}"
            core = re.sub(r"\b\d+(st|nd|rd|th)\b\s*|\b(19|20)\d\d\b\s*|\s*\([^)]*\)", " ", core)
            names = {
                "openalex": formal,
                "semanticscholar": " ".join(core.split()).strip(" ,"),
                "dblp": abbrev or w.venue,
                "crossref": formal,
            }
            oa_type = "conference"
        else:
            names = {
                "openalex": openalex_style(full),
                "semanticscholar": full,
                "dblp": abbrev or full,
                "crossref": full,
            }
            oa_type = "journal"
    for r in recs:
        services = set(r["services"])
        for service in ("openalex", "semanticscholar", "dblp", "crossref"):
            if service in services and names.get(service) and not (service == "dblp" and "corr" in r["id"]):
                r["venue"] = r["venue_full"] = names[service]
                if service == "openalex":
                    r["venue_type"] = oa_type
                if service == "crossref" and named is not None and named.short:
                    r["short_venue"] = named.short
                if service == "semanticscholar" and w.vclass == "preprint":
                    r["journal"] = "ArXiv"
                break
    w.detail = f"OpenAlex {names['openalex']!r}"
    return recs


def _cut_authors(w: Work, recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    options = [c for c in CUTS if c < len(w.authors)]
    cut = pick(w.ident, "cut", options)
    s2_too = draw(w.ident, "cut-s2") < SHARES["cut-authors: Semantic Scholar cut too"]
    for r in recs:
        services = set(r["services"])
        if services & {"openalex", "crossref"} or ("semanticscholar" in services and s2_too):
            r["authors"] = r["authors"][:cut]
            if "openalex" in services and cut == 100:
                r["authors_truncated"] = True
    w.detail = f"first {cut} of {len(w.authors)}" + (", S2 too" if s2_too else "")
    return recs


def _title_variant(w: Work, recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    title = w.title
    lead = next((f for f in FRAMINGS if title.lower().startswith(f.lower() + " ")), None)
    options = []
    if lead and len(title[len(lead) + 1 :].split()) >= 4:
        rest = title[len(lead) + 1 :]
        options.append(("drops the leading words", rest[:1].upper() + rest[1:]))
    else:
        framing = pick(w.ident, "tv-frame", FRAMINGS)
        options.append(("adds leading words", f"{framing} {title[:1].lower()}{title[1:]}"))
    if ": " in title and len(title.split(": ", 1)[0].split()) >= 4:  # not 'CutMix' alone
        options.append(("drops the subtitle", title.split(": ", 1)[0]))
    elif ": " not in title:
        options.append(("adds a subtitle", f"{title}: {pick(w.ident, 'tv-sub', SUBTITLES)}"))
    how, variant = pick(w.ident, "tv", options)
    for r in recs:
        r["title"] = variant
    w.detail = f"{how}: {variant!r}"
    return recs


def _doi_only(w: Work) -> list[dict[str, Any]]:
    """What still answers for a work no search index holds: its cited DOI at doi.org (a registered DOI always
    resolves) and its cited arXiv id at arXiv (arXiv holds every id it gave)."""
    key = hashlib.sha1(w.ident.encode()).hexdigest()[:12]
    out = []
    if w.doi and not w.doi.lower().startswith("10.48550/"):
        out.append(_record(w, f"{key}-doi", ["doi"], doi=w.doi.lower()))
    if w.arxiv:
        out.append(
            _record(
                w,
                f"{key}-ax",
                ["arxiv", "datacite", "doi"],
                doi=f"10.48550/arxiv.{w.arxiv}",
                arxiv_id=w.arxiv,
                type="preprint",
                venue=None,
                venue_full=None,
                year=w.arxiv_year or w.year,
            )
        )
    return out


def _own_record_of_generic(w: Work, recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A work of a generic title (Bishop's book, Puterman's book) is held by every service that would, by
    OpenAlex alone, or by no index at all (a DOI the citation carries still resolves), in shares."""
    u = draw(w.ident, "gt-own")
    alone = SHARES["generic-title: the work itself only in OpenAlex"]
    nowhere = SHARES["generic-title: the work itself in no index (only the others)"]
    if u < nowhere:
        w.detail = "the work itself in no index; "
        return _doi_only(w)
    if u < nowhere + alone:
        w.detail = "the work itself only in OpenAlex; "
        return [r for r in recs if "openalex" in r["services"]] + _doi_only(w)
    w.detail = "the work itself in every service; "
    return recs


def _decoys(w: Work, key: str) -> list[dict[str, Any]]:
    """Other works with the same generic title: a paper by others, a chapter by others, a review of the book."""
    year = w.year or 2000
    out = []
    names = [pick(w.ident, f"dn{i}", DECOY_NAMES) for i in range(4)]
    out.append(
        _record(
            w,
            f"{key}-d1",
            ["openalex", "semanticscholar", "crossref", "doi"],
            authors=names[:2],
            year=year - 3 - _n(w, "dy1", 1),
            venue=pick(w.ident, "dv1", DECOY_VENUES[:4]),
            venue_full=None,
            type="article",
            doi=f"10.1016/decoy.{key}.1",
        )
    )
    out.append(
        _record(
            w,
            f"{key}-d2",
            ["openalex", "crossref", "doi"],
            authors=names[2:3],
            year=year + 1 + _n(w, "dy2", 1) % 6,
            venue=pick(w.ident, "dv2", DECOY_VENUES[4:]),
            type="incollection",
            doi=f"10.1007/decoy.{key}.2",
        )
    )
    out.append(
        _record(
            w,
            f"{key}-d3",
            ["openalex", "semanticscholar", "crossref", "doi"],
            authors=names[3:4],
            year=year + 1 + _n(w, "dy3", 1) % 2,
            venue=pick(w.ident, "dv3", REVIEW_JOURNALS),
            type="article",
            doi=f"10.1137/decoy.{key}.3",
        )
    )
    for r in out:
        r["venue_full"] = r["venue"]
    w.detail += f"{len(out)} other works titled {w.title!r}"
    return out


def _merge(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per distinct rendering, holding every service that renders the work so."""
    merged: dict[str, dict[str, Any]] = {}
    for r in recs:
        body = {k: v for k, v in r.items() if k not in ("id", "services")}
        sig = repr(sorted(body.items(), key=lambda kv: kv[0]))
        if sig in merged:
            merged[sig]["services"] = sorted(set(merged[sig]["services"]) | set(r["services"]))
        else:
            merged[sig] = dict(r)
    return list(merged.values())
