"""A whole match: rounds, scores, views, records.

`LineMatch` is the object `Variant.new` returns for line games and the
interface of DESIGN.md: ``to_move``, ``legal_moves()``, ``play()``,
``view(seat)``, ``copy()``, ``over``, ``result``, ``record()``,
``parse_move()``.  The round engine (`core.line.LineRound`) and the match
share one object so that a move is a single method call; when a round ends
the next one is dealt at once from the match's seeded generator, so
``to_move`` is None only when the match is over.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from . import scoring
from .errors import IllegalMove, OptionError
from .line import LineRound, LineRules, _tables, deal_masks, round_order
from .moves import LEAD, PLAY, Move, move_for, parse_notation
from .scoring import MatchRules
from .tiles import TileSet, id_halves

if TYPE_CHECKING:
    from .variant import Variant

RECORD_FORMAT = "domino-record/1"

_ROUND_SLOTS = (
    "active", "eliminated", "ended", "events", "hands", "lead_tid", "leader", "left", "n",
    "played", "reason", "right", "sleeping", "stock", "team_of", "to_move", "winners",
)
_MATCH_SLOTS = (
    "_last", "_leader1", "_past", "_result", "_rng", "deal", "mrules", "options", "over", "players",
    "round_no", "round_results", "rules", "scorers", "seed", "tables", "totals",
    "ts", "variant", "vmask",
)


class LineMatch(LineRound):
    """A match of a line-game variant (all its rounds)."""

    __slots__ = _ROUND_SLOTS + _MATCH_SLOTS

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
        self.variant = variant
        self.players = players
        self.seed = seed
        self.options = options
        self.rules = rules
        self.mrules = mrules
        self.deal = deal
        self.ts = rules.tiles
        self.tables = _tables(self.ts)
        self.vmask = self.tables[3]
        self._rng: random.Random | None = None
        self.scorers = scoring.units(players, rules.teams)
        self.totals = [0] * len(self.scorers)
        self._past: list[Move] = []  # moves of finished rounds
        self.round_results: list[dict[str, Any]] = []
        self.over = False
        self._result: dict[str, Any] | None = None
        self._last: tuple[int, Move] | None = None  # the last move of a finished round
        self.round_no = 1
        if deal is not None:
            hands, stock, sleeping = _parse_deal(rules, players, deal)
        else:
            hands, stock, sleeping = self._shuffle()
        self._start_round(hands, stock, sleeping, 0 if rules.lead == "any" else None)
        self._leader1 = self.leader

    # -- the interface ---------------------------------------------------------

    @property
    def moves(self) -> list[Move]:
        """Every move played so far, in order."""
        return [*self._past, *(m for _, m in self.played)]

    @property
    def turn(self) -> int:
        """How many moves have been played: a button carries it to be refused when stale."""
        return len(self._past) + len(self.played)

    @property
    def rng(self) -> random.Random:
        """The match's shuffler, made from the seed when first needed."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

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
        for name in ("hands", "stock", "played", "events", "active", "eliminated", "winners",
                     "totals", "_past", "round_results"):
            setattr(new, name, getattr(self, name)[:])
        if self._rng is not None:
            new._rng = random.Random()
            new._rng.setstate(self._rng.getstate())
        return new

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this match: `core.replay(record)`."""
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "variant": self.variant.slug,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "deal": self.deal,
            "moves": [m.text for m in self.moves],
        }
        if self.over:
            rec["result"] = self.result
        return rec

    # -- rounds ----------------------------------------------------------------

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

    def _round_ended(self) -> None:
        summary = self.summary()
        points = scoring.round_points(
            self.reason, self.winners, summary["counts"], self.mrules, self.scorers
        )
        totals = self.totals
        for i, p in enumerate(points):
            totals[i] += p
        summary["round"] = self.round_no
        summary["points"] = points
        summary["totals"] = totals[:]
        self.round_results.append(summary)
        self._last = self.played[-1] if self.played else self._last
        if scoring.match_over(totals, self.round_no, self.mrules):
            self.over = True
            self.to_move = None
            return
        self._past.extend(m for _, m in self.played)
        carried = self.events
        self.round_no += 1
        hands, stock, sleeping = self._shuffle()
        how = self.rules.later_lead
        leader: int | None = None
        if how == "rotate":
            leader = (self._leader1 + self.round_no - 1) % self.players
        elif how == "winner":
            winners = summary["winners"]
            tied = len(winners) == self.players
            leader = (self.leader + 1) % self.players if tied else winners[0]
        self._start_round(hands, stock, sleeping, leader, how if leader is None else None)
        self.events = [*carried, ("round", self.round_no, self.leader)]

    @property
    def result(self) -> dict[str, Any] | None:
        """None while the match goes on; then winners, scores, ranking (best first)."""
        if not self.over:
            return None
        if self._result is None:
            self._result = self._make_result()
        return self._result

    def _make_result(self) -> dict[str, Any]:
        last = self.round_results[-1]
        order = round_order(last)
        seat_totals = self.seat_scores()
        if self.mrules.single_round:
            winners = list(last["winners"])
            ranking = order
        else:
            best = scoring.best_scorers(self.totals, self.mrules)
            winners = sorted(s for i in best for s in self.scorers[i])
            ranking = scoring.ranking(seat_totals, order, self.mrules)
        result: dict[str, Any] = {
            "winners": winners,
            "scores": seat_totals,
            "ranking": ranking,
            "rounds": self.round_no,
            "reason": last["reason"],
        }
        if self.rules.teams:
            result["team_scores"] = self.totals[:]
            result["teams"] = [list(t) for t in self.rules.teams]
        return result

    def seat_scores(self) -> list[int]:
        """Each seat's match score (a team's score for each of its seats)."""
        out = [0] * self.players
        for i, unit in enumerate(self.scorers):
            for s in unit:
                out[s] = self.totals[i]
        return out

    # -- views -----------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may know (None: the public view of the channel), as JSON data."""
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players
        ):
            raise OptionError(f"seat must be None or 0 to {self.players - 1} (got {seat!r})")
        ts = self.ts
        line, last = self.chain()
        teams = self.rules.teams
        v: dict[str, Any] = {
            "variant": self.variant.slug,
            "name": dict(self.variant.names),
            "players": self.players,
            "seat": seat,
            "to_move": self.to_move,
            "turn": self.turn,
            "round": self.round_no,
            "set": ts.max_pip,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "board": line,
            "ends": [] if self.left < 0 else [self.left, self.right],
            "layout": {"kind": "line", "chain": line, "last": last},
            "stock": len(self.stock),
            "sleeping": self.sleeping.bit_count(),
            "scores": self.seat_scores(),
            "teams": [list(t) for t in teams] if teams else None,
            "team_scores": self.totals[:] if teams else None,
            "target": self.mrules.target,
            "rounds": self.mrules.rounds,
            "eliminated": list(self.eliminated),
            "out": [s for s in range(self.players)
                    if not self.active[s] and s not in self.eliminated],
            "last_move": None,
            "events": [_event_dict(e, seat) for e in self.events],
            "options": dict(self.options),
            "over": self.over,
            "result": self.result,
            "last_round": (
                _public_summary(self.round_results[-1], ts) if self.round_results else None
            ),
        }
        last_move = self.played[-1] if self.played else self._last
        if last_move is not None:
            v["last_move"] = {"seat": last_move[0], "move": last_move[1].text}
        if seat is not None:
            v["hand"] = ts.mask_names(self.hands[seat])
            if seat == self.to_move:
                v["legal"] = [m.text for m in self.legal_moves()]
        return v


def _event_dict(event: tuple[Any, ...], viewer: int | None) -> dict[str, Any]:
    kind = event[0]
    if kind == "draw":
        out: dict[str, Any] = {"type": "draw", "seat": event[1], "count": len(event[2])}
        if viewer == event[1]:
            out["tiles"] = [f"{a}-{b}" for a, b in (id_halves(t) for t in event[2])]
        return out
    if kind == "end":
        return {"type": "end", "reason": event[1], "winners": list(event[2])}
    if kind == "round":
        return {"type": "round", "round": event[1], "leader": event[2]}
    return {"type": kind, "seat": event[1]}


def _public_summary(summary: dict[str, Any], ts: TileSet) -> dict[str, Any]:
    """A finished round as the channel may see it (hands are shown once it ends)."""
    keys = ("round", "reason", "winners", "counts", "points", "totals")
    out = {k: summary[k] for k in keys}
    out["winners"] = list(out["winners"])
    out["order"] = round_order(summary)
    out["hands"] = [ts.mask_names(h) for h in summary["hands"]]
    out["pips"] = [ts.mask_pips(h) for h in summary["hands"]]
    return out


def _parse_deal(rules: LineRules, players: int, deal: dict[str, Any]
                ) -> tuple[list[int], list[int], int]:
    """Hands, stock and sleeping tiles of a hand-built deal, checked."""
    ts = rules.tiles
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise OptionError('deal must be {"hands": [[tiles], ...], "stock": [tiles]}')
    if len(deal["hands"]) != players:
        raise OptionError(f"deal has {len(deal['hands'])} hands for {players} players")
    seen = 0
    lookup = ts.lookup
    hands = []
    for hand in deal["hands"]:
        mask = 0
        for text in hand:
            t = lookup.get(text)
            if t is None:
                t = _deal_tile(ts, text)
            if (seen >> t) & 1:
                raise OptionError(f"deal: {ts.names[t]} is dealt twice")
            seen |= 1 << t
            mask |= 1 << t
        hands.append(mask)
    stock = []
    for text in deal.get("stock") or []:
        if not rules.stock:
            raise OptionError("deal: this game has no stock to draw from")
        t = lookup.get(text)
        if t is None:
            t = _deal_tile(ts, text)
        if (seen >> t) & 1:
            raise OptionError(f"deal: {ts.names[t]} is dealt twice")
        seen |= 1 << t
        stock.append(t)
    if not any(hands):
        raise OptionError("deal: no tile in any hand")
    return hands, stock, ts.all_mask & ~seen


def _deal_tile(ts: TileSet, text: object) -> int:
    try:
        return ts.parse(str(text))
    except (ValueError, TypeError) as exc:
        raise OptionError(f"deal: {exc}") from None


Match = LineMatch
