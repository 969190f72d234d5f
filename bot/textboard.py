"""Plain-text pictures of a view for the terminal: the line, the hand, the scores."""

from __future__ import annotations

from typing import Any


def seat_name(view: dict[str, Any], seat: int, names: list[str] | None = None) -> str:
    if names and seat < len(names):
        return names[seat]
    return f"Seat {seat}"


def board_text(view: dict[str, Any]) -> str:
    """The chain as ``[4|6][6|6][6|2]`` with the last tile starred and the open ends."""
    layout = view.get("layout") or {}
    chain = layout.get("chain", view.get("board", []))
    if not chain:
        return "Board: (empty)"
    last = layout.get("last")
    cells = []
    for i, tile in enumerate(chain):
        a, b = tile.split("-")
        cell = f"[{a}|{b}]"
        cells.append(f"*{cell}*" if i == last else cell)
    ends = view.get("ends") or []
    tail = f"   open ends: {ends[0]} and {ends[1]}" if len(ends) == 2 else ""
    return "Board: " + "".join(cells) + tail


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
    for seat, size in enumerate(view["hand_sizes"]):
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
            f" {mark} {seat_name(view, seat, names)}{team}: {size} tiles, "
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
    """What happened since the last decision, one sentence each."""
    out = []
    for e in view.get("events", []):
        kind = e["type"]
        who = seat_name(view, e["seat"], names) if "seat" in e else ""
        if kind == "draw":
            tiles = f" ({', '.join(e['tiles'])})" if "tiles" in e else ""
            out.append(f"{who} drew {e['count']} tile{'s' if e['count'] != 1 else ''}{tiles}.")
        elif kind == "pass":
            out.append(f"{who} cannot play and passes.")
        elif kind == "out":
            out.append(f"{who} played their last tile!")
        elif kind == "eliminated":
            out.append(f"{who} cannot play and is eliminated.")
        elif kind == "end":
            winners = ", ".join(seat_name(view, s, names) for s in e["winners"])
            why = {"out": "domino", "blocked": "the game is blocked",
                   "last": "last player standing"}.get(e["reason"], e["reason"])
            out.append(f"Round over ({why}): {winners} win{'s' if len(e['winners']) == 1 else ''}.")
        elif kind == "round":
            out.append(f"Round {e['round']} begins; {seat_name(view, e['leader'], names)} leads.")
    return out


def result_text(result: dict[str, Any], names: list[str] | None = None,
                view: dict[str, Any] | None = None) -> str:
    v = view or {}
    winners = ", ".join(seat_name(v, s, names) for s in result["winners"])
    ranking = " > ".join(
        f"{seat_name(v, s, names)} ({result['scores'][s]})" for s in result["ranking"]
    )
    return f"Winner{'s' if len(result['winners']) > 1 else ''}: {winners}\nRanking: {ranking}"
