"""Shared helpers of the cross-checks against reference engines: seeded deals, our
matches on them, our legal moves as engine-neutral (low, high, covered end) keys."""

from __future__ import annotations

import random
from typing import Any

from core import Move, variants
from core.line.match import LineMatch
from core.moves import LEAD, LEFT
from core.tiles import id_halves, iter_ids

# A tile as (high, low); a hand as a list of tiles; a deal as one hand per seat.
Pair = tuple[int, int]
Deal = list[list[Pair]]
# A move in any engine: (low half, high half, value of the end it covers or None for the lead).
MoveKey = tuple[int, int, int | None]

DOUBLE_SIX: list[Pair] = [(hi, lo) for hi in range(7) for lo in range(hi + 1)]


def random_deals(seed: int, count: int, players: int, hand: int) -> list[Deal]:
    """`count` deals of `hand` tiles to each of `players` seats from a shuffled
    double-six set (the rest of the set is left out), reproducible from `seed`."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        tiles = DOUBLE_SIX[:]
        rng.shuffle(tiles)
        deals.append([tiles[i * hand : (i + 1) * hand] for i in range(players)])
    return deals


def deal_option(deal: Deal) -> dict[str, Any]:
    """The `deal=` argument of `Variant.new` for these hands (no stock)."""
    return {"hands": [[f"{hi}-{lo}" for hi, lo in hand] for hand in deal], "stock": []}


def new_match(slug: str, deal: Deal, seed: int = 0, **options: Any) -> LineMatch:
    """Our match on a fixed deal."""
    game = variants.get(slug).new(players=len(deal), seed=seed, deal=deal_option(deal), **options)
    assert isinstance(game, LineMatch)
    return game


def our_key(game: LineMatch, move: Move) -> MoveKey:
    """The engine-neutral key of one of our legal moves in the current position."""
    assert move.tile is not None
    high, low = move.tile
    if move.end == LEAD:
        return (low, high, None)
    return (low, high, game.left if move.end == LEFT else game.right)


def our_legal(game: LineMatch) -> dict[MoveKey, Move]:
    """Our legal moves by key; a key listed twice would be a duplicate move."""
    moves = game.legal_moves()
    keyed = {our_key(game, m): m for m in moves}
    assert len(keyed) == len(moves), f"duplicate legal moves: {[str(m) for m in moves]}"
    return keyed


def round_hands(summary: dict[str, Any]) -> list[list[str]]:
    """The hands left at the end of a finished round (a `round_results` entry), sorted."""
    return [sorted(f"{hi}-{lo}" for hi, lo in map(id_halves, iter_ids(mask)))
            for mask in summary["hands"]]


def describe(deal: Deal, moves: list[str]) -> str:
    """A failing case, written so it can be replayed by hand."""
    hands = "; ".join(f"seat {i}: {' '.join(f'{a}-{b}' for a, b in h)}" for i, h in enumerate(deal))
    return f"deal [{hands}] moves [{', '.join(moves) or '-'}]"
