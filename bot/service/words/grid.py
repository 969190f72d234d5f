"""The words of the "20" game (vingt): tiles laid in lines that total 20 on a grid.

The directions of a play (→ right, ↓ down...), the markers each seat has left, the lines of
20 a play made, the sentence of a play, a new deal when nobody could open, the rack and the
prompts of the hand (why a seat must pass: ``view["pass_reason"]``), and the labels of its
best plays.
"""

from __future__ import annotations

from typing import Any

from ...i18n import t, tn
from ..builder import PER_PAGE
from .common import seat_name


def grid_word(word: str, lang: str) -> str:
    words = {"right": t(lang, "→ right"), "down": t(lang, "↓ down"), "left": t(lang, "← left"),
             "up": t(lang, "↑ up"), "pass": t(lang, "Pass")}
    return words.get(word, word)


def grid_label(move: str, lang: str) -> str:
    if move == "pass":
        return t(lang, "Pass")
    return " ".join(grid_word(w, lang) if w != "pass" else w for w in move.split())


def move_label(move: str, view: dict[str, Any], lang: str) -> str:
    """A play as a button; ``pass`` says why when it is the only move."""
    if move == "pass" and view.get("pass_reason") == "cannot_make_20":
        return t(lang, "You cannot make 20: pass")
    return grid_label(move, lang)


def word_label(head: list[str], word: str, view: dict[str, Any], whole: set[str],
               lang: str) -> str:
    return grid_word(word, lang)


def pips(words: list[str]) -> int:
    """The pips of the tiles among `words` ("5-3", "4-4", cells and directions skipped)."""
    total = 0
    for w in words:
        a, sep, b = w.partition("-")
        if sep and a.isdigit() and b.isdigit():
            total += int(a) + int(b)
    return total


def summary_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    markers = view.get("markers") or []
    out = [t(lang, "Markers left: {list}", list=" · ".join(
        f"{seat_name(names, s)} {n}" for s, n in enumerate(markers)))] if markers else []
    last = view.get("last_play")
    if last and last.get("lines"):
        out.append(t(lang, "Lines of 20: {lines}", lines=", ".join(
            f"{x['from']}–{x['to']}" for x in last["lines"])))
    return out


# -- reasons, events and moves ------------------------------------------------------------------

def score_reason(why: str, lang: str) -> str | None:
    return t(lang, "markers placed") if why == "markers" else None


def end_reason(reason: str, lang: str) -> str | None:
    return t(lang, "every marker is placed") if reason == "markers" else None


def event_line(e: dict[str, Any], view: dict[str, Any], names: list[str], lang: str
               ) -> str | None:
    if e.get("type") == "markers":
        who = seat_name(names, e["seat"]) if "seat" in e else ""
        return t(lang, "{who} places markers.", who=who)
    if e.get("type") == "redeal" and "markers" in view:  # a vingt view (tricks redeal too)
        return t(lang, "Nobody can make 20 to open: the tiles are dealt again, and {who} "
                 "starts.", who=seat_name(names, e["seat"]))
    return None


def move_line(view: dict[str, Any], names: list[str], lang: str, mover: int, move: str
              ) -> str | None:
    if "markers" in view and move != "pass" and len(move.split()) > 1:
        return t(lang, "{who} plays {move}.", who=seat_name(names, mover),
                 move=grid_label(move, lang))
    return None


# -- the private hand ----------------------------------------------------------------------

def hand_lines(view: dict[str, Any], moving: bool, lang: str) -> list[str]:
    """The rack and the seat's markers left."""
    lines = []
    hand = view.get("hand") or []
    if hand:
        lines.append(t(lang, "Your rack: {tiles}", tiles=", ".join(hand)))
    left = (view.get("markers") or [])
    if 0 <= (view.get("seat") or 0) < len(left):
        lines.append(t(lang, "Markers left: {n}", n=left[view["seat"]]))
    return lines


def ask(view: dict[str, Any], prefix: str, lang: str) -> str:
    """What vingt's hand asks: to pass when nothing else is possible, to choose a play when
    every play has its button, else to build one (a page cannot hold them all)."""
    legal = view.get("legal") or []
    if legal == ["pass"]:
        if view.get("pass_reason") == "cannot_make_20" and not view.get("board"):
            return t(lang, "You cannot make 20 with your rack to open the grid: pass. If "
                     "nobody can, the tiles are dealt again.")
        return t(lang, "You cannot make 20 with your rack: pass.")
    if len(legal) <= PER_PAGE:
        return t(lang, "Choose a play; the best ones say how many markers they place.")
    return t(lang, "Build a play: tiles, then the first cell and the direction; or take one "
             "of the best plays.")


def so_far(prefix: str, lang: str) -> str:
    """The total of the tiles chosen so far, after the words of the play being built."""
    return " · " + t(lang, "total {n}", n=pips(prefix.split()))


def best_label(move: str, markers: int, lang: str) -> str:
    """The button of one of the best plays."""
    return tn(lang, "Best: {move} ({n} marker)", "Best: {move} ({n} markers)", markers,
              move=grid_label(move, lang))
