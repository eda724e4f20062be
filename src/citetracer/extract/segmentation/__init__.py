"""Segmentation: the bibliography's lines -> one block per reference, by rules (segment.py) or by a CRF over
lines (linecrf.py), and the checks on the result (plausibility.py, confidence.py)."""
