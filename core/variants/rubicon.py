"""`rubicon` (000, "LE RUBICON"): add up the pips you lay, to 101 exactly.

Each player starts with 5 chips and puts 1 into the pot.  Every tile laid
adds its pips to its player's running total (kept from round to round); the
first to make exactly 101 wins the match and the pot.  A tile that would
take a total past 101 still goes down, but scores nothing: its player pays a
chip into the pot and play goes on (option ``overshoot=new-round``: the
round ends and a new deal follows; a player who goes past the goal with no
chip left to pay is then out, and the match ends: every match ends, since
chips only ever go into the pot until it is won).  A player who cannot lay a tile may buy
one from the stock for a chip (``buy``), as often as they like, or pass;
once they passed, they are not asked again until a tile is laid or bought.
A round ends when a player is out or nobody can play or buy.
"""

from __future__ import annotations

from typing import Any

from .. import scoring
from ..errors import illegal
from ..line.engine import BLOCK, LineRules
from ..line.match import LineMatch
from ..line.variant import LineVariant, default_hand
from ..moves import BUY, PASS, Move, move_for
from ..options import Option
from ..scoring import MatchRules

BUY_MOVE = move_for(BUY)
PASS_MOVE = move_for(PASS)


class RubiconMatch(LineMatch):
    """Chips, a pot, bought tiles and the exact goal."""

    __slots__ = ("chips", "passed", "pot")
    hooked = True

    chips: list[int]
    pot: int
    passed: list[bool]  # seats that passed since the last tile laid or bought

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        start = self.options["chips"]
        self.chips = [start - 1] * self.players  # one chip each into the pot
        self.pot = self.players

    def _reset_round(self, n: int) -> None:
        super()._reset_round(n)
        self.passed = [False] * n

    def _copied(self, new: LineMatch) -> None:
        assert isinstance(new, RubiconMatch)
        new.chips = self.chips[:]
        new.passed = self.passed[:]

    # -- buying --------------------------------------------------------------------

    def _wants_turn(self, seat: int) -> bool:
        """A seat with no tile that fits still decides when it may buy one."""
        return bool(self._stock) and self.chips[seat] > 0 and not self.passed[seat]

    def _extra_moves(self) -> list[Move]:
        seat = self.to_move
        if seat is None or self.left < 0:
            return []
        hands = self.hands
        vmask = self.vmask
        if hands[seat] & (vmask[self.left] | vmask[self.right]) or not self._wants_turn(seat):
            return []  # a tile fits: it must be laid
        return [BUY_MOVE, PASS_MOVE]

    def _extra(self, seat: int, move: Move) -> None:
        if move.kind in (BUY, PASS) and move not in self._extra_moves():  # say why not
            raise illegal("'{move}' only when no tile of yours fits and you may buy one "
                          "(a chip and a tile in the stock); you have {n} chips",
                          move=str(move), n=self.chips[seat])
        super()._extra(seat, move)

    def _play_extra(self, move: Move) -> None:
        seat = self.to_move
        assert seat is not None
        if move.kind == PASS:
            self.passed[seat] = True
            self.events.append(("pass", seat))
            self._advance(seat)
            return
        self._pay(seat)
        t = self._stock.pop()
        self._hands[seat] |= 1 << t  # type: ignore[index]
        self.events.append(("draw", seat, [t]))
        self.passed = [False] * self.n
        if not self.legal_moves():  # no chip or tile left to buy, and it does not fit
            self.events.append(("pass", seat))
            self._advance(seat)
        # else the same seat decides again: lay the tile, buy another, or pass

    def _pay(self, seat: int) -> None:
        if self.chips[seat] > 0:
            self.chips[seat] -= 1
            self.pot += 1
            self.events.append(("chip", seat))

    # -- scoring -------------------------------------------------------------------

    def _laid(self, seat: int, move: Move) -> bool:
        self.passed = [False] * self.n
        pips = self.ts.pips[move.tid]
        i = self.scorer_of(seat)
        if self.totals[i] + pips > self.mrules.target:  # type: ignore[operator]
            self.events.append(("over", seat))
            if self.options["overshoot"] == "new-round":
                if self.chips[seat] == 0:  # cannot pay: out, and the match ends
                    self.gone.append(seat)
                    self._share_pot()
                self._pay(seat)
                self._finish("over", [])
                return True
            self._pay(seat)
            return False
        if self.add_points(seat, pips, "laid"):
            self.chips[seat] += self.pot  # the winner takes the pot
            self.pot = 0
            return True
        return False

    def _share_pot(self) -> None:
        """The players with the best total left in the match share the pot (the first of
        them in seat order takes what does not divide)."""
        best = scoring.best_scorers(self.totals, self.mrules, self.live_scorers())
        share, rest = divmod(self.pot, len(best))
        for n, i in enumerate(best):
            self.chips[i] += share + (rest if n == 0 else 0)
        self.pot = 0

    def _match_ends(self) -> bool:
        return bool(self.gone)  # a player went past the goal with no chip to pay

    def _make_result(self) -> dict[str, Any]:
        result = super()._make_result()
        result["chips"] = self.chips[:]
        return result

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        chips = " / ".join(str(c) for c in self.chips)
        return {"chips": self.chips[:], "pot": self.pot,
                "strip_extra": f"Goal {self.mrules.target} · pot {self.pot} · chips {chips}"}


class Rubicon(LineVariant):
    slug = "rubicon"
    names = {"fr": "Le rubicon", "en": "Rubicon"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 4, 2
    options = (
        Option("goal", 101, minimum=20, maximum=1000, kind=int,
               help="the exact total of laid pips that wins"),
        Option("chips", 5, minimum=1, maximum=100, kind=int,
               help="chips each player starts with (one goes into the pot)"),
        Option("overshoot", "play-on", ("play-on", "new-round"),
               help="after a tile that goes past the goal (it scores nothing, costs a chip): "
               "play on, or end the round at once"),
    )
    match_class = RubiconMatch

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=default_hand(players), draw=BLOCK, lead="heaviest")

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="none", target=o["goal"], mid_round=True)
