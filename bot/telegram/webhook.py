"""Telegram's webhook instead of polling (TELEGRAM_WEBHOOK_URL: bot/scaling.py): PTB's own
server listens on TELEGRAM_LISTEN:TELEGRAM_PORT and tells Telegram the public URL. Several
processes behind one URL (a load balancer) each serve the updates they are given; every
process sets the same webhook when it starts."""

from __future__ import annotations

from typing import Any

from ..scaling import Webhook

ALLOWED_UPDATES = ["message", "callback_query"]

__all__ = ["ALLOWED_UPDATES", "Webhook", "start_webhook"]


async def start_webhook(updater: Any, webhook: Webhook, allowed: list[str]) -> None:
    """Start PTB's webhook server and register `webhook.url` with Telegram."""
    await updater.start_webhook(listen=webhook.listen, port=webhook.port, url_path=webhook.path,
                                webhook_url=webhook.url, secret_token=webhook.secret,
                                allowed_updates=allowed)
