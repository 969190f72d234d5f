"""Every game ends (issue 26): each variant of `variants.names()`, with random options (their
defaults, their smallest values, anything in between) and random legal moves, reaches its end
within a bound of moves.

A table of computer players plays until the match is over: a rule set that can loop (Rubicon's
`overshoot=new-round` once did: totals near the goal, nobody able to pay, every round ended by
the first heavy lead) would keep such a table playing for ever, its move log growing without
bound.  The puzzles end when solved or given up: their random player places tiles and never
takes one back (taking back is a player's choice, not a rule that could loop), and gives up
when no tile fits the first free cell, as the puzzles offer.
"""

from __future__ import annotations

import json
import os
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import variants
from core.solitaire.puzzles.rules import PuzzleGame

MAX_MOVES = 50_000
RANGE = re.compile(r"^(none or )?a whole number from (\d+) to (\d+)$")
PROPERTY = settings(max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "8")), deadline=None,
                    derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def option_values(opt: dict[str, Any]) -> st.SearchStrategy[Any]:
    """An option's default, its bounds' low end and a small value, or any of its words."""
    allowed, default = opt["allowed"], opt["default"]
    if allowed == "true or false":
        return st.booleans()
    m = RANGE.match(allowed)
    if m:
        lo, hi = int(m.group(2)), int(m.group(3))
        values: st.SearchStrategy[Any] = st.sampled_from(sorted({lo, min(hi, lo + 3)}))
        if default is not None:
            values = st.just(default) | values
        return st.none() | values if m.group(1) else values
    words = allowed.split(", ")
    return st.sampled_from([int(w) for w in words] if isinstance(default, int) else words)


def moves_of(game: Any) -> list[Any]:
    """The legal moves a random player chooses from (a puzzle's player never takes back)."""
    moves = game.legal_moves()
    if isinstance(game, PuzzleGame):
        kept = [m for m in moves if not str(m).startswith("remove")]
        return kept or moves
    return moves


@pytest.mark.parametrize("slug", variants.names())
@PROPERTY
@given(data=st.data())
def test_every_variant_and_option_ends(slug: str, data: st.DataObject) -> None:
    v = variants.get(slug)
    described = v.describe()
    lo, hi = described["players"]
    players = data.draw(st.integers(lo, hi), label="players")
    options: dict[str, Any] = {}
    for opt in described["options"]:
        options[opt["name"]] = data.draw(option_values(opt), label=opt["name"])
    options = {k: val for k, val in options.items() if val is not None}
    seed = data.draw(st.integers(0, 2**32), label="seed")
    try:
        game = v.new(players=players, seed=seed, **options)
    except ValueError:  # options that do not go together (said to the user when opening)
        return
    rng = random.Random(seed)
    for _ in range(MAX_MOVES):
        if game.over:
            break
        moves = moves_of(game)
        assert moves, f"no legal move while not over: {json.dumps(game.record())}"
        game.play(rng.choice(moves))
    assert game.over, f"no end after {MAX_MOVES} moves: {json.dumps(game.record())[:2000]}"
    assert game.result is not None and game.to_move is None
