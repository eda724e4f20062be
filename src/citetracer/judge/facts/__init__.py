"""The facts a verdict is decided from, each with the list or source that states it (DESIGN.md,
"Evidence model: facts, not gaps").

A code is Hallucinated only as a contradiction between a cited field and a fact that a source
positively holds and declares complete; a missing fact is a gap, and gives Potential with the gap
named. Facts are made here and nowhere else, once per citation, so that a new kind of gap is fixed
where the fact is made and not in every code:

- identity (identity.py): which records are the cited work or a version of it, and how that is
  established (whole title, identifier, title with year and venue); a book is not its review;
- authors (authors.py): the one answer to "are these the cited people?", whether a record holds
  its author list whole, which cited names no record author explains, which are omitted;
- venue (venue.py): what the cited venue string is, how it relates to the work's venues, and
  whether a source listing the cited venue-year whole was searched;
- absence (absence.py): whether the search proves the cited work absent, for the kind of work the
  citation names, and whether a title names one work;
- reading (reading.py): what the reference's own text says about its parsed fields (two references
  run together, a line number inside a title), and whether the fields are the author's own.
"""
