"""The web table's state: what the page shows of one view, as JSON (`state_payload`).

Made from the given view (a seat's, or the public one), the seats' names and the language
only: the board as SVG (`render.svg.board_svg`), the seat's hand, its legal moves each read
into the tile it uses and the target it goes to (`render.svg.move_parts`, the KEYs the SVG
carries), the moves without a tile as buttons, and the table's status in words. A public
view has no hand and no moves. Nothing here decides a rule: the server checks every move.
"""

from __future__ import annotations

from typing import Any

from render.geometry import parse_tile
from render.svg import board_svg, move_parts, tile_svg

from ..i18n import t, tn, translator
from ..service import words
from ..service.naming import end_label
from ..service.words import result_lines, table_summary

WORD_LABELS = {"draw": "Draw", "pass": "Pass", "buy": "Buy a tile (1 chip)",
               "give up": "Give up"}


def _button_label(family: str, move: str, view: dict[str, Any], lang: str) -> str:
    points = (view.get("unclaimed") or view.get("capture") or {}).get("points", 0)
    if move in WORD_LABELS:
        return t(lang, WORD_LABELS[move])
    if move == "claim":
        return tn(lang, "Claim {n} point", "Claim {n} points", points)
    if move == "muggins":
        return tn(lang, "Muggins! Take {n} point", "Muggins! Take {n} points", points)
    return words.move_label(family, move, view, lang)


def _move_label(family: str, move: str, view: dict[str, Any], lang: str) -> str:
    if family == "line":
        return end_label(lang, move)
    return words.move_label(family, move, view, lang)


def _lines(view: dict[str, Any], names: list[str], lang: str, family: str) -> list[str]:
    """The status: the table's summary as the chat writes it (a puzzle's and a patience's
    own lines: one seat, no round nor stock), then the result once it is over."""
    lines: list[str] = []
    if family in ("puzzle", "solitaire"):
        lines = words.summary_lines(view, names, lang)
    else:
        try:
            lines = table_summary(view, names, lang).split("\n")
        except (KeyError, TypeError, ValueError):
            lines = words.summary_lines(view, names, lang)
    if view.get("over"):
        result = view.get("result")
        try:
            lines += result_lines(result, names, lang, view) if result else []
        except (KeyError, TypeError, ValueError):
            result = None
        if not result:
            lines.append(t(lang, "The game is over."))
    return [line.strip() for line in lines if line.strip()]


def sorted_hand(tiles: list[str], view: dict[str, Any], family: str) -> list[str]:
    """A hand as a player sorts it: in a trick game, the trumps first when they are named (a
    suit's double, then the rest highest first; or the doubles), then each suit highest
    first (a tile's suit is its high end); in other games by suit and value."""
    trumps = view.get("trumps") if family == "tricks" else None

    def key(tile: str) -> tuple[int, int, int]:
        a, b = parse_tile(tile)
        high, low = max(a, b), min(a, b)
        if isinstance(trumps, int) and not isinstance(trumps, bool) and trumps in (a, b):
            other = low if high == trumps else high
            return (0, 0 if a == b else 1, -other)
        if trumps == "doubles" and a == b:
            return (0, 0, -a)
        return (1, -high, -low)
    try:
        return sorted(tiles, key=key)
    except ValueError:  # not tiles: as the view gives them
        return tiles


def state_payload(view: dict[str, Any], *, names: list[str], lang: str) -> dict[str, Any]:
    """The JSON the page shows for `view` (see docs in the web contract)."""
    seat = view.get("seat")
    family = words.family_of(view)
    legal = [str(m) for m in view.get("legal") or []] if seat is not None else []
    moves, buttons = [], []
    for move in legal:
        tile, target = move_parts(view, move)
        if tile is None and target is None:
            buttons.append({"move": move, "label": _button_label(family, move, view, lang)})
            continue
        label = _move_label(family, move, view, lang)
        moves.append({"move": move, "tile": tile, "target": target, "label": label})
        if target and family == "solitaire" and len(target.split()) == 2:  # either order
            a, b = target.split()
            moves.append({"move": move, "tile": tile, "target": f"{b} {a}", "label": label})
    playable = {m["tile"] for m in moves if m["tile"]}
    hand = []
    if seat is not None:
        hand = [{"tile": x, "label": x, "playable": x in playable,
                 "svg": tile_svg(*parse_tile(x))}
                for x in sorted_hand([str(x) for x in view.get("hand") or []], view, family)]
    return {
        "seat": seat,
        "board_svg": board_svg(view, translator(lang), names),
        "hand": hand,
        "moves": moves,
        "buttons": buttons,
        "lines": _lines(view, names, lang, family),
        "names": list(names),
        "to_move": view.get("to_move"),
        "over": bool(view.get("over")),
    }


def page_strings(lang: str) -> dict[str, str]:
    """The page's own words (the config's ``"strings"``), in `lang`."""
    return {
        "connecting": t(lang, "Connecting…"),
        "connected": "",
        "reconnecting": t(lang, "Connection lost: reconnecting…"),
        "cancel": t(lang, "Cancel"),
        "choose": t(lang, "Choose:"),
        "hand": t(lang, "Your hand"),
        "board": t(lang, "The table"),
        "zoom": t(lang, "Zoom"),
        "outside_telegram": t(lang, "Open this page from Telegram."),
        "launch_refused": t(lang, "Telegram's launch data was refused; open the app again."),
        "no_table": t(lang, "Open the web table from a table's message."),
        "review": t(lang, "Review my game against the expert"),
        "reviewing": t(lang, "Reviewing the game: this takes a few seconds…"),
    }
