"""The words of patience (the one-player game of pairs totalling 12).

The columns and the pairs removed, a removal, why a deal ended, the hint and its button,
and the result: won or lost, whether the deal could have been won, a winning line.
"""

from __future__ import annotations

from typing import Any

from ...i18n import t, tn
from .common import hand_lines as hand_lines  # the common one: the seat's tiles
from .common import seat_name


def move_label(move: str, view: dict[str, Any], lang: str) -> str:
    return " + ".join(move.split())


def word_label(head: list[str], word: str, view: dict[str, Any], whole: set[str],
               lang: str) -> str:
    return word


def summary_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    cols = view.get("columns") or []
    shown = " · ".join(
        (c["up"] or "—") + (f" (+{c['hidden']})" if c.get("hidden") else "") for c in cols)
    out = [t(lang, "Columns: {columns}", columns=shown)]
    removed = view.get("removed") or []
    out.append(tn(lang, "{n} pair removed.", "{n} pairs removed.", len(removed)))
    return out


# -- reasons, events and moves ------------------------------------------------------------------

def score_reason(why: str, lang: str) -> str | None:
    return None


def end_reason(reason: str, lang: str) -> str | None:
    return {"stuck": t(lang, "no pair totals 12"), "cleared": t(lang, "every tile is gone"),
            "no pair": t(lang, "the last tiles cannot pair")}.get(reason)


def event_line(e: dict[str, Any], view: dict[str, Any], names: list[str], lang: str
               ) -> str | None:
    if e.get("type") == "remove":
        who = seat_name(names, e["seat"]) if "seat" in e else ""
        return t(lang, "{who} removes {tiles}.", who=who, tiles=" + ".join(e.get("tiles", [])))
    return None


def move_line(view: dict[str, Any], names: list[str], lang: str, mover: int, move: str
              ) -> str | None:
    if "columns" in view:
        return ""  # the events say what was removed
    return None


# -- the private hand ----------------------------------------------------------------------

def ask(view: dict[str, Any], prefix: str, lang: str) -> str:
    return t(lang, "Remove two face-up tiles totalling 12.")


def hint_button(lang: str) -> str:
    return t(lang, "Hint")


def hint_line(move: str | None, lang: str) -> str:
    """The hint: a good player's move, or that there is none."""
    if move is None:
        return t(lang, "No hint: no pair totals 12.")
    return t(lang, "Hint: remove {move}.", move=move)


def play_label(move: str, lang: str) -> str:
    """The button that plays the hint."""
    return t(lang, "Play {move}", move=move_label(move, {}, lang))


# -- the result --------------------------------------------------------------------------------

def solo_outcome(result: dict[str, Any], moves: int, lang: str) -> str:
    """How a deal ended, in a few words: "won in 14 moves" or "lost after 6 moves"."""
    if result.get("winners"):
        return tn(lang, "won in {n} move", "won in {n} moves", moves)
    return tn(lang, "lost after {n} move", "lost after {n} moves", moves)


def result_lines(result: dict[str, Any], lang: str) -> list[str]:
    """How a deal ended and whether it could have been won (with a winning line)."""
    out: list[str] = []
    reason = str(result.get("reason", ""))
    won = bool(result.get("winners"))
    out.append(t(lang, "Game over: won ({reason}).", reason=end_reason(reason, lang) or reason)
               if won else t(lang, "Game over: lost ({reason}).",
                             reason=end_reason(reason, lang) or reason))
    if "winnable" in result:
        out.append(t(lang, "This deal could have been won.") if result["winnable"]
                   else t(lang, "This deal could not be won."))
    if result.get("solution") and not won:  # the line the search found
        out.append(t(lang, "A winning line: {moves}.", moves=", ".join(
            move_label(m, {}, lang) for m in result["solution"])))
    return out
