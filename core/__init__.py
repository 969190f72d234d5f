"""The rules core: tiles, moves, variants and matches. Standard library only.

    from core import variants
    g = variants.get("classic").new(players=3, seed=7)
    while not g.over:
        g.play(g.legal_moves()[0])
"""

from . import variants
from .errors import DominoError, IllegalMove, OptionError, UnknownVariant
from .line.match import LineMatch as Match
from .moves import Move
from .replay import replay
from .tiles import Tile

__all__ = [
    "DominoError",
    "IllegalMove",
    "Match",
    "Move",
    "OptionError",
    "Tile",
    "UnknownVariant",
    "replay",
    "variants",
]
