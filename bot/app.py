"""Run the bot: the chat platforms whose tokens are set, else the console chat."""

from __future__ import annotations

import asyncio
import logging

from .config import Settings
from .console import run_console
from .service import Service
from .storage import Store

log = logging.getLogger("domino")


async def serve(settings: Settings) -> None:
    store = await Store.open(settings.database)
    try:
        service = Service(store, ai_delay=settings.ai_delay, default_lang=settings.lang)
        if settings.discord_token or settings.telegram_token:
            raise SystemExit("the Discord and Telegram adapters are not built yet; "
                             "unset the tokens to use the console chat")
        await run_console(service, settings.pictures)
    finally:
        await store.close()


def main() -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    settings = Settings.from_env()
    log.info("database %s", settings.database)
    asyncio.run(serve(settings))
    return 0
