"""What every match has, whatever its layout: rounds, scores, result, record.

`MatchBase` is a slot-less mixin.  A family of games (the line games now; the
cross, the tower, the grid, trick-taking games next) provides a class that
holds the state in its slots, plays a round (``_start_round``, ``play``,
``legal_moves``, ``summary``) and calls `_round_ended` when a round is over;
the base scores the round with `core.scoring`, deals the next one or ends
the match, and builds the result, the record and the common part of views.

Points scored during play (a capture, an end total, laid pips) go through
`add_points`, which needs the family's ``_finish(reason, winners)`` (end the
round now) when the match rules let them end the match mid-round.  Each
finished round keeps its score sheet (`core.score_sheet`): per scorer, one line
per reason it scored (a capture, a cap, the others' hands...), and the final
board (``board``), both shown in the public ``last_round`` view key.  With
``MatchRules(reach="loses")`` the seats that reach the target leave the
match (`gone`): the family deals the next rounds to the others only.

The view contract, every family's (`add_legal` is its one home): ``view(seat)["legal"]``,
the texts of the legal moves, is in the view of the seat to move only; the view of a seat
that is waiting, and the public view (``view(None)``), have no ``legal`` key, even in a
game with nothing hidden (memory, patience), so that no page or chat offers a move that is
not the seat's to make (tests/test_view_contract.py checks it over every slug).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from . import scoring
from .copying import all_slots, copy_deal, copy_result, names_copier, slot_copier
from .errors import OptionError
from .moves import Move
from .score_sheet import DETAILED, END_CODES, match_goal, score_sheet
from .scoring import MatchRules
from .tiles import TileSet, deal_tile, id_halves

# (the copies and the score sheet have their own modules; their names stay importable here)
__all__ = ["DETAILED", "END_CODES", "MATCH_SLOTS", "RECORD_FORMAT", "MatchBase", "Variant",
           "add_legal", "all_slots", "copy_deal", "copy_result", "deal_tile", "event_dict",
           "match_goal", "names_copier", "score_sheet", "slot_copier"]


class Variant(Protocol):
    """What a match uses of its variant (core/variant.py's Variant), typed here: the
    variant's `new` makes matches, so an import of it, even for types, closes a circle."""

    slug: str
    names: dict[str, str]

RECORD_FORMAT = "domino-record/1"

MATCH_SLOTS = (
    "_last", "_leader1", "_past", "_result", "_rng", "_rng_state", "_rounds", "_scored", "_totals",
    "_unscored", "deal", "gone", "mrules", "options", "over", "players", "round_no", "rules",
    "scorers", "seed", "variant",
)


class MatchBase:
    """Rounds, scores, result and record of a match (a mixin: state lives in slots)."""

    __slots__ = ()

    variant: Variant
    players: int
    seed: int
    options: dict[str, Any]
    rules: Any
    mrules: MatchRules
    deal: dict[str, Any] | None
    _rng: random.Random | None
    _rng_state: Any  # while _rng is None: None (start from the seed), an int seed, or a state
    scorers: list[tuple[int, ...]]
    _totals: list[int]  # `totals`
    gone: list[int]  # seats out of the match (reach="loses"), in the order they left
    _past: list[tuple[int, Move]]
    _scored: list[tuple[int, int, str]]  # (seat, points, why) scored in play this round
    _rounds: list[dict[str, Any]]  # `round_results`
    _unscored: bool  # the match ended with a round not scored yet (`_end_unscored`)
    over: bool
    _result: dict[str, Any] | None
    _last: tuple[int, Move] | None
    round_no: int
    _leader1: int
    to_move: int | None
    played: list[tuple[int, Move]]
    events: list[tuple[Any, ...]]
    leader: int

    def _init_match(self, variant: Variant, players: int, seed: int, options: dict[str, Any],
                    rules: Any, mrules: MatchRules, deal: dict[str, Any] | None) -> None:
        self._match_setup(variant, players, rules, mrules)
        self._match_state(seed, options, deal)

    def _match_setup(self, variant: Variant, players: int, rules: Any, mrules: MatchRules
                     ) -> None:
        """What every match of one set-up (variant, players, options) shares and never
        changes."""
        self.variant = variant
        self.players = players
        self.rules = rules
        self.mrules = mrules
        self.scorers = scoring.units(players, rules.teams)

    def _match_state(self, seed: int, options: dict[str, Any], deal: dict[str, Any] | None
                     ) -> None:
        """A new match's own state: its seed, options and deal, no round played yet."""
        self.seed = seed
        self.options = options
        self.deal = deal
        self._rng = None
        self._rng_state = None
        self._totals = [self.mrules.start] * len(self.scorers)
        self.gone = []
        self._past = []  # (seat, move) of finished rounds
        self._scored = []
        self._rounds = []
        self._unscored = False
        self.over = False
        self._result = None
        self._last = None  # the last move of a finished round
        self.round_no = 1

    # -- hooks a family provides ------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The finished round: reason, winners, counts (per seat), hands..."""
        raise NotImplementedError

    def _next_round(self, last: dict[str, Any]) -> None:
        """Deal and start the next round after `last`."""
        raise NotImplementedError

    # -- the interface ------------------------------------------------------------

    @property
    def totals(self) -> list[int]:
        """Each scorer's total (`scorers`): a seat's, or a team's."""
        if self._unscored:
            self._settle()
        return self._totals

    @totals.setter
    def totals(self, value: list[int]) -> None:
        self._totals = value

    @property
    def round_results(self) -> list[dict[str, Any]]:
        """Each finished round's summary (the family's `summary()`, with its board, points and
        totals), in order."""
        if self._unscored:
            self._settle()
        return self._rounds

    @round_results.setter
    def round_results(self, value: list[dict[str, Any]]) -> None:
        self._rounds = value

    @property
    def moves(self) -> list[Move]:
        """Every move played so far, in order."""
        return [m for _, m in self._past] + [m for _, m in self.played]

    @property
    def turn(self) -> int:
        """How many moves have been played: a button carries it to be refused when stale."""
        return len(self._past) + len(self.played)

    @property
    def rng(self) -> random.Random:
        """The match's shuffler, made when first needed: from the seed, or from the state a
        copy was given (`_copy_match`)."""
        rng = self._rng
        if rng is None:
            state = self._rng_state
            if state is None or state.__class__ is int:
                rng = random.Random(self.seed if state is None else state)
            else:  # a generator's state (getstate): set in full, no seeding needed
                rng = random.Random.__new__(random.Random)
                rng.setstate(state)
            self._rng = rng
        return rng

    def _shallow_copy(self) -> Any:
        """A new match of this class sharing every slot's value with this one: the family's
        `copy()` then gives it its own lists and calls `_copy_match`."""
        if self._unscored:  # the copy shares nothing unscored
            self._settle()
        cls = type(self)
        new = cls.__new__(cls)
        try:
            slot_copier(cls)(self, new)
        except AttributeError:  # a slot not set: copy the others one by one
            for name in all_slots(cls):
                if hasattr(self, name):
                    setattr(new, name, getattr(self, name))
        return new

    def _copy_match(self, new: MatchBase) -> None:
        """Give a copy its own match-level lists and generator: this match's generator
        becomes a snapshot of its state (`rng` makes it again when needed), which the copy
        shares, so that copying a copy costs nothing more."""
        new._totals = self._totals[:]  # (scored: `_shallow_copy`)
        new.gone = self.gone[:]
        new._past = self._past[:]
        new._scored = self._scored[:]
        new._rounds = self._rounds[:]
        if self._rng is not None:  # both go on from a snapshot of its state, taken once
            self._rng_state = self._rng.getstate()  # (a copy makes its generator if it
            self._rng = None  # needs it: a playout seldom does; a new one costs 20 µs)
        new._rng = None
        new._rng_state = self._rng_state

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this match: `core.replay(record)`."""
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "variant": self.variant.slug,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "deal": None if self.deal is None else copy_deal(self.deal),
            "moves": [m.text for m in self.moves],
        }
        if self.over:
            rec["result"] = self.result
        return rec

    # -- rounds --------------------------------------------------------------------

    def _round_ended(self) -> None:
        """Score the round that just ended, then end the match or start the next round."""
        summary, live = self._score_round()
        round_no = self.round_no
        if self._match_ends() or scoring.match_over(self._totals, round_no, self.mrules, live):
            self.over = True
            self.to_move = None
            return
        self._past += self.played
        self.round_no = round_no + 1
        self._next_round(summary)
        self.events = [("round", round_no + 1, self.leader)]

    def _end_unscored(self) -> None:
        """End the match with the round that just ended, whatever it scores (a match of one
        round), leaving its scoring until `totals`, `round_results` or a copy first need it
        (`_settle`): self-play ends many matches that nobody reads."""
        self._unscored = True
        self.over = True
        self.to_move = None
        if self.played:
            self._last = self.played[-1]

    def _settle(self) -> None:
        """Score the round `_end_unscored` left, as `_round_ended` would have."""
        self._unscored = False
        self._score_round()

    def _score_round(self) -> tuple[dict[str, Any], list[int] | None]:
        """Score the round that just ended: its summary (kept in `round_results`) with its
        board, points and totals; (the summary, the scorers left in the match or None)."""
        summary = self.summary()
        summary["board"] = self._final_board()
        mrules = self.mrules
        scorers = self.scorers
        reason = summary["reason"]
        if reason == "target":  # ended by points scored during play
            points = [0] * len(scorers)
        else:
            worst = None
            if mrules.scoring == "worst":
                worst = summary["worst"] = self.scorer_of(self._round_order(summary)[-1])
            points = scoring.round_points(reason, summary["winners"], summary["counts"], mrules,
                                          scorers, worst)
        totals = self._totals
        if mrules.countdown:
            for i, p in enumerate(points):
                totals[i] -= p
        else:
            for i, p in enumerate(points):
                totals[i] += p
        summary["round"] = self.round_no
        summary["points"] = points
        summary["totals"] = totals[:]
        summary["in_play"] = self._scored  # the sheet is written when first read (`sheet`)
        self._scored = []
        live = None
        if mrules.reach == "loses" and mrules.target is not None:
            live = self.live_scorers()
            leave = scoring.leaving(totals, live, mrules)
            summary["gone"] = [s for i in leave for s in scorers[i]]
            self.gone += summary["gone"]
            live = [i for i in live if i not in leave]
        self._rounds.append(summary)
        played = self.played
        if played:
            self._last = played[-1]
        return summary, live

    def _match_ends(self) -> bool:
        """Does a family's own rule end the match with this round, whatever the totals?"""
        return False

    @property
    def result(self) -> dict[str, Any] | None:
        """None while the match goes on; then winners, scores, ranking (best first)."""
        if not self.over:
            return None
        if self._result is None:
            self._result = self._make_result()
        return copy_result(self._result)  # the caller's own: changing it changes nothing

    def _make_result(self) -> dict[str, Any]:
        last = self.round_results[-1]
        order = last["order"] if "order" in last else self._round_order(last)
        seat_totals = self.seat_scores()
        if self.mrules.single_round:
            winners = list(last["winners"])
            ranking = order
        else:
            best = scoring.best_scorers(self.totals, self.mrules, self.live_scorers())
            winners = sorted(s for i in best for s in self.scorers[i])
            ranking = scoring.ranking(seat_totals, order, self.mrules, self.gone)
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

    def _round_order(self, summary: dict[str, Any]) -> list[int]:
        """Seats best first in a finished round (a family may refine it)."""
        return scoring.round_order(summary)

    def scorer_of(self, seat: int) -> int:
        """The index of the scorer (lone seat or team) `seat` scores for."""
        if not self.rules.teams:
            return seat
        return next(i for i, unit in enumerate(self.scorers) if seat in unit)

    def live_scorers(self) -> list[int]:
        """Indexes of the scorers still in the match (none of their seats gone)."""
        gone = self.gone
        return [i for i, unit in enumerate(self.scorers) if unit[0] not in gone]

    def add_points(self, seat: int, points: int, why: str) -> bool:
        """Points scored during play by `seat` (for its team, if any): added to the
        match total (taken off with ``countdown``) and shown as a "score" event.
        True when they reach the target and the match rules say that ends the
        match at once (``mid_round``): the round is then finished as "target"."""
        i = self.scorer_of(seat)
        mrules = self.mrules
        totals = self._totals  # (a match with a round unscored is over: no points now)
        totals[i] += -points if mrules.countdown else points
        self.events.append(("score", seat, points, why))
        self._scored.append((seat, points, why))
        if mrules.mid_round and mrules.reach == "wins" and mrules.reached(totals[i]):
            self._finish("target", list(self.scorers[i]))
            return True
        return False

    def _finish(self, reason: str, winners: list[int]) -> None:
        """End the round now (the family's engine provides it)."""
        raise NotImplementedError

    def _final_board(self) -> Any:
        """The board as the round ends (public: the tiles laid, the ends, the layout), or
        what `_board_of` needs to build it when first read."""
        v = self.view(None)
        return {k: v.get(k) for k in ("board", "ends", "layout")}

    def _board_of(self, summary: dict[str, Any]) -> dict[str, Any]:
        """A finished round's final board (built from what `_final_board` kept)."""
        board: dict[str, Any] = summary["board"]
        return board

    def sheet(self, summary: dict[str, Any]) -> list[list[dict[str, Any]]]:
        """A finished round's score sheet (`score_sheet`), written when first read: self-play
        ends many rounds that nobody reads."""
        if "lines" not in summary:
            lines = score_sheet(summary["in_play"], summary["points"], summary, self.mrules,
                                self.scorers)
            summary["scored"] = [sum(x["points"] for x in unit) for unit in lines]
            summary["lines"] = lines
        lines: list[list[dict[str, Any]]] = summary["lines"]
        return lines

    def seat_scores(self) -> list[int]:
        """Each seat's match score (a team's score for each of its seats)."""
        out = [0] * self.players
        for i, unit in enumerate(self.scorers):
            for s in unit:
                out[s] = self.totals[i]
        return out

    # -- views ---------------------------------------------------------------------

    def _check_seat(self, seat: Any) -> None:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players
        ):
            raise OptionError(f"seat must be None or 0 to {self.players - 1} (got {seat!r})")

    def _match_view(self, seat: int | None, ts: TileSet) -> dict[str, Any]:
        """The keys every view has, whatever the layout."""
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
            "scores": self.seat_scores(),
            "teams": [list(t) for t in teams] if teams else None,
            "team_scores": self.totals[:] if teams else None,
            "target": self.mrules.target,
            "target_reach": self.mrules.reach,  # "wins" or "loses" (leaves the match)
            "rounds": self.mrules.rounds,
            "gone": self.gone[:],
            "last_move": None,
            "events": [event_dict(e, seat) for e in self.events],
            "options": dict(self.options),
            "over": self.over,
            "result": self.result,
            "last_round": (
                self._public_summary(self.round_results[-1], ts) if self.round_results else None
            ),
            "history": [{"round": r["round"], "scored": [sum(x["points"] for x in unit)
                                                          for unit in self.sheet(r)],
                         "totals": list(r["totals"])} for r in self.round_results],
        }
        last_move = self.played[-1] if self.played else (self._last if self.over else None)
        if last_move is not None:
            v["last_move"] = {"seat": last_move[0], "move": last_move[1].text}
        goal = match_goal(self.mrules)
        if goal:
            v["strip_extra"] = goal
        return v

    def _public_summary(self, summary: dict[str, Any], ts: TileSet) -> dict[str, Any]:
        """A finished round as the channel may see it (hands are shown once it ends)."""
        keys = ("round", "reason", "winners", "counts", "points", "totals")
        out = {k: summary[k] for k in keys}
        out["gone"] = list(summary.get("gone", ()))
        out["winners"] = list(out["winners"])
        out["order"] = self._round_order(summary)
        out["hands"] = [ts.mask_names(h) for h in summary["hands"]]
        out["pips"] = ts.masks_pips(summary["hands"])
        out["lines"] = [[dict(line) for line in lines] for lines in self.sheet(summary)]
        out["scored"] = list(summary["scored"])
        out["scorers"] = [list(unit) for unit in self.scorers]
        out["countdown"] = self.mrules.countdown
        summary["board"] = self._board_of(summary)
        out["board"] = summary["board"]
        return out


def add_legal(game: Any, view: dict[str, Any], seat: int | None) -> bool:
    """The view contract: put ``legal`` (the legal moves' texts, in their order) in `view`
    when `seat` is the seat to move, and nothing else; True when it did. A waiting seat's
    view and the public view get no ``legal``."""
    if seat is None or seat != game.to_move:
        return False
    view["legal"] = [m.text for m in game.legal_moves()]
    return True


def event_dict(event: tuple[Any, ...], viewer: int | None) -> dict[str, Any]:
    """An engine event as view data; drawn tiles are shown to the drawer only."""
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
    if kind == "score":
        return {"type": "score", "seat": event[1], "points": event[2], "why": event[3]}
    return {"type": kind, "seat": event[1]}
