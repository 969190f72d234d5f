"""Property tests of the puzzles: random placements and removals never corrupt a board.

Each example draws a puzzle kind's shipped puzzle, a seed and a list of choices, then plays
moves from `legal_moves()` mixed with arbitrary placements (any tile, any two cells, which
may be refused) and garbage text, checking at every step that cells hold at most one tile,
tiles are placed at most once, refused moves change nothing, copies are independent, and
at the end that `replay(record())` rebuilds the same views.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import DominoError, IllegalMove, replay, variants
from core.solitaire.puzzles import catalogue
from core.solitaire.puzzles.rules import ALL_TILES, PuzzleGame

PROPERTY = settings(max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "10")), deadline=None,
                    derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
GARBAGE = ("", "zz", "6-4", "6-4 A1", "remove", "remove Q99", "hint 0", "9-9 A1 A2", None, 42,
           "x" * 500)


def snapshot(game: PuzzleGame) -> str:
    return json.dumps({"record": game.record(), "views": [game.view(None), game.view(0)]},
                      sort_keys=True)


def check_board(game: PuzzleGame) -> None:
    p = game.puzzle
    covered: dict[str, int] = {}
    for tid, m in game.placed.items():
        assert m.tile is not None and m.tile.id == tid
        assert frozenset(m.cells) in p.slots
        for c, v in zip(m.cells, m.values, strict=True):
            assert c not in covered, f"{c} holds two tiles"
            covered[c] = tid
            assert game.value[c] == v and game.tile_at[c] == tid
            assert p.givens.get(c, v) == v
    assert set(covered) == set(game.value) == set(game.tile_at)
    assert len(game.placed) <= p.pool
    assert len(game.to_place()) in (0, 28 - len(game.placed))


@pytest.mark.parametrize("kind", catalogue.KINDS)
@PROPERTY
@given(data=st.data())
def test_random_moves_never_corrupt_and_replay(kind: str, data: st.DataObject) -> None:
    ids = catalogue.ids(kind)
    puzzle = data.draw(st.sampled_from(ids), label="puzzle")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    game = variants.get(kind).new(seed=seed, puzzle=puzzle)
    assert isinstance(game, PuzzleGame)
    cells = game.puzzle.cells
    for _ in range(data.draw(st.integers(5, 60), label="steps")):
        if game.over:
            break
        roll = data.draw(st.integers(0, 9))
        if roll < 6:
            legal = game.legal_moves()
            if not legal:
                continue
            game.play(legal[data.draw(st.integers(0, len(legal) - 1))])
        else:
            if roll < 9:
                t = ALL_TILES[data.draw(st.integers(0, 27))]
                c1 = cells[data.draw(st.integers(0, len(cells) - 1))]
                c2 = cells[data.draw(st.integers(0, len(cells) - 1))]
                text: object = f"{t} {c1} {c2}"
            else:
                text = GARBAGE[data.draw(st.integers(0, len(GARBAGE) - 1))]
            before = snapshot(game)
            twin = game.copy()
            try:
                game.play(text)  # type: ignore[arg-type]
            except IllegalMove:
                assert snapshot(game) == before
            except DominoError as exc:  # pragma: no cover - must not happen
                raise AssertionError(f"{text!r} raised {exc!r}") from exc
            else:
                assert snapshot(twin) == before  # the copy did not move with it
        check_board(game)
    again = replay(json.loads(json.dumps(game.record())))
    assert snapshot(again) == snapshot(game)
