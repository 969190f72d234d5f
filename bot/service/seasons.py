"""Seasons: a server's leaderboard starts again every month or quarter (the `season` setting:
monthly, quarterly, or never, the default: one endless season), the past ones kept.

A season is named by its first day's month ("2026-10") or its quarter ("2026-Q4"), counted
in UTC from the game's finish time. Every rated game of a server is also rated in its month
and its quarter (season-stamped rating rows, bot/storage), whatever the setting, so that
switching the setting shows a full season at once. The global board has no seasons.
Also the player's page's lines below the ratings (`record_lines`: streaks, tournaments).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from ..i18n import t, tn
from ..storage import TournamentPlace

__all__ = ["KINDS", "SeasonError", "current_season", "parse_season", "record_lines",
           "season_arg", "season_error", "season_of", "seasons_of"]

KINDS = ("monthly", "quarterly", "never")  # the setting's values; never is the default
_NAME = re.compile(r"(\d{4})-(?:(\d{2})|q([1-4]))")


class SeasonError(ValueError):
    """A season name that is `malformed`, or in the `future` (`why`)."""

    def __init__(self, why: str, text: str) -> None:
        super().__init__(f"{why} season {text!r}")
        self.why, self.text = why, text


def season_of(at: float, kind: str | None) -> str:
    """The season holding the time `at` (seconds since the epoch, UTC): "2026-10" monthly,
    "2026-Q4" quarterly, "" for never (the endless season)."""
    day = time.gmtime(at)
    if kind == "monthly":
        return f"{day.tm_year:04d}-{day.tm_mon:02d}"
    if kind == "quarterly":
        return f"{day.tm_year:04d}-Q{(day.tm_mon - 1) // 3 + 1}"
    return ""


def seasons_of(at: float) -> tuple[str, str]:
    """The month and the quarter a game finished at `at` is rated in."""
    return season_of(at, "monthly"), season_of(at, "quarterly")


def current_season(now: float, setting: str | None) -> str:
    """The season a server's `top` shows now ("" when its setting is never or unset)."""
    return season_of(now, setting)


def parse_season(text: str, now: float) -> str:
    """A season name as a player writes it ("2026-10", "2026-q4"), checked: SeasonError
    `malformed`, or `future` for one that has not started at `now`."""
    text = str(text)
    clean = text.strip().lower()
    match = _NAME.fullmatch(clean)
    if match is None or (match[2] is not None and not 1 <= int(match[2]) <= 12):
        raise SeasonError("malformed", text)
    year = int(match[1])
    first_month = int(match[2]) if match[2] is not None else 3 * int(match[3]) - 2
    today = time.gmtime(now)
    if (year, first_month) > (today.tm_year, today.tm_mon):
        raise SeasonError("future", text)
    return f"{year:04d}-{int(match[2]):02d}" if match[2] else f"{year:04d}-Q{match[3]}"


def season_arg(args: Sequence[str]) -> tuple[list[str], str | None]:
    """A command's words without "season NAME", and NAME ("" when it is missing, which
    `parse_season` refuses; None without the word): `top classic season 2026-10`."""
    words = list(args)
    lowered = [w.lower() for w in words]
    if "season" not in lowered:
        return words, None
    i = lowered.index("season")
    name = words[i + 1] if i + 1 < len(words) else ""
    return words[:i] + words[i + 2:], name


def season_error(lang: str, exc: SeasonError) -> str:
    """What a player reads about a season name that cannot be shown."""
    if exc.why == "future":
        return t(lang, "Season {season} has not started yet.", season=exc.text.strip())
    return t(lang, "Unknown season \u201c{season}\u201d: write a month as 2026-10 or a quarter "
             "as 2026-Q4.", season=exc.text.strip())



def record_lines(games: int, current: int, best: int, places: Sequence[TournamentPlace],
                 lang: str) -> list[str]:
    """The player's page below the ratings: the streaks of won games against others (when
    the player has any such game), and the tournaments played with the best place (only
    when some are stored)."""
    lines = []
    if games:
        lines.append(tn(lang, "Current streak: {n} win in a row",
                        "Current streak: {n} wins in a row", current))
        lines.append(tn(lang, "Best streak: {n} win in a row", "Best streak: {n} wins in a row",
                        best))
    if places:
        lines.append(tn(lang, "{n} tournament played, best place: {place}",
                        "{n} tournaments played, best place: {place}", len(places),
                        place=min(p.place for p in places)))
    return lines
