"""Tiles and sets: the `Tile` value, tile ids, and per-set lookup tables.

Inside the engine a tile is a small int id: ``hi * (hi + 1) // 2 + lo`` for the
tile ``hi-lo`` (hi >= lo).  Ids do not depend on the set, so 6-4 has the same id
in a double-six and a double-nine set, and a set of tiles fits in an int bitmask.
`deal_tile` reads one tile of a hand-built deal (`deal=`) in a set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache

from .errors import bad_option

_TILE_RE = re.compile(r"^\s*\[?\s*(\d{1,2})\s*[-:|/x]\s*(\d{1,2})\s*\]?\s*$")


def tile_id(a: int, b: int) -> int:
    """The id of the tile with halves a and b (in any order)."""
    hi, lo = (a, b) if a >= b else (b, a)
    return hi * (hi + 1) // 2 + lo


def id_halves(tid: int) -> tuple[int, int]:
    """The halves (hi, lo) of a tile id."""
    hi = int(((8 * tid + 1) ** 0.5 - 1) / 2)
    while hi * (hi + 1) // 2 > tid:
        hi -= 1
    while (hi + 1) * (hi + 2) // 2 <= tid:
        hi += 1
    return hi, tid - hi * (hi + 1) // 2


class Tile(tuple[int, int]):
    """An immutable domino, written high half first: ``Tile(4, 6)`` is ``6-4``."""

    __slots__ = ()

    def __new__(cls, a: int, b: int) -> Tile:
        if a < 0 or b < 0:
            raise ValueError("a tile's halves are 0 or more")
        return super().__new__(cls, (a, b) if a >= b else (b, a))

    @property
    def high(self) -> int:
        return self[0]

    @property
    def low(self) -> int:
        return self[1]

    @property
    def pips(self) -> int:
        return self[0] + self[1]

    @property
    def is_double(self) -> bool:
        return self[0] == self[1]

    @property
    def id(self) -> int:
        return tile_id(self[0], self[1])

    def __str__(self) -> str:
        return f"{self[0]}-{self[1]}"

    def __repr__(self) -> str:
        return f"Tile({self[0]}, {self[1]})"

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``"6-4"`` (also ``4-6``, ``6:4``, ``6|4``, ``[6|4]``)."""
        m = _TILE_RE.match(text)
        if not m:
            raise ValueError(f"not a tile: {text[:20]!r} (write it like 6-4)")
        return cls(int(m.group(1)), int(m.group(2)))


class TileSet:
    """A double-N set with the tables the engine's hot path reads."""

    __slots__ = (
        "all_mask",
        "bits",
        "doubles",
        "hi",
        "ids",
        "lo",
        "lookup",
        "max_pip",
        "names",
        "pip_bytes",
        "pip_halves",
        "pips",
        "size",
        "value_mask",
    )

    def __init__(self, max_pip: int, exclude: tuple[str, ...] = ()) -> None:
        self.max_pip = max_pip
        excluded = {Tile.parse(t).id for t in exclude}
        self.ids = [
            tile_id(hi, lo)
            for hi in range(max_pip + 1)
            for lo in range(hi + 1)
            if tile_id(hi, lo) not in excluded
        ]
        top = tile_id(max_pip, max_pip) + 1
        self.hi = [id_halves(t)[0] for t in range(top)]
        self.lo = [id_halves(t)[1] for t in range(top)]
        self.pips = [self.hi[t] + self.lo[t] for t in range(top)]
        self.names = [f"{self.hi[t]}-{self.lo[t]}" for t in range(top)]
        self.pip_bytes = _pip_bytes(self.pips)
        # a set of at most 28 tile ids (up to double-six): two tables of 14 tile ids each
        self.pip_halves = None if top > 2 * HALF else _pip_halves()
        self.size = len(self.ids)
        self.all_mask = 0
        for t in self.ids:
            self.all_mask |= 1 << t
        self.value_mask = [0] * (max_pip + 1)
        for t in self.ids:
            self.value_mask[self.hi[t]] |= 1 << t
            self.value_mask[self.lo[t]] |= 1 << t
        self.doubles = [t for t in self.ids if self.hi[t] == self.lo[t]]
        self.lookup: dict[object, int] = {}  # "6-4" and "4-6" -> id
        for t in self.ids:
            self.lookup[f"{self.hi[t]}-{self.lo[t]}"] = t
            self.lookup[f"{self.lo[t]}-{self.hi[t]}"] = t
        self.bits = {text: 1 << t for text, t in self.lookup.items()}  # "6-4" -> its bit

    def parse(self, text: str) -> int:
        """The id of a tile of this set written as text."""
        try:
            tile = Tile.parse(text)
        except ValueError as exc:
            raise ValueError(str(exc)) from None
        tid = tile.id
        if tile.high > self.max_pip or not (self.all_mask >> tid) & 1:
            raise ValueError(f"{tile} is not a tile of the double-{self.max_pip} set")
        return tid

    def mask_pips(self, mask: int) -> int:
        """Total pips of the tiles in a bitmask."""
        return self.masks_pips((mask,))[0]

    def masks_pips(self, masks: Iterable[int]) -> list[int]:
        """Total pips of each bitmask (two reads up to double-six, else a byte at a time)."""
        halves = self.pip_halves
        if halves is not None:
            low, high = halves
            return [low[mask & HALF_MASK] + high[mask >> HALF] for mask in masks]
        tables = self.pip_bytes
        out = []
        for mask in masks:
            total = 0
            for table in tables:
                if not mask:
                    break
                total += table[mask & 255]
                mask >>= 8
            out.append(total)
        return out

    def mask_names(self, mask: int) -> list[str]:
        """The tiles of a bitmask as strings, highest half first (6-6, 6-5, ..., 0-0)."""
        out = list(iter_ids(mask))
        out.sort(key=lambda t: (self.hi[t], self.lo[t]), reverse=True)
        return [self.names[t] for t in out]


HALF = 14  # tile ids per table of `TileSet.pip_halves`
HALF_MASK = (1 << HALF) - 1


def _pip_table(pips: list[int], start: int, width: int) -> list[int]:
    """The pips of every subset of the `width` tile ids from `start` (a mask's bits)."""
    table = [0] * (1 << width)
    for bits in range(1, 1 << width):
        low = (bits & -bits).bit_length() - 1
        extra = pips[start + low] if start + low < len(pips) else 0
        table[bits] = table[bits & (bits - 1)] + extra
    return table


@cache
def _pip_halves() -> tuple[list[int], list[int]]:
    """The pips of every subset of tile ids 0-13 and of 14-27 (a tile's pips depend on its id
    only, so every set up to double-six shares them: built once)."""
    pips = [sum(id_halves(t)) for t in range(2 * HALF)]
    return _pip_table(pips, 0, HALF), _pip_table(pips, HALF, HALF)


def _pip_bytes(pips: list[int]) -> list[list[int]]:
    """For each 8 tile ids, the pips of every subset of them (a byte of a mask)."""
    return [_pip_table(pips, start, 8) for start in range(0, len(pips), 8)]


def iter_ids(mask: int) -> Iterator[int]:
    """Yield the tile ids of a bitmask, lowest id first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return mask.bit_count()


@cache
def tile_set(max_pip: int, exclude: tuple[str, ...] = ()) -> TileSet:
    """The shared (read-only) table for a double-N set."""
    if not 1 <= max_pip <= 15:
        raise ValueError("sets go from double-1 to double-15")
    return TileSet(max_pip, exclude)


def twenty_set() -> TileSet:
    """The 54 tiles of the "20" game (004): double-nine without the double blank."""
    return tile_set(9, ("0-0",))


def deal_tile(ts: TileSet, text: object, seen: int) -> int:
    """The id of one tile of a hand-built deal, refusing unknown tiles and a tile dealt twice
    (`seen`: the bitmask of the tiles dealt so far)."""
    t = ts.lookup.get(text) if isinstance(text, str) else None
    if t is None:
        try:
            t = ts.parse(str(text))
        except (ValueError, TypeError) as exc:
            raise bad_option("deal: {why}", why=str(exc)) from None
    if (seen >> t) & 1:
        raise bad_option("deal: {tile} is dealt twice", tile=ts.names[t])
    return t
