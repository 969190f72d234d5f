"""No class in bot/ stands on more than two classes of the project (issue 38): its parents
and theirs, counted together.  Parts are held, not inherited: the table service is its
shared state holding its parts, the tournaments a client beside it, and each store holds its
link, queries, outbox (and on PostgreSQL its notices, table locks and shared pace).

Every class of bot/ is read with ``ast``; a base is a project class when the name it is
written with is a class of bot/ (defined in the same module or imported from one).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST = 2

# Classes allowed to stand on more than two: none (the stores hold their parts too).
KNOWN: dict[str, int] = {}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(name: str, path: Path, tree: ast.Module) -> dict[str, str]:
    """The names a module imports from others: local name -> "module.Name"."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            package = name if path.name == "__init__.py" else name.rpartition(".")[0]
            parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            base = ".".join(parts + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        for alias in node.names:
            names[alias.asname or alias.name] = f"{base}.{alias.name}"
    return names


@cache
def classes() -> dict[str, tuple[str, ...]]:
    """Every class of bot/ ("module.Class") -> its bases, as qualified names."""
    found: dict[str, tuple[str, ...]] = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        name = _module(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = _imported(name, path, tree)
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            bases = []
            for base in node.bases:
                head = base.value if isinstance(base, ast.Subscript) else base
                if isinstance(head, ast.Name):
                    bases.append(imported.get(head.id, f"{name}.{head.id}"))
            found[f"{name}.{node.name}"] = tuple(bases)
    return found


def ancestors(cls: str, known: dict[str, tuple[str, ...]]) -> set[str]:
    """The project classes `cls` stands on: its parents and theirs."""
    out: set[str] = set()
    for base in known.get(cls, ()):
        if base in known:
            out |= {base} | ancestors(base, known)
    return out


def test_ancestors_counts_parents_and_theirs() -> None:
    known = {"a.A": (), "a.B": ("a.A",), "a.C": ("a.B", "x.Outside"), "a.D": ("a.C",)}
    assert ancestors("a.D", known) == {"a.A", "a.B", "a.C"}
    assert ancestors("a.A", known) == set()


def test_the_service_and_the_tournaments_are_found() -> None:
    known = classes()
    assert known["bot.service.service.Service"] == ("bot.service.state.State",)
    assert "bot.tournament.rounds.Rounds" in ancestors("bot.tournament.commands.Tournaments",
                                                        known)


def test_the_stores_hold_their_parts() -> None:
    known = classes()
    for store in ("bot.storage.sqlite.Store", "bot.storage.postgres.PostgresStore"):
        assert ancestors(store, known) == {"bot.storage.doors.Doors"}


def test_no_class_stands_on_more_than_two_project_classes() -> None:
    known = classes()
    deep = {c: len(ancestors(c, known)) for c in known if len(ancestors(c, known)) > MOST}
    assert {c: n for c, n in deep.items() if n > KNOWN.get(c, MOST)} == {}
