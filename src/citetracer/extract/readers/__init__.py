"""Readers, one per input format: the text formats (text.py, bibtex.py, ris.py, csljson.py, managed.py) and
PDF (pdf.py over pdfdoc.py, the PDF library, and ocr.py, pages without a text layer)."""
