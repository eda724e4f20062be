"""LLM agents on the HALLMARK dev split: how often they are called, what they cost, what they change.

Runs the split twice through the same Checker as bench/hallmark.py (memory
store filled from the world file, closed world): once with agents off, once
with agents on. By default the agents talk to the fake OpenAI-compatible server
of tests/llm/fakellm.py on 127.0.0.1 with a model that agrees with the rules
(`echo_rules_policy`), which measures the share of citations sent to an agent,
the requests and (estimated, chars/4) tokens, and proves the plumbing changes
no verdict. With --base-url and --model it uses a real endpoint instead (opt-in,
never in CI; e.g. a llama.cpp server on 127.0.0.1) and reports accuracy and cost.

    python bench/agents.py [--accepts json_schema|json_object|none] [--limit N]
    python bench/agents.py --base-url http://127.0.0.1:8080/v1 --model gemma3-270m
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from citetracer.config import LLMSettings, Settings  # noqa: E402
from citetracer.mirror.jsonl import add_jsonl  # noqa: E402
from citetracer.pipeline import Checker  # noqa: E402
from citetracer.records import CitationResult  # noqa: E402
from citetracer.store.db import Store  # noqa: E402
from hallmark import SHARED, load_split, metrics  # noqa: E402


def run(
    store: Store, path: Path, refs: list[Any], llm: LLMSettings | None, closed: bool
) -> tuple[list[CitationResult], float]:
    settings = Settings(store=path, offline=True, concurrency=4, closed_world=closed, remember_verified=False)
    if llm is not None:
        settings = settings.model_copy(update={"llm": llm})
    checker = Checker(settings, store=store)
    t0 = time.perf_counter()
    results = asyncio.run(checker.check_references(refs))
    return results, time.perf_counter() - t0


def label(r: CitationResult) -> str:
    return "HALLUCINATED" if r.verdict.class_ == "Hallucinated" else "VALID"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", type=Path, default=SHARED / "dev_public.jsonl")
    ap.add_argument("--world", type=Path, default=SHARED / "world.jsonl")
    ap.add_argument(
        "--accepts",
        choices=["json_schema", "json_object", "none"],
        default="json_schema",
        help="response_format the fake server accepts (the client degrades to it)",
    )
    ap.add_argument("--base-url", help="a real OpenAI-compatible endpoint instead of the fake (opt-in)")
    ap.add_argument("--model", default="fake-echo")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--limit", type=int, help="only the first N entries")
    ap.add_argument("--coverage", choices=["closed", "venue"], default="closed", help="as in bench/hallmark.py")
    ap.add_argument("--show", type=int, default=0, help="print this many reviewed citations")
    args = ap.parse_args()
    if not args.split.exists() or not args.world.exists():
        print(f"HALLMARK data not found ({args.split}, {args.world}): benchmark skipped.")
        return 0
    entries, refs = load_split(args.split, args.limit)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "store.sqlite"
        store = Store(path)
        add_jsonl(store, args.world, "world")
        closed = args.coverage == "closed"
        off, off_s = run(store, path, refs, None, closed)
        llm = LLMSettings(
            base_url=args.base_url or "", model=args.model, cache=Path(tmp) / "llm", timeout=args.timeout, concurrency=2
        )
        if args.base_url:
            on, on_s = run(store, path, refs, llm, closed)
            where = f"endpoint {args.base_url}, model {args.model}"
        else:
            from tests.llm.fakellm import FakeLLM, echo_rules_policy

            with FakeLLM(accepts=args.accepts, policy=echo_rules_policy) as fake:
                on, on_s = run(store, path, refs, llm.model_copy(update={"base_url": fake.url}), closed)
            where = f"fake server on 127.0.0.1 (accepts {args.accepts}; echo-the-rules model)"
        store.close()

    reviewed = [i for i, r in enumerate(on) if r.cost.agents]
    calls = [c for r in on for c in r.cost.agents]
    requests = sum(r.cost.llm_calls for r in on)
    tokens = sum(r.cost.llm_tokens for r in on)
    changed = [
        i
        for i in reviewed
        if (on[i].verdict.class_, on[i].verdict.code) != (off[i].verdict.class_, off[i].verdict.code)
    ]
    print(f"HALLMARK {args.split.name}: {len(entries)} entries; agents via {where}")
    cmd = f"python bench/agents.py --split {args.split} --world {args.world} --coverage {args.coverage}"
    cmd += f" --accepts {args.accepts}"
    if args.base_url:
        cmd += f" --base-url {args.base_url} --model {args.model}"
    print(f"command: {cmd}" + (f" --limit {args.limit}" if args.limit else ""))
    print(f"\ncitations sent to agents: {len(reviewed)} of {len(on)} ({len(reviewed) / len(on):.1%})")
    print(f"rules verdicts sent: {dict(Counter(off[i].verdict.code for i in reviewed))}")
    print(f"agent uses: {dict(Counter(c.agent for c in calls))}")
    print(f"outcomes: {dict(Counter(f'{c.agent}:{c.status}' for c in calls))}")
    print(
        f"HTTP requests: {requests}; tokens: {tokens} ({'server-reported' if args.base_url else 'fake: chars/4'})"
        f"; per reviewed citation: {tokens / max(1, len(reviewed)):.0f} tokens"
    )
    print(f"verdicts changed by agents: {len(changed)} of {len(reviewed)} reviewed")
    print(f"time: agents off {off_s:.1f}s, on {on_s:.1f}s (machine shared with other work)")
    print(f"\n{'run':<12}{'DR':>8}{'FPR':>8}{'F1':>8}{'twF1':>8}{'reviewed correct':>18}")
    for name, results in (("agents off", off), ("agents on", on)):
        m = metrics(entries, {e["bibtex_key"]: label(r) for e, r in zip(entries, results, strict=True)})
        ok = sum(label(results[i]) == entries[i]["label"] for i in reviewed)
        print(
            f"{name:<12}{m['DR']:>8.3f}{m['FPR']:>8.3f}{m['F1']:>8.3f}{m['tier_weighted_F1']:>8.3f}"
            f"{f'{ok}/{len(reviewed)}':>18}"
        )
    for i in reviewed[: args.show]:
        e, r = entries[i], on[i]
        print(f"\n- [{e.get('hallucination_type') or 'VALID'}] {e['fields'].get('title', '')[:90]}")
        print(f"  rules {off[i].verdict.code} -> {r.verdict.code}: {r.verdict.rationale[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
