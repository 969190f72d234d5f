"""Who meets whom: the pairing libraries' calls, score groups for bigger tables, brackets.

* Two entrants a table, Swiss: the FIDE Dutch system of `py4swiss` (its matching is the
  C++ of bbpPairings, the FIDE-endorsed program; a round of 64 takes tens of ms where the
  pure-Python Dutch of `caissify-pairings` takes seconds). White becomes the first seat.
* Round-robin: the FIDE Berger tables of `caissify-pairings` (checked there against the
  FIDE handbook); an odd count gets the phantom's bye.
* Three or more entrants a table (Swiss and arena): score groups, as Swiss card events
  do: best first, each table the next entrants who have not met, the odd seats a bye for
  the lowest scores (or computer seats when the organiser allows them).
* Knockout: the standard bracket, the top seeds get the byes.
* Random partners: a table's players split into sides of two, as few partners again as
  can be (every split of the table is looked at: 3 for four seats, 105 for eight).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from caissify_pairings.engines.round_robin import berger_round
from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
from py4swiss.trf.sections import PlayerSection, XSection

from bot.tournament.model import Round

Pair = tuple[str, str | None]

_BYE = RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED,
                   result=ResultToken.PAIRING_ALLOCATED_BYE)
_ABSENT = RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED,
                      result=ResultToken.ZERO_POINT_BYE)
_PLAYED = {1.0: ResultToken.WIN, 0.5: ResultToken.DRAW, 0.0: ResultToken.LOSS}
_ALONE = {1.0: ResultToken.FULL_POINT_BYE, 0.5: ResultToken.HALF_POINT_BYE,
          0.0: ResultToken.ZERO_POINT_BYE}


_POINTS = {ResultToken.WIN: 10, ResultToken.FORFEIT_WIN: 10, ResultToken.FULL_POINT_BYE: 10,
           ResultToken.PAIRING_ALLOCATED_BYE: 10, ResultToken.DRAW: 5,
           ResultToken.HALF_POINT_BYE: 5}  # a result's points, times ten (TRF)


@lru_cache(maxsize=8192)
def _result(opponent: int, colour: ColorToken, token: ResultToken) -> RoundResult:
    """One round of a TRF line, built (and validated) once: rounds played do not change, and
    py4swiss only reads them."""
    return RoundResult(id=opponent, color=colour, result=token)


def _round_results(rnd: Round, number: dict[str, int]) -> dict[str, RoundResult]:
    """Each entrant's result in one round (an entrant not in it: none), table by table."""
    out: dict[str, RoundResult] = {}
    for table in rnd.tables:
        for mine, side in enumerate(table.sides):
            other = 1 - mine
            opponent = table.sides[other][0]
            result = table.versus(mine, other)
            if opponent is None:  # a computer filled the odd seat: a bye worth the result
                here = _result(0, ColorToken.BYE_OR_NOT_PAIRED, _ALONE[result])
            else:
                colour = ColorToken.WHITE if mine == 0 else ColorToken.BLACK
                if table.forfeited(mine) or table.forfeited(other):
                    token = ResultToken.FORFEIT_WIN if result == 1.0 else ResultToken.FORFEIT_LOSS
                else:
                    token = _PLAYED[result]
                here = _result(number[opponent], colour, token)
            for entrant in side:
                if entrant is not None:
                    out.setdefault(entrant, here)
    out.update(dict.fromkeys(rnd.byes, _BYE))
    return out


def dutch(order: Sequence[str], rounds: Sequence[Round], total: int,
          absent: set[str]) -> list[Pair] | None:
    """The next Swiss round by the FIDE Dutch system; (entrant, None) is the bye.

    `order` is every entrant by seed (their starting numbers), `absent` those not paired.
    None when no pairing meets the absolute criteria (no repeat, one bye each at most).
    """
    number = {e: i + 1 for i, e in enumerate(order)}
    played = [_round_results(rnd, number) for rnd in rounds]
    sections = []
    for e in order:
        results = [r.get(e, _ABSENT) for r in played]
        sections.append(PlayerSection(code=PlayerCode.PLAYER, starting_number=number[e],
                                      points_times_ten=sum(_POINTS.get(r.result, 0)
                                                           for r in results),
                                      rank=number[e], results=results))
    x = XSection(number_of_rounds=max(total, len(rounds) + 1),
                 zeroed_ids={number[e] for e in absent})
    try:
        pairings = DutchEngine.generate_pairings(ParsedTrf(player_sections=sections,
                                                           x_section=x))
    except PairingError:
        return None
    return [(order[p.white - 1], order[p.black - 1] if p.black else None) for p in pairings]


def berger(order: Sequence[str], round_no: int) -> list[Pair]:
    """Round `round_no` (from 1) of the Berger tables; the phantom's partner has the bye."""
    n = len(order) + len(order) % 2
    slot = {i + 1: e for i, e in enumerate(order)}
    pairs: list[Pair] = []
    for a, b in berger_round(n, (round_no - 1) % (n - 1) + 1):
        if a in slot and b in slot:
            pairs.append((slot[a], slot[b]))
        else:
            pairs.append((slot[a] if a in slot else slot[b], None))
    return pairs


def table_sizes(count: int, size: int, fill: bool) -> tuple[list[int], int]:
    """The tables' numbers of entrants (best tables first) and the number of byes.

    With `fill` every entrant plays: as few tables as hold them all, the empty seats spread
    over the bottom tables (at most one more at one than at another), which computer
    players take; so two entrants at four seats are one table of two, five are a table of
    three and one of two.  Else the remainder sits out.
    """
    if not fill or count % size == 0:
        return [size] * (count // size), count % size
    tables = -(-count // size)
    least, more = divmod(count, tables)
    return [least + 1] * more + [least] * (tables - more), 0


def group_by_score(order: Sequence[str], sizes: Sequence[int],
                   met: Callable[[str, str], bool], budget: int = 2_000,
                   strict: bool = False) -> list[list[str]] | None:
    """Cut `order` (best first) into groups of `sizes`, none of whom met, if it can.

    A depth-first search: each group is the best entrant left with the next ones who met no
    one in the group. Past `budget` steps it builds the groups greedily (the fewest repeats)
    and swaps entrants between nearby groups while that removes repeats; `strict`, it gives
    up instead (None) unless that leaves no repeat.
    """
    steps = 0

    def search(left: list[str], k: int) -> list[list[str]] | None:
        if k == len(sizes):
            return []
        head, rest = left[0], left[1:]

        def extend(group: list[str], start: int) -> list[list[str]] | None:
            nonlocal steps
            steps += 1
            if steps > budget:
                return None
            if len(group) == sizes[k]:
                tail = search([e for e in rest if e not in group], k + 1)
                return None if tail is None else [group, *tail]
            for i in range(start, len(rest)):
                e = rest[i]
                if not any(met(e, g) for g in group):
                    found = extend([*group, e], i + 1)
                    if found is not None or steps > budget:
                        return found
            return None

        return extend([head], 0)

    found = search(list(order), 0)
    if found is not None:
        return found
    groups, left = [], list(order)
    for size in sizes:
        group = [left.pop(0)]
        while len(group) < size:
            best = min(left, key=lambda e: sum(met(e, g) for g in group))
            left.remove(best)
            group.append(best)
        groups.append(group)
    _repair(groups, met)
    _shake(groups, met)
    if strict and any(_repeats(g, met) for g in groups):
        return None
    return groups


def _repeats(group: Sequence[str], met: Callable[[str, str], bool]) -> int:
    return sum(met(a, b) for i, a in enumerate(group) for b in group[i + 1:])


def _shake(groups: list[list[str]], met: Callable[[str, str], bool], tries: int = 200) -> None:
    """A local search past `_repair`'s dead ends: a random swap between a group with a repeat
    and a nearby group, repaired, kept unless it adds repeats (seeded: same groups, same
    answer)."""
    rng = random.Random(0)
    total = sum(_repeats(g, met) for g in groups)
    for _ in range(tries):
        if not total:
            return
        trial = [list(g) for g in groups]
        k = rng.choice([k for k, g in enumerate(trial) if _repeats(g, met)])
        a = trial[k]
        b = trial[rng.randrange(max(0, k - 2), min(len(trial), k + 3))]  # a nearby group
        i, j = rng.randrange(len(a)), rng.randrange(len(b))
        a[i], b[j] = b[j], a[i]
        _repair(trial, met)
        now = sum(_repeats(g, met) for g in trial)
        if now <= total:
            groups[:], total = trial, now


def _repair(groups: list[list[str]], met: Callable[[str, str], bool]) -> None:
    """Swap two entrants of nearby groups while that lowers the repeats (in place)."""
    improved = True
    while improved:
        improved = False
        for gi, group in enumerate(groups):
            if not _repeats(group, met):
                continue
            others = sorted((j for j in range(len(groups)) if j != gi), key=lambda j: abs(j - gi))
            for x, gj in ((x, gj) for x in list(group) for gj in others):
                other = groups[gj]
                before = _repeats(group, met) + _repeats(other, met)
                for y in other:
                    a = [y if e == x else e for e in group]
                    b = [x if e == y else e for e in other]
                    if _repeats(a, met) + _repeats(b, met) < before:
                        groups[gi], groups[gj] = group, other = a, b
                        improved = True
                        break
                if x not in group:
                    break
            if improved:
                break


def bracket_order(size: int) -> list[int]:
    """Seeds (from 1) in bracket order for a bracket of `size` (a power of two)."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def _splits(seats: list[str | None]) -> Iterator[list[tuple[str | None, str | None]]]:
    """Every way to split `seats` (an even number) into pairs."""
    if not seats:
        yield []
        return
    first, rest = seats[0], seats[1:]
    for i, other in enumerate(rest):
        for tail in _splits(rest[:i] + rest[i + 1:]):
            yield [(first, other), *tail]


def draw_partners(seats: Sequence[str | None], had: Counter[frozenset[str | None]],
                  rng: random.Random) -> list[list[str | None]]:
    """A table's sides of two partners: a split with the fewest partners who were partners
    before (`had` counts each pair of partners), drawn at random among those; a computer
    seat (None) is nobody's partner twice."""
    options = list(_splits(list(seats)))
    rng.shuffle(options)
    best = min(options, key=lambda split: sum(had[frozenset(p)] for p in split
                                              if None not in p))
    sides = [list(p) for p in best]
    for side in sides:
        rng.shuffle(side)
    rng.shuffle(sides)
    return sides
