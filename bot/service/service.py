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

This module is the facade: it is the shared state (state.py) and holds the parts, made here
with what each uses (results.py, play.py, clock.py, lobby.py, opening.py; `Parts`, drawn in
bot/service/__init__.py), and the tournaments (bot/tournament/commands.py, a client of the
tables through `Desk` and the events); their public methods are put behind the door here.
Here too is who listens to which event (`__init__`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ..i18n import t
from ..storage import Store
from ..tournament import words as tourney_words
from ..tournament.commands import VERBS as TOURNAMENT_VERBS
from ..tournament.commands import Tournaments
from ..tournament.rooms import RoomRegistry
from . import assist, live, stopping, texts
from .clock import SETTLE, Clock
from .desk import Desk
from .events import MovePlayed
from .guard import door
from .lobby import Lobby
from .messages import Message, parse_action
from .opening import TABLE_FOR, Opening, invitees
from .play import Play
from .results import Results
from .state import State, User

# What adapters, tests and scripts import from here (the names moved to the parts).
__all__ = ["MOVE_TEXT", "TABLE_FOR", "TOURNAMENT_VERBS", "VERBS", "Service", "User",
           "invitees", "texts"]

# Button verbs (see bot/service/messages.py); draw and pass have their own, "p" carries
# the move text.
VERBS = frozenset("jlarshmqepdxu" + assist.HINT + tourney_words.VERB)
MOVE_TEXT = {"d": "draw", "x": "pass"}


@dataclass(frozen=True, slots=True)
class Parts:
    """The table service's parts, each given what it uses when it is made (`Service`)."""

    results: Results  # a game's end and ratings, a table stopped, what players read after
    play: Play  # a move applied and committed, the computers' answer, the hand, the hint
    clock: Clock  # the start, the ticks, the tick loop
    lobby: Lobby  # seats: join, leave, computer seats, the start; leaving a game
    opening: Opening  # a new table, a rematch, the table a command means


def _held(part: str, name: str, cls: type) -> Callable[..., Awaitable[list[Message]]]:
    """The method `name` of the part the facade holds as `part` ("tournaments", or one of
    `Parts`), as a method of the facade (to be put behind the door)."""
    async def call(self: Service, user: User, *args: Any, **kwargs: Any) -> list[Message]:
        holder = self.tournaments if part == "tournaments" else getattr(self.parts, part)
        return await getattr(holder, name)(user, *args, **kwargs)  # type: ignore[no-any-return]
    call.__name__ = call.__qualname__ = name
    call.__doc__ = getattr(cls, name).__doc__
    return call


def _tournaments(name: str) -> Callable[..., Awaitable[list[Message]]]:
    return _held("tournaments", name, Tournaments)


class Service(State):
    """Hosts every table of every channel: the facade adapters call.

    It is the shared state (state.State: the store, the tables, the clock...) and holds
    the parts that work on it (`Parts`, bot/service/__init__.py), each made here with what
    it uses; and the `Tournaments` (bot/tournament/commands.py), a client that sees the
    tables through a `Desk` and hears of them by events.  Here each public method is put
    behind the door (`guard.door`: `where=`, the table number, any error turned into a
    reply), and a button's press is routed to the method it means.
    """

    def __init__(self, store: Store, **settings: Any) -> None:
        super().__init__(store, **settings)
        results = Results(self)
        play = Play(self, results)
        lobby = Lobby(self, play, results)
        self.parts = Parts(results=results, play=play, clock=Clock(self, play, results),
                           lobby=lobby, opening=Opening(self, lobby))
        self.tournaments = Tournaments(Desk(self, results))  # a client of the tables
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

    # -- the clock: not behind the door (no user) ----------------------------------------------

    async def start(self) -> list[Message]:
        """Reload every unfinished table and prompt its players again (clock.py)."""
        return await self.parts.clock.start()

    async def tick(self, wait: float | None = None) -> list[Message]:
        """Play due computer moves and enforce turn timers; call it often (clock.py)."""
        return await self.parts.clock.tick(wait)

    async def run(self, send: Callable[[list[Message]], Awaitable[None]],
                  interval: float = 0.25) -> None:
        """Tick forever (this facade's `tick`, looked up at each tick: bot/metrics.py may
        time it)."""
        await self.parts.clock.run(send, interval,
                                   tick=lambda wait: self.tick(wait=wait))

    async def settle(self, timeout: float = SETTLE) -> None:
        """Let the ticks under way end (at most `timeout` seconds) when the bot stops."""
        await self.parts.clock.settle(timeout)

    async def find_table(self, channel: str, user_id: str, command: str, *,
                         private: bool = False, move: str | None = None) -> int | None:
        """The table a command typed without a table number means (opening.py)."""
        return await self.parts.opening.find_table(channel, user_id, command, private=private,
                                                   move=move)

    # -- the parts' public methods, each behind the door (bot/service/guard.py) ----------------

    open_table = door("open")(_held("opening", "open_table", Opening))
    rematch = door(table=True)(_held("opening", "rematch", Opening))
    join = door(table=True)(_held("lobby", "join", Lobby))
    leave = door(table=True)(_held("lobby", "leave", Lobby))
    add_ai = door(table=True)(_held("lobby", "add_ai", Lobby))
    remove_ai = door(table=True)(_held("lobby", "remove_ai", Lobby))
    begin = door(table=True)(_held("lobby", "begin", Lobby))
    play = door("move", table=True)(_held("play", "play", Play))
    hand = door(table=True)(_held("play", "hand", Play))
    hint = door(table=True)(_held("play", "hint", Play))
    stop = door(table=True)(_held("results", "stop", Results))
    rules = door()(_held("results", "rules", Results))
    leaderboard = door()(_held("results", "leaderboard", Results))
    season_leaderboard = door()(_held("results", "season_leaderboard", Results))
    stats = door()(_held("results", "stats", Results))
    history = door()(_held("results", "history", Results))
    export = door(table=True)(_held("results", "export", Results))
    review = door(table=True)(_held("results", "review", Results))
    set_setting = door()(_held("results", "set_setting", Results))
    set_pings = door()(_held("results", "set_pings", Results))
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
            return await self.parts.play._choose_end(user, table_id, turn, arg)
        if verb == tourney_words.VERB:  # a tournament's button ("0:0:t:j12")
            return await self.tournaments.press(user, arg)
        if verb == "u":  # a rules page's section (no table: "0:0:u:<slug>:<section>")
            return await self.rules(user, *arg.split(":", 1)) if ":" in arg else []
        return await self.play(user, table_id, MOVE_TEXT.get(verb, arg), turn=turn)
