"""The tournament standings as a picture (issue 31): a table of place, name, points and the
format's tie-breaks; at the end, the podium's top three marked with gold, silver and bronze.

`standings_png(tid, rows, tie_breaks, round_no, final, tr)` is a pure function of plain data:
each row a mapping with ``rank``, ``name``, ``points``, ``tie_breaks`` (key -> value) and
``dropped``; the words are translated by ``tr`` (None: English), as in the other pictures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from . import canvas, png, theme
from .words import Translator, t, tn

MARGIN = 22
TITLE = 28
HEAD = 21
TEXT = 25
ROW = 44
MAX_WIDTH = 800
MIN_WIDTH = 420
PLACE_W = 52
NAME_MAX = 300  # the widest a name's column grows (longer names are cut with an ellipsis)
NAME_MIN = 140
NAME_CHARS = 60  # a longer name is cut to this many characters before `fit_text`
BREAK_MAX = 220
PAIR = " & "  # between a fixed pair's names (bot/tournament/teams.py)
LIMIT = 20  # rows drawn; the rest counted under the table
MEDALS: tuple[theme.RGB, ...] = ((236, 190, 48), (196, 204, 212), (205, 127, 50))
STRIPE: theme.RGB = (24, 94, 61)


def tie_break_label(key: str, tr: Translator | None) -> str:
    labels = {"buchholz": t(tr, "Buchholz"), "sonneborn_berger": t(tr, "Sonneborn-Berger"),
              "head_to_head": t(tr, "head-to-head"), "game_points": t(tr, "game points"),
              "rounds_won": t(tr, "rounds won")}
    return labels.get(key, key)


def _number(x: float) -> str:
    return f"{x:g}"


def standings_image(tid: int, rows: Sequence[Mapping[str, Any]], tie_breaks: Sequence[str],
                    round_no: int, final: bool, tr: Translator | None = None) -> Image.Image:
    """The standings table (see the module's docstring)."""
    title = (t(tr, "Tournament #{id}: final standings", id=tid) if final else
             t(tr, "Tournament #{id}: standings after round {n}", id=tid, n=round_no))
    shown = list(rows[:LIMIT])
    heads = [t(tr, "points"), *(tie_break_label(k, tr) for k in tie_breaks)]
    values = [[_number(r["points"]), *(_number(r["tie_breaks"].get(k, 0)) for k in tie_breaks)]
              for r in shown]
    cols = []
    for i, head in enumerate(heads):
        widest = max([canvas.text_mask(v[i], TEXT, i == 0).width for v in values] or [0])
        cols.append(min(BREAK_MAX, max(widest, canvas.text_mask(head, HEAD).width) + 24))
    tags = [t(tr, " (dropped)") if r.get("dropped") else "" for r in shown]
    names = [str(r["name"])[:NAME_CHARS] for r in shown]  # wider than any column already
    name_w = max([canvas.text_mask(n + g, TEXT).width for n, g in zip(names, tags, strict=True)]
                 or [0]) + 16
    fixed = 2 * MARGIN + PLACE_W + sum(cols)
    name_w = max(NAME_MIN, min(name_w, NAME_MAX, MAX_WIDTH - fixed))
    width = max(MIN_WIDTH, min(MAX_WIDTH, fixed + name_w))
    name_w = width - fixed
    more = len(rows) - len(shown)
    title_h = TITLE + 24
    height = MARGIN + title_h + ROW * (len(shown) + 1) + (ROW if more > 0 else 0) + MARGIN
    im = canvas.felt(width, height)
    draw = ImageDraw.Draw(im)
    title = canvas.fit_text(title, TITLE, width - 2 * MARGIN, True)
    canvas.draw_text(im, (width / 2, MARGIN + TITLE // 2), title, TITLE, theme.WIN, "mm", True)
    y = MARGIN + title_h
    x_cols = [MARGIN + PLACE_W + name_w]
    for w in cols[:-1]:
        x_cols.append(x_cols[-1] + w)
    canvas.draw_text(im, (MARGIN + PLACE_W / 2, y + ROW / 2), "#", HEAD, theme.TEXT_SOFT, "mm")
    for x, w, head in zip(x_cols, cols, heads, strict=True):
        shown_head = canvas.fit_text(head, HEAD, w - 8)
        canvas.draw_text(im, (x + w - 8, y + ROW / 2), shown_head, HEAD, theme.TEXT_SOFT, "rm")
    y += ROW
    draw.line((MARGIN, y - 2, width - MARGIN, y - 2), fill=theme.FELT_EDGE, width=2)
    for i, (r, name, tag, vals) in enumerate(zip(shown, names, tags, values, strict=True)):
        if i % 2:
            draw.rectangle((MARGIN, y, width - MARGIN, y + ROW - 1), fill=STRIPE)
        rank = int(r["rank"])
        mid = y + ROW / 2
        colour = theme.TEXT_OUT if r.get("dropped") else theme.TEXT
        if final and rank <= 3:
            _medal(im, (MARGIN + PLACE_W // 2, round(mid)), rank)
            colour = MEDALS[rank - 1] if rank == 1 else theme.TEXT
        else:
            canvas.draw_text(im, (MARGIN + PLACE_W / 2, mid), str(rank), TEXT, theme.TEXT_SOFT,
                             "mm")
        bold = final and rank <= 3
        tag_w = canvas.text_mask(tag, TEXT).width if tag else 0
        name = _fit_name(name, max(40, name_w - 16 - tag_w), bold)
        box = canvas.draw_text(im, (MARGIN + PLACE_W + 4, mid), name, TEXT, colour, "lm", bold)
        if tag:
            canvas.draw_text(im, (box[2], mid), tag, TEXT, theme.TEXT_OUT, "lm")
        for j, (x, w, v) in enumerate(zip(x_cols, cols, vals, strict=True)):
            canvas.draw_text(im, (x + w - 8, mid), v, TEXT,
                             theme.TEXT if j == 0 else theme.TEXT_SOFT, "rm", j == 0)
        y += ROW
    if more > 0:
        line = tn(tr, "… and {n} more.", "… and {n} more.", more)
        canvas.draw_text(im, (MARGIN + PLACE_W + 4, y + ROW / 2), line, HEAD, theme.TEXT_SOFT,
                         "lm")
    return im


def _fit_name(name: str, width: int, bold: bool) -> str:
    """A name within `width`; a pair's ("Ann & Bob") cuts each partner's name by half, so
    that both show."""
    whole = canvas.fit_text(name, TEXT, width, bold)
    parts = name.split(PAIR)
    if whole == name or len(parts) != 2:
        return whole
    room = width - canvas.text_mask(PAIR, TEXT, bold).width
    short = min((0, 1), key=lambda i: canvas.text_mask(parts[i], TEXT, bold).width)
    fitted = canvas.fit_text(parts[short], TEXT, max(20, room // 2), bold)
    left = room - canvas.text_mask(fitted, TEXT, bold).width
    other = canvas.fit_text(parts[1 - short], TEXT, max(20, left), bold)
    return PAIR.join((fitted, other) if short == 0 else (other, fitted))


def _medal(im: Image.Image, centre: tuple[int, int], rank: int) -> None:
    """A podium place: a gold, silver or bronze disc with the place's number."""
    radius = 17
    k = 4
    big = Image.new("RGBA", (2 * radius * k, 2 * radius * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.ellipse((0, 0, 2 * radius * k - 1, 2 * radius * k - 1), fill=(*theme.SHADOW, 255))
    d.ellipse((k * 2, k * 2, 2 * radius * k - 1 - k * 2, 2 * radius * k - 1 - k * 2),
              fill=(*MEDALS[rank - 1], 255))
    disc = big.reduce(k)
    x, y = centre
    im.paste(disc, (x - radius, y - radius), disc)
    canvas.draw_text(im, (x, y), str(rank), 22, theme.TEXT_DARK, "mm", True)


def standings_png(tid: int, rows: Sequence[Mapping[str, Any]], tie_breaks: Sequence[str],
                  round_no: int, final: bool, tr: Translator | None = None) -> bytes:
    """The standings as PNG bytes."""
    return png.encode_png(canvas.frame(standings_image(tid, rows, tie_breaks, round_no, final,
                                                       tr)))
