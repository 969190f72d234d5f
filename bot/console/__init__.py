"""The console: the chat in a terminal (no token needed) and the text board of `domino play`.

chat.py is the console adapter (the service in a terminal, users switched by `/as`);
textboard.py draws a view as plain text for `domino play` (bot/cli.py).
"""
