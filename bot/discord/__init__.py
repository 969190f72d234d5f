"""The Discord adapter (discord.py): slash commands, buttons and hands, nothing but translation."""
