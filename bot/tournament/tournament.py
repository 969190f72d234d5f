"""A tournament: register, pair a round, record results, drop, standings, serialise."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot.tournament import pairing
from bot.tournament.model import Config, Entrant, Round, Table, TournamentError
from bot.tournament.standings import Standing, knockout_winner, standings

MAX_ENTRANTS = 1024
VERSION = 1


class Tournament:
    """The whole state of one tournament; the caller stores `to_dict()` and words the news."""

    def __init__(self, config: Config, entrants: Iterable[Entrant] = (),
                 rounds: Iterable[Round] = (), bracket: list[str | None] | None = None,
                 closed: bool = False) -> None:
        self.config = config
        self.entrants: dict[str, Entrant] = {e.id: e for e in entrants}
        self.rounds: list[Round] = list(rounds)
        self.bracket = bracket  # knockout: the current round's slots, in bracket order
        self.closed = closed    # arena: no more pairings

    # registration and drops

    def add(self, entrant: str, members: Sequence[str] = ()) -> Entrant:
        """Register an entrant (seeded in order of registration) before the first round."""
        members = tuple(members) or (entrant,)
        if self.rounds:
            raise TournamentError("started")
        if entrant in self.entrants:
            raise TournamentError("already-registered", entrant=entrant)
        if len(self.entrants) >= MAX_ENTRANTS:
            raise TournamentError("full", limit=MAX_ENTRANTS)
        if len(members) != (2 if self.config.teams == "fixed" else 1):
            raise TournamentError("bad-members", entrant=entrant, members=members)
        taken = {m for e in self.entrants.values() for m in e.members}
        if taken & set(members):
            raise TournamentError("already-registered", entrant=entrant)
        e = Entrant(entrant, members, len(self.entrants) + 1)
        self.entrants[entrant] = e
        return e

    def remove(self, entrant: str) -> None:
        """Take a registration back before the first round; the others keep their order of
        registration as their seeds (1, 2, ...)."""
        if self.rounds:
            raise TournamentError("started")
        self._entrant(entrant)
        del self.entrants[entrant]
        for seed, e in enumerate(self._by_seed(), 1):
            e.seed = seed

    def drop(self, entrant: str) -> None:
        """The entrant leaves: never paired again (a table they sit at is theirs to forfeit)."""
        e = self._entrant(entrant)
        if e.dropped is None:
            e.dropped = len(self.rounds)

    def _entrant(self, entrant: str) -> Entrant:
        if entrant not in self.entrants:
            raise TournamentError("unknown-entrant", entrant=entrant)
        return self.entrants[entrant]

    def active(self) -> list[str]:
        """Entrants still in, by seed."""
        return [e.id for e in self._by_seed() if e.dropped is None]

    def _by_seed(self) -> list[Entrant]:
        return sorted(self.entrants.values(), key=lambda e: e.seed)

    # pairing

    @property
    def total_rounds(self) -> int | None:
        """Rounds the format will play (None for an arena)."""
        n = len(self.entrants)
        fmt = self.config.format
        if fmt == "swiss":
            return self.config.rounds
        if fmt == "round-robin":
            return n - 1 + n % 2
        if fmt == "knockout":
            return math.ceil(math.log2(n)) if n > 1 else 0
        return None

    @property
    def finished(self) -> bool:
        if self.config.format == "arena":
            return self.closed and all(r.done for r in self.rounds)
        return (bool(self.rounds) and len(self.rounds) == self.total_rounds
                and self.rounds[-1].done)

    def pair(self, waiting: Iterable[str] | None = None, now: float | None = None,
             rematch: bool = False) -> Round:
        """Pair the next round (an arena: the next wave, among `waiting`) and keep it.

        An arena pairs two who just met only when nobody else may come free, or `rematch`.
        """
        fmt = self.config.format
        if len(self.entrants) < 2:
            raise TournamentError("too-few-entrants", count=len(self.entrants))
        if fmt == "arena":
            rnd = self._pair_arena(waiting, now, rematch)
            if not rnd.tables:
                return rnd  # nobody to pair now: not a wave
        else:
            if self.rounds and not self.rounds[-1].done:
                raise TournamentError("round-not-finished", round=len(self.rounds))
            if len(self.rounds) >= (self.total_rounds or 0):
                raise TournamentError("finished")
            rnd = {"swiss": self._pair_swiss, "round-robin": self._pair_round_robin,
                   "knockout": self._pair_knockout}[fmt]()
        self.rounds.append(rnd)
        return rnd

    def _two_sided(self, pairs: Iterable[pairing.Pair]) -> Round:
        rnd = Round([])
        for a, b in pairs:
            if b is not None:
                rnd.tables.append(Table([[a], [b]]))
            elif self.config.fill:
                rnd.tables.append(Table([[a], [None]]))
            else:
                rnd.byes.append(a)
        return rnd

    def _pair_swiss(self) -> Round:
        cfg = self.config
        if cfg.per_table == 2:
            order = [e.id for e in self._by_seed()]
            absent = {e for e in order if self.entrants[e].dropped is not None}
            if len(order) - len(absent) < 2:
                raise TournamentError("too-few-entrants", count=len(order) - len(absent))
            pairs = pairing.dutch(order, self.rounds, cfg.rounds, absent)
            if pairs is not None:
                return self._two_sided(pairs)
        # bigger tables, or a Swiss past the point where repeats can be avoided
        return self._grouped(self._ranked(self.active()), self._met(last=False), byes=True)

    def _pair_round_robin(self) -> Round:
        order = [e.id for e in self._by_seed()]
        pairs: list[pairing.Pair] = []
        for a, b in pairing.berger(order, len(self.rounds) + 1):
            here = [e for e in (a, b) if e is not None and self.entrants[e].dropped is None]
            if len(here) == 2:
                pairs.append((here[0], here[1]))
            elif here:
                pairs.append((here[0], None))
        return self._two_sided(pairs)

    def _pair_knockout(self) -> Round:
        seed = {e.id: e.seed for e in self.entrants.values()}
        if self.bracket is None:
            order = [e.id for e in self._by_seed()]
            size = 1 << (len(order) - 1).bit_length()
            self.bracket = [order[s - 1] if s <= len(order) else None
                            for s in pairing.bracket_order(size)]
        else:
            last = self.rounds[-1]
            winners: list[str | None] = []
            for a, b in zip(self.bracket[::2], self.bracket[1::2], strict=True):
                table = next((t for t in last.tables if {a, b} & set(t.entrants())), None)
                if table is not None:
                    winners.append(knockout_winner(table, seed))
                else:  # a bye (the other slot empty or dropped), or nobody
                    winners.append(next((e for e in (a, b) if e in last.byes), None))
            self.bracket = winners
        rnd = Round([])
        for a, b in zip(self.bracket[::2], self.bracket[1::2], strict=True):
            here = [e for e in (a, b) if e is not None and self.entrants[e].dropped is None]
            if len(here) == 2:
                rnd.tables.append(Table([[here[0]], [here[1]]]))
            elif here:
                rnd.byes.append(here[0])
        return rnd

    def _pair_arena(self, waiting: Iterable[str] | None, now: float | None,
                    rematch: bool) -> Round:
        ends = self.config.ends_at
        if self.closed or (ends is not None and now is not None and now >= ends):
            raise TournamentError("arena-closed")
        busy = {e for r in self.rounds for t in r.tables if not t.done for e in t.entrants()}
        pool = (self.active() if waiting is None
                else list(dict.fromkeys(self._entrant(e).id for e in waiting)))
        pool = [e for e in pool if e not in busy and self.entrants[e].dropped is None]
        # an immediate rematch only when nobody else may come free (or when asked); the odd
        # ones left waiting are those the groups leave out (the lowest, if no rematch looms)
        strict = not rematch and any(e not in pool for e in self.active())
        return self._grouped(self._ranked(pool), self._met(last=True), byes=False,
                             strict=strict)

    def _grouped(self, ranked: list[str], met: Callable[[str, str], bool], byes: bool,
                 strict: bool = False) -> Round:
        """Score groups of a table's size; the odd ones sit out or meet computers."""
        cfg = self.config
        sizes, odd = pairing.table_sizes(len(ranked), cfg.per_table, cfg.fill and byes)
        if byes and not sizes:
            raise TournamentError("too-few-entrants", count=len(ranked))
        had = Counter(e for r in self.rounds for e in r.byes)
        sitting = sorted(reversed(ranked), key=lambda e: had[e])[:odd] if byes else []
        playing = [e for e in ranked if e not in sitting]
        groups = pairing.group_by_score(playing, sizes, met, strict=strict) or []
        first = Counter(t.seats()[0] for r in self.rounds for t in r.tables)
        partnered = Counter(frozenset(side) for r in self.rounds for t in r.tables
                            for side in t.sides if len(side) == 2)
        rng = random.Random(f"{cfg.seed}:{len(self.rounds) + 1}")
        tables = []
        for group in groups:
            seats: list[str | None] = [*group, *[None] * (cfg.per_table - len(group))]
            if cfg.side_size == 2:
                tables.append(Table(pairing.draw_partners(seats, partnered, rng)))
            else:
                seats.sort(key=lambda e: first[e] if e else math.inf)
                tables.append(Table([[e] for e in seats]))
        return Round(tables, sorted(sitting, key=ranked.index))

    def _met(self, last: bool) -> Callable[[str, str], bool]:
        """Who met whom: ever (a Swiss), or in each one's last game (an arena)."""
        met: dict[str, set[str]] = {e: set() for e in self.entrants}
        seen: set[str] = set()
        for r in reversed(self.rounds) if last else self.rounds:
            for t in r.tables:
                here = t.entrants()
                for a in here:
                    if not (last and a in seen):
                        met[a].update(here)
                if last:
                    seen.update(here)
        return lambda a, b: b in met[a]

    def _ranked(self, pool: Iterable[str]) -> list[str]:
        rank = {s.entrant: s.rank for s in self.standings()}
        return sorted(pool, key=rank.__getitem__)

    def seats(self, table: Table) -> list[str | None]:
        """The players (members' ids) in seat order, partners opposite; None: a computer."""
        if self.config.teams != "fixed":
            return table.seats()
        teams = [self.entrants[e].members if e else (None, None)
                 for side in table.sides for e in side]
        return [team[k] for k in range(2) for team in teams]

    # results

    def record(self, round_no: int, table_no: int, scores: Sequence[float],
               no_shows: Iterable[str] = ()) -> Table:
        """A table's result: one game score per side (higher is better), and who did not come."""
        if not 1 <= round_no <= len(self.rounds):
            raise TournamentError("unknown-round", round=round_no)
        tables = self.rounds[round_no - 1].tables
        if not 1 <= table_no <= len(tables):
            raise TournamentError("unknown-table", round=round_no, table=table_no)
        table = tables[table_no - 1]
        if table.done:
            raise TournamentError("already-recorded", round=round_no, table=table_no)
        absent = list(dict.fromkeys(no_shows))
        if not set(absent) <= set(table.entrants()):
            raise TournamentError("not-at-table", round=round_no, table=table_no)
        try:
            values = [float(s) for s in scores]
        except (TypeError, ValueError):
            raise TournamentError("bad-scores", scores=list(scores)) from None
        if len(values) != len(table.sides) or not all(math.isfinite(v) for v in values):
            raise TournamentError("bad-scores", scores=values)
        table.scores, table.no_shows = values, absent
        return table

    def close(self) -> None:
        """An arena's time is up: no more waves (the tables still playing count)."""
        self.closed = True

    def standings(self, rounds: int | None = None) -> list[Standing]:
        """The standings after the results in so far (of the first `rounds` rounds)."""
        return standings(self.config, self._by_seed(), self.rounds[:rounds])

    def podium(self) -> list[str]:
        """The first three once the tournament is over, else nothing."""
        return [s.entrant for s in self.standings()[:3]] if self.finished else []

    # storage

    def to_dict(self) -> dict[str, Any]:
        return {"version": VERSION, "config": self.config.to_dict(),
                "entrants": [e.to_dict() for e in self._by_seed()],
                "rounds": [r.to_dict() for r in self.rounds],
                "bracket": self.bracket, "closed": self.closed}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        if data.get("version") != VERSION:
            raise TournamentError("bad-version", version=data.get("version"))
        return cls(Config.from_dict(data["config"]),
                   [Entrant.from_dict(e) for e in data["entrants"]],
                   [Round.from_dict(r) for r in data["rounds"]],
                   data["bracket"], data["closed"])
