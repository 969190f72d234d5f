"""Tiles, sets and move notation."""

from __future__ import annotations

import pytest

from core import IllegalMove, Tile
from core.moves import LEFT, PLAY, RIGHT, move_for, parse_notation
from core.tiles import id_halves, tile_id, tile_set, twenty_set


def test_tile_is_an_immutable_value_written_high_first() -> None:
    assert Tile(4, 6) == Tile(6, 4) == Tile.parse("4-6") == Tile.parse("[6|4]")
    assert str(Tile(4, 6)) == "6-4" and Tile(6, 4).pips == 10
    assert Tile(3, 3).is_double and not Tile(3, 2).is_double
    assert len({Tile(1, 2), Tile(2, 1)}) == 1
    with pytest.raises(ValueError, match="not a tile"):
        Tile.parse("6-")


@pytest.mark.parametrize(("top", "size"), [(6, 28), (9, 55), (12, 91)])
def test_double_n_sets(top: int, size: int) -> None:
    ts = tile_set(top)
    assert ts.size == size
    assert len(ts.doubles) == top + 1
    assert all(ts.value_mask[v].bit_count() == top + 1 for v in range(top + 1))
    assert sum(ts.pips[t] for t in ts.ids) == top * (top + 1) * (top + 2) // 2


def test_twenty_set_is_double_nine_without_the_double_blank() -> None:
    ts = twenty_set()
    assert ts.size == 54
    assert "0-0" not in [ts.names[t] for t in ts.ids]
    with pytest.raises(ValueError, match="not a tile of"):
        ts.parse("0-0")


def test_ids_do_not_depend_on_the_set() -> None:
    for hi in range(13):
        for lo in range(hi + 1):
            assert id_halves(tile_id(hi, lo)) == (hi, lo)
    assert tile_set(6).names[Tile(6, 4).id] == tile_set(9).names[Tile(6, 4).id] == "6-4"


def test_move_notation_round_trips_and_refuses_nonsense() -> None:
    for text, expected in [("6-4 left", (PLAY, Tile(6, 4).id, LEFT)),
                           ("4-6 R", (PLAY, Tile(6, 4).id, RIGHT)),
                           ("6:4 droite", (PLAY, Tile(6, 4).id, RIGHT)),
                           ("6-4", (PLAY, Tile(6, 4).id, None)),
                           ("Pioche", (2, -1, None)), ("pass", (1, -1, None))]:
        assert parse_notation(text) == expected
    assert str(move_for(PLAY, Tile(6, 4).id, LEFT)) == "6-4 left"
    for bad in ["", "left", "6-4 up", "six-four", "x" * 61]:
        with pytest.raises(IllegalMove):
            parse_notation(bad)
