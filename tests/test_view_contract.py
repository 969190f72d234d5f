"""The view contract, over every slug: ``legal`` is in the view of the seat to move only.

For each variant, at every player count it allows, seeded random games are played; at
every step the seat to move's view lists exactly the legal moves' texts, and every other
seat's view and the public view (``view(None)``) list none (an empty list or no key), so
that no page or chat offers a seat a move that is not its to make (issue 36, issue 37 #12).
The rule's home is `core.match.add_legal`.
"""

from __future__ import annotations

import random

import pytest

from core import variants

SEEDS = (1, 2, 3)
MAX_STEPS = 150  # a game stops here if not over: every family's turns come round well before


def _offered(view: dict) -> list[str]:
    return list(view.get("legal") or [])


@pytest.mark.parametrize("slug", variants.names())
def test_only_the_seat_to_move_is_offered_moves(slug: str) -> None:
    variant = variants.get(slug)
    checked = 0
    for players in range(variant.min_players, variant.max_players + 1):
        for seed in SEEDS:
            game = variant.new(players=players, seed=seed)
            chooser = random.Random(seed * 31 + players)
            waiting_seen = False
            for _ in range(MAX_STEPS):
                mover = game.to_move
                assert _offered(game.view(None)) == [], (slug, players, seed, game.turn)
                for seat in range(game.players):
                    view = game.view(seat)
                    if seat == mover:
                        want = [str(m) for m in game.legal_moves()]
                        assert view["legal"] == want, (slug, players, seed, game.turn, seat)
                    else:
                        waiting_seen = True
                        assert _offered(view) == [], (slug, players, seed, game.turn, seat)
                checked += 1
                if game.over:
                    break
                legal = game.legal_moves()
                game.play(game.parse_move(str(legal[chooser.randrange(len(legal))])))
            assert waiting_seen or game.players == 1, (slug, players, seed)
    assert checked > 0


def test_memory_waiting_seat_is_offered_nothing() -> None:
    """The defect the web page showed: memory gave every cell to the seat that waits."""
    game = variants.get("memory").new(players=2, seed=5)
    mover = game.to_move
    other = 1 - mover
    assert len(game.view(mover)["legal"]) == 28
    assert "legal" not in game.view(other) and "legal" not in game.view(None)
    # the rest of the view stays the same for every seat: nothing in memory is hidden
    assert {k: v for k, v in game.view(mover).items() if k not in ("legal", "seat")} == {
        k: v for k, v in game.view(other).items() if k not in ("legal", "seat")}
