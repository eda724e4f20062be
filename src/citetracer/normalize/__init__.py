"""The ground floor every stage stands on: pure normalizers of text, names and venues.

`text` (Unicode and LaTeX folding, title keys and similarity, DOI/arXiv canonical forms,
years, page ranges), `names` (author names: initials, order, particles, suffixes; author
list comparison), `venues` (venue aliases, kinds, spellings), `publishers`, `places` and
`nicknames` (publication details and given names compared against knowledge tables). Each is a pure function
of its input and the knowledge tables in `citetracer/data/`, with property tests in
tests/normalize/; the store, the mirror ingesters, the extractor and the matcher all read
them, so they import nothing of citetracer above the data model.
"""
