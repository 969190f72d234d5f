"""The Telegram adapter (python-telegram-bot): commands, inline keyboards, private hands."""
