"""The service's messages, built from views, in French or English: the lobby, the table
message and the turn prompt, the line games' private hand and its buttons, the leaderboard's
lines and the rules pages in a chat.  Their words of each game family are in `words`.

Public messages (the table message, the turn prompt) are built from the public view
``game.view(None)`` only; a hand message from its owner's view, and it goes to that owner only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core import variants
from core.ai import levels_for

from ..i18n import t, tn
from . import families, words
from .assist import lobby_lines
from .levels import add_buttons
from .messages import Action, Message, action_data
from .naming import end_label, move_data, variant_name
from .rules_pages import ChatPage

if TYPE_CHECKING:
    from core.moves import Move

    from ..storage import LeaderRow, TableRow
    from .pictures import Pictures
    from .tables import Table

PER_ROW = 5  # tile buttons per row


def leader_line(i: int, row: LeaderRow, name: str, every_game: bool, lang: str) -> str:
    """A leaderboard's line; over every game, the rating is the player's best game's, named."""
    if every_game and row.variant:
        return tn(lang, "{i}. {name}: {rating:.1f} ({variant}; {n} game in all, "
                  "{rate:.0%} won)", "{i}. {name}: {rating:.1f} ({variant}; {n} games in "
                  "all, {rate:.0%} won)", row.games, i=i, name=name, rating=row.ordinal,
                  variant=variant_name(row.variant, lang), rate=row.win_rate)
    return tn(lang, "{i}. {name}: {rating:.1f} ({n} game, {rate:.0%} won)",
              "{i}. {name}: {rating:.1f} ({n} games, {rate:.0%} won)", row.games, i=i,
              name=name, rating=row.ordinal, rate=row.win_rate)


def lobby_text(title: str, row: TableRow, lang: str,
               reserved: dict[int, list[str]] | None = None) -> str:
    """The lobby: the seats (a seat a rematch keeps: its player, to confirm), who hosts,
    who may start, the turn timer."""
    lines = [title, t(lang, "Waiting for players:")]
    teams = lobby_teams(row)
    for s in row.seats:
        host = " · " + t(lang, "host") if s.user_id == row.host else ""
        team = ""
        if teams:
            n = next(i for i, tm in enumerate(teams, 1) if s.seat in tm)
            team = " · " + t(lang, "team {n}", n=n)
        name = s.name
        if reserved and s.seat in reserved and s.user_id is None and s.ai is None:
            name = t(lang, "{who} (to confirm: join)", who=reserved[s.seat][1])
        lines.append(f"{s.seat + 1}. {name}{team}{host}")
    if any(s.user_id is None and s.ai is None for s in row.seats):
        hosts = [s.name for s in row.seats if s.user_id == row.host]
        lines.append(t(lang, "{who} can start now (open seats get computer players); anyone "
                       "at the table can once every seat is taken.",
                       who=hosts[0] if hosts else t(lang, "host")))
    if row.timer:
        lines.append(t(lang, "Turn timer: {n} seconds.", n=row.timer))
    lines += lobby_lines(row, lang)
    return "\n".join(lines)


def lobby_teams(row: TableRow) -> list[list[int]] | None:
    """The teams of a table's game (partners sit facing each other), or None."""
    try:
        game = variants.get(row.variant).new(players=row.players, seed=0, **row.options)
    except Exception:  # a lobby is shown even if its options no longer make a game
        return None
    return game.view(None)["teams"]


def title(table: Table, lang: str) -> str:
    return f"#{table.id} · {variant_name(table.row.variant, lang)}"


def lobby_actions(row: TableRow) -> tuple[Action, ...]:
    lang = row.lang
    return (
        Action(t(lang, "Join"), action_data(row.id, 0, "j"), style="primary"),
        Action(t(lang, "Start"), action_data(row.id, 0, "s"), style="success"),
        Action(t(lang, "Add computer"), action_data(row.id, 0, "a")),
        Action(t(lang, "Remove computer"), action_data(row.id, 0, "r")),
        Action(t(lang, "Leave"), action_data(row.id, 0, "l"), style="danger"),
        *add_buttons(row.id, lang, levels_for(variants.get(row.variant))),
    )


def table_messages(table: Table, pictures: Pictures, *, prompt: bool = False,
                   mover: int | None = None, move: Move | None = None) -> list[Message]:
    """The table message (lobby, game, or result), and with `prompt` the turn prompt of the
    human to move; public, in the table's language, from the public view only."""
    row = table.row
    lang = row.lang
    names = table.names()
    if row.status == "lobby" or table.game is None:
        return [Message(row.channel, lobby_text(title(table, lang), row, lang, table.reserved),
                        kind="table", table=row.id, actions=lobby_actions(row))]
    game = table.game
    view = game.view(None)
    image = pictures.for_lang(lang).public(view, names)
    alt = words.board_alt(view, names, lang)  # the picture's text alternative
    said: list[str] = []
    if mover is not None and move is not None:
        line = words.move_line(view, names, lang, mover, str(move))
        said += [line] if line else []
    said += words.events_lines(view, names, lang)
    lines = [title(table, lang), *said]
    moved = tuple(said) if move is not None else ()  # a re-prompt says no move again
    turn = view["turn"]
    sheet = []
    if words.round_just_ended(view):  # the final board and the score sheet, after the table
        told = words.sheet_lines(view, names, lang)
        if game.over:
            told += words.match_lines(view, names, lang)
        drawn = [told[0], *told[2:]]  # the picture shows the hands as tiles
        sheet = [Message(row.channel, "\n".join(told), kind="board", table=row.id,
                         image=pictures.for_lang(lang).scoresheet(view, names, drawn))]
    if game.over:  # the move that ended it (the table message), then the sheet
        lines += words.result_lines(game.result, names, lang, view)
        solution = game.solution_view() if hasattr(game, "solution_view") else None
        if solution is not None:  # a given-up puzzle: its solution in the picture
            lines.append(t(lang, "The picture shows a solution."))
            image = pictures.for_lang(lang).public(solution, names)
        rematch = Action(t(lang, "Rematch"), action_data(row.id, turn, "m"), style="primary")
        return [Message(row.channel, "\n".join(lines), kind="result", table=row.id,
                        image=image, alt=alt, actions=(rematch,), said=moved), *sheet]
    lines.append(words.table_summary(view, names, lang))
    actions = (Action(t(lang, "My hand"), action_data(row.id, turn, "h"), style="primary"),
               Action(t(lang, "Stop"), action_data(row.id, turn, "q"), style="danger"))
    out = [Message(row.channel, "\n".join(lines), kind="table", table=row.id, image=image,
                   alt=alt, actions=actions, said=moved), *sheet]
    seat = game.to_move
    user = row.seats[seat].user_id
    if prompt and user and not table.is_ai(seat):
        out.append(Message(row.channel, t(lang, "{who}, your turn.", who=names[seat]),
                           kind="turn", table=row.id, mention=(user,), named=names[seat]))
    return out


def move_tile(move: str, tiles: set[str] | frozenset[str]) -> str | None:
    """The tile of `tiles` a move uses ("6-4 left", "9-4 up-2-left", "give 6-4"), or None
    for a move without a tile ("draw", "claim", "buy"...)."""
    return next((w for w in move.split() if w in tiles), None)


def word_action(table: int, turn: int, move: str, view: dict[str, Any], lang: str,
                row: int, claiming: bool) -> Action:
    """The button of a move without a tile: draw, pass, claim, muggins, buy..."""
    label = words.line.button_label(move, view, lang, claiming)
    if move == "draw":
        return Action(label, action_data(table, turn, "d"), style="success", row=row)
    if move == "pass":
        return Action(label, action_data(table, turn, "x"), style="success", row=row)
    return Action(label, move_data(table, turn, move), style="success", row=row)


def hand_message(table: Table, seat: int, lang: str, pictures: Pictures) -> Message | None:
    """A human seat's private hand: its picture, one button per tile (enabled when a legal
    move uses it: a tile laid, or given back; a tile with several legal moves asks which,
    verb "e"), then one button per other legal move (draw, pass, claim, muggins, buy)."""
    game = table.game
    if families.uses_builder(game):  # moves built a word at a time (bot/service/families.py)
        return families.hand_message(table, seat, lang, pictures)
    user = table.row.seats[seat].user_id
    if game is None or user is None or table.is_ai(seat):
        return None
    view = game.view(seat)
    if game.over:  # the hand as it ended, with no button left to press
        return Message(table.row.channel, t(lang, "Game #{id} is over.", id=table.id), to=user,
                       kind="hand", table=table.id, image=pictures.for_lang(lang).hand(view))
    legal: list[str] = view.get("legal", [])
    turn = view["turn"]
    tiles = frozenset(view["hand"])
    by_tile: dict[str | None, list[str]] = {}
    for move in legal:
        by_tile.setdefault(move_tile(move, tiles), []).append(move)
    claiming = "claim" in legal
    actions: list[Action] = []
    for tile in view["hand"]:
        moves = by_tile.get(tile, [])
        if len(moves) > 1:
            data = action_data(table.id, turn, "e", tile)
        else:
            data = move_data(table.id, turn, moves[0] if moves else tile)
        actions.append(Action(tile, data, style="primary" if moves else "secondary",
                              enabled=bool(moves), row=len(actions) // PER_ROW))
    last_row = -(-len(actions) // PER_ROW)
    actions += [word_action(table.id, turn, m, view, lang, last_row, claiming)
                for m in by_tile.get(None, [])]
    return Message(table.row.channel, words.line.hand_text(table.id, view, legal, lang),
                   to=user,
                   kind="hand", table=table.id, image=pictures.for_lang(lang).hand(view),
                   actions=tuple(actions))


def ends_message(table: Table, seat: int, tile: str, lang: str, pictures: Pictures
                 ) -> Message | None:
    """The second step for a tile with several legal moves (the ends it fits, whatever
    their names: left, up, up-2-left...): one button per move.  None when the tile
    cannot be played now."""
    game = table.game
    moves = [str(m) for m in game.legal_moves() if move_tile(str(m), {tile})]
    user = table.row.seats[seat].user_id
    if not moves or user is None:
        return None
    turn = game.turn
    actions = [Action(end_label(lang, m), move_data(table.id, turn, m), style="primary",
                      row=i // PER_ROW) for i, m in enumerate(moves)]
    return Message(table.row.channel, words.line.which_end(tile, lang), to=user,
                   kind="hand", table=table.id, image=pictures.for_lang(lang).hand(game.view(seat)),
                   actions=tuple(actions))


PARAGRAPH = re.compile(r"\n[ \t]*\n")


def split_text(text: str, size: int, render: Callable[[str], str] = str) -> list[str]:
    """`text` (Markdown, e.g. a rules page) in messages of at most `size` characters, cut at
    paragraph boundaries (blank lines), a paragraph too long at its line ends, a line too
    long anywhere.  `render` turns a paragraph or a line into what is sent (for example
    Telegram HTML): messages are measured after it, and a mark never spans two pieces."""
    out: list[str] = []
    current = ""
    for paragraph in PARAGRAPH.split(text.strip()):
        for piece, sep in _pieces(paragraph, size, render):
            if current and len(current) + len(sep) + len(piece) <= size:
                current += sep + piece
            else:
                if current:
                    out.append(current)
                current = piece
    return [*out, current] if current or not out else out


def _pieces(paragraph: str, size: int, render: Callable[[str], str]
            ) -> list[tuple[str, str]]:
    """A paragraph as (rendered piece, separator before it) pieces of at most `size`."""
    whole = render(paragraph)
    if len(whole) <= size:
        return [(whole, "\n\n")]
    out: list[tuple[str, str]] = []
    for line in paragraph.split("\n"):
        shown = render(line)
        cuts = [shown] if len(shown) <= size else [
            shown[i:i + size] for i in range(0, len(shown), size)]
        out += [(c, "\n\n" if not out else "\n") for c in cuts]
    return out


def rules_message(to: str, slug: str, page: ChatPage, section: str, lang: str) -> Message:
    """A rules page in a chat: the summary (no `section`) or one section, with a button for
    every section ("0:0:u:<slug>:<n>": no table), the one shown pressed."""
    names = [name or t(lang, "How to play") for name, _ in page.sections]
    shown = int(section) if section.isdigit() and int(section) < len(names) else None
    if shown is None:
        text = f"# {page.title}\n\n{page.summary}\n\n" + t(lang, "Read a part of the rules:")
    else:
        text = f"# {page.title} · {names[shown]}\n\n{page.sections[shown][1]}"
    actions = tuple(
        Action(name, action_data(0, 0, "u", f"{slug}:{i}"),
               "primary" if i == shown else "secondary", row=i // 3)
        for i, name in enumerate(names))
    return Message("", text, to=to, kind="rules", actions=actions)
