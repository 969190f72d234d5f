"""Translations: gettext catalogues (made with Babel) under bot/locales.

Source strings are English; `t(lang, text, **values)` returns the text in
`lang` ("fr" or "en") with ``{name}`` placeholders filled.  `lang_for`
picks a user's language from their platform locale, else the server's
default, else English.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Any

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "domino"
LANGUAGES = ("en", "fr")


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALES, languages=[lang], fallback=True)


def t(lang: str, text: str, **values: Any) -> str:
    """`text` translated into `lang`, with its placeholders filled."""
    out = _catalog(lang).gettext(text) if lang != "en" else text
    return out.format(**values) if values else out


def tn(lang: str, singular: str, plural: str, n: int, **values: Any) -> str:
    """The singular or plural form for `n`, translated, with ``{n}`` filled."""
    out = _catalog(lang).ngettext(singular, plural, n)
    return out.format(n=n, **values)


def N_(text: str) -> str:
    """Mark a string for extraction without translating it now."""
    return text


def lang_for(locale: str | None, default: str | None = None) -> str:
    """"fr" for a French locale ("fr", "fr-FR", "fr_CA"), else the default, else "en"."""
    if locale:
        code = locale.replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return default if default in LANGUAGES else "en"
