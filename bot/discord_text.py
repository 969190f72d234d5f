"""The Discord adapter's own words: French names and descriptions of the `/domino` commands
(given to Discord by `CommandTranslator`) and the few sentences only this adapter says.
Everything about the game itself is worded by the service.
"""

from __future__ import annotations

import discord
from discord import app_commands

# English source -> French.  Command and option names: lowercase, no spaces (Discord's rule).
FRENCH: dict[str, str] = {
    # names
    "domino": "domino", "start": "nouvelle", "join": "rejoindre", "leave": "quitter",
    "hand": "main", "play": "jouer", "stop": "arrêter", "rematch": "revanche",
    "rules": "règles", "leaderboard": "classement", "stats": "stats",
    "history": "historique", "settings": "réglages",
    "variant": "variante", "players": "joueurs", "ai": "ordinateurs", "timer": "minuteur",
    "options": "options", "move": "coup", "scope": "portée", "user": "membre",
    "table": "table", "where": "où", "lang": "langue",
    # choices
    "this server": "ce serveur", "everywhere": "partout", "here (only you see it)":
    "ici (visible par vous seul)", "by direct message": "en message privé",
    "French": "français", "English": "anglais",
    # descriptions
    "Play dominoes": "Jouer aux dominos",
    "Open a table in this channel": "Ouvrir une table dans ce salon",
    "Join the table waiting for players here": "Rejoindre la table qui attend des joueurs ici",
    "Leave the table before it starts": "Quitter la table avant le début",
    "Show your hand (only you see it)": "Voir votre main (visible par vous seul)",
    "Play a move written as text, e.g. 6-4 left": "Jouer un coup écrit, par ex. 6-4 gauche",
    "Stop your game (the host at once, or everybody agrees)":
        "Arrêter la partie (l'hôte tout de suite, ou tout le monde d'accord)",
    "Play the last game again with the same seats": "Rejouer la dernière partie, mêmes places",
    "How to play a variant": "Comment jouer une variante",
    "The best players": "Les meilleurs joueurs",
    "Games, wins and rating of a player": "Parties, victoires et classement d'un joueur",
    "The last games of a player": "Les dernières parties d'un joueur",
    "Server settings (server managers)": "Réglages du serveur (gestionnaires du serveur)",
    "Which game": "Quel jeu", "Number of seats": "Nombre de places",
    "Computer players among them": "Dont joueurs ordinateur",
    "Seconds per turn (0: no timer)": "Secondes par tour (0 : sans minuteur)",
    "Other options, name=value ...": "Autres options, nom=valeur ...",
    "The table number, when there are several": "Le numéro de table, s'il y en a plusieurs",
    "Your move, e.g. 6-4 left, draw, pass": "Votre coup, par ex. 6-4 gauche, pioche, passe",
    "This server or everywhere": "Ce serveur ou partout",
    "Whose (you by default)": "De qui (vous par défaut)",
    "Where to get your hand from now on": "Où recevoir votre main désormais",
    "Default language of the tables": "Langue par défaut des tables",
    "Default seconds per turn (0: no timer)": "Secondes par tour par défaut (0 : aucun)",
}

SAYINGS: dict[str, dict[str, str]] = {
    "no_table": {
        "en": "There is no table for that here. Open one with /domino start.",
        "fr": "Il n'y a pas de table pour cela ici. Ouvrez-en une avec /domino nouvelle."},
    "dm_sent": {
        "en": "Your hand is in your direct messages.",
        "fr": "Votre main est dans vos messages privés."},
    "dm_refused": {
        "en": "I cannot send you direct messages (your privacy settings refuse them), so your "
              "hand stays here, visible only to you.",
        "fr": "Je ne peux pas vous écrire en privé (vos réglages de confidentialité le "
              "refusent) : votre main reste ici, visible par vous seul."},
    "pref_dm": {
        "en": "From now on, your hands come by direct message.",
        "fr": "Désormais, vos mains arrivent en message privé."},
    "pref_here": {
        "en": "From now on, your hands are shown here, only to you.",
        "fr": "Désormais, vos mains s'affichent ici, pour vous seul."},
    "settings_usage": {
        "en": "Give a language or a timer: /domino settings lang:fr timer:120.",
        "fr": "Donnez une langue ou un minuteur : /domino réglages langue:fr minuteur:120."},
    "failed": {
        "en": "Something went wrong; nothing was changed. Please try again.",
        "fr": "Un problème est survenu ; rien n'a changé. Réessayez."},
}


def say(lang: str, key: str) -> str:
    texts = SAYINGS[key]
    return texts.get(lang, texts["en"])


class CommandTranslator(app_commands.Translator):
    """French names and descriptions for the command tree (Discord shows them to users
    whose client is in French)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale is discord.Locale.french:
            return FRENCH.get(string.message)
        return None
