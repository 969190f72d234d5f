"""The web page's state beyond the board (docs/web-page.md): the family and the game's name,
the player panels, the turn timer, the move log, the result panel, the buttons beside the
moves (hint, give up, rematch, a new game, the review), a puzzle's free placement, and the
board in words.

`shared` is what every page of a table sees alike in one language (made from the public view
only: `game.view(None)`), kept per table, version and language so that a state sent to many
pages is made once; `personal` adds what depends on the page's seat (its own panel, its
buttons, its placements), from that seat's view.  Nothing here decides a rule: the Service
checks every move and every action.
"""

from __future__ import annotations

from typing import Any

from render.svg import board_svg

from ..i18n import t, tn, translator
from ..service import assist, families, words
from ..service.levels import level_word
from ..service.naming import variant_name
from ..service.review import reviewable
from ..storage import TableRow
from .log import MAX_BOOKS, LogBook

RESULT_WAIT = 8  # seconds a hand's or round's result stays over the board (a game's: for good)
HINT_LEVELS = ("1", "2", "3", "4")  # a puzzle's hints (the core's "hint N" move)


def title_of(row: TableRow, lang: str) -> str:
    """A table page's title: "#12 · Matador"."""
    return f"#{row.id} · {game_name(row.variant, lang)}"


def game_name(slug: str, lang: str) -> str:
    try:
        return variant_name(slug, lang)
    except Exception:
        return slug


def _score(view: dict[str, Any], seat: int, lang: str) -> tuple[str | None, int | None]:
    """A seat's score in words (its team's in a team game) and its team."""
    if words.family_of(view) in ("puzzle", "solitaire"):
        return None, None
    teams = view.get("teams") or []
    team = next((i for i, members in enumerate(teams) if seat in members), None)
    totals = view.get("team_scores")
    if team is not None and totals:
        score = totals[team]
    else:
        scores = view.get("scores") or []
        if seat >= len(scores):
            return None, team
        score = scores[seat]
    if view.get("target_unit") == "marks":
        return tn(lang, "{n} mark", "{n} marks", score), team
    return str(score), team


def seats(row: TableRow, view: dict[str, Any] | None, lang: str) -> list[dict[str, Any]]:
    """The player panels (`you` false: the page's own is marked by `personal`)."""
    sizes = (view or {}).get("hand_sizes") or []
    to_move = (view or {}).get("to_move") if view and not view.get("over") else None
    out = []
    for s in row.seats:
        score, team = _score(view, s.seat, lang) if view else (None, None)
        out.append({
            "seat": s.seat, "name": s.name, "you": False, "turn": to_move == s.seat,
            "count": sizes[s.seat] if s.seat < len(sizes) else None, "score": score,
            "team": team, "ai": level_word(s.ai, lang) if s.ai and not s.user_id else None,
            "away": bool(s.user_id and s.ai) or s.misses > 0, "label": ""})
    return out


def seat_label(panel: dict[str, Any], lang: str) -> str:
    """A panel in one sentence, for screen readers."""
    parts = [panel["name"] + (" " + t(lang, "(you)") if panel["you"] else "")]
    if panel["count"] is not None:
        parts.append(tn(lang, "{n} tile", "{n} tiles", panel["count"]))
    if panel["score"] is not None:
        parts.append(t(lang, "score {score}", score=panel["score"]))
    if panel["team"] is not None:
        parts.append(t(lang, "team {n}", n=panel["team"] + 1))
    if panel["ai"]:
        parts.append(t(lang, "computer, {level}", level=panel["ai"]))
    if panel["away"]:
        parts.append(t(lang, "away"))
    if panel["turn"]:
        parts.append(t(lang, "to play"))
    return ", ".join(parts) + "."


def result(public: dict[str, Any], names: list[str], lang: str, ended: bool
           ) -> dict[str, Any] | None:
    """The panel of what just ended (a hand, a round, the game), or None: from the end
    (`ended`: `LogBook.ended`) until a player makes a move of the next one (the computers'
    moves do not hide it: a page would never see it); for a game's end, for good."""
    over = bool(public.get("over"))
    ended = (ended or words.round_just_ended(public)) and bool(public.get("last_round"))
    if not over and not ended:
        return None
    family = words.family_of(public)
    last = public.get("last_round") if ended else None
    lines: list[str] = []
    try:
        if last:
            lines += words.sheet_lines(public, names, lang)
            if over:
                lines += words.match_lines(public, names, lang)
        if over and public.get("result"):
            lines += words.result_lines(public["result"], names, lang, public)
    except (KeyError, TypeError, ValueError):
        pass
    if over:
        kind, key, title = "game", "game", t(lang, "The game is over.")
    else:
        number = last["round"] if last else public.get("round")
        kind = "hand" if family == "tricks" else "round"
        key = f"r{number}"
        title = (t(lang, "Hand {n} is over.", n=number) if kind == "hand"
                 else t(lang, "Round {n} is over.", n=number))
    svg, hands = "", []
    if last and last.get("board"):  # the panel covers the board: it shows the ended one
        ended_board = {**public, **last["board"], "hand": [], "legal": [], "to_move": None}
        try:
            svg = board_svg(ended_board, translator(lang), names)
        except (KeyError, TypeError, ValueError):
            svg = ""
    if last and family != "tricks":  # a trick game's hands are all on the table
        pips = last.get("pips") or []
        hands = [{"seat": i, "name": words.seat_label(names, i, lang), "tiles": list(tiles),
                  "count": pips[i] if i < len(pips) else None}
                 for i, tiles in enumerate(last.get("hands") or [])]
    return {"key": key, "kind": kind, "title": title,
            "lines": [x.strip() for x in lines if x and x.strip()], "board_svg": svg,
            "hands": hands, "wait": None if over else RESULT_WAIT}


def shared(row: TableRow, game: Any, public: dict[str, Any], lang: str, log: LogBook
           ) -> dict[str, Any]:
    """What every page of the table sees alike, in `lang` (from the public view); its
    "log" is the log's JSON text (`with_log` puts it in a state's JSON)."""
    names = [s.name for s in row.seats]
    panels = seats(row, public, lang)
    return {
        "family": words.family_of(public), "variant": row.variant,
        "name": game_name(row.variant, lang), "seats": panels,
        "log": log.json(row, game, lang, public),
        "result": result(public, names, lang, log.ended(row, game, lang)),
        "alt": words.board_alt(public, names, lang),
    }


def timer(row: TableRow, game: Any, now: float) -> dict[str, Any] | None:
    """The turn timer of the seat to move, when the table has one running."""
    if not row.timer or row.deadline is None or game is None or game.over:
        return None
    return {"seat": game.to_move, "left": round(max(0.0, row.deadline - now), 1),
            "total": row.timer}


def actions(row: TableRow, game: Any, family: str, seat: int | None, lang: str,
            local: bool) -> list[dict[str, Any]]:
    """The buttons beside the moves for the page of `seat` (None: a spectator: none)."""
    if seat is None or game is None:
        return []
    out: list[dict[str, Any]] = []
    if not game.over:
        if family == "puzzle":
            out.append({"action": "hint", "label": t(lang, "Hint"), "levels": [
                {"level": int(n), "label": words.puzzles.hint_name(n, lang)}
                for n in HINT_LEVELS]})
            out.append({"action": "give-up", "label": t(lang, "Give up"),
                        "confirm": t(lang, "Give up this puzzle?"),
                        "yes": t(lang, "Give up"), "no": t(lang, "Keep playing")})
        elif family == "solitaire" or assist.hints_on(row):
            out.append({"action": "hint", "label": t(lang, "Hint")})
        return out
    out.append({"action": "rematch", "label": t(lang, "Rematch")})
    if reviewable(game):
        out.append({"action": "review", "label": t(lang, "Review my game against the "
                                                         "expert")})
    if local:
        out.append({"action": "new-game", "label": t(lang, "New game"), "url": "/"})
    return out


def place(game: Any, view: dict[str, Any]) -> dict[str, Any] | None:
    """A puzzle's free placement: the tiles still to place, the free cells, and each free
    cell's partners (the cells a tile may cover with it), from the core's own placements
    (`families.builder_moves`, kept per turn: the chat's builder offers the same)."""
    if view.get("over") or view.get("seat") is None:
        return None
    pairs: dict[str, set[str]] = {}
    for move in families.builder_moves(game, view):
        parts = move.split()
        if len(parts) == 3 and parts[0][:1].isdigit():
            pairs.setdefault(parts[1], set()).add(parts[2])
            pairs.setdefault(parts[2], set()).add(parts[1])
    cells = (view.get("layout") or {}).get("cells") or []
    order = {c: i for i, c in enumerate(cells)}
    free = sorted(pairs, key=lambda c: order.get(c, len(order)))
    return {"tiles": list(view.get("to_place") or []), "free": free,
            "pairs": {c: sorted(pairs[c], key=lambda x: order.get(x, len(order)))
                      for c in free}}


def personal(common: dict[str, Any], row: TableRow, game: Any, view: dict[str, Any],
             seat: int | None, lang: str, *, local: bool, now: float) -> dict[str, Any]:
    """The state's new fields for the page of `seat` (None: a spectator)."""
    panels = []
    for panel in common["seats"]:
        mine = {**panel, "you": panel["seat"] == seat}
        mine["label"] = seat_label(mine, lang)
        panels.append(mine)
    out = {**common, "spectator": seat is None, "seats": panels,
           "timer": timer(row, game, now),
           "actions": actions(row, game, common["family"], seat, lang, local)}
    if common["family"] == "puzzle":
        out["place"] = place(game, view)
    return out


def waiting(row: TableRow, lang: str, seat: int | None) -> dict[str, Any]:
    """The new fields of a table with no game (a lobby, or closed before its game)."""
    panels = seats(row, None, lang)
    for panel in panels:
        panel["you"] = panel["seat"] == seat
        panel["label"] = seat_label(panel, lang)
    return {"family": _family(row.variant), "variant": row.variant,
            "name": game_name(row.variant, lang), "spectator": seat is None, "seats": panels,
            "timer": None, "log": [], "result": None, "actions": [], "alt": ""}


def _family(slug: str) -> str:
    return words.family_of({"variant": slug})


LOG_MARK = "\x00log"  # the log's place in a state's JSON, filled with its text made once


class SharedStates:
    """`shared` made once per table, version and language, with its log as JSON text (a
    state's JSON puts it, or its new entries, in place of `LOG_MARK`: bot/web/outbox.py;
    the longest part is not written again for each page)."""

    def __init__(self) -> None:
        self.log = LogBook()
        self._made: dict[int, tuple[tuple[Any, ...], dict[str, tuple[dict[str, Any], str]]]] = {}

    def forget(self, table_id: int) -> None:
        self._made.pop(table_id, None)
        self.log.forget(table_id)

    def keep(self, watched: Any) -> None:
        """Forget the tables nobody watches any more (a page that comes back replays its
        table's moves again: a few milliseconds)."""
        for table_id in [x for x in self._made if x not in watched]:
            self.forget(table_id)

    @staticmethod
    def key(row: TableRow, game: Any) -> tuple[Any, ...]:
        """What a table's states are made from: the same key, the same states (but a turn
        timer's seconds left)."""
        return (id(game), len(game.moves), game.turn, game.over, row.status, row.deadline,
                tuple((s.name, s.ai, s.user_id, s.misses) for s in row.seats))

    def get(self, row: TableRow, game: Any, lang: str, public: dict[str, Any] | None = None
            ) -> tuple[dict[str, Any], str]:
        """`shared` (its log as `LOG_MARK`) and the log's JSON; `public`: the game's public
        view now, if the caller made it already."""
        key = self.key(row, game)
        made = self._made.get(row.id)
        if made is None or made[0] != key:
            if len(self._made) >= MAX_BOOKS:
                self._made.pop(next(iter(self._made)))
            made = self._made[row.id] = (key, {})
        if lang not in made[1]:
            public = game.view(None) if public is None else public
            common = shared(row, game, public, lang, self.log)
            log_json = common["log"]
            common["log"] = LOG_MARK
            made[1][lang] = (common, log_json)
        return made[1][lang]
