"""Bad move text never escapes as anything but `DominoError` (the issue 11 cases)."""

from __future__ import annotations

import pytest

from core import DominoError, variants


@pytest.mark.parametrize(("slug", "players"), [("all-fives", 2), ("sebastopol", 3),
                                                ("cross", 4), ("classic", 2)])
@pytest.mark.parametrize("text", ["give 6-4", "donne 6-4", "give 0-0"])
def test_give_is_refused_where_there_is_nothing_to_give(slug: str, players: int,
                                                         text: str) -> None:
    game = variants.get(slug).new(players=players, seed=1)
    before = game.view(None)
    with pytest.raises(DominoError):
        game.play(game.parse_move(text))
    assert game.view(None) == before
