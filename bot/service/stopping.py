"""The "Stop" button of a game under way asks first when one press would end the game (a
solo game, the host's press, the last player's vote): a second button, "Yes, stop" (verb
"q", argument "yes"), stops it.  The question is private to the presser; its button names
the table, so once the table is stopped or finished it says so and changes nothing.  A
typed stop command is deliberate and stops at once (`Service.stop`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import t
from .messages import Action, Message, action_data, parse_action

if TYPE_CHECKING:
    from .host import Host
    from .state import User
    from .tables import Table

YES = "yes"  # the argument of the confirming press


def answers_question(data: str) -> bool:
    """Whether a press's data is the "Yes, stop" of a question: once pressed, an adapter
    takes the question's button away (the question is answered)."""
    try:
        _, _, verb, arg = parse_action(data)
    except ValueError:
        return False
    return (verb, arg) == ("q", YES)


def ends_at_once(table: Table, user_id: str) -> bool:
    """Would `user_id`'s stop end this game under way now (not only count a vote)?"""
    game = table.game
    if game is None or game.over or table.seat_of(user_id) is None:
        return False
    humans = {s.user_id for s in table.humans()}
    return user_id == table.row.host or humans <= table.stop_votes | {user_id}


def question(table: Table, user_id: str, turn: int, lang: str) -> Message:
    yes = Action(t(lang, "Yes, stop"), action_data(table.id, turn, "q", YES), style="danger")
    return Message(table.row.channel, t(lang, "Stop the game at table #{id}? It ends now and "
                                        "cannot be resumed.", id=table.id), to=user_id,
                   kind="info", table=table.id, actions=(yes,))


async def press(service: Host, user: User, table_id: int, turn: int, arg: str
                ) -> list[Message]:
    """A "Stop" press: the question when it would end the game at once, else the stop (or
    the vote) itself."""
    table = service.tables.get(table_id)
    if arg == YES or table is None or not ends_at_once(table, user.id):
        return await service.stop(user, table_id)
    return [question(table, user.id, turn, service._lang_at(user, table))]
