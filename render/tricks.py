"""The trick games' table: the trick around the table, the contract and trumps, hands by suit.

Read from a view of `core.tricks` (layout kind ``"tricks"``).  A phone shows a picture about
360 px wide, so the trick is the largest thing drawn and the picture is narrow; nothing the
game does not have is drawn (no stock, no tiles left per seat: every seat holds the same).

* `tricks_image` (the registered drawer, and the whole public picture: `render.position_png`
  draws no strip under it): a band with the contract and trumps (or the bidding) and what
  the trick says, then the table seen from above, the first seat at the bottom (S), the
  second on the left (W), the third at the top (N), the fourth on the right (E); each seat's
  tile of the trick in front of it, the winning tile glowing (the bids there while bidding);
  then one row per team: its names, its tricks and points this hand, its match total (in
  Texas, the marks as players tally them: the strokes of "ALL" for a game to 7).  The trick
  a move just completed stays on the table in that move's picture, with its winner.
* `last_trick_png(view, names)`: the last trick taken (after a hand's seventh trick, that
  hand's, until the next hand's first), laid out the same way.
* `sheet_image(view, names, lines)`: the hand that just ended (``view["last_round"]``): its
  last trick on the table, its contract and trumps, each team's tricks, points and total, and
  the score sheet's `lines` under it.
* `tricks_hand_image(view)`: a seat's hand grouped by suit, trumps first (the view gives the
  hand in that order), the legal tiles ringed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from . import canvas, png, theme, tile
from .board import register_layout
from .geometry import parse_tile
from .strip import seat_names, turn_text
from .words import N_, Translator, t, tn

WIDTH = 640
BAND = 84  # the two lines above the table
HALF = 56  # a trick's tile: 56 x 112 px, a sixth of the picture's width
GAP = 12  # between the trick's tiles and the middle of the table
HEIGHT = 452  # the bottom of the table (the team rows follow)
MIDDLE = (WIDTH / 2, BAND + 182)
SIDE = 150  # the width a seat's name may take left and right of the trick
ROW = 44  # a team's row
NAME, DETAIL, LINE, SHEET = 23, 19, 21, 20  # text sizes
NAME_HEIGHT = 32  # px of a seat's name line (its ink box at NAME px, accents included)
HAND_HALF = 48
# where each seat's name goes, by its place after seat 0: bottom, left, top, right
COMPASS = (N_("South"), N_("West"), N_("North"), N_("East"))
SUITS = {0: N_("blanks"), 1: N_("ones"), 2: N_("twos"), 3: N_("threes"), 4: N_("fours"),
         5: N_("fives"), 6: N_("sixes"), "nello": N_("nello"), "sevens": N_("sevens"),
         "nello-low": N_("nello, doubles low"), "nello-doubles": N_("nello, doubles a suit"),
         "doubles": N_("trumps: the doubles"), "follow-me": N_("follow-me, doubles high"),
         "follow-me-low": N_("follow-me, doubles low")}
# the strokes of "ALL", as Texas players tally 7 marks: (x0, y0, x1, y1) in a letter's box
ALL_STROKES = ((0, 0, 0, 1, 0.5, 0), (0, 0, 0.5, 0, 1, 1), (0, 0, 0.2, 0.6, 0.8, 0.6),
               (1, 0, 0, 0, 0, 1), (1, 0, 0, 1, 0.8, 1), (2, 0, 0, 0, 0, 1),
               (2, 0, 0, 1, 0.8, 1))


def bid_words(bid: str, tr: Translator | None) -> str:
    """A bid as the view writes it ("31", "2 marks", "plunge 4 marks") in the translator's
    words: "31", "2 marques", "plunge (4 marques)".  The one home of these words: the chat
    says bids through it too (bot/service/words/tricks.py)."""
    words = str(bid).split()
    specials = {"plunge": t(tr, "plunge"), "splash": t(tr, "splash")}
    if words and words[0] in specials:
        rest = bid_words(" ".join(words[1:]), tr) if words[1:] else ""
        return f"{specials[words[0]]} ({rest})" if rest else specials[words[0]]
    if len(words) == 2 and words[0].isdigit() and words[1].startswith("mark"):
        return tn(tr, "{n} mark", "{n} marks", int(words[0]))
    return str(bid)


def compass(place: int, tr: Translator | None) -> str:
    """The compass letter of a place round the table, in the reader's language."""
    return t(tr, COMPASS[place])[:1]


def suit_word(trumps: Any, tr: Translator | None) -> str:
    """Trumps in words: "blanks", "fives", "nello"..."""
    return t(tr, SUITS[trumps]) if trumps in SUITS else str(trumps)


def who(seat: int, names: list[str] | None, tr: Translator | None = None) -> str:
    """A seat by its player's name ("Seat 3" when it has none)."""
    if names and seat < len(names) and names[seat]:
        return names[seat]
    return t(tr, "Seat {n}", n=seat + 1)


def shown_trick(view: dict[str, Any]) -> tuple[list[dict[str, Any]], int | None, int | None]:
    """The plays on the table, the seat winning them, and the trick's number when it is
    complete: the trick being played, else the one the last move completed (its "trick"
    event), which stays on the table in that move's picture."""
    plays = list(view.get("trick") or [])
    past = view.get("tricks") or []
    done = any(e.get("type") == "trick" for e in view.get("events") or [])
    if not plays and past and (done or view.get("phase") == "over"):
        return list(past[-1]["tiles"]), past[-1]["winner"], len(past)
    if plays and past and plays == list(past[-1]["tiles"]):  # a hand's end, its last trick
        return plays, past[-1]["winner"], len(past)
    return plays, view.get("trick_winner"), None


def band_lines(view: dict[str, Any], tr: Translator | None = None,
               names: list[str] | None = None) -> list[str]:
    """The two lines above the table: the contract and trumps (or the bidding), then what
    the trick says (who took it, or which trick it is)."""
    contract = view.get("contract")
    phase = view.get("phase")
    if contract is None or phase == "bidding":
        top = t(tr, "Bidding")
        high = [b for b in view.get("bids") or [] if b["bid"] != "pass"]
        if high:
            top += "  ·  " + t(tr, "high bid {bid} ({who})", bid=high[-1]["bid"],
                               who=who(high[-1]["seat"], names, tr))
        if view.get("must_bid") and view.get("to_move") is not None:
            return [top, t(tr, "{who} must bid: the three others passed",
                           who=who(view["to_move"], names, tr))]
        return [top, t(tr, "Each seat bids once, higher than the last bid, or passes")]
    top = t(tr, "Contract {bid} by {who}", bid=bid_words(contract["text"], tr),
            who=who(contract["seat"], names, tr))
    trumps = view.get("trumps")
    if trumps is None:
        return [top, t(tr, "{who} names trumps", who=who(contract["seat"], names, tr))]
    top += "  ·  " + (t(tr, "trumps: {suit}", suit=suit_word(trumps, tr))
                      if isinstance(trumps, int) else suit_word(trumps, tr))
    _, winner, number = shown_trick(view)
    past = view.get("tricks") or []
    if number is not None and winner is not None:
        points = int(past[number - 1].get("points", 0))
        return [top, tn(tr, "Trick {k}: {who} takes {n} point",
                        "Trick {k}: {who} takes {n} points", points, k=number,
                        who=who(winner, names, tr))]
    if trumps == "nello":
        return [top, t(tr, "Nello: the bidder must lose every trick")]
    if trumps == "sevens":
        return [top, t(tr, "Sevens: the tile nearest 7 pips wins")]
    return [top, t(tr, "Trick {k} of {n}", k=len(past) + 1, n=7)]


def trick_rects(plays: list[dict[str, Any]]) -> dict[int, tuple[int, int, int, int]]:
    """Where each seat's tile of a trick goes (x0, y0, x1, y1): in front of the seat,
    around the middle of the table; standing for seats 1 and 3, lying for 2 and 4."""
    mx, my = MIDDLE
    out = {}
    for p in plays:
        seat = int(p["seat"])
        w, h = tile.footprint("v" if seat % 2 == 0 else "h", HALF)
        side = HALF / 2 + GAP
        x, y = {0: (mx - w / 2, my + GAP), 2: (mx - w / 2, my - GAP - h),
                1: (mx - side - w, my - h / 2), 3: (mx + side, my - h / 2)}[seat]
        out[seat] = (round(x), round(y), round(x) + w, round(y) + h)
    return out


def _label_at(seat: int) -> tuple[float, float, str]:
    """Where a seat's name goes (x, y, anchor), outside its tile of the trick."""
    mx, my = MIDDLE
    reach = GAP + 2 * HALF
    return {0: (mx, my + reach + 8, "mt"), 2: (mx, my - reach - 8 - NAME_HEIGHT, "mt"),
            1: (SIDE / 2 + 6, my - NAME, "mt"), 3: (WIDTH - SIDE / 2 - 6, my - NAME, "mt")}[seat]


def _seat_words(view: dict[str, Any], seat: int, tr: Translator | None) -> list[str]:
    """What a seat's name has under it: its bid while playing (the bids are in the middle
    of the table while bidding), and whether it sits out (nello)."""
    out = []
    contract = view.get("contract")
    if contract and contract.get("seat") == seat and view.get("phase") != "bidding":
        out.append(t(tr, "bid {bid}", bid=bid_words(contract["text"], tr)))
    if seat == view.get("sits_out"):
        out.append(t(tr, "sits out"))
    return out


def _table(im: Image.Image, view: dict[str, Any], names: list[str],
           tr: Translator | None, lines: list[str]) -> None:
    """The band and the table (the top `HEIGHT` px of `im`)."""
    draw = ImageDraw.Draw(im)
    for i, line in enumerate(lines):
        size = 26 if i == 0 else LINE
        text = canvas.fit_text(line, size, WIDTH - 24, bold=i == 0)
        canvas.draw_text(im, (WIDTH / 2, 12 + i * 38), text, size,
                         theme.TEXT if i == 0 else theme.WIN, "mt", bold=i == 0)
    draw.rounded_rectangle((SIDE + 6, BAND + 4, WIDTH - SIDE - 6, HEIGHT - 4), radius=40,
                           outline=theme.FELT_EDGE, width=3)
    plays, winner, _ = shown_trick(view)
    for seat in range(4):
        x, y, anchor = _label_at(seat)
        turn = view.get("to_move") == seat and not view.get("over")
        colour = theme.LAST if turn else theme.TEAMS[seat % 2]
        label = f"{compass(seat, tr)} · " + who(seat, names, tr)
        width = SIDE - 8 if seat % 2 else WIDTH - 2 * SIDE
        words = _seat_words(view, seat, tr)
        if seat == 2 and words:  # north: its words beside the name, clear of its tile below
            said = "  ·  ".join(words)
            label = canvas.fit_text(label, NAME, width // 2, bold=True)
            name_w = canvas.text_mask(label, NAME, True).width
            said = canvas.fit_text(said, DETAIL, width - name_w - 14)
            x0 = x - (name_w + 14 + canvas.text_mask(said, DETAIL).width) / 2
            box = canvas.draw_text(im, (x0, y), label, NAME, colour, "lt", bold=True)
            canvas.draw_text(im, (box[2] + 14, (box[1] + box[3]) / 2), said, DETAIL,
                             theme.TEXT_SOFT, "lm")
            continue
        box = canvas.draw_text(im, (x, y), canvas.fit_text(label, NAME, width, bold=True),
                               NAME, colour, anchor, bold=True)
        for i, text in enumerate(words):
            canvas.draw_text(im, (x, box[3] + 4 + i * (DETAIL + 6)),
                             canvas.fit_text(text, DETAIL, width), DETAIL, theme.TEXT_SOFT, "mt")
    rects = trick_rects(plays)
    for p in plays:
        seat = int(p["seat"])
        a, b = parse_tile(p["tile"])
        o = "v" if seat % 2 == 0 else "h"
        tx, ty, _, _ = rects[seat]
        style = "last" if seat == winner else "plain"
        if style == "last":
            mask, (dx, dy) = tile.glow_mask(o, HALF)
            im.paste(theme.LAST, (tx + dx, ty + dy), mask)
        mask, (dx, dy) = tile.shadow_mask(o, HALF)
        im.paste(theme.SHADOW, (tx + dx, ty + dy), mask)
        sprite = tile.sprite(a, b, o, HALF, style)
        im.paste(sprite, (tx, ty), sprite)
    if view.get("phase") == "bidding":  # each seat's bid where its tile will go
        everyone = [{"seat": s} for s in range(4)]
        spots = trick_rects(everyone)
        for b in view.get("bids") or []:
            x0, y0, x1, y1 = spots[int(b["seat"])]
            said = t(tr, "pass") if b["bid"] == "pass" else str(b["bid"])
            size = 30 if b["bid"] != "pass" else 24
            mask = canvas.text_mask(said, size, True)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            draw.rounded_rectangle((cx - mask.width / 2 - 10, cy - mask.height / 2 - 8,
                                    cx + mask.width / 2 + 10, cy + mask.height / 2 + 8),
                                   radius=12, fill=theme.PANEL)
            canvas.draw_text(im, (cx, cy), said, size,
                             theme.TEXT if b["bid"] != "pass" else theme.TEXT_SOFT, "mm", True)


def tally(im: Image.Image, right: float, middle: float, marks: int, target: int | None,
          colour: theme.RGB, height: int = 26) -> float:
    """Marks as Texas players draw them, right-aligned at `right`: the strokes of "ALL" for
    a game to 7 (then groups of five past it), else groups of five; the left edge drawn."""
    draw = ImageDraw.Draw(im)
    width = max(3, height // 8)
    top, bottom = middle - height / 2, middle + height / 2
    letter = height * 0.62
    letters = min(marks, 7) if target == 7 else 0
    rest = marks - letters
    groups = [min(5, rest - i) for i in range(0, rest, 5)]
    spans = (3 * (letter + 8) if letters else 0) + sum(
        (n if n < 5 else 4) * 9 + 10 for n in groups)
    x = right - spans
    left = x
    if letters:
        for n, x0, y0, x1, y1 in ((s[0], *s[2:]) for s in ALL_STROKES[:letters]):
            ox = x + n * (letter + 8)
            draw.line((ox + x0 * letter, top + y0 * height, ox + x1 * letter, top + y1 * height),
                      fill=colour, width=width)
        x += 3 * (letter + 8)
    for n in groups:
        for i in range(min(n, 4)):
            draw.line((x + i * 9, top, x + i * 9, bottom), fill=colour, width=width)
        if n == 5:
            draw.line((x - 4, bottom - 3, x + 31, top + 3), fill=colour, width=width)
        x += min(n, 4) * 9 + 10
    return left


def _teams(im: Image.Image, top: int, view: dict[str, Any], names: list[str],
           tr: Translator | None) -> int:
    """One row per team: names, tricks and points this hand, match total; the rows' end."""
    teams = view.get("teams") or [[0, 2], [1, 3]]
    totals = view.get("team_scores") or [0, 0]
    tricks = view.get("team_tricks") or [0, 0]
    points = view.get("team_points") or [0, 0]
    marks = view.get("target_unit") == "marks"
    playing = view.get("phase") in ("playing", "over")
    winners = set((view.get("result") or {}).get("winners") or [])
    draw = ImageDraw.Draw(im)
    y = top
    for i, team in enumerate(teams):
        mid = y + ROW / 2
        draw.rounded_rectangle((10, y + 3, WIDTH - 10, y + ROW - 3), radius=8, fill=theme.PANEL)
        draw.rounded_rectangle((10, y + 3, 18, y + ROW - 3), radius=4, fill=theme.TEAMS[i % 2])
        total = int(totals[i]) if i < len(totals) else 0
        right = WIDTH - 22
        if marks:
            number = canvas.draw_text(im, (right, mid), str(total), 26, theme.TEXT, "rm", True)
            edge = tally(im, number[0] - 14, mid, total, view.get("target"), theme.TEXT)
        else:
            edge = canvas.draw_text(im, (right, mid), str(total), 26, theme.TEXT, "rm", True)[0]
        hand = ""
        if playing and i < len(tricks) and (tricks[i] or view.get("phase") == "over"):
            hand = (tn(tr, "{n} trick", "{n} tricks", int(tricks[i])) + " · "
                    + tn(tr, "{n} point", "{n} points", int(points[i])))
        hand_w = canvas.text_mask(hand, DETAIL).width if hand else 0
        name = " & ".join(who(s, names, tr) for s in team)
        colour = theme.WIN if set(team) & winners else theme.TEXT
        room = edge - 12 - (hand_w + 16 if hand else 0) - 28
        canvas.draw_text(im, (28, mid), canvas.fit_text(name, NAME, room, True), NAME, colour,
                         "lm", True)
        if hand:
            canvas.draw_text(im, (edge - 16, mid), hand, DETAIL, theme.TEXT_SOFT, "rm")
        y += ROW
    return y


def info_line(view: dict[str, Any], names: list[str], tr: Translator | None) -> str:
    """The hand's number, how the game is won, whose turn it is."""
    parts = [t(tr, "Round {n}", n=view.get("round", 1))]
    target = view.get("target")
    if target is not None:
        parts.append(tn(tr, "Game to {n} mark", "Game to {n} marks", int(target))
                     if view.get("target_unit") == "marks"
                     else t(tr, "Game to {target} points", target=target))
    turn = turn_text(view, names, tr)
    if turn:
        parts.append(turn)
    return "  ·  ".join(parts)


def _picture(view: dict[str, Any], names: list[str], tr: Translator | None,
             lines: list[str], footer: str | None, lines_under: Sequence[str] = ()
             ) -> Image.Image:
    sheet = lines_under
    sheet = [(i, x) for i, line in enumerate(sheet)
             for x in wrap(line, SHEET, WIDTH - 28, bold=i == 0)]
    sheet_h = len(sheet) * (SHEET + 12) + (16 if sheet else 0)
    height = HEIGHT + 8 + 2 * ROW + (8 + LINE + 12 if footer else 4) + sheet_h
    im = canvas.felt(WIDTH, height)
    _table(im, view, names, tr, lines)
    y = _teams(im, HEIGHT + 8, view, names, tr)
    if footer:
        canvas.draw_text(im, (WIDTH / 2, y + 8), canvas.fit_text(footer, LINE, WIDTH - 24),
                         LINE, theme.TEXT_SOFT, "mt")
        y += 8 + LINE + 12
    if sheet:
        y += 8
        ImageDraw.Draw(im).line((12, y - 6, WIDTH - 12, y - 6), fill=theme.FELT_EDGE, width=2)
        for i, shown in sheet:
            canvas.draw_text(im, (14, y), shown, SHEET, theme.WIN if i == 0 else theme.TEXT,
                             bold=i == 0)
            y += SHEET + 12
    return im


def tricks_image(view: dict[str, Any], tr: Translator | None = None,
                 names: list[str] | None = None) -> Image.Image:
    """The public picture of a trick game: band, table with the trick, teams, turn."""
    seats = seat_names(view, names, tr)
    return _picture(view, seats, tr, band_lines(view, tr, seats), info_line(view, seats, tr))


def finished_hand(view: dict[str, Any]) -> dict[str, Any] | None:
    """The view of the hand that ended last (``last_round``'s board over `view`), or None."""
    last = view.get("last_round") or {}
    board = last.get("board") or {}
    if not board.get("tricks"):
        return None
    return {**view, **board, "team_scores": last.get("totals", view.get("team_scores"))}


def last_trick_image(view: dict[str, Any], tr: Translator | None = None,
                     names: list[str] | None = None) -> Image.Image:
    """The last trick taken: this hand's, else the one that ended the last hand."""
    seats = seat_names(view, names, tr)
    shown = view if view.get("tricks") else finished_hand(view)
    if shown is None:
        return _picture(view, seats, tr, [t(tr, "No trick taken yet"), ""], None)
    shown = {**shown, "phase": "over", "trick": [], "to_move": None}
    return _picture(shown, seats, tr, band_lines(shown, tr, seats), None)


def last_trick_png(view: dict[str, Any], tr: Translator | None = None,
                   names: list[str] | None = None) -> bytes:
    """The last trick taken, as PNG bytes (public: every past trick is)."""
    return png.encode_png(canvas.frame(last_trick_image(view, tr, names)))


def sheet_image(view: dict[str, Any], names: list[str] | None, lines: list[str],
                tr: Translator | None = None) -> Image.Image:
    """The hand that just ended: its last trick and contract, the teams' tricks, points and
    totals after it, then the score sheet's `lines`."""
    seats = seat_names(view, names, tr)
    hand = finished_hand(view) or view
    hand = {**hand, "phase": "over", "to_move": None, "trick": []}
    return _picture(hand, seats, tr, band_lines(hand, tr, seats), None, lines)


def wrap(line: str, size: int, width: int, bold: bool = False) -> list[str]:
    """`line` in lines `width` px wide, cut between its " · " parts where it can."""
    out: list[str] = []
    for part in line.split(" · "):
        joined = f"{out[-1]} · {part}" if out else part
        if out and canvas.text_mask(joined, size, bold).width <= width:
            out[-1] = joined
        else:
            out.append(part)
    return [canvas.fit_text(x, size, width, bold) for x in out]


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
        heading += "  ·  " + (t(tr, "name trumps") if phase != "bidding" else t(
            tr, "you must bid") if "pass" not in legal else t(tr, "your bid"))
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
