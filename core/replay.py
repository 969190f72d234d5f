"""Rebuild a match from its record, checking every move on the way."""

from __future__ import annotations

from typing import Any

from .errors import IllegalMove, OptionError
from .match import RECORD_FORMAT, MatchBase
from .variants import get


def replay(record: dict[str, Any]) -> MatchBase:
    """The match a record describes; `IllegalMove` names the first bad move."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise OptionError(f"not a game record (expected format {RECORD_FORMAT!r})")
    variant = get(record["variant"])
    game = variant.new(
        players=record["players"],
        seed=record["seed"],
        deal=record.get("deal"),
        **record.get("options", {}),
    )
    for i, text in enumerate(record.get("moves", []), 1):
        try:
            game.play(game.parse_move(text))
        except IllegalMove as exc:
            raise IllegalMove(f"move {i} ({text!r}): {exc}") from None
    return game
