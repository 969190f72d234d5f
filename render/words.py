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


def tn(tr: Translator | None, singular: str, plural: str, n: int, **values: Any) -> str:
    """The singular or plural form for ``n``, translated, with ``{n}`` filled."""
    return (tr or ENGLISH).ngettext(singular, plural, n).format(n=n, **values)
