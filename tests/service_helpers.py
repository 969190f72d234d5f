"""Helpers for driving the service in tests: users, a fake clock, message finders."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.messages import Message
from bot.pictures import NoPictures
from bot.service import User

ALICE = User("test:alice", "alice")
BOB = User("test:bob", "bob", "fr-FR")
CAROL = User("test:carol", "carol")
CHANNEL = "test:chan"
SCOPE = "test:server"


@dataclass
class Clock:
    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class RecordingPictures(NoPictures):
    """Draws nothing, but keeps every view a picture was asked for."""

    public_views: list[dict[str, Any]] = field(default_factory=list)
    hand_views: list[dict[str, Any]] = field(default_factory=list)

    def public(self, view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
        self.public_views.append(view)
        return super().public(view, names)

    def hand(self, view: dict[str, Any]) -> bytes | None:
        self.hand_views.append(view)
        return None


def hand_message(messages: list[Message], user: User) -> Message | None:
    """The last private hand message for `user`."""
    found = [m for m in messages if m.kind == "hand" and m.to == user.id]
    return found[-1] if found else None


def table_id(messages: list[Message]) -> int:
    return next(m.table for m in messages if m.table is not None)


def button(message: Message, label: str) -> str:
    return next(a.data for a in message.actions if a.label == label)


def errors(messages: list[Message]) -> list[str]:
    return [m.text for m in messages if m.kind == "error"]
