"""`matador` and `k` (000): line games whose touching halves total 7.

The join rule is `core.line.end_points.Sum7Join`: a tile goes where one of its
halves and the end total 7; a blank end takes only a matador (0-0, 1-6, 2-5,
3-4: the "dominos K" are the same four tiles), laid crosswise so that only a
blank may follow it.  Matador's options make the matadors jokers on any end
(`matador_wild`, ref 2) or lay them in line (`matador_inline`, ref 3); in
Dominos K the K tiles are always jokers.  A seat whose only plays are
matadors laid as matadors may draw instead ("s'il ne peut pas (ou ne veut
pas) jouer de matador, il pioche"): the move ``draw`` draws until a tile
joins ordinarily or the stock is empty.

Dominos K deals 13 tiles at 2 players, 9 at 3: the first tile of each hand
is the one each player drew first, and the heaviest of those opens the
round.  A player who lays their last tile stops there and the others play on
"jusqu'au moment où personne ne peut plus jouer" (the option `first_out_ends`
keeps the general rule: the first one out ends the round).  Every round each
seat adds the pips left in its hand; the first to reach 50 loses and leaves
the match: the others are dealt new rounds (as many tiles each as the book
deals to that many players) until one is left.
"""

from __future__ import annotations

from typing import Any

from ..errors import N_, IllegalMove, illegal
from ..line.end_points import BLANK_ONLY, Sum7Join
from ..line.engine import UNTIL, LineRules, Tables, _tables, deal_masks
from ..line.match import LineMatch
from ..line.variant import LineVariant
from ..moves import DRAW, DRAW_MOVE, LEAD, LEFT, PLAY, Move
from ..options import Option
from ..scoring import MatchRules
from ..tiles import TileSet
from .classic import TARGET

_FIT_CACHE: dict[tuple[int, Sum7Join], tuple[Tables, list[int]]] = {}
CODES = 16  # end codes 0-14 (see Sum7Join), and 15 read as -1: the empty board


def sum7_tables(ts: TileSet, join: Sum7Join) -> tuple[Tables, list[int]]:
    """The engine's tables with the masks of tiles that may go on each end code,
    and the masks of tiles that join each end ordinarily (not as a matador)."""
    key = (ts.max_pip, join)
    found = _FIT_CACHE.get(key)
    if found is None:
        lead, left, right, _, memo_l, memo_r = _tables(ts)
        fit = [0] * CODES
        plain = [0] * CODES
        for code in range(CODES - 1):
            halves = join.joins(code)
            for t in ts.ids:
                a, b = ts.hi[t], ts.lo[t]
                if join.lay(a, b, code) is not None:
                    fit[code] |= 1 << t
                if a in halves or b in halves:
                    plain[code] |= 1 << t
        found = _FIT_CACHE[key] = ((lead, left, right, fit, memo_l, memo_r), plain)
    return found


class Sum7Match(LineMatch):
    """The line engine with the sum-to-7 join and the choice to draw instead of
    laying a matador."""

    __slots__ = ("join", "plain")
    hooked = True

    def _set_tables(self) -> None:
        self.join = self.variant.join_rule(self.options)  # type: ignore[attr-defined]
        self.tables, self.plain = sum7_tables(self.ts, self.join)
        self.vmask = self.tables[3]

    def _lay(self, a: int, b: int, end: int) -> tuple[int, int, int] | None:
        return self.join.lay(a, b, end)

    def check(self, move: Move) -> tuple[int, int]:
        """As the engine's, saying in words what the end takes when a tile does not fit."""
        try:
            return super().check(move)
        except IllegalMove as exc:
            if "does not match" not in str(exc):
                raise
            side = "left" if move.end == LEFT else "right"
            raise self._refusal(self.left if move.end == LEFT else self.right,
                                str(move.tile), side) from None

    def _takes(self, end: int) -> str:
        """What an end takes, in words ("a 3", "a 0 or a 2", "a matador")."""
        halves = self.join.joins(end)
        if not halves:
            return self.variant.joker  # type: ignore[attr-defined]
        return " or ".join(f"a {h}" for h in halves)

    def _refusal(self, end: int, tile: str, side: str) -> IllegalMove:
        """`tile` refused on `end`, saying what the end takes as `_takes` does."""
        halves = self.join.joins(end)
        if not halves:
            refusal: str = self.variant.joker_refusal  # type: ignore[attr-defined]
            return IllegalMove.of(refusal, tile=tile, side=side)
        if len(halves) == 1:
            return illegal("{tile} does not fit the {side} end, which takes a {half}",
                           tile=tile, side=side, half=halves[0])
        return illegal("{tile} does not fit the {side} end, which takes a {half} or a {other}",
                       tile=tile, side=side, half=halves[0], other=halves[1])

    def _extra_moves(self) -> list[Move]:
        """``draw`` when the stock is not empty and only matadors can be laid."""
        seat = self.to_move
        if seat is None or self.left < 0 or not self._stock:
            return []
        plain = self.plain
        if self.hands[seat] & (plain[self.left] | plain[self.right]):
            return []
        return [DRAW_MOVE]

    def _play_extra(self, move: Move) -> None:
        """Draw until a tile joins an end ordinarily, or the stock is empty."""
        assert move.kind == DRAW and self.to_move is not None
        seat = self.to_move
        wanted = self.plain[self.left] | self.plain[self.right]
        drawn = []
        while self._stock:
            t = self._stock.pop()
            drawn.append(t)
            self._hands[seat] |= 1 << t  # type: ignore[index]
            if (wanted >> t) & 1:
                break
        self.events.append(("draw", seat, drawn))

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        """The ends as the outer halves of the chain (not the engine's end codes),
        what each end takes, and the layout with its join rule ("sum7": touching
        halves total 7, or a blank meets a matador) and the matadors that lie
        crosswise (for pictures)."""
        if self.left < 0:
            return {"needs": []}
        line, last = self.chain()
        needs = [list(self.join.joins(self.left)), list(self.join.joins(self.right))]
        words = [self._takes(self.left), self._takes(self.right)]
        return {"ends": [int(line[0].split("-")[0]), int(line[-1].split("-")[1])],
                "needs": needs,
                "layout": {"kind": "line", "chain": line, "last": last, "join": "sum7",
                           "crosswise": self._crosswise()},
                "strip_extra": f"Left end takes {words[0]}; right end takes {words[1]}"}

    def _crosswise(self) -> list[int]:
        """Indexes in `chain()` of the matadors laid crosswise ("placés
        perpendiculairement à la chaîne"): those that leave an end only a blank joins."""
        ts = self.ts
        ends = [-1, -1]
        across: list[bool] = []
        for _, move in self.played:
            if move.kind != PLAY:
                continue
            a, b = ts.hi[move.tid], ts.lo[move.tid]
            if move.end == LEAD or not across:
                ends, across = [a, b], [False]
                continue
            side = 0 if move.end == LEFT else 1
            laid = self.join.lay(a, b, ends[side])
            ends[side] = laid[2] if laid is not None else b
            across.insert(len(across) * side, laid is not None and laid[2] == BLANK_ONLY)
        return [i for i, flag in enumerate(across) if flag]


class Matador(LineVariant):
    slug = "matador"
    names = {"fr": "Le Matador", "en": "Matador"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 4, 2
    options = (
        Option("matador_wild", False, kind=bool,
               help="matadors are jokers: they may be laid on any end (ref 2)"),
        Option("matador_inline", False, kind=bool,
               help="a matador laid on a blank lies in line: a blank or the complement "
               "of its outer half may follow (ref 3)"),
        TARGET,
    )
    match_class = Sum7Match
    joker = "a matador"
    joker_refusal = N_("{tile} does not fit the {side} end, which takes a matador")

    def join_rule(self, o: dict[str, Any]) -> Sum7Join:
        return Sum7Join(wild=o["matador_wild"], inline=o["matador_inline"])

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=5 if players == 4 else 7, draw=UNTIL)

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="pips", target=o["target"])


K_HAND = {1: 13, 2: 13, 3: 9}  # tiles in hand by players in the round (000)


class KMatch(Sum7Match):
    """Dominos K: each player's first tile decides who opens (the heaviest, with it)."""

    __slots__ = ("first_draws",)

    def __init__(self, variant: Any, players: int, seed: int, options: dict[str, Any],
                 rules: LineRules, mrules: MatchRules, deal: dict[str, Any] | None = None
                 ) -> None:
        if deal is not None:  # the first tile of each dealt hand is its first draw
            ts = rules.tiles
            self.first_draws = []
            for hand in deal.get("hands") or []:
                if isinstance(hand, list) and hand and hand[0] in ts.lookup:
                    self.first_draws.append(ts.lookup[hand[0]])
        super().__init__(variant, players, seed, options, rules, mrules, deal)

    def _shuffle(self) -> tuple[list[int], list[int], int]:
        """Each player still in the match draws one tile, then the rest of the hand
        (13 tiles in all when two are left, 9 for three); the others get none."""
        tiles = list(self.ts.ids)
        self.rng.shuffle(tiles)
        live = [s for s in range(self.players) if s not in self.gone]
        n = len(live)
        hand = K_HAND[n] if self.gone else self.rules.hand
        hands, rest = deal_masks(tiles[n:], n, hand - 1)
        self.first_draws = [-1] * self.players
        out = [0] * self.players
        for i, s in enumerate(live):
            self.first_draws[s] = tiles[i]
            out[s] = hands[i] | 1 << tiles[i]
        return out, rest, 0

    def _find_leader(self, how: str) -> tuple[int, int]:
        hi, lo = self.ts.hi, self.ts.lo
        firsts = self.first_draws
        hands = self._hands or []
        live = [s for s in range(len(firsts)) if firsts[s] >= 0]
        if len(firsts) != self.n or not live or any(
                not (hands[s] >> firsts[s]) & 1 for s in live):
            return super()._find_leader("highest")  # a deal written another way
        seat = max(live, key=lambda s: (hi[firsts[s]] + lo[firsts[s]], hi[firsts[s]]))
        return seat, firsts[seat]

    def _went_out(self, seat: int) -> bool:
        """The round goes on without the seat that went out, until nobody can play
        (or, with ``first_out_ends``, the general rule: it ends now)."""
        if self.options.get("first_out_ends"):
            return super()._went_out(seat)
        self.events.append(("out", seat))
        self.active[seat] = False
        if not any(self.active):
            self._finish("out", [s for s in range(self.n) if s not in self.gone])
            return True
        return False

    def _blocked(self) -> None:
        """Nobody can play: the seats holding the fewest pips win the round (those
        who went out hold none)."""
        counts = self.counts()
        live = [s for s in range(self.n) if s not in self.gone]
        best = min(counts[s] for s in live)
        self._finish("blocked", [s for s in live if counts[s] == best])


class K(LineVariant):
    slug = "k"
    names = {"fr": "Les dominos K", "en": "K dominoes"}
    seeds = ("000",)
    min_players, max_players, default_players = 2, 3, 2
    options = (Option("target", 50, minimum=10, maximum=1000, kind=int,
                      help="the pips in hand that make a player lose (50 in the rule book)"),
               Option("first_out_ends", False, kind=bool,
                      help="the first player out ends the round (the book: the round goes "
                      "on until nobody can play)"))
    match_class = KMatch
    joker = "a K tile"
    joker_refusal = N_("{tile} does not fit the {side} end, which takes a K tile")

    def join_rule(self, o: dict[str, Any]) -> Sum7Join:
        return Sum7Join(wild=True)

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        return LineRules(hand=K_HAND[players], draw=UNTIL, later_lead="highest")

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules(scoring="held", target=o["target"], reach="loses")
