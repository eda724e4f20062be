"""A source that holds a venue-year only in part says so in its own records (store/coverage.py: selective).

DBLP indexes some journals in part, year after year (Nucleic Acids Research: a few numbered issues, or only
its database and web-server issues), and its shared dump lacks some papers of some proceedings (EMNLP 2013:
184 of about 206). Absence from such a venue-year proves nothing; from a whole one it does.
"""

from __future__ import annotations

from citetracer.store.coverage import selective


def proceedings(n: int, skip: set[int] = frozenset()) -> list[tuple[str | None, str | None, str | None]]:
    """n ten-page papers numbered through one volume, leaving out those in `skip`."""
    return [("1", None, f"{10 * i + 1}-{10 * i + 10}") for i in range(n) if i not in skip]


def test_a_whole_volume_tiles_its_pages() -> None:
    assert selective(proceedings(200)) is None


def test_a_tenth_of_the_papers_missing_is_a_selection() -> None:
    why = selective(proceedings(200, skip=set(range(0, 200, 10))))
    assert why is not None and "page spans" in why


def test_two_numbered_issues_of_a_yearly_run_are_a_selection() -> None:
    rows = [("16", "1", f"{i}-{i}") for i in range(1, 55)] + [("16", "13", f"{i}-{i}") for i in range(1, 72)]
    why = selective(rows)
    assert why is not None and "2 of its issues 1-13" in why


def test_named_issues_alone_are_a_selection() -> None:
    rows = [("36", "Database-Issue", f"{10 * i + 1}-{10 * i + 9}") for i in range(30)]
    why = selective(rows)
    assert why is not None and "only named issues" in why


def test_a_two_issue_volume_held_whole_is_no_selection() -> None:
    rows = [("5", "1", f"{10 * i + 1}-{10 * i + 10}") for i in range(20)]
    rows += [("5", "2", f"{10 * i + 1}-{10 * i + 10}") for i in range(20)]
    assert selective(rows) is None
