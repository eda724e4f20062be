"""Layout: positioned text -> lines in reading order (page.py), the citation markers of the body (markers.py)
and where the bibliography is (region.py)."""
