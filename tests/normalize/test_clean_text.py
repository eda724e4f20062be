"""clean_text: the damage PDF extraction and copy-paste do to reference text, undone before anything reads it.

The damaged strings are real: spacing accents as text layers of OT1-font PDFs give them (ACL, CVPR, WACV,
NeurIPS papers of ../shared/pdfs/ml, read without our PDF reader's accent placement; the CiteAudit and
ICLR 2026 accusations of issue 38), ligatures, soft hyphens, zero-width spaces and non-breaking spaces as
the jose gold lists hold them.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from citetracer.normalize.text import SPACING_ACCENTS, clean_text, fold
from tests.extract.readers.test_linear_time import MAX_GROWTH, growth

_DAMAGE = "".join(SPACING_ACCENTS) + "\u0301\u0308\ufb01\ufb02\ufb03\u00ad\u200b\u200c\u200d\ufeff\u202e"
_DAMAGE += "\u00a0\u2009\ufffe\x02"
#: Letters, spaces, punctuation, line ends and every kind of damage, mixed.
damaged = st.text(alphabet="aeiouncsASOZ ı-.,'\n" + _DAMAGE, max_size=40)
#: Text with none of the damage: words of letters (accented ones precomposed), digits, punctuation, spaces.
clean = st.text(alphabet="abcdeéüçšøABCÉÖ0123456789 .,:;()[]'\"/&-–\n", max_size=60).filter(lambda t: "-\n" not in t)


def _letters(text: str) -> list[str]:
    """The base letters of a text in order (marks and accents off, ligatures spelled out, dotless i as i)."""
    spelled = text.translate({0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl"})
    out = []
    for ch in unicodedata.normalize("NFD", spelled):
        if ch.isalpha() and ch not in SPACING_ACCENTS and not unicodedata.combining(ch):
            out.append({"ı": "i", "ȷ": "j"}.get(ch, ch))
    return out


@given(damaged)
@example("a ¨ ´b")
@example("Reh ˇ u˚ˇrek")
def test_clean_text_is_idempotent(text: str) -> None:
    once = clean_text(text)
    assert clean_text(once) == once


@given(clean)
@example("Schölkopf, B. and Müller, K.-R. (2001). Learning with Kernels: Self-Similarity. MIT Press.")
@example('Smith J. "Title" 12(3):1-9')
def test_clean_text_leaves_clean_text_as_it_is(text: str) -> None:
    assert clean_text(text) == unicodedata.normalize("NFC", text)


@given(damaged)
def test_clean_text_never_makes_up_or_loses_a_letter(text: str) -> None:
    """Accents join a letter or go; nothing else changes which letters the text holds, or their order."""
    assert _letters(clean_text(text)) == _letters(text)


@pytest.mark.parametrize(
    ("damaged_text", "expected"),
    [
        ("K-R M ¨uller", "K-R Müller"),  # issue 38: read as an author "M" and another "¨uller"
        ("B. Sch¨olkopf", "B. Schölkopf"),
        ("Jos´e Miguel Hern´andez-Lobato", "José Miguel Hernández-Lobato"),
        ("Peter Richt ´ arik and Martin Tak ´ aˇc", "Peter Richtárik and Martin Takáč"),
        ("Franc¸ois Waldner", "François Waldner"),  # cvpr-wacv26-ftw-hd: the cedilla after its letter
        ("Gül¸sen Cebiroglu Eryiğit", "Gülşen Cebiroglu Eryiğit"),  # acl-sigtyp24: before it
        ("Tudor-Andrei Dumitra¸scu", "Tudor-Andrei Dumitraşcu"),
        ("Angel Garc´ıa-Pedrero", "Angel García-Pedrero"),  # \'{\i}: the dotless i
        ("Huy`ên Nguy˜ên", "Huyền Nguyễn"),
        ("Mu¨ller", "Müller"),  # a word processor's accent after the letter
        ("Jose´ Garcia", "José Garcia"),
        ("¸Saziye Betül Özate¸s", "Şaziye Betül Özateş"),
        ("Bernadeta Griciut¯ e", "Bernadeta Griciutē"),
        ("Machine learning force ﬁelds", "Machine learning force fields"),  # issue 38: the title search stopped
        ("Eﬃcient ﬂows", "Efficient flows"),
        ("Fran\u00adçois Chol\u200blet", "François Chollet"),
        ("Deep\u200b learning\ufeff", "Deep learning"),
        ("Light and mass in NGC\u00a0891", "Light and mass in NGC 891"),  # jose.00184's gold
        ("Le\u0301on Bottou", "Léon Bottou"),
        ("compu-\ntation", "computation"),
        ("compu\u00ad\ntation", "computation"),
        ("In\ufffe\nternational", "International"),
        ("Gedanken ¨uber die Zukunft", "Gedanken über die Zukunft"),  # a word of its own after a word
        ("Le Pe`re Louis Augros, premier supe \u0301rieur", "Le Père Louis Augros, premier supérieur"),  # anystyle
        ("P. Arbel´aez and L. Cohen", "P. Arbeláez and L. Cohen"),  # anystyle-core: the authors were lost
    ],
)
def test_clean_text_repairs_real_damage(damaged_text: str, expected: str) -> None:
    assert clean_text(damaged_text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C Lawrence ´ Zitnick", "C Lawrence Zitnick"),  # an accent strayed from "Dollár" over no letter
        ("Akyurek et al. ¨ , 2022", "Akyurek et al. , 2022"),
        ("Christian ¨ Ozdemir", "Christian Ozdemir"),
    ],
)
def test_an_accent_over_no_letter_goes(text: str, expected: str) -> None:
    assert clean_text(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "fixed ``gold-standard'' reward model",  # LaTeX quotes
        "`Improving ratings': audit in the British University system",
        "with an `2 regularization",  # an ell set in cmmi
        "d´Alembert",  # an acute written for an apostrophe, before a capital
        "Bishop´s book",
        "estimate xˆ, R¯ = 1 with η˜",  # mathematics (before a lower-case word "xˆ and" would read as "xând")
        "10^3 samples",
        "Hawai`i Volcano Geochemical Datasets",  # an ʻokina, not a grave (anystyle-good)
        "caffeine¸acetaminophen, sildenafil",  # a comma mis-encoded: no letter here takes a cedilla
        "https://example.org/~user/page",
    ],
)
def test_what_is_no_damage_or_cannot_be_told_stays(text: str) -> None:
    """Quotes, apostrophes, an ʻokina and mathematics are not accents."""
    assert clean_text(text) == text


def test_line_end_hyphens_keep_capitals_links_and_suspended_hyphens() -> None:
    assert clean_text("Self-\nSimilarity") == "Self-Similarity"
    assert clean_text("https://foo-\nbar.org") == "https://foo-bar.org"
    assert clean_text("single-\nand double-blind") == "single-\nand double-blind"
    assert clean_text("pages 1-\n10") == "pages 1-\n10"
    assert clean_text("Text- and Image-Based") == "Text- and Image-Based"  # CiteAudit: no line end, no join


def test_fold_of_cleaned_names_matches_the_records() -> None:
    """What the damage cost: a cited "Sch¨olkopf" folded to two words, neither of them the author's name."""
    assert fold("Sch¨olkopf") != fold("Schölkopf")
    assert fold(clean_text("Sch¨olkopf")) == fold("Schölkopf") == "scholkopf"


def test_clean_text_stays_linear_in_its_input() -> None:
    """Runs of accents that stand alone, spaced accents and line-end hyphens (a first version scanned back over the
    accents it had dropped: 50,000 of them took 194 s)."""

    def make(n: int) -> str:
        return "´" * n + " ¨" * n + " \u0301" * n + ("Sch¨olkopf M ¨uller ﬁ-\nx " * (n // 10))

    assert growth(make, lambda text: clean_text(str(text)), 4000) < MAX_GROWTH
