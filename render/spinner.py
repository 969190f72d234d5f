"""The spinner and the cross (and double-nine trees): geometry only, no pixels.

Layout format (defined here; core makes it for the cross variants, issue 7)::

    {"kind": "cross",
     "spinner": "6-6",                  # the first double, the one with four arms
     "arms": [right, left, up, down],   # lists of tiles; missing or empty arms allowed
     "open": [true, true, true, true],  # optional: which *empty* arms are open ends
     "last": [arm, i] | [arm, i, branch, j, ...] | [] | null}

Each arm lists its tiles outward from the spinner, each oriented outward (its
first half touches the inner neighbour), e.g. right arm ``["6-3", "3-1"]``.
Right and left arms leave the spinner's long sides, up and down its ends.

Double-nine cross (every double opens two new chains): a tile of an arm may be
``{"tile": "3-3", "branches": [left_branch, right_branch]}``; the arm goes on
past the double, and the two branches leave its short ends, *left* and
*right* as seen travelling outward. Branches have the same form, recursively.
A plain ``"3-3"`` is a double laid crosswise that opens nothing. ``last``
names the tile played last: ``[arm, i]`` is ``arms[arm][i]``; ``[arm, i, b, j]``
is tile ``j`` of branch ``b`` (0 left, 1 right) of the double at
``arms[arm][i]``, and so on; ``[]`` is the spinner; ``null`` none. Each placed
tile's ``path`` is the same tuple.

Open-end markers: at the tip of every non-empty arm and branch, at the sides
of the spinner whose arm is empty and listed open, and at both short ends of
a branching double whose branches are empty.

Placement: the arms leave the spinner like a pinwheel. The right arm runs
right and, at the picture's edge, snakes downward; the left arm runs left and
snakes upward; the up arm rises as a stem, then snakes upward on the right
side; the down arm drops, then snakes downward on the left side. So arms
never cross. Branches grow wherever there is room (see `render.engine`),
every placement being checked against everything already laid. A double that
opens branches sits straight in its chain, never at a corner, so the chain
runs on through it and its branches leave its two ends: a "+" that reads at
a glance. Only when no such tree fits is a corner allowed there (still
straight where there is room). The half size shrinks from 44 px (not below
28 px) when the tree does not fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import Builder, ExitValue, Item, LayoutFailed, SnakePolicy, Task, finish, lay
from .geometry import EAST, NORTH, SOUTH, WEST, Board, Half, PlacedTile, Rect, parse_tile

MAX_WIDTH = 1280
MAX_HEIGHT = 1100
MARGIN = 14
SIZES = (44, 40, 36, 32, 28)
STEMS = (3, 6, 1)

Path = tuple[int, ...]


def spinner_layout(layout: dict[str, Any], max_width: int = MAX_WIDTH) -> Board:
    """Place a spinner layout (see the module docstring) without overlaps."""
    if "spinner" not in layout:
        raise ValueError('a cross layout needs its "spinner" (a double such as "6-6")')
    center = parse_tile(layout["spinner"])
    if center[0] != center[1]:
        raise ValueError(f"the spinner must be a double, not {layout['spinner']}")
    last = _last(layout.get("last"))
    arms_in = list(layout.get("arms") or [])
    if len(arms_in) > 4:
        raise ValueError("a spinner has at most four arms (right, left, up, down)")
    arms_in += [[]] * (4 - len(arms_in))
    arms = [_items(arm, (k,), last) for k, arm in enumerate(arms_in)]
    opened = list(layout.get("open") or [True] * 4) + [True] * 4
    best: Board | None = None
    branching = any(it.branches for arm in arms for it in _walk(arm))
    for h in SIZES:
        for straight, stem in [(s, stem) for s in (True, False)[: 1 + branching]
                               for stem in STEMS]:
            try:
                board = _lay(center[0], arms, opened[:4], last, h, stem, max_width,
                             straight and branching)
            except LayoutFailed:
                continue
            if board.height <= MAX_HEIGHT:
                return board
            if best is None or board.height < best.height:
                best = board
    if best is None:
        raise LayoutFailed("the tree does not fit the picture")
    return best


def _last(value: object) -> Path | None:
    if value is None:
        return None
    if isinstance(value, Sequence) and not isinstance(value, str):
        return tuple(int(v) for v in value)
    raise ValueError(f"bad 'last' in a spinner layout: {value!r}")


def _items(chain: Sequence[Any], prefix: Path, last: Path | None) -> tuple[Item, ...]:
    out = []
    for i, entry in enumerate(chain):
        path = (*prefix, i)
        branches = None
        if isinstance(entry, dict):
            a, b = parse_tile(entry["tile"])
            raw = list(entry.get("branches") or [[], []])
            if a != b:
                raise ValueError(f"only a double opens branches, not {entry['tile']}")
            if len(raw) != 2:
                raise ValueError("a branching double has exactly two branches (left, right)")
            branches = (_items(raw[0], (*path, 0), last), _items(raw[1], (*path, 1), last))
        else:
            a, b = parse_tile(entry)
        out.append(Item(a, b, path, path == last, branches))
    return tuple(out)


def _lay(
    c: int, arms: list[tuple[Item, ...]], opened: list[bool], last: Path | None,
    h: int, stem: int, max_width: int, straight: bool = False,
) -> Board:
    clearance = max(4, h // 4)
    half_width = (max_width - 2 * MARGIN) // 2
    n = sum(len(_walk(arm)) for arm in arms)
    b = Builder(h, clearance, -half_width, half_width, budget=400 * n + 4000,
                straight_branching=straight)
    reserve = max(b.gap + 2 * b.radius, h // 2)
    edge = half_width - reserve
    inner = h + clearance
    rect = Rect(-h // 2, -h, h // 2, h)
    halves = (Half(Rect(-h // 2, -h, h // 2, 0), c), Half(Rect(-h // 2, 0, h // 2, h), c))
    b.push(rect, b.new_chain(), PlacedTile(c, c, rect, halves, EAST, True, (), last == (), True))
    ylim = h + 2 * h * stem
    starts = (
        ((h // 2, 0), EAST, SnakePolicy(SOUTH, inner, edge), ("row", None)),
        ((-h // 2, 0), WEST, SnakePolicy(NORTH, -edge, -inner), ("row", None)),
        ((0, -h), NORTH, SnakePolicy(NORTH, inner, edge, ylim), ("stem", EAST)),
        ((0, h), SOUTH, SnakePolicy(SOUTH, -edge, -inner, ylim), ("stem", WEST)),
    )
    tasks = []
    for arm, is_open, (at, d, policy, state) in zip(arms, opened, starts, strict=True):
        if not arm and not is_open:
            continue
        tasks.append(Task(arm, 0, at, d, True, False, False, 0, 1, b.new_chain(), policy,
                          state if arm else ExitValue(c), True))
    lay(b, tuple(tasks))
    return finish(b, MARGIN)


def _walk(items: tuple[Item, ...]) -> list[Item]:
    """Every item of a chain and of its branches, recursively."""
    out = []
    for it in items:
        out.append(it)
        for branch in it.branches or ():
            out += _walk(branch)
    return out
