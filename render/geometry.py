"""Plain geometry shared by every board layout: rectangles, placed tiles, end markers.

Coordinates are integer pixels, x to the right and y downwards. A tile is two
square *halves* of side ``h`` (the half size); laid in line it covers ``2h x h``
along its direction of travel, and a double laid crosswise covers ``h x 2h``
(its two halves side by side across the line).

A layout function (``render.line``, ``render.spinner``...) returns a `Board`:
the placed tiles, each with the rectangles and values of its two halves, and
the open-end markers, already translated so that everything lies inside
``(0, 0, width, height)``. Tests check those rectangles without drawing.
"""

from __future__ import annotations

from dataclasses import dataclass

Vec = tuple[int, int]
MAX_PIP = 12  # the largest half-face drawn (double-twelve sets)

EAST: Vec = (1, 0)
SOUTH: Vec = (0, 1)
WEST: Vec = (-1, 0)
NORTH: Vec = (0, -1)


def left_of(d: Vec) -> Vec:
    """The direction 90 degrees to the left of ``d`` (screen coordinates, y down)."""
    return (d[1], -d[0])


def right_of(d: Vec) -> Vec:
    """The direction 90 degrees to the right of ``d``."""
    return (-d[1], d[0])


def add(p: Vec, d: Vec, k: int = 1) -> Vec:
    """``p + k * d``."""
    return (p[0] + k * d[0], p[1] + k * d[1])


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle ``[x0, x1) x [y0, y1)``."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def moved(self, dx: int, dy: int) -> Rect:
        return Rect(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)

    def overlaps(self, other: Rect, clearance: int = 0) -> bool:
        """True when the rectangles share area, or come closer than ``clearance``."""
        c = clearance
        return (
            self.x0 < other.x1 + c
            and other.x0 < self.x1 + c
            and self.y0 < other.y1 + c
            and other.y0 < self.y1 + c
        )

    def contact(self, other: Rect) -> int:
        """Length of the edge segment the two rectangles share (0 if they do not touch)."""
        if self.x1 == other.x0 or other.x1 == self.x0:
            return max(0, min(self.y1, other.y1) - max(self.y0, other.y0))
        if self.y1 == other.y0 or other.y1 == self.y0:
            return max(0, min(self.x1, other.x1) - max(self.x0, other.x0))
        return 0

    def inside(self, other: Rect) -> bool:
        return (
            self.x0 >= other.x0 and self.y0 >= other.y0
            and self.x1 <= other.x1 and self.y1 <= other.y1
        )


def span(p: Vec, d: Vec, t0: int, t1: int, w0: int, w1: int) -> Rect:
    """The rectangle of points ``p + t*d + w*right_of(d)``, t in [t0, t1], w in [w0, w1]."""
    r = right_of(d)
    xs = [p[0] + t * d[0] + w * r[0] for t in (t0, t1) for w in (w0, w1)]
    ys = [p[1] + t * d[1] + w * r[1] for t in (t0, t1) for w in (w0, w1)]
    return Rect(min(xs), min(ys), max(xs), max(ys))


@dataclass(frozen=True, slots=True)
class Half:
    """One half of a placed tile: its square and its pip value."""

    rect: Rect
    value: int


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on the board.

    ``a`` is the value of the half that touches the previous tile (the inner
    neighbour), ``b`` the outer one; ``halves`` are (inner, outer) for a tile in
    line, and the two side-by-side halves of a crosswise double. ``direction``
    is the direction of travel when it was laid; ``path`` locates it in the view's
    layout (an int index in a line; a tuple path in a spinner, see
    `render.spinner`).
    """

    a: int
    b: int
    rect: Rect
    halves: tuple[Half, Half]
    direction: Vec
    crosswise: bool
    path: object = None
    last: bool = False
    spinner: bool = False

    @property
    def horizontal(self) -> bool:
        return self.rect.width > self.rect.height

    @property
    def faces(self) -> tuple[int, int]:
        """Values as drawn: (left, right) when horizontal, (top, bottom) when vertical."""
        h0, h1 = self.halves
        if (h0.rect.x0, h0.rect.y0) <= (h1.rect.x0, h1.rect.y0):
            return (h0.value, h1.value)
        return (h1.value, h0.value)

    def moved(self, dx: int, dy: int) -> PlacedTile:
        return PlacedTile(
            self.a, self.b, self.rect.moved(dx, dy),
            (Half(self.halves[0].rect.moved(dx, dy), self.halves[0].value),
             Half(self.halves[1].rect.moved(dx, dy), self.halves[1].value)),
            self.direction, self.crosswise, self.path, self.last, self.spinner,
        )


@dataclass(frozen=True, slots=True)
class Marker:
    """An open-end marker: a small disc showing ``value`` (or ``label``, what the end takes
    when that is not the outer half, as in Matador), beyond an end, pointing ``direction``."""

    value: int
    rect: Rect
    direction: Vec
    label: str = ""

    def moved(self, dx: int, dy: int) -> Marker:
        return Marker(self.value, self.rect.moved(dx, dy), self.direction, self.label)

    def text(self) -> str:
        return self.label or str(self.value)


@dataclass(slots=True)
class Board:
    """A laid-out board: tiles and markers inside ``(0, 0, width, height)``; ``half`` is h."""

    tiles: list[PlacedTile]
    markers: list[Marker]
    width: int
    height: int
    half: int

    @property
    def canvas(self) -> Rect:
        return Rect(0, 0, self.width, self.height)


def place(p: Vec, d: Vec, a: int, b: int, h: int, across: bool | None = None
          ) -> tuple[Rect, tuple[Half, Half], bool]:
    """Lay tile ``a-b`` (``a`` touching) against the edge whose midpoint is ``p``, going ``d``.

    It lies crosswise when ``across`` says so (by default: when it is a double);
    crosswise, both halves touch the edge, ``a`` on the left of ``d``. Returns the
    tile rectangle, its halves and whether it lies crosswise.
    """
    if not (a == b if across is None else across):
        inner = span(p, d, 0, h, -h // 2, h // 2)
        outer = span(p, d, h, 2 * h, -h // 2, h // 2)
        return span(p, d, 0, 2 * h, -h // 2, h // 2), (Half(inner, a), Half(outer, b)), False
    one = span(p, d, 0, h, -h, 0)
    two = span(p, d, 0, h, 0, h)
    return span(p, d, 0, h, -h, h), (Half(one, a), Half(two, b)), True


def straight_exit(p: Vec, d: Vec, crosswise: bool, h: int) -> Vec:
    """Where the next tile attaches when the line goes on straight."""
    return add(p, d, h if crosswise else 2 * h)


def turn_exit(p: Vec, d: Vec, new: Vec, crosswise: bool, h: int) -> Vec:
    """Where the next tile attaches when the line turns to ``new`` (perpendicular to ``d``).

    After a tile in line it is the side of its outer half; after a crosswise
    double it is the double's short end on that side.
    """
    if crosswise:
        return add(add(p, d, h // 2), new, h)
    return add(add(p, d, 3 * h // 2), new, h // 2)


def bounding(rects: list[Rect]) -> Rect:
    return Rect(
        min(r.x0 for r in rects), min(r.y0 for r in rects),
        max(r.x1 for r in rects), max(r.y1 for r in rects),
    )


def parse_tile(text: str) -> tuple[int, int]:
    """``"6-4"`` -> ``(6, 4)``; anything else is a clear `ValueError`."""
    a, sep, b = str(text).strip().partition("-")
    if not (sep and a.isdigit() and b.isdigit() and int(a) <= MAX_PIP and int(b) <= MAX_PIP):
        raise ValueError(f"bad tile {text!r}: write it 'a-b' with values from 0 to {MAX_PIP}")
    return int(a), int(b)
