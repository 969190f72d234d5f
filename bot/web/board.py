"""PLACEHOLDER (branch i30-web only): the board helper's `state_payload` replaces this file at
the merge (contract: /work/briefs/web-contract.md).  Built from the view alone, like the real
one: a public view gives no hand and no moves."""

from __future__ import annotations

from html import escape
from typing import Any


def state_payload(view: dict[str, Any], *, names: list[str], lang: str) -> dict[str, Any]:
    seat = view.get("seat")
    legal = [str(m) for m in view.get("legal") or []] if seat is not None else []
    hand = [str(x) for x in view.get("hand") or []] if seat is not None else []
    tiles = [m.split()[0] for m in legal]
    return {
        "seat": seat,
        "board_svg": f'<svg xmlns="http://www.w3.org/2000/svg" role="img"><text>'
                     f'{escape(str(view.get("board", "")))[:2000]}</text></svg>',
        "hand": [{"tile": x, "label": x, "playable": x in tiles} for x in hand],
        "moves": [{"move": m, "tile": m.split()[0] if "-" in m else None, "target": None,
                   "label": m} for m in legal if "-" in m.split()[0]],
        "buttons": [{"move": m, "label": m} for m in legal if "-" not in m.split()[0]],
        "lines": [f"to move: {view.get('to_move')}"],
        "names": names, "to_move": view.get("to_move"), "over": bool(view.get("over")),
    }
