"""Everything about chat: the service, storage, the Discord, Telegram and console adapters."""
