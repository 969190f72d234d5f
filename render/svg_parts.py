"""The web board's SVG parts: the reading of a move into its tile and target KEY
(`move_parts`, `target_keys`) and the shapes every painter draws with (tiles, backs,
targets, texts, the picture itself).  `render.svg` says the KEYs and paints the boards."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from html import escape
from typing import Any

from . import pips
from .board import view_layout

TARGET_MIN = 40  # a target's smallest side in px of the picture
MIN_VIEW = 420  # the narrowest picture (px of the geometry)
ARMS = ("right", "left", "up", "down")
STACK_RE = re.compile(r"^(?:on|under|next) (\d+)([enws]?) [a-z]+$")
CELL_RE = re.compile(r"^[A-Y]\d{1,2}$")
TILE_RE = re.compile(r"^\d{1,2}-\d{1,2}$")

Attrs = dict[str, str]


# -- reading moves ------------------------------------------------------------------------------

def move_parts(view: dict[str, Any], move: str) -> tuple[str | None, str | None]:
    """``(tile, target KEY)`` of a legal move string; None where it has none. The tile is
    spelt as the hand spells it (vingt writes a tile the way it is laid: ``3-4``)."""
    tile, key = _move_parts(view, move)
    hand = {str(x) for x in view.get("hand") or []}
    if tile and tile not in hand:
        a, _, b = tile.partition("-")
        if f"{b}-{a}" in hand:
            tile = f"{b}-{a}"
    return tile, key


def _move_parts(view: dict[str, Any], move: str) -> tuple[str | None, str | None]:
    kind = view_layout(view).get("kind", "line")
    words = move.split()
    first = words[0] if words else ""
    if kind == "memory" and CELL_RE.match(move):
        return None, move
    if kind == "patience" and len(words) == 2 and all(TILE_RE.match(w) for w in words):
        return None, move
    if kind == "puzzle":
        if len(words) == 3 and TILE_RE.match(first):
            return first, f"{words[1]} {words[2]}"
        if len(words) == 2 and first == "remove":
            return None, f"remove-{words[1]}"
        return None, None
    if kind == "stack" and TILE_RE.match(first):
        m = STACK_RE.match(" ".join(words[1:]))
        return first, (m.group(1) + m.group(2)) if m else None
    if kind == "grid" and TILE_RE.match(first):
        cell = next((w for w in words if CELL_RE.match(w)), None)
        return first, cell
    if TILE_RE.match(first):
        return first, (words[1] if len(words) == 2 and words[1] in ARMS else None)
    if first in ("give",) and len(words) == 2 and TILE_RE.match(words[1]):
        return words[1], None
    return None, None


def target_keys(view: dict[str, Any]) -> set[str]:
    """Every target KEY of the view's legal moves (each part of a pair); none in a public
    view (``seat`` None), whose page makes no move."""
    out: set[str] = set()
    if view.get("seat") is None:
        return out
    for move in view.get("legal") or []:
        _, key = move_parts(view, str(move))
        if key:
            out.update(key.split())
    return out


# -- shapes -------------------------------------------------------------------------------------

def _attrs(attrs: Attrs) -> str:
    return "".join(f' {k}="{escape(str(v))}"' for k, v in attrs.items())


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _rect(x0: float, y0: float, x1: float, y1: float, cls: str, r: float = 0,
          extra: str = "") -> str:
    rr = f' rx="{_num(r)}"' if r else ""
    return (f'<rect class="{cls}" x="{_num(x0)}" y="{_num(y0)}" width="{_num(x1 - x0)}" '
            f'height="{_num(y1 - y0)}"{rr}{extra}/>')


def _text(x: float, y: float, text: str, size: float, cls: str = "label",
          anchor: str = "middle") -> str:
    return (f'<text class="{cls}" x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
            f'text-anchor="{anchor}" dominant-baseline="central">{escape(text)}</text>')


def _pips(rect: tuple[float, float, float, float], value: int, horizontal: bool) -> str:
    x0, y0, x1, y1 = rect
    side = min(x1 - x0, y1 - y0)
    r = pips.radius(value) * side
    return "".join(f'<circle class="pip" cx="{_num(x0 + u * (x1 - x0))}" '
                   f'cy="{_num(y0 + v * (y1 - y0))}" r="{_num(r)}"/>'
                   for u, v in pips.layout(value, horizontal))


def _tile(x0: float, y0: float, x1: float, y1: float, a: int, b: int, *,
          style: str = "", attrs: Attrs | None = None, tagged: bool = True) -> str:
    """Tile ``a-b`` filling the box, ``a`` left (lying) or top (standing); `tagged`: with
    its ``data-tile`` and label (not inside a hand's button, which carries them).  Made
    once per box, tile and style (a board's tiles stay where they are from state to state:
    a web state redraws the same tiles again and again)."""
    return _tile_text(x0, y0, x1, y1, a, b, style, tuple((attrs or {}).items()), tagged)


@functools.lru_cache(maxsize=16384)
def _tile_text(x0: float, y0: float, x1: float, y1: float, a: int, b: int, style: str,
               attrs: tuple[tuple[str, str], ...], tagged: bool) -> str:
    horizontal = (x1 - x0) >= (y1 - y0)
    side = min(x1 - x0, y1 - y0)
    pad = max(1.0, side * 0.04)
    body = _rect(x0 + pad, y0 + pad, x1 - pad, y1 - pad, f"tile {style}".strip(), side * 0.15)
    if horizontal:
        mx = (x0 + x1) / 2
        one, two = (x0, y0, mx, y1), (mx, y0, x1, y1)
        divider = f'<line class="divider" x1="{_num(mx)}" y1="{_num(y0 + side * .15)}" ' \
                  f'x2="{_num(mx)}" y2="{_num(y1 - side * .15)}"/>'
    else:
        my = (y0 + y1) / 2
        one, two = (x0, y0, x1, my), (x0, my, x1, y1)
        divider = f'<line class="divider" x1="{_num(x0 + side * .15)}" y1="{_num(my)}" ' \
                  f'x2="{_num(x1 - side * .15)}" y2="{_num(my)}"/>'
    label = f"{a}-{b}"
    head = _attrs({"data-tile": label, "aria-label": label, "role": "img", **dict(attrs)}
                  if tagged else {"aria-hidden": "true"})
    return (f"<g{head}>{body}{divider}{_pips(one, a, horizontal)}"
            f"{_pips(two, b, horizontal)}</g>")


def _back(x0: float, y0: float, x1: float, y1: float, label: str = "",
          attrs: Attrs | None = None, spoken: str = "") -> str:
    """A face-down tile, `label` written on its back; `spoken` its text alternative."""
    side = min(x1 - x0, y1 - y0)
    text = _text((x0 + x1) / 2, (y0 + y1) / 2, label, side * 0.45, "back-label") if label else ""
    head = _attrs({"role": "img", "aria-label": spoken or label or "?", **(attrs or {})})
    return f"<g{head}>{_rect(x0 + 1, y0 + 1, x1 - 1, y1 - 1, 'back', side * .15)}{text}</g>"


def _target(key: str, box: tuple[float, float, float, float], label: str,
            round_: bool = False, minimum: float = TARGET_MIN) -> str:
    """A target: its visible ring (the box) inside a hit area at least `minimum` wide."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = max(x1 - x0, minimum), max(y1 - y0, minimum)
    hit = _rect(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, "hit")
    if round_:
        ring = (f'<circle class="ring" cx="{_num(cx)}" cy="{_num(cy)}" '
                f'r="{_num(min(x1 - x0, y1 - y0) / 2)}"/>')
    else:
        ring = _rect(x0 + 2, y0 + 2, x1 - 2, y1 - 2, "ring", 6)
    head = _attrs({"class": "target", "data-target": key, "aria-label": label})
    return f"<g{head}>{hit}{ring}</g>"


def _svg(width: float, height: float, kind: str, body: Iterable[str], label: str,
         least: float = MIN_VIEW) -> str:
    """The whole picture; one narrower than `least` is centred in that width (a lone
    spinner would otherwise fill a phone's screen; a line keeps one scale as it grows)."""
    x0 = min(0.0, (width - least) / 2)
    width = max(width, least)
    box = f"{_num(x0)} 0 {_num(width)} {_num(height)}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board board-{kind}" '
            f'viewBox="{box}" role="group" aria-label="{escape(label)}">'
            f'<rect class="felt" x="{_num(x0)}" y="0" width="{_num(width)}" '
            f'height="{_num(height)}" rx="12"/>{"".join(body)}</svg>')


@functools.lru_cache(maxsize=512)
def tile_svg(a: int, b: int, *, face_down: bool = False) -> str:
    """One tile standing, for a hand: ``<svg>`` 40 x 80 (a back when ``face_down``)."""
    inner = _back(0, 0, 40, 80) if face_down else _tile(0, 0, 40, 80, a, b, tagged=False)
    label = "?" if face_down else f"{a}-{b}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="tile-svg" viewBox="0 0 40 80" '
            f'role="img" aria-label="{label}">{inner}</svg>')
