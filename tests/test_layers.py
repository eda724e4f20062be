"""The package tree is the pipeline, and imports only point down.

Reads the imports of every module under src/citetracer with `ast` (nothing is
imported, so a broken module still gets checked) and fails on an arrow from a
layer to a higher one. The order below is written down once here and once in
the README's "How it works"; a module belongs to the layer of its longest
listed prefix. Arrows inside one layer are allowed.

Bottom to top:
- model: the data every stage shares (records, evidence, verdict codes, settings,
  thresholds, knowledge tables) and imports nothing of citetracer above it;
- normalize: pure text, name and venue normalizers;
- services: the local store, the HTTP layer, the LLM client (prompts, schemas,
  cache); stages call them, they know no stage;
- the stages in pipeline order: extract, collect, match, judge, report (a stage
  may read an earlier stage's output types, never a later one's code);
- the pipeline (extract -> cascade of stages with match and judge after each ->
  report);
- front ends: the Python API (`citetracer.check`), the CLI, `citetracer scan`.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "citetracer"

#: The layer order, bottom first: (layer, module prefixes).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "model",
        (
            "citetracer.version",
            "citetracer.records",
            "citetracer.evidence",
            "citetracer.taxonomy",
            "citetracer.thresholds",
            "citetracer.sources",
            "citetracer.config",
            "citetracer.data",
            "citetracer.childlimits",
            "citetracer.collector",
        ),
    ),
    (
        "normalize",
        ("citetracer.normalize",),
    ),
    (
        "services",
        (
            "citetracer.store",
            "citetracer.llm",
            "citetracer.collect.http",
            "citetracer.collect.httpcache",
            "citetracer.collect.ssrf",
        ),
    ),
    ("mirror", ("citetracer.mirror",)),
    ("extract", ("citetracer.extract",)),
    ("collect", ("citetracer.collect",)),
    ("match", ("citetracer.match",)),
    ("judge", ("citetracer.judge",)),
    ("report", ("citetracer.report",)),
    ("pipeline", ("citetracer.pipeline", "citetracer.cascade")),
    ("front ends", ("citetracer", "citetracer.__main__", "citetracer.cli", "citetracer.scan", "citetracer.web")),
]

#: Arrows against the order that exist today, each to be removed by a later change; the test
#: fails when one of them is gone (so the list only shrinks) or a new one appears. None is left.
KNOWN_VIOLATIONS: set[tuple[str, str]] = set()


def module_name(path: Path, src: Path = SRC) -> str:
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, src: Path = SRC) -> set[str]:
    """The citetracer modules `path` imports (at any depth of the file, TYPE_CHECKING included)."""
    name = module_name(path, src)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "citetracer")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "citetracer":
                continue
            # `from citetracer.x import y` may name a submodule y: count it as the module it is.
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                file = src.parent / Path(*sub.split("."))
                exists = file.with_suffix(".py").exists() or (file / "__init__.py").exists()
                out.add(sub if exists else target)
    return out


def layer_of(module: str) -> int:
    best, index = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, index = len(prefix), i
    assert index >= 0, f"{module} is in no layer: add it to LAYERS (and to the README's layout)"
    return index


def upward_arrows() -> set[tuple[str, str]]:
    arrows = set()
    for path in sorted(SRC.rglob("*.py")):
        source = module_name(path)
        for target in imported_modules(path):
            if layer_of(target) > layer_of(source):
                arrows.add((source, target))
    return arrows


def describe(arrows: set[tuple[str, str]]) -> str:
    return "\n".join(f"  {s} ({LAYERS[layer_of(s)][0]}) -> {t} ({LAYERS[layer_of(t)][0]})" for s, t in sorted(arrows))


def test_imports_point_down_the_layers() -> None:
    new = upward_arrows() - KNOWN_VIOLATIONS
    assert not new, "imports against the layer order (see LAYERS):\n" + describe(new)


#: The services know no stage, and none knows another: each is usable (and replaceable) on its own.
SERVICES: dict[str, tuple[str, ...]] = {
    "store": ("citetracer.store",),
    "llm": ("citetracer.llm",),
    "http": ("citetracer.collect.http", "citetracer.collect.httpcache", "citetracer.collect.ssrf"),
}


def service_of(module: str) -> str | None:
    for service, prefixes in SERVICES.items():
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return service
    return None


def test_services_do_not_import_each_other() -> None:
    crossing = set()
    for path in sorted(SRC.rglob("*.py")):
        source = module_name(path)
        for target in imported_modules(path):
            if service_of(source) and service_of(target) and service_of(source) != service_of(target):
                crossing.add((source, target))
    assert not crossing, "services importing each other:\n" + describe(crossing)


def test_known_violations_are_still_there() -> None:
    """A removed violation leaves the list, so it cannot come back unseen."""
    gone = KNOWN_VIOLATIONS - upward_arrows()
    assert not gone, "no longer violations, remove them from KNOWN_VIOLATIONS:\n" + describe(gone)


def test_every_module_has_a_layer() -> None:
    for path in SRC.rglob("*.py"):
        layer_of(module_name(path))


def test_the_readme_states_the_same_order() -> None:
    readme = (SRC.parents[1] / "README.md").read_text(encoding="utf-8")
    line = next((ln for ln in readme.splitlines() if ln.startswith("Layers, bottom first:")), None)
    assert line is not None, "README's 'How it works' must state the layer order"
    assert [name.strip() for name in line.removeprefix("Layers, bottom first:").strip(" .").split(" < ")] == [
        name for name, _ in LAYERS
    ]


def test_an_upward_import_is_seen(tmp_path: Path) -> None:
    """The reader itself: relative and absolute imports, submodules named in `from ... import`."""
    pkg = tmp_path / "citetracer"
    (pkg / "match").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "match" / "__init__.py").write_text("")
    rules = pkg / "match" / "rules.py"
    rules.write_text("from . import normalize\nfrom ..judge import codes\nimport citetracer.cli\n")
    (pkg / "match" / "normalize.py").write_text("")
    assert imported_modules(rules, pkg) == {"citetracer.match.normalize", "citetracer.judge", "citetracer.cli"}
    assert {layer_of(m) for m in imported_modules(rules, pkg)} - set(range(layer_of("citetracer.match") + 1))


def import_cycles(src: Path = SRC) -> list[set[str]]:
    """Groups of modules that import one another, directly or through others (strongly connected
    components of the import graph, lazy imports inside functions included)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(src.rglob("*.py")):
        name = module_name(path, src)
        graph[name] = {t for t in imported_modules(path, src) if t != name}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        order[node] = low[node] = len(order)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                cycles.append(group)

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return cycles


#: Import cycles that exist today outside the packages this test guards (the list only shrinks).
KNOWN_CYCLES: list[set[str]] = []


def test_no_import_cycles() -> None:
    """The store's backends share their helpers through store/common.py and the scan's pool, cluster and
    per-paper work through scan/jobs.py, so neither package (nor any other) has a cycle of imports."""
    new = [sorted(c) for c in import_cycles() if c not in KNOWN_CYCLES]
    assert not new, f"import cycles: {new}"
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in import_cycles()]
    assert not gone, f"no longer cycles, remove them from KNOWN_CYCLES: {gone}"


#: Packages whose modules must not import one another's private (underscore) names.
NO_PRIVATE_IMPORTS = ("citetracer.store", "citetracer.scan")


def test_no_private_names_imported_across_modules() -> None:
    """A name one module keeps private is not another's interface (store/db.py's helpers were pg.py's)."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        name = module_name(path)
        if not name.startswith(NO_PRIVATE_IMPORTS):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("citetracer")):
                found += [f"{name}: {node.module}.{a.name}" for a in node.names if _private(a.name)]
    assert not found, "private names imported from other modules:\n" + "\n".join(found)


def test_a_cycle_is_seen(tmp_path: Path) -> None:
    """The cycle finder itself: a lazy import inside a function closes a cycle too."""
    pkg = tmp_path / "citetracer"
    (pkg / "store").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "store" / "__init__.py").write_text("")
    (pkg / "store" / "api.py").write_text("def open():\n    from citetracer.store.db import Store\n")
    (pkg / "store" / "db.py").write_text("from citetracer.store.api import open\n")
    (pkg / "store" / "codec.py").write_text("from citetracer.store import db\n")
    assert import_cycles(pkg) == [{"citetracer.store.api", "citetracer.store.db"}]


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
