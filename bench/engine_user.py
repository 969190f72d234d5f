"""Engine benchmark as a user of each engine plays (issue 41): `python bench/engine.py --as-user`.

The plain `bench/engine.py` prepares each engine's input (our deal dicts, OpenSpiel's chance
actions, `dominoes`' tile objects) outside the timed call.  Here a game starts from the seeded
deal itself, a list per seat of ``(high, low)`` pairs, and everything a user writes to play it
is timed, per deal:

* ours: the deal written as ``{"hands": [["6-4", ...], ...]}``, then
  ``variants.get(slug).new(players=, seed=, deal=, opening="any", ...)``, then
  ``legal_moves()`` and ``play()`` with uniformly random choices until the first round ends;
* OpenSpiel: ``new_initial_state()``, its 14 chance actions (the deal's tiles, looked up),
  then random legal actions until the state is terminal;
* `dominoes`: its ``Domino``, ``Hand`` and ``Game`` objects built on the same hands (the
  constructor `Game.new` calls, without its shuffle), then random valid moves until a result.

Each engine draws its choices from one ``random.Random(seed)`` a pass.  Passes are
interleaved across engines (one pass of each, then again); the ratio is of the best passes,
the medians' ratio in brackets.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from core import variants

Deal = list[list[tuple[int, int]]]
Runner = Callable[[], int]

TARGETS = {"OpenSpiel": 10.0, "dominoes": 3.0}  # issue 41


def ours(slug: str, deals: list[Deal], seed: int, **options: Any) -> Runner:
    def run() -> int:
        choice = random.Random(seed).choice
        moves = 0
        for i, deal in enumerate(deals):
            spec = {"hands": [[f"{a}-{b}" for a, b in hand] for hand in deal]}
            g = variants.get(slug).new(players=len(deal), seed=i, deal=spec, opening="any",
                                       **options)
            while not g.over and g.round_no == 1:
                g.play(choice(g.legal_moves()))
                moves += 1
        return moves

    return run


def openspiel(deals: list[Deal], seed: int) -> Runner | None:
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes
    except ImportError:
        return None
    game = pyspiel.load_game("python_block_dominoes")
    index = {(int(hi), int(lo)): i for i, (lo, hi) in enumerate(block_dominoes._DECK)}

    def run() -> int:
        choice = random.Random(seed).choice
        moves = 0
        for deal in deals:
            state = game.new_initial_state()
            for hand in deal:
                for tile in hand:
                    state.apply_action(index[tile])
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                moves += 1
        return moves

    return run


def pypi_dominoes(deals: list[Deal], seed: int) -> Runner | None:
    try:
        import dominoes
    except ImportError:
        return None
    Game, Board, Hand, Domino = dominoes.Game, dominoes.Board, dominoes.Hand, dominoes.Domino

    def run() -> int:
        choice = random.Random(seed).choice
        moves = 0
        for deal in deals:
            hands = [Hand([Domino(a, b) for a, b in hand]) for hand in deal]
            game = Game(Board(), hands, [], 0, tuple((d, True) for d in hands[0]), 0, None)
            while game.result is None:
                game.make_move(*choice(game.valid_moves))
                moves += 1
        return moves

    return run


def table(two: list[Deal], four: list[Deal], seed: int, repeats: int) -> None:
    """Time the two pairs side by side, interleaved, and print the table."""
    rows = [
        ("classic 2p block", "OpenSpiel", ours("classic", two, seed, draw="block"),
         openspiel(two, seed)),
        ("partnership 4p", "dominoes", ours("partnership", four, seed, hand=7),
         pypi_dominoes(four, seed)),
    ]
    runners: dict[str, Runner] = {}
    for engine, peer, mine, theirs in rows:
        runners[f"ours {engine}"] = mine
        if theirs is not None:
            runners[peer] = theirs
    times: dict[str, list[float]] = {name: [] for name in runners}
    moves: dict[str, int] = {}
    for _ in range(repeats):
        for name, run in runners.items():
            t0 = time.perf_counter()
            moves[name] = run()
            times[name].append(time.perf_counter() - t0)
    count = len(two)

    def rate(name: str) -> str:
        return (f"{count / min(times[name]):,.0f} "
                f"({count / statistics.median(times[name]):,.0f})")

    print("As a user plays each engine (issue 41: building the game from the deal counts)\n")
    print("| engine | peer | games/s ours | games/s peer | ratio best (median) | target |")
    print("|---|---|---:|---:|---:|---:|")
    for engine, peer, _, theirs in rows:
        mine = f"ours {engine}"
        target = TARGETS[peer]
        if theirs is None:
            print(f"| {engine} | {peer} (not installed) | {rate(mine)} | - | - | {target}x |")
            continue
        ratio = min(times[peer]) / min(times[mine])
        median = statistics.median(times[peer]) / statistics.median(times[mine])
        verdict = "met" if ratio >= target else "MISSED"  # the issue: ratio of the best runs
        print(f"| {engine} | {peer} | {rate(mine)} | {rate(peer)} | {ratio:.1f}x ({median:.1f}x) "
              f"| {target}x {verdict} |")
    print("\nmoves per game: " + ", ".join(
        f"{name} {n / count:.1f}" for name, n in moves.items()))
