"""Checks the imports inside the ``calcite_bridge`` package: no cycles, and the layer order below.

Every import counts, at module level or inside a function. Imports under ``if TYPE_CHECKING:``
never run, so they make no cycle; but they are dependencies all the same, so they must keep the
layers too (a type a lower module needs from a higher one belongs in a ``Protocol`` of the lower
module, as ``table_api.QueryRunner`` is). Importing ``a.b.c`` also imports the packages ``a.b``
and ``a`` (their ``__init__`` runs first), so the checker adds those edges too, except for
packages the importing module is itself inside (they are already initialised when it runs).

Layers, lowest first; a module may import modules of its own layer or of a lower one:

1. leaves: ``_version``, ``errors``, ``_sql`` (identifier quoting), ``_types`` (SQL type
   strings and Arrow types), ``_values`` (literal values on the wire), ``_params`` (query
   parameters on the wire), ``_interrupt`` (Ctrl-C during a native call), ``_cdata`` (Arrow C
   streams from the JVM, released quietly at exit), ``functions`` (the signatures of Python
   functions for SQL)
2. ``expressions``
3. ``sources`` and everything under it, ``_udf`` (user-defined functions in Python)
4. the execution backends that run in this process: ``_duckdb``, ``_spark``
5. ``_transport`` and everything under it (the Session protocol, JPype and py4j)
6. ``config``, ``result``
7. ``table_api``
8. ``environment``
9. the package itself (``calcite_bridge/__init__.py``), ``cli``, ``shell``, ``script``,
   ``__main__``, ``_cds``, ``dbapi`` (the PEP 249 module over environments), ``_daemon`` and
   everything under it (the warm process of the CLI's one-shot commands)

A module in no layer is reported, so a new module needs a place here. Run it with
``python tools/check_python_imports.py [PACKAGE_DIR]`` (``make lint`` does); it prints each
problem and exits with 1 when there is one.
"""

from __future__ import annotations

import ast
import itertools
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent / "python" / "calcite_bridge"

# (layer name, module patterns); "x.*" is the package x and every module under it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "leaves",
        (
            "calcite_bridge._version",
            "calcite_bridge.errors",
            "calcite_bridge._sql",
            "calcite_bridge._types",
            "calcite_bridge._values",
            "calcite_bridge._params",
            "calcite_bridge._interrupt",
            "calcite_bridge._cdata",
            "calcite_bridge.functions",
        ),
    ),
    ("expressions", ("calcite_bridge.expressions",)),
    ("sources", ("calcite_bridge.sources.*", "calcite_bridge._udf")),
    ("backends", ("calcite_bridge._duckdb", "calcite_bridge._spark")),
    ("transport", ("calcite_bridge._transport.*",)),
    ("config and result", ("calcite_bridge.config", "calcite_bridge.result")),
    ("table API", ("calcite_bridge.table_api",)),
    ("environment", ("calcite_bridge.environment",)),
    (
        "entry points",
        (
            "calcite_bridge",
            "calcite_bridge.cli",
            "calcite_bridge.shell",
            "calcite_bridge.script",
            "calcite_bridge.__main__",
            "calcite_bridge._cds",
            "calcite_bridge.dbapi",
            "calcite_bridge._daemon.*",
        ),
    ),
]

# module -> imported module -> (file, line) of the first such import
Graph = dict[str, dict[str, tuple[Path, int]]]
Edges = Mapping[str, Mapping[str, object]]


def find_modules(package_dir: Path) -> dict[str, Path]:
    """Every module of the package in ``package_dir``, by dotted name."""
    root = package_dir.name
    out: dict[str, Path] = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = path.relative_to(package_dir).with_suffix("").parts
        if "__pycache__" in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join((root, *parts))] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _imports(tree: ast.AST, type_only: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth, outside ``if TYPE_CHECKING:`` blocks; or, with
    ``type_only``, every one inside such a block."""
    pending: list[tuple[ast.AST, bool]] = [(tree, False)]
    while pending:
        node, checking = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if checking == type_only:
                yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            pending.extend((child, True) for child in node.body)
            pending.extend((child, checking) for child in node.orelse)
        else:
            pending.extend((child, checking) for child in ast.iter_child_nodes(node))


def _targets(
    module: str, is_package: bool, node: ast.Import | ast.ImportFrom, modules: Mapping[str, Path]
) -> Iterator[str]:
    """The dotted names ``node`` imports: modules, or names that should be modules."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
        return
    if node.level:
        parts = module.split(".")
        if not is_package:
            parts = parts[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join([*parts, *([node.module] if node.module else [])])
    else:
        base = node.module or ""
    for alias in node.names:
        child = f"{base}.{alias.name}"
        yield child if child in modules else base


def build_graph(package_dir: Path, type_only: bool = False) -> tuple[Graph, list[str]]:
    """The import graph of the package, and the imports of package modules that don't exist.

    With ``type_only``, the graph of the imports under ``if TYPE_CHECKING:`` instead: each edge
    goes to the imported module alone, as nothing runs (no package ``__init__`` either).
    """
    modules = find_modules(package_dir)
    root = package_dir.name
    graph: Graph = {name: {} for name in modules}
    problems: list[str] = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        ancestors = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
        for node in _imports(tree, type_only):
            is_package = path.name == "__init__.py"
            for target in _targets(module, is_package, node, modules):
                if target != root and not target.startswith(root + "."):
                    continue
                if target not in modules:
                    problems.append(f"{path}:{node.lineno}: {module} imports {target}, no module")
                    continue
                parts = target.split(".")
                implied = [] if type_only else [".".join(parts[:i]) for i in range(1, len(parts))]
                for name in [target, *(p for p in implied if p not in ancestors)]:
                    if name != module:
                        graph[module].setdefault(name, (path, node.lineno))
    return graph, problems


def find_cycles(graph: Edges) -> list[tuple[list[str], list[str]]]:
    """Each group of modules that import each other (a strongly connected component, sorted),
    with one cycle through its first module (repeated at the end)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, {})):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, {}):
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [(c, _cycle_in(graph, set(c), c[0])) for c in sorted(components)]


def _cycle_in(graph: Edges, members: set[str], start: str) -> list[str]:
    """A shortest path from ``start`` back to itself through ``members``."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for nxt in sorted(graph.get(node, {})):
                if nxt == start:
                    return [*paths[node], start]
                if nxt in members and nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    return [start, start]


def _layer_of(module: str, layers: Sequence[tuple[str, tuple[str, ...]]]) -> int | None:
    for i, (_, patterns) in enumerate(layers):
        for pattern in patterns:
            if pattern.endswith(".*"):
                prefix = pattern[:-2]
                if module == prefix or module.startswith(prefix + "."):
                    return i
            elif module == pattern:
                return i
    return None


def layer_problems(
    graph: Graph, layers: Sequence[tuple[str, tuple[str, ...]]], how: str = ""
) -> list[str]:
    """Modules in no layer (unless ``how`` names type-only imports), and imports of a higher
    layer; ``how`` (" under TYPE_CHECKING") says which kind of import the message is about."""
    problems: list[str] = []
    for module in sorted(graph):
        level = _layer_of(module, layers)
        if level is None:
            if not how:
                problems.append(f"{module} is in no layer: give it one in {Path(__file__).name}")
            continue
        for target, (path, line) in sorted(graph[module].items()):
            target_level = _layer_of(target, layers)
            if target_level is not None and target_level > level:
                problems.append(
                    f"{path}:{line}: {module} (layer {layers[level][0]!r}) imports{how} {target}"
                    f" (layer {layers[target_level][0]!r}), which is above it"
                )
    return problems


def check(
    package_dir: Path = PACKAGE_DIR,
    layers: Sequence[tuple[str, tuple[str, ...]]] | None = LAYERS,
) -> list[str]:
    """Every problem found in the package at ``package_dir``; empty when there is none.

    ``layers=None`` checks for cycles (and imports of missing modules) only.
    """
    graph, problems = build_graph(package_dir)
    for members, cycle in find_cycles(graph):
        steps = []
        for a, b in itertools.pairwise(cycle):
            path, line = graph[a][b]
            steps.append(f"{a} -> {b} ({path}:{line})")
        problems.append(f"import cycle among {', '.join(members)}; for example " + ", ".join(steps))
    if layers is not None:
        problems.extend(layer_problems(graph, layers))
        type_graph, _ = build_graph(package_dir, type_only=True)
        problems.extend(layer_problems(type_graph, layers, " under TYPE_CHECKING"))
    return problems


def main(argv: Sequence[str]) -> int:
    package_dir = Path(argv[0]).resolve() if argv else PACKAGE_DIR
    problems = check(package_dir, LAYERS if package_dir == PACKAGE_DIR else None)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"{package_dir.name}: no import cycles, layers respected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
