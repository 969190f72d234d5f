"""The private hand message and the "e" presses of every family but the line games.

Their moves are built a word at a time with `builder.step_actions` (one button per legal move
when they fit on a page): bids and trumps (tricks), a tile then where it goes with its fall
risk (stack), a cell (memory), a pair (patience), a tile then its cells, removals, hints and
giving up (puzzles), tiles then a cell and a direction, plus the best few plays (vingt).  An
"e" press whose argument starts with "?" asks for something to see, not a move: the last
trick, a patience hint.  Also the rules of one-seat tables (a puzzle or a patience): no turn
timer, the time a solve took, the `helpers` option that lets anyone in the channel play, and
the hint answers of the puzzle solver, computed off the event loop.  What these messages say
is in each family's module of `words`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core.errors import bad_option

from ..i18n import t
from . import words
from .builder import choices, split_arg, step_actions
from .messages import Action, Message, action_data
from .tables import pop_switch

if TYPE_CHECKING:
    from .pictures import Pictures
    from .tables import Table

log = logging.getLogger("domino.families")

HINT_MOVES = ["hint 1", "hint 2", "hint 3", "hint 4"]
SEE = "?"  # an "e" argument that asks to see something: "?last", "?hint"
BEST = 3  # best plays offered in vingt
HANDLESS = {"memory"}  # no seat holds tiles: the hand message is words and buttons, no picture


def family(game: Any) -> str:
    variant = getattr(game, "variant", None)
    return getattr(variant, "family", "line") or "line"


def uses_builder(game: Any) -> bool:
    """True for a family whose moves are built with the generic builder."""
    return game is not None and family(game) != "line"


# -- table options and one-seat tables -------------------------------------------------------

def pop_table_options(variant: Any, opts: dict[str, Any]) -> dict[str, Any]:
    """Take the service's own options out of `opts` (`helpers=on`: anyone in the channel may
    play a one-seat game); an `OptionError` when one is wrong."""
    out: dict[str, Any] = {}
    helpers = pop_switch(opts, "helpers")
    if helpers is not None:
        if variant.max_players != 1:
            raise bad_option("helpers=on is for the games of one player (puzzles, patience)")
        out["helpers"] = helpers
    return out



def one_seat(table: Table) -> bool:
    return table.row.players == 1


def helps(table: Table, user_id: str) -> bool:
    """May `user_id`, not seated, play this table (a one-seat game with helpers on)?"""
    return one_seat(table) and bool(table.row.options.get("helpers")) and bool(user_id)


def untimed(table: Table) -> bool:
    """One-seat games have no turn timer (a puzzle takes the time it takes)."""
    return one_seat(table)


def stamp(table: Table, now: float) -> None:
    """Give a finished puzzle the time its solve took (from the table's opening)."""
    game = table.game
    if game is not None and game.over and hasattr(game, "seconds") and game.seconds is None:
        game.seconds = round(max(0.0, now - table.row.created_at), 1)


def helper_hand(table: Table, seat: int, user_id: str, lang: str, pictures: Pictures
                ) -> list[Message] | None:
    """The hand message of a one-seat game for a helper who asked for it (in the helper's
    language); None when `user_id` sits at the table (the usual hand message then)."""
    if table.seat_of(user_id) is not None or not helps(table, user_id):
        return None
    message = hand_message(table, seat, lang, pictures, to=user_id)
    return [message] if message else []


# -- the hand message --------------------------------------------------------------------------

# a puzzle game -> (its turn, the placements allowed then): a quadrille's take 70 ms
_PLACEMENTS: weakref.WeakKeyDictionary[Any, tuple[int, list[str]]] = weakref.WeakKeyDictionary()


def builder_moves(game: Any, view: dict[str, Any]) -> list[str]:
    """The moves the builder offers: the legal moves, and for a puzzle every placement
    allowed now (not only on the first free cell), removals, hints and giving up."""
    legal = list(view.get("legal", []))
    if family(game) != "puzzle":
        return legal
    known = _PLACEMENTS.get(game)
    if known is None or known[0] != game.turn:
        known = _PLACEMENTS[game] = (game.turn, [str(m) for m in game.placements()])
    others = [m for m in legal if not m[:1].isdigit() and m != "give up"]
    return HINT_MOVES + others + known[1] + ["give up"]


def labeller(fam: str, view: dict[str, Any], moves: list[str], prefix: str, lang: str
             ) -> Callable[[str], str]:
    """Button labels: a whole move, or the next word after `prefix`."""
    whole = set(moves)
    head = prefix.split()

    def name(text: str) -> str:
        if text in whole or " " in text:
            return words.move_label(fam, text, view, lang)
        return words.word_label(fam, head, text, view, whole, lang)
    return name


def extras(table: Table, game: Any, fam: str, view: dict[str, Any], lang: str, row: int
           ) -> list[Action]:
    """The buttons beside the move's: the last trick, a patience hint, vingt's best plays."""
    turn = view["turn"]
    out: list[Action] = []
    if fam == "tricks" and words.tricks.last_tricks(view):  # the last hand's, until a new one
        out.append(Action(words.tricks.last_trick_button(lang),
                          action_data(table.id, turn, "e", SEE + "last"), row=row))
    if fam == "solitaire" and view.get("legal"):
        out.append(Action(words.solitaire.hint_button(lang),
                          action_data(table.id, turn, "e", SEE + "hint"), row=row))
    if fam == "grid" and game.to_move == view.get("seat") and len(view.get("legal") or []) > 1:
        for play in best_plays(game):
            if play["move"] == "pass":
                continue
            label = words.grid.best_label(play["move"], len(play.get("markers") or []), lang)
            data = action_data(table.id, turn, "p", play["move"])
            if len(data.encode()) <= 64:
                out.append(Action(label, data, style="success", row=row + 1))
    return out


def merged(actions: list[Action], extra: list[Action]) -> list[Action]:
    """`actions` and the `extra` buttons, each action data once: an extra button that does
    what a button already does takes that button's place (vingt's "Best:" label on a play
    that has its own button), so a message never shows a play twice nor repeats a custom
    id (Discord refuses the whole message then)."""
    out = list(actions)
    where = {a.data: i for i, a in enumerate(out)}
    for a in extra:
        if a.data in where:
            i = where[a.data]
            out[i] = dataclasses.replace(a, row=out[i].row)
        else:
            where[a.data] = len(out)
            out.append(a)
    return out


def best_plays(game: Any) -> list[dict[str, Any]]:
    try:
        from core.ai.grid import best_plays as best
    except ImportError:
        return []
    try:
        return best(game, BEST)
    except Exception:
        log.exception("best plays failed")
        return []


def hand_message(table: Table, seat: int, lang: str, pictures: Pictures, arg: str = "",
                 to: str | None = None) -> Message | None:
    """The private message of a human seat: what to do, and the buttons of the next step of
    its move (`arg`: the words chosen so far and the page, as an "e" button carries them)."""
    game = table.game
    user = to or table.row.seats[seat].user_id
    if game is None or user is None or table.is_ai(seat):
        return None
    fam = family(game)
    view = game.view(seat)
    image = None if fam in HANDLESS else pictures.for_lang(lang).hand(view)
    if game.over:  # the hand as it ended, with no button left to press
        return Message(table.row.channel, t(lang, "Game #{id} is over.", id=table.id), to=user,
                       kind="hand", table=table.id, image=image)
    prefix, page = split_arg(arg)
    moving = game.to_move == seat
    moves = builder_moves(game, view) if moving else []
    name = labeller(fam, view, moves, prefix, lang)
    actions = step_actions(table.id, view["turn"], moves, prefix, lang, name, page)
    if not prefix and page == 0:
        actions = merged(actions, extras(table, game, fam, view, lang,
                                         -(-len(actions) // 5) if actions else 0))
    return Message(table.row.channel, words.hand_text(table, fam, view, prefix, moving, lang),
                   to=user,
                   kind="hand", table=table.id, image=image, actions=tuple(actions))


# -- an "e" press ---------------------------------------------------------------------------

async def press_step(table: Table, seat: int, user_id: str, turn: int, arg: str, lang: str,
                     pictures: Pictures) -> list[Message]:
    """The next step of a move being built (or what a "?" button shows), privately."""
    game = table.game
    channel = table.row.channel

    def error(text: str) -> list[Message]:
        return [Message(channel, text, to=user_id, kind="error", table=table.id)]

    if arg.startswith(SEE):
        return await see(table, seat, user_id, turn, arg[len(SEE):], lang, pictures)
    if turn != game.turn or game.to_move != seat:
        return error(t(lang, "This button is from an earlier turn; the game has moved on."))
    prefix, _ = split_arg(arg)
    moves = builder_moves(game, game.view(seat)) if prefix else []
    if prefix and prefix not in moves and not choices(moves, prefix):
        return error(t(lang, "That choice is not possible now."))
    message = hand_message(table, seat, lang, pictures, arg, to=user_id)
    if message is None:
        return error(t(lang, "That choice is not possible now."))
    return [message]


async def see(table: Table, seat: int, user_id: str, turn: int, what: str, lang: str,
              pictures: Pictures) -> list[Message]:
    """A "?" button: the last trick (public), or a patience hint (a good player's move)."""
    game = table.game
    channel = table.row.channel
    names = table.names()
    if what == "last" and family(game) == "tricks":
        public = game.view(None)
        text = words.tricks.last_trick_text(public, names, lang)
        image = (await asyncio.to_thread(pictures.for_lang(lang).last_trick, public, names)
                 if words.tricks.last_tricks(public) else None)
        return [Message(channel, text, to=user_id, kind="info", table=table.id, image=image)]
    if what == "hint" and family(game) == "solitaire":
        if turn != game.turn or game.to_move != seat:
            return [Message(channel, t(lang, "This button is from an earlier turn; the game "
                                       "has moved on."), to=user_id, kind="error",
                            table=table.id)]
        move = await asyncio.to_thread(_good_move, game.copy(), table.row.seed)
        if move is None:
            return [Message(channel, words.solitaire.hint_line(None, lang), to=user_id,
                            kind="info", table=table.id)]
        play = Action(words.solitaire.play_label(move, lang),
                      action_data(table.id, game.turn, "p", move), style="success")
        return [Message(channel, words.solitaire.hint_line(move, lang), to=user_id,
                        kind="info", table=table.id, actions=(play,))]
    return [Message(channel, t(lang, "This button is not valid any more."), to=user_id,
                    kind="error", table=table.id)]


def _good_move(game: Any, seed: int) -> str | None:
    from core.ai import make_player

    if not game.legal_moves():
        return None
    return str(make_player("greedy", seed).choose(game))


# -- after a move: the puzzle's hints ---------------------------------------------------------

async def after_move(table: Table, seat: int, move: Any, lang: str) -> list[Message]:
    """The answer to a puzzle's "hint N" move, computed off the event loop (the solver may
    take two seconds): to the player, or to the channel when anyone there may help."""
    game = table.game
    if family(game) != "puzzle" or getattr(move, "kind", None) != "hint":
        return []
    try:
        from core.solitaire.puzzles import solver
        answer = await asyncio.to_thread(solver.hint, game.copy(), int(move.level))
    except Exception:
        log.exception("table %s: hint failed", table.id)
        answer = {"template": "The solver ran out of time; try again after another move",
                  "values": {}}
    return [hint_message(table, seat, answer, lang)]


def hint_message(table: Table, seat: int, answer: dict[str, Any], lang: str) -> Message:
    game = table.game
    broken = answer.get("broken") or [b.as_dict(game.puzzle) for b in game.broken()]
    text = words.puzzles.hint_text(answer, broken, lang)
    turn = game.turn
    actions: list[Action] = []
    for move in ([answer["move"]] if answer.get("move") else []) + list(answer.get("remove", [])):
        data = action_data(table.id, turn, "p", move)
        if len(data.encode()) <= 64:
            actions.append(Action(words.puzzles.hint_button(move, lang), data, style="success",
                                  row=len(actions) // 5))
    row = table.row
    public = bool(row.options.get("helpers"))
    to = None if public else row.seats[seat].user_id
    return Message(row.channel, text, to=to, kind="info",
                   table=table.id, actions=tuple(actions))


def hint_lang(table: Table, seat: int, langs: dict[str, str]) -> str:
    """The language of a hint answer: the table's when it goes to the channel (helpers),
    else the player's."""
    if table.row.options.get("helpers"):
        return table.lang
    return langs.get(table.row.seats[seat].user_id or "", table.lang)


# -- one-seat games in a player's history, and the leaderboard of a puzzle --------------------

async def solo_history_line(store: Any, row: Any, lang: str) -> str:
    """A one-seat game of the history (a `HistoryRow`), in words from its stored record."""
    record = await store.game_record(row.table_id) or {}
    return words.solo_history_line(row, record, lang)


def puzzle_board(slug: str) -> bool:
    """Does `slug` have the puzzles' leaderboard (fastest solves, fewest hints)?"""
    from core import variants

    return variants.get(slug).family == "puzzle"


async def puzzle_leaderboard(store: Any, slug: str, scope: str, lang: str) -> str:
    """The fastest solves and the solves with the fewest hints of a puzzle kind, each
    player's best only."""
    return words.puzzles.leaderboard(slug, scope, await store.solves(slug, scope), lang)
