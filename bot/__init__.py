"""Everything about chat: the service, storage, the Discord, Telegram, console and web adapters.

service/ is the application and storage/ its database; discord/, telegram/, console/ and
web/ (the board in a browser and as a Telegram Mini App) only translate between a platform
and the service; tournament/ pairs and ranks tournaments' entrants, with no platform.
app.py runs the platforms on one service (settings: config.py, scaling.py), cli.py is the
`domino` command, i18n.py the translations (locales/), suggest.py the "did you mean" of
mistyped names.
"""
