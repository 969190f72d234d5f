"""Translations: every marked string of bot/ has a French translation with the same
placeholders, languages are picked from locales and server defaults, variant names exist in
both languages."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.i18n import lang_for, missing, placeholders, po_path, source_strings, t, tn
from bot.service.texts import variant_name
from core import variants


def french_catalog():  # type: ignore[no-untyped-def]
    with po_path("fr").open("rb") as f:
        return read_po(f, locale="fr", domain="domino")


def test_the_extractor_finds_the_services_strings() -> None:
    found = {m if isinstance(m, str) else m[0] for _, m in source_strings()}
    assert "{who}, your turn." in found and "CPU {n}" in found
    assert "{who} drew {n} tile." in found  # a plural, from bot/service/texts.py
    # the Discord adapter: its sentences, and the /domino command names and descriptions
    assert "Your hand is in your direct messages." in found
    assert {"start", "rematch", "Open a table in this channel", "this server"} <= found
    # the Telegram command menu
    assert "Join the table" in found
    assert len(found) > 50


def test_every_marked_string_has_a_french_translation() -> None:
    assert missing("fr") == [], "run `python -m bot.i18n` and translate these"


def test_placeholders_are_the_same_in_english_and_french() -> None:
    checked = 0
    for message in french_catalog():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = placeholders(ids[-1]) | placeholders(ids[0])
        for text in texts:
            assert placeholders(text) == wanted, (message.id, text)
            checked += 1
    assert checked > 50


def test_french_and_english_text() -> None:
    assert t("fr", "{who}, your turn.", who="Zoé") == "Zoé, à vous de jouer."
    assert t("en", "{who}, your turn.", who="Zoé") == "Zoé, your turn."
    assert tn("fr", "{who} drew {n} tile.", "{who} drew {n} tiles.", 1, who="a") == \
        "a a pioché 1 domino."
    assert tn("fr", "{who} drew {n} tile.", "{who} drew {n} tiles.", 3, who="a") == \
        "a a pioché 3 dominos."
    assert t("de", "Open seat") == "Open seat"  # no catalogue: English


@pytest.mark.parametrize(
    ("locale", "default", "expected"),
    [("fr", None, "fr"), ("fr-FR", "en", "fr"), ("fr_CA", None, "fr"), ("en-US", "fr", "en"),
     ("de", "fr", "fr"), (None, "fr", "fr"), (None, None, "en"), ("pt-BR", "xx", "en")],
)
def test_the_users_locale_then_the_servers_default(locale: str | None, default: str | None,
                                                    expected: str) -> None:
    assert lang_for(locale, default) == expected


def test_variant_names_in_both_languages() -> None:
    for slug in variants.names():
        names = variants.get(slug).names
        assert variant_name(slug, "fr") == names["fr"] and names["fr"]
        assert variant_name(slug, "en") == names["en"] and names["en"]


def test_discord_commands_in_french_come_from_the_catalogue() -> None:
    """Every name, description and choice of the /domino tree is extracted, has its French
    text from the catalogue in the payload sent to Discord, and every French name is still a
    valid Discord name (lowercase, no spaces, at most 32 characters)."""
    import discord
    from discord import app_commands

    from bot.discord.commands import DominoCommands
    from bot.discord.text import CommandTranslator

    async def payload() -> dict[str, Any]:
        tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
        group = DominoCommands(None)  # type: ignore[arg-type]
        return await group.get_translated_payload(tree, CommandTranslator())

    found = {m if isinstance(m, str) else m[0] for _, m in source_strings()}
    checked = 0

    def walk(item: dict[str, Any], top: bool = False) -> None:
        nonlocal checked
        for key in ("name", "description"):
            if key in item:
                assert item[key] in found, item[key]
                french = item.get(f"{key}_localizations", {}).get("fr")
                assert french or top, (key, item[key])
                if key == "name" and french and "value" not in item:  # not a choice
                    assert re.fullmatch(r"[-_\w]{1,32}", french) and french == french.lower()
                checked += 1
        for child in item.get("options", []) + item.get("choices", []):
            walk(child)

    data = asyncio.run(payload())
    walk(data, top=True)
    assert checked > 60
    assert data["options"][0]["name_localizations"] == {"fr": "nouvelle"}
