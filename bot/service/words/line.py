"""The words of the line games (draw, block, matador, K, muggins, the cross, Canton...).

Why a seat scored and why a round ended (the shared match's reasons: the ends count, the
pips left, a capture, a double cap...), the events of a line game (a draw, a chip paid, a
claim, Muggins!), the sentence of a move ("alice plays 6-4 left"), and the private hand's
prompts and the labels of its buttons (draw, pass, claim, buy).  A tile given back (Nombres)
is never named: the public view does not know it.
"""

from __future__ import annotations

from typing import Any

from ...i18n import end_words, t, tn
from .common import seat_label


def move_label(move: str, view: dict[str, Any], lang: str) -> str:
    return move


def word_label(head: list[str], word: str, view: dict[str, Any], whole: set[str],
               lang: str) -> str:
    return word


def summary_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    return []  # the seat lines and the status lines say it all


# -- reasons, events and moves ------------------------------------------------------------------

def score_reason(why: str, lang: str) -> str | None:
    """The reason of a "score" event ("ends 15", "capture 5-0+5-5", "lead"...) in words."""
    word, _, rest = why.partition(" ")
    if word == "ends":
        if rest:
            return t(lang, "the ends count {n}", n=rest)
        return t(lang, "the count of the ends")
    if word == "pips":
        return t(lang, "{n} pips left in the other hands", n=rest)
    if word == "capture":
        return t(lang, "capture of {tiles}", tiles=", ".join(rest.split("+")))
    fixed = {
        "lead": t(lang, "the opening tile"),
        "double cap": t(lang, "a double at one end, the same value at the other"),
        "triple cap": t(lang, "doubles at both ends of the same value"),
        "out": t(lang, "domino"),
        "blocked": t(lang, "winning the blocked game"),
        "laid": t(lang, "the pips of the tile laid"),
        "muggins": t(lang, "Muggins!"),
    }
    return fixed.get(why)


def end_reason(reason: str, lang: str) -> str | None:
    """Why a round ended, in words."""
    return {
        "out": t(lang, "domino"),
        "blocked": t(lang, "the game is blocked"),
        "last": t(lang, "last player standing"),
        "target": t(lang, "the target is reached"),
        "stock": t(lang, "the stock is empty"),
        "over": t(lang, "a tile went past the goal"),
        "turns": t(lang, "everyone had their turn"),
    }.get(reason)


def event_line(e: dict[str, Any], view: dict[str, Any], names: list[str], lang: str
               ) -> str | None:
    """An event of the line games as a sentence (None when not one of theirs)."""
    kind = e["type"]
    who = seat_label(names, e["seat"], lang) if "seat" in e else ""
    if kind == "draw":
        line = tn(lang, "{who} drew {n} tile.", "{who} drew {n} tiles.", e["count"], who=who)
        return line + (" (" + ", ".join(e["tiles"]) + ")" if "tiles" in e else "")
    if kind == "chip":
        return t(lang, "{who} pays a chip into the pot (pot: {pot}).", who=who,
                 pot=view.get("pot", "?"))
    if kind == "over":
        return t(lang, "{who} goes past {target}: that tile scores nothing.", who=who,
                 target=view.get("target"))
    simple = {
        "pass": t(lang, "{who} cannot play and passes.", who=who),
        "out": t(lang, "{who} played their last tile!", who=who),
        "eliminated": t(lang, "{who} cannot play and is eliminated.", who=who),
        "give": t(lang, "{who} gives a tile back to the stock.", who=who),
        "claim": t(lang, "{who} claims the points.", who=who),
        "muggins": t(lang, "{who} cries Muggins!", who=who),
        "decline": t(lang, "{who} leaves the capture on the table.", who=who),
    }
    return simple.get(kind)


def move_line(view: dict[str, Any], names: list[str], lang: str, mover: int, move: str
              ) -> str | None:
    """The sentence for a move just made, or None when its events say it all (the words
    of every move no family has a sentence of its own for)."""
    who = seat_label(names, mover, lang)
    word = move.split()[0] if move.split() else ""
    if word == "give":
        return None  # the "give" event says it, without the tile
    if word == "claim":
        return None  # the "score" event says how many
    if word == "muggins":
        return t(lang, "{who} cries Muggins!", who=who)
    if word == "buy":
        return t(lang, "{who} buys a tile from the stock.", who=who)
    if word == "pass":
        unclaimed = view.get("unclaimed") or {}
        if unclaimed.get("seat") == mover:
            return tn(lang, "{who} leaves {n} point unclaimed.",
                      "{who} leaves {n} points unclaimed.", unclaimed["points"], who=who)
        return None  # the "pass" event says it
    if word == "draw":
        return None
    return t(lang, "{who} plays {move}.", who=who, move=end_words(move, lang))


# -- the private hand ----------------------------------------------------------------------

def button_label(move: str, view: dict[str, Any], lang: str, claiming: bool) -> str:
    """The label of a move without a tile: draw, pass, claim, muggins, buy..."""
    if move == "draw":
        return t(lang, "Draw")
    if move == "pass":
        label = t(lang, "Do not claim") if claiming else t(lang, "Pass")
        if claiming and view.get("capture"):
            label = t(lang, "Leave them")
        return label
    points = (view.get("unclaimed") or view.get("capture") or {}).get("points", 0)
    labels = {
        "claim": tn(lang, "Claim {n} point", "Claim {n} points", points),
        "muggins": tn(lang, "Muggins! Take {n} point", "Muggins! Take {n} points", points),
        "buy": t(lang, "Buy a tile (1 chip)"),
    }
    return labels.get(move, move)


def hand_text(table_id: int, view: dict[str, Any], legal: list[str], lang: str) -> str:
    """What the hand message asks for: a tile to play or to give back, a claim, nothing."""
    if not legal:
        return t(lang, "Your hand at table #{id}.", id=table_id)
    if all(m.startswith("give ") for m in legal):
        return t(lang, "Your hand at table #{id}. Choose a tile to give back to the stock "
                 "(nobody else sees which).", id=table_id)
    capture = view.get("capture")
    if "claim" in legal and capture:
        return t(lang, "Your tile at table #{id} can capture {tiles} for {n} points: take them "
                 "(you play again), or leave them.", id=table_id,
                 tiles=", ".join(capture["tiles"]), n=capture["points"])
    if "claim" in legal:
        points = (view.get("unclaimed") or {}).get("points", 0)
        return tn(lang, "Your play at table #{id} scores {n} point: claim it, or the next "
                  "player may take it.", "Your play at table #{id} scores {n} points: claim "
                  "them, or the next player may take them.", points, id=table_id)
    return t(lang, "Your hand at table #{id}. Your turn: choose a tile.", id=table_id)


def which_end(tile: str, lang: str) -> str:
    """The second step for a tile with several legal moves."""
    return t(lang, "Which end for {tile}?", tile=tile)
