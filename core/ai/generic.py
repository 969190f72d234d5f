"""The generic computer players: they play any variant through the public interface alone.

* `RandomPlayer` picks a legal move at random.
* `GreedyPlayer` (the `normal` level) looks one ply ahead in a line game: the
  points a tile makes, the ends it leaves to the next seat when that seat is an
  opponent (fewer of the tiles it may still hold, none at best), its own tiles
  that still fit (`_LineLook`, from the seat's view and the public `notin`);
  then it lays its heaviest tile, keeping variety (the most distinct values
  left in hand, doubles first since they are the hardest to place later) and
  the end that leaves an open value it still holds.  Moves that are not tiles
  (draw, pass, bids...) are taken only when nothing else is legal: a draw when
  it is offered, else at random.

Both always take points that are theirs to claim ("claim", "muggins").
Both are seeded, so a table of computer seats replays the same way.
"""


from __future__ import annotations

import random
from typing import Any, Protocol

from ..moves import CLAIM, DRAW, LEFT, MUGGINS, Move
from ..tiles import Tile

WIN_BONUS = 10.0  # a round won is worth this many points of margin


class Game(Protocol):
    to_move: int | None

    def legal_moves(self) -> list[Move]: ...
    def view(self, seat: int | None = None) -> dict[str, Any]: ...


class Player(Protocol):
    name: str

    def choose(self, game: Game) -> Move: ...


def legal_moves_of(game: Any) -> list[Move]:
    """The moves of the seat to move, for a player to choose from: none is an error (a
    finished game asks no one to move)."""
    moves: list[Move] = game.legal_moves()
    if not moves:
        raise ValueError("no legal move: the game is over")
    return moves


class RandomPlayer:
    """Any legal move, uniformly."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        moves = legal_moves_of(game)
        return claim_of(moves) or self.rng.choice(moves)


class GreedyPlayer:
    """One ply: the points a tile makes, then the ends it leaves, then weight and variety."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        moves = legal_moves_of(game)
        claim = claim_of(moves)
        if claim is not None:
            return claim
        tiles = [m for m in moves if m.tile is not None]
        if not tiles:
            draw = next((m for m in moves if m.kind == DRAW), None)
            return draw or self.rng.choice(moves)
        if len(tiles) == 1:
            return tiles[0]
        seat = game.to_move
        view = game.view(seat)
        hand = [Tile.parse(t) for t in view.get("hand", [])]
        ends = view.get("ends") or []
        line = _LineLook.of(game, view, seat, self.rng)
        best: tuple[Any, ...] | None = None
        choice = tiles[0]
        for m in tiles:
            key = ((line.value(m, hand) if line else 0.0), *self._score(m, hand, ends),
                   self.rng.random())
            if best is None or key > best:
                best, choice = key, m
        return choice

    @staticmethod
    def _score(move: Move, hand: list[Tile], ends: list[int]) -> tuple[int, ...]:
        tile = move.tile
        assert tile is not None
        rest = [t for t in hand if t != tile]
        values = {v for t in rest for v in t}
        open_value = -1
        if len(ends) == 2 and move.end in (0, 1):
            covered = ends[0] if move.end == LEFT else ends[1]
            open_value = tile[1] if tile[0] == covered else tile[0]
        keeps_option = sum(1 for t in rest if open_value in t)
        return (tile.pips, len(values), int(tile.is_double), keeps_option)


class _LineLook:
    """What a line game (two ends, or more round a spinner) shows one ply ahead, from the
    seat's view and the public record only: the points a tile makes (played in one
    imagined deal of the unseen tiles, `determinized`), whether the next seat, an
    opponent, may follow on the ends it leaves (the tiles it may hold: unseen, and not
    among those it showed it lacks, `notin`), and how many of the seat's own tiles still
    fit."""

    BLOCK = 3.0  # the next seat, an opponent, may hold nothing that fits
    EACH = 0.25  # less, for each tile that it may hold and that fits
    KEEP = 0.5  # more, for each of the seat's own tiles that still fits (up to 3)

    def __init__(self, game: Any, world: Any, seat: int, unseen: int) -> None:
        self.game, self.world, self.seat, self.unseen = game, world, seat, unseen
        n = game.n
        nxt = (seat + 1) % n
        teams = game.rules.teams
        self.foe = nxt if not teams or game.team_of[nxt] != game.team_of[seat] else -1
        self.foe_may = unseen & ~game.notin[self.foe] if self.foe >= 0 else 0

    @classmethod
    def of(cls, game: Any, view: dict[str, Any], seat: int, rng: random.Random
           ) -> _LineLook | None:
        if not hasattr(game, "determinized") or not view.get("ends"):
            return None
        ts = game.ts
        seen = 0
        for text in (*view.get("hand", []), *view.get("board", [])):
            seen |= 1 << ts.parse(text)
        unseen = ts.all_mask & ~seen
        return cls(game, game.determinized(seat, rng), seat, unseen)

    def value(self, move: Move, hand: list[Tile]) -> float:
        game, seat = self.game, self.seat
        g = self.world.copy()
        unit = game.scorer_of(seat)
        g.play(move)
        while g.to_move == seat and not g.over:
            claim = claim_of(g.legal_moves())
            if claim is None:
                break
            g.play(claim)
        value = round_value(g, unit, list(game.totals))
        if g.round_no != game.round_no or g.over:
            return 4.0 * value
        vmask = game.vmask
        ends_mask = 0
        for v in g.view(None)["ends"]:
            ends_mask |= vmask[v]
        mine = g.hands[seat] & ends_mask  # (the seat's own hand: its own tiles)
        foe = (self.foe_may & ends_mask).bit_count() if self.foe >= 0 else 1
        return (4.0 * value + (self.BLOCK if self.foe >= 0 and not foe else -self.EACH * foe)
                + self.KEEP * min(mine.bit_count(), 3))


def claim_of(moves: list[Move]) -> Move | None:
    """The move that takes points on offer ("claim", "muggins"), if listed."""
    for m in moves:
        if m.kind in (CLAIM, MUGGINS):
            return m
    return None


def round_value(g: Any, unit: int, before: list[int]) -> float:
    """What the finished round (or the round so far) is worth to the side `unit`: its points
    gained minus the best other side's, with the sign of the match (points count down, or
    reaching the target loses), plus `WIN_BONUS` when it won the round."""
    mrules = g.mrules
    sign = -1 if mrules.countdown else 1
    if mrules.reach == "loses":
        sign = -sign
    gains = [sign * (a - b) for a, b in zip(g.totals, before, strict=True)]
    mine = gains[unit]
    others = max((x for i, x in enumerate(gains) if i != unit), default=0)
    value = float(mine - others)
    if g.round_results:
        winners = g.round_results[-1]["winners"]
        if any(g.scorer_of(s) == unit for s in winners):
            value += WIN_BONUS / max(1, len(winners))
    return value
