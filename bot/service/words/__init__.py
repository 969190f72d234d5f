"""The words the service says, one module per game family (as in core/): what happened, where
the game stands, a move as a button label or a sentence, the hand's prompts, the results.

`FAMILIES` is the registry: a family's name (``variant.family``) -> its words module, each
with the same functions (``move_label``, ``word_label``, ``summary_lines``, ``event_line``,
``move_line``, ``score_reason``, ``end_reason``; the families whose moves are built a word at
a time add ``hand_lines`` and ``ask``).  The functions below are what the rest of the
service calls: they pick the family, or ask each family in turn for the words of an event,
a reason or a move.  `common` holds what every family shares.

Public text is built from the public view only (``game.view(None)``), so nothing hidden can
be named; a hand's words from its owner's view, for that owner only.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from core import variants

from ...i18n import t, tn
from ..naming import end_label, variant_name
from . import common, grid, line, memory, puzzles, solitaire, stack, tricks
from .common import (
    goal_text,
    match_lines,
    ranking_text,
    round_just_ended,
    seat_label,
    seat_line,
    status_lines,
    team_result_lines,
    who_list,
)

if TYPE_CHECKING:
    from ..tables import Table

__all__ = [
    "FAMILIES", "board_alt", "clip", "end_reason", "event_line", "events_lines", "family_of",
    "goal_text", "hand_text", "last_move_line", "match_lines", "move_label", "move_line",
    "move_words", "ranking_text",
    "result_lines", "round_just_ended", "score_reason", "seat_label", "seat_line",
    "sheet_lines", "solo_history_line", "solo_stats_line", "status_lines", "summary_lines",
    "table_summary", "team_result_lines", "who_list", "word_label",
]

FAMILIES: dict[str, ModuleType] = {
    "line": line, "tricks": tricks, "stack": stack, "grid": grid, "memory": memory,
    "solitaire": solitaire, "puzzle": puzzles,
}
# the order in which the families are asked for the words of an event, a reason or a move
# (each answers only for its own): the line games' words, the shared match's, come first
ASKED = (line, tricks, stack, grid, memory, solitaire, puzzles)


def family_of(view: dict[str, Any]) -> str:
    """The core family of a view's variant ("line", "tricks", "puzzle"...)."""
    try:
        return variants.get(view.get("variant", "")).family
    except Exception:  # an unknown slug: treat it as a line game
        return "line"


def _words(family: str) -> ModuleType:
    return FAMILIES.get(family, line)


# -- buttons ---------------------------------------------------------------------------------

def move_label(family: str, move: str, view: dict[str, Any], lang: str) -> str:
    """A whole move as a button label."""
    return _words(family).move_label(move, view, lang)


def word_label(family: str, head: list[str], word: str, view: dict[str, Any],
               whole: set[str], lang: str) -> str:
    """The label of `word` after the words `head` of a move being built."""
    return _words(family).word_label(head, word, view, whole, lang)


def move_words(lang: str, move: str) -> str:
    """A move as a player reads it: "6-4 on the left", "draw", a trick game's "Bid 30" or
    "Trumps: fives" in the player's language."""
    words = {"draw": t(lang, "Draw"), "pass": t(lang, "Pass")}
    return words.get(move) or tricks.tricks_label(move, lang) or end_label(lang, move)


# -- what happened ---------------------------------------------------------------------------

def score_reason(why: str, lang: str) -> str:
    """The reason of a "score" event ("ends 15", "capture 5-0+5-5", "pair"...) in words."""
    return next((said for words in ASKED if (said := words.score_reason(why, lang))), why)


def end_reason(reason: str, lang: str) -> str:
    """Why a round ended, in words."""
    return next((said for words in ASKED if (said := words.end_reason(reason, lang))),
                reason)


def event_line(e: dict[str, Any], view: dict[str, Any], names: list[str], lang: str
               ) -> str | None:
    """One event of ``view["events"]`` as a sentence (None for an unknown kind)."""
    kind = e["type"]
    if kind == "score" and family_of(view) == "tricks":  # a team's hand
        return tricks.team_score_line(e, view, names, lang, score_reason(e["why"], lang))
    if kind == "score":
        return tn(lang, "{who} scores {n} point: {why}.", "{who} scores {n} points: {why}.",
                  e["points"], who=seat_label(names, e["seat"], lang),
                  why=score_reason(e["why"], lang))
    if kind == "end":
        return t(lang, "Round over ({reason}): {winners}.", reason=end_reason(e["reason"], lang),
                 winners=who_list(names, e["winners"], lang) or t(lang, "no winner"))
    if kind == "round":
        return t(lang, "Round {round} begins; {who} leads.", round=e["round"],
                 who=seat_label(names, e["leader"], lang))
    return next((said for words in ASKED
                 if (said := words.event_line(e, view, names, lang)) is not None), None)


def events_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """What happened since the last decision, one sentence each; then the seats that left
    the match in the round that just ended."""
    events = view.get("events", [])
    last = view.get("last_round")
    kinds = {e["type"] for e in events}
    out = []
    if last and "round" in kinds and "end" not in kinds:  # how the last round ended
        out.append(event_line({"type": "end", "reason": last["reason"],
                               "winners": last["winners"]}, view, names, lang) or "")
    out += [said for e in events if (said := event_line(e, view, names, lang)) is not None]
    if last and last.get("gone") and ("round" in kinds or "end" in kinds or view.get("over")):
        out.append(tn(lang, "{who} reached {target} and leaves the match.",
                      "{who} reached {target} and leave the match.", len(last["gone"]),
                      who=who_list(names, last["gone"], lang), target=view.get("target")))
    return out


def move_line(view: dict[str, Any], names: list[str], lang: str, mover: int, move: str
              ) -> str | None:
    """The sentence for a move just made, or None when its events say it all: a family's
    own sentence ("bids 30", "names trumps"), else the line games' ("plays 6-4 left")."""
    for words in ASKED[1:]:  # the line games' sentences are every other move's
        said = words.move_line(view, names, lang, mover, move)
        if said is not None:
            return said or None
    return line.move_line(view, names, lang, mover, move)


def last_move_line(view: dict[str, Any], names: list[str], lang: str) -> str | None:
    """The view's last move in words ("Bob plays 5-4 on the right."), or what its events
    say when the move has no sentence of its own (a draw, a pass); None before any move."""
    last = view.get("last_move") or {}
    if last.get("seat") is None or not last.get("move"):
        return None
    said = move_line(view, names, lang, last["seat"], str(last["move"]))
    if said:
        return said
    return next(iter(events_lines(view, names, lang)), None)


def clip(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, an ellipsis ending what was cut."""
    return text if len(text) <= limit else text[:max(0, limit - 1)].rstrip() + "…"


def board_alt(view: dict[str, Any], names: list[str], lang: str, limit: int = 1024) -> str:
    """The board in words and the last move: a picture's text alternative (the web page's
    board, the description of a picture posted on Discord), at most `limit` characters.
    Give it the public view (``game.view(None)``): it names what the table shows."""
    parts: list[str] = []
    if family_of(view) == "line":
        chain = (view.get("layout") or {}).get("chain") or view.get("board") or []
        parts.append(t(lang, "The line: {tiles}.", tiles=", ".join(map(str, chain)))
                     if chain else t(lang, "The board is empty."))
    parts += summary_lines(view, names, lang)
    said = last_move_line(view, names, lang)
    if said:
        parts.append(t(lang, "Last move: {move}", move=said))
    said_all = [p.strip() for p in parts if p and p.strip()]
    return clip(" ".join(p if p[-1] in ".!?…:" else p + "." for p in said_all), limit)


# -- where the game stands ---------------------------------------------------------------------

def summary_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The family's public state, for the table message."""
    return _words(family_of(view)).summary_lines(view, names, lang)


def table_summary(view: dict[str, Any], names: list[str], lang: str) -> str:
    """The round, how the match is won, the stock, the variant's running state (pot, ends
    count, round total...), then one line per seat with whose turn it is."""
    head = [t(lang, "Round {round}", round=view["round"])]
    goal = goal_text(view, lang)
    if goal:
        head.append(goal)
    is_tricks = family_of(view) == "tricks"  # no stock; the teams score
    if not is_tricks:
        head.append(t(lang, "stock: {n}", n=view.get("stock", 0)))
    lines = [" · ".join(head), *status_lines(view, names, lang),
             *summary_lines(view, names, lang)]
    for seat in range(len(view.get("hand_sizes", []))):
        arrow = "▶ " if seat == view.get("to_move") else "  "
        lines.append(arrow + (tn(lang, "{who}: {n} tile", "{who}: {n} tiles",
                                 view["hand_sizes"][seat], who=seat_label(names, seat, lang))
                              if is_tricks else seat_line(view, names, lang, seat)))
    return "\n".join(lines)


def hand_text(table: Table, family: str, view: dict[str, Any], prefix: str, moving: bool,
              lang: str) -> str:
    """The words of the hand message of a family whose moves are built a word at a time:
    what to do now, and the move built so far."""
    words = _words(family)
    built = common if words is line else words  # the line games have a hand of their own
    lines = [t(lang, "Your game at table #{id}.", id=table.id),
             *built.hand_lines(view, moving, lang)]
    if not moving:
        lines.append(t(lang, "Wait for your turn."))
        return "\n".join(lines)
    ask = built.ask(view, prefix, lang)
    if ask:
        lines.append(ask)
    if prefix:
        chosen = t(lang, "So far: {words}", words=prefix)
        if family == "grid":
            chosen += grid.so_far(prefix, lang)
        lines.append(chosen)
    return "\n".join(lines)


# -- results -----------------------------------------------------------------------------------

def sheet_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The score sheet of the round that just ended (a trick game's hand has its own)."""
    if "contract" in view["last_round"]:
        return tricks.sheet_lines(view, names, lang)
    return common.sheet_lines(view, names, lang)


def _solo(result: dict[str, Any]) -> ModuleType:
    """The words of a one-seat game's result: a puzzle's (it counts hints), or patience's."""
    return puzzles if "hint_levels" in result else solitaire


def result_lines(result: dict[str, Any], names: list[str], lang: str,
                 view: dict[str, Any] | None = None) -> list[str]:
    """Who won and the scores (`common.result_lines`); for one seat, a puzzle's time and
    hints, or how a patience ended and whether the deal could have been won."""
    if len(result["scores"]) == 1:  # one seat: a puzzle or a patience
        return _solo(result).result_lines(result, lang)
    return common.result_lines(result, names, lang, view)


def solo_history_line(row: Any, record: dict[str, Any], lang: str) -> str:
    """A one-seat game of the history (a `HistoryRow`, and its stored `record`): how it
    ended, with its time or its moves (no rank, no points: there was nobody to beat)."""
    result = record.get("result") or {}
    outcome = _solo(result).solo_outcome(result, len(record.get("moves") or []), lang)
    return t(lang, "#{id} · {variant} · {outcome}", id=row.table_id,
             variant=variant_name(row.variant, lang), outcome=outcome)


def solo_stats_line(row: Any, lang: str) -> str | None:
    """A one-seat game's line of the statistics (a `StatRow`): games, and how many were
    solved (a puzzle) or won (a patience), without a rating; None for other games."""
    try:
        variant = variants.get(row.variant)
    except Exception:
        return None
    if variant.max_players != 1:
        return None
    done = (tn(lang, "{n} solved", "{n} solved", row.wins) if variant.family == "puzzle"
            else tn(lang, "{n} won", "{n} won", row.wins))
    return t(lang, "{variant}: {games}, {done} ({rate:.0%})", variant=variant_name(
        row.variant, lang), games=tn(lang, "{n} game", "{n} games", row.games), done=done,
        rate=row.win_rate)
