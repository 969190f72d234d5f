"""The shipped puzzles (``shipped.json``): each kind's instances, their levels and solutions.

Each entry names its board by a builder of `shapes` and its arguments, and
stores one solution as placements (``"6-4 B1 C1"``); the tests play every
stored solution through the rules. `pick` chooses one by name, level, or at
random from a seed.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from ...errors import bad_option
from . import shapes
from .rules import Puzzle

DATA = Path(__file__).with_name("shipped.json")
KINDS = ("reussite", "quadrille", "magic-square", "magic-squares", "magic-triangle",
         "magic-star")
LEVELS = ("easy", "medium", "hard")
BUILDERS = {"quadrille": shapes.quadrille, "magic_square": shapes.magic_square,
            "hollow_squares": shapes.hollow_squares, "star": shapes.star,
            "triangle": shapes.triangle, "ring": shapes.ring}


@cache
def entries() -> tuple[dict[str, Any], ...]:
    """The raw entries of shipped.json."""
    return tuple(json.loads(DATA.read_text(encoding="utf-8")))


def build(entry: dict[str, Any]) -> Puzzle:
    """The puzzle an entry describes."""
    builder, args = entry["shape"]
    board = BUILDERS[builder](**args)
    data = {**board, **{k: entry[k] for k in ("id", "kind", "level", "name")},
            "solution": list(entry["solution"])}
    return Puzzle(data)


@cache
def puzzles(kind: str) -> tuple[Puzzle, ...]:
    """Every shipped puzzle of `kind`, in the file's order."""
    return tuple(build(e) for e in entries() if e["kind"] == kind)


def ids(kind: str) -> tuple[str, ...]:
    return tuple(e["id"] for e in entries() if e["kind"] == kind)


def pick(kind: str, name: str, level: str, seed: int) -> Puzzle:
    """The puzzle called `name` ("any": any), else one of `level` ("any": any) chosen by the
    seed."""
    found = puzzles(kind)
    if name != "any":
        for p in found:
            if p.id == name:
                return p
        raise bad_option("{variant} has no puzzle {name!r}; its puzzles are: {names}",
                         variant=kind, name=name[:20], names=", ".join(ids(kind)))
    if level != "any":
        found = tuple(p for p in found if p.level == level)
        if not found:
            raise bad_option("{variant} has no puzzle of level {level}", variant=kind,
                             level=level)
    return found[random.Random(seed).randrange(len(found))]
