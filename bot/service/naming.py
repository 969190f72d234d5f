"""How the messages name a game and a move: a variant's name in the player's language, a
move's end in words, and a move as button data.  Below texts.py, families.py, assist.py and
the words of each family (words/), which all use them."""

from __future__ import annotations

from core import variants

from ..i18n import t
from .messages import MAX_DATA, action_data


def variant_name(slug: str, lang: str) -> str:
    names = variants.get(slug).names
    return names.get(lang, names["en"])


def move_data(table: int, turn: int, move: str) -> str:
    """The button data that plays `move`: the move as written, or, when that is over the
    64 bytes of a button, with the short end words the notation reads ("r-5-l" for
    "right-5-left")."""
    data = action_data(table, turn, "p", move)
    if len(data.encode()) <= MAX_DATA:
        return data
    words = move.split()
    words[-1] = "-".join(SHORT_ENDS.get(w, w) for w in words[-1].split("-"))
    return action_data(table, turn, "p", " ".join(words))


SHORT_ENDS = {"left": "l", "right": "r", "up": "u", "down": "b"}  # b: "bas" (d is "droite")


def end_label(lang: str, move: str) -> str:
    """"6-4 left" -> "6-4 on the left"; "6-4 up" -> "6-4 at the top"; a branch
    "9-4 up-2-left" -> "9-4 on the branch up-2-left" with the end words translated
    (the notation reads the French words too); other moves as they are written."""
    tile, _, end = move.partition(" ")
    arms = {"left": t(lang, "{tile} on the left", tile=tile),
            "right": t(lang, "{tile} on the right", tile=tile),
            "up": t(lang, "{tile} at the top", tile=tile),
            "down": t(lang, "{tile} at the bottom", tile=tile)}
    if end in arms:
        return arms[end]
    parts = end.split("-")
    if len(parts) > 1 and parts[0] in arms:
        words = {"left": t(lang, "left"), "right": t(lang, "right"), "up": t(lang, "up"),
                 "down": t(lang, "down")}
        path = "-".join(words.get(p, p) for p in parts)
        return t(lang, "{tile} on the branch {path}", tile=tile, path=path)
    return move
