"""The trick games' table: the trick around the table, the contract and trumps, hands by suit.

Read from a view of `core.tricks` (layout kind ``"tricks"``):

* `tricks_image` (the registered drawer): a band with the contract and
  trumps (or the bids while bidding), then the table seen from above, seat 1
  at the bottom (S), seat 2 on the left (W), seat 3 at the top (N), seat 4 on
  the right (E), in the order of play; each seat's tile of the current trick
  in front of it, the tile winning the trick glowing; each position says the
  seat, its bid and its team's tricks and points.
* `last_trick_png(view)`: the last trick taken, laid out the same way.
* `tricks_hand_image(view)`: a seat's hand grouped by suit, trumps first (the
  view gives the hand in that order), the legal tiles ringed.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from . import canvas, theme, tile
from .board import register_layout
from .geometry import parse_tile
from .words import N_, Translator, t, tn

WIDTH, HEIGHT = 640, 476
BAND = 64
HALF = 34
HAND_HALF = 48
# where each seat sits, by its place after seat 0: bottom, left, top, right
PLACES = ((0.5, 0.82), (0.16, 0.5), (0.5, 0.14), (0.84, 0.5))
# the compass point of each place, as a word; the picture shows its first letter (S, O, N, E in
# French)
COMPASS = (N_("South"), N_("West"), N_("North"), N_("East"))


def compass(place: int, tr: Translator | None) -> str:
    """The compass letter of a place round the table, in the reader's language."""
    return t(tr, COMPASS[place])[:1]


def _trumps_text(view: dict[str, Any], tr: Translator | None) -> str:
    trumps = view.get("trumps")
    if trumps is None:
        return t(tr, "No trumps yet")
    if trumps == "nello":
        return t(tr, "Nello: the bidder must lose every trick")
    if trumps == "nello-low":
        return t(tr, "Nello, doubles low: the bidder must lose every trick")
    if trumps == "nello-doubles":
        return t(tr, "Nello, doubles a suit: the bidder must lose every trick")
    if trumps == "sevens":
        return t(tr, "Sevens: the tile nearest 7 pips wins")
    if trumps == "doubles":
        return t(tr, "Trumps: the doubles, 6-6 highest")
    if trumps == "follow-me":
        return t(tr, "No trumps (follow-me), doubles high")
    if trumps == "follow-me-low":
        return t(tr, "No trumps (follow-me), doubles low")
    return t(tr, "Trumps: {n}", n=trumps)


def who(seat: int, names: list[str] | None, tr: Translator | None = None) -> str:
    """A seat by its player's name ("Seat 3" when it has none)."""
    if names and seat < len(names) and names[seat]:
        return names[seat]
    return t(tr, "Seat {n}", n=seat + 1)


def band_lines(view: dict[str, Any], tr: Translator | None = None,
               names: list[str] | None = None) -> list[str]:
    """The two lines above the table: the contract (or the bidding) and trumps."""
    contract = view.get("contract")
    phase = view.get("phase")
    if contract is None or phase == "bidding":
        top = t(tr, "Bidding")
        high = [b for b in view.get("bids") or [] if b["bid"] != "pass"]
        if high:
            top += "  ·  " + t(tr, "high bid {bid} ({who})", bid=high[-1]["bid"],
                               who=who(high[-1]["seat"], names, tr))
    else:
        top = t(tr, "Contract {bid} by {who}", bid=contract["text"],
                who=who(contract["seat"], names, tr))
    second = _trumps_text(view, tr) if phase != "bidding" else t(
        tr, "Each seat bids once, higher than the last bid, or passes")
    return [top, second]


def _table(view: dict[str, Any], plays: list[dict[str, Any]], winner: int | None,
           tr: Translator | None, title: str | None = None,
           names: list[str] | None = None) -> Image.Image:
    im = canvas.felt(WIDTH, HEIGHT)
    draw = ImageDraw.Draw(im)
    lines = [title] if title else band_lines(view, tr, names)
    for i, line in enumerate(lines):
        text = canvas.fit_text(line, 22 if i == 0 else 18, WIDTH - 24, bold=i == 0)
        canvas.draw_text(im, (WIDTH / 2, 10 + i * 28), text, 22 if i == 0 else 18,
                         theme.TEXT if i == 0 else theme.TEXT_SOFT, "mt", bold=i == 0)
    top = BAND + 8
    draw.rounded_rectangle((120, top + 30, WIDTH - 120, HEIGHT - 40), radius=40,
                           outline=theme.FELT_EDGE, width=3)
    height = HEIGHT - top
    by_seat = {p["seat"]: p["tile"] for p in plays}
    bids = {b["seat"]: b["bid"] for b in view.get("bids") or []}
    team_tricks = view.get("team_tricks") or [0, 0]
    team_points = view.get("team_points") or [0, 0]
    out = view.get("sits_out")
    for seat in range(4):
        fx, fy = PLACES[seat]
        cx, cy = fx * WIDTH, top + fy * height
        label = f"{compass(seat, tr)} · " + who(seat, names, tr)
        turn = view.get("to_move") == seat and not view.get("over") and title is None
        colour = theme.LAST if turn else theme.TEAMS[seat % 2]
        lx, ly = _label_at(seat, cx, cy)
        canvas.draw_text(im, (lx, ly), label, 18, colour, "mm", bold=True)
        extra = []
        if seat in bids:
            extra.append(t(tr, "pass") if bids[seat] == "pass" else bids[seat])
        if seat == out:
            extra.append(t(tr, "sits out"))
        if seat < 2 and view.get("phase") != "bidding":
            extra.append(tn(tr, "team: {n} trick", "team: {n} tricks", team_tricks[seat])
                         + ", " + tn(tr, "{n} point", "{n} points", team_points[seat]))
        for i, text in enumerate(extra):  # one line each, kept inside the picture
            half = canvas.text_mask(text, 15).width / 2
            x = min(max(lx, half + 6), WIDTH - half - 6)
            canvas.draw_text(im, (x, ly + 20 + 18 * i), text, 15, theme.TEXT_SOFT, "mm")
        if seat in by_seat:
            a, b = parse_tile(by_seat[seat])
            o = "v" if seat % 2 == 0 else "h"
            tx, ty, _, _ = trick_rects(plays)[seat]
            style = "last" if seat == winner else "plain"
            if style == "last":
                mask, (dx, dy) = tile.glow_mask(o, HALF)
                im.paste(theme.LAST, (tx + dx, ty + dy), mask)
            mask, (dx, dy) = tile.shadow_mask(o, HALF)
            im.paste(theme.SHADOW, (tx + dx, ty + dy), mask)
            sprite = tile.sprite(a, b, o, HALF, style)
            im.paste(sprite, (tx, ty), sprite)
    return im


def _label_at(seat: int, cx: float, cy: float) -> tuple[float, float]:
    if seat == 0:
        return cx, cy + 14
    if seat == 2:
        return cx, cy - 30
    return cx, cy - 8


def trick_rects(plays: list[dict[str, Any]]) -> dict[int, tuple[int, int, int, int]]:
    """Where each seat's tile of a trick goes (x0, y0, x1, y1): in front of the seat,
    around the middle of the table; standing for seats 1 and 3, lying for 2 and 4."""
    mx, my = WIDTH / 2, BAND + 8 + (HEIGHT - BAND - 8) / 2
    out = {}
    for p in plays:
        seat = int(p["seat"])
        w, h = tile.footprint("v" if seat % 2 == 0 else "h", HALF)
        x, y = {0: (mx - w / 2, my + 12), 2: (mx - w / 2, my - 12 - h),
                1: (mx - 24 - w, my - h / 2), 3: (mx + 24, my - h / 2)}[seat]
        out[seat] = (round(x), round(y), round(x) + w, round(y) + h)
    return out


def tricks_image(view: dict[str, Any], tr: Translator | None = None,
                 names: list[str] | None = None) -> Image.Image:
    """The table of a trick game: the contract and trumps, the trick on the table."""
    return _table(view, list(view.get("trick") or []), view.get("trick_winner"), tr,
                  names=names)


def last_trick_image(view: dict[str, Any], tr: Translator | None = None,
                     names: list[str] | None = None) -> Image.Image:
    """The last trick taken this round (an empty table before the first one)."""
    past = view.get("tricks") or []
    if not past:
        return _table(view, [], None, tr, t(tr, "No trick taken yet"), names=names)
    last = past[-1]
    title = t(tr, "Trick {n}: {who} takes {points}", n=len(past),
              who=who(last["winner"], names, tr), points=last["points"])
    return _table(view, last["tiles"], last["winner"], tr, title, names=names)


def last_trick_png(view: dict[str, Any], tr: Translator | None = None,
                   names: list[str] | None = None) -> bytes:
    """The last trick taken, as PNG bytes (public: every past trick is)."""
    return canvas.encode_png(canvas.frame(last_trick_image(view, tr, names)))


def suit_groups(view: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The hand in groups (trumps first, then the suits from 6 down), as the view orders it."""
    trumps = view.get("trumps")
    number = trumps if isinstance(trumps, int) else None
    apart = {"doubles": "T", "nello-doubles": "D"}.get(str(trumps))  # the doubles' group
    groups: list[tuple[str, list[str]]] = []
    for text in view.get("hand") or []:
        a, b = parse_tile(text)
        key = "T" if number is not None and number in (a, b) else str(max(a, b))
        if apart and a == b:
            key = apart
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        groups[-1][1].append(text)
    return groups


def tricks_hand_image(view: dict[str, Any], tr: Translator | None = None) -> Image.Image:
    """A seat's hand grouped by suit, trumps first, the legal tiles ringed."""
    groups = suit_groups(view)
    legal = {str(m) for m in view.get("legal") or []}
    moving = bool(legal)
    h = HAND_HALF
    gap, group_gap, margin = 10, 30, 18
    count = sum(len(g) for _, g in groups)
    width = max(480, 2 * margin + count * (h + gap) + max(0, len(groups) - 1) * group_gap)
    height = margin + 30 + 24 + 2 * h + 30 + margin
    im = canvas.felt(width, height)
    heading = tn(tr, "Your hand: {n} tile", "Your hand: {n} tiles", count)
    phase = view.get("phase")
    if moving and phase != "playing":
        heading += "  ·  " + (t(tr, "your bid") if phase == "bidding" else t(tr, "name trumps"))
    canvas.draw_text(im, (margin, margin), canvas.fit_text(heading, 22, width - 2 * margin), 22,
                     theme.TEXT)
    x = (width - (count * (h + gap) - gap + max(0, len(groups) - 1) * group_gap)) // 2
    y = margin + 30 + 24
    for key, tiles in groups:
        name = (t(tr, "trumps") if key == "T" else t(tr, "doubles") if key == "D"
                else t(tr, "{n}s", n=key))
        span = len(tiles) * (h + gap) - gap
        canvas.draw_text(im, (x + span / 2, y - 6), name, 17,
                         theme.LAST if key == "T" else theme.TEXT_SOFT, "mb")
        for text in tiles:
            a, b = parse_tile(text)
            style: tile.Style = "plain"
            if moving and phase == "playing":
                style = "legal" if text in legal else "dim"
            mask, (dx, dy) = tile.shadow_mask("v", h)
            im.paste(theme.SHADOW, (x + dx, y + dy), mask)
            sprite = tile.sprite(a, b, "v", h, style)
            im.paste(sprite, (x, y), sprite)
            colour = theme.LEGAL if style == "legal" else theme.TEXT_SOFT
            canvas.draw_text(im, (x + h / 2, y + 2 * h + 6), text, 18, colour, "mt")
            x += h + gap
        x += group_gap - gap + gap
    return im


def is_tricks(view: dict[str, Any]) -> bool:
    layout = view.get("layout")
    return isinstance(layout, dict) and layout.get("kind") == "tricks"


register_layout("tricks", draw=tricks_image)
