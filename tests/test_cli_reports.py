"""Reports that say what they did, and errors a newcomer can act on (issue 47), through the CLI in a subprocess."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from tests.cliproc import run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
BIB = str(EXAMPLES / "references.bib")
NO_COMPLETE = "holds no complete source"


def seed(tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "mirror", "add", str(EXAMPLES / "records.jsonl"), "--source", "example")
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("fmt", ["html", "markdown", "json", "sarif", "csv"])
def test_a_report_written_to_a_file_says_its_counts_and_where(tmp_path: Path, fmt: str) -> None:
    seed(tmp_path)
    out = tmp_path / f"report.{fmt}"
    proc = run_cli(tmp_path, "check", "--offline", BIB, "--format", fmt, "-o", str(out))
    assert proc.returncode == 1, proc.stderr
    name = {"html": "HTML", "markdown": "Markdown", "json": "JSON", "sarif": "SARIF", "csv": "CSV"}[fmt]
    [line] = [x for x in proc.stderr.splitlines() if "report written to" in x]
    counts = json.loads(run_cli(tmp_path, "check", "--offline", BIB, "--format", "json").stdout)["summary"]
    assert line == (
        f"{counts['total']} citations: {counts['real']} Real, {counts['potential']} Potential, "
        f"{counts['hallucinated']} Hallucinated; {name} report written to {out}"
    )
    assert out.is_file()


def test_the_store_warning_is_the_stores_once_and_whole(tmp_path: Path) -> None:
    """Two inputs against a store with no complete source: the warning once per report, in its own place,
    never a paper's warning, never clipped."""
    seed(tmp_path)
    other = tmp_path / "other.bib"
    other.write_text(Path(BIB).read_text(encoding="utf-8"), encoding="utf-8")
    reports = {}
    for fmt in ("html", "markdown", "json", "sarif"):
        out = tmp_path / f"r.{fmt}"
        proc = run_cli(tmp_path, "check", "--offline", BIB, str(other), "--format", fmt, "-o", str(out))
        assert proc.returncode == 1, proc.stderr
        assert sum(NO_COMPLETE in x and x.startswith("store warning: ") for x in proc.stderr.splitlines()) == 1
        reports[fmt] = out.read_text(encoding="utf-8")
    page = reports["html"]
    [section] = re.findall(r'<section id="store".*?</section>', page, re.S)
    assert NO_COMPLETE in section and "--complete-venues" in section  # whole, its advice kept
    assert page.count(NO_COMPLETE) == 1
    assert re.search(r"<b>0</b>papers with extraction warnings", page)
    assert reports["markdown"].count(NO_COMPLETE) == 1
    assert re.search(r"^> \*\*store:\*\* .*holds no complete source", reports["markdown"], re.M)
    docs = json.loads(reports["json"])
    assert all(any(NO_COMPLETE in w for w in d["store_warnings"]) for d in docs)
    assert not any(NO_COMPLETE in w for d in docs for w in d["warnings"])
    notes = json.loads(reports["sarif"])["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    store = [n for n in notes if NO_COMPLETE in n["message"]["text"]]
    assert len(store) == 1 and store[0]["descriptor"]["id"] == "citetracer/store-coverage"


def test_the_table_on_the_terminal_says_the_store_warning_once(tmp_path: Path) -> None:
    """The table says the store's warning under itself; said before it as well, a reader saw it twice."""
    seed(tmp_path)
    other = tmp_path / "other.bib"
    other.write_text(Path(BIB).read_text(encoding="utf-8"), encoding="utf-8")
    proc = run_cli(tmp_path, "check", "--offline", BIB, str(other))
    assert proc.returncode == 1, proc.stderr
    said = (proc.stdout + proc.stderr).replace("\n", " ")
    assert said.count("store warning:") == 1, said


def test_the_scan_reports_carry_the_store_warning(tmp_path: Path) -> None:
    seed(tmp_path)
    folder = tmp_path / "papers"
    folder.mkdir()
    for name in ("a.bib", "b.bib"):
        (folder / name).write_text(Path(BIB).read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "scan"
    proc = run_cli(tmp_path, "scan", "--offline", str(folder), "-o", str(out), "--workers", "1")
    assert proc.returncode == 1, proc.stderr
    index = (out / "index.html").read_text(encoding="utf-8")
    assert NO_COMPLETE in "".join(re.findall(r'<section id="store".*?</section>', index, re.S))
    assert index.count(NO_COMPLETE) == 1
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert summary.count(NO_COMPLETE) == 1 and "> **store:**" in summary
    for paper in (out / "papers").glob("*.json"):
        doc = json.loads(paper.read_text(encoding="utf-8"))
        assert any(NO_COMPLETE in w for w in doc["store_warnings"]) and not doc["warnings"]
    notes = json.loads((out / "results.sarif").read_text())["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert sum(NO_COMPLETE in n["message"]["text"] for n in notes) == 1


def _table_ids(text: str, ids: list[str]) -> list[str]:
    """The citation ids in the order the table shows them."""
    return sorted((i for i in ids if i in text), key=text.index)


def test_sort_attention_puts_hallucinated_first_and_id_keeps_the_papers_order(tmp_path: Path) -> None:
    seed(tmp_path)
    doc = json.loads(run_cli(tmp_path, "check", "--offline", BIB, "--format", "json").stdout)
    ids = [c["id"] for c in doc["citations"]]
    rank = {"Hallucinated": 0, "Potential": 1, "Real": 4}
    verdicts = {c["id"]: c["verdict"] for c in doc["citations"]}
    order = {i: rank[v["class"]] + {"P3": 0, "P2": 1, "P1": 2}.get(v["code"], 0) for i, v in verdicts.items()}
    for fmt in ("csv", "markdown"):
        by_id = run_cli(tmp_path, "check", "--offline", BIB, "--format", fmt, "--show", "all", "--sort", "id").stdout
        by_need = run_cli(tmp_path, "check", "--offline", BIB, "--format", fmt, "--show", "all", "--sort", "attention")
        assert _table_ids(by_id, ids) == ids
        shown = _table_ids(by_need.stdout, ids)
        assert shown == sorted(ids, key=lambda i: (order[i], ids.index(i)))
        assert shown != ids  # the example has Real citations before Hallucinated ones: the order must change


def test_p1_citations_get_lookup_links_in_html_and_markdown(tmp_path: Path) -> None:
    seed(tmp_path)
    doc = json.loads(run_cli(tmp_path, "check", "--offline", BIB, "--format", "json").stdout)
    p1 = [c for c in doc["citations"] if c["verdict"]["code"] == "P1" and c["reference"].get("title")]
    assert p1
    page = run_cli(tmp_path, "check", "--offline", BIB, "--format", "html").stdout
    markdown = run_cli(tmp_path, "check", "--offline", BIB, "--format", "markdown", "--show", "all").stdout
    from urllib.parse import quote_plus

    for c in p1:
        q = quote_plus(" ".join(c["reference"]["title"].split()), safe="")
        for url in (f"https://scholar.google.com/scholar?q={q}", f"https://dblp.org/search?q={q}"):
            assert url in page and url in markdown
    assert page.count('class="lookup"') == len(p1)  # only the P1 citations


def test_a_missing_extra_is_one_line_with_the_pip_command(tmp_path: Path) -> None:
    """`scan --cluster local` without `distributed`: exit 2, the pip command, no journal left behind."""
    fake = tmp_path / "nocluster"
    fake.mkdir()
    (fake / "distributed.py").write_text("raise ImportError('not installed')\n")
    import os

    from tests.cliproc import SRC

    env = {"PYTHONPATH": f"{fake}{os.pathsep}{os.environ.get('PYTHONPATH') or SRC}"}
    env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in env["PYTHONPATH"].split(os.pathsep))
    out = tmp_path / "scan"
    proc = run_cli(tmp_path, "scan", "--offline", BIB, "-o", str(out), "--cluster", "local", env=env)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "error: --cluster needs the cluster extra: pip install 'citetracer[cluster]'"
    ], proc.stderr
    assert not (out / "journal.jsonl").exists()


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("refs.bib", b"% exported\n@article{a, title={X}, year={2020}}\n", "BibTeX"),
        ("paper.pdf", b"%PDF-1.4\n%%EOF\n", "a PDF"),
        ("dblp.xml.gz", gzip.compress(b'<?xml version="1.0"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n'), "gzip"),
        ("list.json", b'[{"title": "X"}]\n', "JSON array"),
    ],
)
def test_mirror_add_of_a_file_that_is_not_jsonl_says_so_and_writes_nothing(
    tmp_path: Path, name: str, content: bytes, said: str
) -> None:
    given = tmp_path / name
    given.write_bytes(content)
    store = tmp_path / "fresh.sqlite"
    proc = run_cli(tmp_path, "mirror", "add", str(given), "--store", str(store))
    assert proc.returncode == 2
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith(f"error: {given}: ") and said in line
    assert not store.exists()  # no empty store created


def test_mirror_add_still_reads_jsonl(tmp_path: Path) -> None:
    store = tmp_path / "fresh.sqlite"
    proc = run_cli(tmp_path, "mirror", "add", str(EXAMPLES / "records.jsonl"), "--store", str(store))
    assert proc.returncode == 0, proc.stderr and store.exists()


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["chek", BIB], "did you mean 'check'?"),
        (["check", "--ofline", BIB], "did you mean --offline?"),
        (["check", "--format", "htm", BIB], "did you mean 'html'?"),
        (["mirror", "stat"], "did you mean 'stats'?"),
    ],
)
def test_a_typo_gets_the_nearest_word(tmp_path: Path, args: list[str], hint: str) -> None:
    proc = run_cli(tmp_path, *args)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].endswith(hint), proc.stderr


def test_a_word_near_nothing_gets_no_suggestion(tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "check", "--zzzzqq", BIB)
    assert proc.returncode == 2 and "did you mean" not in proc.stderr
