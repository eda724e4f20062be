"""Where a retrieval query's time goes: wall time per primitive of the store's index (frequency prefetch,
first pass, author pass, the second pass's field reads) over N citations of a generated snapshot, for
`search` (title, surnames, year), `by_title` and `by_authors` (the memory stage's second list).

bench/mirror.py gives retrieval's latency and recall; this splits the latency, to compare two versions
of the code on one kept store (run it with each version on PYTHONPATH, the same citations each time):

    python bench/retrieval_profile.py STORE SNAPSHOT/works.queries.jsonl [N]   (STORE: a path or a PostgreSQL URL)
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from citetracer.normalize.names import family_keys
from citetracer.records import Person
from citetracer.store.api import open_store


def quantile(values: list[float], q: float) -> float:
    return sorted(values)[int(q * (len(values) - 1))] * 1000 if values else 0.0


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    store_location, queries, n = sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 100
    with open(queries) as lines:
        sample = [json.loads(line) for line in lines]
    picked = random.Random(5).sample(sample, min(n, len(sample)))
    spent: dict[str, list[float]] = {}

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent.setdefault(name, []).append(time.perf_counter() - started)

        return wrapper

    print(f"python bench/retrieval_profile.py {' '.join(sys.argv[1:])}")
    with open_store(store_location) as store:
        index: Any = store.index
        for name in ("prefetch", "first_pass", "author_pass", "fields_of"):
            if getattr(index, name, None) is not None:
                setattr(index, name, timed(name, getattr(index, name)))
        for mode in ("search", "by_title", "by_authors"):
            spent.clear()
            walls = []
            for record in picked:
                people = [Person.model_validate(a) for a in record.get("authors", [])]
                started = time.perf_counter()
                surnames = [k for p in people for k in family_keys(p) if k]
                if mode == "search":
                    index.search(record["title"], surnames, record.get("year"), 10)
                elif mode == "by_title":
                    index.by_title(record["title"], 10)
                elif surnames:  # the memory stage's second list: the cited authors within a year
                    index.by_authors(surnames, record.get("year"), 10, record["title"])
                walls.append(time.perf_counter() - started)
            parts = {
                k: f"mean {sum(v) / len(walls) * 1000:.1f} ms, p50 {quantile(v, 0.5):.1f}, p95 {quantile(v, 0.95):.1f}"
                for k, v in spent.items()
            }
            wall = f"p50 {quantile(walls, 0.5):.1f} ms, p95 {quantile(walls, 0.95):.1f} ms"
            print(f"{mode}: {len(walls)} citations, {wall}; per primitive, a query: {parts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
