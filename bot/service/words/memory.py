"""The words of the memory game: cells turned up, pairs kept, tiles turned back.

No seat holds tiles: the hand message is these words and the cells' buttons.
"""

from __future__ import annotations

from typing import Any

from ...i18n import t, tn
from .common import seat_name


def move_label(move: str, view: dict[str, Any], lang: str) -> str:
    return move


def word_label(head: list[str], word: str, view: dict[str, Any], whole: set[str],
               lang: str) -> str:
    return word


def summary_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    out = [tn(lang, "{n} tile face down.", "{n} tiles face down.", view.get("face_down", 0))]
    turned = view.get("turned") or []
    if turned:
        out.append(t(lang, "Turned up: {tiles}", tiles=", ".join(
            f"{x['cell']} {x['tile']}" for x in turned)))
    for seat, kept in enumerate(view.get("kept") or []):
        if kept:
            out.append(t(lang, "{who} kept {tiles}", who=seat_name(names, seat),
                         tiles=", ".join(kept)))
    return out


# -- reasons, events and moves ------------------------------------------------------------------

def score_reason(why: str, lang: str) -> str | None:
    return t(lang, "a pair") if why == "pair" else None


def end_reason(reason: str, lang: str) -> str | None:
    return None


def event_line(e: dict[str, Any], view: dict[str, Any], names: list[str], lang: str
               ) -> str | None:
    kind = e.get("type")
    who = seat_name(names, e["seat"]) if "seat" in e else ""
    if kind == "turn_up":
        if "cell" in e:
            return t(lang, "{who} turns up {cell}: {tile}.", who=who, cell=e["cell"],
                     tile=e["tile"])
        return t(lang, "{tile} is turned up.", tile=e["tile"])
    if kind == "back":
        return t(lang, "No pair: the tiles are turned back.")
    if kind == "keep":
        return t(lang, "{who} keeps the pair.", who=who)
    return None


def move_line(view: dict[str, Any], names: list[str], lang: str, mover: int, move: str
              ) -> str | None:
    if "face_down" in view:
        return ""  # the events say what was turned up
    return None


# -- the private hand ----------------------------------------------------------------------

def hand_lines(view: dict[str, Any], moving: bool, lang: str) -> list[str]:
    turned = view.get("turned") or []
    if len(turned) == 1 and moving:  # the first tile of the turn, shown turned up
        return [t(lang, "Turned up: {tiles}. Turn up a second cell.", tiles=", ".join(
            f"{x['cell']} {x['tile']}" for x in turned))]
    return []


def ask(view: dict[str, Any], prefix: str, lang: str) -> str:
    return t(lang, "Turn up a cell.") if len(view.get("turned") or []) != 1 else ""
