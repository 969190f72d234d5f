"""The pictures' words: English labels, translated by the caller's translator.

Render does not know the bot's catalogues (the bot depends on render, not the other way):
the public functions take an optional `Translator` (anything with ``gettext`` and
``ngettext``, such as a Babel ``Translations``; None: English).  Labels are written in
English and marked with `t` / `tn`, whose English text is their second (and third)
argument, the same shape as ``bot.i18n.t`` / ``tn``, so the bot's extraction finds them in
render/ too and tests/test_i18n.py fails while one lacks its French translation.

The bundled fonts draw accents and every script of the players' names (`render.theme`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class Translator(Protocol):
    """What render needs of a translation catalogue (``gettext.NullTranslations`` fits)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


class English:
    """No translation: the English labels as written."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural


ENGLISH = English()


def t(tr: Translator | None, text: str, **values: Any) -> str:
    """``text`` translated by ``tr`` (None: English), with its placeholders filled."""
    out = (tr or ENGLISH).gettext(text)
    return out.format(**values) if values else out


def N_(text: str) -> str:
    """Marks a label for translation where it is written (a table of labels); `t` translates
    it where it is drawn."""
    return text


def tn(tr: Translator | None, singular: str, plural: str, n: int, **values: Any) -> str:
    """The singular or plural form for ``n``, translated, with ``{n}`` filled."""
    return (tr or ENGLISH).ngettext(singular, plural, n).format(n=n, **values)


def seat_tiles(view: dict[str, Any], seat: int, tr: Translator | None = None) -> str | None:
    """A seat's tiles in words: its hand's size ("3 tiles"), or, in a game without a hand
    (whose `hand_sizes` are zeros), the game's own count: memory's tiles kept ("kept 4
    tiles"), the patience's tiles left on the table ("20 tiles left"). None when the view
    says nothing of `seat`."""
    kept = view.get("kept")
    if isinstance(kept, list) and 0 <= seat < len(kept):
        return tn(tr, "kept {n} tile", "kept {n} tiles", len(kept[seat]))
    if isinstance(view.get("left"), int):
        return tn(tr, "{n} tile left", "{n} tiles left", view["left"])
    sizes = view.get("hand_sizes") or []
    if 0 <= seat < len(sizes):
        return tn(tr, "{n} tile", "{n} tiles", sizes[seat])
    return None


def seat_label(names: Sequence[str], seat: int, tr: Translator | None = None) -> str:
    """A seat's name; "Seat 2" (counted from 1, as everywhere a player reads) without one."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return t(tr, "Seat {n}", n=seat + 1)


def takes(halves: Sequence[int], tr: Translator | None = None, variant: str = "") -> str:
    """What an end takes in words ("a 4", "a 0 or a 2"; none: only a joker, "a matador",
    in K "a K tile")."""
    if not halves:
        return t(tr, "a K tile") if variant == "k" else t(tr, "a matador")
    return t(tr, " or ").join(t(tr, "a {n}", n=n) for n in halves)


def status_lines(view: dict[str, Any], names: Sequence[str], tr: Translator | None = None,
                 ) -> list[str]:
    """The variant's running state in sentences, from the public view's own keys (so every
    language gets them): the ends' count, unclaimed points, the pot, the round's total, what
    each end takes. ``view["strip_extra"]`` (core's English line) only when none applies and
    the words are English, or the catalogue has that line as a whole."""
    out: list[str] = []
    count = view.get("end_count", view.get("count"))
    if count is not None and view.get("board"):
        out.append(t(tr, "Ends count: {n}.", n=count))
    unclaimed = view.get("unclaimed")
    if unclaimed:
        out.append(tn(tr, "Unclaimed: {n} point of {who}.", "Unclaimed: {n} points of {who}.",
                      unclaimed["points"], who=seat_label(names, unclaimed["seat"], tr)))
    if "pot" in view:
        out.append(t(tr, "Pot: {pot} chips; exactly {target} wins.",
                     target=view.get("target"), pot=view["pot"]))
    if view.get("giving"):
        out.append(t(tr, "Each player gives one tile back to the stock before the lead."))
    elif "total" in view:
        out.append(t(tr, "Total laid this round: {n}.", n=view["total"]))
    needs = view.get("needs")
    if needs and len(needs) == 2:
        out.append(t(tr, "The left end takes {left}; the right end takes {right}.",
                     left=takes(needs[0], tr, view.get("variant", "")),
                     right=takes(needs[1], tr, view.get("variant", ""))))
    extra = str(view.get("strip_extra") or "")
    if not out and extra and view.get("target_reach") != "loses":
        translated = (tr or ENGLISH).gettext(extra)
        if tr is None or isinstance(tr, English) or translated != extra:
            out.append(translated)
    return out
