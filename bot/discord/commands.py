"""The `/domino` slash command group: names, options, choices and variant autocomplete.

Each command only hands its options to a `CommandHandler` (the client of
bot/discord/client.py, which asks the service); this module does not import the client.
Names and descriptions are marked with `N_` (bot/discord/text.py): `locale_str`s that
`CommandTranslator` puts into French from the gettext catalogue.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.app_commands import Choice

from core import variants

from ..i18n import lang_for
from ..service import texts
from .text import N_


class CommandHandler(Protocol):
    """What runs a command: the Discord client (`DominoClient.command`)."""

    async def command(self, ix: discord.Interaction, name: str, **options: Any) -> None: ...

TABLE = N_("The table number, when there are several")


def variant_choices(current: str, locale: str | None) -> list[Choice[str]]:
    """Variants whose slug or French or English name contains what was typed (named in
    the user's language)."""
    lang = lang_for(locale)
    typed = _plain(current)
    out = []
    for slug in variants.names():
        names = [slug, *(texts.variant_name(slug, code) for code in ("en", "fr"))]
        if any(typed in _plain(n) for n in names):
            out.append(Choice(name=f"{texts.variant_name(slug, lang)} ({slug})"[:100],
                              value=slug))
    return out[:25]


def _plain(text: str) -> str:
    """Lowercase, without accents: "Tête" and "tete" match."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# Commands whose only option is the table (found in the channel when not given).
TABLE_COMMANDS = {
    "join": (N_("join"), N_("Join the table waiting for players here")),
    "leave": (N_("leave"), N_("Leave the table before it starts")),
    "stop": (N_("stop"), N_("Stop your game (the host at once, or everybody agrees)")),
    "rematch": (N_("rematch"), N_("Play the last game again with the same seats")),
    "review": (N_("review"), N_("Your moves in a finished game, against the expert's")),
    "web": (N_("web"), N_("Your link to the table in a browser (only you see it)")),
}


def _table_command(verb: str, name: app_commands.locale_str,
                   description: app_commands.locale_str) -> app_commands.Command[Any, Any, None]:
    async def callback(ix: discord.Interaction, table: int | None = None) -> None:
        await ix.client.command(ix, verb, table=table)  # type: ignore[attr-defined]

    command = app_commands.Command(name=name, description=description,
                                   callback=callback)
    return app_commands.rename(table=N_("table"))(app_commands.describe(table=TABLE)(command))


class DominoCommands(app_commands.Group):
    """/domino start|join|leave|hand|play|stop|rematch|rules|leaderboard|stats|history|
    settings."""

    def __init__(self, client: CommandHandler) -> None:
        super().__init__(name=N_("domino"), description=N_("Play dominoes"))
        self.client = client
        for verb, (name, description) in TABLE_COMMANDS.items():
            self.add_command(_table_command(verb, name, description))

    async def _run(self, ix: discord.Interaction, name: str, **options: Any) -> None:
        await self.client.command(ix, name, **options)

    @app_commands.command(name=N_("start"), description=N_("Open a table in this channel"))
    @app_commands.rename(variant=N_("variant"), players=N_("players"), ai=N_("ai"),
                         timer=N_("timer"), options=N_("options"))
    @app_commands.describe(variant=N_("Which game"), players=N_("Number of seats"),
                           ai=N_("Computer players among them"),
                           timer=N_("Seconds per turn (0: no timer)"),
                           options=N_("Other options, name=value ..."))
    async def start(self, ix: discord.Interaction, variant: str, players: int | None = None,
                    ai: int | None = None, timer: int | None = None,
                    options: str | None = None) -> None:
        await self._run(ix, "start", variant=variant, players=players, ai=ai, timer=timer,
                        options=options)

    @app_commands.command(name=N_("add-ai"), description=N_("Add a computer player to the "
                                                          "table waiting here"))
    @app_commands.rename(level=N_("level"), table=N_("table"))
    @app_commands.describe(level=N_("How strong it plays"), table=TABLE)
    @app_commands.choices(level=[Choice(name=N_("easy"), value="easy"),
                                 Choice(name=N_("normal"), value="normal"),
                                 Choice(name=N_("hard"), value="hard"),
                                 Choice(name=N_("expert"), value="expert")])
    async def add_ai(self, ix: discord.Interaction, level: str = "normal",
                     table: int | None = None) -> None:
        await self._run(ix, "add-ai", level=level, table=table)

    @app_commands.command(name=N_("hand"), description=N_("Show your hand (only you see it)"))
    @app_commands.rename(where=N_("where"), table=N_("table"))
    @app_commands.describe(where=N_("Where to get your hand from now on"), table=TABLE)
    @app_commands.choices(where=[Choice(name=N_("here (only you see it)"), value="here"),
                                 Choice(name=N_("by direct message"), value="dm")])
    async def hand(self, ix: discord.Interaction, where: str | None = None,
                   table: int | None = None) -> None:
        await self._run(ix, "hand", where=where, table=table)

    @app_commands.command(name=N_("play"), description=N_("Play a move written as text, e.g. "
                                                        "6-4 left"))
    @app_commands.rename(move=N_("move"), table=N_("table"))
    @app_commands.describe(move=N_("Your move, e.g. 6-4 left, draw, pass"), table=TABLE)
    async def play(self, ix: discord.Interaction, move: str, table: int | None = None) -> None:
        await self._run(ix, "play", move=move, table=table)

    @app_commands.command(name=N_("rules"), description=N_("How to play a variant"))
    @app_commands.rename(variant=N_("variant"))
    @app_commands.describe(variant=N_("Which game"))
    async def rules(self, ix: discord.Interaction, variant: str) -> None:
        await self._run(ix, "rules", variant=variant)

    @app_commands.command(name=N_("leaderboard"), description=N_("The best players"))
    @app_commands.rename(variant=N_("variant"), scope=N_("scope"), season=N_("season"))
    @app_commands.describe(variant=N_("Which game"), scope=N_("This server or everywhere"),
                           season=N_("A past season: a month (2026-10) or a quarter "
                                     "(2026-Q4)"))
    @app_commands.choices(scope=[Choice(name=N_("this server"), value="server"),
                                 Choice(name=N_("everywhere"), value="global")])
    async def leaderboard(self, ix: discord.Interaction, variant: str | None = None,
                          scope: str = "server", season: str | None = None) -> None:
        await self._run(ix, "leaderboard", variant=variant, scope=scope, season=season)

    @app_commands.command(name=N_("stats"), description=N_("Games, wins and rating of a "
                                                         "player"))
    @app_commands.rename(user=N_("user"))
    @app_commands.describe(user=N_("Whose (you by default)"))
    async def stats(self, ix: discord.Interaction, user: discord.User | None = None) -> None:
        await self._run(ix, "stats", user=user)

    @app_commands.command(name=N_("history"), description=N_("The last games of a player"))
    @app_commands.rename(user=N_("user"))
    @app_commands.describe(user=N_("Whose (you by default)"))
    async def history(self, ix: discord.Interaction, user: discord.User | None = None
                      ) -> None:
        await self._run(ix, "history", user=user)

    @app_commands.command(name=N_("settings"), description=N_("Server settings (server "
                                                            "managers)"))
    @app_commands.rename(lang=N_("lang"), timer=N_("timer"), season=N_("season"))
    @app_commands.describe(lang=N_("Default language of the tables"),
                           timer=N_("Default seconds per turn (0: no timer)"),
                           season=N_("How often the leaderboard starts again"))
    @app_commands.choices(lang=[Choice(name=N_("French"), value="fr"),
                                Choice(name=N_("English"), value="en")],
                          season=[Choice(name=N_("every month"), value="monthly"),
                                  Choice(name=N_("every quarter"), value="quarterly"),
                                  Choice(name=N_("never"), value="never")])
    async def settings(self, ix: discord.Interaction, lang: str | None = None,
                       timer: int | None = None, season: str | None = None) -> None:
        await self._run(ix, "settings", lang=lang, timer=timer, season=season)

    @app_commands.command(name=N_("pings"), description=N_("Be notified when it is your "
                                                         "turn, or not"))
    @app_commands.rename(state=N_("state"))
    @app_commands.describe(state=N_("on or off (nothing: your choice now)"))
    @app_commands.choices(state=[Choice(name=N_("on: notify me"), value="on"),
                                 Choice(name=N_("off: do not notify me"), value="off")])
    async def pings(self, ix: discord.Interaction, state: str | None = None) -> None:
        await self._run(ix, "pings", state=state)

    @app_commands.command(name=N_("tournament"), description=N_("Open a tournament, or "
                                                              "act on one"))
    @app_commands.rename(what=N_("what"), number=N_("number"), partner=N_("partner"))
    @app_commands.describe(what=N_("swiss classic rounds=3 seats=2 ..., or list, join, "
                                   "leave, start, standings, drop, export"),
                           number=N_("The tournament's number"),
                           partner=N_("join: your partner in a team game (fixed pairs)"))
    async def tournament(self, ix: discord.Interaction, what: str,
                         number: int | None = None,
                         partner: discord.User | None = None) -> None:
        await self._run(ix, "tournament", what=what, number=number, partner=partner)

    @start.autocomplete("variant")
    @rules.autocomplete("variant")
    @leaderboard.autocomplete("variant")
    async def _variants(self, ix: discord.Interaction, current: str) -> list[Choice[str]]:
        return variant_choices(current, str(ix.locale.value))
