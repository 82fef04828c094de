"""The import graph of `src/boolrules` has floors (README, "Architecture"): a module imports only
from its own floor or lower ones, even inside a function, and no two modules import each other,
even through others."""

import ast
from pathlib import Path

import pytest

import boolrules

PACKAGE = Path(boolrules.__file__).parent

# Bottom to top; a module belongs to the first entry that is it or a package holding it.
FLOORS = (
    ("base", ("exceptions", "seeding", "sampling", "workers", "validation", "metrics")),
    ("rules", ("rules",)),
    ("data", ("data", "datasets")),
    ("formulations", ("formulations",)),
    ("formats", ("formats",)),
    ("backends", ("backends",)),
    ("learners", ("localsearch", "estimator", "depth_one_classifier", "model_selection", "baselines")),
    ("interfaces", ("plotting", "cli", "command", "__main__", "")),
)


def _module_name(path: Path, package: Path) -> str:
    parts = ("boolrules", *path.relative_to(package).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the boolrules modules it imports anywhere in its source (function bodies too)."""
    files = {_module_name(path, package): path for path in package.rglob("*.py")}
    graph = {}
    for name, path in files.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                targets.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                               for alias in node.names)
        graph[name] = {_known(target, files) for target in targets if target.startswith("boolrules")} - {name, None}
    return graph


def _known(target: str, files) -> str | None:
    """The module `target` names, or the nearest package holding it."""
    while target and target not in files:
        target = target.rpartition(".")[0]
    return target or None


def floor(module: str) -> int:
    """The index in `FLOORS` of `module`'s floor."""
    relative = module.removeprefix("boolrules").removeprefix(".")
    for level, (_, members) in enumerate(FLOORS):
        if any(relative == m or relative.startswith(m + ".") if m else relative == "" for m in members):
            return level
    raise AssertionError(f"{module} is on no floor: add it to FLOORS")


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


@pytest.fixture(scope="module")
def graph():
    return import_graph()


def test_every_module_has_a_floor(graph):
    assert all(floor(module) >= 0 for module in graph)


def test_no_import_points_up(graph):
    upward = sorted(f"{source} (floor {FLOORS[floor(source)][0]}) imports {target} (floor {FLOORS[floor(target)][0]})"
                    for source, targets in graph.items() for target in targets if floor(target) > floor(source))
    assert not upward, "\n".join(upward)


def test_no_import_cycle(graph):
    found = cycles(graph)
    assert not found, "\n".join(" <-> ".join(component) for component in found)


def test_the_checks_see_function_level_and_relative_imports(tmp_path):
    """The graph reads imports inside functions and relative ones, and the checks flag them."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "rules" / "__init__.py").write_text("")
    (tmp_path / "rules" / "nodes.py").write_text("def f():\n    from ..cli import main\n    from . import graph\n")
    (tmp_path / "rules" / "graph.py").write_text("from .nodes import f\n")
    (tmp_path / "cli.py").write_text("")
    toy = import_graph(tmp_path)
    assert toy["boolrules.rules.nodes"] == {"boolrules.cli", "boolrules.rules.graph"}
    assert floor("boolrules.cli") > floor("boolrules.rules.nodes")
    assert cycles(toy) == [["boolrules.rules.graph", "boolrules.rules.nodes"]]
