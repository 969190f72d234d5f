"""The words and buttons of the service's messages, built from views, in French or English.

Public messages (the table message, the turn prompt) are built from the public view
``game.view(None)`` only; a hand message from its owner's view, and it goes to that owner only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core import variants

from .i18n import t, tn
from .messages import Action, Message, action_data

if TYPE_CHECKING:
    from core.moves import Move

    from .pictures import Pictures
    from .storage import TableRow
    from .tables import Table

PER_ROW = 5  # tile buttons per row


def variant_name(slug: str, lang: str) -> str:
    names = variants.get(slug).names
    return names.get(lang, names["en"])


def seat_label(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat}"


def events_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """What happened since the last decision, one sentence each."""
    out: list[str] = []
    for e in view.get("events", []):
        kind = e["type"]
        who = seat_label(names, e["seat"]) if "seat" in e else ""
        if kind == "draw":
            line = tn(lang, "{who} drew {n} tile.", "{who} drew {n} tiles.", e["count"], who=who)
            if "tiles" in e:
                line += " (" + ", ".join(e["tiles"]) + ")"
            out.append(line)
        elif kind == "pass":
            out.append(t(lang, "{who} cannot play and passes.", who=who))
        elif kind == "out":
            out.append(t(lang, "{who} played their last tile!", who=who))
        elif kind == "eliminated":
            out.append(t(lang, "{who} cannot play and is eliminated.", who=who))
        elif kind == "end":
            winners = ", ".join(seat_label(names, s) for s in e["winners"])
            reason = {
                "out": t(lang, "domino"),
                "blocked": t(lang, "the game is blocked"),
                "last": t(lang, "last player standing"),
            }.get(e["reason"], e["reason"])
            out.append(t(lang, "Round over ({reason}): {winners}.", reason=reason,
                         winners=winners))
        elif kind == "round":
            out.append(t(lang, "Round {round} begins; {who} leads.", round=e["round"],
                         who=seat_label(names, e["leader"])))
    return out


def table_summary(view: dict[str, Any], names: list[str], lang: str) -> str:
    """Scores and hand sizes, one line per seat, with whose turn it is."""
    lines = []
    head = t(lang, "Round {round}", round=view["round"])
    if view.get("target"):
        head += " · " + t(lang, "match to {target}", target=view["target"])
    head += " · " + t(lang, "stock: {n}", n=view.get("stock", 0))
    lines.append(head)
    for seat, size in enumerate(view.get("hand_sizes", [])):
        arrow = "▶ " if seat == view.get("to_move") else "  "
        lines.append(arrow + t(lang, "{who}: {n} tiles, {score} points",
                               who=seat_label(names, seat), n=size,
                               score=view["scores"][seat]))
    return "\n".join(lines)


def result_lines(result: dict[str, Any], names: list[str], lang: str) -> list[str]:
    winners = ", ".join(seat_label(names, s) for s in result["winners"])
    ranking = " > ".join(
        f"{seat_label(names, s)} ({result['scores'][s]})" for s in result["ranking"]
    )
    return [t(lang, "Game over. Winner: {winners}.", winners=winners),
            t(lang, "Ranking: {ranking}", ranking=ranking)]


def lobby_text(title: str, row: TableRow, lang: str) -> str:
    """The lobby: the seats, who hosts, the turn timer."""
    lines = [title, t(lang, "Waiting for players:")]
    for s in row.seats:
        host = " · " + t(lang, "host") if s.user_id == row.host else ""
        lines.append(f"{s.seat + 1}. {s.name}{host}")
    if row.timer:
        lines.append(t(lang, "Turn timer: {n} seconds.", n=row.timer))
    return "\n".join(lines)


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
    )


def table_messages(table: Table, pictures: Pictures, *, prompt: bool = False,
                   mover: int | None = None, move: Move | None = None) -> list[Message]:
    """The table message (lobby, game, or result), and with `prompt` the turn prompt of the
    human to move; public, in the table's language, from the public view only."""
    row = table.row
    lang = row.lang
    names = table.names()
    if row.status == "lobby" or table.game is None:
        return [Message(row.channel, lobby_text(title(table, lang), row, lang), kind="table",
                        table=row.id, actions=lobby_actions(row))]
    game = table.game
    view = game.view(None)
    image = pictures.public(view, names)
    lines = [title(table, lang)]
    if mover is not None and move is not None:
        lines.append(t(lang, "{who} plays {move}.", who=names[mover], move=str(move)))
    lines += events_lines(view, names, lang)
    turn = view["turn"]
    if game.over:
        lines += result_lines(game.result, names, lang)
        rematch = Action(t(lang, "Rematch"), action_data(row.id, turn, "m"), style="primary")
        return [Message(row.channel, "\n".join(lines), kind="result", table=row.id,
                        image=image, actions=(rematch,))]
    lines.append(table_summary(view, names, lang))
    actions = (Action(t(lang, "My hand"), action_data(row.id, turn, "h"), style="primary"),
               Action(t(lang, "Stop"), action_data(row.id, turn, "q"), style="danger"))
    out = [Message(row.channel, "\n".join(lines), kind="table", table=row.id, image=image,
                   actions=actions)]
    seat = game.to_move
    user = row.seats[seat].user_id
    if prompt and user and not table.is_ai(seat):
        out.append(Message(row.channel, t(lang, "{who}, your turn.", who=names[seat]),
                           kind="turn", table=row.id, image=image, mention=(user,)))
    return out


def hand_message(table: Table, seat: int, lang: str, pictures: Pictures) -> Message | None:
    """A human seat's private hand: its picture, one button per tile (enabled when legal; a
    tile that fits several ends asks which, verb "e"), then Draw, Pass or other moves."""
    game = table.game
    user = table.row.seats[seat].user_id
    if game is None or user is None or game.over or table.is_ai(seat):
        return None
    view = game.view(seat)
    legal = view.get("legal", [])
    turn = view["turn"]
    actions: list[Action] = []
    for tile in view["hand"]:
        placements = [m for m in legal if m.split()[0] == tile]
        if len(placements) > 1:
            data = action_data(table.id, turn, "e", tile)
        else:
            data = action_data(table.id, turn, "p", placements[0] if placements else tile)
        actions.append(Action(tile, data, style="primary" if placements else "secondary",
                              enabled=bool(placements), row=len(actions) // PER_ROW))
    tiles = set(view["hand"])
    last_row = -(-len(actions) // PER_ROW)
    for move in legal:
        if move.split()[0] in tiles:
            continue
        if move in ("draw", "pass"):
            verb, arg = ("d", "") if move == "draw" else ("x", "")
            label = t(lang, "Draw") if move == "draw" else t(lang, "Pass")
        else:
            verb, arg, label = "p", move, move
        actions.append(Action(label, action_data(table.id, turn, verb, arg), style="success",
                              row=last_row))
    if legal:
        text = t(lang, "Your hand at table #{id}. Your turn: choose a tile.", id=table.id)
    else:
        text = t(lang, "Your hand at table #{id}.", id=table.id)
    return Message(table.row.channel, text, to=user, kind="hand", table=table.id,
                   image=pictures.hand(view), actions=tuple(actions))


def ends_message(table: Table, seat: int, tile: str, lang: str, pictures: Pictures
                 ) -> Message | None:
    """The second step for a tile that fits several ends: one button per end.
    None when the tile cannot be played now."""
    game = table.game
    moves = [str(m) for m in game.legal_moves() if str(m).split()[0] == tile]
    user = table.row.seats[seat].user_id
    if not moves or user is None:
        return None
    turn = game.turn
    actions = [Action(end_label(lang, m), action_data(table.id, turn, "p", m), style="primary")
               for m in moves]
    return Message(table.row.channel, t(lang, "Which end for {tile}?", tile=tile), to=user,
                   kind="hand", table=table.id, image=pictures.hand(game.view(seat)),
                   actions=tuple(actions))


def end_label(lang: str, move: str) -> str:
    """"6-4 left" -> "6-4 on the left" (translated); other moves as they are written."""
    tile, _, end = move.partition(" ")
    if end == "left":
        return t(lang, "{tile} on the left", tile=tile)
    if end == "right":
        return t(lang, "{tile} on the right", tile=tile)
    return move


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
