"""Plain-text pictures of a view for the terminal: the line or the cross with its named open
ends, Canton's captured piles, the "20" game's grid, the hand, the scores, and what happened
(the bot's words)."""

from __future__ import annotations

from typing import Any

from core.line.cross import ARM_NAMES, LAYOUT_ARMS
from render.grid import LETTERS, cell_xy
from render.grid import extent as grid_extent
from render.words import seat_label, seat_tiles, tn

from ..service.words import events_lines


def seat_name(view: dict[str, Any], seat: int, names: list[str] | None = None) -> str:
    """The seat's name, else "Seat 1", "Seat 2"... (counted from 1, as the pictures do)."""
    return seat_label(names or [], seat)


ARM_ORDER = tuple(ARM_NAMES[a] for a in LAYOUT_ARMS)  # the order of a cross layout's "arms"


def cell(tile: str, starred: bool = False) -> str:
    a, b = tile.split("-")
    return f"*[{a}|{b}]*" if starred else f"[{a}|{b}]"


def board_text(view: dict[str, Any], names: list[str] | None = None) -> str:
    """The table: a line as ``[4|6][6|6][6|2]`` (the last tile starred), a cross as one
    line per arm and branch, named as the moves name them; then the open ends by name, and
    Canton's captured piles."""
    layout = view.get("layout") or {}
    if layout.get("kind") == "cross":
        lines = cross_lines(layout)
    elif layout.get("kind") == "grid":
        lines = grid_lines(view, names)
    else:
        chain = layout.get("chain", view.get("board", []))
        last = layout.get("last")
        lines = ["Board: " + ("".join(cell(x, i == last) for i, x in enumerate(chain))
                              if chain else "(empty)")]
    lines += ends_lines(view)
    piles = view.get("captured")
    if piles:
        lines.append("Captured: " + ", ".join(
            f"{seat_name(view, s, names)} {tn(None, '{n} tile', '{n} tiles', p['tiles'])} "
            f"({tn(None, '{n} point', '{n} points', p['points'])})"
            for s, p in enumerate(piles)))
    return "\n".join(lines)


def grid_lines(view: dict[str, Any], names: list[str] | None = None) -> list[str]:
    """The "20" game's grid as the picture draws it: column letters, row numbers, each half's
    value ("7--4" a tile across, a "|" under a half joined to the one below), "20" a marker,
    "." a free cell; then the last play and each seat's markers left."""
    layout = view.get("layout") or {}
    c0, r0, c1, r1 = grid_extent(layout)
    values: dict[tuple[int, int], str] = {}
    east: set[tuple[int, int]] = set()  # a half joined to the half on its left
    south: set[tuple[int, int]] = set()  # a half joined to the half under it
    for entry in layout.get("tiles") or []:
        (ax, ay), (bx, by) = (cell_xy(c) for c in entry["cells"])
        a, b = str(entry["tile"]).split("-")
        values[(ax, ay)], values[(bx, by)] = a, b
        if ay == by:
            east.add((max(ax, bx), ay))
        else:
            south.add((ax, min(ay, by)))
    for m in layout.get("markers") or []:
        values[cell_xy(m["cell"])] = "20"
    width = len(str(r1 + 1))
    out = [" " * width + " " + "".join(f"  {LETTERS[c]}" for c in range(c0, c1 + 1))]
    for r in range(r0, r1 + 1):
        row = ""
        for c in range(c0, c1 + 1):
            text = values.get((c, r), ".")
            row += ("--" + text) if (c, r) in east else text.rjust(3)
        out.append(str(r + 1).rjust(width) + " " + row)
        joins = "".join("  |" if (c, r) in south else "   " for c in range(c0, c1 + 1))
        if joins.strip():
            out.append(" " * (width + 1) + joins.rstrip())
    if not layout.get("tiles"):
        out.append("The first line starts on M13.")
    last = view.get("last_play")
    if last:
        out.append(f"Last play: {seat_name(view, last['seat'], names)} {last['move']}"
                   + (f" (markers on {', '.join(last['markers'])})" if last.get("markers")
                      else ""))
    left = layout.get("markers_left") or view.get("markers") or []
    if left:
        out.append("Markers left: " + ", ".join(
            f"{seat_name(view, s, names)} {n}" for s, n in enumerate(left)))
    return out


def ends_lines(view: dict[str, Any]) -> list[str]:
    ends = view.get("ends") or []
    named = view.get("end_names")
    if named and len(named) == len(ends):
        return ["Open ends: " + ", ".join(f"{n} {e}" for n, e in zip(named, ends, strict=True))]
    if len(ends) == 2:
        return [f"Open ends: {ends[0]} and {ends[1]}"]
    return []


def cross_lines(layout: dict[str, Any]) -> list[str]:
    """The spinner, then each arm, then each branch (``up-3-left``: the left branch of the
    3rd tile of the up arm)."""
    last = layout.get("last")
    lines = ["Board: spinner " + cell(layout["spinner"], last == [])]
    for i, name in enumerate(ARM_ORDER):
        chain = layout["arms"][i]
        if chain or layout["open"][i]:
            starred = last[1:] if last and last[0] == i else None
            chain_lines(name, chain, starred, lines)
    return lines


def chain_lines(name: str, chain: list[Any], last: list[int] | None, out: list[str]) -> None:
    """One chain as ``name: [a|b][b|c]``, then its branches, depth first."""
    cells = []
    for j, node in enumerate(chain):
        tile = node["tile"] if isinstance(node, dict) else node
        cells.append(cell(tile, last == [j]))
    out.append(f"  {name}: " + ("".join(cells) or "(empty)"))
    for j, node in enumerate(chain):
        if isinstance(node, dict):
            for k, side in enumerate(("left", "right")):
                inner = last[2:] if last and len(last) > 2 and last[:2] == [j, k] else None
                if node["branches"][k]:  # an empty branch is listed in the open ends
                    chain_lines(f"{name}-{j + 1}-{side}", node["branches"][k], inner, out)


def table_text(view: dict[str, Any], names: list[str] | None = None) -> str:
    """Round, stock, and one line per seat: tiles left, score, whose turn."""
    head = f"Round {view['round']}"
    if view.get("target"):
        head += f" (match to {view['target']})"
    if view.get("rounds"):
        head += f" of {view['rounds']}"
    head += f" · stock {view['stock']}"
    if view.get("sleeping"):
        head += f" · {view['sleeping']} sleeping"
    lines = [head]
    teams = view.get("teams")
    for seat in range(len(view["hand_sizes"])):
        mark = "→" if seat == view.get("to_move") else " "
        extra = ""
        if seat in view.get("eliminated", []):
            extra = " (eliminated)"
        elif seat in view.get("out", []):
            extra = " (out)"
        team = ""
        if teams:
            team = f" team {next(i for i, t in enumerate(teams) if seat in t) + 1}"
        lines.append(
            f" {mark} {seat_name(view, seat, names)}{team}: "
            f"{seat_tiles(view, seat)}, "
            f"score {view['scores'][seat]}{extra}"
        )
    return "\n".join(lines)


def hand_text(view: dict[str, Any]) -> str:
    """The seat's hand, and its legal moves numbered when it is to move."""
    hand = view.get("hand", [])
    out = ["Your hand: " + " ".join(f"[{t.replace('-', '|')}]" for t in hand)]
    legal = view.get("legal")
    if legal:
        out.append("Moves: " + "  ".join(f"{i}) {m}" for i, m in enumerate(legal, 1)))
    return "\n".join(out)


def events_text(view: dict[str, Any], names: list[str] | None = None) -> list[str]:
    """What happened since the last decision, one sentence each (the bot's English)."""
    seats = names or [seat_name(view, s) for s in range(view.get("players", 0))]
    return events_lines(view, seats, "en")


def result_text(result: dict[str, Any], names: list[str] | None = None,
                view: dict[str, Any] | None = None) -> str:
    v = view or {}
    winners = ", ".join(seat_name(v, s, names) for s in result["winners"])
    ranking = " > ".join(
        f"{seat_name(v, s, names)} ({result['scores'][s]})" for s in result["ranking"]
    )
    return f"Winner{'s' if len(result['winners']) > 1 else ''}: {winners}\nRanking: {ranking}"
