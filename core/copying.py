"""Copies that share nothing with their original, made at every move a computer player
tries: a checked deal, a result, and the slots of a match (a function generated per class,
one statement a slot)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any


def copy_deal(deal: dict[str, Any]) -> dict[str, Any]:
    """A copy of a checked deal that shares no list with it (its tiles are text)."""
    hands = deal.get("hands")
    if len(deal) == 1 and hands.__class__ is list:  # the common case: hands only, as lists
        copied = []
        for hand in hands:
            if hand.__class__ is not list:
                break
            copied.append(hand[:])
        else:
            return {"hands": copied}
    out = dict(deal)
    for key, value in deal.items():  # hands, stock; a grid or columns in other families
        if isinstance(value, (list, tuple)):  # (a list's own copy first: the common case)
            out[key] = [v[:] if v.__class__ is list else list(v) if isinstance(v, (list, tuple))
                        else v for v in value]
    return out


def copy_result(result: dict[str, Any]) -> dict[str, Any]:
    """A copy of a result that shares no list with it."""
    out = {k: v[:] if isinstance(v, list) else v for k, v in result.items()}
    if "teams" in out:
        out["teams"] = [t[:] for t in out["teams"]]
    return out


@cache
def slot_copier(cls: type) -> Callable[[Any, Any], None]:
    """A function ``(old, new)`` that sets each slot of `new` to the value of `old`'s, one
    statement a slot (a copy runs at every move a computer player tries; a loop of
    ``getattr``/``setattr`` calls took most of it).  It raises AttributeError if a slot
    of `old` is not set."""
    return names_copier(all_slots(cls))


@cache
def names_copier(names: tuple[str, ...]) -> Callable[[Any, Any], None]:
    """A function ``(old, new)`` that sets the attributes `names` of `new` to `old`'s."""
    body = "".join(f"    new.{name} = old.{name}\n" for name in names) or "    pass\n"
    scope: dict[str, Any] = {}
    exec(f"def copy_slots(old, new):\n{body}", scope)  # names: identifiers from __slots__
    copier: Callable[[Any, Any], None] = scope["copy_slots"]
    return copier


@cache
def all_slots(cls: type) -> tuple[str, ...]:
    """Every slot of `cls` and its bases (what `copy()` copies)."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return tuple(dict.fromkeys(n for n in names if n not in ("__dict__", "__weakref__")))
