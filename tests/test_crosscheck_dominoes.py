"""Cross-check of the first round of `partnership` (hand=7, all 28 tiles dealt,
opening=any) against the PyPI `dominoes` package (6.1.0), move by move on random deals.

Set-up: the same four hands in both engines; seat 0 opens with any tile (as
``dominoes.Game.new(starting_player=0)``); seats 0+2 play against 1+3 and a seat
that cannot play is passed over in both.  The `dominoes` game is built with
its constructor from our hands, each tile as ``Domino(high, low)``, so its
board ends read exactly like our ``(g.left, g.right)``.  At every step: same
seat to move (``g.to_move == game.turn``), same legal moves as (low, high,
covered end) keys, same ends; the same random move is then played in both.
Our match goes on to a target, so the round is over when
``g.over or g.round_no > 1`` and its outcome is ``g.round_results[0]``.

Scoring conversion (``counts`` = our per-seat pips left, ``team`` = per-team sums):

* `dominoes` ``Result(player, won, points)``: ``won`` is True when ``player``
  went out, and then ``|points|`` is the pips left in the 3 other hands
  (the partner's included); stuck: the team with fewer pips wins and
  ``|points|`` is both teams' pips; a stuck tie scores 0.  The sign says who
  won: positive for 0+2, negative for 1+3.  Unless tied, ``|points| == sum(counts)``.
* ours, scoring=pips: ``winners`` are the seats of the winning team (all four
  on a tie) and the winning team scores the opponents' pips only:
  ``points[w] == team[1 - w]``, ``points[1 - w] == 0``; a tie scores ``[0, 0]``.
  So ``|points_theirs| == points[w] + team[w]`` (out: the partner's pips; stuck:
  the winners' own pips).
* ours, scoring=difference (replayed on our engine with the same moves): a
  round won by going out scores as with pips; a blocked one scores
  ``team[1 - w] - team[w]``, i.e. ``|points_theirs| - 2 * team[w]``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from core import Move
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

dominoes = pytest.importorskip("dominoes")

DEALS = 5000
SEED = 20240602
TEAMS = ((0, 2), (1, 3))
OPTIONS: dict[str, Any] = {"hand": 7, "opening": "any"}


def their_game(deal: Deal) -> Any:
    """A `dominoes.Game` on these hands, seat 0 to open with any tile."""
    hands = [dominoes.Hand([dominoes.Domino(hi, lo) for hi, lo in hand]) for hand in deal]
    valid = tuple((d, True) for d in hands[0])
    return dominoes.Game(dominoes.Board(), hands, [], 0, valid, 0, None)


def their_legal(game: Any) -> dict[MoveKey, tuple[Any, bool]]:
    """Their valid moves by key (covered value: the end the tile is laid on)."""
    board = game.board
    out: dict[MoveKey, tuple[Any, bool]] = {}
    for d, left in game.valid_moves:
        covered = (board.left_end() if left else board.right_end()) if len(board) else None
        key = (min(d.first, d.second), max(d.first, d.second), covered)
        assert key not in out, f"duplicate valid move {d} {left}"
        out[key] = (d, left)
    return out


def round_over(g: LineMatch) -> bool:
    return g.over or g.round_no > 1


def play_one(deal: Deal, rng: random.Random) -> str:
    """Play the first round of one deal in both engines with the same random
    moves, checking every step; return how it ended (out, blocked or tie)."""
    g = new_match("partnership", deal, **OPTIONS)
    game = their_game(deal)
    played: list[Move] = []

    def where() -> str:
        return describe(deal, [str(m) for m in played])

    while True:
        assert round_over(g) == (game.result is not None), where()
        if round_over(g):
            return check_outcome(g, game, deal, played, where())
        assert g.to_move == game.turn, where()
        theirs = their_legal(game)
        assert set(our_legal(g)) == set(theirs), where()
        move = rng.choice(g.legal_moves())
        key = our_key(g, move)
        played.append(move)
        g.play(move)
        game.make_move(*theirs[key])
        if not round_over(g):
            assert (g.left, g.right) == (game.board.left_end(), game.board.right_end()), where()


def check_outcome(g: LineMatch, game: Any, deal: Deal, played: list[Move], where: str) -> str:
    """Same end, same winning team, points related as the module docstring says."""
    res = game.result
    summary = g.round_results[0]
    counts = summary["counts"]
    assert counts == [sum(d.first + d.second for d in hand) for hand in game.hands], where
    assert round_hands(summary) == [
        sorted(f"{max(d)}-{min(d)}" for d in hand) for hand in game.hands
    ], where
    team = [counts[a] + counts[b] for a, b in TEAMS]
    points = summary["points"]
    assert summary["totals"] == points, where
    assert res.won == (summary["reason"] == "out"), where
    if res.points == 0:
        assert not res.won, where
        assert team[0] == team[1], where
        assert summary["winners"] == [0, 1, 2, 3], where
        assert points == [0, 0], where
        kind = "tie"
    else:
        w = 0 if res.points > 0 else 1
        assert abs(res.points) == sum(counts), where
        assert summary["winners"] == list(TEAMS[w]), where
        assert points[w] == team[1 - w], where
        assert points[1 - w] == 0, where
        assert abs(res.points) == points[w] + team[w], where
        if res.won:
            assert res.player in TEAMS[w], where
            assert counts[res.player] == 0, where
            kind = "out"
        else:
            assert team[w] < team[1 - w], where
            kind = "blocked"
    check_difference(deal, played, summary, where)
    return kind


def check_difference(deal: Deal, played: list[Move], pips_summary: dict[str, Any],
                     where: str) -> None:
    """Replay the round with scoring=difference: same end, points as documented."""
    g = new_match("partnership", deal, scoring="difference", **OPTIONS)
    for move in played:
        g.play(move)
    assert round_over(g), where
    summary = g.round_results[0]
    for k in ("reason", "winners", "counts"):
        assert summary[k] == pips_summary[k], where
    counts = summary["counts"]
    team = [counts[a] + counts[b] for a, b in TEAMS]
    winners = summary["winners"]
    if len(winners) == 4:
        assert summary["points"] == [0, 0], where
        return
    w = 0 if winners[0] == 0 else 1
    expected = team[1 - w] - team[w] if summary["reason"] == "blocked" else team[1 - w]
    assert summary["points"][w] == expected, where
    assert summary["points"][1 - w] == 0, where


def test_partnership_first_round_matches_dominoes_move_by_move() -> None:
    rng = random.Random(SEED)
    outcomes = dict.fromkeys(("out", "blocked", "tie"), 0)
    for deal in random_deals(SEED, DEALS, players=4, hand=7):
        outcomes[play_one(deal, rng)] += 1
    # Every kind of end was met, so each branch of the conversion was checked.
    assert min(outcomes.values()) > 0, outcomes
