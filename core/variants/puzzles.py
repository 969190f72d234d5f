"""The six puzzles of booklet 000: `reussite`, `quadrille`, `magic-square`, `magic-squares`,
`magic-triangle` and `magic-star`, one seat each (see core.solitaire.puzzles).

Option ``puzzle`` names a shipped puzzle, ``level`` a difficulty; with
neither, the seed picks one of the kind's puzzles.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..errors import bad_option
from ..options import Option, resolve
from ..solitaire.puzzles import catalogue
from ..solitaire.puzzles.rules import PuzzleGame
from ..variant import Variant, checked_seed


def puzzle_options(kind: str) -> tuple[Option, ...]:
    levels = [lv for lv in catalogue.LEVELS if any(e["level"] == lv and e["kind"] == kind
                                                   for e in catalogue.entries())]
    return (
        Option("puzzle", "any", ("any", *catalogue.ids(kind)),
               help="a shipped puzzle by name (any: one picked by the seed)"),
        Option("level", "any", ("any", *levels),
               help="the difficulty of the puzzle picked (when no puzzle is named)"),
    )


class PuzzleVariant(Variant):
    """A puzzle kind: one seat, its shipped puzzles, the rules of `PuzzleGame`."""

    family = "puzzle"
    seeds = ("000",)
    min_players, max_players, default_players = 1, 1, 1
    options: ClassVar[tuple[Option, ...]] = ()

    def new(self, players: int | None = None, seed: int | None = None,
            deal: dict[str, Any] | None = None, **options: Any) -> PuzzleGame:
        self.check_players(1 if players is None else players)
        if deal is not None:
            raise bad_option("{variant} takes no deal: its tiles are all on the table",
                             variant=self.slug)
        seed = checked_seed(seed)
        opts = resolve(self.slug, self.options, options)
        puzzle = catalogue.pick(self.slug, opts["puzzle"], opts["level"], seed)
        return PuzzleGame(self, puzzle, seed, opts)


class Reussite(PuzzleVariant):
    slug = "reussite"
    names = {"fr": "Réussite", "en": "Matching frame"}
    options = puzzle_options(slug)


class Quadrille(PuzzleVariant):
    slug = "quadrille"
    names = {"fr": "Quadrille", "en": "Quadrille"}
    options = puzzle_options(slug)


class MagicSquare(PuzzleVariant):
    slug = "magic-square"
    names = {"fr": "Carré magique", "en": "Magic square"}
    options = puzzle_options(slug)


class MagicSquares(PuzzleVariant):
    slug = "magic-squares"
    names = {"fr": "Carrés magiques", "en": "Magic hollow squares"}
    options = puzzle_options(slug)


class MagicTriangle(PuzzleVariant):
    slug = "magic-triangle"
    names = {"fr": "Triangle magique", "en": "Magic triangle"}
    options = puzzle_options(slug)


class MagicStar(PuzzleVariant):
    slug = "magic-star"
    names = {"fr": "Étoile magique", "en": "Magic star"}
    options = puzzle_options(slug)


PUZZLES = (Reussite, Quadrille, MagicSquare, MagicSquares, MagicTriangle, MagicStar)
