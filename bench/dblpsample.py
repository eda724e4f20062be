"""The DBLP sample (../shared/data/dblp) as plain dicts, for the benchmarks that build stores from it.

Shared by bench/mirror.py, bench/snapshots.py and bench/cluster.py. It lives on its own so that
mirror.py (which writes snapshots through snapshots.py) and snapshots.py (which draws its titles
and authors from the sample) do not import each other.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from citetracer.mirror.dblp import DblpReport, iter_dblp

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "dblp"
SAMPLE = SHARED / "dblp-sample.xml.gz"
DTD = SHARED / "dblp.dtd"


def load_sample(dump: Path = SAMPLE, dtd: Path = DTD) -> list[dict[str, Any]]:
    """The dump's records as dicts (title, authors, year, venue, doi, key, crossref)."""
    out = []
    for row in iter_dblp(dump, dtd, DblpReport()):
        obj = json.loads(row.json)
        obj["key"] = row.key.removeprefix("dblp:")
        obj["crossref"] = row.xref
        out.append(obj)
    return out
