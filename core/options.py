"""Variant options: their declared names, types and ranges, and validation.

Options arrive as Python values (``target=100``) or as text from a command
line or a chat (``"target=100"``, ``"strict=yes"``); both are checked against
the variant's declaration and turned into clean values, or refused with one
clear sentence naming what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import OptionError, bad_option

_TRUE = {"1", "true", "yes", "on", "oui", "vrai", "y"}
_FALSE = {"0", "false", "no", "off", "non", "faux", "n"}


@dataclass(frozen=True, slots=True)
class Option:
    """One option a variant accepts."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    kind: type = str
    optional: bool = False  # None is an allowed value (e.g. "no target")
    help: str = ""

    def allowed(self) -> str:
        if self.kind is bool:
            return "true or false"
        if self.choices:
            return ", ".join(str(c) for c in self.choices)
        text = "a whole number"
        if self.minimum is not None and self.maximum is not None:
            text += f" from {self.minimum} to {self.maximum}"
        return ("none or " + text) if self.optional else text

    def refusal(self, variant: str, value: Any) -> OptionError:
        """The error for a bad `value`, saying what is allowed (as `allowed` writes it)."""
        v = {"variant": variant, "name": self.name, "got": str(value)[:30]}
        if self.kind is bool:
            return bad_option("{variant}: option {name!r} must be true or false (got {got!r})",
                              **v)
        if self.choices:
            return bad_option("{variant}: option {name!r} must be {choices} (got {got!r})",
                              choices=", ".join(str(c) for c in self.choices), **v)
        ranged = self.minimum is not None and self.maximum is not None
        if ranged and self.optional:
            return bad_option("{variant}: option {name!r} must be none or a whole number "
                              "from {lo} to {hi} (got {got!r})",
                              lo=self.minimum, hi=self.maximum, **v)
        if ranged:
            return bad_option("{variant}: option {name!r} must be a whole number "
                              "from {lo} to {hi} (got {got!r})",
                              lo=self.minimum, hi=self.maximum, **v)
        if self.optional:
            return bad_option("{variant}: option {name!r} must be none or a whole number "
                              "(got {got!r})", **v)
        return bad_option("{variant}: option {name!r} must be a whole number (got {got!r})", **v)

    def coerce(self, variant: str, value: Any) -> Any:
        bad = self.refusal(variant, value)
        if value is None or (isinstance(value, str) and value.strip().lower() in {"none", ""}):
            if self.optional:
                return None
            raise bad
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise bad
        if self.kind is int:
            if isinstance(value, str):
                try:
                    value = int(value.strip())
                except ValueError:
                    raise bad from None
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad
            if self.choices and value not in self.choices:
                raise bad
            if self.minimum is not None and value < self.minimum:
                raise bad
            if self.maximum is not None and value > self.maximum:
                raise bad
            return value
        if not isinstance(value, str):
            raise bad
        text = value.strip().lower()
        if self.choices and text not in self.choices:
            raise bad
        return text


def resolve(variant: str, declared: tuple[Option, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Check `given` against `declared`; return every option with its value."""
    by_name = {o.name: o for o in declared}
    out: dict[str, Any] = {}
    for name, value in given.items():
        key = str(name).replace("-", "_")
        if key not in by_name:
            if not by_name:
                raise bad_option("{variant} has no option {name!r}; its options are: none",
                                 variant=variant, name=str(name)[:30])
            raise bad_option("{variant} has no option {name!r}; its options are: {names}",
                             variant=variant, name=str(name)[:30], names=", ".join(sorted(by_name)))
        out[key] = by_name[key].coerce(variant, value)
    for o in declared:
        out.setdefault(o.name, o.default)
    return out


def parse_pairs(pairs: list[str]) -> dict[str, str]:
    """Turn ``["draw=block", "target=100"]`` into a dict, refusing malformed items."""
    out: dict[str, str] = {}
    for item in pairs:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise bad_option("option {item!r} must be written name=value, like draw=block",
                             item=item[:30])
        out[name.strip()] = value.strip()
    return out
