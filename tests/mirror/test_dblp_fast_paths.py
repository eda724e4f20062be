"""The DBLP ingest's fast paths give what the general code gives (issue 42: the ingest's CPU time).

`index_text` (ASCII titles split by `str.translate`) against `index_tokens`, and `_author_json` (a plain
name read in one go, cached by the element's raw text) against `author` of the cleaned text, the
general reader it stands for: on any text, the same words, the same JSON, the same surname keys.
"""

from __future__ import annotations

import json

from hypothesis import example, given
from hypothesis import strategies as st

from citetracer.mirror import dblp
from citetracer.store.ranking import index_text, index_tokens

_NAMES = st.text(alphabet=st.sampled_from(list("abcXYZ éÜ-'. 0123\t\n\u00a0{},\\$~")), max_size=30)


@given(st.text(max_size=60) | st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
@example("TrustSVD: Collaborative Filtering -- with {Both} the 2nd Explicit & Implicit Influence.")
def test_index_text_is_index_tokens_joined(title: str) -> None:
    assert index_text(title) == " ".join(index_tokens(title))


@given(st.none() | _NAMES)
@example("Wei Wang 0001")
@example("  Ludwig  van\tBeethoven ")
@example("Jean-Pierre de la Fontaine 0002")
@example("Madonna")
@example("0001")
@example("Knuth, Donald E.")
def test_author_json_is_the_general_reader(text: str | None) -> None:
    got = dblp._author_json.__wrapped__(text)
    want = dblp.author(dblp._clean(text)) if text else None
    if want is None:
        assert got is None
        return
    assert got is not None
    fields, keys = want
    assert json.loads(got[0]) == fields
    assert got[0] == dblp._JSON(fields)
    assert got[1] == keys
