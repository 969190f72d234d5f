"""The bot service: tables, lobbies, turns, timers, computer seats, results, ratings.

Platform-neutral and async; adapters (Discord, Telegram, console) call it and deliver what it
returns.  THE CONTRACT adapters rely on (extend it only additively):

* ``Service(store, pictures=Pictures(), ai_delay=1.0, clock=time.time, default_lang="en",
  default_timer=180, miss_limit=3, warn_before=30.0, seed=None)``.
* Every method below is async and returns ``list[Message]`` (see bot/service/messages.py):
  ``start()`` reload unfinished tables and prompt their current players again;
  ``open_table(user, channel, scope, variant, players=None, ai=0, timer=None, options="",
  private=False)``; ``join/leave/add_ai/remove_ai/begin/hand/stop/rematch(user, table_id)``;
  ``press(user, data)`` for any button; ``play(user, table_id, text, turn=None)``;
  ``rules(user, variant)``; ``leaderboard(user, channel, scope, variant=None)`` (scope
  "global" for everywhere; a server's current season);
  ``season_leaderboard(user, channel, scope, season, variant=None)`` (a past or current
  season, "2026-10" or "2026-Q4"); ``stats(user, channel, target=None)``;
  ``history(user, channel, target=None)``; ``export(user, table_id)``;
  ``set_setting(user, scope, key, value, is_admin)``; ``set_pings(user, value="")``
  ("on", "off", "": the user's turn pings); ``hint(user, table_id, turn=None)``;
  ``review(user, table_id)``; tournaments (bot/tournament/commands.py):
  ``open_tournament(user, channel, scope, text, is_admin=False)``,
  ``register/unregister/drop/start_tournament/tournament_standings/export_tournament(user,
  tournament_id)``, ``list_tournaments(user, scope)``, ``tournament_action(user, scope,
  verb, tournament_id="", partner=None)`` (the verb as typed: commands.VERBS);
  ``tick()`` plays due computer moves and enforces turn timers; ``run(send)`` ticks forever
  and passes what ticks return to `send`.
  ``find_table(channel, user_id, command, private=False)`` (not a message maker: a table id
  or None) is the table a command typed without a table number means.
* Every message maker also takes ``where=Where(channel, scope, private)`` (bot/service/
  guard.py): where the command or press comes from.  Adapters always pass it; a command on a
  table from another channel is refused with nothing changed.  Every method goes through
  the door (`guard.door`): nothing but messages comes out, whatever the input.
* Ids are platform-prefixed strings: users "discord:<id>", channels "telegram:<chat_id>",
  scopes (a server or group: settings and per-server ratings) "discord:<guild_id>".
* `User(id, name, locale)`: the locale ("fr", "fr-FR", "en-US"...) picks the language of the
  user's private messages; public messages use the server's "lang" setting, else the
  language of the user who opened the table.

Rules the service keeps: one lock per table; every button carries the turn it was offered
for, so a stale, repeated or concurrent press is refused with a clear message and changes
nothing; only the seat to move moves; a user not at a table can do nothing to it.  Every
accepted move is committed (`Store.append_move`) before the reply is returned.  Public
messages are built from the public view only (``game.view(None)``); a player's own view goes
only into a private "hand" message to that player.

This module is the facade: the tables' methods are written in the parts it stands on
(state.py, results.py, play.py, clock.py, lobby.py, opening.py; their order in
bot/service/__init__.py), the tournaments' in the tournaments it holds (bot/tournament/
commands.py, a client of the tables through `Desk` and the events), and put behind the door
here.  Here too is who listens to which event (`__init__`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..i18n import t
from ..storage import Store
from ..tournament import words as tourney_words
from ..tournament.commands import VERBS as TOURNAMENT_VERBS
from ..tournament.commands import Tournaments
from ..tournament.rooms import RoomRegistry
from . import assist, live, stopping, texts
from .desk import Desk
from .events import MovePlayed
from .guard import door
from .lobby import Lobby
from .messages import Message, parse_action
from .opening import TABLE_FOR, Opening, invitees
from .play import Play
from .results import Results
from .state import User

# What adapters, tests and scripts import from here (the names moved to the parts).
__all__ = ["MOVE_TEXT", "TABLE_FOR", "TOURNAMENT_VERBS", "VERBS", "Service", "User",
           "invitees", "texts"]

# Button verbs (see bot/service/messages.py); draw and pass have their own, "p" carries
# the move text.
VERBS = frozenset("jlarshmqepdxu" + assist.HINT + tourney_words.VERB)
MOVE_TEXT = {"d": "draw", "x": "pass"}


def _tournaments(name: str) -> Callable[..., Awaitable[list[Message]]]:
    """The method `name` of the tournaments the facade holds, as a method of the facade."""
    async def call(self: Service, user: User, *args: Any, **kwargs: Any) -> list[Message]:
        return await getattr(self.tournaments, name)(user, *args, **kwargs)  # type: ignore
    call.__name__ = call.__qualname__ = name
    call.__doc__ = getattr(Tournaments, name).__doc__
    return call


class Service(Opening):
    """Hosts every table of every channel: the facade adapters call.

    The tables' work is done by the parts it stands on, each on the one before it
    (bot/service/__init__.py): state <- results <- play <- clock <- lobby <- opening; the
    tournaments' by the `Tournaments` it holds (bot/tournament/commands.py), which see the
    tables through a `Desk` and hear of them by events.  Here each public method is put
    behind the door (`guard.door`: `where=`, the table number, any error turned into a
    reply), and a button's press is routed to the method it means.
    """

    def __init__(self, store: Store, **settings: Any) -> None:
        super().__init__(store, **settings)
        self.tournaments = Tournaments(Desk(self))  # a client of the tables
        # who listens to what happened at the tables (bot/service/events.py)
        self.events.subscribe(MovePlayed, self._web_heard)
        self.tournaments.subscribe()  # the start, ticks, ends, leavers; other processes' news

    @property
    def rooms(self) -> RoomRegistry:
        """The platforms' rooms for tournament tables (bot/tournament/rooms.py): adapters
        register theirs."""
        return self.tournaments.rooms

    async def _web_heard(self, event: MovePlayed) -> None:
        live.changed(self, (event.table.id,))  # the web table (bot/service/live.py)

    # -- the parts' public methods, each behind the door (bot/service/guard.py) ----------------

    open_table = door("open")(Opening.open_table)
    rematch = door(table=True)(Opening.rematch)
    join = door(table=True)(Lobby.join)
    leave = door(table=True)(Lobby.leave)
    add_ai = door(table=True)(Lobby.add_ai)
    remove_ai = door(table=True)(Lobby.remove_ai)
    begin = door(table=True)(Lobby.begin)
    play = door("move", table=True)(Play.play)
    hand = door(table=True)(Play.hand)
    hint = door(table=True)(Play.hint)
    stop = door(table=True)(Results.stop)
    rules = door()(Results.rules)
    leaderboard = door()(Results.leaderboard)
    season_leaderboard = door()(Results.season_leaderboard)
    stats = door()(Results.stats)
    history = door()(Results.history)
    export = door(table=True)(Results.export)
    review = door(table=True)(Results.review)
    set_setting = door()(Results.set_setting)
    set_pings = door()(Results.set_pings)
    # tournaments (issue 31; bot/tournament/commands.py: the part the facade holds)
    open_tournament = door("open")(_tournaments("open_tournament"))
    register = door()(_tournaments("register"))
    unregister = door()(_tournaments("unregister"))
    start_tournament = door()(_tournaments("start_tournament"))
    tournament_action = door()(_tournaments("tournament_action"))
    list_tournaments = door()(_tournaments("list_tournaments"))
    tournament_standings = door()(_tournaments("tournament_standings"))
    drop = door()(_tournaments("drop"))
    export_tournament = door()(_tournaments("export_tournament"))
    cancel_tournament = door()(_tournaments("cancel_tournament"))

    # -- a button ------------------------------------------------------------------------------

    @door("move")
    async def press(self, user: User, data: str) -> list[Message]:
        """A button press: its data names the table, the turn and what to do."""
        try:
            table_id, turn, verb, arg = parse_action(data)
            if verb not in VERBS:
                raise ValueError(verb)
        except ValueError:
            lang = await self._lang(user)
            return self._error(user, t(lang, "This button is not valid any more."))
        simple = {"j": self.join, "l": self.leave, "a": self.add_ai, "r": self.remove_ai,
                  "s": self.begin, "h": self.hand, "m": self.rematch, "q": self.stop}
        if verb == "a" and arg:  # a computer of a level
            return await self.add_ai(user, table_id, arg)
        if verb == assist.HINT:
            return await self.hint(user, table_id, turn)
        if verb == "q":  # asks first when one press would end the game
            return await stopping.press(self, user, table_id, turn, arg)
        if verb in simple:
            return await simple[verb](user, table_id)
        if verb == "e":
            return await self._choose_end(user, table_id, turn, arg)
        if verb == tourney_words.VERB:  # a tournament's button ("0:0:t:j12")
            return await self.tournaments.press(user, arg)
        if verb == "u":  # a rules page's section (no table: "0:0:u:<slug>:<section>")
            return await self.rules(user, *arg.split(":", 1)) if ":" in arg else []
        return await self.play(user, table_id, MOVE_TEXT.get(verb, arg), turn=turn)
