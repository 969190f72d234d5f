"""`LineMatch`: a match of a line game, the object `Variant.new` returns for them.

The round engine (`core.line.LineRound`) and the match (`core.match.MatchBase`)
share this one object, so that a move is a single method call; when a round
ends the next one is dealt at once from the match's seeded generator, so
``to_move`` is None only when the match is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import IllegalMove, OptionError
from .line import LineRound, LineRules, _tables, deal_masks
from .match import MATCH_SLOTS, MatchBase
from .moves import LEAD, PLAY, Move, move_for, parse_notation
from .scoring import MatchRules
from .tiles import TileSet

if TYPE_CHECKING:
    from .variant import Variant

ROUND_SLOTS = (
    "active", "eliminated", "ended", "events", "hands", "lead_tid", "leader", "left", "n",
    "played", "reason", "right", "sleeping", "stock", "tables", "team_of", "to_move", "ts",
    "vmask", "winners",
)


class LineMatch(LineRound, MatchBase):
    """A match of a line-game variant (all its rounds)."""

    __slots__ = ROUND_SLOTS + MATCH_SLOTS

    def __init__(
        self,
        variant: Variant,
        players: int,
        seed: int,
        options: dict[str, Any],
        rules: LineRules,
        mrules: MatchRules,
        deal: dict[str, Any] | None = None,
    ) -> None:
        self._init_match(variant, players, seed, options, rules, mrules, deal)
        self.ts = rules.tiles
        self.tables = _tables(self.ts)
        self.vmask = self.tables[3]
        if deal is not None:
            hands, stock, sleeping = parse_deal(rules, players, deal)
        else:
            hands, stock, sleeping = self._shuffle()
        self._start_round(hands, stock, sleeping, 0 if rules.lead == "any" else None)
        self._leader1 = self.leader

    def parse_move(self, text: str) -> Move:
        """The move written in `text` (``"6-4 left"``, ``"6-4"``, ``"pass"``...).

        A tile written without an end is resolved against the legal moves;
        `IllegalMove` says why text is not a move or is ambiguous.
        """
        kind, tid, end = parse_notation(text)
        if kind != PLAY:
            return move_for(kind)
        ts = self.ts
        if tid >= len(ts.hi) or not (ts.all_mask >> tid) & 1:
            raise IllegalMove(f"{text.strip()[:10]} is not a tile of the double-{ts.max_pip} set")
        if self.to_move is None:
            raise IllegalMove("the game is over")
        if self.left < 0:
            return move_for(PLAY, tid, LEAD)
        if end is not None:
            return move_for(PLAY, tid, end)
        options = [m for m in self.legal_moves() if m.tid == tid]
        if len(options) == 1:
            return options[0]
        name = ts.names[tid]
        if options:
            raise IllegalMove(f"{name} fits both ends: say '{name} left' or '{name} right'")
        if not (self.hands[self.to_move] >> tid) & 1:
            raise IllegalMove(f"{name} is not in your hand")
        raise IllegalMove(f"{name} does not match either end ({self.left}, {self.right})")

    def copy(self) -> LineMatch:
        """An independent copy (computer players search on copies)."""
        new = LineMatch.__new__(LineMatch)
        for name in LineMatch.__slots__:
            setattr(new, name, getattr(self, name))
        for name in ("hands", "stock", "played", "events", "active", "eliminated", "winners"):
            setattr(new, name, getattr(self, name)[:])
        self._copy_match(new)
        return new

    def _shuffle(self) -> tuple[list[int], list[int], int]:
        tiles = list(self.ts.ids)
        self.rng.shuffle(tiles)
        hands, rest = deal_masks(tiles, self.players, self.rules.hand)
        if self.rules.stock:
            return hands, rest, 0
        sleeping = 0
        for t in rest:
            sleeping |= 1 << t
        return hands, [], sleeping

    def _next_round(self, last: dict[str, Any]) -> None:
        hands, stock, sleeping = self._shuffle()
        how = self.rules.later_lead
        leader: int | None = None
        if how == "rotate":
            leader = (self._leader1 + self.round_no - 1) % self.players
        elif how == "winner":
            winners = last["winners"]
            tied = len(winners) == self.players
            leader = (self.leader + 1) % self.players if tied else winners[0]
        self._start_round(hands, stock, sleeping, leader, how if leader is None else None)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may know (None: the public view of the channel), as JSON data."""
        self._check_seat(seat)
        ts = self.ts
        v = self._match_view(seat, ts)
        line, last = self.chain()
        v.update({
            "hand_sizes": [h.bit_count() for h in self.hands],
            "board": line,
            "ends": [] if self.left < 0 else [self.left, self.right],
            "layout": {"kind": "line", "chain": line, "last": last},
            "stock": len(self.stock),
            "sleeping": self.sleeping.bit_count(),
            "eliminated": list(self.eliminated),
            "out": [s for s in range(self.players)
                    if not self.active[s] and s not in self.eliminated],
        })
        if seat is not None:
            v["hand"] = ts.mask_names(self.hands[seat])
            if seat == self.to_move:
                v["legal"] = [m.text for m in self.legal_moves()]
        return v


def parse_deal(rules: LineRules, players: int, deal: dict[str, Any]
               ) -> tuple[list[int], list[int], int]:
    """Hands, stock and sleeping tiles of a hand-built deal, checked."""
    ts = rules.tiles
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise OptionError('deal must be {"hands": [[tiles], ...], "stock": [tiles]}')
    if len(deal["hands"]) != players:
        raise OptionError(f"deal has {len(deal['hands'])} hands for {players} players")
    seen = 0
    hands = []
    for hand in deal["hands"]:
        mask = 0
        for text in hand:
            t = _deal_tile(ts, text, seen)
            seen |= 1 << t
            mask |= 1 << t
        hands.append(mask)
    stock = []
    for text in deal.get("stock") or []:
        if not rules.stock:
            raise OptionError("deal: this game has no stock to draw from")
        t = _deal_tile(ts, text, seen)
        seen |= 1 << t
        stock.append(t)
    if not any(hands):
        raise OptionError("deal: no tile in any hand")
    return hands, stock, ts.all_mask & ~seen


def _deal_tile(ts: TileSet, text: object, seen: int) -> int:
    """The id of one dealt tile, refusing unknown and repeated tiles."""
    t = ts.lookup.get(text)
    if t is None:
        try:
            t = ts.parse(str(text))
        except (ValueError, TypeError) as exc:
            raise OptionError(f"deal: {exc}") from None
    if (seen >> t) & 1:
        raise OptionError(f"deal: {ts.names[t]} is dealt twice")
    return t
