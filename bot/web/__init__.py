"""The web table (issue 30): an adapter like bot/discord, bot/telegram and bot/console, serving
the board in a browser and as a Telegram Mini App.  Translation only: no rule and no game state
of its own; every move goes through the Service.  docs/web.md describes its interface."""
