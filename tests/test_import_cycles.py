"""No import circle between the project's modules (issues 29 and 38).

Every ``.py`` file under core/, render/ and bot/ (and, as a check of its own, bench/)
is parsed with ``ast``; each ``import`` or ``from ... import`` of a project module is
an arrow, wherever it stands: an import inside a function still runs, so a circle
hidden in a function is still a circle; an import under ``if TYPE_CHECKING:`` never runs
but still says that the module knows the one above it, so it counts too (issue 38: a
part that names the facade for its types is a part that knows it; a protocol or what is
passed says what it needs instead). Every strongly connected component of more than one
module is a circle.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Modules allowed to stay in a circle with each other: none since the service was split by
# job (issue 29), counting the imports for types too since issue 38. Any circle fails.
KNOWN: frozenset[str] = frozenset()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(packages: tuple[str, ...]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            if ".venv" not in path.parts:
                found[_module_name(path)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _imports(tree: ast.AST, types: bool = False) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run (with `types`: those under ``if TYPE_CHECKING:``
    too, which never run but still name the module; the graph counts them)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
            continue
        if not types and isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom,
             known: dict[str, Path]) -> set[str]:
    """The project modules one import statement runs (a submodule or its package)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    if node.level:
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        parts = package.split(".") if package else []
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    targets: set[str] = set()
    for alias in node.names:
        sub = f"{base}.{alias.name}" if base else alias.name
        if sub in known:
            targets.add(sub)
        elif base in known:
            targets.add(base)
    return targets


@cache
def graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Module -> the project modules it imports."""
    known = _modules(packages)
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges[name] = set()
        for node in _imports(tree, types=True):
            edges[name] |= _targets(name, path, node, known)
        edges[name].discard(name)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def _unknown(found: list[list[str]]) -> list[list[str]]:
    return [component for component in found if not set(component) <= KNOWN]


def test_graph_sees_relative_submodule_and_function_imports() -> None:
    edges = graph(("core", "render", "bot", "bench"))
    assert "bot.service.guard" in edges["bot.service.service"]  # relative, at the top
    assert "bot.service.host" in edges["bot.service.guard"]  # under TYPE_CHECKING: counted
    assert "bot.service.service" not in edges["bot.service.guard"]  # the door: a protocol
    assert "bot.service.seats" in edges["bot.service.shared"]  # from . import seats
    assert "bot.i18n" in edges["bot.service.guard"]  # from ..i18n import t
    assert "bench.ai_tricks" in edges["bench.ai"]  # inside main()
    assert edges["core.ai"], "core/ai/__init__.py imports its players"
    assert all(target in edges for targets in edges.values() for target in targets)


def test_imports_in_functions_and_for_types_count() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import hidden\nelse:\n    import other\n"
        "def f():\n    from . import inner\n"
    )
    names = [alias.name for node in _imports(tree, types=True) for alias in node.names]
    assert sorted(names) == ["TYPE_CHECKING", "hidden", "inner", "other"]
    running = [alias.name for node in _imports(tree) for alias in node.names]
    assert sorted(running) == ["TYPE_CHECKING", "inner", "other"]


def test_circles_finds_a_made_up_circle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(edges) == [["a", "b", "c"]]


def test_no_import_circle_in_core_render_bot() -> None:
    assert _unknown(circles(graph(("core", "render", "bot")))) == []


def test_no_import_circle_in_bench() -> None:
    found = circles(graph(("core", "render", "bot", "bench")))
    assert [c for c in found if any(m.startswith("bench.") for m in c)] == []


def test_the_door_is_imported_by_the_facade_only_in_the_service() -> None:
    """guard is the door: it may call the service; no part of the service imports it back
    (issue 29). Only the facade, which puts its methods behind the door, imports it."""
    edges = graph(("bot",))
    importers = sorted(m for m, targets in edges.items()
                       if m.startswith("bot.service.") and "bot.service.guard" in targets)
    assert importers == ["bot.service.service"]


def test_the_tables_do_not_import_the_tournaments() -> None:
    """Tournaments are a client of the table service (issue 38): bot/tournament/ imports the
    service's parts; of the service, only the facade (which holds the tournaments) imports
    the tournaments' client modules back."""
    edges = graph(("bot",))
    client = {m for m in edges if m.startswith("bot.tournament.")} - {
        "bot.tournament.model", "bot.tournament.pairing", "bot.tournament.standings",
        "bot.tournament.tournament"}
    assert "bot.tournament.rounds" in client and "bot.tournament.commands" in client
    importers = sorted(m for m, targets in edges.items()
                       if m.startswith("bot.service.") and targets & client)
    assert importers == ["bot.service.service"]
