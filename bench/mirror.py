"""DBLP mirror benchmark: ingest speed, memory, store size and retrieval among millions of near neighbours.

1. Ingest ../shared/data/dblp/dblp-sample.xml.gz (167,711 real records): records/s, store size.
2. Generate a synthetic dump of N records (default 8,000,000): the real sample records plus
   synthetic ones made from them: half are near neighbours of a real title (40% of its words,
   at least two, replaced by words drawn from the sample's title vocabulary), half are new
   titles of real length drawn from that vocabulary; authors drawn from the sample's author
   pool, years 1970-2025, venues and DOIs like the sample's. Written gzip'd, in dblp.xml layout.
3. Ingest it with `citetracer mirror dblp` in a subprocess: wall time, peak RSS of the
   process tree (sampled from /proc every 0.2 s), store size.
4. Retrieval on that store for Q citations made from real sample records (unique titles of at
   least 4 words) with 0, 1 or 2 title words changed (a word replaced, dropped or added), the
   record's authors and year kept: recall@1 and recall@10 and latency p50/p95 per query of
   `TitleIndex.search` (title, surnames and year: the memory stage's query), the same for
   `TitleIndex.by_title` (the title alone, no authors or year); and whether the true record is
   among the memory stage's two lists (`search` hits or `by_authors` hits: the record's authors
   within a year, ranked by shared title words); and the same for a fabricated title (random
   vocabulary words, as many as the real title has) under the record's real authors and year.

    python bench/mirror.py [--records 8000000] [--queries 2000] [--workdir DIR] [--keep] [--seed 11]
    python bench/mirror.py --retrieval-only STORE [--queries 2000] [--seed 11]   (step 4 on a kept store)

The other mirrors, on snapshots generated in their real formats (bench/snapshots.py: the sample's
records first, then synthetic near neighbours), into SQLite + tantivy and/or PostgreSQL (a
throwaway server, tests/pgserver.py): ingest time and records/s, peak RSS of the ingest's
process tree, store size, `mirror stats`, and step 4's retrieval on the store:

    python bench/mirror.py --source arxiv --records 3000000 --backend both
    python bench/mirror.py --source openalex --records 20000000 --backend both

Generated dumps and stores are deleted at the end unless --keep (a PostgreSQL store's server is then
stopped with its data kept, and the command that starts it again is printed):

    python bench/mirror.py --source openalex --retrieval-only URL --dump SNAPSHOT   (step 4 again)
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from citetracer.mirror.dblp import ingest_dblp
from citetracer.normalize.names import family_keys
from citetracer.normalize.text import title_key, tokens
from citetracer.records import Person
from citetracer.store.api import open_store
from citetracer.store.db import Store
from dblpsample import SHARED, load_sample


def store_bytes(path: Path) -> int:
    total = path.stat().st_size if path.exists() else 0
    index = path.with_name(path.name + ".index")
    return total + sum(f.stat().st_size for f in index.rglob("*") if f.is_file())


# ------------------------------------------------------------------ synthetic dump


def _record_xml(tag: str, key: str, rec: dict[str, Any]) -> str:
    parts = [f'<{tag} mdate="2016-01-01" key="{escape(key)}">']
    for a in rec.get("authors", []):
        name = f"{a.get('given', '')} {a['family']}".strip()
        parts.append(f"<author>{escape(name)}</author>")
    parts.append(f"<title>{escape(rec['title'])}</title>")
    venue_tag = "journal" if tag == "article" else "booktitle"
    if rec.get("venue"):
        parts.append(f"<{venue_tag}>{escape(rec['venue'])}</{venue_tag}>")
    for field in ("pages", "volume"):
        if rec.get(field):
            parts.append(f"<{field}>{escape(str(rec[field]))}</{field}>")
    if rec.get("issue"):
        parts.append(f"<number>{escape(rec['issue'])}</number>")
    if rec.get("year"):
        parts.append(f"<year>{rec['year']}</year>")
    if rec.get("doi"):
        parts.append(f"<ee>https://doi.org/{escape(rec['doi'])}</ee>")
    if rec.get("crossref"):
        parts.append(f"<crossref>{escape(rec['crossref'])}</crossref>")
    parts.append(f"</{tag}>\n")
    return "".join(parts)


def generate(sample: list[dict[str, Any]], n: int, out: Path, seed: int = 7) -> None:
    rng = random.Random(seed)
    vocab: list[str] = []
    for rec in sample:
        vocab.extend(rec["title"].split())
    authors = [a for rec in sample for a in rec.get("authors", [])]
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=1) as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n')
        for rec in sample:
            fh.write(_record_xml(rec.get("type", "article"), rec["key"], rec))
        for i in range(n - len(sample)):
            base = sample[rng.randrange(len(sample))]
            words = base["title"].split()
            if i % 2 == 0 and len(words) >= 3:
                k = max(2, round(0.4 * len(words)))
                for j in rng.sample(range(len(words)), min(k, len(words))):
                    words[j] = vocab[rng.randrange(len(vocab))]
            else:
                words = [vocab[rng.randrange(len(vocab))] for _ in range(max(3, len(words)))]
            rec = {
                "title": " ".join(words),
                "authors": [authors[rng.randrange(len(authors))] for _ in range(rng.randint(1, 5))],
                "venue": base.get("venue"),
                "year": rng.randint(1970, 2025),
                "pages": f"{(p := rng.randint(1, 900))}-{p + rng.randint(3, 20)}",
                "doi": f"10.9999/synth.{i}" if rng.random() < 0.4 else None,
            }
            tag = "article" if base.get("type") == "article" else "inproceedings"
            prefix = "/".join(base["key"].split("/")[:2])  # keys as long as real ones: conf/aaai/s123
            fh.write(_record_xml(tag, f"{prefix}/s{i}", rec))
        fh.write("</dblp>\n")


# ------------------------------------------------------------------ measurement


#: How often a long ingest prints its memory (the series shows whether it grows with the records).
SERIES_SECONDS = 300.0


def _tree_rss(pid: int, field: str = "VmRSS") -> int:
    """Resident bytes of a process and all its descendants (Linux /proc); `field` RssAnon: anonymous
    memory only (without the pages of mapped files, which the kernel can drop)."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith(field + ":"):
                    total += int(line.split()[1]) * 1024
            for task in Path(f"/proc/{p}/task").iterdir():
                children = (task / "children").read_text().split()
                stack.extend(int(c) for c in children)
        except (OSError, ValueError):
            continue
    return total


def _cpu_seconds() -> float:
    """User + sys seconds of this process and its waited-for children (the parser workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run_ingest(dump: Path, dtd: Path, store: Path) -> tuple[float, int, int, float]:
    """`mirror dblp` in a subprocess: see `run_command`."""
    return run_command(["dblp", str(dump), "--dtd", str(dtd), "--store", str(store)])


def run_command(args: list[str], runner: list[str] | None = None) -> tuple[float, int, int, float]:
    """`citetracer mirror ARGS` in a subprocess: wall seconds, peak RSS of the process tree, exit code, and
    CPU seconds (user + sys) of the tree. `runner`: the command that runs the CLI with ARGS after it
    (default `python -m citetracer.cli`; bench/parse_workers.py sets a module constant first).

    CPU seconds are what the ingest costs whatever else the machine runs (wall time on a
    shared machine depends on the other jobs); the workers are waited for, so they count.
    """
    cmd = [*(runner or [sys.executable, "-m", "citetracer.cli"]), "mirror", *args]
    started = time.monotonic()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(cmd)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        """Peak RSS every 0.2 s; every `SERIES_SECONDS` a line of the series (flat when memory is bounded)."""
        nonlocal peak
        shown = started
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            if time.monotonic() - shown >= SERIES_SECONDS:
                shown = time.monotonic()
                rss, anon = _tree_rss(proc.pid) / 1e9, _tree_rss(proc.pid, "RssAnon") / 1e9
                print(f"[memory at {shown - started:,.0f}s] RSS {rss:.2f} GB, anonymous {anon:.2f} GB; "
                      f"peak so far {peak / 1e9:.2f} GB", flush=True)  # fmt: skip
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    rc = proc.wait()
    done.set()
    sampler.join()
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_seconds = cpu.ru_utime + cpu.ru_stime - cpu_before.ru_utime - cpu_before.ru_stime
    return time.monotonic() - started, peak, rc, cpu_seconds


def perturb(title: str, changes: int, vocab: list[str], rng: random.Random) -> str:
    words = title.split()
    for _ in range(changes):
        op = rng.choice(("replace", "drop", "add"))
        if op == "drop" and len(words) > 3:
            del words[rng.randrange(len(words))]
        elif op == "add":
            words.insert(rng.randrange(len(words) + 1), vocab[rng.randrange(len(vocab))])
        else:
            j = rng.randrange(len(words))
            words[j] = vocab[rng.randrange(len(vocab))]
    return " ".join(words)


def retrieval(
    store_path: Path | str, sample: list[dict[str, Any]], queries: int, seed: int = 11, prefix: str = "dblp:"
) -> dict[str, Any]:
    """Retrieval figures for `queries` citations made from `sample` records (their store key is
    `prefix` + their `key`)."""
    rng = random.Random(seed)
    counts = Counter(title_key(r["title"]) for r in sample)
    eligible = [r for r in sample if counts[title_key(r["title"])] == 1 and len(tokens(r["title"])) >= 4]
    vocab = [w for r in sample for w in r["title"].split()]
    picked = rng.sample(eligible, min(queries, len(eligible)))
    modes = ("search", "by_title")
    results: dict[str, dict[int, list[int | None]]] = {m: {0: [], 1: [], 2: []} for m in modes}
    wall: dict[str, list[float]] = {m: [] for m in modes}
    cpu: dict[str, list[float]] = {m: [] for m in modes}  # this process's CPU time: the cost on a shared machine
    either: dict[int, list[bool]] = {0: [], 1: [], 2: []}
    author_ms: list[float] = []
    fabricated: list[bool] = []
    fake = random.Random(seed + 1)  # its own generator: the perturbed queries stay those of the seed
    with open_store(store_path) as store:
        keys = {r["key"]: store.rid_of_key(f"{prefix}{r['key']}") for r in picked}
        for i, rec in enumerate(picked):
            changes = i % 3
            query = perturb(rec["title"], changes, vocab, rng) if changes else rec["title"]
            people = [Person.model_validate(a) for a in rec.get("authors", [])]
            surnames = [k for p in people for k in family_keys(p) if k]
            true = keys[rec["key"]]
            hits: dict[str, list[int]] = {}
            for mode in modes:
                t, c = time.perf_counter(), time.process_time()
                if mode == "search":
                    hits[mode] = store.index.search(query, surnames, rec.get("year"), 10)
                else:
                    hits[mode] = store.index.by_title(query, 10)
                wall[mode].append((time.perf_counter() - t) * 1000)
                cpu[mode].append((time.process_time() - c) * 1000)
                results[mode][changes].append(hits[mode].index(true) + 1 if true in hits[mode] else None)
            # The memory stage's second list: the cited authors within a year, ranked by shared title words.
            t = time.perf_counter()
            by_authors = store.index.by_authors(surnames, rec.get("year"), 10, query) if surnames else []
            author_ms.append((time.perf_counter() - t) * 1000)
            either[changes].append(true in hits["search"] or true in by_authors)
            # A fabricated title (as many random vocabulary words) under the record's real authors and year.
            invented = " ".join(vocab[fake.randrange(len(vocab))] for _ in range(len(rec["title"].split())))
            both = store.index.search(invented, surnames, rec.get("year"), 10)
            both += store.index.by_authors(surnames, rec.get("year"), 10, invented) if surnames else []
            fabricated.append(true in both)

    def pct(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))]

    out: dict[str, Any] = {"queries": len(picked), "load average at the end": os.getloadavg()[0]}
    for mode in modes:
        label = "search (title + authors + year)" if mode == "search" else "by_title (title alone)"
        out[f"{label} p50_ms"] = pct(wall[mode], 0.5)
        out[f"{label} p95_ms"] = pct(wall[mode], 0.95)
        out[f"{label} cpu p50_ms"] = pct(cpu[mode], 0.5)
        out[f"{label} cpu p95_ms"] = pct(cpu[mode], 0.95)
        for changes, ranks in results[mode].items():
            out[f"{label} recall@1 ({changes} words changed)"] = sum(1 for r in ranks if r == 1) / len(ranks)
            out[f"{label} recall@10 ({changes} words changed)"] = sum(1 for r in ranks if r is not None) / len(ranks)
    for changes, found in either.items():
        out[f"memory stage, search@10 or by_authors@10 ({changes} words changed)"] = sum(found) / len(found)
    out["memory stage, fabricated title with the real authors and year"] = sum(fabricated) / len(fabricated)
    out["by_authors p50_ms"] = pct(author_ms, 0.5)
    out["by_authors p95_ms"] = pct(author_ms, 0.95)
    return out


def pg_bytes(url: str) -> int:
    """Bytes of the store's tables, their indexes and TOAST in PostgreSQL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'"
        ).fetchone()
    return int(row[0]) if row else 0


def snapshot_queries(snap: Path) -> Path:
    """The citations file bench/snapshots.py writes beside a generated snapshot (a folder or a file)."""
    return snap / "works.queries.jsonl" if snap.is_dir() else snap.with_name(snap.name.split(".")[0] + ".queries.jsonl")


def bench_snapshot(args: argparse.Namespace, work: Path) -> int:
    """`--source arxiv|openalex`: a generated snapshot of `--records` works into each backend asked for:
    ingest time, records/s, peak memory of the ingest's process tree, store size, `mirror stats` time,
    and retrieval on the store (the real sample records it holds, with 0/1/2 title words changed)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/pgserver.py starts a server
    import snapshots

    if args.dump:
        snap = args.dump
        queries = snapshot_queries(snap)
        print(f"[{args.source}] reusing {snap}")
    else:
        snap = work / ("arxiv.json.gz" if args.source == "arxiv" else "openalex")
        t = time.monotonic()
        if args.source == "arxiv":
            queries = snapshots.write_arxiv(args.records, snap)
        else:
            queries = snapshots.write_openalex(args.records, snap)
        size = snap.stat().st_size if snap.is_file() else sum(f.stat().st_size for f in snap.rglob("*.gz"))
        print(f"[{args.source}] generated {args.records:,} records in {time.monotonic() - t:.0f}s "
              f"({size / 1e9:.2f} GB gzip)")  # fmt: skip
    sample = [json.loads(line) for line in queries.open()]
    server = None
    pg_store = ""
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    try:
        for backend in backends:
            if backend == "postgresql":
                from tests import pgserver
                from tests.conftest import pg_location

                server = server or pgserver.start()
                location: Path | str = pg_location(server.url)
                pg_store = location
            else:
                location = work / f"{args.source}.sqlite"
            load_before = os.getloadavg()[0]
            seconds, peak, rc, cpu = run_command([args.source, str(snap), "--store", str(location)])
            load_after = os.getloadavg()[0]
            if rc != 0:
                print(f"[{backend}] ingest failed with exit {rc}")
                return 1
            size = pg_bytes(str(location)) if backend == "postgresql" else store_bytes(Path(location))
            print(
                f"[{backend} ingest {args.source} {args.records:,}] {seconds:.0f}s ({seconds / 60:.1f} min, "
                f"{args.records / seconds:,.0f} records/s); peak RSS {peak / 1e9:.2f} GB (citetracer's process tree"
                f"{'; the server apart' if backend == 'postgresql' else ''}); store {size / 1e9:.2f} GB; "
                f"CPU {cpu:.0f}s user+sys ({cpu / args.records * 1e6:.0f} us/record); "
                f"load average {load_before:.1f} before, {load_after:.1f} after"
            )
            t = time.monotonic()
            with open_store(location) as opened:
                stats = opened.stats()
            per = stats["per_source"].get(args.source, {})  # type: ignore[union-attr]
            print(f"[{backend} stats] {time.monotonic() - t:.2f}s; {args.source}: {per.get('records', 0):,} records, "
                  f"snapshot {per.get('snapshot')}, complete for: {per.get('complete_for')}")  # fmt: skip
            figures = retrieval(location, sample, args.queries, args.seed, prefix="")
            print(f"[{backend} retrieval on {args.records:,}] " + json.dumps(figures, indent=1))
    finally:
        if server is not None and args.keep:
            server.pause()  # the data stays for `--retrieval-only URL` after the server is started again
            as_user = f"runuser -u {server.user} -- " if server.user else ""
            print(f"kept the PostgreSQL store in {server.folder}; start it again with: {as_user}pg_ctl -D "
                  f"{server.folder / 'data'} -o '{server.options}' -l {server.folder / 'log'} start; "
                  f"then --retrieval-only '{pg_store}'")  # fmt: skip
        elif server is not None:
            server.stop()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", choices=["dblp", "arxiv", "openalex"], default="dblp", help="the mirror measured")
    ap.add_argument(
        "--backend",
        choices=["sqlite", "postgresql", "both"],
        default="sqlite",
        help="stores of --source arxiv|openalex (dblp: SQLite; bench/cluster.py compares backends)",
    )
    ap.add_argument("--records", type=int, default=8_000_000)
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--workdir", type=Path, help="where dumps and stores go (default: a temp dir under /work)")
    ap.add_argument("--keep", action="store_true", help="keep the generated dump and stores")
    ap.add_argument("--skip-sample", action="store_true", help="skip step 1")
    ap.add_argument("--dump", type=Path, help="reuse a synthetic dump made by an earlier --keep run (same --records)")
    ap.add_argument("--seed", type=int, default=11, help="seed of the retrieval queries (another seed checks a change)")
    ap.add_argument(
        "--retrieval-only",
        metavar="STORE",
        help="only step 4, on a store kept by --keep (a SQLite path or a PostgreSQL URL); with --source "
        "arxiv|openalex, --dump names the snapshot whose citations are asked",
    )
    args = ap.parse_args()
    dump, dtd = SHARED / "dblp-sample.xml.gz", SHARED / "dblp.dtd"
    if not dump.exists() or not dtd.exists():
        print(f"{dump} or {dtd} not found: shared data absent, nothing to measure")
        return 0
    command = "python bench/mirror.py " + " ".join(sys.argv[1:])
    if args.retrieval_only:
        print(f"command: {command}")
        store: Path | str = args.retrieval_only
        if not str(store).startswith("postgresql://"):
            store = Path(store)
        if args.source == "dblp":
            stats = retrieval(store, load_sample(dump, dtd), args.queries, args.seed)
        elif args.dump:
            sample = [json.loads(line) for line in snapshot_queries(args.dump).open()]
            stats = retrieval(store, sample, args.queries, args.seed, prefix="")
        else:
            print(f"--retrieval-only with --source {args.source} needs --dump: the snapshot whose citations are asked")
            return 2
        print(f"[retrieval on {args.retrieval_only}] " + json.dumps(stats, indent=1))
        return 0
    base = args.workdir or Path(__file__).resolve().parents[1].parent
    work = Path(tempfile.mkdtemp(prefix="bench-mirror-", dir=base))
    print(f"command: {command}\nworkdir: {work}\nmachine: {os.cpu_count()} cores (shared with other jobs)")
    if args.source != "dblp":
        try:
            return bench_snapshot(args, work)
        finally:
            if args.keep:
                print(f"kept {work}")
            else:
                shutil.rmtree(work, ignore_errors=True)
    try:
        if not args.skip_sample:
            store = work / "sample.sqlite"
            t, cpu = time.monotonic(), _cpu_seconds()
            report = ingest_dblp(store, dump, dtd)
            s, cpu = time.monotonic() - t, _cpu_seconds() - cpu
            print(
                f"[sample] {report.added:,} records in {s:.1f}s = {report.added / s:,.0f} records/s; "
                f"store {store_bytes(store) / 1e6:.1f} MB; CPU {cpu:.0f}s user+sys "
                f"({cpu / report.added * 1e6:.0f} us/record); load average {os.getloadavg()[0]:.1f}"
            )
        sample = load_sample(dump, dtd)
        if args.dump:
            synth = args.dump
            print(f"[synthetic] reusing {synth} ({synth.stat().st_size / 1e9:.2f} GB gzip)")
        else:
            synth = work / "synthetic.xml.gz"
            t = time.monotonic()
            generate(sample, args.records, synth)
            print(
                f"[synthetic] generated {args.records:,} records in {time.monotonic() - t:.0f}s "
                f"({synth.stat().st_size / 1e9:.2f} GB gzip)"
            )
        big = work / "big.sqlite"
        load_before = os.getloadavg()[0]
        seconds, peak, rc, cpu = run_ingest(synth, dtd, big)
        load_after = os.getloadavg()[0]
        if rc != 0:
            print(f"[ingest] failed with exit {rc}")
            return 1
        if not args.keep and not args.dump:
            synth.unlink()
        print(
            f"[ingest {args.records:,}] {seconds:.0f}s ({seconds / 60:.1f} min, "
            f"{args.records / seconds:,.0f} records/s); "
            f"peak RSS {peak / 1e9:.2f} GB (process tree); store {store_bytes(big) / 1e9:.2f} GB; "
            f"CPU {cpu:.0f}s user+sys ({cpu / args.records * 1e6:.0f} us/record); "
            f"load average {load_before:.1f} before, {load_after:.1f} after"
        )
        t = time.monotonic()
        with Store(big) as opened:
            opened.stats()
        print(f"[stats] `mirror stats` figures on the {args.records:,}-record store in {time.monotonic() - t:.2f}s")
        stats = retrieval(big, sample, args.queries, args.seed)
        print(f"[retrieval on {args.records:,}] " + json.dumps(stats, indent=1))
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
