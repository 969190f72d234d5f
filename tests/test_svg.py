"""The web board's SVG (`render.svg`): every layout kind of every golden playthrough paints as
well-formed SVG, every placed tile is labelled, and every legal move's target is there to
touch, drawn from the same geometry as the PNGs."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from core import variants
from render.board import board_geometry
from render.svg import board_svg, move_parts, tile_svg

GOLDEN = Path(__file__).resolve().parent / "golden"
NS = "{http://www.w3.org/2000/svg}"


@cache
def steps(slug: str) -> list[dict[str, Any]]:
    lines = (GOLDEN / f"{slug}.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    return [json.loads(line) for line in lines]


def sample(slug: str, every: int = 7) -> list[dict[str, Any]]:
    """Some steps of the slug's playthrough, the last one always."""
    all_steps = steps(slug)
    return all_steps[::every] + all_steps[-1:]


def attrs(svg: str, name: str) -> list[str]:
    root = ET.fromstring(svg)
    return [el.get(name) for el in root.iter() if el.get(name) is not None]


@pytest.mark.parametrize("slug", variants.names())
def test_every_view_paints_with_its_targets(slug: str) -> None:
    for step in sample(slug):
        for who, view in step["views"].items():
            svg = board_svg(view, names=["Ann", "Bob", "Cyd", "Dee"])
            root = ET.fromstring(svg)
            assert root.tag == f"{NS}svg"
            targets = set(attrs(svg, "data-target"))
            if who == "public":
                assert not targets, (slug, step["step"])
                continue
            for move in view.get("legal") or []:
                _, key = move_parts(view, move)
                for part in (key or "").split():
                    assert part in targets, (slug, step["step"], move)


@pytest.mark.parametrize("slug", ["classic", "cross", "sebastopol", "matador"])
def test_line_and_cross_tiles_come_from_the_png_geometry(slug: str) -> None:
    """One layout, two painters: the SVG holds one labelled tile per tile the PNG's geometry
    places, with the same faces."""
    for step in sample(slug, 3):
        view = step["views"]["public"]
        svg = board_svg(view)
        placed = sorted(tuple(sorted(pt.faces)) for pt in board_geometry(view).tiles)
        drawn = attrs(svg, "data-tile")
        assert sorted(tuple(sorted(map(int, x.split("-")))) for x in drawn) == placed
        assert drawn == attrs(svg, "aria-label")[1:1 + len(placed)]


def test_a_tile_has_its_pips_and_a_back_has_none() -> None:
    root = ET.fromstring(tile_svg(6, 4))
    assert len(root.findall(f".//{NS}circle")) == 10
    assert root.get("aria-label") == "6-4"
    back = ET.fromstring(tile_svg(6, 4, face_down=True))
    assert not back.findall(f".//{NS}circle")
    assert "6-4" not in tile_svg(6, 4, face_down=True)


def test_move_parts_reads_each_family() -> None:
    line = {"layout": {"kind": "line"}, "hand": ["6-4"]}
    assert move_parts(line, "6-4 left") == ("6-4", "left")
    assert move_parts(line, "6-4") == ("6-4", None)
    assert move_parts(line, "give 6-4") == ("6-4", None)
    assert move_parts(line, "draw") == (None, None)
    stack = {"layout": {"kind": "stack"}, "hand": ["3-0"]}
    assert move_parts(stack, "3-0 on 1w west") == ("3-0", "1w")
    assert move_parts(stack, "3-0 under 12 east") == ("3-0", "12")
    grid = {"layout": {"kind": "grid"}, "hand": ["4-3", "6-6"]}
    assert move_parts(grid, "3-4 6-6 I15 right") == ("4-3", "I15")
    puzzle = {"layout": {"kind": "puzzle"}, "hand": ["6-5"]}
    assert move_parts(puzzle, "6-5 B1 A1") == ("6-5", "B1 A1")
    assert move_parts(puzzle, "remove A1") == (None, "remove-A1")
    assert move_parts(puzzle, "give up") == (None, None)
    assert move_parts({"layout": {"kind": "memory"}}, "C4") == (None, "C4")
    assert move_parts({"layout": {"kind": "patience"}}, "6-5 1-0") == (None, "6-5 1-0")
    assert move_parts({"layout": {"kind": "tricks"}, "hand": ["6-6"]}, "6-6") == ("6-6", None)
    assert move_parts({"layout": {"kind": "tricks"}}, "bid 30") == (None, None)


def test_names_and_words_are_escaped() -> None:
    view = steps("forty-two")[3]["views"]["public"]
    svg = board_svg(view, names=["<b>&", "Bob", "Cyd", "Dee"])
    assert "<b>" not in svg
    ET.fromstring(svg)
