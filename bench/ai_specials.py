"""Texas 42's specials called by `expert`, against hindsight: calls made, set and missed.

    python bench/ai_specials.py --hands 1000 --jobs 2 --out F   # each hand appended to F
    python bench/ai_specials.py --summary F...                  # the table, per 1,000 hands

Each hand is the first round of a texas-42 match with every special on (`preset=specials
nello_doubles=any lay_down=true`, as `bench/ai_tricks.py --specials`), `expert` on all four
seats, dealt from `--seed` and the hand's index.  The experts bid, name trumps and play
the hand out; the bench records the contract they reached and how it went.

Then a searcher that sees the whole deal (`makes`: every hand seen, every seat playing its
best) says, for each seat and each special it could have called at its turn in the
bidding (a plunge with four doubles, a splash with three, nello and sevens with a bid of
a mark or more), whether the call would have been made; the partner of a plunger or
splasher names the trumps best for the call, the nello bidder the best of the nellos the
table offers.  Every special contract needs every trick (nello: no trick to the bidder),
so the search stops at the first trick lost and each deal is solved exactly.

* A *call* is a hand whose contract is a special the expert bid: made or set, and whether
  the searcher says it could be made at all.
* A *miss* is a seat that did not call a special the searcher says it would have made,
  worth more marks (at the seat's turn: a plunge or splash two marks over a bid in marks,
  nello or sevens the lowest winning bid of a mark or more) than its team took from the
  hand as it was played.  What the team took instead is reported beside it.

The searcher sees what no seat may; the experts decide from their seat's view alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai_tricks import SPECIALS_ON
from bench.tally import stream_all
from core import variants
from core.ai import make_player
from core.ai.tricks import plain_trumps
from core.ai.tricks_playout import place, scratch, unplace
from core.tiles import iter_ids
from core.tricks.calls import MARK, NELLOS, PLUNGE, SEVENS, SPLASH
from core.tricks.match import BIDDING, NAMING, NELLO_CALLS, PLAYING, TrickMatch
from core.tricks.suits import doubles_in

KINDS = ("plunge", "splash", "nello", "sevens")


def makes(world: TrickMatch) -> bool:
    """Whether the bidders of `world` (a round just begun, trumps named, every hand known)
    make its contract when every seat plays its best: every trick to their team, or for
    nello no trick to the bidder.  Positions at the start of a trick are remembered."""
    g = scratch(world)
    holder = g.holder
    assert holder is not None
    team = holder % 2
    nello = g.trump in NELLOS
    memo: dict[tuple[int, ...], bool] = {}

    def search() -> bool:
        seat = g.to_move
        assert seat is not None
        if not g.hands[seat]:
            return True
        key = None
        if not g.trick:
            key = (*g.hands, seat)
            if key in memo:
                return memo[key]
        ours = seat == holder if nello else seat % 2 == team
        result = not ours  # the bidders need one good tile, the others one that sets them
        for t in iter_ids(g.playable(seat)):
            taken = place(g, seat, t)
            if taken is None:
                v = search()
            else:
                winner = taken[1]
                good = winner != holder if nello else winner % 2 == team
                v = good and search()
            unplace(g, seat, t, taken)
            if v == ours:
                result = v
                break
        if key is not None:
            memo[key] = result
        return result

    return search()


def contract_world(start: TrickMatch, seat: int, value: int, special: int, trump: int
                   ) -> TrickMatch:
    """The round of `start` (bidding not begun) with `seat` holding a bid of `value` (a
    plunge or splash: `special`) and `trump` named by the namer."""
    g = start.copy()
    g.high, g.holder, g.special, g.phase = value, seat, special, NAMING
    g.to_move = g.namer()
    g._name_trumps(trump)
    return g


def hindsight(start: TrickMatch, seat: int, kind: str, high: int) -> tuple[bool, int] | None:
    """Whether `seat` would make special `kind` called at its turn, the high bid being
    `high` (every hand seen), and the marks it was worth; None if it could not call it."""
    rules = start.rules
    hand = start.hands[seat]
    if kind in ("plunge", "splash"):
        special = PLUNGE if kind == "plunge" else SPLASH
        if not getattr(rules, kind) or doubles_in(hand) < (4 if special == PLUNGE else 3):
            return None
        g = start.copy()
        g.high = high
        value = g.special_value(special)
        trumps = plain_trumps(start)
    else:
        special = 0
        if not getattr(rules, kind):
            return None
        value = MARK if high < MARK else (high + MARK if high >= 2 * MARK else 2 * MARK)
        trumps = list(NELLO_CALLS[rules.nello_doubles]) if kind == "nello" else [SEVENS]
    made = any(makes(contract_world(start, seat, value, special, t)) for t in trumps)
    return made, value // MARK


def called_kind(game: TrickMatch) -> str | None:
    """The special of the contract in play, if it is one."""
    if game.special:
        return "plunge" if game.special == PLUNGE else "splash"
    if game.trump in NELLOS:
        return "nello"
    return "sevens" if game.trump == SEVENS else None


def play_hand(i: int, seed: int) -> dict[str, Any]:
    """Hand `i`: the experts' contract and result, and the searcher's word on each seat."""
    game = variants.get("texas-42").new(seed=seed * 100_003 + i, **SPECIALS_ON)
    bots = [make_player("expert", seed * 7 + i * 4 + s) for s in range(4)]
    start = game.copy()
    highs: dict[int, int] = {}
    contract: dict[str, Any] = {}
    while not game.round_results:
        if game.phase == BIDDING and not game.bids:  # (a reshake deals again)
            start, highs = game.copy(), {}
        seat = game.to_move
        assert seat is not None
        if game.phase == BIDDING:
            highs[seat] = game.high
        if game.phase == PLAYING and not contract:
            assert game.holder is not None
            contract = {"holder": game.holder, "marks": max(1, game.high // MARK),
                        "kind": called_kind(game)}
        game.play(bots[seat].choose(game))
    result = game.round_results[0]
    seats = []
    for s in range(4):
        word = {}
        for kind in KINDS:
            said = hindsight(start, s, kind, highs[s])
            if said is not None:
                word[kind] = said
        seats.append(word)
    return {"hand": i, "seed": seed, "contract": contract, "made": bool(result["made"]),
            "points": list(result["points"]), "hindsight": seats}


def tally(hands: list[dict[str, Any]]) -> list[str]:
    """The table: per special, the calls made and set (and how many the searcher says
    could be made), the misses and what the missing teams took instead, per 1,000 hands."""
    n = len(hands)
    calls: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # made, set, makeable
    misses: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # misses, marks, marks took
    makeable: dict[str, int] = defaultdict(int)
    for h in hands:
        c = h["contract"]
        kind, holder = c["kind"], c["holder"]
        if kind:
            calls[kind][0 if h["made"] else 1] += 1
            said = h["hindsight"][holder].get(kind)
            calls[kind][2] += bool(said and said[0])
        for s in range(4):
            took = h["points"][s % 2]
            for k, (made, worth) in h["hindsight"][s].items():
                makeable[k] += made
                if made and not (kind == k and holder == s) and worth > took:
                    m = misses[k]
                    m[0] += 1
                    m[1] += worth
                    m[2] += took
    per = 1000 / n if n else 0.0
    lines = [f"{n} hands (texas-42, every special on, expert on every seat), per 1,000 hands:",
             "",
             "| special | called | made | set | calls the searcher could make | seat-hands it "
             "could make | missed | marks missed, mean | the team took instead, mean |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for k in KINDS:
        made, lost, ok = calls[k]
        miss, worth, took = misses[k]
        mean = (f"{worth / miss:.2f}", f"{took / miss:.2f}") if miss else ("-", "-")
        lines.append(f"| {k} | {(made + lost) * per:.1f} | {made * per:.1f} | {lost * per:.1f} "
                     f"| {ok * per:.1f} | {makeable[k] * per:.1f} | {miss * per:.1f} "
                     f"| {mean[0]} | {mean[1]} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="the first hand's index")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--out", default="", help="append each hand to this file (JSON lines)")
    parser.add_argument("--summary", nargs="+", default=None, metavar="FILE",
                        help="print the table of --out files and stop")
    args = parser.parse_args(argv)
    if args.summary:
        seen: dict[tuple[int, int], dict[str, Any]] = {}
        for path in args.summary:
            with open(path, encoding="utf-8") as f:
                for text in f:
                    if text.strip():
                        h = json.loads(text)
                        seen[h["seed"], h["hand"]] = h
        print("\n".join(tally(list(seen.values()))))
        return 0
    tasks = [(i, args.seed) for i in range(args.first, args.first + args.hands)]
    hands = []
    for h in stream_all(play_hand, tasks, args.jobs):
        hands.append(h)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(h) + "\n")
    print("\n".join(tally(hands)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
