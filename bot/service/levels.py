"""Computer levels at a table: parsing a level a player typed, and the seat names that show it.

A computer seat stores its level in `SeatRow.ai` ("easy", "normal", "hard", "expert"; the
older "random" and "greedy" read as easy and normal), so a restart keeps it, and
`Table.bot(seat)` gives it to `core.ai.make_player`.  The seat's name says the level in a
short form: "CPU 2 (hard)" (a computer of the default level, normal, is "CPU 1").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.ai import ALIASES, LEVELS, levels_for
from core.errors import bad_option

from ..i18n import N_, t
from .messages import Action, action_data

if TYPE_CHECKING:
    from .tables import Table

DEFAULT = "normal"
# the level words a player may type, French ones included
TYPED = {**{level: level for level in LEVELS}, "random": "easy", "greedy": "normal",
         "facile": "easy", "moyen": "normal", "fort": "hard", "difficile": "hard"}
# a stored kind -> its level
LEVEL_OF = {**{level: level for level in LEVELS}, **{old: new for new, old in ALIASES.items()}}
WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"),
         "expert": N_("expert")}


def parse_level(text: str | None, default: str = DEFAULT) -> str:
    """The level a player typed ("hard", "difficile"...; nothing: `default`); an
    `OptionError` naming the levels when it is none of them."""
    if text is None or not str(text).strip():
        return default
    word = str(text).strip().lower()[:40]
    if word not in TYPED:
        raise bad_option("unknown computer level {level}: choose easy, normal, hard or expert",
                         level=word)
    return TYPED[word]


def check_level(kind: str, variant: Any) -> None:
    """An `OptionError` when `variant`'s games have no computer of level `kind`: a family
    without a searcher has no `hard` or `expert` (it would play as `normal`)."""
    if LEVEL_OF.get(kind, kind) not in levels_for(variant):
        raise bad_option("this game has no hard or expert computer yet: choose easy or normal")


def level_word(kind: str | None, lang: str) -> str:
    """The level of a stored kind, as a short word in `lang`."""
    return t(lang, WORDS[LEVEL_OF.get(kind or "", DEFAULT)])


def mark_levels(table: Table) -> None:
    """Add its level to the name of each computer seat of a lobby: "CPU 2 (hard)"; the
    default level (normal) keeps names short: "CPU 1"."""
    for s in table.computers():
        if s.user_id is None and LEVEL_OF.get(s.ai or "", DEFAULT) != DEFAULT:
            s.name = t(table.lang, "{name} ({level})", name=s.name,
                       level=level_word(s.ai, table.lang))


def add_buttons(table_id: int, lang: str, levels: tuple[str, ...] = LEVELS
                ) -> tuple[Action, ...]:
    """The lobby's buttons that add a computer of another level than "Add computer"'s
    (normal), on their own row: of the `levels` the game has (`levels_for`)."""
    return tuple(Action(t(lang, "+ Computer ({level})", level=t(lang, WORDS[level])),
                        action_data(table_id, 0, "a", level), row=1)
                 for level in levels if level != DEFAULT)
