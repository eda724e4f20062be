"""`citetracer extract FILE`: the references read from a file, printed without checking them.

Part of the CLI front end: the file is read as `check` reads it, by `Checker.read` (inherited from the
pipeline's `Reader`, which opens no store: nothing is checked); this prints.
"""

from __future__ import annotations

import argparse
import json
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from citetracer.cli.common import EXIT_OK, EXIT_USAGE, add_ref_pages, add_segmenter, open_out, say_reading
from citetracer.config import load_settings
from citetracer.extract import InputError
from citetracer.extract.segmentation.confidence import LOW_CONFIDENCE
from citetracer.pipeline import Reader


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """The `extract` command's arguments."""
    extract = sub.add_parser(
        "extract",
        parents=[common],
        help="print the references found in a file",
        description="Print the references found in a file, without checking them.",
    )
    extract.add_argument("file", type=Path, metavar="FILE", help="paper or bibliography to read")
    extract.add_argument("--format", choices=["table", "json"], default="table", help="output format")
    extract.add_argument("-o", "--output", type=Path, metavar="OUT", help="write here instead of stdout")
    add_ref_pages(extract)
    add_segmenter(extract)
    extract.set_defaults(handler=cmd_extract)


def cmd_extract(args: argparse.Namespace, err: Console) -> int:
    reader = Reader(load_settings(args.config, segmenter=args.segmenter))
    try:
        paper = reader.read(args.file, args.ref_pages)
    except InputError as exc:
        err.print(f"error: {exc}", style="red", highlight=False)
        return EXIT_USAGE
    for warning in paper.warnings:
        err.print(f"warning: {warning}", style="yellow", highlight=False)
    say_reading(paper, err)
    reading = paper.read.reading()
    with ExitStack() as stack:
        out = open_out(stack, args.output)
        if args.format == "json":
            doc: dict[str, Any] = {"input": paper.name}
            if reading is not None:
                doc["reading"] = reading.model_dump(mode="json")
            doc["references"] = [r.model_dump(mode="json") for r in paper.references]
            json.dump(doc, out, ensure_ascii=False, indent=2)
            out.write("\n")
        else:
            console = Console(file=out, markup=False) if args.output else Console(markup=False)
            for i, r in enumerate(paper.references, 1):
                authors = "; ".join(p.display() for p in r.authors) + (" et al." if r.et_al else "")
                line = Text.assemble(
                    (str(r.label or i), "bold"),
                    f" {authors} ({r.year}) ",
                    (r.title or "", "italic"),
                    f" {r.venue or ''} {r.doi or ''} {r.arxiv_id or ''}",
                )
                if r.confidence is not None and r.confidence < LOW_CONFIDENCE:
                    line.append(f" (read with low confidence: {r.confidence:.0%})", "yellow")
                console.print(line, highlight=False)
    return EXIT_USAGE if reading is not None and reading.no_list else EXIT_OK  # as `check`: nothing was read
