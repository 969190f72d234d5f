"""The Telegram adapter (python-telegram-bot): commands, inline keyboards, private hands.

adapter.py takes updates in (commands, button presses) and calls the service; out.py's
`Outbox` writes the messages the service returns (the table message, the turn line, each
player's hand, private answers) with calls.py (send, edit, delete, the kept message ids),
keyboards.py (inline keyboards), queues.py (a queue of writes per chat, where a newer
state replaces the one waiting) and pacing.py (Telegram's flood limits).  ids.py names
users and chats the service's way, format.py turns rules pages into Telegram HTML, and
webhook.py takes updates by webhook instead of polling.
"""
