"""Everything about chat and the command line: the `domino` command, and later
the platform-neutral service, storage and the Discord/Telegram/console adapters."""
