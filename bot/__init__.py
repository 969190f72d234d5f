"""Everything about chat: the service, storage, the Discord, Telegram and console adapters.

service/ is the application and storage/ its database; discord/, telegram/ and console/
only translate between a platform and the service.  app.py runs the platforms on one
service (settings: config.py, scaling.py), cli.py is the `domino` command, i18n.py the
translations (locales/), suggest.py the "did you mean" of mistyped names.
"""
