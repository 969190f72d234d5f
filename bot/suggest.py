""""Did you mean ...?": the closest of some names to a mistyped word (difflib), for a
mistyped variant ("fourty-two") or command ("/plya")."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.7  # how alike a word and a name must be (difflib's ratio) to suggest it


def closest(word: str, names: Iterable[str]) -> str | None:
    """The name most like `word` (case ignored), or None when none is close enough."""
    known = {n.lower(): n for n in names}
    found = difflib.get_close_matches(str(word).strip().lower()[:40], list(known), n=1,
                                      cutoff=CUTOFF)
    return known[found[0]] if found else None


def variant_guess(word: str) -> str | None:
    """The variant slug a mistyped name means (a slug, or a variant's French or English
    name: "fourty-two", "quarante deux"), or None."""
    from core import variants

    by_name = {s: s for s in variants.names()}
    for slug in variants.names():
        for name in variants.get(slug).names.values():
            by_name.setdefault(name.lower(), slug)
    found = closest(word, by_name)
    return by_name[found] if found else None
