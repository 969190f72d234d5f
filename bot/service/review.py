"""A finished game reviewed for one of its players, privately (`/domino review`).

For each of the player's moves that was a choice (more than one legal move), the position is
rebuilt from the record (`core.replay` of the start, then the record's moves one by one),
and from the player's own seat only (its view and imagined deals, never another hand):
the move the `expert` computer would have played there, and the chance of winning the
round after the move played and after the expert's (`core.ai.chances.win_chances`, the share
of the searcher's playouts won; in the trick games, the share of the hands the player's team
wins, its contract made or set).  The three moves that lost the most chance are shown, the
biggest with a picture of its position (the public board and the player's own hand).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core import replay
from core.ai import make_player
from core.ai.chances import imaginable, win_chances

from ..i18n import N_, t, tn
from . import thinking
from .messages import Message
from .words import move_words

if TYPE_CHECKING:
    from ..storage import Store, TableRow
    from .pictures import Pictures

WORLDS = 32  # imagined deals per position (the expert's own choice uses its own number)
SHOWN = 3  # the biggest mistakes shown
MAX_LINES = 40  # moves listed in the text (the mistakes are always there)


@dataclass(frozen=True)
class Decision:
    """One of the player's choices: the move number (1 = the game's first move)."""

    number: int
    played: str
    expert: str
    chance_played: float
    chance_expert: float

    @property
    def loss(self) -> float:
        """The chance of winning the move gave away against the expert's choice."""
        return self.chance_expert - self.chance_played


def reviewable(game: Any) -> bool:
    """Can the games of this family be reviewed (can a seat imagine the unseen tiles: the
    line games and the trick games)?"""
    return imaginable(game)


def analyse(record: dict[str, Any], seat: int, worlds: int = WORLDS,
            seed: int = 0) -> list[Decision]:
    """The decisions of `seat` in a finished game's record (slow: run it off the loop)."""
    game = replay({**record, "moves": []})
    out: list[Decision] = []
    for number, text in enumerate(record.get("moves", []), 1):
        if game.to_move == seat and not game.over and len(game.legal_moves()) > 1:
            chances = win_chances(game, worlds, seed + number) or {}
            expert = str(make_player("expert", seed + number).choose(game.copy()))
            played = str(game.parse_move(text))
            out.append(Decision(number, played, expert, chances.get(played, 0.0),
                                chances.get(expert, 0.0)))
        game.play(game.parse_move(text))
    return out


def mistakes(decisions: list[Decision]) -> list[Decision]:
    """The (at most three) moves that lost the most chance of winning, the biggest first."""
    lost = [d for d in decisions if d.played != d.expert and d.loss > 0]
    return sorted(lost, key=lambda d: (-d.loss, d.number))[:SHOWN]


def work(row: TableRow, record: dict[str, Any], seat: int, pictures: Pictures, lang: str
         ) -> tuple[list[Decision], bytes | None]:
    """The decisions of `seat` and the picture of its biggest mistake (slow: in a thread)."""
    decisions = analyse(record, seat, WORLDS, row.seed % 1_000_003)
    worst = mistakes(decisions)
    image = position_picture(row, record, seat, worst[0].number, pictures, lang) if worst else None
    return decisions, image


def review_messages(row: TableRow, seat: int, decisions: list[Decision], image: bytes | None,
                    user: str, lang: str) -> list[Message]:
    """The private review: every decision in a line, then the biggest mistakes, the first
    with `image`, the picture of its position."""
    head = t(lang, "Review of game #{id} for {name}", id=row.id, name=row.seats[seat].name)
    if not decisions:
        return [Message(row.channel, head + "\n" + t(lang, "You had no choice to make in this "
                                                      "game: nothing to review."),
                        to=user, kind="info", table=row.id)]
    agreed = sum(d.played == d.expert for d in decisions)
    lines = [head, tn(lang, "{n} choice reviewed; the expert agrees with {k} of them.",
                      "{n} choices reviewed; the expert agrees with {k} of them.",
                      len(decisions), k=agreed)]
    for d in decisions[:MAX_LINES]:
        lines.append(decision_line(d, lang))
    if len(decisions) > MAX_LINES:
        lines.append(tn(lang, "... and {n} more choice.", "... and {n} more choices.",
                        len(decisions) - MAX_LINES))
    worst = mistakes(decisions)
    out = [Message(row.channel, "\n".join(lines), to=user, kind="info", table=row.id)]
    if not worst:
        out.append(Message(row.channel, t(lang, "No mistake found: the expert would not have "
                                          "done better."), to=user, kind="info", table=row.id))
        return out
    text = [tn(lang, "{n} mistake to look at, the biggest first:",
                 "{n} mistakes to look at, the biggest first:", len(worst))]
    for i, d in enumerate(worst, 1):
        text.append(t(lang, "{i}. Move {number}: you played {played}, the expert would play "
                      "{expert}; chance of winning the round {after:.0%} instead of "
                      "{before:.0%}.", i=i, number=d.number, played=move_words(lang, d.played),
                      expert=move_words(lang, d.expert), after=d.chance_played,
                      before=d.chance_expert))
    out.append(Message(row.channel, "\n".join(text), to=user, kind="info", table=row.id,
                       image=image))
    return out


def decision_line(d: Decision, lang: str) -> str:
    if d.played == d.expert:
        return t(lang, "Move {number}: {played} ({chance:.0%}), as the expert.",
                 number=d.number, played=move_words(lang, d.played), chance=d.chance_played)
    return t(lang, "Move {number}: {played} ({after:.0%}); the expert: {expert} ({before:.0%}).",
             number=d.number, played=move_words(lang, d.played), after=d.chance_played,
             expert=move_words(lang, d.expert), before=d.chance_expert)


def position_picture(row: TableRow, record: dict[str, Any], seat: int, number: int,
                     pictures: Pictures, lang: str) -> bytes | None:
    """The position before move `number`: the public picture above the seat's own hand."""
    game = replay({**record, "moves": record["moves"][:number - 1]})
    drawn = pictures.for_lang(lang)
    names = [s.name for s in row.seats]
    return stack(drawn.public(game.view(None), names), drawn.hand(game.view(seat)))


def stack(top: bytes | None, bottom: bytes | None) -> bytes | None:
    """Two PNG pictures one above the other (either may be missing)."""
    if top is None or bottom is None:
        return top or bottom
    from PIL import Image

    a, b = Image.open(io.BytesIO(top)), Image.open(io.BytesIO(bottom))
    out = Image.new("RGB", (max(a.width, b.width), a.height + b.height), "white")
    out.paste(a, (0, 0))
    out.paste(b, ((out.width - b.width) // 2, a.height))
    buf = io.BytesIO()
    out.save(buf, "PNG")
    return buf.getvalue()


async def review(store: Store, pictures: Pictures, user: str, table_id: int, lang: str
                 ) -> list[Message]:
    """The review of finished game `table_id` for `user`, who played it; else why not."""
    row = await store.get_table(table_id)

    def error(text: str, **values: Any) -> list[Message]:
        return [Message(row.channel if row else "", t(lang, text, **values), to=user,
                        kind="error", table=table_id)]

    if row is not None and row.status in ("lobby", "playing"):
        return error(N_("Game #{id} is still under way: it can be reviewed once it is over."),
                     id=table_id)
    record = await store.game_record(table_id) if row is not None else None
    if row is None or record is None:
        return error(N_("No finished game #{id}."), id=table_id)
    seat = next((s.seat for s in row.seats if s.user_id == user), None)
    if seat is None:
        return error(N_("You did not play game #{id}: only its players can review it."),
                     id=table_id)
    if not reviewable(replay({**record, "moves": []})):
        return error(N_("Reviews are not available for this game yet."))
    decisions, image = await thinking.off_loop(work, row, record, seat, pictures, lang,
                                               kind="review")
    return review_messages(row, seat, decisions, image, user, lang)
