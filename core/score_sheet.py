"""A finished round's score sheet: per scorer, one line per reason it scored (the points
scored in play, then the round's end with the hands it counted), and the line under the
table that says how an unusual match is won.  `core.match.MatchBase` writes them."""

from __future__ import annotations

from typing import Any

from .scoring import MatchRules, nearest

# The code of the line a round's end scoring writes on the score sheet, by `MatchRules.scoring`.
END_CODES = {"pips": "hands", "others": "hands", "difference": "difference", "round": "round",
             "penalty": "held", "held": "held", "worst": "worst", "kept": "kept"}
DETAILED = ("capture", "ends", "pips")  # reasons written "capture 5-0+5-2", "ends 15"...


def score_sheet(scored: list[tuple[int, int, str]], points: list[int], summary: dict[str, Any],
                mrules: MatchRules, scorers: list[tuple[int, ...]]) -> list[list[dict[str, Any]]]:
    """Per scorer, the lines of one round's score sheet: ``{"code", "points", "seat",
    "detail"}`` for the points scored in play (the lead, a cap, a capture, the ends...),
    in order, then the round's end (code from `END_CODES`, with ``"from"``: the pips
    held by the scorers it counts, each ``{"seats", "pips", "counted"}`` (rounded
    with ``round_to``))."""
    out: list[list[dict[str, Any]]] = [[] for _ in scorers]
    where = {s: i for i, unit in enumerate(scorers) for s in unit}
    for seat, p, why in scored:
        code, detail = why, ""
        word, _, rest = why.partition(" ")
        if word in DETAILED:
            code, detail = word, rest
        out[where[seat]].append({"code": code, "points": p, "seat": seat, "detail": detail})
    counts, winners = summary["counts"], summary["winners"]
    held = [sum(counts[s] for s in unit) for unit in scorers]
    lost = [i for i, unit in enumerate(scorers) if not any(s in winners for s in unit)]
    for i, p in enumerate(points):
        if not p:
            continue
        code = END_CODES.get(mrules.scoring, mrules.scoring)
        if code == "difference" and summary["reason"] != "blocked":
            code = "hands"
        line: dict[str, Any] = {"code": code, "points": p, "seat": None, "detail": ""}
        counted: list[int] | None = None
        if code == "hands":
            counted = [j for j in (lost if mrules.scoring != "others" else range(len(scorers)))
                       if j != i]
        elif code == "difference":
            counted = lost
        elif code == "worst" and "worst" in summary:
            counted = [summary["worst"]]
        if counted is not None:
            step = mrules.round_to if code != "worst" else 1
            line["from"] = [{"seats": list(scorers[j]), "pips": held[j],
                             "counted": nearest(held[j], step)} for j in counted]
            if code == "difference":
                line["own"] = held[i]
        out[i].append(line)
    return out


def match_goal(mrules: MatchRules) -> str | None:
    """One line saying how an unusual match is won (the strip under the table)."""
    if mrules.countdown:
        return f"Totals count down from {mrules.start}: the first at {mrules.target} or below wins"
    if mrules.reach == "loses" and mrules.target is not None:
        return f"Reaching {mrules.target} loses: the last player left wins"
    return None
