"""The words of the stacking games: the tower and quinconce.

Where a tile goes ("on", "under", "next to", the four sides) and its fall risk on each
button (the risk from the seat's own view), the tower's height and falls, a crash and the
tiles it gives back, the sentence of a placement, and the hand's prompt.
"""

from __future__ import annotations

from typing import Any

from ...i18n import t, tn
from ..builder import PER_PAGE
from .common import hand_lines as hand_lines  # the common one: the seat's tiles
from .common import seat_name


def stack_word(word: str, lang: str) -> str:
    words = {"on": t(lang, "on"), "under": t(lang, "under"), "next": t(lang, "next to"),
             "east": t(lang, "east"), "west": t(lang, "west"), "north": t(lang, "north"),
             "south": t(lang, "south")}
    return words.get(word, word)


def stack_label(move: str, view: dict[str, Any], lang: str) -> str:
    """"6-2 on 4 east" -> "6-2 on 4 east · fall 2%" (the risk from the seat's view)."""
    text = " ".join(stack_word(w, lang) for w in move.split())
    risk = (view.get("risks") or {}).get(move)
    if risk is None:
        return text
    return t(lang, "{move} · fall {risk}%", move=text, risk=round(100 * float(risk)))


def lowest_risk(label: str, prefix: str, moves: set[str] | list[str], view: dict[str, Any],
                lang: str) -> str:
    """A step's button ("6-2", "on", "tile 3") with the lowest fall risk of the moves it
    leads to ("6-2 · from 2%"); as is when the view has no risks."""
    risks = view.get("risks") or {}
    found = [float(risks[m]) for m in moves if m.startswith(prefix + " ") and m in risks]
    if not found:
        return label
    return t(lang, "{word} · from {risk}%", word=label, risk=round(100 * min(found)))


def move_label(move: str, view: dict[str, Any], lang: str) -> str:
    return stack_label(move, view, lang)


def word_label(head: list[str], word: str, view: dict[str, Any], whole: set[str],
               lang: str) -> str:
    """The label of `word` after the words `head` of a placement being built."""
    text = " ".join([*head, word])
    if text in whole:
        return stack_label(text, view, lang).split(" ", len(head))[-1]
    shown = t(lang, "tile {n}", n=word) if head and len(head) == 2 and word.isdigit() \
        else stack_word(word, lang)
    return lowest_risk(shown, text, whole, view, lang)


def summary_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    out = [t(lang, "Height: {height} · falls so far: {falls}", height=view.get("height", 0),
             falls=view.get("falls", 0))]
    mode = view.get("mode")
    if mode:
        out.append(t(lang, "Next play: {mode}", mode=t(lang, "flat") if mode == "flat"
                     else t(lang, "on top")))
    return out


def count(value: Any) -> int:
    """A count given as a number or as the list of what is counted."""
    return value if isinstance(value, int) else len(value or [])


def score_reason(why: str, lang: str) -> str | None:
    return None


def end_reason(reason: str, lang: str) -> str | None:
    return None


def event_line(e: dict[str, Any], view: dict[str, Any], names: list[str], lang: str
               ) -> str | None:
    if e.get("type") == "fall":
        who = seat_name(names, e["seat"]) if "seat" in e else ""
        return tn(lang, "Crash! {n} tile falls: {who} takes it back.",
                  "Crash! {n} tiles fall: {who} takes them back.", count(e.get("tiles")),
                  who=who)
    return None


def move_line(view: dict[str, Any], names: list[str], lang: str, mover: int, move: str
              ) -> str | None:
    words = move.split()
    if "construction" in view and move != "pass" and len(words) > 1:
        return t(lang, "{who} plays {move}.", who=seat_name(names, mover), move=" ".join(
            stack_word(w, lang) for w in words))
    return None


def ask(view: dict[str, Any], prefix: str, lang: str) -> str:
    """What a stacking game's hand asks: a whole placement per button, each with its fall
    risk, or a step of one (a tile, then where), each button with the lowest risk it leads
    to."""
    legal = view.get("legal") or []
    if not view.get("risks"):
        return t(lang, "Choose a tile and where it goes.")
    if not prefix and len(legal) <= PER_PAGE:
        return t(lang, "Choose a tile and where it goes; each button says the fall risk.")
    return t(lang, "Choose a tile, then where it goes; each button says the lowest fall "
             "risk it leads to.")
