"""The registry of variants: `names()` and `get(slug)`."""

from __future__ import annotations

from ..errors import UnknownVariant
from ..variant import Variant
from .classic import Classic, TeteATete
from .magnetic import Magnetic
from .partnership import Partnership
from .sans_pioche import SansPioche
from .school import School

_ALL: dict[str, Variant] = {
    v.slug: v
    for v in (Classic(), TeteATete(), Magnetic(), School(), SansPioche(), Partnership())
}


def names() -> list[str]:
    """Every variant slug, in the order of RULES.md."""
    return list(_ALL)


def get(slug: str) -> Variant:
    """The variant called `slug`; `UnknownVariant` lists the known ones."""
    key = str(slug).strip().lower()
    if key in _ALL:
        return _ALL[key]
    shown = str(slug)[:40]
    raise UnknownVariant(f"unknown variant {shown!r}; the variants are: {', '.join(_ALL)}")


def all_variants() -> list[Variant]:
    return list(_ALL.values())
