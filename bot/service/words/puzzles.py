"""The words of the puzzles (quadrille, réussite, the magic squares, triangle and star).

What is broken, the hints and their answers, placing a tile's halves on cells, removing,
giving up, the time a solve took, the result, and the puzzle's leaderboard (fastest
solves, fewest hints).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...i18n import t, tn
from ..naming import variant_name
from .common import seat_name

BOARD = 5  # lines of each list of the leaderboard


def hint_name(level: str, lang: str) -> str:
    return {"1": t(lang, "What is broken?"), "2": t(lang, "Can it still be solved?"),
            "3": t(lang, "A placement"), "4": t(lang, "A value")}.get(level, "?")


def puzzle_label(move: str, lang: str) -> str | None:
    words = move.split()
    if move == "give up":
        return t(lang, "Give up")
    if words[:1] == ["hint"]:
        if len(words) == 1:
            return t(lang, "Hints…")
        return t(lang, "Hint {n}: {what}", n=words[1], what=hint_name(words[1], lang))
    if words[:1] == ["remove"]:
        return t(lang, "Remove {cell}", cell=" ".join(words[1:])) if len(words) > 1 \
            else t(lang, "Remove…")
    if words[:1] == ["give"]:
        return t(lang, "Give up")
    return None


def move_label(move: str, view: dict[str, Any], lang: str) -> str:
    return puzzle_label(move, lang) or move


def word_label(head: list[str], word: str, view: dict[str, Any], whole: set[str],
               lang: str) -> str:
    """The label of `word` after the words `head`: a cell for a half of the tile chosen,
    else a hint, a removal or giving up."""
    if head and head[0] not in ("hint", "remove", "give") and len(head) in (1, 2):
        tile = head[0].split("-")
        half = tile[len(head) - 1] if len(tile) == 2 else "?"
        return t(lang, "{n} on {cell}", n=half, cell=word)
    return puzzle_label(" ".join([*head, word]), lang) or word


def broken_text(b: dict[str, Any], lang: str) -> str:
    template = b.get("template")
    if template:
        return t(lang, template, **b.get("values", {}))
    return str(b.get("text", ""))


def summary_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    out = [tn(lang, "{n} tile left to place", "{n} tiles left to place",
              view.get("tiles_left", 0)) + " · "
           + tn(lang, "{n} hint used", "{n} hints used", view.get("hints", 0))]
    broken = view.get("broken") or []
    for b in broken[:3]:
        out.append(t(lang, "Broken: {what}", what=broken_text(b, lang)))
    return out


# -- reasons and moves ----------------------------------------------------------------------

def score_reason(why: str, lang: str) -> str | None:
    return None


def end_reason(reason: str, lang: str) -> str | None:
    return {"solved": t(lang, "the puzzle is solved"),
            "gave up": t(lang, "given up")}.get(reason)


def event_line(e: dict[str, Any], view: dict[str, Any], names: list[str], lang: str
               ) -> str | None:
    return None


def move_line(view: dict[str, Any], names: list[str], lang: str, mover: int, move: str
              ) -> str | None:
    words = move.split()
    who = seat_name(names, mover)
    if words[:1] == ["hint"] and len(words) == 2:
        return t(lang, "{who} asks for hint {n}.", who=who, n=words[1])
    if move == "give up":
        return t(lang, "{who} gives up.", who=who)
    return None


# -- the private hand and the hints -----------------------------------------------------------

def hand_lines(view: dict[str, Any], moving: bool, lang: str) -> list[str]:
    return summary_lines(view, [], lang)


def ask(view: dict[str, Any], prefix: str, lang: str) -> str:
    return t(lang, "Choose a tile, then its cells; or a hint.")


def hint_text(answer: dict[str, Any], broken: list[dict[str, Any]], lang: str) -> str:
    """The solver's answer to a hint (`broken`: what is broken, to name in it)."""
    values = dict(answer.get("values") or {})
    if "what" in values and broken:
        values["what"] = broken_text(broken[0], lang)
    template = answer.get("template")
    text = t(lang, template, **values) if template else str(answer.get("text", ""))
    return t(lang, "Hint: {answer}", answer=text)


def hint_button(move: str, lang: str) -> str:
    """The button that plays a move of the answer."""
    return puzzle_label(move, lang) or t(lang, "Play {move}", move=move)


# -- the result and the leaderboard ------------------------------------------------------------

def duration(seconds: float, lang: str) -> str:
    whole = max(0, round(seconds))
    if whole < 60:
        return tn(lang, "{n} second", "{n} seconds", whole)
    return t(lang, "{m} min {s} s", m=whole // 60, s=whole % 60)


def solo_outcome(result: dict[str, Any], moves: int, lang: str) -> str:
    """How a puzzle ended, in a few words: "solved in 3 min 5 s", "given up after ..."."""
    took = result.get("seconds")
    when = duration(float(took), lang) if took is not None else None
    if result.get("reason") == "solved":
        return t(lang, "solved in {time}", time=when) if when else t(lang, "solved")
    return t(lang, "given up after {time}", time=when) if when else t(lang, "given up")


def result_lines(result: dict[str, Any], lang: str) -> list[str]:
    """A puzzle's result: the time and the hints of a solve, or given up."""
    if result.get("reason") == "solved":
        hints = result.get("hints", 0)
        if result.get("seconds") is None:  # the game's own result: the table timed it
            return [tn(lang, "Solved with {n} hint.", "Solved with {n} hints.", hints)]
        return [tn(lang, "Solved in {time} with {n} hint.",
                   "Solved in {time} with {n} hints.", hints,
                   time=duration(result["seconds"], lang))]
    return [t(lang, "Given up.")]


def leaderboard(slug: str, scope: str, rows: list[tuple[Any, str, str, dict[str, Any]]],
                lang: str) -> str:
    """The fastest solves and the solves with the fewest hints of a puzzle kind, each
    player's best only (`rows`: the store's solves, as `Store.solves` gives them)."""
    where = t(lang, "everywhere") if scope == "global" else t(lang, "here")
    lines = [t(lang, "Leaderboard ({what}, {where})", what=variant_name(slug, lang),
               where=where)]
    solves = [(user, name, r) for _, user, name, r in rows if r.get("reason") == "solved"]
    if not solves:
        lines.append(t(lang, "No solve yet."))
        return "\n".join(lines)
    def best(key: Callable[[dict[str, Any]], tuple[float, ...]]) -> list[tuple[str, dict]]:
        mine: dict[str, tuple[str, dict[str, Any]]] = {}
        for user, name, r in solves:
            if user not in mine or key(r) < key(mine[user][1]):
                mine[user] = (name, r)
        return sorted(mine.values(), key=lambda x: key(x[1]))[:BOARD]

    def secs(r: dict[str, Any]) -> float:
        return float(r["seconds"]) if r.get("seconds") is not None else float("inf")

    lines.append(t(lang, "Fastest solves:"))
    for i, (name, r) in enumerate(best(lambda r: (secs(r), r.get("hints", 0))), 1):
        took = duration(secs(r), lang) if r.get("seconds") is not None else "?"
        lines.append(t(lang, "{i}. {name}: {time} ({puzzle})", i=i, name=name, time=took,
                       puzzle=r.get("puzzle", "?")))
    lines.append(t(lang, "Fewest hints:"))
    for i, (name, r) in enumerate(best(lambda r: (r.get("hints", 0), secs(r))), 1):
        lines.append(tn(lang, "{i}. {name}: {n} hint ({puzzle})", "{i}. {name}: {n} hints "
                        "({puzzle})", r.get("hints", 0), i=i, name=name,
                        puzzle=r.get("puzzle", "?")))
    return "\n".join(lines)
