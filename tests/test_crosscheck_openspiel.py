"""Cross-check of the 2-player block game (`classic`, draw=block, opening=any)
against OpenSpiel's `python_block_dominoes`, move by move on random deals.

Set-up: seat 0 gets 7 tiles, seat 1 gets 7, the other 14 tiles sleep; OpenSpiel
deals through chance nodes (an action is an index into its `_DECK`; the first 7
go to player 0, the next 7 to player 1), so we feed it the same tiles.  Seat 0
leads any tile in both engines; a seat that cannot play is skipped in both.
At every step: same seat to move, same legal moves as (low, high, covered end)
keys, same open ends; the same random move is then played in both.

Scoring conversion (our match is one round: no `target`, scoring=pips):

* OpenSpiel ``returns()``: the player with fewer pips in hand gets
  ``+(opponent's pips)``, the other ``-(same)``; equal pips give ``[0, 0]``.
* ours: ``result["winners"]`` is ``[w]``, and ``result["scores"][w]`` is the
  loser's pips (``round_results[0]["counts"][1 - w]``); the loser scores 0.
  A blocked round with equal pips is a tie: winners ``[0, 1]``, scores ``[0, 0]``.
* so ``returns[w] == scores[w] == counts[1 - w]`` and ``returns[1 - w] == -returns[w]``,
  and ``result["reason"]`` is ``"out"`` exactly when a hand is empty.
* one difference of wording, not of points: a seat that goes out while the
  opponent holds only 0-0 wins for us (winners ``[w]``, 0 points); OpenSpiel,
  comparing pips (0 against 0), returns ``[0, 0]`` like a tie.  The winner
  is then the seat with the empty hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.line.match import LineMatch
from tests.crosscheck_helpers import (
    Deal,
    MoveKey,
    describe,
    new_match,
    our_key,
    our_legal,
    random_deals,
    round_hands,
)

pyspiel = pytest.importorskip("pyspiel")
block_dominoes = pytest.importorskip("open_spiel.python.games.block_dominoes")

DEALS = 5000
SEED = 20240601

# OpenSpiel action index by (player, low, high, covered edge or None).
ACTION_INDEX: dict[tuple[int, int, int, int | None], int] = {
    (a.player, int(a.tile[0]), int(a.tile[1]), None if a.edge is None else int(a.edge)): i
    for i, a in enumerate(block_dominoes._ACTIONS)
}
# Chance outcome (an index into _DECK, whose tiles are (low, high)) by our (high, low) tile.
DECK_INDEX: dict[tuple[int, int], int] = {
    (int(hi), int(lo)): i for i, (lo, hi) in enumerate(block_dominoes._DECK)
}


def spiel_state(game: Any, deal: Deal) -> Any:
    """OpenSpiel's state after dealing seat 0's hand, then seat 1's."""
    state = game.new_initial_state()
    for hand in deal:
        for tile in hand:
            state.apply_action(DECK_INDEX[tile])
    assert not state.is_chance_node()
    return state


def spiel_key(action: int) -> MoveKey:
    a = block_dominoes._ACTIONS[action]
    return (int(a.tile[0]), int(a.tile[1]), None if a.edge is None else int(a.edge))


def spiel_hands(state: Any) -> list[list[str]]:
    """OpenSpiel's hands written like ours ("6-4"), sorted."""
    return [sorted(f"{int(b)}-{int(a)}" for a, b in hand) for hand in state.hands]


def play_one(spiel_game: Any, deal: Deal, rng: random.Random) -> str:
    """Play one deal in both engines with the same random moves, checking every
    step; return how it ended (a key of the test's `outcomes`)."""
    g = new_match("classic", deal, draw="block", opening="any")
    state = spiel_state(spiel_game, deal)
    played: list[str] = []

    def where() -> str:
        return describe(deal, played)

    assert spiel_hands(state) == [sorted(g.view(s)["hand"]) for s in (0, 1)], where()
    while True:
        assert g.over == state.is_terminal(), where()
        if g.over:
            return check_outcome(g, state, where())
        seat = g.to_move
        assert seat == state.current_player(), where()
        theirs = {spiel_key(a) for a in state.legal_actions()}
        assert set(our_legal(g)) == theirs, where()
        move = rng.choice(g.legal_moves())
        key = our_key(g, move)
        played.append(str(move))
        g.play(move)
        state.apply_action(ACTION_INDEX[(seat, *key)])
        assert sorted([g.left, g.right]) == [int(e) for e in state.open_edges], where()


def check_outcome(g: LineMatch, state: Any, where: str) -> str:
    """Same end, same winner, same scores (see the module docstring); the kind of end."""
    result = g.result
    assert result is not None
    assert result["rounds"] == 1, where
    hands = spiel_hands(state)
    assert round_hands(g.round_results[0]) == hands, where
    counts = g.round_results[0]["counts"]
    assert counts == [int(sum(a + b for a, b in h)) for h in state.hands], where
    returns = [int(r) for r in state.returns()]
    out = [s for s in (0, 1) if not hands[s]]
    assert result["reason"] == ("out" if out else "blocked"), where
    if out:
        w = out[0]
        kind = "out" if counts[1 - w] else "out against 0-0"
    elif returns == [0, 0]:
        assert counts[0] == counts[1], where
        assert result["winners"] == [0, 1], where
        assert result["scores"] == [0, 0], where
        return "blocked tie"
    else:
        w = 0 if returns[0] > 0 else 1
        kind = "blocked"
    assert result["winners"] == [w], where
    assert returns[w] == result["scores"][w] == counts[1 - w], where
    assert returns[1 - w] == -returns[w], where
    assert result["scores"][1 - w] == 0, where
    return kind


def test_block_game_matches_openspiel_move_by_move() -> None:
    spiel_game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(SEED)
    outcomes = dict.fromkeys(("out", "out against 0-0", "blocked", "blocked tie"), 0)
    for deal in random_deals(SEED, DEALS, players=2, hand=7):
        outcomes[play_one(spiel_game, deal, rng)] += 1
    # Every kind of end was met, so each branch of the conversion was checked.
    assert min(outcomes.values()) > 0, outcomes
