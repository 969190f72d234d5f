"""Pictures of the puzzles: every kind draws from its public view, empty, broken and solved."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from core import variants
from core.solitaire.puzzles import catalogue
from render import board_png, position_png


@pytest.mark.parametrize("kind", catalogue.KINDS)
def test_each_kind_draws_empty_broken_and_solved(kind: str) -> None:
    puzzle = catalogue.ids(kind)[0]
    game = variants.get(kind).new(seed=1, puzzle=puzzle)
    empty = Image.open(io.BytesIO(board_png(game.view(None))))
    assert empty.width >= 420 and empty.height >= 200
    solution = game.puzzle.data["solution"]
    for m in solution[:3]:
        game.play(m)
    wrong = next((m for m in game.legal_moves() if m.kind == "place"
                  and (c := game.copy()).play(m) is None and c.broken()), None)
    if wrong is not None:
        game.play(wrong)
        assert game.view(None)["layout"]["broken_cells"]
        Image.open(io.BytesIO(board_png(game.view(None)))).verify()
        game.play(f"remove {min(wrong.cells, key=game.puzzle.order.__getitem__)}")
    for m in solution[3:]:
        game.play(m)
    assert game.over
    solved = Image.open(io.BytesIO(position_png(game.view(None))))
    assert solved.height > empty.height - 100
