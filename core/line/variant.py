"""The base of every line-game variant: options turned into `LineRules` and `MatchRules`.

A line-game variant is a small subclass of `LineVariant` that declares its
options and turns them into `LineRules` (how a round is played) and
`MatchRules` (how rounds are scored and when the match ends).
"""

from __future__ import annotations

from operator import is_
from typing import Any, ClassVar

from ..errors import bad_option
from ..moves import MAX_SEATS
from ..options import Option, resolve
from ..scoring import MatchRules
from ..variant import Variant, checked_seed
from .engine import LineRules
from .match import LineMatch as Match

Setup = tuple[dict[str, Any], LineRules, MatchRules, Match | None]

OPENING = Option(
    "opening", "highest", ("highest", "any"),
    help="highest: the highest double (else the heaviest tile) leads; "
    "any: seat 0 opens with any tile, later the last round's winner",
)


def default_hand(players: int) -> int:
    """The general rule of 000: 7 tiles at 2-3 players, 6 at 4, 5 at 5 and more."""
    return 7 if players <= 3 else 6 if players == 4 else 5


class LineVariant(Variant):
    """A variant played on one two-ended line with the shared engine.

    `match_class` is the match it builds: a subclass of `LineMatch` with
    hooks when the variant needs more than `LineRules` (see `core.line.engine`).
    """

    family = "line"
    match_class: ClassVar[type[Match]] = Match

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.max_players > MAX_SEATS:  # the engine records moves with `Move.by_seat`
            raise TypeError(f"{cls.__name__}: at most {MAX_SEATS} players in a line game")

    def __init__(self) -> None:
        self._setups: dict[Any, Setup] = {}
        # the last call's player count, options and set-up: a user makes match after match of
        # the same options, which are compared before they are hashed (`new`)
        self._last: tuple[int, dict[str, Any], Setup] = (0, {}, ({}, LineRules(), MatchRules(),
                                                                  None))

    def line_rules(self, players: int, o: dict[str, Any]) -> LineRules:
        raise NotImplementedError

    def match_rules(self, players: int, o: dict[str, Any]) -> MatchRules:
        return MatchRules()

    def new(self, players: int | None = None, seed: int | None = None,
            deal: dict[str, Any] | None = None, **options: Any) -> Match:
        """A new match; `deal` fixes the first round's hands and stock."""
        if players.__class__ is int and self.min_players <= players <= self.max_players:  # type: ignore[operator]
            n = players
        else:
            n = self.check_players(self.default_players if players is None else players)
        last_n, last_options, setup = self._last
        # the same options as the last call's: equal, and the very same values (True == 1,
        # yet strict=1 is refused)
        if not (n == last_n and options == last_options
                and all(map(is_, options.values(), last_options.values()))):
            setup = self._setup_of(n, options)
        opts, rules, mrules, blank = setup
        if deal is None and rules.hand * n > rules.tiles.size:
            raise bad_option(
                "{variant}: {n} hands of {hand} need {need} tiles, the set has {size}",
                variant=self.slug, n=n, hand=rules.hand, need=rules.hand * n,
                size=rules.tiles.size)
        if seed.__class__ is not int:
            seed = checked_seed(seed)
        if blank is not None:
            return blank.fresh(seed, dict(opts), deal)
        return self.match_class(self, n, seed, dict(opts), rules, mrules, deal)

    def _setup_of(self, n: int, options: dict[str, Any]) -> Setup:
        """The set-up of `n` players and these options, cached: `_setup` and a blank match."""
        try:  # the value types are in the key: True == 1, yet strict=1 is refused
            key = (n, *options.items(), *map(type, options.values()))
            setup = self._setups.get(key)
        except TypeError:  # an unhashable option value: checked (and refused) below
            key, setup = None, None
        if setup is None:
            opts, rules, mrules = self._setup(n, options)
            setup = opts, rules, mrules, self.match_class.blank(self, n, rules, mrules, dict(opts))
            if key is not None and len(self._setups) < 1024:
                self._setups[key] = setup
        self._last = n, dict(options), setup
        return setup

    def _setup(self, n: int, options: dict[str, Any]
               ) -> tuple[dict[str, Any], LineRules, MatchRules]:
        """Checked options and the rules they give (`new` caches them per player count and
        options, with a blank match whose set-up the matches of these options share)."""
        opts = resolve(self.slug, self.options, options)
        return opts, self.line_rules(n, opts), self.match_rules(n, opts)


def opening_rules(o: dict[str, Any]) -> dict[str, str]:
    """LineRules fields for the `opening` option and a default later lead."""
    if o.get("opening") == "any":
        return {"lead": "any", "later_lead": "winner"}
    return {}
