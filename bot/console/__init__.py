"""The console: the chat in a terminal (no token needed) and the text board of `domino play`."""
