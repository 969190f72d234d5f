"""Numbers from users: the one strict reading of a table number, a turn or any whole number
typed or carried by a button.

ASCII digits only ("٣", "²" and "３" are digits to `str.isdigit`, not numbers here), no sign,
no padding ("007" is refused: a number has one spelling, so two readings of the same text can
never disagree), at most `MAX_DIGITS` digits and at most the bound the caller gives.
"""

from __future__ import annotations

from typing import Any

MAX_TABLE_ID = 2**62  # table numbers (and other numbers from users) stay below this
MAX_DIGITS = 19


def number(text: Any, hi: int = MAX_TABLE_ID) -> int | None:
    """A whole number from 0 to `hi` written in ASCII digits without padding (an int is
    checked too), else None.  Spaces around it are allowed; none inside."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text if 0 <= text <= hi else None
    if not isinstance(text, str):
        return None
    text = text.strip()
    if (not text or len(text) > MAX_DIGITS or not (text.isascii() and text.isdigit())
            or (text[0] == "0" and len(text) > 1)):
        return None
    n = int(text)
    return n if n <= hi else None


def table_number(text: Any) -> int | None:
    """A table number as typed ("12" or "#12"), else None (0 is no table)."""
    if isinstance(text, str):
        text = text.strip().removeprefix("#")
    n = number(text)
    return n if n else None
