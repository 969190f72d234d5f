"""Where a command comes from (`Where`), and the origin of the command under way (`ORIGIN`).

Below the door (guard.py) and the service's parts alike: the door sets the origin of each
call it lets in, and a part that must know it (a tournament's registration, checked against
its server) reads it here, without importing the door.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Where:
    """Where a command comes from: its channel, its server or group, and whether it is the
    user's own private chat with the bot."""

    channel: str
    scope: str = ""
    private: bool = False


# Where the command under way comes from: a method that a door's method calls (a press that
# joins, plays or shows a hand) is checked against the same origin, whatever the path.
ORIGIN: ContextVar[Where | None] = ContextVar("domino_origin", default=None)
