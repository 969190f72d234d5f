"""`nombres` (000, "LES DOMINOS DES NOMBRES"): round totals draw tiles; most tiles wins.

8 tiles each at 3 players, 6 at 4, 5 at 5; the rest is the stock.  First
every player, from seat 0, gives one tile of their choice back to the stock
(``give 6-4``; the given tiles are shuffled into it).  Then the holder of the
double-six, else of the heaviest tile ("à défaut, le domino totalisant le plus
de points"), leads it, and play follows the
general rule (a player who cannot play draws until a tile fits).  The
running total of all laid pips is announced; the player whose tile makes it
a round number (20, 30, 40...) draws one tile.  The round ends as soon as
the stock is empty, or when a player is out or nobody can play: the most
tiles in hand wins.
"""

from __future__ import annotations

from typing import Any

from ..errors import illegal
from ..line.engine import UNTIL, LineRules
from ..line.match import LineMatch
from ..line.variant import LineVariant
from ..moves import GIVE, Move, move_for
from ..scoring import MatchRules
from ..tiles import iter_ids

HAND = {3: 8, 4: 6, 5: 5}


class NombresMatch(LineMatch):
    """A giving phase before the lead, a running total, a draw on round totals."""

    __slots__ = ("giving", "total")
    hooked = True

    giving: int  # seats that have given a tile back (== players: the giving is over)
    total: int  # pips laid in this round

    def _start_round(self, hands: list[int], stock: list[int], sleeping: int,
                     leader: int | None = None, lead: str | None = None) -> None:
        super()._start_round(hands, stock, sleeping, 0, lead)  # seat 0 gives first
        self.giving = 0
        self.total = 0

    def legal_moves(self) -> list[Move]:
        if self.to_move is not None and self.giving < self.n:
            return self._extra_moves()
        return super().legal_moves()

    def _extra_moves(self) -> list[Move]:
        seat = self.to_move
        if seat is None or self.giving >= self.n:
            return []
        return [move_for(GIVE, t) for t in iter_ids(self.hands[seat])]

    def check(self, move: Move) -> tuple[int, int]:
        if self.giving < self.n and self.to_move is not None:
            raise illegal("first give one tile back to the stock, like 'give 6-4'")
        return super().check(move)

    def _extra(self, seat: int, move: Move) -> None:
        if move.kind == GIVE and move not in self._extra_moves():  # say why not
            if self.giving >= self.n:
                raise illegal("tiles are given back only before the first tile is laid")
            raise illegal("{tile} is not in your hand", tile=str(move.tile))
        super()._extra(seat, move)

    def _play_extra(self, move: Move) -> None:
        """Give a tile back: it is shuffled into the stock; then the next seat gives,
        and after the last one the heaviest tile leads."""
        seat = self.to_move
        assert seat is not None
        self.hands[seat] &= ~(1 << move.tid)
        stock = self._stock
        stock.insert(self.rng.randrange(len(stock) + 1), move.tid)
        self.events.append(("give", seat))
        self.giving += 1
        if self.giving < self.n:
            self.to_move = seat + 1
            return
        self.leader, self.lead_tid = self._find_leader(self.rules.lead)
        self.to_move = self.leader

    def _laid(self, seat: int, move: Move) -> bool:
        self.total += self.ts.pips[move.tid]
        stock = self._stock
        if self.total >= 20 and self.total % 10 == 0 and stock:
            t = stock.pop()
            self._hands[seat] |= 1 << t  # type: ignore[index]
            self.events.append(("draw", seat, [t]))
            if not stock:
                self._finish("stock", [])
                return True
        return False

    def _advance(self, seat: int) -> None:
        super()._advance(seat)
        if not self._stock and not self.ended:  # a stuck player drew the last tile
            self._finish("stock", [])

    def _finish(self, reason: str, winners: list[int]) -> None:
        sizes = self.counts()  # tiles in hand (rules.count)
        most = max(sizes)
        super()._finish(reason, [s for s in range(self.n) if sizes[s] == most])

    def _round_order(self, summary: dict[str, Any]) -> list[int]:
        counts = summary["counts"]
        return sorted(range(len(counts)), key=lambda s: (-counts[s], s))

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        extra: dict[str, Any] = {"total": self.total}
        if self.played and self.played[-1][1].kind == GIVE:  # the tile is in the stock now:
            extra["last_move"] = {"seat": self.played[-1][0], "move": "give"}  # no view names it
        if self.giving < self.n and not self.over:
            extra["giving"] = True
            extra["strip_extra"] = f"Giving back: {self.giving}/{self.n}"
        else:
            extra["strip_extra"] = f"Total laid: {self.total}"
        return extra


class Nombres(LineVariant):
    slug = "nombres"
    names = {"fr": "Les dominos des nombres", "en": "Number dominoes"}
    seeds = ("000",)
    min_players, max_players, default_players = 3, 5, 3
    match_class = NombresMatch

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=HAND[players], draw=UNTIL, count="tiles", lead="heaviest")

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="held")  # one round: the scores are the tiles kept
