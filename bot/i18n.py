"""Translations: gettext catalogues (Babel) under bot/locales, read from the .po files.

Source strings are English; `t(lang, text, **values)` returns the text in `lang` ("fr" or
"en") with its ``{name}`` placeholders filled, `tn` the singular or plural form.
`lang_for` picks a user's language from their platform locale, else the server's default
(setting "lang"), else English.

How the catalogues are built: there is no build step.  The French catalogue is the text file
``bot/locales/fr/LC_MESSAGES/domino.po``; at the first use of a language it is read with
``babel.messages.pofile.read_po``, compiled in memory with ``babel.messages.mofile.write_mo``
and loaded as ``babel.support.Translations``.  So a plain ``pip install -e .`` (or a wheel,
which packs the .po files) works, and no compiled .mo file can go stale.

To add or change a string: write it in English in the code, marked with ``t``, ``tn`` or
``N_`` (literal text only); run ``python -m bot.i18n`` to list the strings missing from the
French catalogue; add them to domino.po.  tests/test_i18n.py fails while one is missing or
its placeholders differ.

The rules core (standard library only) raises errors whose English templates are marked with
``illegal``, ``bad_option``, ``unknown_variant`` or ``N_`` (core/errors.py); `error_text`
shows such an error in a player's language.
"""

from __future__ import annotations

import io
import re
import string
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "domino"
LANGUAGES = ("en", "fr")
# The marking functions, as Babel keywords: which arguments are the English text.  Besides
# `t`, `tn` and `N_`: the service's ``self._t(user, table, text)``, and the rules core's error
# templates (core/errors.py: ``illegal``, ``bad_option``, ``unknown_variant``, ``N_``).
KEYWORDS: dict[str, Any] = {"t": (2,), "tn": (2, 3), "N_": None, "_t": (3,),
                            "illegal": (1,), "bad_option": (1,), "unknown_variant": (1,)}


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _catalog(lang: str) -> NullTranslations:
    path = po_path(lang)
    if lang == "en" or not path.is_file():
        return NullTranslations()
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


def t(lang: str, text: str, **values: Any) -> str:
    """`text` translated into `lang`, with its placeholders filled."""
    out = _catalog(lang).gettext(text)
    return out.format(**values) if values else out


def tn(lang: str, singular: str, plural: str, n: int, **values: Any) -> str:
    """The singular or plural form for `n`, translated, with ``{n}`` filled."""
    out = _catalog(lang).ngettext(singular, plural, n)
    return out.format(n=n, **values)


def translator(lang: str) -> NullTranslations:
    """`lang`'s catalogue (``gettext``/``ngettext``), for code that takes a translator:
    the pictures (`render`)."""
    return _catalog(lang)


END_WORD = re.compile(r"\b(left|right|up|down)\b")


def end_words(text: str, lang: str) -> str:
    """The end words of a move or an end name in `lang` ("6-4 left" -> "6-4 gauche",
    "up-3-left" -> "haut-3-gauche"); the move notation reads the French words too."""
    return END_WORD.sub(lambda m: t(lang, m[1]), text)


def error_text(lang: str, exc: BaseException) -> str:
    """A rules core error in `lang`: its English template translated and filled with its
    values (a tuple value is a list of alternatives, "a or b"), else its message as is."""
    template = getattr(exc, "template", None)
    if not template:
        return str(exc)
    from core.errors import UnknownVariant

    if isinstance(exc, UnknownVariant):
        from .suggest import variant_guess

        name = str(getattr(exc, "values", {}).get("name", ""))
        guess = variant_guess(name)
        if guess is not None:  # the closest name, not the list of every variant
            return t(lang, "unknown variant {name!r}: did you mean {guess}?", name=name,
                     guess=guess)
    sep = t(lang, " or ")
    values = {k: sep.join(map(str, v)) if isinstance(v, tuple) else v
              for k, v in getattr(exc, "values", {}).items()}
    for key in ("side", "moves"):  # an end's name ("up-3-left"), moves ("6-4 left")
        if isinstance(values.get(key), str):
            values[key] = end_words(values[key], lang)
    return _catalog(lang).gettext(template).format(**values)


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


# Where marked strings live: the bot's own text, the pictures' labels (render/) and the rules
# core's messages (core/), all in the one catalogue.
SOURCES = ("bot", "render", "core")


def source_strings() -> Iterator[tuple[str, str | tuple[str, ...]]]:
    """Every marked string of bot/, render/ and core/ as (where, message): a str, or
    (singular, plural)."""
    top = Path(__file__).resolve().parent.parent
    for folder in SOURCES:
        for filename, lineno, message, _comments, _context in extract_from_dir(
                top / folder, method_map=[("**.py", "python")], keywords=KEYWORDS,
                comment_tags=(), strip_comment_tags=True):
            yield f"{folder}/{filename}:{lineno}", message


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a format string (format specs included: ``{rate:.0%}``)."""
    out = set()
    for _literal, name, spec, _conv in string.Formatter().parse(text):
        if name is not None:
            out.add(f"{name}:{spec}" if spec else name)
    return out


def missing(lang: str = "fr") -> list[str]:
    """Marked strings with no translation in `lang`'s catalogue, as .po entries to fill."""
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    out: list[str] = []
    for where, message in source_strings():
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key)
        if entry is None or not entry.string or not all(entry.string):
            out.append(f"#: {where}\nmsgid {key!r}")
    return out


if __name__ == "__main__":
    todo = missing()
    print("\n\n".join(todo) if todo else "every string has a French translation")
    sys.exit(1 if todo else 0)
