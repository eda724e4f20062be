"""Fields: one reference string -> a Reference (parser.py, with authors.py and the token CRF crf.py), one
normalizer per field after tagging (normalizers.py), and bounds on what the parser is given (bounds.py)."""
