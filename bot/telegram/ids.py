"""Telegram's users and chats as the service names them ("telegram:<id>",
"telegram:<chat>[:<forum topic>]"), and the deep link that opens the private chat."""

from __future__ import annotations

PLATFORM = "telegram"


def user_id(tg_id: int) -> str:
    return f"{PLATFORM}:{tg_id}"


def channel_of(chat_id: int, thread_id: int | None = None) -> str:
    return f"{PLATFORM}:{chat_id}" + (f":{thread_id}" if thread_id else "")


def parse_channel(channel: str) -> tuple[int, int | None] | None:
    """(chat id, forum topic or None) of a Telegram channel id; None for other platforms."""
    parts = channel.split(":")
    if len(parts) not in (2, 3) or parts[0] != PLATFORM:
        return None
    try:
        return int(parts[1]), int(parts[2]) if len(parts) == 3 else None
    except ValueError:
        return None


def deep_link(username: str, table: int | None) -> str:
    """The link that opens the private chat with the bot (on the hand of `table`)."""
    return f"https://t.me/{username}" + (f"?start=t{table}" if table is not None else "")
