"""French names and descriptions of the `/domino` commands, given to Discord by
`CommandTranslator`, read from the gettext catalogue (bot/locales) like every other bot text.

The command tree (bot/discord/commands.py) marks its names, choices and descriptions with
`N_` below: a `locale_str` for discord.py, and (by its name, one of bot.i18n's Babel
keywords) a string extracted into the catalogue, so `python -m bot.i18n` and
tests/test_i18n.py see them.  The adapter's own sentences are plain `t(lang, ...)` calls.
"""

from __future__ import annotations

import discord
from discord import app_commands

from ..i18n import t

# Discord's languages that have a catalogue (English is the source).
LOCALES = {discord.Locale.french: "fr"}


def N_(text: str) -> app_commands.locale_str:
    """A command name, choice or description in English, translated by `CommandTranslator`.
    Names are lowercase with no spaces (Discord's rule), in French too."""
    return app_commands.locale_str(text)


class CommandTranslator(app_commands.Translator):
    """French names and descriptions for the command tree (Discord shows them to users
    whose client is in French)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = LOCALES.get(locale)
        return t(lang, string.message) if lang else None
