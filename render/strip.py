"""The table strip under the board: one panel per seat, then a line about the match.

A seat's panel shows its name, tiles left and score, and its chips when the
view has ``chips`` (Rubicon); the seat to move gets a brighter panel and an
arrow, winners a gold name, seats out of the round or gone from the match a
grey panel, partners a coloured bar of their team's colour. The line under
the panels gives the stock, the round, the match target and the variant's
running state in the table's language (`words.status_lines`: what each end takes, the
ends' count, the pot...). Built from the public view only; the words go through the
caller's translator (`render.words`).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from . import canvas, theme
from .words import Translator, seat_label, seat_tiles, status_lines, t, tn

GAP = 10
STOCKLESS = {"memory", "patience", "puzzle", "tricks"}  # layouts of games with no stock at all


def text_size_for(width: int) -> int:
    """Text size for a picture ``width`` px wide (it is shrunk to a phone's width)."""
    return max(20, min(36, width // 32))


def seat_names(view: dict[str, Any], names: list[str] | None, tr: Translator | None = None,
               ) -> list[str]:
    """Drawable names for every seat: ``names`` where given, else "Seat 1", "Seat 2"..."""
    players = int(view.get("players") or len(view.get("hand_sizes") or []))
    out = []
    for seat in range(players):
        given = names[seat] if names is not None and seat < len(names) else ""
        text = " ".join(theme.safe_text(given or "").split())
        out.append(text or seat_label([], seat, tr))
    return out


def info_line(view: dict[str, Any], names: list[str], tr: Translator | None = None) -> str:
    """Stock, round, match target and whose turn, as one line."""
    parts = []
    stock = view.get("stock")
    if stock is not None and (view.get("layout") or {}).get("kind") not in STOCKLESS:
        parts.append(t(tr, "Stock {n}", n=stock) if stock else t(tr, "No stock"))
    if view.get("round"):
        parts.append(t(tr, "Round {n}", n=view["round"]))
    goal = target_text(view, tr)
    if goal:
        parts.append(goal)
    elif view.get("rounds"):
        parts.append(tn(tr, "Game of {n} round", "Game of {n} rounds", view["rounds"]))
    turn = turn_text(view, names, tr)
    if turn:
        parts.append(turn)
    return "  ·  ".join(parts)


def turn_text(view: dict[str, Any], names: list[str], tr: Translator | None = None
              ) -> str | None:
    """"Game over", or whose turn it is (None when nobody's, or for a seat without a name)."""
    to_move = view.get("to_move")
    if view.get("over"):
        return t(tr, "Game over")
    if to_move is not None and 0 <= to_move < len(names):
        return t(tr, "{name} to play", name=names[to_move])
    return None


def target_text(view: dict[str, Any], tr: Translator | None = None) -> str | None:
    """The match target in a few words, read the way the match is won.

    Reaching the target leaves the match when ``target_reach`` is "loses" (K,
    Hongrois, Sebastopol); a target at or below 0 that wins is a countdown
    (Cent a zero: totals start above it and points are taken off).
    """
    target = view.get("target")
    if target is None:
        return None
    if view.get("target_reach") == "loses":
        return t(tr, "Out at {target} points", target=target)
    if target <= 0:
        return t(tr, "First down to {target} wins", target=target)
    return t(tr, "Game to {target} points", target=target)


def extra_line(view: dict[str, Any], tr: Translator | None, names: list[str] | None = None,
               ) -> str | None:
    """The variant's running state (`words.status_lines`: what each end takes, the ends'
    count, the pot...) as one line, in the table's language; None when it has none."""
    seats = names if names is not None else seat_names(view, None, tr)
    return " ".join(status_lines(view, seats, tr)) or None


def seats_out(view: dict[str, Any]) -> set[int]:
    """Seats out of the round (``out``, ``eliminated``) or gone from the match (``gone``)."""
    return {*(view.get("out") or []), *(view.get("eliminated") or []), *(view.get("gone") or [])}


def strip_image(view: dict[str, Any], names: list[str] | None, width: int,
                tr: Translator | None = None) -> Image.Image:
    """The strip, ``width`` px wide, for the public ``view``, its words translated by ``tr``."""
    seats = seat_names(view, names, tr)
    size = text_size_for(width)
    small = round(size * 0.8)
    n = max(1, len(seats))
    panel_h = 2 * size + small + 22
    lines = [info_line(view, seats, tr)]
    extra = extra_line(view, tr, seats)
    if extra:
        lines.append(extra)
    height = GAP + panel_h + GAP + len(lines) * (small + 12) + GAP
    im = canvas.felt(width, height)
    for seat, (name, (x, panel_w)) in enumerate(zip(seats, panels(n, width), strict=False)):
        _panel(im, view, seat, name, (x, GAP, x + panel_w, GAP + panel_h), (size, small), tr)
    y = GAP + panel_h + GAP
    for line in lines:
        text = canvas.fit_text(line, small, width - 2 * GAP)
        canvas.draw_text(im, (width / 2, y), text, small, theme.TEXT_SOFT, "mt")
        y += small + 12
    return im


def panels(n: int, width: int) -> list[tuple[int, int]]:
    """(left x, width) of each of the `n` seat panels in a strip ``width`` px wide, centred
    (render.canton puts each seat's captured pile above its panel)."""
    w = min(360, (width - GAP * (n + 1)) // n)
    x = (width - (w * n + GAP * (n - 1))) // 2
    return [(x + i * (w + GAP), w) for i in range(n)]


def _panel(
    im: Image.Image, view: dict[str, Any], seat: int, name: str,
    box: tuple[int, int, int, int], sizes: tuple[int, int], tr: Translator | None,
) -> None:
    size, small = sizes
    x0, y0, x1, y1 = box
    out = seat in seats_out(view)
    turn = view.get("to_move") == seat and not view.get("over")
    winners = (view.get("result") or {}).get("winners") or []
    fill = theme.PANEL_OUT if out else theme.PANEL_TURN if turn else theme.PANEL
    draw = ImageDraw.Draw(im)
    draw.rounded_rectangle(box, radius=10, fill=fill,
                           outline=theme.LAST if turn else None, width=3)
    team = _team_of(view, seat)
    if team is not None:
        colour = theme.TEAMS[team % len(theme.TEAMS)]
        draw.rounded_rectangle((x0, y0, x0 + 8, y1), radius=4, fill=colour)
    text_colour = theme.TEXT_OUT if out else theme.TEXT
    left = x0 + 18
    if turn:
        top = y0 + 10 + size * 0.15
        arrow = size * 0.7
        draw.polygon([(left, top), (left, top + arrow), (left + arrow * 0.8, top + arrow / 2)],
                     fill=theme.LAST)
        left += round(arrow) + 6
    scores = view.get("scores") or []
    score = str(scores[seat]) if seat < len(scores) else ""
    # scores in regular weight: a stroked 5 closes up and reads as a 6
    score_w = canvas.text_mask(score, size).width if score else 0
    name_colour = theme.WIN if seat in winners else text_colour
    name_text = canvas.fit_text(name, size, x1 - 14 - score_w - 12 - left, bold=True)
    canvas.draw_text(im, (left, y0 + 8), name_text, size, name_colour, bold=True)
    right = x1 - 14  # where the label under the name must end
    if score:
        canvas.draw_text(im, (x1 - 14, y0 + 8), score, size, name_colour, "rt")
        if not view.get("chips"):
            right = canvas.draw_text(im, (x1 - 14, y1 - 10), _points_word(scores[seat], tr),
                                     small, theme.TEXT_SOFT, "rb")[0] - 10
    tiles = seat_tiles(view, seat, tr)
    label_end = x0 + 18
    if tiles is not None:
        label = t(tr, "winner") if seat in winners else t(tr, "out") if out else tiles
        fit = small  # a long label ("8 dominos gagnés") shrinks, then is cut, beside "points"
        while fit > small * 0.7 and canvas.text_mask(label, fit).width > right - label_end:
            fit -= 1
        label = canvas.fit_text(label, fit, right - label_end)
        label_end = canvas.draw_text(im, (x0 + 18, y1 - 10), label, fit, text_colour, "lb")[2]
    chips = view.get("chips") or []
    if seat < len(chips):  # the chips take the place of the word "points"
        _chips(im, (label_end + 12, x1 - 14), y1 - 10, int(chips[seat]), small, tr)


def _points_word(score: Any, tr: Translator | None) -> str:
    """ "point" or "points" after a score, by the language's plural rule ("1 point", "0 point"
    in French); the number itself is drawn apart, larger."""
    n = abs(int(score)) if isinstance(score, int) else 2
    return tn(tr, "point", "points", n).format(n=n)


def _chips(im: Image.Image, span: tuple[int, int], bottom: int, count: int, size: int,
           tr: Translator | None) -> None:
    """A chip (a red disc with a white ring) then "4 chips" (or just "4" when the
    words do not fit), right-aligned between ``span``'s x bounds on a text line."""
    x0, x1 = span
    r = round(size * 0.42)
    text = tn(tr, "{n} chip", "{n} chips", count)
    if canvas.text_mask(text, size).width + 2 * r + 6 > x1 - x0:
        text = str(count)
    box = canvas.draw_text(im, (x1, bottom), text, size, theme.TEXT, "rb")
    cx, cy = box[0] - 6 - r, (box[1] + box[3]) // 2
    ImageDraw.Draw(im).ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.CHIP,
                               outline=theme.TEXT, width=max(2, r // 4))


def _team_of(view: dict[str, Any], seat: int) -> int | None:
    for i, team in enumerate(view.get("teams") or []):
        if seat in team:
            return i
    return None
