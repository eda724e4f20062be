"""Hostile-input and fault suite: what citetracer does with inputs an attacker or an unlucky user gives it.

Each case runs the real CLI in its own process on an input generated in a temporary
folder (online cases against the fake scholarly web on 127.0.0.1, tests/fakeweb) and
reports its exit code, wall seconds, peak resident memory of the process, whether it
printed a traceback, and its first stderr line. The suite passes when no case prints a
traceback, runs past 60 s or uses more than 1.5 GB.

Then the second campaign's cases (bench/hostile_cases.py, issue 41): hand-written hostile PDFs through
`check` and `scan`, BibTeX, .bbl and LaTeX bombs, hostile mirror inputs, hostile text in every report
format, a truncated store and a full disk, each with its outcome, seconds and peak memory; and its cases of
several processes on one store (bench/hostile_runs.py): ingests killed -9 at 20 random points, two scans
writing to one store, a title index garbled or deleted mid-check, PostgreSQL down at the first open.

Then the web app and archive cases (bench/hostile_web.py): a real `citetracer serve` per case,
its outcome, seconds and peak memory: file-read attempts, tar and zip member bombs, a disk-filling
zip, slow clients, 16 parallel GETs of a large report, PostgreSQL restarts under serve and scan.

Then the memory figures: `check` of N synthetic BibTeX citations (per report format, offline,
store = examples/records.jsonl), the same citations as one web job (the server's peak; not with
--skip-web) and `mirror add` of M synthetic JSONL records.

    python bench/hostile.py                       # the suite, 20,000 citations, 500,000 JSONL records
    python bench/hostile.py --jsonl-records 8000000 --citations 20000
    python bench/hostile.py --skip-figures        # the suite alone
    python bench/hostile.py --skip-suite          # the memory figures alone (and the web cases)
    python bench/hostile.py --skip-suite --skip-figures   # the web and archive cases alone (bench/hostile_web.py)
    python bench/hostile.py --skip-suite --jsonl-records 0 --formats csv,html   # check figures of some formats
    python bench/hostile.py --web-job             # the web job of N citations alone (the server's peak)
    python bench/hostile.py --campaign-only --skip-figures --skip-web   # the readers' and store's cases alone

Timing depends on the machine (2 shared cores here); run under `nice` beside other work.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.hostile_cases import campaign_cases  # noqa: E402
from bench.hostile_runs import CASES as RUN_CASES  # noqa: E402
from bench.hostile_web import print_table, run_web_cases, web_job_figure  # noqa: E402
from bench.spawner import spawner  # noqa: E402
from tests.fakeweb.server import FakeWeb, Fault, closed_url  # noqa: E402

LIMIT_SECONDS, LIMIT_BYTES = 60.0, 1.5e9
#: Address space each CLI process may map: a case whose bound is gone fails here instead of taking the
#: machine's memory (an @string bomb once took 24 GB before it was stopped).
SAFETY_BYTES = 8 * 2**30
RECORDS = ROOT / "tests" / "fakeweb" / "records.jsonl"
WORDS = (
    "learning neural graph deep model networks data analysis method robust efficient attention "
    "transformer language vision reinforcement optimization bayesian inference sparse kernel"
).split()
DTD = (
    "<!ELEMENT dblp (article)*>\n<!ELEMENT article (author|title|year|journal)*>\n"
    "<!ATTLIST article key CDATA #REQUIRED mdate CDATA #IMPLIED>\n"
    "<!ELEMENT author (#PCDATA)>\n<!ELEMENT title (#PCDATA)>\n<!ELEMENT year (#PCDATA)>\n"
    '<!ELEMENT journal (#PCDATA)>\n<!ENTITY eacute "&#233;">\n'
)
XML = '<?xml version="1.0"?>\n'
ARTICLE = '<article key="j/x/{i}"><author>A B</author><title>T {i} &inj;</title><year>2000</year></article>\n'


@dataclass
class Result:
    name: str
    code: int
    seconds: float
    peak: int
    traceback: bool
    message: str


def measure(
    args: list[str], env: dict[str, str], timeout: float = 600, fsize: int | None = None
) -> tuple[int, float, int, str]:
    """Exit code, wall seconds, peak RSS (bytes) and stderr of one CLI run in its own process, started by the
    bench's spawner (bench/spawner.py: so the peak is the run's own), its address space capped at
    SAFETY_BYTES and its files at `fsize` bytes when given."""
    argv = [sys.executable, "-m", "citetracer.cli", *args]
    return spawner().run(argv, env, str(ROOT), timeout, SAFETY_BYTES, fsize)


def bib(n: int, seed: int = 5) -> str:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        title = " ".join(rng.choice(WORDS) for _ in range(7)).capitalize()
        out.append(
            f"@inproceedings{{k{i},\n  title={{{title} {i}}},\n  author={{Smith, John and Doe, Jane}},\n"
            f"  booktitle={{Proceedings of NeurIPS}},\n  year={{{2000 + i % 24}}},\n  pages={{1--10}}\n}}\n"
        )
    return "".join(out)


def jsonl_records(path: Path, n: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            rec = {
                "id": f"w{i}",
                "title": " ".join(rng.choice(WORDS) for _ in range(8)) + f" {i}",
                "authors": [f"Ann{rng.randrange(5000)} Smith{rng.randrange(20000)}" for _ in range(3)],
                "year": 1990 + i % 35,
                "venue": f"Venue {i % 300}",
                "doi": f"10.1234/x.{i}",
                "type": "inproceedings",
            }
            fh.write(json.dumps(rec) + "\n")


def dump(path: Path, head: str, body: str) -> Path:
    with gzip.open(path, "wb") as fh:
        fh.write((head + "<dblp>\n" + body + "</dblp>\n").encode("latin-1"))
    return path


def cases(tmp: Path, web: FakeWeb | None) -> list[tuple[str, list[str], Callable[[], None]]]:
    """(name, CLI arguments, what to do just before) for each input of the suite."""
    store = tmp / "store.sqlite"
    w = lambda name, data: (tmp / name).write_bytes(data if isinstance(data, bytes) else data.encode())  # noqa: E731
    w("garbage.bib", os.urandom(200_000))
    w("garbage.pdf", b"%PDF-1.7\n" + os.urandom(300_000))
    w("empty.txt", b"")
    w("nested.bib", "@article{a, title={" + "{" * 200_000 + "x" + "}" * 200_000 + "}, year={2020}}\n")
    w("unbalanced.bib", "@article{a, title={x, year={2020}\n" * 5000)
    w("long-line.txt", "[1] A. Writer. " + "x" * 10_000_000 + " 2019.\n")
    w(
        "long-url.txt",
        "\n".join(f"[{i}] A. Author. Some title {i}. In Proc. of X, 2019." for i in range(10))
        + "\n[11] B. Writer. Title. 2020. https://e.org/"
        + "a" * 30_000
        + "\n",
    )
    w("quotes.txt", "[1] " + '"' * 200_000 + " 2019.\n")
    w("initials.txt", "\n".join(f"[{i}] " + "A. " * 5000 + "Title. 2019." for i in range(40)))
    w("big.bib", bib(100_005))
    w("mb8.bib", bib(40_000))
    w("bad.bbl", "\\begin{thebibliography}{9}\n" + "\\bibitem{" * 50_000)
    w("records-bad.jsonl", "\n".join(["{not json", "[]", '{"title": 5}', "x" * 2_000_000, '{"title": "ok"}']))
    w("dblp.dtd", DTD)
    subset = '<!DOCTYPE dblp SYSTEM "dblp.dtd" [<!ENTITY inj "INJECTED">]>\n'
    laughs = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    dumps = {
        "dblp-after-64k-comment.xml.gz": '<?xml version="1.0"?>\n<!--' + "c" * 70_000 + "-->\n" + subset,
        "dblp-gt-in-system-id.xml.gz": XML + '<!DOCTYPE dblp SYSTEM "a>b/dblp.dtd" [<!ENTITY inj "X">]>\n',
        "dblp-billion-laughs.xml.gz": XML + f'<!DOCTYPE dblp SYSTEM "dblp.dtd" [<!ENTITY l0 "lol">{laughs}]>\n',
        "dblp-xxe.xml.gz": '<?xml version="1.0"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd" [<!ENTITY inj SYSTEM "file:///etc/passwd">]>\n',
    }
    for name, head in dumps.items():
        dump(tmp / name, head, ARTICLE.format(i=1))
    (tmp / "truncated.xml.gz").write_bytes((tmp / "dblp-xxe.xml.gz").read_bytes()[:40])
    w("config-bad.toml", "store = [unclosed\n")
    w(
        "one-doi.bib",
        "@inproceedings{he, title={Deep Residual Learning for Image Recognition}, author={He, Kaiming "
        "and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian}, year={2016}, doi={10.1109/cvpr.2016.90}}\n",
    )
    w(
        "invented-url.bib",
        "@article{f, title={Recursive attention lattices for zero-shot protein folding}, "
        "author={Sutskever, Ilya}, year={2019}, journal={NeurIPS}, url={file:///etc/passwd}}\n",
    )
    s = ["--store", str(store)]
    off = [*s, "--offline"]

    def damage_index() -> None:
        (tmp / "store.sqlite.index" / "meta.json").unlink(missing_ok=True)

    def faults(**f: Fault) -> Callable[[], None]:
        def apply() -> None:
            if web is not None:
                web.faults.clear()
                web.faults.update(f)

        return apply

    none = lambda: None  # noqa: E731
    out = [
        ("seed store (examples/records.jsonl)", ["mirror", "add", str(ROOT / "examples" / "records.jsonl"), *s], none),
        ("garbage bytes as .bib", ["check", str(tmp / "garbage.bib"), *off], none),
        ("garbage bytes as .pdf", ["check", str(tmp / "garbage.pdf"), *off], none),
        ("empty file", ["check", str(tmp / "empty.txt"), *off], none),
        ("200k nested braces .bib", ["check", str(tmp / "nested.bib"), *off], none),
        ("5,000 unbalanced .bib entries", ["check", str(tmp / "unbalanced.bib"), *off], none),
        ("10 MB line without spaces", ["check", str(tmp / "long-line.txt"), *off], none),
        ("30 KB URL among 11 references", ["check", str(tmp / "long-url.txt"), *off], none),
        ("200k quotes in one reference", ["check", str(tmp / "quotes.txt"), *off], none),
        ("40 references of 5,000 initials", ["check", str(tmp / "initials.txt"), *off], none),
        (
            "100,005 BibTeX entries (extract)",
            ["extract", str(tmp / "big.bib"), "--format", "json", "-o", str(tmp / "x.json")],
            none,
        ),
        (
            "8 MB .bib, 40,000 entries (extract)",
            ["extract", str(tmp / "mb8.bib"), "--format", "json", "-o", str(tmp / "y.json")],
            none,
        ),
        ("50,000 unclosed \\bibitem{", ["check", str(tmp / "bad.bbl"), *off], none),
        (
            "-o into a missing directory",
            ["check", str(tmp / "long-url.txt"), *off, "-o", str(tmp / "no" / "r.json")],
            none,
        ),
        ("bad config file", ["check", str(tmp / "long-url.txt"), *off, "--config", str(tmp / "config-bad.toml")], none),
        ("store path is a folder", ["check", str(tmp / "long-url.txt"), "--offline", "--store", str(tmp)], none),
        ("store is not SQLite", ["mirror", "stats", "--store", str(tmp / "garbage.pdf")], none),
        ("JSONL with bad lines and a 2 MB line", ["mirror", "add", str(tmp / "records-bad.jsonl"), *s], none),
        *[(f"DBLP: {n.removesuffix('.xml.gz')}", ["mirror", "dblp", str(tmp / n), *s], none) for n in dumps],
        (
            "DBLP: truncated gzip",
            ["mirror", "dblp", str(tmp / "truncated.xml.gz"), "--dtd", str(tmp / "dblp.dtd"), *s],
            none,
        ),
        ("index meta.json deleted, then stats", ["mirror", "stats", *s], damage_index),
    ]
    if web is not None:
        # Each online case on a store of its own, empty: a store holding the cited work (or an earlier
        # case's answers) would settle the citation before any source is asked.
        stores = iter(range(1, 100))

        def online(bib: str) -> list[str]:
            return ["check", str(tmp / bib), "--store", str(tmp / f"online-{next(stores)}.sqlite")]

        body = Fault(mode="body", status=200, body="{}")
        out += [
            (
                "online: Crossref + doi.org answer {} for a real DOI",
                online("one-doi.bib"),
                faults(crossref=body, doi=body),
            ),
            (
                "online: Crossref + doi.org answer null",
                online("one-doi.bib"),
                faults(
                    crossref=Fault(mode="body", status=200, body="null"),
                    doi=Fault(mode="body", status=200, body="null"),
                ),
            ),
            (
                "online: every source answers 500",
                online("one-doi.bib"),
                faults(**{"*": Fault(mode="status", status=500)}),
            ),
            (
                "online: every source hangs",
                online("one-doi.bib"),
                faults(**{"*": Fault(mode="hang", hang=20)}),
            ),
            (
                "online: citation URL file:///etc/passwd",
                online("invented-url.bib"),
                faults(),
            ),
        ]
    out.append((NO_NETWORK, ["check", str(ROOT / "examples" / "references.bib"), *s], none))
    return out


#: The case run with every source's base URL on a loopback port that takes no connection.
NO_NETWORK = "no network: every source refuses connections"


def no_network_env(env: dict[str, str]) -> dict[str, str]:
    out = dict(env)
    for key in env:
        if key.startswith("CITETRACER_") and key.endswith("_URL") and key != "CITETRACER_SEARXNG_URL":
            out[key] = closed_url()
    return out


#: Notes every offline check on a small store prints first: not the line a case's table row shows.
STANDING = (
    "holds no complete source",
    "checks offline against an empty store",
    "StarletteDeprecation",
    "import TestClient",
)


def run_suite(tmp: Path, env: dict[str, str], web: FakeWeb | None, campaign_only: bool = False) -> list[Result]:
    results = []
    first = [] if campaign_only else [(name, args, before, None) for name, args, before in cases(tmp, web)]
    seed = tmp / "campaign.sqlite"
    if campaign_only or not first:
        measure(["mirror", "add", str(ROOT / "examples" / "records.jsonl"), "--store", str(seed)], env)
    for name, args, before, fsize in [*first, *campaign_cases(tmp, tmp / "store.sqlite" if first else seed)]:
        before()
        code, seconds, peak, err = measure(args, no_network_env(env) if name == NO_NETWORK else env, fsize=fsize)
        # The line that says what happened: the store's standing notes (empty, no complete source) come first
        # in almost every run and say nothing about the case.
        lines = [line for line in err.splitlines() if line.strip() and not any(n in line for n in STANDING)]
        results.append(Result(name, code, seconds, peak, "Traceback" in err, (lines[0] if lines else "")[:110]))
        print(f"  {name}: exit {code}, {seconds:.1f}s", file=sys.stderr, flush=True)
    return results + [run_case(tmp, env, case) for case in RUN_CASES]


def run_case(tmp: Path, env: dict[str, str], case: str) -> Result:
    """One case of bench/hostile_runs.py (several processes on one store): its seconds are its slowest
    process's (the bound is per process), its peak the highest of the driver and the processes it waited for."""
    folder, result = tmp / f"runs-{case}", tmp / f"runs-{case}.json"
    argv = [sys.executable, str(ROOT / "bench" / "hostile_runs.py"), case, str(folder), str(result)]
    code, total, peak, err = spawner().run(argv, env, str(ROOT), 3600, SAFETY_BYTES, None)
    got = json.loads(result.read_text()) if result.exists() else {"outcome": err.strip()[-110:], "seconds": [total]}
    slowest = max(got["seconds"], default=total)
    note = f"{got['outcome']} ({len(got['seconds'])} processes, {total:.0f} s in all)"
    name = RUN_CASES[case][0]
    print(f"  {name}: exit {code}, {total:.1f}s", file=sys.stderr, flush=True)
    return Result(name, code, slowest, peak, "Traceback" in err, note)


def figures(
    tmp: Path, env: dict[str, str], citations: int, records: int, formats: list[str], web: bool = True
) -> list[tuple[str, int, float, int]]:
    out = []
    store = tmp / "fig.sqlite"
    measure(["mirror", "add", str(ROOT / "examples" / "records.jsonl"), "--store", str(store)], env)
    (tmp / "many.bib").write_text(bib(citations), encoding="utf-8")
    for fmt in formats:
        args = ["check", str(tmp / "many.bib"), "--offline", "--store", str(store)]
        if fmt == "fix":  # the corrected BibTeX, beside a streamed JSON report
            args += ["--format", "json", "-o", str(tmp / "many.fix.json"), "--fix", str(tmp / "many.fixed.bib")]
        else:
            args += ["--format", fmt, "-o", str(tmp / f"many.{fmt}")]
        code, seconds, peak, _ = measure(args, env, timeout=3600)
        what = "--format json --fix" if fmt == "fix" else f"--format {fmt}"
        out.append((f"check {citations:,} citations ({what}, offline)", code, seconds, peak))
    if web:
        name, done, seconds, peak = web_job_figure(tmp, (tmp / "many.bib").read_text(encoding="utf-8"), citations)
        out.append((name, 0 if done == citations else 1, seconds, peak))
    if not records:
        return out
    jsonl_records(tmp / "records.jsonl", records)
    code, seconds, peak, _ = measure(
        ["mirror", "add", str(tmp / "records.jsonl"), "--store", str(tmp / "add.sqlite")], env, timeout=6 * 3600
    )
    out.append((f"mirror add {records:,} JSONL records", code, seconds, peak))
    return out


def web_job_alone(citations: int) -> int:
    """The figure of one web job of `citations` citations on a fresh server, nothing else."""
    with tempfile.TemporaryDirectory(prefix="citetracer-hostile-") as tmp_name:
        name, done, seconds, peak = web_job_figure(Path(tmp_name), bib(citations), citations)
    print(f"{'figure':52} {'done':>7} {'s':>7} {'peak MB':>8}")
    print(f"{name:52} {done:>7} {seconds:>7.1f} {peak / 1e6:>8.0f}")
    print(f"\ncommand: python bench/hostile.py --web-job --citations {citations}")
    return 0 if done == citations else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--citations", type=int, default=20_000)
    ap.add_argument("--jsonl-records", type=int, default=500_000)
    ap.add_argument("--skip-figures", action="store_true")
    ap.add_argument("--skip-suite", action="store_true", help="the memory figures alone")
    ap.add_argument("--skip-web", action="store_true", help="without the web app and archive cases")
    ap.add_argument(
        "--formats",
        default="json,jsonl,csv,sarif,html,markdown,fix",
        help="report formats of the check figure (fix: --format json with --fix)",
    )
    ap.add_argument("--campaign-only", action="store_true", help="the second campaign's cases alone (issue 41)")
    ap.add_argument("--web-job", action="store_true", help="the web job of --citations citations alone")
    args = ap.parse_args()
    if args.web_job:
        return web_job_alone(args.citations)
    with tempfile.TemporaryDirectory(prefix="citetracer-hostile-") as tmp_name, FakeWeb(RECORDS) as web:
        tmp = Path(tmp_name)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CITETRACER_")}
        env.update({f"CITETRACER_{n.upper()}_URL": url for n, url in web.sources().items()})
        env.update({"CITETRACER_SEARXNG_URL": "", "CITETRACER_HTTP_CACHE": "", "HOME": str(tmp)})
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p)
        results = [] if args.skip_suite else run_suite(tmp, env, web, args.campaign_only)
        print(f"\n{'input':52} {'exit':>4} {'s':>6} {'peak MB':>8} tb  first stderr line")
        for r in results:
            flag = "YES" if r.traceback else "no"
            print(f"{r.name[:52]:52} {r.code:>4} {r.seconds:>6.1f} {r.peak / 1e6:>8.0f} {flag:3} {r.message}")
        bad = [r for r in results if r.traceback or r.seconds > LIMIT_SECONDS or r.peak > LIMIT_BYTES]
        print(
            f"\n{len(results)} inputs; {len(bad)} with a traceback, over {LIMIT_SECONDS:.0f} s or over "
            f"{LIMIT_BYTES / 1e9:.1f} GB" + (": " + ", ".join(r.name for r in bad) if bad else "")
        )
        if not args.skip_figures:
            print(f"\n{'figure':52} {'exit':>4} {'s':>7} {'peak MB':>8}")
            for name, code, seconds, peak in figures(
                tmp, env, args.citations, args.jsonl_records, args.formats.split(","), web=not args.skip_web
            ):
                print(f"{name:52} {code:>4} {seconds:>7.1f} {peak / 1e6:>8.0f}")
        if not args.skip_web:  # after the figures: a process this one forks counts its memory until it execs
            web_results = run_web_cases(tmp, lambda a, e: measure(a, e, timeout=600))
            print_table(web_results)
            web_bad = [r for r in web_results if r.traceback or r.seconds > LIMIT_SECONDS or r.peak > LIMIT_BYTES]
            print(
                f"\n{len(web_results)} web and archive cases; {len(web_bad)} with a traceback, over "
                f"{LIMIT_SECONDS:.0f} s or over {LIMIT_BYTES / 1e9:.1f} GB"
                + (": " + ", ".join(r.name for r in web_bad) if web_bad else "")
            )
            bad += web_bad  # type: ignore[arg-type]
    print(
        f"\ncommand: python bench/hostile.py --citations {args.citations} --jsonl-records {args.jsonl_records}"
        f" --formats {args.formats}"
        + (" --skip-figures" if args.skip_figures else "")
        + (" --skip-suite" if args.skip_suite else "")
        + (" --skip-web" if args.skip_web else "")
        + (" --campaign-only" if args.campaign_only else "")
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
