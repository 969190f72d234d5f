"""The Discord adapter (discord.py): slash commands, buttons and hands, nothing but translation.

adapter.py starts the client (client.py, or its sharded form in shards.py); client.py turns
commands and clicks into service calls; commands.py declares the `/domino` command group,
text.py its French names; views.py makes the buttons; delivery.py puts the service's
messages on Discord (the table message, the turn message, ephemeral and DM hands).
"""
