"""The registry of variants: `names()` and `get(slug)`."""

from __future__ import annotations

from ..errors import unknown_variant
from ..variant import Variant
from .all_fives import AllFives
from .bergen import Bergen
from .canton import Canton
from .cent_a_zero import CentAZero
from .classic import Classic, TeteATete
from .cross import Cross
from .forty_two import FortyTwo, Texas42
from .hongrois import Hongrois
from .magnetic import Magnetic
from .matador import K, Matador
from .memory import Memory
from .muggins import FivesAndThrees, Muggins, Threes
from .nombres import Nombres
from .partnership import Partnership
from .patience import Patience
from .poule import Poule
from .puzzles import PUZZLES
from .quinconce import Quinconce
from .rubicon import Rubicon
from .sans_pioche import SansPioche
from .school import School
from .sebastopol import Sebastopol
from .tower import Tower
from .vingt import Vingt
from .whist import QuiPerdGagne, Whist

_ALL: dict[str, Variant] = {
    v.slug: v
    for v in (
        Classic(), TeteATete(), Magnetic(), School(), SansPioche(), Partnership(),
        Matador(), K(), Muggins(), Threes(), AllFives(), FivesAndThrees(), Bergen(),
        Rubicon(), Nombres(), Hongrois(), CentAZero(), Poule(), Whist(), QuiPerdGagne(),
        Canton(), Sebastopol(), Cross(),
        FortyTwo(), Texas42(),  # tricks
        Memory(),  # memory
        Tower(), Quinconce(),  # stack
        Vingt(),  # grid
        Patience(), *(cls() for cls in PUZZLES),  # solitaire and puzzles
    )
}


def names() -> list[str]:
    """Every variant slug, in the order of RULES.md."""
    return list(_ALL)


def get(slug: str) -> Variant:
    """The variant called `slug`; `UnknownVariant` lists the known ones."""
    found = _ALL.get(slug) if slug.__class__ is str else None  # a slug as registered
    if found is not None:
        return found
    key = str(slug).strip().lower()
    if key in _ALL:
        return _ALL[key]
    shown = str(slug)[:40]
    raise unknown_variant("unknown variant {name!r}; the variants are: {variants}", name=shown,
                          variants=", ".join(_ALL))


def all_variants() -> list[Variant]:
    return list(_ALL.values())

