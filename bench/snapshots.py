"""Generated arXiv and OpenAlex snapshots in their real formats, for scale tests of `citetracer mirror`.

Built from the DBLP sample (../shared/data/dblp/dblp-sample.xml.gz) like bench/mirror.py's
synthetic DBLP dump: every real sample record is written first (the retrieval queries are
made from them), then synthetic records: half near neighbours of a real title (40% of its
words replaced by words of the sample's title vocabulary), half new titles of real length
from that vocabulary; authors drawn from the sample's author pool.

- arXiv: Kaggle's JSON lines (`id`, `submitter`, `authors`, `title`, `comments`,
  `journal-ref`, `doi`, `categories`, `license`, `abstract` of ~120 words, `versions` with
  RFC 2822 dates, `update_date`, `authors_parsed`), ids issued month by month from 0704 on
  (growing, as arXiv did), ~1.2 kB a line: about Kaggle's average.
- OpenAlex: `data/works/updated_date=.../part_NNN.gz` (Work objects: authorships with
  institutions, primary location with its source and ISSNs, biblio, concepts, referenced
  works, an abstract index, two locations), ~5 kB a line (about a real work's), a Redshift manifest, and
  `data/sources/` with one source per ~100 works whose yearly counts match the works
  written for half of them (the rest count more: those venue-years are not held whole).

Each writes `<name>.queries.jsonl` beside the snapshot: the real sample records with the
key they got, for retrieval measurements.

    python bench/snapshots.py arxiv 3000000 OUT.json.gz
    python bench/snapshots.py openalex 20000000 OUT_DIR
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from dblpsample import SAMPLE, load_sample

#: Works per OpenAlex part file (the real ones hold up to a few hundred thousand).
PART_WORKS = 500_000


def _concept(c: int) -> dict[str, Any]:
    return {"id": f"https://openalex.org/C{41008148 + c}", "wikidata": f"https://www.wikidata.org/wiki/Q{c}",
            "display_name": f"Concept {c}", "level": 1, "score": 0.5}  # fmt: skip


class Synth:
    """Titles and authors drawn from the sample."""

    def __init__(self, sample: list[dict[str, Any]], seed: int) -> None:
        self.rng = random.Random(seed)
        self.sample = sample
        self.vocab = [w for rec in sample for w in rec["title"].split()]
        self.authors = [a for rec in sample for a in rec.get("authors", [])]
        #: Abstracts to draw from (citetracer does not read them: they only give lines their real length).
        self.abstracts = [" ".join(self.rng.choices(self.vocab, k=120)) for _ in range(2000)]
        #: OpenAlex's abstract indexes (word -> positions) and concept lists, serialized, to draw from.
        self.abstract_indexes = [
            json.dumps({w: [k] for k, w in enumerate(a.split()[:40])}, ensure_ascii=False) for a in self.abstracts
        ]
        self.concepts = [json.dumps([_concept(c) for c in self.rng.sample(range(50), 3)]) for _ in range(500)]

    def record(self, i: int) -> dict[str, Any]:
        """Record i: a real one first, then synthetic ones."""
        rng = self.rng
        if i < len(self.sample):
            return self.sample[i]
        base = self.sample[rng.randrange(len(self.sample))]
        words = base["title"].split()
        if i % 2 == 0 and len(words) >= 3:
            k = max(2, round(0.4 * len(words)))
            for j in rng.sample(range(len(words)), min(k, len(words))):
                words[j] = self.vocab[rng.randrange(len(self.vocab))]
        else:
            words = [self.vocab[rng.randrange(len(self.vocab))] for _ in range(max(3, len(words)))]
        return {
            "title": " ".join(words),
            "authors": [self.authors[rng.randrange(len(self.authors))] for _ in range(rng.randint(1, 6))],
            "year": rng.randint(1990, 2025),
            "venue": base.get("venue"),
        }

    def words(self, n: int) -> list[str]:
        return self.rng.choices(self.vocab, k=n)


def _name(author: dict[str, str]) -> str:
    return f"{author.get('given', '')} {author['family']}".strip()


# ------------------------------------------------------------------ arXiv


def arxiv_ids(n: int) -> Iterator[str]:
    """n new-style ids, month by month from 2007-04, more each month (arXiv grew ~10x since)."""
    months = [(y, m) for y in range(2007, 2026) for m in range(1, 13) if (y, m) >= (2007, 4)]
    weights = [1.0 + 9.0 * i / len(months) for i in range(len(months))]
    scale = n / sum(weights)
    made = 0
    for (year, month), w in zip(months, weights, strict=True):
        count = round(w * scale) if (year, month) != months[-1] else n - made
        count = min(count, n - made, 99_999)
        for k in range(1, count + 1):
            yield f"{year % 100:02d}{month:02d}.{k:05d}"
        made += count
        if made >= n:
            return


def write_arxiv(n: int, out: Path, seed: int = 7) -> Path:
    synth = Synth(load_sample(), seed)
    rng = synth.rng
    queries = out.with_name(out.name.split(".")[0] + ".queries.jsonl")
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=1) as fh, queries.open("w") as qf:
        for i, ident in enumerate(arxiv_ids(n)):
            rec = synth.record(i)
            y, m = 2000 + int(ident[:2]), int(ident[2:4])
            created = datetime(y, m, rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59), tzinfo=UTC)
            dates = [created]
            for v in range(2, rng.choice((2, 2, 2, 3, 4))):  # one version mostly, up to three
                dates.append(created.replace(year=min(2025, created.year + v - 1)))
            versions = [{"version": f"v{k}", "created": format_datetime(d, usegmt=True)}
                        for k, d in enumerate(dates, 1)]  # fmt: skip
            authors = rec.get("authors") or [{"family": "Anonymous"}]
            obj = {
                "id": ident,
                "submitter": _name(authors[0]),
                "authors": ", ".join(_name(a) for a in authors),
                "title": rec["title"],
                "comments": f"{rng.randint(4, 40)} pages, {rng.randint(1, 12)} figures",
                "journal-ref": f"{rec['venue']} {rng.randint(1, 60)} ({y})" if rng.random() < 0.2 and rec.get("venue")
                else None,
                "doi": f"10.9999/arxiv.synth.{i}" if rng.random() < 0.3 else None,
                "report-no": None,
                "categories": rng.choice(("cs.LG", "cs.CL cs.LG", "cs.CV", "stat.ML", "cs.AI", "math.OC")),
                "license": "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
                "abstract": "  " + synth.abstracts[i % 2000] + "\n",
                "versions": versions,
                "update_date": dates[-1].date().isoformat(),
                "authors_parsed": [[a["family"], a.get("given", ""), ""] for a in authors],
            }  # fmt: skip
            fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
            if i < len(synth.sample):  # its year is arXiv's: that of its first version
                qf.write(json.dumps({**rec, "year": y, "key": f"arxiv:{ident}"}) + "\n")
    return queries


# ------------------------------------------------------------------ OpenAlex


def write_openalex(n: int, root: Path, seed: int = 7, day: str = "2025-01-15") -> Path:
    """Works in parts of PART_WORKS, their sources, both manifests; returns the queries file."""
    synth = Synth(load_sample(), seed)
    rng = synth.rng
    n_sources = max(10, n // 100)
    held: Counter[tuple[int, int]] = Counter()
    works_dir = root / "data" / "works" / f"updated_date={day}"
    works_dir.mkdir(parents=True, exist_ok=True)
    queries = root / "works.queries.jsonl"
    entries = []
    part_no = -1
    count = 0
    fh = None
    with queries.open("w") as qf:
        for i in range(n):
            if i % PART_WORKS == 0:
                if fh is not None:
                    fh.close()
                    entries.append(_entry(works_dir / f"part_{part_no:03d}.gz", "works", day, count))
                part_no += 1
                fh = gzip.open(  # noqa: SIM115 (one part file after another)
                    works_dir / f"part_{part_no:03d}.gz", "wt", encoding="utf-8", compresslevel=1
                )
                count = 0
            rec = synth.record(i)
            year = rec.get("year") or rng.randint(1990, 2025)
            sid = rng.randrange(n_sources)
            held[(sid, year)] += 1
            wid = f"W{4000000000 + i}"
            assert fh is not None
            fh.write(_work(wid, rec, year, sid, rng, synth) + "\n")
            count += 1
            if i < len(synth.sample):
                qf.write(json.dumps({**rec, "key": f"openalex:{wid}"}) + "\n")
    if fh is not None:
        fh.close()
        entries.append(_entry(works_dir / f"part_{part_no:03d}.gz", "works", day, count))
    _manifest(root / "data" / "works", entries)
    sources_dir = root / "data" / "sources" / f"updated_date={day}"
    sources_dir.mkdir(parents=True, exist_ok=True)
    by_source: dict[int, dict[int, int]] = {}
    for (sid, year), c in held.items():
        by_source.setdefault(sid, {})[year] = c
    part = sources_dir / "part_000.gz"
    with gzip.open(part, "wt", encoding="utf-8", compresslevel=1) as sf:
        for sid in range(n_sources):
            years = by_source.get(sid, {})
            extra = 0 if sid % 2 == 0 else 1  # odd sources published one work more a year than the subset holds
            sf.write(json.dumps(_source(sid, {y: c + extra for y, c in years.items() if y >= 2015})) + "\n")
    _manifest(root / "data" / "sources", [_entry(part, "sources", day, n_sources)])
    return queries


def _issn(sid: int) -> str:
    return f"{1000 + sid // 10000:04d}-{sid % 10000:04d}"


def _source(sid: int, counts: dict[int, int]) -> dict[str, Any]:
    return {
        "id": f"https://openalex.org/S{2000000000 + sid}", "issn_l": _issn(sid), "issn": [_issn(sid)],
        "display_name": f"Journal of Synthetic Studies {sid}", "host_organization_name": "Synthetic Press",
        "works_count": sum(counts.values()), "cited_by_count": 0, "is_oa": False, "is_in_doaj": False,
        "homepage_url": None, "country_code": "US", "alternate_titles": [f"JSS-{sid}"],
        "abbreviated_title": f"J. Synth. Stud. {sid}", "type": "journal",
        "counts_by_year": [{"year": y, "works_count": c, "cited_by_count": 0} for y, c in sorted(counts.items())],
        "updated_date": "2025-01-15T00:00:00", "created_date": "2020-01-01",
    }  # fmt: skip


_DUMP = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
#: The parts of a work line that do not vary, serialized once (the generator writes millions of lines).
_INSTITUTION = _DUMP([{"id": "https://openalex.org/I63966007", "display_name": "Synthetic University",
                       "ror": "https://ror.org/042nb2s44", "country_code": "US", "type": "education",
                       "lineage": ["https://openalex.org/I63966007"]}])  # fmt: skip
_TAIL = _DUMP({
    "is_retracted": False, "is_paratext": False, "countries_distinct_count": 1, "institutions_distinct_count": 1,
    "open_access": {"is_oa": False, "oa_status": "closed", "oa_url": None, "any_repository_has_fulltext": False},
    "apc_list": None, "apc_paid": None, "has_fulltext": False, "mesh": [], "sustainable_development_goals": [],
    "grants": [], "datasets": [], "versions": [], "keywords": [], "topics": [], "counts_by_year": [],
    "updated_date": "2025-01-14T10:00:00.000000", "created_date": "2020-01-01",
})[1:]  # fmt: skip


def _work(wid: str, rec: dict[str, Any], year: int, sid: int, rng: random.Random, synth: Synth) -> str:
    """One Work object as a JSON line, assembled from serialized pieces (the shape of `json.dumps` of the object)."""
    authors = rec.get("authors") or [{"family": "Anonymous"}]
    doi = f"10.9999/oa.{wid.lower()}" if rng.random() < 0.7 else None
    doi_url = f'"https://doi.org/{doi}"' if doi else "null"
    source = (
        f'{{"id": "https://openalex.org/S{2000000000 + sid}", "display_name": "Journal of Synthetic Studies {sid}", '
        f'"issn_l": "{_issn(sid)}", "issn": ["{_issn(sid)}"], "is_oa": false, "is_in_doaj": false, '
        '"host_organization_name": "Synthetic Press", "type": "journal"}'
    )
    location = (
        f'{{"is_oa": false, "landing_page_url": {doi_url}, "pdf_url": null, "source": {source}, '
        '"license": null, "version": "publishedVersion", "is_accepted": true, "is_published": true}'
    )
    authorships = ", ".join(
        f'{{"author_position": "{"first" if k == 0 else "middle"}", "author": {{"id": "https://openalex.org/A'
        f'{5000000000 + rng.randrange(10**8)}", "display_name": {_DUMP(_name(a))}, "orcid": null}}, '
        f'"institutions": {_INSTITUTION}, "countries": ["US"], "is_corresponding": {"true" if k == 0 else "false"}, '
        f'"raw_author_name": {_DUMP(_name(a))}, "raw_affiliation_strings": ["Synthetic University"]}}'
        for k, a in enumerate(authors)
    )
    first = rng.randint(1, 900)
    refs = ", ".join(f'"https://openalex.org/W{4000000000 + rng.randrange(10**7)}"' for _ in range(12))
    return (
        f'{{"id": "https://openalex.org/{wid}", "doi": {doi_url}, "title": {_DUMP(rec["title"])}, '
        f'"display_name": {_DUMP(rec["title"])}, "publication_year": {year}, '
        f'"publication_date": "{year}-{rng.randint(1, 12):02d}-01", "language": "en", '
        f'"primary_location": {location}, "type": "article", "type_crossref": "journal-article", '
        f'"indexed_in": ["crossref"], "authorships": [{authorships}], '
        f'"biblio": {{"volume": "{rng.randint(1, 60)}", "issue": "{rng.randint(1, 12)}", "first_page": "{first}", '
        f'"last_page": "{first + rng.randint(3, 20)}"}}, "cited_by_count": {rng.randint(0, 500)}, '
        f'"concepts": {synth.concepts[rng.randrange(len(synth.concepts))]}, "locations": [{location}], '
        f'"referenced_works_count": 12, "referenced_works": [{refs}], '
        f'"abstract_inverted_index": {synth.abstract_indexes[rng.randrange(len(synth.abstract_indexes))]}, '
        f'"cited_by_api_url": "https://api.openalex.org/works?filter=cites:{wid}", {_TAIL}'
    )


def _entry(part: Path, entity: str, day: str, count: int) -> dict[str, Any]:
    return {"url": f"s3://openalex/data/{entity}/updated_date={day}/{part.name}",
            "meta": {"content_length": part.stat().st_size, "record_count": count}}  # fmt: skip


def _manifest(folder: Path, entries: list[dict[str, Any]]) -> None:
    meta = {"content_length": sum(e["meta"]["content_length"] for e in entries),
            "record_count": sum(e["meta"]["record_count"] for e in entries)}  # fmt: skip
    (folder / "manifest").write_text(json.dumps({"entries": entries, "meta": meta}))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["arxiv", "openalex"])
    ap.add_argument("records", type=int)
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    if not SAMPLE.exists():
        print(f"{SAMPLE}: the DBLP sample is absent; nothing generated")
        return 0
    t = time.monotonic()
    queries = write_arxiv(args.records, args.out, args.seed) if args.kind == "arxiv" else write_openalex(
        args.records, args.out, args.seed)  # fmt: skip
    print(f"{args.kind}: {args.records:,} records in {time.monotonic() - t:.0f}s -> {args.out} (queries {queries})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
